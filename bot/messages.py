"""Platform-neutral values the session manager answers with, and who is talking to it.

This is the bottom layer of ``bot/``: pure values, imported by sessions, store, delivery and the
adapters alike, importing none of them.

:class:`Text` is a message's words with the players it names kept apart as :class:`Mention`
segments (and :class:`Strong` / :class:`Code` spans), so each adapter can mention people and
format emphasis its own way and escape names for its platform; ``str(text)`` is the plain form.

>>> ada = Mention("console", "ada", "Ada")
>>> t = Text.of(ada, " to move in ", Strong("#3"), ".")
>>> str(t)
'Ada to move in #3.'
>>> Text.from_json(t.to_json()) == t
True
>>> t.render(mention=lambda m: "@" + m.name, strong=lambda s: "*" + s + "*")
'@Ada to move in *#3*.'

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

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ACTION_ID_LIMIT",
    "Action",
    "Chat",
    "Code",
    "Mention",
    "Reply",
    "Segment",
    "Strong",
    "Text",
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
class Mention:
    """A player named in a text: the platform and user id say whom to mention, ``name`` is what
    to show where the platform cannot mention (and in the plain form)."""

    platform: str
    user_id: str
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Strong:
    """A span shown with emphasis (bold where the platform has it)."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Code:
    """A span shown as typed input or notation (monospace where the platform has it), e.g. a
    move or a command."""

    text: str

    def __str__(self) -> str:
        return self.text


#: One piece of a :class:`Text`.
Segment = str | Mention | Strong | Code

_SEGMENT_TAGS: dict[str, type[Mention] | type[Strong] | type[Code]] = {
    "m": Mention,
    "b": Strong,
    "c": Code,
}


@dataclass(frozen=True)
class Text:
    """Words with mentions and emphasis kept as segments (see the module docstring)."""

    segments: tuple[Segment, ...] = ()

    @classmethod
    def of(cls, *parts: Segment | Text) -> Text:
        """A text from pieces; nested texts are flattened and empty strings dropped."""
        out: list[Segment] = []
        for part in parts:
            out.extend(part.segments if isinstance(part, Text) else (part,))
        return cls(tuple(p for p in out if p != ""))

    def __str__(self) -> str:
        return "".join(str(s) for s in self.segments)

    def __add__(self, other: Segment | Text) -> Text:
        return Text.of(self, other)

    def __bool__(self) -> bool:
        return bool(str(self))

    def mentions(self) -> Iterator[Mention]:
        """The players this text names, in order."""
        return (s for s in self.segments if isinstance(s, Mention))

    def render(
        self,
        *,
        escape: Callable[[str], str] = str,
        mention: Callable[[Mention], str] | None = None,
        strong: Callable[[str], str] | None = None,
        code: Callable[[str], str] | None = None,
    ) -> str:
        """The text in a platform's markup: ``escape`` is applied to every plain piece (and to
        the contents of spans), the other callables wrap what they are given (already escaped;
        ``mention`` gets the :class:`Mention` and must escape the name itself)."""
        out = []
        for s in self.segments:
            if isinstance(s, Mention):
                out.append(mention(s) if mention else escape(s.name))
            elif isinstance(s, Strong):
                out.append(strong(escape(s.text)) if strong else escape(s.text))
            elif isinstance(s, Code):
                out.append(code(escape(s.text)) if code else escape(s.text))
            else:
                out.append(escape(s))
        return "".join(out)

    def to_json(self) -> str:
        """A JSON form for storage (:meth:`from_json` reads it back)."""
        parts: list[Any] = []
        for s in self.segments:
            if isinstance(s, Mention):
                parts.append(["m", s.platform, s.user_id, s.name])
            elif isinstance(s, Strong):
                parts.append(["b", s.text])
            elif isinstance(s, Code):
                parts.append(["c", s.text])
            else:
                parts.append(s)
        return json.dumps(parts, ensure_ascii=False)

    @classmethod
    def from_json(cls, data: str) -> Text:
        """The text stored by :meth:`to_json`; ``ValueError`` if it is not one."""
        try:
            raw = json.loads(data)
            segments: list[Segment] = []
            for part in raw:
                if isinstance(part, str):
                    segments.append(part)
                    continue
                tag, *fields = part
                kind = _SEGMENT_TAGS[tag]
                if not all(isinstance(f, str) for f in fields):
                    raise TypeError("segment fields are strings")
                segments.append(kind(*fields))
            return cls(tuple(segments))
        except (TypeError, KeyError, ValueError) as exc:
            raise ValueError(f"not a stored text: {exc}") from None

    @classmethod
    def join(cls, parts: Iterable[Text | Segment], sep: str = "") -> Text:
        """The parts with ``sep`` between them."""
        out: list[Segment | Text] = []
        for i, part in enumerate(parts):
            if i:
                out.append(sep)
            out.append(part)
        return cls.of(*out)


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
