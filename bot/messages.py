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

>>> Action.make("Accept", ActionKind.ACCEPT, 17).id
'acc:17'
>>> parse_action("mv:42:3:c1>e6 a4-b4")
(<ActionKind.MOVE: 'mv'>, ['42', '3', 'c1>e6 a4-b4'])
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Protocol, cast

from bot.actions import (
    ACTION_FIELDS,
    ACTION_ID_LIMIT,
    ACTION_PREFIX,
    Action,
    ActionKind,
    parse_action,
)
from bot.limits import display_name
from bot.outcomes import Outcome, Refused

__all__ = [
    "ACTION_FIELDS",
    "ACTION_ID_LIMIT",
    "ACTION_PREFIX",
    "MESSAGE_LIMITS",
    "Action",
    "ActionKind",
    "Chat",
    "Code",
    "GameFacts",
    "Mention",
    "Moment",
    "Need",
    "NeedKind",
    "Phrase",
    "Reply",
    "ReplyKind",
    "Segment",
    "Speaker",
    "Strong",
    "Text",
    "TurnRefusal",
    "User",
    "Versions",
    "parse_action",
    "say",
    "say_n",
    "sections",
    "speak_with",
]


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


#: One piece of a :class:`Text` as rendered.
Segment = str | Mention | Strong | Code

_SEGMENT_TAGS: dict[str, type[Mention] | type[Strong] | type[Code]] = {
    "m": Mention,
    "b": Strong,
    "c": Code,
}


@dataclass(frozen=True)
class Phrase:
    """A sentence not yet put into words: its English ``msgid`` (the catalog key, with
    ``{name}`` placeholders), the ``plural`` msgid and ``count`` when its form depends on a
    number, and the values of its placeholders.  It is said in the language in use when
    rendered (:mod:`bot.core.i18n`), so a notice stored today reads in its recipient's language
    at delivery.

    >>> from bot.core import i18n  # (loading it makes phrases speak every language)
    >>> p = Text.of(Phrase("Really resign #{game_id}?", args=(("game_id", 3),)))
    >>> str(p)
    'Really resign #3?'
    >>> with i18n.use("de"):
    ...     str(p)
    'Wirklich Partie #3 aufgeben?'
    """

    msgid: str
    args: tuple[tuple[str, str | int | float | Text], ...] = ()
    plural: str | None = None
    count: int | None = None

    def expand(self) -> list[Segment]:
        """The sentence in the language in use, as plain segments."""
        speaker = _SPEAKER[0]
        if self.plural is not None and self.count is not None:
            template = speaker.ngettext(self.msgid, self.plural, self.count)
        else:
            template = speaker.gettext(self.msgid)
        values = dict(self.args)
        out: list[Segment] = []
        start = 0
        for match in _PLACEHOLDER.finditer(template):
            out.append(_unescaped(template[start : match.start()]))
            start = match.end()
            name = match.group(1)
            if name not in values:
                out.append(match.group(0))
                continue
            value = values[name]
            if isinstance(value, Text):
                out.extend(value.segments)
            elif isinstance(value, str):
                out.append(value)
            else:
                out.append(speaker.number(value))
        out.append(_unescaped(template[start:]))
        return out


_PLACEHOLDER = re.compile(r"\{(\w+)(?:!r)?\}")


def _unescaped(plain: str) -> str:
    return plain.replace("{{", "{").replace("}}", "}")


class Speaker(Protocol):
    """How sentences are said: the language in use's words, numbers and dates (set by
    :mod:`bot.core.i18n` when it is loaded, with :func:`speak_with`; English until then)."""

    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, count: int) -> str: ...
    def number(self, value: float) -> str: ...
    def language(self) -> str: ...
    def moment(self, value: datetime) -> str: ...


class _English:
    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return singular if count == 1 else plural

    def number(self, value: float) -> str:
        return f"{value:g}"

    def language(self) -> str:
        return "en"

    def moment(self, value: datetime) -> str:
        return f"{value:%Y-%m-%d %H:%M} UTC"


