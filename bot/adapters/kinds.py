"""The kinds of parameter a command takes, each described once (issue 42): how a typed word
(the console, Telegram) becomes its typed value (:meth:`Kind.parse`), and what option it is
on a platform that shows options (:meth:`Kind.options`: its type, choices, bounds and
completion; Discord's tree is made from these), and how such an option's value fills the
command's arguments (:meth:`Kind.take`).

A :class:`Param` is one parameter of a command: its name (marked for the catalogs: Discord
shows it in each language), a kind, a description, whether it is required, its default, and
the field of the command's arguments it fills.

>>> Number(1, 14).parse("5", lambda _: None)
5
>>> Answer(("offer", "accept", "decline")).parse("yes", lambda _: None)
'accept'
>>> [c.value for c in Days().options(Param("days", Days(), "x"))[0].shape.choices]
['none', '1', '3', '7', '14']
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import engines
from bot.adapters.args import DAYS, Named
from bot.core.i18n import N_, NP_, fill, gettext
from bot.limits import ECHO_LIMIT, MAX_ID, ascii_number
from bot.messages import User
from bot.ratings import Pool
from bot.sessions import texts
from bot.sessions.clock import parse_time_control
from engines.base import option_text, shown

__all__ = [
    "FIRST_MOVER",
    "LEVEL",
    "SCOPE",
    "SETTING",
    "Answer",
    "ChallengeId",
    "Choice",
    "Completion",
    "Days",
    "Described",
    "Flag",
    "GameId",
    "GameName",
    "GameOptions",
    "Kind",
    "MoveText",
    "Number",
    "OptionSpec",
    "OptionType",
    "Param",
    "Person",
    "Player",
    "PoolKey",
    "Switch",
    "Text",
    "Unreadable",
    "Words",
    "game_number",
]


class Unreadable(ValueError):
    """A typed word a kind cannot read; the message is the one-line answer."""


class OptionType(enum.Enum):
    """The type of an option's value, as the platform sends it."""

    STRING = "string"
    INTEGER = "integer"
    BOOLEAN = "boolean"
    #: a person on the platform (a :class:`Person`)
    USER = "user"


class Completion(enum.Enum):
    """What an option's value is completed from, as it is typed."""

    NONE = "none"
    #: the caller's games
    GAMES = "games"
    #: the legal moves of the chosen game
    MOVES = "moves"
    #: a prepared line's next move (``premove``)
    LINE = "line"


@dataclass(frozen=True)
class Choice:
    """One value to pick: its ``name`` as shown (marked ``NP_("choice", ...)`` where it is a
    word to translate) and the ``value`` sent."""

    name: str
    value: str | int


@dataclass(frozen=True)
class Described:
    """A description said in each language: the English ``text``, and the catalog's
    ``template`` with its ``values`` when it is filled in (else the text is the msgid)."""

    text: str
    template: str = ""
    values: tuple[tuple[str, str], ...] = ()

    def said(self) -> str:
        """In the language in use."""
        if not self.template:
            return gettext(self.text)
        return fill(gettext(self.template), dict(self.values))


@dataclass(frozen=True)
class Shape:
    """What an option's values are: their type, the choices (empty: any), the bounds of a
    number and what completes it."""

    type: OptionType
    choices: tuple[Choice, ...] = ()
    low: int | None = None
    high: int | None = None
    completion: Completion = Completion.NONE


@dataclass(frozen=True)
class OptionSpec:
    """One option on a platform that shows options."""

    name: str
    description: Described
    shape: Shape
    required: bool = False
    #: the value when it is not given (``None``: the arguments' own default)
    default: Any = None


@dataclass(frozen=True)
class Person:
    """A person chosen in a platform's option: who, and whether it is the bot itself."""

    user: User
    is_bot: bool = False


@dataclass(frozen=True)
class Param:
    """One parameter of a command: its ``name`` (a Discord option's; marked
    ``NP_("option", ...)``), its ``kind``, a ``description`` (marked ``N_``), whether it is
    ``required``, its ``default`` on the platforms that show options, and the ``field`` of
    the command's arguments it fills (the name by default)."""

    name: str
    kind: Kind
    description: str
    required: bool = False
    default: Any = None
    field: str = ""

    @property
    def target(self) -> str:
        """The field of the arguments this parameter fills."""
        return self.field or self.name


