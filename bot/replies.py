"""Platform-neutral values the session manager answers with, and who is talking to it.

Adapters translate these to Discord or Telegram messages: :class:`Reply` is the text, an
optional board picture with its alt text, and optional :class:`Action` buttons.  An action's
``id`` is compact (at most 64 bytes, Telegram's callback-data limit) and holds everything the
manager needs to resolve it after a restart, e.g. ``acc:17`` (accept challenge 17) or
``mv:42:3:e5`` (play e5 in game 42 at ply 3).

>>> Action.make("Accept", "acc", 17).id
'acc:17'
>>> parse_action("mv:42:3:c1>e6 a4-b4")
('mv', ['42', '3', 'c1>e6 a4-b4'])
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ACTION_ID_LIMIT",
    "Action",
    "Chat",
    "Reply",
    "User",
    "parse_action",
]

#: Longest action id in bytes (Telegram's callback_data limit).
ACTION_ID_LIMIT = 64

# How many ':'-separated fields each action kind takes after its name; the last may hold ':'-free
# text with spaces (a move).
ACTION_FIELDS = {
    "acc": 1,  # acc:<challenge> accept
    "dec": 1,  # dec:<challenge> decline
    "can": 1,  # can:<challenge> cancel
    "bd": 1,  # bd:<game> board
    "hi": 1,  # hi:<game> history
    "rs": 1,  # rs:<game> ask to confirm resigning
    "rsy": 1,  # rsy:<game> resign, confirmed
    "mv": 3,  # mv:<game>:<ply>:<move> move
    "mvy": 3,  # mvy:<game>:<ply>:<move> play a move that loses, after the warning
    "dra": 1,  # dra:<game> accept the draw offer
    "drd": 1,  # drd:<game> decline the draw offer
    "tba": 1,  # tba:<game> accept the takeback request
    "tbd": 1,  # tbd:<game> decline the takeback request
    "rm": 1,  # rm:<game> ask for a rematch of a finished game
}


@dataclass(frozen=True)
class User:
    """A player as a platform knows them: platform name, platform user id, display name."""

    platform: str
    user_id: str
    name: str


@dataclass(frozen=True)
class Chat:
    """A conversation on a platform (a channel, a group, a direct chat, the console)."""

    platform: str
    chat_id: str


@dataclass(frozen=True)
class Action:
    """A button: its label and the compact id the manager resolves with ``press``."""

    label: str
    id: str

    @classmethod
    def make(cls, label: str, kind: str, *fields: object) -> Action:
        """Build an action id from its kind and fields; raises ``ValueError`` if it would be
        longer than :data:`ACTION_ID_LIMIT` bytes or a field holds ``':'``."""
        parts = [str(f) for f in fields]
        if kind not in ACTION_FIELDS or len(parts) != ACTION_FIELDS[kind]:
            raise ValueError(f"bad action {kind!r} with {len(parts)} fields")
        if any(":" in p for p in parts[:-1]) or ":" in parts[-1]:
            raise ValueError("action fields may not contain ':'")
        action_id = ":".join([kind, *parts])
        if len(action_id.encode()) > ACTION_ID_LIMIT:
            raise ValueError(f"action id longer than {ACTION_ID_LIMIT} bytes")
        return cls(label, action_id)


def parse_action(action_id: str) -> tuple[str, list[str]] | None:
    """Split an action id into its kind and fields, or ``None`` if it is not one we made."""
    if not isinstance(action_id, str) or len(action_id.encode()) > ACTION_ID_LIMIT:
        return None
    kind, _, rest = action_id.partition(":")
    count = ACTION_FIELDS.get(kind)
    if count is None or not rest:
        return None
    fields = rest.split(":", count - 1)
    if len(fields) != count or not all(fields):
        return None
    return kind, fields


@dataclass(frozen=True)
class Reply:
    """What the manager answers: one message.

    ``ok`` is ``False`` for a refusal (then ``text`` is one line saying why and nothing
    changed).  ``image`` is a PNG of the board when there is one, ``alt`` its text description;
    ``game_id`` names the game the reply is about, if any.
    """

    text: str
    image: bytes | None = None
    alt: str | None = None
    actions: tuple[Action, ...] = ()
    ok: bool = True
    game_id: int | None = None
    #: an animated GIF recap of the whole game (sent with the reply that ends a game)
    animation: bytes | None = None

    @classmethod
    def refuse(cls, text: str) -> Reply:
        """A one-line refusal."""
        return cls(" ".join(text.split()), ok=False)