_SPEAKER: list[Speaker] = [_English()]


def speak_with(speaker: Speaker) -> None:
    """Say every :class:`Phrase` with ``speaker`` from now on (:mod:`bot.core.i18n`)."""
    _SPEAKER[0] = speaker


@dataclass(frozen=True)
class Versions:
    """Words written whole in each language rather than sentence by sentence (a rules page):
    ``(language, text)`` pairs, the source's first.  Read in the language in use when rendered,
    the source's when that language has no version.

    >>> from bot.core import i18n
    >>> v = Text.of(Versions((("en", Text.of("Rules")), ("es", Text.of("Reglas")))))
    >>> with i18n.use("es"):
    ...     str(v)
    'Reglas'
    >>> with i18n.use("de"):
    ...     str(v)
    'Rules'
    >>> with i18n.use("es"):
    ...     str(Text.from_json(v.to_json()).replaced("R", "r"))
    'reglas'
    """

    texts: tuple[tuple[str, Text], ...]

    def expand(self) -> tuple[Segment, ...]:
        """The version in the language in use (the first when it has none), as segments."""
        return dict(self.texts).get(_SPEAKER[0].language(), self.texts[0][1]).segments


@dataclass(frozen=True)
class Moment:
    """A point in time not yet put into words: said when rendered, in the language in use's
    own date order and month names (``Mar 9, 2026, 14:05 UTC``, ``9. März 2026, 14:05 UTC``).
    ``at`` is the time in UTC, ISO 8601 (what the outbox keeps).

    >>> from datetime import UTC
    >>> from bot.core import i18n
    >>> when = Text.of(Moment.of(datetime(2026, 3, 9, 14, 5, tzinfo=UTC)))
    >>> str(when)
    'Mar 9, 2026, 14:05 UTC'
    >>> with i18n.use("ja"):
    ...     str(when)
    '2026年3月9日 14:05 UTC'
    """

    at: str

    @classmethod
    def of(cls, value: datetime) -> Moment:
        """``value`` (naive: taken as UTC) kept to the minute in UTC."""
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return cls(value.astimezone(UTC).replace(second=0, microsecond=0).isoformat())

    def expand(self) -> tuple[Segment, ...]:
        """The time in the language in use's words (unreadable: as kept)."""
        try:
            value = datetime.fromisoformat(self.at)
        except ValueError:
            return (self.at,)
        return (_SPEAKER[0].moment(value),)


#: One piece of a :class:`Text` as kept: a segment, or a sentence or time said when rendered.
Part = str | Mention | Strong | Code | Phrase | Versions | Moment
#: The parts said when rendered.
_SAID = (Phrase, Versions, Moment)


def _arg(value: object) -> str | int | float | Text:
    if isinstance(value, Text | str | int | float):
        return value
    if isinstance(value, Mention | Strong | Code | Phrase | Moment):
        return Text.of(value)
    return str(value)


def say(msgid: str, /, **args: object) -> Text:
    """A text of one sentence said in the language in use when rendered: ``msgid`` is the
    English with ``{name}`` placeholders for ``args`` (players, spans, texts, numbers)."""
    return Text((Phrase(msgid, tuple((k, _arg(v)) for k, v in args.items())),))


def say_n(singular: str, plural: str, count: float, /, **args: object) -> Text:
    """Like :func:`say`, with the form for ``count`` (``count`` is also a placeholder; a
    fraction takes the form of a number other than one)."""
    values = {"count": count, **args}
    items = tuple((k, _arg(v)) for k, v in values.items())
    form = int(count) if float(count).is_integer() else 2
    return Text((Phrase(singular, items, plural, form),))


