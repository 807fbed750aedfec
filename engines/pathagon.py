"""Pathagon (Mark Fuchs): connect your two sides on a 7×7 square board, trapping enemy pieces
between two of yours to send them back to their owner's hand.  Rules:
``shared/rules/pathagon.md``.

Seat 0 is Light (connects rows 1 and 7) and moves first; seat 1 is Dark (columns a and g).
A turn is ``d4`` (place a piece from hand, including a returned one) or ``d4-f6`` (move one of
your pieces to any empty square, once you have no piece in hand).

>>> p = new().play("D4").play("d5").play("d6")
>>> p.last_move, p.trapped, p.board.name(p.trapped[0]), p.in_hand, p.returned
('d6', (31,), 'd5', (12, 14), (0, 1))
>>> "d5" in p.legal_moves(), p.forbidden
(False, frozenset({31}))
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from engines.base import (
    BoardShape,
    BoardView,
    Game,
    IllegalMove,
    Outcome,
    Position,
    Termination,
    load_turn,
    normalize_move,
    shown,
    turn_dict,
)
from engines.board_view import named_cells
from engines.connection import chain_connects, shortest_link
from engines.geometry import Square

__all__ = ["GAME", "PIECES", "IllegalMoveCode", "PathagonPosition", "load", "new"]

EMPTY = -1
LIGHT, DARK = 0, 1
SIDES = ("Light", "Dark")
#: Pieces each side owns.
PIECES = 14
SIZE = 7

_BOARD = Square(SIZE)


class IllegalMoveCode(enum.StrEnum):
    """Why a Pathagon move is refused (arguments in the comments; ``square`` a square's
    name)."""

    #: ``text``: neither a placement nor a move
    NOT_A_MOVE = "pathagon.not a move"
    #: ``text``: a part that names no square
    NOT_A_SQUARE = "pathagon.not a square"
    #: ``square``: a placement with no piece in hand
    NONE_IN_HAND = "pathagon.none in hand"
    #: ``square``: a move while pieces are still in hand
    STILL_IN_HAND = "pathagon.still in hand"
    #: ``square``
    MUST_CHANGE_SQUARE = "pathagon.must change square"
    #: ``square``
    NO_PIECE = "pathagon.no piece"
    #: ``square``
    NOT_YOURS = "pathagon.not yours"
    #: ``square``: the piece moved on the player's previous turn
    MOVED_LAST_TURN = "pathagon.moved last turn"
    #: ``square``
    NOT_EMPTY = "pathagon.not empty"
    #: ``square``: emptied by a trap this turn
    EMPTIED_BY_TRAP = "pathagon.emptied by trap"


_NAMES = _BOARD.names
_EDGES: tuple[tuple[frozenset[int], frozenset[int]], ...] = (
    (_BOARD.bottom, _BOARD.top),
    (_BOARD.left, _BOARD.right),
)
#: The board drawn for every position: each side's goal lines.
_SHAPE = BoardShape(_BOARD, goals=tuple(a | b for a, b in _EDGES))
#: ``_TRAP_LINES[cell]``: for each direction with two squares beyond ``cell``, the pair
#: (square next to ``cell``, square after it) — the enemy piece and the closing piece of a trap.
_TRAP_LINES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (one, two)
        for d in range(len(Square.DIRECTIONS))
        if (one := _BOARD.step(cell, d)) is not None and (two := _BOARD.step(one, d)) is not None
    )
    for cell in _BOARD.cells
)
#: ``_MOVE_TEXT[a][b]``: the canonical text of moving the piece on ``a`` to ``b``; built once
#: so listing the ~270 moves of a moving-phase position is a table lookup per move.
_MOVE_TEXT: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"{_NAMES[a]}-{_NAMES[b]}" for b in _BOARD.cells) for a in _BOARD.cells
)
_SYMBOLS = {EMPTY: ".", LIGHT: "L", DARK: "D"}
_VALUES = {".": EMPTY, "L": LIGHT, "D": DARK}


@dataclass(frozen=True)
class PathagonPosition(Position):
    """A Pathagon position.

    Render-facing attributes: ``board`` (:class:`~engines.geometry.Square` 7×7), ``cells``
    (one value per square: -1 empty, 0 Light, 1 Dark; seat = colour), ``in_hand`` (pieces in
    hand per seat, returned ones included), ``returned`` (how many of those are returned
    pieces), ``forbidden`` (squares the player to move may not use this turn), ``locked``
    (per seat, the square of the piece that seat may not move on its next turn, or ``None``),
    ``trapped`` (squares emptied by traps in the last move), ``last_from``, ``last_to`` and
    ``edges[seat]``.

    Build hand-made positions with :meth:`from_diagram`.
    """

    cells: tuple[int, ...]
    in_hand: tuple[int, int]
    returned: tuple[int, int]
    locked: tuple[int | None, int | None]
    trapped: tuple[int, ...]
    to_move: int
    ply: int
    last_move: str | None
    outcome: Outcome | None
    game: str = "pathagon"
    sides: ClassVar[tuple[str, str]] = SIDES

    @classmethod
    def from_diagram(
        cls,
        diagram: str,
        *,
        to_move: int = LIGHT,
        in_hand: tuple[int, int] | None = None,
        returned: tuple[int, int] = (0, 0),
        locked: Sequence[str | None] = (None, None),
        trapped: Sequence[str] = (),
        ply: int | None = None,
        last_move: str | None = None,
    ) -> PathagonPosition:
        """A position drawn as text, for tests and examples.

        ``diagram`` has seven rows, row 7 (the top) first, each of seven symbols: ``L`` Light,
        ``D`` Dark, ``.`` empty; spaces and blank lines are ignored.  ``in_hand`` defaults to
        the pieces not on the board (14 minus those drawn), ``ply`` to the number of pieces on
        the board; ``locked`` and ``trapped`` take square names.  An inconsistent position
        raises ``ValueError``.

        >>> p = PathagonPosition.from_diagram('''
        ...     .......
        ...     .......
        ...     .......
        ...     ...D...
        ...     ...L...
        ...     .......
        ...     .......
        ... ''')
        >>> p.in_hand, p.board.name(p.cells.index(1)), p.play("d5").trapped
        ((13, 13), 'd4', (24,))
        """
        rows = [line.replace(" ", "") for line in diagram.splitlines()]
        cells = _cells_from_rows([row for row in rows if row])
        if in_hand is None:
            in_hand = (PIECES - cells.count(LIGHT), PIECES - cells.count(DARK))
        pos = cls(
            cells,
            (in_hand[0], in_hand[1]),
            (returned[0], returned[1]),
            (_square(locked[0]), _square(locked[1])),
            tuple(sorted(_BOARD.parse(name) for name in trapped)),
            to_move,
            sum(1 for v in cells if v != EMPTY) if ply is None else ply,
            last_move,
            None,
        )
        _validate(pos)
        return pos

    @property
    def board(self) -> Square:
        """The board geometry (7×7, ``a1`` bottom-left)."""
        return _BOARD

    def board_view(self) -> BoardView:
        """The pieces, the last move's squares and a winning path."""
        last = named_cells(_BOARD, self.last_move)
        return BoardView(_SHAPE, self.cells, last=last, winning=self.winning_cells)

    @property
    def size(self) -> int:
        """Squares per side of the board: 7."""
        return SIZE

    @property
    def edges(self) -> tuple[tuple[frozenset[int], frozenset[int]], ...]:
        """``edges[seat]``: the two lines that seat connects (Light: bottom and top rows;
        Dark: columns a and g)."""
        return _EDGES

    @property
    def forbidden(self) -> frozenset[int]:
        """The squares the player to move may not use this turn: those a trap emptied in the
        last move (the trapped pieces are always the player to move's own)."""
        return frozenset(self.trapped)

    @property
    def placing(self) -> bool:
        """Whether the player to move must place a piece (has one in hand) rather than move."""
        return self.in_hand[self.to_move] > 0

    @property
    def last_from(self) -> int | None:
        """The square the last move's piece left (``None`` after a placement)."""
        if self.last_move is None or "-" not in self.last_move:
            return None
        return _BOARD.index[self.last_move.split("-")[0]]

    @property
    def last_to(self) -> int | None:
        """The square the last placement or move filled."""
        if self.last_move is None:
            return None
        return _BOARD.index[self.last_move.split("-")[-1]]

    @cached_property
    def winning_cells(self) -> frozenset[int]:
        """A shortest chain of the winner's pieces joining their two lines (empty while the
        game goes on)."""
        out = self.outcome
        if out is None or out.winner is None or out.termination is not Termination.CONNECTION:
            return frozenset()
        return frozenset(
            shortest_link(self.cells, out.winner, _BOARD.neighbours, *_EDGES[out.winner])
        )

    @cached_property
    def _legal(self) -> tuple[str, ...]:
        if self.outcome is not None:
            return ()
        cells = self.cells
        trapped = self.trapped
        targets = [c for c, v in enumerate(cells) if v == EMPTY and c not in trapped]
        mover = self.to_move
        if self.in_hand[mover]:
            return tuple(_NAMES[c] for c in targets)
        lock = self.locked[mover]
        moves: list[str] = []
        for c, v in enumerate(cells):
            if v == mover and c != lock:
                row = _MOVE_TEXT[c]
                moves.extend([row[t] for t in targets])
        return tuple(moves)

    def legal_moves(self) -> list[str]:
        return list(self._legal)

    def play(self, move: str) -> PathagonPosition:
        self._over_check()
        text = normalize_move(move)
        mover = self.to_move
        parts = text.split("-")
        if len(parts) > 2:
            raise IllegalMove(IllegalMoveCode.NOT_A_MOVE, text=shown(text))
        squares = [_parse(part) for part in parts]
        cells = list(self.cells)
        in_hand = list(self.in_hand)
        returned = list(self.returned)
        locked = list(self.locked)
        if len(squares) == 1:
            (dest,) = squares
            if not in_hand[mover]:
                raise IllegalMove(IllegalMoveCode.NONE_IN_HAND, square=_NAMES[dest])
            self._check_destination(dest)
            in_hand[mover] -= 1
            # A placement re-enters a returned piece first: returned pieces must go back
            # before the player may move again, and the pieces are identical anyway.
            returned[mover] = max(0, returned[mover] - 1)
            locked[mover] = None  # a placement clears the same-piece lock (point 8)
        else:
            source, dest = squares
            if in_hand[mover]:
                raise IllegalMove(IllegalMoveCode.STILL_IN_HAND, square=_NAMES[dest])
            if source == dest:
                raise IllegalMove(IllegalMoveCode.MUST_CHANGE_SQUARE, square=_NAMES[source])
            if cells[source] == EMPTY:
                raise IllegalMove(IllegalMoveCode.NO_PIECE, square=_NAMES[source])
            if cells[source] != mover:
                raise IllegalMove(IllegalMoveCode.NOT_YOURS, square=_NAMES[source])
            if source == locked[mover]:
                raise IllegalMove(IllegalMoveCode.MOVED_LAST_TURN, square=_NAMES[source])
            self._check_destination(dest)
            # The piece leaves its square before traps are looked for (point 5).
            cells[source] = EMPTY
            locked[mover] = dest
        cells[dest] = mover
        enemy = 1 - mover
        trapped = []
        for one, two in _TRAP_LINES[dest]:
            if cells[one] == enemy and cells[two] == mover:
                trapped.append(one)
        for cell in trapped:
            cells[cell] = EMPTY
        if trapped:
            in_hand[enemy] += len(trapped)
            returned[enemy] += len(trapped)
            if locked[enemy] in trapped:
                locked[enemy] = None  # the locked piece went back to hand
        new_cells = tuple(cells)
        outcome = None
        # Only the square just filled can have joined a new chain of the mover's; the
        # opponent only lost pieces, so only the mover can complete a path (point 9).
        edge_a, edge_b = _EDGES[mover]
        if chain_connects(dest, new_cells, _BOARD.neighbours, edge_a, edge_b):
            outcome = Outcome(mover, Termination.CONNECTION)
        canonical = _NAMES[dest] if len(squares) == 1 else _MOVE_TEXT[squares[0]][dest]
        return PathagonPosition(
            new_cells,
            (in_hand[0], in_hand[1]),
            (returned[0], returned[1]),
            (locked[0], locked[1]),
            tuple(sorted(trapped)),
            enemy,
            self.ply + 1,
            canonical,
            outcome,
        )

    def _check_destination(self, dest: int) -> None:
        if self.cells[dest] != EMPTY:
            raise IllegalMove(IllegalMoveCode.NOT_EMPTY, square=_NAMES[dest])
        if dest in self.trapped:
            raise IllegalMove(IllegalMoveCode.EMPTIED_BY_TRAP, square=_NAMES[dest])

    def diagram(self) -> str:
        """The board as text, row 7 first (the format :meth:`from_diagram` reads)."""
        return "\n".join(_rows(self.cells))

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rows": _rows(self.cells),
            "in_hand": list(self.in_hand),
            "returned": list(self.returned),
            "locked": [None if c is None else _NAMES[c] for c in self.locked],
            "trapped": [_NAMES[c] for c in self.trapped],
            **turn_dict(self),
        }