class Kind:
    """A kind of value (see the module docstring).  A kind reads the text as it is by
    default, and is one option of :meth:`shape`."""

    def parse(self, text: str, named: Named) -> Any:
        """The typed value of a typed word; :class:`Unreadable` if it is none."""
        return text

    def shape(self) -> Shape:
        """What its option's values are."""
        return Shape(OptionType.STRING)

    def options(self, param: Param) -> tuple[OptionSpec, ...]:
        """The options ``param`` is on a platform that shows options (usually one)."""
        described = Described(param.description)
        return (OptionSpec(param.name, described, self.shape(), param.required, param.default),)

    def accept(self, value: Any) -> Any:
        """The typed value of an option's value (already of its shape's type)."""
        return value

    def take(self, param: Param, values: Mapping[str, Any], fields: dict[str, Any]) -> None:
        """Fill ``fields`` (the arguments' fields) from the options given (``values``)."""
        value = values.get(param.name, param.default)
        if value is not None:
            fields[param.target] = self.accept(value)


class Text(Kind):
    """Free text."""


@dataclass(frozen=True, eq=False)
class Words(Kind):
    """One word of a few (``choices``: each a value, and its shown name)."""

    choices: tuple[Choice, ...]

    def parse(self, text: str, named: Named) -> Any:
        return text.lower()

    def shape(self) -> Shape:
        return Shape(OptionType.STRING, self.choices)


#: The shown names of a request and its answers.
_ANSWERS = {
    "offer": NP_("choice", "offer"),
    "ask": NP_("choice", "ask"),
    "accept": NP_("choice", "accept"),
    "decline": NP_("choice", "decline"),
}


@dataclass(frozen=True, eq=False)
class Answer(Kind):
    """A request (``values[0]``, what is meant when nothing is typed), or the answer to one:
    typed as accept / decline (``yes`` / ``no`` too)."""

    values: tuple[str, ...]

    def parse(self, text: str, named: Named) -> Any:
        word = text.lower()
        word = {"yes": "accept", "no": "decline"}.get(word, word)
        if word not in self.values[1:]:
            raise Unreadable(word)
        return word

    def shape(self) -> Shape:
        return Shape(OptionType.STRING, tuple(Choice(_ANSWERS[v], v) for v in self.values))


@dataclass(frozen=True, eq=False)
class Switch(Words):
    """One of two words, read as whether it is the ``on`` one (``leaderboard``'s scope)."""

    on: str = ""

    def parse(self, text: str, named: Named) -> Any:
        return text.lower() == self.on

    def accept(self, value: Any) -> Any:
        return value == self.on


@dataclass(frozen=True, eq=False)
class Number(Kind):
    """A whole number from ``low`` to ``high`` (ASCII digits, as typed; ``refusal``: what a
    typed word that is none is told, marked with ``N_`` and said in the reader's language)."""

    low: int
    high: int
    refusal: str = ""

    def parse(self, text: str, named: Named) -> Any:
        value = ascii_number(text.removeprefix("#"), self.high, low=self.low)
        if value is None:
            raise Unreadable(gettext(self.refusal) if self.refusal else text)
        return value

    def shape(self) -> Shape:
        return Shape(OptionType.INTEGER, low=self.low, high=self.high)


class Flag(Kind):
    """Yes or no (typed as the word: the manager reads it and says what it takes)."""

    def shape(self) -> Shape:
        return Shape(OptionType.BOOLEAN)


def game_number(value: str | None) -> int | None:
    """A game's number as typed or chosen (``12``, ``#12``); 0 (no such game) if
    unreadable, ``None`` if empty.

    >>> game_number("#12"), game_number(" "), game_number("x")
    (12, None, 0)
    """
    if value is None or not value.strip():
        return None
    digits = value.strip().lstrip("#")
    return int(digits) if digits.isdigit() and len(digits) < 19 else 0


class GameId(Kind):
    """A game's number: ``#42`` typed; on Discord typed or chosen from the caller's games."""

    def parse(self, text: str, named: Named) -> Any:
        value = ascii_number(text.removeprefix("#"), MAX_ID, low=1)
        if value is None:
            raise Unreadable(str(texts.not_an_id(shown(text, ECHO_LIMIT))))
        return value

    def shape(self) -> Shape:
        return Shape(OptionType.STRING, completion=Completion.GAMES)

    def accept(self, value: Any) -> Any:
        return game_number(str(value))


class ChallengeId(Kind):
    """A challenge's number (typed without ``#``, which marks games)."""

    def parse(self, text: str, named: Named) -> Any:
        value = ascii_number(text, MAX_ID, low=1)
        if value is None:
            raise Unreadable(text)
        return value

    def shape(self) -> Shape:
        return Shape(OptionType.INTEGER, low=1, high=MAX_ID)


@dataclass(frozen=True, eq=False)
class MoveText(Kind):
    """A move in a game's notation, completed from the legal moves; or with ``line`` a
    prepared line of moves, completed along the line."""

    line: bool = False

    def shape(self) -> Shape:
        return Shape(
            OptionType.STRING, completion=Completion.LINE if self.line else Completion.MOVES
        )