def _json_part(part: Part) -> Any:
    if isinstance(part, Mention):
        return ["m", part.platform, part.user_id, part.name]
    if isinstance(part, Strong):
        return ["b", part.text]
    if isinstance(part, Code):
        return ["c", part.text]
    if isinstance(part, Phrase):
        args = [
            [k, [_json_part(p) for p in v.parts] if isinstance(v, Text) else v]
            for k, v in part.args
        ]
        return ["p", part.msgid, part.plural, part.count, args]
    if isinstance(part, Versions):
        return ["v", [[code, [_json_part(p) for p in t.parts]] for code, t in part.texts]]
    if isinstance(part, Moment):
        return ["d", part.at]
    return part


def _read_part(part: Any) -> Part:
    if isinstance(part, str):
        return part
    tag, *fields = part
    if tag == "d":
        if len(fields) != 1 or not isinstance(fields[0], str):
            raise TypeError("a moment is one ISO 8601 string")
        return Moment(fields[0])
    if tag == "v":
        kept = fields[0]
        return Versions(tuple((str(c), Text(tuple(_read_part(p) for p in t))) for c, t in kept))
    if tag == "p":
        msgid, plural, count, args = fields
        values: list[tuple[str, str | int | float | Text]] = []
        for name, value in args:
            if isinstance(value, list):
                value = Text(tuple(_read_part(p) for p in value))
            elif not isinstance(value, str | int | float) or not isinstance(name, str):
                raise TypeError("a phrase's values are strings, numbers or texts")
            values.append((name, value))
        if not isinstance(msgid, str) or not isinstance(plural, str | None | int):
            raise TypeError("a phrase's msgid is a string")
        if not isinstance(count, int | None) or isinstance(plural, int):
            raise TypeError("a phrase's count is a number")
        return Phrase(msgid, tuple(values), plural, count)
    kind = _SEGMENT_TAGS[tag]
    if not all(isinstance(f, str) for f in fields):
        raise TypeError("segment fields are strings")
    return kind(*fields)


def _joined(pieces: Iterable[Segment]) -> tuple[Segment, ...]:
    out: list[Segment] = []
    for piece in pieces:
        if piece == "":
            continue
        if isinstance(piece, str) and out and isinstance(out[-1], str):
            out[-1] += piece
        else:
            out.append(piece)
    return tuple(out)


