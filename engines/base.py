"""The interface every rule engine implements: positions, outcomes, options and games.

A game is described by a :class:`Game` (title, sides, options as data) and played through
immutable :class:`Position` values: ``position.play(move)`` returns the next position and
leaves the old one untouched.  Moves are plain strings in the canonical notation of
``shared/rules/README.md``; an illegal or malformed move raises :class:`IllegalMove`.

Like python-chess's ``Outcome`` and ``Termination``, how a game ended is a value the engine
owns: an :class:`Outcome` carries a :class:`Termination` member, never free text.  An illegal
move is a code and its arguments, never a sentence: the words for each code live with the bot
(``bot/sessions/texts``), which tells this module how to read them (:func:`explain_with`).
"""

from __future__ import annotations

import abc
import enum
import random
import re
import unicodedata
from collections.abc import Callable, Hashable, Mapping
from dataclasses import Field, dataclass, field, fields
from functools import cache
from types import MappingProxyType
from typing import Any, ClassVar, TypeAlias

from engines.board_view import BoardShape, BoardView, HeightKind, Region

__all__ = [
    "Argument",
    "BoardShape",
    "BoardView",
    "Game",
    "HeightKind",
    "IllegalMove",
    "IllegalMoveCode",
    "MoveCode",
    "Option",
    "OptionError",
    "Outcome",
    "PickerMode",
    "Position",
    "RatingPool",
    "Region",
    "Termination",
    "TurnSteps",
    "TurnTable",
    "action_kind",
    "explain_with",
    "load_turn",
    "normalize_move",
    "option_text",
    "pictured",
    "shown",
    "turn_dict",
]

#: Longest move text any game accepts; anything longer is refused before parsing.
MAX_MOVE_LENGTH = 80


class Termination(enum.StrEnum):
    """How a game ended, in the spirit of python-chess's ``Termination``.

    One enum for every game: three games end by a connection and two by a player without a
    legal move, and the store, the pictures and the bot read any game's ending without knowing
    the game.  The engines end games by the rules only (:attr:`by_the_rules`; each game lists
    its own in :attr:`Game.terminations`); the bot adds the endings off the board (a
    resignation, a draw by agreement, a loss on time, an abort), which the pictures of a
    finished game show too.  Each member's value is the text the store keeps, one spelling
    each; texts stored by earlier versions in another spelling are read into their one member:

    >>> Termination("timeout") is Termination("time") is Termination.TIMEOUT
    True
    >>> Termination.CONNECTION.by_the_rules, Termination.RESIGNATION.by_the_rules
    (True, False)
    >>> f"won ({Termination.HOME_ROW})"
    'won (home row)'
    """

    # -- by the rules: the endings the engines give -----------------------------------------
    #: Pathagon, Maphex, inpHeXion: a chain joins the player's two edges
    CONNECTION = "connection"
    #: Lines of Fixation: all of a player's stacks form one group
    ONE_GROUP = "one group"
    #: Lines of Fixation: two full stacks holding enemy pieces
    TWO_TALL_STACKS = "two 6-high stacks"
    #: Hexagonal Iso-Path: a piece reached the far home row
    HOME_ROW = "home row"
    #: Hexagonal Iso-Path: the opponent's last piece was captured
    LAST_PIECE_CAPTURED = "last piece captured"
    #: Hexagonal Iso-Path: the player to move has no legal turn
    NO_LEGAL_TURN = "no legal turn"
    #: Lines of Fixation, inpHeXion: the player to move has no legal move
    NO_LEGAL_MOVE = "no legal move"
    #: inpHeXion: too few empty cells to relocate the surrounded discs into
    RELOCATION_IMPOSSIBLE = "relocation impossible"
    #: a record's win by the rules whose reason it does not give
    WIN = "win"
    #: a record's draw whose reason it does not give
    DRAW = "draw"
    # -- off the board: the endings the bot decides -----------------------------------------
    RESIGNATION = "resignation"
    #: a draw both players agreed to
    AGREEMENT = "agreement"
    #: the player to move let the clock run out (earlier spelled ``time`` in records)
    TIMEOUT = "timeout"
    #: the clock ran out before the first move: the game is aborted without a result
    NO_FIRST_MOVE = "no first move"
    #: a record's abort whose reason it does not give (or one this version does not know)
    ABORTED = "aborted"

    @classmethod
    def _missing_(cls, value: object) -> Termination | None:
        # An earlier spelling, or another case or spacing of a member's text.
        if not isinstance(value, str):
            return None
        text = " ".join(value.split()).lower()
        text = _SYNONYMS.get(text, text)
        return next((member for member in cls if member.value == text), None)

    @property
    def by_the_rules(self) -> bool:
        """Whether the rules ended the game (as opposed to a resignation, an agreement, the
        clock or an abort)."""
        return self not in _OFF_BOARD

    @property
    def pictured(self) -> str:
        """The word the pictures (:mod:`render`) know this ending by (see :func:`pictured`).

        >>> Termination.TIMEOUT.pictured, Termination.NO_FIRST_MOVE.pictured
        ('time', 'aborted')
        """
        return pictured(self)


