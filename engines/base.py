"""The interface every rule engine implements: positions, outcomes, options and games.

A game is described by a :class:`Game` (title, sides, options as data) and played through
immutable :class:`Position` values: ``position.play(move)`` returns the next position and
leaves the old one untouched.  Moves are plain strings in the canonical notation of
``shared/rules/README.md``; an illegal or malformed move raises :class:`IllegalMove`.
"""

from __future__ import annotations

import abc
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Game",
    "IllegalMove",
    "Option",
    "Outcome",
    "Position",
    "load_turn",
    "normalize_move",
    "option_text",
    "shown",
    "turn_dict",
]

#: Longest move text any game accepts; anything longer is refused before parsing.
MAX_MOVE_LENGTH = 80


class IllegalMove(ValueError):
    """A move that is malformed or breaks a rule.

    The message is one line a player can read, naming the rule that was broken, e.g.
    ``e5 is not in the target sub-board (top-left, 1)``.
    """


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is a seat (0 or 1), or ``None`` for a draw; ``reason`` is a few words such as
    ``"connection"`` or ``"no legal move"``.
    """

    winner: int | None
    reason: str


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
        choices = ", ".join(option_text(v) for v in self.values)
        raise ValueError(f"option {self.name} must be one of {choices}, not {value!r}")


def option_text(value: Any) -> str:
    """An option's value as players write it (``pie=yes``, ``size=9``): the one spelling every
    text uses.

    >>> option_text(True), option_text(16)
    ('yes', '16')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


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

    def resolve_options(self, **options: Any) -> dict[str, Any]:
        """Return every option of this game with ``options`` checked and defaults filled in."""
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            allowed = ", ".join(known) or "none"
            raise ValueError(f"{self.title} has no option {unknown[0]!r} (options: {allowed})")
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
        raise IllegalMove(f"a move is text, not {type(move).__name__}")
    if len(move) > MAX_MOVE_LENGTH:
        raise IllegalMove(f"that is not a move: {len(move)} characters is too long")
    move = unicodedata.normalize("NFKC", move).translate(_INVISIBLE)
    text = _SPACES.sub(" ", move.strip().lower())
    # Spaces around the joining signs are forgiven: "c3 - c4" means "c3-c4".
    text = re.sub(r" ?([->]) ?", r"\1", text)
    if not text:
        raise IllegalMove("the move is empty")
    if not all(ch.isascii() and ch.isprintable() for ch in text):
        raise IllegalMove(f"{shown(text)!r} is not a move: unexpected characters")
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

    @abc.abstractmethod
    def legal_moves(self) -> list[str]:
        """Every legal move in canonical notation; empty once the game is over."""

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
        from engines import GAMES

        return GAMES[self.game].sides

    def completions(self, prefix: str, limit: int = 25) -> list[str]:
        """Legal moves that start with the partly typed ``prefix``, for autocompletion.

        Games with very many moves override this to avoid listing every move.
        """
        try:
            start = normalize_move(prefix)
        except IllegalMove:
            start = ""
        return [m for m in self.legal_moves() if m.startswith(start)][:limit]

    def _over_check(self) -> None:
        if self.outcome is not None:
            raise IllegalMove("the game is over: no more moves")


def turn_dict(pos: Position) -> dict[str, Any]:
    """The fields every position stores the same way: whose turn, ply, last move, outcome."""
    out = pos.outcome
    return {
        "to_move": pos.to_move,
        "ply": pos.ply,
        "last_move": pos.last_move,
        "outcome": None if out is None else {"winner": out.winner, "reason": out.reason},
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
        outcome = Outcome(winner, reason)
    return to_move, ply, last, outcome