@dataclass(frozen=True, eq=False)
class Text:
    """Words with mentions and emphasis kept as segments (see the module docstring).  Its
    ``parts`` may hold :class:`Phrase` sentences, said in the language in use whenever the
    text is read (:attr:`segments`, ``str``, :meth:`render`); two texts are equal when they
    read the same."""

    parts: tuple[Part, ...] = ()

    @classmethod
    def of(cls, *parts: Part | Text) -> Text:
        """A text from pieces; nested texts are flattened, empty strings dropped and plain
        pieces next to each other joined (so equal texts have equal segments)."""
        out: list[Part] = []
        for part in parts:
            for piece in part.parts if isinstance(part, Text) else (part,):
                if piece == "":
                    continue
                if isinstance(piece, str) and out and isinstance(out[-1], str):
                    out[-1] += piece
                else:
                    out.append(piece)
        return cls(tuple(out))

    @property
    def segments(self) -> tuple[Segment, ...]:
        """The text's segments in the language in use (its sentences said)."""
        if not any(isinstance(p, _SAID) for p in self.parts):
            return cast(tuple[Segment, ...], self.parts)  # no sentence: all segments
        pieces: list[Segment] = []
        for part in self.parts:
            pieces.extend(part.expand() if isinstance(part, _SAID) else (part,))
        return _joined(pieces)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Text):
            return NotImplemented
        return self.parts == other.parts or self.segments == other.segments

    def __hash__(self) -> int:
        return hash(self.segments)

    def __str__(self) -> str:
        return "".join(str(s) for s in self.segments)

    def __add__(self, other: Segment | Text) -> Text:
        return Text.of(self, other)

    def __bool__(self) -> bool:
        return bool(str(self))

    def replaced(self, key: str, value: str) -> Text:
        """The text with ``key`` replaced by ``value`` in its plain pieces, its spans and its
        sentences' values (a sentence stays unsaid)."""

        def fill(part: Part) -> Part:
            if isinstance(part, str):
                return part.replace(key, value)
            if isinstance(part, Strong):
                return Strong(part.text.replace(key, value))
            if isinstance(part, Code):
                return Code(part.text.replace(key, value))
            if isinstance(part, Phrase):
                args = tuple(
                    (k, v.replaced(key, value) if isinstance(v, Text) else fill_value(v))
                    for k, v in part.args
                )
                return replace(part, args=args)
            if isinstance(part, Versions):
                return Versions(tuple((c, t.replaced(key, value)) for c, t in part.texts))
            return part

        def fill_value(v: str | int | float) -> str | int | float:
            return v.replace(key, value) if isinstance(v, str) else v

        return Text(tuple(fill(p) for p in self.parts))

    def first_paragraph(self) -> Text:
        """The text up to its first blank line (all of it when it has none)."""
        out: list[Segment] = []
        for segment in self.segments:
            if isinstance(segment, str) and "\n\n" in segment:
                out.append(segment.split("\n\n", 1)[0])
                break
            out.append(segment)
        return Text.of(*out)

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
        """A JSON form for storage (:meth:`from_json` reads it back); sentences are kept
        unsaid (their msgid and values), so they are said in the reader's language."""
        return json.dumps([_json_part(p) for p in self.parts], ensure_ascii=False)

    @classmethod
    def from_json(cls, data: str) -> Text:
        """The text stored by :meth:`to_json`; ``ValueError`` if it is not one."""
        try:
            raw = json.loads(data)
            if not isinstance(raw, list):
                raise TypeError("a stored text is a list")
            return cls(tuple(_read_part(p) for p in raw))
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
    """A player as a platform knows them: platform name, platform user id, display name.

    ``username`` is the platform's handle when it has one (a Telegram @username, without the
    ``@``): a challenge to a handle whose id is unknown is accepted by matching it.  It is not
    part of the user's identity (equality ignores it).
    """

    platform: str
    user_id: str
    name: str
    username: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # The name is checked where a user is made: shown and stored as it is, so printable
        # and bounded whoever supplied it (a platform, a typed mention).
        shown = display_name(self.name)
        if shown != self.name:
            object.__setattr__(self, "name", shown)


@dataclass(frozen=True)
class Chat:
    """A conversation on a platform (a channel, a group, a direct chat, the console).

    ``community`` is the group of people it belongs to, for ``leaderboard``: a Discord
    server's id for its channels; ``None`` (the chat itself) for a Telegram group, a direct
    chat, the console.  It is not part of the chat's identity (equality ignores it).
    """

    platform: str
    chat_id: str
    community: str | None = field(default=None, compare=False)
    #: a one-to-one chat between the person asking and the bot (their direct messages), where
    #: they may accept a challenge addressed to them that was made elsewhere
    direct: bool = field(default=False, compare=False)

    @property
    def community_id(self) -> str:
        """The community's id: ``community``, or the chat's own id."""
        return self.chat_id if self.community is None else self.community


class NeedKind(enum.Enum):
    """What a request lacks when the manager cannot tell which thing it is about."""

    GAME = "game"
    CHALLENGE = "challenge"


@dataclass(frozen=True)
class Need:
    """A refusal's meaning when the request did not say which game or challenge: ``kind`` is
    what to name, ``candidates`` the ids that would do (empty: none here, so name one by id).
    Each adapter says how to name one in its own terms (a typed ``#42``, a slash-command
    option, a button per candidate)."""

    kind: NeedKind
    candidates: tuple[int, ...] = ()


