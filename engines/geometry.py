"""Board geometry shared by every game: cell names, neighbours and lines.

Three shapes, with the coordinates of ``shared/rules/README.md``:

* :class:`Rhombus` — the N×N Hex rhombus (Maphex, inpHeXion): ``a1`` top-left, columns
  left to right, rows top to bottom, each row shifted half a cell right of the row above.
* :class:`Hexagon` — the hex-hex board of side n (Iso-Path, Lines of Fixation): rows ``a..``
  top to bottom, cells ``1..`` left to right within a row.
* :class:`Square` — the chess-like N×N board (Pathagon): ``a1`` bottom-left, orthogonal
  neighbours only.

Cells are small integers (an index into tuples), so engines stay fast; names are only for
input and output.  Every board exposes ``names``, ``neighbours``, ``parse`` and ``name``.
"""

from __future__ import annotations

import string
from functools import cached_property

__all__ = ["Board", "Hexagon", "Rhombus", "Square"]

_LETTERS = string.ascii_lowercase


class Board:
    """What every board shape offers: cell names, lookup and neighbour tables."""

    #: Short word for the shape: ``"rhombus"``, ``"hexagon"`` or ``"square"``.
    kind: str = ""

    def __init__(self, names: list[str], neighbours: list[tuple[int, ...]]) -> None:
        self.names: tuple[str, ...] = tuple(names)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(neighbours)
        self.index: dict[str, int] = {n: i for i, n in enumerate(names)}
        self.cells: range = range(len(names))

    def __len__(self) -> int:
        return len(self.names)

    def name(self, cell: int) -> str:
        """The name of ``cell``, e.g. ``"e5"``."""
        return self.names[cell]

    def parse(self, text: str) -> int:
        """The cell named ``text`` (already lower-case); ``ValueError`` if there is none."""
        cell = self.index.get(text)
        if cell is None:
            raise ValueError(f"{text} is not a cell of this board")
        return cell

    def row(self, cell: int) -> int:
        """The row ``cell`` is drawn in (0 the first), on every shape."""
        raise NotImplementedError

    def describe(self) -> str:
        """A short description such as ``"9x9 rhombus"``."""
        raise NotImplementedError


class Rhombus(Board):
    """The N×N Hex rhombus; ``cell = row * n + column`` (both 0-based).

    >>> b = Rhombus(9)
    >>> b.name(0), b.name(80), b.parse("e5")
    ('a1', 'i9', 40)
    >>> [b.name(c) for c in b.neighbours[b.parse("b2")]]
    ['a2', 'c2', 'b1', 'c1', 'a3', 'b3']
    """

    kind = "rhombus"

    def __init__(self, n: int) -> None:
        self.n = n
        names = [f"{_LETTERS[c]}{r + 1}" for r in range(n) for c in range(n)]
        steps = ((-1, 0), (1, 0), (0, -1), (1, -1), (-1, 1), (0, 1))
        neighbours = []
        for r in range(n):
            for c in range(n):
                neighbours.append(
                    tuple(
                        (r + dr) * n + (c + dc)
                        for dc, dr in steps
                        if 0 <= c + dc < n and 0 <= r + dr < n
                    )
                )
        super().__init__(names, neighbours)
        self.top = frozenset(range(n))
        self.bottom = frozenset(range(n * (n - 1), n * n))
        self.left = frozenset(r * n for r in range(n))
        self.right = frozenset(r * n + n - 1 for r in range(n))

    def column(self, cell: int) -> int:
        """0-based column of ``cell`` (0 is column ``a``)."""
        return cell % self.n

    def row(self, cell: int) -> int:
        """0-based row of ``cell`` (0 is row 1, the top)."""
        return cell // self.n

    def describe(self) -> str:
        return f"{self.n}x{self.n} rhombus"