class Player(Kind):
    """A person: a typed name looked up (``@name`` too), or one chosen on the platform; the
    bot itself chosen means a game against it (``bot``)."""

    def parse(self, text: str, named: Named) -> Any:
        person = named(text)
        if person is None:
            raise Unreadable(str(texts.not_met(text.removeprefix("@"))))
        return person

    def shape(self) -> Shape:
        return Shape(OptionType.USER)

    def take(self, param: Param, values: Mapping[str, Any], fields: dict[str, Any]) -> None:
        value = values.get(param.name)
        if isinstance(value, Person):
            if value.is_bot:
                fields["bot"] = True
            else:
                fields[param.target] = value.user


class GameName(Kind):
    """One of the games, by name (the games registered when the options are made)."""

    def shape(self) -> Shape:
        return Shape(
            OptionType.STRING,
            tuple(Choice(game.title[:100], name) for name, game in engines.GAMES.items()),
        )


class PoolKey(Kind):
    """A rating pool (a game and its size), by key."""

    def shape(self) -> Shape:
        return Shape(OptionType.STRING, tuple(Choice(pool.title, pool.key) for pool in Pool))


class Days(Kind):
    """Days per move: a number, or ``none`` (no clock)."""

    def parse(self, text: str, named: Named) -> Any:
        try:
            return parse_time_control(text)
        except ValueError:
            refused = texts.bad_time_control(", ".join(DAYS), repr(shown(text, ECHO_LIMIT)))
            raise Unreadable(str(refused)) from None

    def shape(self) -> Shape:
        names = {"none": NP_("choice", "no clock")}
        return Shape(OptionType.STRING, tuple(Choice(names.get(d, d), d) for d in DAYS))

    def accept(self, value: Any) -> Any:
        if value == "none":
            return None
        try:
            return int(value)
        except ValueError:
            return -1  # the manager refuses it, in its words


#: An engine option's description on the platforms (its name is the engine's, as typed).
GAME_OPTION = N_("Option of {games} (empty: the game's default)")


class GameOptions(Kind):
    """The games' own options (``size=16``, ``pie=no``), from each game's record
    (:attr:`engines.Game.options`): typed as ``name=value``, and on Discord one option per
    name any game has, whose choices are the values the games take.  Read when the options
    are made, so a game registered later has its options with no edit here."""

    def options(self, param: Param) -> tuple[OptionSpec, ...]:
        found: dict[str, list[tuple[str, engines.Option]]] = {}
        for game in engines.GAMES.values():
            for option in game.options:
                found.setdefault(option.name, []).append((game.title, option))
        return tuple(_game_option(name, offered) for name, offered in found.items())

    def take(self, param: Param, values: Mapping[str, Any], fields: dict[str, Any]) -> None:
        chosen = {
            spec.name: values[spec.name]
            for spec in self.options(param)
            if values.get(spec.name) is not None
        }
        if chosen:
            fields[param.target] = chosen


def _game_option(name: str, offered: list[tuple[str, engines.Option]]) -> OptionSpec:
    games = ", ".join(title for title, _ in offered)
    english = fill(GAME_OPTION, {"games": games})
    described = Described(english[:100], GAME_OPTION, (("games", games),))
    values = sorted({v for _, option in offered for v in option.values}, key=_order)
    if all(isinstance(v, bool) for v in values):
        return OptionSpec(name, described, Shape(OptionType.BOOLEAN))
    kind = OptionType.INTEGER if all(isinstance(v, int) for v in values) else OptionType.STRING
    choices = tuple(
        Choice(option_text(v), v if kind is OptionType.INTEGER else str(v)) for v in values
    )
    return OptionSpec(name, described, Shape(kind, choices if len(choices) <= 25 else ()))


def _order(value: Any) -> tuple[int, Any]:
    return (0, value) if isinstance(value, int) else (1, str(value))


#: Who moves first (``me``, ``them`` or ``random``).
FIRST_MOVER = Words(
    (
        Choice(NP_("choice", "me"), "me"),
        Choice(NP_("choice", "them"), "them"),
        Choice(NP_("choice", "random"), "random"),
    )
)
#: The bot's level.
LEVEL = Words(
    (
        Choice(NP_("choice", "easy"), "easy"),
        Choice(NP_("choice", "normal"), "normal"),
        Choice(NP_("choice", "hard"), "hard"),
    )
)
#: A setting a player may change.
SETTING = Words(
    (
        Choice(NP_("choice", "direct messages"), "dm"),
        Choice(NP_("choice", "reminders"), "reminders"),
        Choice(NP_("choice", "quiet hours"), "quiet"),
        Choice(NP_("choice", "daily digest"), "digest"),
        Choice(NP_("choice", "language"), "language"),
        Choice(NP_("choice", "chat language"), "chat-language"),
    )
)
#: ``leaderboard``'s scope: this server or group, or everyone.
SCOPE = Switch(
    (Choice(NP_("choice", "here"), "here"), Choice(NP_("choice", "everyone"), "all")), on="all"
)