class TurnRefusal(enum.Enum):
    """Why a player may not move in a game now: the code of the refusal, the same on every
    surface (``/move``, the picker, a preview, the web board), each with one wording
    (:func:`~bot.sessions.texts.cannot_move`); decided by
    :func:`~bot.sessions.turns.may_move`, in this order."""

    #: the asker holds no seat in the game
    NOT_PLAYING = "not_playing"
    #: the move (a button, a page) was made for a ply the game has moved on from
    MOVED_ON = "moved_on"
    #: the game has ended
    OVER = "over"
    #: the deadline of the player to move has passed (time is called)
    OUT_OF_TIME = "out_of_time"
    #: the other player is to move
    NOT_YOUR_TURN = "not_your_turn"


#: The longest message each chat platform takes, in characters.
MESSAGE_LIMITS: dict[str, int] = {"discord": 2000, "telegram": 4096}


def sections(text: Text, limit: int) -> tuple[Text, ...]:
    """``text`` cut into pieces of at most ``limit`` characters (plain form): whole paragraphs
    where they fit, else whole lines, else cut anywhere (a mention or span is cut only when it
    alone is too long).  A message that fits is one section.

    >>> [str(t) for t in sections(Text.of("one two\\n\\nthree", Strong("!")), 9)]
    ['one two', 'three!']
    >>> [str(t) for t in sections(Text.of("ab\\ncd\\nef"), 5)]
    ['ab\\ncd', 'ef']
    >>> [len(str(t)) for t in sections(Text.of("x" * 25), 10)]
    [10, 10, 5]
    """
    if limit < 1:
        raise ValueError("a section holds at least one character")
    out: list[Text] = []
    for paragraph in _split(text, "\n\n"):
        if len(str(paragraph)) > limit:
            pieces = [p for line in _split(paragraph, "\n") for p in _cut(line, limit)]
        else:
            pieces = [paragraph]
        for i, piece in enumerate(pieces):
            sep = "\n" if i else "\n\n"
            if out and len(str(out[-1])) + len(sep) + len(str(piece)) <= limit:
                out[-1] = Text.of(out[-1], sep, piece)
            else:
                out.append(piece)
    return tuple(out) or (Text(),)


def _split(text: Text, sep: str) -> list[Text]:
    # The text cut at every ``sep`` inside its plain pieces (spans hold no line breaks).
    parts: list[list[Segment]] = [[]]
    for segment in text.segments:
        if isinstance(segment, str):
            first, *rest = segment.split(sep)
            parts[-1].append(first)
            parts.extend([p] for p in rest)
        else:
            parts[-1].append(segment)
    return [Text.of(*p) for p in parts]


def _cut(text: Text, limit: int) -> list[Text]:
    # Pieces of at most ``limit`` characters; a segment is cut only when it must be.
    out: list[list[Segment]] = [[]]
    size = 0
    for segment in text.segments:
        plain = str(segment)
        if size and size + len(plain) > limit and len(plain) <= limit:
            out.append([])
            size = 0
        while size + len(plain) > limit:
            room = limit - size
            out[-1].append(_part(segment, plain[:room]))
            out.append([])
            size, plain = 0, plain[room:]
        if plain:
            out[-1].append(_part(segment, plain))
            size += len(plain)
    return [Text.of(*p) for p in out if p]


def _part(segment: Segment, plain: str) -> Segment:
    if isinstance(segment, Strong | Code):
        return type(segment)(plain)
    if isinstance(segment, Mention) and plain == segment.name:
        return segment
    return plain


class ReplyKind(enum.Enum):
    """What a reply is, so an adapter can choose its form without looking at its buttons."""

    #: words only (a list, a question, a notice, a refusal)
    TEXT = "text"
    #: a game's board: its picture when pictures are on (a finished game, a position seen
    #: before playing a move or while stepping through a game)
    BOARD = "board"
    #: the board of an active game with the buttons to play on (the game's latest board)
    LIVE_BOARD = "live board"
    #: a challenge's card, which can be accepted
    CARD = "card"
    #: a picture about no game (a player's rating chart)
    CHART = "chart"
    #: a game's plain-text record (sent as a file where the platform has them)
    RECORD = "record"


