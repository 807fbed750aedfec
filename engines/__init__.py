"""Pure rule engines for the five Hexhall games: no I/O, no asyncio, no drawing.

>>> import engines
>>> p = engines.new("maphex")
>>> p = p.play("5")
>>> engines.from_dict(p.to_dict()) == p
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from engines.base import (
    BoardShape,
    BoardView,
    Game,
    IllegalMove,
    IllegalMoveCode,
    MoveCode,
    Option,
    OptionError,
    Outcome,
    PickerMode,
    Position,
    RatingPool,
    Termination,
    shown,
)

__all__ = [
    "GAMES",
    "BoardShape",
    "BoardView",
    "Game",
    "IllegalMove",
    "IllegalMoveCode",
    "MoveCode",
    "Option",
    "OptionError",
    "Outcome",
    "PickerMode",
    "Position",
    "RatingPool",
    "Termination",
    "from_dict",
    "looks_like_move",
    "new",
    "position_after",
    "replay",
]

from engines import fixation, inphexion, isopath, maphex, pathagon

#: Every game by name, in the order the bot lists them.
GAMES: dict[str, Game] = {
    module.GAME.name: module.GAME for module in (isopath, pathagon, fixation, maphex, inphexion)
}


def _game(name: object) -> Game:
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        known = ", ".join(GAMES)
        raise ValueError(f"unknown game {name!r} (games: {known})")
    return game


def new(name: str, **options: Any) -> Position:
    """The start position of game ``name`` with ``options``.

    An unknown game or a bad option raises ``ValueError`` with a clear message.
    """
    return _game(name).new(**options)


def replay(name: str, moves: Iterable[str], **options: Any) -> Iterator[Position]:
    """The start position of game ``name``, then the position after each of ``moves``.

    An illegal move raises :class:`IllegalMove` with the code
    :attr:`~IllegalMoveCode.IN_LIST`, naming the move's ``number`` and text (``move``) and the
    error it met (``reason``); it reads e.g.
    ``move 2 (a1) is illegal: a1 is not in the target sub-board (centre, 5)``.

    >>> [p.last_move for p in replay("maphex", ["5", "E5"])]
    [None, '5', 'e5']
    """
    position = new(name, **options)
    yield position
    for number, move in enumerate(moves, 1):
        try:
            position = position.play(move)
        except IllegalMove as exc:
            raise IllegalMove(
                IllegalMoveCode.IN_LIST, number=number, move=shown(move), reason=exc
            ) from None
        yield position


def position_after(name: str, moves: Iterable[str], **options: Any) -> Position:
    """The position of game ``name`` after all of ``moves`` (see :func:`replay`).

    >>> position_after("maphex", ["5", "e5"]).to_move
    1
    """
    # Only the last position is kept: a long game's positions can be large (superko history).
    return deque(replay(name, moves, **options), maxlen=1)[0]


def looks_like_move(text: str, game: str | None = None) -> bool:
    """Whether ``text`` is written like a move of ``game`` (of any game when ``None``), legal
    or not: see :meth:`Game.looks_like_move`.

    >>> looks_like_move("hlep"), looks_like_move("swap", "maphex"), looks_like_move("asdfgh")
    (False, False, False)
    >>> looks_like_move("swap"), looks_like_move("g3-g2"), looks_like_move("5", "maphex")
    (True, True, True)
    """
    games = GAMES.values() if game is None else [_game(game)]
    return any(g.looks_like_move(text) for g in games)


def from_dict(d: Mapping[str, Any]) -> Position:
    """Rebuild a position from ``Position.to_dict()`` output.

    Anything that is not a valid position of a known game raises ``ValueError``.
    """
    if not isinstance(d, Mapping):
        raise ValueError("a stored position must be a mapping")
    game = _game(d.get("game"))
    try:
        return game.load(d)
    except ValueError:
        raise
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"not a valid {game.title} position: {exc!r}") from None
