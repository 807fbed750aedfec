"""The pictures in ``docs/img/discord-*.png`` cannot drift from what the bot sends: the drawing
script (``docs/tools/discord_snapshot.py``) plays its game through the fake, and its HTML holds
exactly the components (buttons, select menus), attachments and texts the fake recorded for the
messages it draws: no more, no fewer, in the same order.  (The photograph itself is Chromium
drawing that HTML, done when the script runs.)"""

from __future__ import annotations

import html
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from tests.scripts import load_script

SCRIPT = "docs/tools/discord_snapshot.py"


class _Drawn(HTMLParser):
    """The components and attachments an HTML page draws, by message, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[list[tuple[str, str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if "data-message" in found:
            self.messages.append([])
        kind = found.get("data-kind")
        if kind == "button":
            self.messages[-1].append(
                (kind, found["data-custom-id"] or "", found["data-label"] or "")
            )
        elif kind == "select":
            self.messages[-1].append(
                (kind, found["data-custom-id"] or "", found["data-options"] or "")
            )
        elif kind == "attachment":
            self.messages[-1].append((kind, found["data-filename"] or "", ""))


def _recorded(message: Any) -> list[tuple[str, str, str]]:
    """What the fake holds for a message, in the drawing's terms (attachments first, as
    Discord shows them above the components)."""
    out = [("attachment", str(a["filename"]), "") for a in message.attachments]
    for c in message.walk_components():
        if c.get("type") == 2:
            out.append(("button", str(c["custom_id"]), str(c["label"])))
        elif c.get("type") == 3:
            out.append(("select", str(c["custom_id"]), str(len(c["options"]))))
    return out


def _drawn(page: str) -> list[list[tuple[str, str, str]]]:
    parser = _Drawn()
    parser.feed(page)
    return parser.messages


async def test_the_drawings_hold_exactly_what_the_fake_recorded(tmp_path: Path) -> None:
    snapshot = load_script(SCRIPT)
    scene = await snapshot.record(tmp_path / "hexhall.db")
    thread_page, picker_page = snapshot.thread_html(scene), snapshot.picker_html(scene)
    drawn_thread, drawn_picker = _drawn(thread_page), _drawn(picker_page)
    assert drawn_thread == [_recorded(s.message) for s in (scene.card, *scene.thread)]
    assert drawn_picker == [_recorded(s.message) for s in (scene.board, *scene.picker)]
    # What the pictures claim to show is what the bot sent: the thread by the game's name,
    # boards as attachments with Move, the picker's menus, the preview's Play it / Cancel.
    assert html.escape(scene.thread_name) in thread_page and "Maphex" in scene.thread_name
    for board in scene.thread:
        assert ("attachment", "board.png", "") in _recorded(board.message)
    # Only the game's latest board keeps live buttons, Move first.
    *older, latest = scene.thread
    assert all(kind == "attachment" for m in older for kind, _, _ in _recorded(m.message))
    assert next(c[2] for c in _recorded(latest.message) if c[0] == "button") == "Move"
    opened, preview = scene.picker[0].message, scene.picker[-1].message
    assert opened.ephemeral and preview.ephemeral and opened.id == preview.id
    assert any(kind == "select" for kind, _, _ in _recorded(opened))
    assert [c[2] for c in _recorded(preview) if c[0] == "button"] == ["Play it", "Cancel"]
    # Every text the bot sent is drawn (the words themselves, markdown aside).
    for shot in scene.shots():
        for word in shot.message.content.split():
            if word.isalpha():
                assert word in thread_page + picker_page, word