@dataclass(frozen=True)
class GameFacts:
    """A game at a glance, as it stands when the reply is made (for a platform's card and for
    how to show the reply): ``players`` are the seats with their sides and ``mentions`` the
    same players as mentions, ``ply`` how many moves have been played, ``to_move`` the player
    whose turn it is (``None`` once over) and ``to_move_side`` that player with their side,
    ``deadline`` when their move is due (``None``: no clock), ``result`` how it ended (``None``
    while it runs), ``against_bot`` whether one seat is the bot itself, ``rated`` whether the
    game counts for ratings."""

    game_id: int
    title: str
    ply: int
    players: tuple[Text, Text]
    mentions: tuple[Mention, Mention]
    last_move: str | None
    to_move: Mention | None
    to_move_side: Text | None
    deadline: datetime | None
    result: Text | None
    against_bot: bool
    rated: bool


@dataclass(frozen=True)
class Reply:
    """What the manager answers: one message.

    ``body`` is the text (:attr:`text` its plain form).  ``ok`` is ``False`` for a refusal
    (then the text is one line saying why and nothing changed; ``need`` says what the request
    lacked when it did not name a game or challenge).  ``image`` is a PNG of the board when
    there is one, ``alt`` its text description; ``game_id`` and ``challenge_id`` name the game
    or challenge the reply is about, if any.  :attr:`kind` says what it is and :attr:`facts`
    carries the game's facts with a board, so adapters need not ask again.
    """

    body: Text
    image: bytes | None = None
    alt: str | None = None
    actions: tuple[Action, ...] = ()
    ok: bool = True
    game_id: int | None = None
    #: an animated GIF recap of the whole game (sent with the reply that ends a game)
    animation: bytes | None = None
    challenge_id: int | None = None
    need: Need | None = None
    #: what the reply is (see :class:`ReplyKind`)
    kind: ReplyKind = ReplyKind.TEXT
    #: the game the reply shows, as it stands (a board's, a live board's)
    facts: GameFacts | None = None
    #: the address of the game's web page (a board's, when the web board is on)
    page: str | None = None
    #: for the asker alone, never posted for everyone: a move or press the store had already
    #: applied (a double tap, a retried update, a stale preview's Play it), a board asked for
    #: by someone not playing the game.  Adapters answer it privately (Discord: ephemeral;
    #: Telegram: a direct message, else a short line that pings no one).
    private: bool = False
    #: why the asker may not move now, when that is what the refusal says (its code)
    refusal: TurnRefusal | None = None
    #: what the operation did, typed (see :mod:`bot.outcomes`): the move path's answer
    outcome: Outcome | None = None

    @property
    def text(self) -> str:
        """The plain form of :attr:`body` (what the console prints)."""
        return str(self.body)

    def sections(self, limit: int) -> tuple[Text, ...]:
        """The body in pieces that each fit a message of ``limit`` characters (see
        :func:`sections` and :data:`MESSAGE_LIMITS`)."""
        return sections(self.body, limit)

    @classmethod
    def refuse(
        cls,
        text: Text | str,
        need: Need | None = None,
        refusal: TurnRefusal | None = None,
        refused: Refused | None = None,
    ) -> Reply:
        """A one-line refusal (``refusal``: its code, when it says who may not move now;
        ``refused``: the typed outcome, by default that code's)."""
        body = text if isinstance(text, Text) else Text.of(text)
        # One line: runs of white space (new lines too) become one space (sentences stay
        # unsaid: each is one line in every catalog).
        flat = [re.sub(r"\s+", " ", p) if isinstance(p, str) else p for p in body.parts]
        if flat and isinstance(flat[0], str):
            flat[0] = flat[0].lstrip()
        if flat and isinstance(flat[-1], str):
            flat[-1] = flat[-1].rstrip()
        if refused is None and refusal is not None:
            refused = Refused(refusal)
        return cls(Text.of(*flat), ok=False, need=need, refusal=refusal, outcome=refused)