def _parse(text: str) -> int:
    try:
        return _BOARD.parse(text)
    except ValueError:
        raise IllegalMove(IllegalMoveCode.NOT_A_SQUARE, text=shown(text)) from None


def _square(name: str | None) -> int | None:
    return None if name is None else _BOARD.parse(name)


def _rows(cells: Sequence[int]) -> list[str]:
    n = SIZE
    return ["".join(_SYMBOLS[v] for v in cells[r * n : (r + 1) * n]) for r in reversed(range(n))]


def _cells_from_rows(rows: Sequence[str]) -> tuple[int, ...]:
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError("a Pathagon diagram has 7 rows of 7 squares")
    try:
        values = [[_VALUES[ch.upper()] for ch in row] for row in rows]
    except KeyError as bad:
        raise ValueError(
            f"unknown Pathagon square symbol {bad.args[0]!r} (use L, D or .)"
        ) from None
    # Row 7 comes first in the text; cell 0 is a1 at the bottom.
    return tuple(v for row in reversed(values) for v in row)


def _validate(pos: PathagonPosition) -> None:
    """Raise ``ValueError`` unless ``pos`` is a position Pathagon play could reach in shape."""
    for seat in (LIGHT, DARK):
        hand, back = pos.in_hand[seat], pos.returned[seat]
        if not (isinstance(hand, int) and isinstance(back, int) and 0 <= back <= hand):
            raise ValueError("bad Pathagon pieces in hand")
        if pos.cells.count(seat) + hand != PIECES:
            raise ValueError(f"each Pathagon side has {PIECES} pieces, on the board or in hand")
        lock = pos.locked[seat]
        if lock is not None and pos.cells[lock] != seat:
            raise ValueError("a locked Pathagon square must hold that side's piece")
    if pos.trapped:
        if any(pos.cells[c] != EMPTY for c in pos.trapped) or len(set(pos.trapped)) != len(
            pos.trapped
        ):
            raise ValueError("squares emptied by a trap must be empty")
        if pos.returned[pos.to_move] < len(pos.trapped):
            raise ValueError("trapped pieces must be in their owner's hand")
    last = pos.last_move
    if last is not None and (
        not isinstance(last, str) or any(part not in _BOARD.index for part in last.split("-"))
    ):
        raise ValueError("bad Pathagon last move")