class Hexagon(Board):
    """The hex-hex board of side n, held in axial coordinates ``(q, r)`` with
    ``max(|q|, |r|, |q + r|) <= n - 1``; ``r`` is the row offset from the middle row.

    >>> h = Hexagon(4)
    >>> len(h), h.name(0), h.name(36), h.parse("d4")
    (37, 'a1', 'g4', 18)
    >>> sorted(h.name(c) for c in h.neighbours[h.parse("a1")])
    ['a2', 'b1', 'b2']
    """

    kind = "hexagon"

    #: The six unit steps in axial coordinates; opposite steps are ``DIRECTIONS[i ^ 1]``.
    DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))

    def __init__(self, n: int) -> None:
        self.n = n
        m = n - 1
        self.axial: list[tuple[int, int]] = []
        names = []
        self.row_lengths: list[int] = []
        for i in range(2 * m + 1):
            r = i - m
            qs = range(max(-m, -m - r), min(m, m - r) + 1)
            self.row_lengths.append(len(qs))
            for j, q in enumerate(qs):
                self.axial.append((q, r))
                names.append(f"{_LETTERS[i]}{j + 1}")
        self._at = {qr: cell for cell, qr in enumerate(self.axial)}
        neighbours = []
        for q, r in self.axial:
            neighbours.append(
                tuple(
                    self._at[(q + dq, r + dr)]
                    for dq, dr in self.DIRECTIONS
                    if (q + dq, r + dr) in self._at
                )
            )
        super().__init__(names, neighbours)

    def at(self, q: int, r: int) -> int | None:
        """The cell at axial ``(q, r)``, or ``None`` off the board."""
        return self._at.get((q, r))

    def row(self, cell: int) -> int:
        """0-based row of ``cell`` (0 is row ``a``, the top)."""
        return self.axial[cell][1] + self.n - 1

    def column(self, cell: int) -> int:
        """0-based position of ``cell`` within its row."""
        q, r = self.axial[cell]
        return q - max(-(self.n - 1), -(self.n - 1) - r)

    def step(self, cell: int, direction: int) -> int | None:
        """The neighbour of ``cell`` in ``DIRECTIONS[direction]``, or ``None`` off the board."""
        q, r = self.axial[cell]
        dq, dr = self.DIRECTIONS[direction]
        return self._at.get((q + dq, r + dr))

    @cached_property
    def rays(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """``rays[cell][direction]``: the cells from ``cell`` (excluded) to the edge."""
        out = []
        for cell in self.cells:
            per_dir = []
            for d in range(6):
                ray = []
                nxt = self.step(cell, d)
                while nxt is not None:
                    ray.append(nxt)
                    nxt = self.step(nxt, d)
                per_dir.append(tuple(ray))
            out.append(tuple(per_dir))
        return tuple(out)

    def line(self, cell: int, axis: int) -> tuple[int, ...]:
        """The whole board line through ``cell`` along ``axis`` (0, 1 or 2; direction
        ``2 * axis`` and its opposite), edge to edge, in order of ``DIRECTIONS[2 * axis]``."""
        back = self.rays[cell][2 * axis + 1]
        return tuple(reversed(back)) + (cell,) + self.rays[cell][2 * axis]

    @cached_property
    def corners(self) -> frozenset[int]:
        """The six corner cells (three neighbours each)."""
        return frozenset(c for c in self.cells if len(self.neighbours[c]) == 3)

    def describe(self) -> str:
        return f"hexagon of side {self.n}"


class Square(Board):
    """The N×N square board in chess convention; ``cell = row * n + column`` with row 0 the
    bottom row (``a1`` bottom-left).  Neighbours are orthogonal only.

    >>> s = Square(7)
    >>> s.name(0), s.name(48), s.parse("d4")
    ('a1', 'g7', 24)
    """

    kind = "square"

    #: The four orthogonal steps ``(dc, dr)``.
    DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))

    def __init__(self, n: int) -> None:
        self.n = n
        names = [f"{_LETTERS[c]}{r + 1}" for r in range(n) for c in range(n)]
        neighbours = []
        for r in range(n):
            for c in range(n):
                neighbours.append(
                    tuple(
                        (r + dr) * n + c + dc
                        for dc, dr in self.DIRECTIONS
                        if 0 <= c + dc < n and 0 <= r + dr < n
                    )
                )
        super().__init__(names, neighbours)
        self.bottom = frozenset(range(n))
        self.top = frozenset(range(n * (n - 1), n * n))
        self.left = frozenset(r * n for r in range(n))
        self.right = frozenset(r * n + n - 1 for r in range(n))

    def column(self, cell: int) -> int:
        """0-based column (0 is ``a``)."""
        return cell % self.n

    def row(self, cell: int) -> int:
        """0-based row (0 is row 1, the bottom)."""
        return cell // self.n

    def step(self, cell: int, direction: int) -> int | None:
        """The orthogonal neighbour of ``cell`` in ``DIRECTIONS[direction]``, or ``None``."""
        dc, dr = self.DIRECTIONS[direction]
        c, r = cell % self.n + dc, cell // self.n + dr
        if 0 <= c < self.n and 0 <= r < self.n:
            return r * self.n + c
        return None

    def describe(self) -> str:
        return f"{self.n}x{self.n} square board"
