"""The page's script and style sheet (``static/``), read once, each served at an address that
names its content (``/static/<hash>/<name>``): a browser keeps it for a year and asks again
only when a new version of the bot changes it.

>>> url("board.js").startswith("/static/") and url("board.js").endswith("/board.js")
True
>>> ASSETS["board.css"].kind
'text/css'
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources

__all__ = ["ASSETS", "BOARD_PARTS", "FOREVER", "Asset", "url"]

#: board.js's parts by concern, loaded before it in this order (each defines a global it uses).
BOARD_PARTS = ("session.js", "drawing.js", "panel.js", "review.js", "actions.js")
_KINDS = {
    "board.js": "text/javascript",
    **dict.fromkeys(BOARD_PARTS, "text/javascript"),
    "board.css": "text/css",
    # Telegram's Mini App protocol (web events), loaded before board.js, which calls it.
    "host.js": "text/javascript",
    # The board's size, one rule for the page's placeholder and board.js (which calls it).
    "boardbox.js": "text/javascript",
    # The plan mode: conditional moves prepared on the web board.
    "plan.js": "text/javascript",
    # The Discord Activity's page (bot.webboard.activity): its script and the Embedded App SDK.
    "activity.js": "text/javascript",
    "activity.css": "text/css",
    "discord-sdk.js": "text/javascript",
}
#: The Cache-Control of a file asked for at its own version's address.
FOREVER = "public, max-age=31536000, immutable"


@dataclass(frozen=True)
class Asset:
    """A static file: its bytes, its type and the hash of its content (the address's part)."""

    body: bytes
    kind: str
    version: str


def _read(name: str) -> Asset:
    body = resources.files("bot.webboard").joinpath("static", name).read_bytes()
    return Asset(body, _KINDS[name], hashlib.sha256(body).hexdigest()[:16])


#: The static files by name.
ASSETS = {name: _read(name) for name in _KINDS}


def url(name: str) -> str:
    """The address of static file ``name``, naming its version."""
    return f"/static/{ASSETS[name].version}/{name}"
