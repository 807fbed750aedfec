"""What a surface draws a position from without knowing the game: the typed board view.

Each game fills these from its own module (:meth:`engines.Position.board_view`):

* :class:`BoardShape`: what never changes on one game's board with given options: the cells
  and how they touch (the board's geometry, and the links a winning path is drawn along), the
  goal cells of each colour, the regions a move may name, the marked cells, what the heights
  count (:class:`HeightKind`).
* :class:`BoardView`: one position on that shape: the piece on every cell, the heights, the
  cells the last move named, the winning cells and the region the player to move must play in.

The web page's JSON (``bot/webboard/view.py``) and the pictures (``render``) read them the same
way for every game.

>>> from engines.geometry import Square
>>> shape = BoardShape(Square(3), goals=(frozenset({0, 1, 2}), frozenset({0, 3, 6})))
>>> [shape.goal_of(c) for c in (0, 3, 4)]
[0, 1, -1]
>>> view = BoardView(shape, (0, 0, 0, -1, -1, -1, -1, -1, -1), winning=frozenset({0, 1, 2}))
>>> view.winning_links()
((0, 1), (1, 2))
>>> named_cells(shape.board, "a1-c3 x b2")
(0, 8, 4)
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from engines.geometry import Board

__all__ = ["CELL", "BoardShape", "BoardView", "HeightKind", "Region", "named_cells"]

#: A cell's name inside a move's notation (``e5`` in ``d4-e5``).
CELL = re.compile(r"[a-z][0-9]{1,2}")


class HeightKind(enum.Enum):
    """What a :class:`BoardView`'s heights count."""

    #: no heights: one piece per cell at most
    NONE = "none"
    #: tiles under the cell: -1 the bare board, 0 one tile, 1 two tiles (Iso-Path's kind)
    TILES = "tiles"
    #: pieces stacked on the cell (a stack's height)
    STACKS = "stacks"


@dataclass(frozen=True)
class Region:
    """A part of the board a move may name (a sub-board): ``move`` the move that names it
    (``"5"``), ``label`` its name in words, ``cells`` its cells."""

    move: str
    label: str
    cells: tuple[int, ...]


@dataclass(frozen=True)
class BoardShape:
    """What never changes on one game's board with given options.

    ``board`` is the geometry (names, neighbours, :attr:`~engines.geometry.Board.kind`);
    ``goals[colour]`` the cells of that colour's goal edges or home row; ``regions`` the
    parts of the board a move may name; ``marked`` the cells drawn with a dot (cells with a
    rule of their own); ``adjacency[cell]`` the cells a winning path links ``cell`` to, when
    more than its neighbours on the board (cells that count as adjacent across the board);
    ``height_kind`` what a view's heights count.
    """

    board: Board
    goals: tuple[frozenset[int], ...] = ()
    regions: tuple[Region, ...] = ()
    marked: frozenset[int] = frozenset()
    adjacency: tuple[tuple[int, ...], ...] | None = field(default=None, repr=False)
    height_kind: HeightKind = HeightKind.NONE

    @property
    def touching(self) -> tuple[tuple[int, ...], ...]:
        """``touching[cell]``: the cells a winning path links ``cell`` to."""
        return self.board.neighbours if self.adjacency is None else self.adjacency

    def goal_of(self, cell: int) -> int:
        """The colour whose goal ``cell`` lies on (the first colour's where two meet), -1 for
        none."""
        return next((colour for colour, cells in enumerate(self.goals) if cell in cells), -1)

    def region_of(self, cell: int) -> int | None:
        """The index of the region ``cell`` is in, ``None`` on a board without regions."""
        return next((i for i, region in enumerate(self.regions) if cell in region.cells), None)


@dataclass(frozen=True)
class BoardView:
    """What is on every cell of one position, read the same way for every game.

    ``pieces[cell]`` is the colour (0 or 1) of the piece, or of a stack's top piece, on the
    cell (-1: none); ``heights[cell]`` what the shape's :attr:`height_kind` counts (``None``
    for none); ``last`` the cells the last move named; ``winning`` the cells that won a
    finished game; ``zone`` the index of the region the player to move must play in
    (``None``: anywhere, or the game is over).
    """

    shape: BoardShape
    pieces: tuple[int, ...]
    heights: tuple[int, ...] | None = None
    last: tuple[int, ...] = ()
    winning: frozenset[int] = frozenset()
    zone: int | None = None

    @property
    def height_kind(self) -> HeightKind:
        """What :attr:`heights` count."""
        return self.shape.height_kind

    def winning_links(self) -> tuple[tuple[int, int], ...]:
        """Each two winning cells that touch (:attr:`BoardShape.touching`), lower cell first:
        the lines a winning path is drawn with."""
        touching = self.shape.touching
        return tuple(
            (a, b) for a in sorted(self.winning) for b in touching[a] if b > a and b in self.winning
        )


def named_cells(board: Board, move: str | None) -> tuple[int, ...]:
    """The cells of ``board`` that ``move`` names, in order (``()`` for none)."""
    found = (board.index.get(name) for name in CELL.findall(move or ""))
    return tuple(cell for cell in found if cell is not None)