#: Earlier spellings, read into their one member.
_SYNONYMS = {"time": Termination.TIMEOUT.value}
_OFF_BOARD = frozenset(
    {
        Termination.RESIGNATION,
        Termination.AGREEMENT,
        Termination.TIMEOUT,
        Termination.NO_FIRST_MOVE,
        Termination.ABORTED,
    }
)
#: The endings whose words differ in the pictures (``render``), which speak of a loss on time
#: and of an abort.
_PICTURED: dict[str, str] = {Termination.TIMEOUT: "time", Termination.NO_FIRST_MOVE: "aborted"}


def pictured(termination: str) -> str:
    """The word the pictures know ``termination`` by: its text, except a loss on time
    (``time``) and an abort before the first move (``aborted``).

    >>> pictured(Termination.TIMEOUT), pictured(Termination.CONNECTION), pictured("time")
    ('time', 'connection', 'time')
    """
    return _PICTURED.get(termination, str(termination))


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: ``winner`` is a seat (0 or 1), or ``None`` for a draw;
    ``termination`` says how (:class:`Termination`).

    >>> Outcome(0, Termination.CONNECTION)
    Outcome(winner=0, termination=<Termination.CONNECTION: 'connection'>)
    """

    winner: int | None
    termination: Termination


class IllegalMoveCode(enum.StrEnum):
    """Why a move is refused before any game's own rule is looked at: the codes every game
    shares (each game has its own enum of codes for its rules, :attr:`Game.codes`).

    A code's value is its one identifier (``game.reason``), unique over every game, so the
    sentences for all codes can live in one mapping keyed by code.
    """

    #: ``kind``: the type of what was given
    NOT_TEXT = "move.not text"
    #: ``length``: how many characters were written
    TOO_LONG = "move.too long"
    EMPTY = "move.empty"
    #: ``text``: the move as written
    UNEXPECTED_CHARACTERS = "move.unexpected characters"
    GAME_OVER = "move.game over"
    #: ``number``, ``move``: a move of a list, and ``reason``: the :class:`IllegalMove` it met
    IN_LIST = "move.in list"


#: Any game's illegal-move code: :class:`IllegalMoveCode` or a game's own enum.
MoveCode: TypeAlias = enum.StrEnum
#: What an illegal move's arguments may hold: names, numbers, lists of names (the words that
#: read a list are the bot's), and an inner illegal move (:attr:`IllegalMoveCode.IN_LIST`).
Argument: TypeAlias = "str | int | tuple[str, ...] | IllegalMove"


class IllegalMove(ValueError):
    """A move that is malformed or breaks a rule: a :attr:`code` (an enum member) and the
    :attr:`arguments` its sentence names, e.g. ``maphex.IllegalMoveCode.NOT_IN_TARGET`` with
    ``cell="e5"``, ``target=1``, ``block=3``.

    No sentence is written here: ``str(exc)`` reads the code through the explainer set with
    :func:`explain_with` (the bot's sentences), or shows the code and its arguments until one
    is set.  A ``ValueError``, so code that catches bad values catches it too.

    >>> exc = IllegalMove(IllegalMoveCode.TOO_LONG, length=90)
    >>> exc.code is IllegalMoveCode.TOO_LONG, dict(exc.arguments)
    (True, {'length': 90})
    """

    def __init__(
        self, code: MoveCode, arguments: Mapping[str, Argument] | None = None, /, **more: Argument
    ) -> None:
        given = {**(arguments or {}), **more}
        super().__init__(code, given)
        self.code = code
        self.arguments: Mapping[str, Argument] = MappingProxyType(given)

    def __reduce__(self) -> tuple[type[IllegalMove], tuple[MoveCode, dict[str, Argument]]]:
        # Rebuilt from its code and arguments, so it pickles (reviews run in a worker process).
        return type(self), (self.code, dict(self.arguments))

    def __str__(self) -> str:
        return _explainer(self)


class OptionError(ValueError):
    """An option a game does not take (:attr:`value` is ``None``), or a value an option does
    not take: the option's :attr:`name` and what is :attr:`allowed` (the game's option names,
    or the option's values as players write them).  ``str(exc)`` is an English line for logs;
    the bot says it in the reader's words from these fields.

    >>> exc = OptionError("size", ("9", "16"), "10")
    >>> exc.name, exc.allowed, exc.value, str(exc)
    ('size', ('9', '16'), '10', "option size must be one of 9, 16, not '10'")
    """

    def __init__(
        self, name: str, allowed: tuple[str, ...], value: str | None = None, game: str = ""
    ) -> None:
        listed = ", ".join(allowed) or "none"
        if value is None:
            text = f"{game or 'the game'} has no option {name!r} (options: {listed})"
        else:
            text = f"option {name} must be one of {listed}, not {value!r}"
        super().__init__(text)
        self.name = name
        self.allowed = allowed
        self.value = value
        self.game = game


def _codes_only(exc: IllegalMove) -> str:
    args = ", ".join(f"{key}={value!s}" for key, value in exc.arguments.items())
    return f"{exc.code.value} ({args})" if args else exc.code.value


_explainer: Callable[[IllegalMove], str] = _codes_only


def explain_with(explainer: Callable[[IllegalMove], str]) -> None:
    """Make ``str()`` of every :class:`IllegalMove` read through ``explainer``: the layer that
    holds the sentences (the bot's texts) sets it when it is loaded, so logs and messages
    built from the error read the sentence a player sees.  Engines never depend on it."""
    global _explainer
    _explainer = explainer


@dataclass(frozen=True)
class Option:
    """One option of a game, described as data so a bot can offer it without knowing the game.

    >>> size = Option("size", (9, 16), 9, "board size")
    >>> size.coerce("16")
    16
    """

    name: str
    values: tuple[Any, ...]
    default: Any
    help: str

    def coerce(self, value: Any) -> Any:
        """Return ``value`` as one of :attr:`values`, accepting text such as ``"7"`` or ``"no"``.

        Raises :class:`ValueError` naming the allowed values when it is not one of them.
        """
        if isinstance(value, str):
            text = value.strip().lower()
            for allowed in self.values:
                if isinstance(allowed, bool):
                    if text in (
                        ("true", "yes", "on", "1") if allowed else ("false", "no", "off", "0")
                    ):
                        return allowed
                elif str(allowed).lower() == text:
                    return allowed
        else:
            for allowed in self.values:
                # bool is an int: keep True from matching 1 and 1 from matching True.
                if type(allowed) is type(value) and allowed == value:
                    return allowed
        choices = tuple(option_text(v) for v in self.values)
        raise OptionError(self.name, choices, str(value))


def option_text(value: Any) -> str:
    """An option's value as players write it (``pie=yes``, ``size=9``): the one spelling every
    text uses.

    >>> option_text(True), option_text(16)
    ('yes', '16')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class PickerMode(enum.Enum):
    """How the bot's move picker offers a game's moves: the same for every surface."""

    #: a move is built part by part (a cell, then the next...), each part a button
    PARTS = "parts"
    #: a turn is chosen on a board of cells, stage by stage (Iso-Path's build, then its move)
    BOARD = "board"


#: A turn of a game whose picker is a board of cells (:attr:`PickerMode.BOARD`) as its two
#: steps, each an action of the shared notation or ``None``: the first (a relocation ``c1>e6``,
#: or a one-cell action ``xd4`` in its place; ``None``: none) and the second (a step ``a4-b4``,
#: or a one-cell action in its place; ``None``: the first alone ends the turn).
TurnSteps: TypeAlias = tuple[str | None, str | None]
#: Every legal turn of a position by its two steps, with the turn's notation.
TurnTable: TypeAlias = Mapping[TurnSteps, str]


def action_kind(action: str) -> str:
    """What one action of the shared notation is: ``>`` a relocation (a tile move), ``-`` a
    step, ``x`` a capture (cell names hold none of the signs).

    >>> action_kind("c1>e6"), action_kind("a4-b4"), action_kind("xd4")
    ('>', '-', 'x')
    """
    return ">" if ">" in action else "-" if "-" in action else "x"


@dataclass(frozen=True)
class RatingPool:
    """One rating pool of a game: the games played with :attr:`options` share one rating.

    :attr:`key` is the stable key the store keeps (unique over every game), :attr:`title`
    the name shown to players.  A game that lists no pool has one, keyed by its name.

    >>> RatingPool("g9", "G 9x9", (("size", 9),)).matches({"size": 9, "pie": True})
    True
    """

    key: str
    title: str
    #: the option values (``(name, value)`` pairs) a game must be played with to count here
    options: tuple[tuple[str, Any], ...] = ()

    def matches(self, resolved: Mapping[str, Any]) -> bool:
        """Whether a game played with the ``resolved`` options (every option given) counts
        in this pool."""
        return all(resolved.get(name) == value for name, value in self.options)


@dataclass(frozen=True)
class Game:
    """A playable game: display title, the two sides' names and the options it takes.

    ``sides[0]`` is the side the rules call first (seat 0).  Use :meth:`new` to start a game.
    """

    name: str
    title: str
    sides: tuple[str, str]
    options: tuple[Option, ...]
    start: Callable[..., Position] = field(repr=False, compare=False)
    load: Callable[[Mapping[str, Any]], Position] = field(repr=False, compare=False)
    #: The words of the game's notation that name no cell (inpHeXion's ``swap``).
    words: tuple[str, ...] = ()
    #: How the rules can end a game of it (every :attr:`Position.outcome` names one of them).
    terminations: frozenset[Termination] = frozenset()
    #: The codes of its own rules an :class:`IllegalMove` may carry (besides the shared
    #: :class:`IllegalMoveCode`).
    codes: type[MoveCode] = IllegalMoveCode
    #: Its rating pools, first the default options' (empty: one pool, keyed by :attr:`name`).
    rating_pools: tuple[RatingPool, ...] = ()
    #: How the move picker offers its moves.
    picker: PickerMode = PickerMode.PARTS
    #: With :attr:`PickerMode.BOARD`: every legal turn of a position of it by its two steps
    #: (:data:`TurnTable`), what the board picker offers (``bot/sessions/building.py``).
    turns: Callable[[Position], TurnTable] | None = field(default=None, repr=False, compare=False)
    #: The picture's colour of colour 0 and colour 1: names of :class:`render.Theme` colours.
    palette: tuple[str, str] = ("white", "black")
    #: The module of its computer player (``engines.ai.<game>_player``): its ``PLAYER`` is
    #: read when the bot first plays it (see :func:`engines.ai.hooks.player_of`).
    ai: str = ""

    @property
    def pools(self) -> tuple[RatingPool, ...]:
        """Its rating pools (at least one), the default options' first."""
        return self.rating_pools or (RatingPool(self.name, self.title),)

    def pool_for(self, **options: Any) -> RatingPool:
        """The rating pool of a game of it played with ``options`` (missing ones take their
        defaults; a bad option raises ``ValueError``)."""
        resolved = self.resolve_options(**options)
        for pool in self.pools:
            if pool.matches(resolved):
                return pool
        raise ValueError(f"{self.title} has no rating pool for {resolved}")

    def resolve_options(self, **options: Any) -> dict[str, Any]:
        """Return every option of this game with ``options`` checked and defaults filled in."""
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise OptionError(unknown[0], tuple(known), game=self.title)
        return {
            name: opt.coerce(options[name]) if name in options else opt.default
            for name, opt in known.items()
        }

    def new(self, **options: Any) -> Position:
        """The start position with ``options`` (unknown or bad options raise ``ValueError``)."""
        return self.start(**self.resolve_options(**options))

    def looks_like_move(self, text: str) -> bool:
        """Whether ``text`` is written like a move of this game (legal or not): cells, the
        joining signs and captures of the shared notation, or one of the game's own
        :attr:`words`.  A bot tells a mistyped move from a mistyped command with this.

        >>> from engines import GAMES
        >>> [GAMES["isopath"].looks_like_move(t) for t in ("c1>e6 x d4", "hlep", "/move")]
        [True, False, False]
        """
        try:
            words = normalize_move(text).split(" ")
        except IllegalMove:
            return False
        return all(_NOTATION.fullmatch(w) is not None or w in self.words for w in words)


_SPACES = re.compile(r"\s+")
#: Invisible characters removed from a typed move: zero-width space, joiners and word joiner,
#: the byte-order mark, and the direction marks, embeddings, overrides and isolates.
_INVISIBLE = dict.fromkeys(
    (
        0x200B,
        0x200C,
        0x200D,
        0x2060,
        0xFEFF,
        0x200E,
        0x200F,
        0x061C,
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
    )
)
#: One word of the shared notation: a capture mark, a lone number (a space or sub-board) or a
#: cell, and cells joined by ``-`` (a step) or ``>`` (a relocation, a tile move).  A lone ``x``
#: is the capture mark written apart (``x d4``).
_NOTATION = re.compile(r"x|x?[a-z]?\d{1,3}(?:[->][a-z]?\d{1,3})*", re.ASCII)


def shown(text: str, limit: int = 24) -> str:
    """``text`` made safe to quote in a one-line message: printable and not too long."""
    clean = "".join(ch if ch.isprintable() else "?" for ch in text)
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


def normalize_move(move: object) -> str:
    """Lower-case ``move`` and fold its spacing; refuse what cannot be a move at all.

    What phone keyboards and copy-paste add is forgiven first: compatibility forms are folded
    (Unicode NFKC: fullwidth ``Ｅ５`` is ``e5``) and invisible zero-width and direction marks
    are removed.

    >>> normalize_move("  C3 -  C4   E5>A7 ")
    'c3-c4 e5>a7'
    >>> normalize_move("\u200f\uff25\uff15\u200b"), normalize_move("g3\u2060-\u202ag2\u202c")
    ('e5', 'g3-g2')
    """
    if not isinstance(move, str):
        raise IllegalMove(IllegalMoveCode.NOT_TEXT, kind=type(move).__name__)
    if len(move) > MAX_MOVE_LENGTH:
        raise IllegalMove(IllegalMoveCode.TOO_LONG, length=len(move))
    known = _NORMALIZED.get(move)
    if known is not None:
        return known
    text = _normalized(move)
    if len(_NORMALIZED) >= _NORMALIZED_KEPT:
        _NORMALIZED.clear()
    _NORMALIZED[move] = text
    return text


#: Texts already normalized (a search plays the same few hundred move texts again and again).
_NORMALIZED: dict[str, str] = {}
#: The most texts :data:`_NORMALIZED` holds before it is emptied.
_NORMALIZED_KEPT = 4096


def _normalized(move: str) -> str:
    """:func:`normalize_move` of a text, worked out."""
    move = unicodedata.normalize("NFKC", move).translate(_INVISIBLE)
    text = _SPACES.sub(" ", move.strip().lower())
    # Spaces around the joining signs are forgiven: "c3 - c4" means "c3-c4".
    text = re.sub(r" ?([->]) ?", r"\1", text)
    if not text:
        raise IllegalMove(IllegalMoveCode.EMPTY)
    if not all(ch.isascii() and ch.isprintable() for ch in text):
        raise IllegalMove(IllegalMoveCode.UNEXPECTED_CHARACTERS, text=shown(text))
    return text


class Position(abc.ABC):
    """An immutable game position.  Subclasses are frozen dataclasses.

    Common attributes: ``game`` (name), ``ply`` (actions so far), ``last_move`` (canonical
    string or ``None``), ``to_move`` (seat 0 or 1), ``outcome`` (``None`` or an
    :class:`Outcome`).  Positions compare equal and hash by content.
    """

    game: str
    ply: int
    last_move: str | None
    to_move: int
    outcome: Outcome | None
    #: The sides the rules name, seat 0's first: the same as its :attr:`Game.sides`.
    sides: ClassVar[tuple[str, str]]
    #: Set by ``@dataclass`` on each subclass (declared so type checkers know a position
    #: class is a dataclass: :func:`dataclasses.fields` reads it).
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @abc.abstractmethod
    def legal_moves(self) -> list[str]:
        """Every legal move in canonical notation; empty once the game is over."""

    def random_move(self, rng: random.Random) -> str:
        """``rng.choice(self.legal_moves())``: a legal move drawn at random, the same move by
        the same draw from ``rng``.  A game whose moves are costly to list draws one without
        listing them (Iso-Path).  ``IndexError`` when there is none (the game is over)."""
        return rng.choice(self.legal_moves())

    @abc.abstractmethod
    def play(self, move: str) -> Position:
        """The position after ``move``; raises :class:`IllegalMove` if it is not legal."""

    @abc.abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict that :func:`engines.from_dict` turns back into an equal
        position; it always holds ``"game"``."""

    @property
    def seat_sides(self) -> tuple[str, str]:
        """The side each seat plays now (a pie rule may swap them)."""
        return self.sides

    @property
    @abc.abstractmethod
    def winning_cells(self) -> frozenset[int]:
        """The cells that won the game (its line, chain or pieces home); empty until then."""

    @abc.abstractmethod
    def board_view(self) -> BoardView:
        """What is on every cell and the board it is on (:class:`BoardView`): what a surface
        draws a position from without knowing the game (the web page, the pictures)."""

    def completions(self, prefix: str, limit: int = 25) -> list[str]:
        """Legal moves that start with the partly typed ``prefix``, for autocompletion.

        Games with very many moves override this to avoid listing every move.
        """
        try:
            start = normalize_move(prefix)
        except IllegalMove:
            start = ""
        return [m for m in self.legal_moves() if m.startswith(start)][:limit]

    def content(self) -> Hashable:
        """What the position compares and hashes by, apart from it: equal for two positions
        exactly when they are equal.  A search's transposition table keeps this rather than
        the position, so it does not keep the work a position caches (its listed moves, tens
        of kB a Lines of Fixation position).

        >>> import engines
        >>> a = engines.new("pathagon").play("d4")
        >>> a.content() == engines.new("pathagon").play("d4").content()
        True
        >>> a.content() == engines.new("pathagon").play("c4").content()
        False
        """
        return (type(self), *(getattr(self, name) for name in _compared(type(self))))

    def _over_check(self) -> None:
        if self.outcome is not None:
            raise IllegalMove(IllegalMoveCode.GAME_OVER)


@cache
def _compared(kind: type[Position]) -> tuple[str, ...]:
    """The fields a position class's ``==`` compares (each subclass is a dataclass)."""
    return tuple(f.name for f in fields(kind) if f.compare)


def turn_dict(pos: Position) -> dict[str, Any]:
    """The fields every position stores the same way: whose turn, ply, last move, outcome."""
    out = pos.outcome
    return {
        "to_move": pos.to_move,
        "ply": pos.ply,
        "last_move": pos.last_move,
        "outcome": None if out is None else {"winner": out.winner, "reason": str(out.termination)},
    }


def load_turn(d: Mapping[str, Any], title: str) -> tuple[int, int, str | None, Outcome | None]:
    """Read back what :func:`turn_dict` wrote: ``(to_move, ply, last_move, outcome)``.

    Raises ``ValueError`` naming the game ``title`` when a field is not of its kind.
    """
    to_move, ply, last, out = d["to_move"], d["ply"], d["last_move"], d["outcome"]
    if to_move not in (0, 1) or isinstance(to_move, bool):
        raise ValueError(f"bad {title} seat to move {to_move!r}")
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise ValueError(f"bad {title} ply {ply!r}")
    if last is not None and not isinstance(last, str):
        raise ValueError(f"bad {title} last move")
    outcome = None
    if out is not None:
        winner, reason = out["winner"], out["reason"]
        if winner not in (0, 1, None) or isinstance(winner, bool) or not isinstance(reason, str):
            raise ValueError(f"bad {title} outcome")
        outcome = Outcome(winner, _rules_ending(reason, title))
    return to_move, ply, last, outcome


def _rules_ending(text: str, title: str) -> Termination:
    try:
        termination = Termination(text)
    except ValueError:
        raise ValueError(f"bad {title} outcome {text!r}") from None
    if not termination.by_the_rules:
        raise ValueError(f"bad {title} outcome {text!r}: not an ending by the rules")
    return termination