def new() -> PathagonPosition:
    """The start position: an empty board, 14 pieces in each hand, Light to move."""
    return PathagonPosition(
        (EMPTY,) * (SIZE * SIZE), (PIECES, PIECES), (0, 0), (None, None), (), LIGHT, 0, None, None
    )


def load(d: Mapping[str, Any]) -> PathagonPosition:
    """Rebuild a position from :meth:`PathagonPosition.to_dict` output (``ValueError`` if it
    is not a consistent Pathagon position)."""
    cells = _cells_from_rows(d["rows"])
    in_hand, returned, locked = d["in_hand"], d["returned"], d["locked"]
    if len(in_hand) != 2 or len(returned) != 2 or len(locked) != 2:
        raise ValueError("Pathagon hand data has one entry per side")
    to_move, ply, last, outcome = load_turn(d, "Pathagon")
    if outcome is not None and outcome.winner is None:
        raise ValueError("a Pathagon game always has a winner")
    pos = PathagonPosition(
        cells,
        (in_hand[0], in_hand[1]),
        (returned[0], returned[1]),
        (_square(locked[0]), _square(locked[1])),
        tuple(sorted(_BOARD.parse(name) for name in d["trapped"])),
        to_move,
        ply,
        last,
        outcome,
    )
    _validate(pos)
    return pos


GAME = Game(
    name="pathagon",
    title="Pathagon",
    sides=SIDES,
    options=(),
    start=new,
    load=load,
    terminations=frozenset({Termination.CONNECTION}),
    codes=IllegalMoveCode,
    ai="engines.ai.pathagon_player",
)
