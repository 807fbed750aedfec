"""Maphex (Néstor Romeral Andrés): Hex on a board of sub-boards, where where you play decides
where your opponent must play next.  Rules: ``shared/rules/maphex.md``.

Seat 0 is Red (connects the top and bottom rows), seat 1 is Blue (left and right columns).
Blue opens at ply 0 by choosing the sub-board (``1``..``9``) Red's first disc must go on.

>>> p = new(size=9)
>>> p.to_move, p.legal_moves()[:3]
(1, ['1', '2', '3'])
>>> p = p.play("5").play("E5")
>>> p.last_move, p.to_move, p.target_name
('e5', 1, 'centre, 5')
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from engines.base import (
    BoardShape,
    BoardView,
    Game,
    IllegalMove,
    Option,
    Outcome,
    Position,
    RatingPool,
    Region,
    Termination,
    load_turn,
    normalize_move,
    shown,
    turn_dict,
)
from engines.board_view import named_cells
from engines.connection import chain_connects, shortest_link
from engines.geometry import Rhombus

__all__ = ["GAME", "IllegalMoveCode", "MaphexPosition", "new"]

EMPTY = -1
RED, BLUE = 0, 1
SIDES = ("Red", "Blue")


class IllegalMoveCode(enum.StrEnum):
    """Why a Maphex move is refused (arguments in the comments)."""

    #: ``count`` sub-boards, ``text``: Blue's opening choice is not a sub-board's number
    OPENING_NOT_A_SUBBOARD = "maphex.opening not a sub-board"
    #: ``text``, ``size``
    NOT_A_CELL = "maphex.not a cell"
    #: ``cell``
    TAKEN = "maphex.taken"
    #: ``cell``, ``target``: the target sub-board's number (1-based), ``block``: how many
    #: sub-boards a side of the board has (3 or 4; the words that name it are the bot's)
    NOT_IN_TARGET = "maphex.not in target"


_PLACE_NAMES_3 = (
    "top-left", "top", "top-right",
    "left", "centre", "right",
    "bottom-left", "bottom", "bottom-right",
)  # fmt: skip


class _Layout:
    """Everything about one board size that never changes: geometry, sub-boards, autocells."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.block = {9: 3, 16: 4}[size]
        k = self.block
        self.board = Rhombus(size)
        n = size
        #: sub-board (0-based, reading order) of every cell
        self.subboard = tuple((c // n // k) * k + (c % n) // k for c in range(n * n))
        #: the sub-board a disc on this cell sends the opponent to
        self.sends = tuple(((c // n) % k) * k + (c % n) % k for c in range(n * n))
        self.members: tuple[tuple[int, ...], ...] = tuple(
            tuple(c for c in range(n * n) if self.subboard[c] == s) for s in range(k * k)
        )
        self.autocells = frozenset(c for c in range(n * n) if self.subboard[c] == self.sends[c])
        self.edges = ((self.board.top, self.board.bottom), (self.board.left, self.board.right))
        #: The board drawn: the goal edges, the sub-boards (named by their number) and the
        #: autocells (drawn with a dot).
        self.shape = BoardShape(
            self.board,
            goals=tuple(a | b for a, b in self.edges),
            regions=tuple(
                Region(str(s + 1), self.subboard_name(s), cells)
                for s, cells in enumerate(self.members)
            ),
            marked=self.autocells,
        )

    def subboard_name(self, sub: int) -> str:
        if self.block == 3:
            return f"{_PLACE_NAMES_3[sub]}, {sub + 1}"
        return f"row {sub // self.block + 1}, column {sub % self.block + 1}; {sub + 1}"


_LAYOUTS = {size: _Layout(size) for size in (9, 16)}


@dataclass(frozen=True)
class MaphexPosition(Position):
    """A Maphex position.

    Render-facing attributes: ``board`` (:class:`~engines.geometry.Rhombus`), ``cells``
    (one value per cell: -1 empty, 0 Red, 1 Blue), ``target`` (0-based sub-board the mover
    must play in, ``None`` while Blue chooses), ``free`` (the target is full: anywhere goes),
    ``subboard`` and ``autocells`` (from the layout), ``block`` (3 or 4),
    ``edges[seat]`` (the two edges that seat connects), ``last_cell``.
    """

    size: int
    cells: tuple[int, ...]
    target: int | None
    to_move: int
    ply: int
    last_move: str | None
    outcome: Outcome | None
    game: str = "maphex"
    sides: ClassVar[tuple[str, str]] = SIDES

    @property
    def _layout(self) -> _Layout:
        return _LAYOUTS[self.size]

    @property
    def board(self) -> Rhombus:
        """The board geometry."""
        return self._layout.board

    def board_view(self) -> BoardView:
        """The discs, the last disc, a winning path and the sub-board to play in."""
        zone = None if self.free or self.outcome is not None else self.target
        last = named_cells(self.board, self.last_move)
        shape = self._layout.shape
        return BoardView(shape, self.cells, last=last, winning=self.winning_cells, zone=zone)

    @property
    def block(self) -> int:
        """Cells per side of a sub-board (3 on 9×9, 4 on 16×16)."""
        return self._layout.block

    @property
    def subboard(self) -> tuple[int, ...]:
        """The 0-based sub-board of every cell."""
        return self._layout.subboard

    @property
    def autocells(self) -> frozenset[int]:
        """The cells that send the opponent to their own sub-board (drawn with a dot)."""
        return self._layout.autocells

    @property
    def edges(self) -> tuple[tuple[frozenset[int], frozenset[int]], ...]:
        """``edges[seat]``: the two edges that seat must connect."""
        return self._layout.edges

    @property
    def choosing(self) -> bool:
        """Whether Blue is still to choose the opening sub-board."""
        return self.target is None and self.outcome is None

    @cached_property
    def free(self) -> bool:
        """Whether the target sub-board is full, so the mover may place anywhere."""
        if self.target is None:
            return False
        return all(self.cells[c] != EMPTY for c in self._layout.members[self.target])

    @property
    def target_name(self) -> str | None:
        """The target sub-board in words, e.g. ``"top-left, 1"``."""
        return None if self.target is None else self._layout.subboard_name(self.target)

    @property
    def last_cell(self) -> int | None:
        """The cell of the last disc placed, if the last move placed one."""
        if self.last_move is None or self.last_move.isdigit():
            return None
        return self.board.index[self.last_move]

    @cached_property
    def winning_cells(self) -> frozenset[int]:
        """A shortest chain of the winner's discs joining their two edges (empty while the game
        goes on)."""
        out = self.outcome
        if out is None or out.winner is None or out.termination is not Termination.CONNECTION:
            return frozenset()
        who = out.winner
        return frozenset(shortest_link(self.cells, who, self.board.neighbours, *self.edges[who]))

    @cached_property
    def _legal(self) -> tuple[str, ...]:
        if self.outcome is not None:
            return ()
        layout = self._layout
        if self.target is None:
            return tuple(str(s + 1) for s in range(layout.block**2))
        names = layout.board.names
        cells = self.cells
        pool = range(len(cells)) if self.free else layout.members[self.target]
        return tuple(names[c] for c in pool if cells[c] == EMPTY)

    def legal_moves(self) -> list[str]:
        return list(self._legal)

    def play(self, move: str) -> MaphexPosition:
        self._over_check()
        text = normalize_move(move)
        layout = self._layout
        if self.target is None:
            count = layout.block**2
            if not text.isdigit() or not 1 <= int(text) <= count:
                raise IllegalMove(
                    IllegalMoveCode.OPENING_NOT_A_SUBBOARD, count=count, text=shown(text)
                )
            return MaphexPosition(
                self.size, self.cells, int(text) - 1, RED, self.ply + 1, str(int(text)), None
            )
        try:
            cell = layout.board.parse(text)
        except ValueError:
            size = self.size
            raise IllegalMove(IllegalMoveCode.NOT_A_CELL, text=shown(text), size=size) from None
        if self.cells[cell] != EMPTY:
            raise IllegalMove(IllegalMoveCode.TAKEN, cell=text)
        if layout.subboard[cell] != self.target and not self.free:
            raise IllegalMove(
                IllegalMoveCode.NOT_IN_TARGET,
                cell=text,
                target=self.target + 1,
                block=layout.block,
            )
        mover = self.to_move
        cells = list(self.cells)
        cells[cell] = mover
        new_cells = tuple(cells)
        edge_a, edge_b = layout.edges[mover]
        outcome = None
        if chain_connects(cell, new_cells, layout.board.neighbours, edge_a, edge_b):
            outcome = Outcome(mover, Termination.CONNECTION)
        return MaphexPosition(
            self.size, new_cells, layout.sends[cell], 1 - mover, self.ply + 1, text, outcome
        )

    def to_dict(self) -> dict[str, Any]:
        rows = []
        n = self.size
        symbol = {EMPTY: ".", RED: "r", BLUE: "b"}
        for r in range(n):
            rows.append("".join(symbol[v] for v in self.cells[r * n : (r + 1) * n]))
        return {
            "game": self.game,
            "size": self.size,
            "rows": rows,
            "target": self.target,
            **turn_dict(self),
        }


def new(size: int = 9) -> MaphexPosition:
    """The start position: an empty board, Blue to choose Red's opening sub-board."""
    return MaphexPosition(size, (EMPTY,) * (size * size), None, BLUE, 0, None, None)


def load(d: Mapping[str, Any]) -> MaphexPosition:
    """Rebuild a position from :meth:`MaphexPosition.to_dict` output (``ValueError`` if it
    is not a consistent Maphex position)."""
    size = d["size"]
    if size not in _LAYOUTS:
        raise ValueError(f"bad Maphex size {size!r}")
    rows = d["rows"]
    values = {".": EMPTY, "r": RED, "b": BLUE}
    if len(rows) != size or any(len(row) != size for row in rows):
        raise ValueError("Maphex rows do not match the board size")
    cells = tuple(values[ch] for row in rows for ch in row)
    target = d["target"]
    if target is not None and not (
        isinstance(target, int) and 0 <= target < _LAYOUTS[size].block ** 2
    ):
        raise ValueError(f"bad Maphex target {target!r}")
    to_move, ply, last, outcome = load_turn(d, "Maphex")
    return MaphexPosition(size, cells, target, to_move, ply, last, outcome)


GAME = Game(
    name="maphex",
    title="Maphex",
    sides=SIDES,
    options=(
        Option("size", (9, 16), 9, "board size: 9 (3x3 sub-boards of 3x3) or 16 (4x4 of 4x4)"),
    ),
    start=new,
    load=load,
    terminations=frozenset({Termination.CONNECTION}),
    codes=IllegalMoveCode,
    rating_pools=(
        RatingPool("maphex9", "Maphex 9×9", (("size", 9),)),
        RatingPool("maphex16", "Maphex 16×16", (("size", 16),)),
    ),
    palette=("red", "blue"),
    ai="engines.ai.maphex_player",
)
