"""Two-distance connection potentials for the connection games (Maphex, inpHeXion, Pathagon).

The two-distance of an empty cell from an edge is one more than the *second* best distance of
its neighbours (the opponent can always block the best one), with the cells touching the edge
at 1; a player's own pieces join the empty cells around each of their groups into one
neighbourhood.  A side's *potential* is the least sum of its two edges' two-distances over the
empty cells: how many more pieces it needs against resistance, the measure of Hex programs
since Queenbee.  Cells of a side's won chain give a potential of 0.

>>> import engines
>>> p = engines.new("pathagon")
>>> potentials(p.cells, p.board.neighbours, p.edges, (0, 1), kth=1)[0].value
8
>>> h = engines.new("maphex", size=9)
>>> [x.value for x in potentials(h.cells, h.board.neighbours, h.edges, (0, 1))]
[10, 10]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from engines.ai.bitboard import shifts_of

__all__ = [
    "EMPTY",
    "FAR",
    "Potential",
    "Reach",
    "plain_reaches",
    "potential",
    "potentials",
]

EMPTY: Final = -1
#: The distance of a cell that cannot reach an edge at all.
FAR: Final = 99


@dataclass(frozen=True)
class Potential:
    """One side's connection potential: ``value`` (pieces still needed against resistance,
    :data:`FAR` when blocked), ``moves`` (how many empty cells reach that value: the more,
    the harder to block) and ``through`` (each empty cell's sum of the two distances)."""

    value: int
    moves: int
    through: tuple[int, ...]


_BITS: dict[tuple[Collection[int], Collection[int], int], list[int]] = {}


def _edge_bits(edges: tuple[Collection[int], ...], n: int) -> list[int]:
    """Per cell the edges it lies on (bit 1 the first, bit 2 the second), kept per board."""
    key = (edges[0], edges[1], n)
    try:
        found = _BITS.get(key)
        kept = len(_BITS) < 64
    except TypeError:  # edges that cannot be hashed: worked out each time
        found, kept = None, False
    if found is None:
        found = [(1 if c in edges[0] else 0) | (2 if c in edges[1] else 0) for c in range(n)]
        if kept:
            _BITS[key] = found
    return found


def _neighbourhoods(
    owner: Sequence[int],
    who: int,
    nbrs: Sequence[Sequence[int]],
    edges: tuple[Collection[int], ...],
) -> tuple[list[list[int]], list[int], bool]:
    """Per empty cell its empty neighbours through ``who``'s groups, per empty cell the
    edges (bit 1 the first, bit 2 the second) it touches directly or through a group, and
    whether a group of ``who`` touches both edges already."""
    n = len(owner)
    bits = _edge_bits(edges, n)
    group = [-1] * n
    group_cells: list[list[int]] = []  # the empty cells around each group
    group_edges: list[int] = []
    grouped = [False] * n  # the empty cells next to a group
    joined = False
    for start in range(n):
        if owner[start] != who or group[start] >= 0:
            continue
        g = len(group_cells)
        group[start] = g
        todo = [start]
        around: set[int] = set()
        touch = 0
        while todo:
            c = todo.pop()
            touch |= bits[c]
            for nb in nbrs[c]:
                v = owner[nb]
                if v == who:
                    if group[nb] < 0:
                        group[nb] = g
                        todo.append(nb)
                elif v == EMPTY:
                    around.add(nb)
                    grouped[nb] = True
        group_cells.append(sorted(around))
        group_edges.append(touch)
        joined = joined or touch == 3
    near: list[list[int]] = [[] for _ in range(n)]
    touches = [0] * n
    for c in range(n):
        if owner[c] != EMPTY:
            continue
        around_c = nbrs[c]
        touch = bits[c]
        if not grouped[c]:
            # No group next to it (most cells): its empty neighbours, each once already.
            near[c] = [nb for nb in around_c if owner[nb] == EMPTY]
            touches[c] = touch
            continue
        seen: set[int] = {c}
        out: list[int] = []
        for nb in around_c:
            v = owner[nb]
            if v == EMPTY:
                if nb not in seen:
                    seen.add(nb)
                    out.append(nb)
            elif v == who:
                g = group[nb]
                touch |= group_edges[g]
                for x in group_cells[g]:
                    if x not in seen:
                        seen.add(x)
                        out.append(x)
        near[c] = out
        touches[c] = touch
    return near, touches, joined


def _two_distance(
    owner: Sequence[int], near: list[list[int]], touches: list[int], bit: int, kth: int
) -> list[int]:
    """Every empty cell's ``kth``-distance from the edge ``bit`` (1 or 2): one more than the
    ``kth`` best of its neighbours'; :data:`FAR` if none."""
    n = len(owner)
    dist = [FAR] * n
    count = [0] * n
    frontier = [c for c in range(n) if owner[c] == EMPTY and touches[c] & bit]
    for c in frontier:
        dist[c] = 1
    d = 1
    while frontier:
        nxt: list[int] = []
        for c in frontier:
            for nb in near[c]:
                if dist[nb] != FAR:
                    continue
                count[nb] += 1
                if count[nb] == kth:
                    dist[nb] = d + 1
                    nxt.append(nb)
        frontier = nxt
        d += 1
    return dist


def _plain_distance(
    owner: Sequence[int], who: int, nbrs: Sequence[Sequence[int]], starts: Sequence[int]
) -> list[int]:
    """Per cell the empty cells ``who`` must fill to reach it from the edge whose cells are
    ``starts`` (the cell itself counted when empty; 0 for its pieces joined to the edge;
    :data:`FAR` when none): :func:`_two_distance` with ``kth`` 1, by a walk where its pieces
    cost nothing."""
    dist = [FAR] * len(owner)
    todo: deque[int] = deque()
    for c in starts:
        v = owner[c]
        if v == who:
            dist[c] = 0
            todo.appendleft(c)
        elif v == EMPTY:
            dist[c] = 1
            todo.append(c)
    pop, push, push_front = todo.popleft, todo.append, todo.appendleft
    while todo:  # nearest first: a piece's cell goes to the front, an empty one to the back
        c = pop()
        d = dist[c]
        for nb in nbrs[c]:
            v = owner[nb]
            if v == who:
                if d < dist[nb]:
                    dist[nb] = d
                    push_front(nb)
            elif v == EMPTY and d < dist[nb] - 1:
                dist[nb] = d + 1
                push(nb)
    return dist


def _edge_cells(edges: tuple[Collection[int], ...], n: int) -> tuple[list[int], list[int]]:
    """The cells of each of the two edges, in order (from :func:`_edge_bits`, kept per board)."""
    bits = _edge_bits(edges, n)
    found = _CELLS.get(id(bits))
    if found is None or found[0] is not bits:
        found = (
            bits,
            [c for c in range(n) if bits[c] & 1],
            [c for c in range(n) if bits[c] & 2],
        )
        if len(_CELLS) >= 64:
            _CELLS.clear()
        _CELLS[id(bits)] = found
    return found[1], found[2]


_CELLS: dict[int, tuple[list[int], list[int], list[int]]] = {}


def potential(
    owner: Sequence[int],
    who: int,
    nbrs: Sequence[Sequence[int]],
    edges: tuple[Collection[int], Collection[int]],
    kth: int = 2,
) -> Potential:
    """``who``'s :class:`Potential` for joining ``edges`` on a board whose cells hold
    ``owner`` values (:data:`EMPTY` or a side); other sides' pieces block.  ``kth`` 2 is the
    two-distance (hexagonal boards, where every cell has two ways on); 1 the plain distance
    (the square board of Pathagon, where one blocker stops a step but traps reopen it)."""
    n = len(owner)
    if kth == 1:
        # The plain distance needs no neighbourhoods: a walk from each edge where ``who``'s
        # pieces cost nothing and each empty cell one (the same figures, in less time).
        on_a, on_b = _edge_cells(edges, n)
        a = _plain_distance(owner, who, nbrs, on_a)
        if 0 in [a[c] for c in on_b]:
            return Potential(0, 1, tuple([FAR] * n))  # a group touching both edges
        b = _plain_distance(owner, who, nbrs, on_b)
    else:
        near, touches, joined = _neighbourhoods(owner, who, nbrs, edges)
        if joined:  # a group already touching both edges: connected
            return Potential(0, 1, tuple([FAR] * n))
        a = _two_distance(owner, near, touches, 1, kth)
        b = _two_distance(owner, near, touches, 2, kth)
    # Each empty cell's sum (the cell itself counted in both), at most FAR.
    through = [
        FAR if v != EMPTY or x + y > FAR else x + y for v, x, y in zip(owner, a, b, strict=True)
    ]
    sums = [t for t, v in zip(through, owner, strict=True) if v == EMPTY]
    best = min(sums, default=FAR)
    return Potential(best, sums.count(best), tuple(through))


def potentials(
    owner: Sequence[int],
    nbrs: Sequence[Sequence[int]],
    edges: Sequence[tuple[Collection[int], Collection[int]]],
    sides: tuple[int, int],
    kth: int = 2,
) -> tuple[Potential, Potential]:
    """The :class:`Potential` of ``sides[0]`` (joining ``edges[0]``) and of ``sides[1]``
    (joining ``edges[1]``)."""
    return (
        potential(owner, sides[0], nbrs, edges[0], kth),
        potential(owner, sides[1], nbrs, edges[1], kth),
    )


class Reach(NamedTuple):
    """A side's :class:`Potential` without its per-cell sums: all an evaluation reads."""

    value: int
    moves: int


#: Per pair of edges: the mask of each edge's cells.
_EDGE_MASKS: dict[object, tuple[tuple[int, int], ...]] = {}


def _edge_masks(
    edges: Sequence[tuple[Collection[int], Collection[int]]],
) -> tuple[tuple[int, int], ...]:
    key = tuple(edges)
    found = _EDGE_MASKS.get(key)
    if found is None:
        if len(_EDGE_MASKS) >= 64:
            _EDGE_MASKS.clear()
        found = _EDGE_MASKS[key] = tuple(
            (sum(1 << c for c in a), sum(1 << c for c in b)) for a, b in edges
        )
    return found


def _levels(
    own: int, empty: int, start: int, dilate: Callable[[int], int], stop: int, limit: int
) -> list[int]:
    """The cells at :func:`_plain_distance` 0, 1, 2, ... from the edge ``start``, as bit masks
    (:mod:`engines.ai.bitboard`): the side's pieces (``own``) cost nothing, each empty cell
    one.  Each level is the empty cells next to the level before (level 1: those on the edge)
    and the pieces joined to them, found a whole level at a time by ``dilate`` (the board's
    :attr:`~engines.ai.bitboard.Shifts.dilate`) rather than a cell at a time.  It stops after
    the level that touches ``stop``, or after level ``limit``."""
    levels: list[int] = []
    x, fresh, seen = start & own, start & empty, 0
    while True:
        free = own & ~seen & ~x
        while True:  # the pieces joined to what is reached cost nothing more
            near = dilate(x)
            more = near & free
            if not more:
                break
            x |= more
            free &= ~more
        seen |= x
        levels.append(x)
        if x & stop or len(levels) > limit:
            return levels
        x, fresh = ((near & empty) | fresh) & ~seen, 0
        if not x:
            return levels


def plain_reaches(
    masks: tuple[int, int, int],
    nbrs: Sequence[Sequence[int]],
    edges: Sequence[tuple[Collection[int], Collection[int]]],
) -> tuple[Reach, Reach]:
    """Seat 0's and seat 1's :class:`Reach` (seat ``s`` joining ``edges[s]``) on the board
    whose neighbour table is ``nbrs`` and whose cells are ``masks``
    (:func:`engines.ai.bitboard.masks`): the value and moves of :func:`potentials` with
    ``kth`` 1 (Pathagon), a level of cells at a time.

    >>> import engines
    >>> from engines.ai.bitboard import masks
    >>> p = engines.new("pathagon").play("d4")
    >>> plain_reaches(masks(p.cells), p.board.neighbours, p.edges)
    (Reach(value=7, moves=6), Reach(value=8, moves=42))
    >>> [(x.value, x.moves) for x in potentials(p.cells, p.board.neighbours, p.edges, (0, 1), 1)]
    [(7, 6), (8, 42)]
    """
    dilate = shifts_of(nbrs).dilate
    empty = masks[0]
    found: list[Reach] = []
    for own, (a_edge, b_edge) in zip(masks[1:], _edge_masks(edges), strict=True):
        # From one edge until the other is touched: the level D that touches it is the
        # cheapest way across, and each empty cell's sum of its two distances (the cell
        # counted in both) is at least D + 1, reached on the cheapest ways.
        a = _levels(own, empty, a_edge, dilate, b_edge, FAR)
        if not a[-1] & b_edge:  # blocked: every empty cell's sum is FAR
            found.append(Reach(FAR, empty.bit_count()))
            continue
        last = len(a) - 1
        if last == 0:  # a group touching both edges: connected
            found.append(Reach(0, 1))
            continue
        b = _levels(own, empty, b_edge, dilate, 0, last)
        moves = sum((a[d] & b[last + 1 - d] & empty).bit_count() for d in range(1, last + 1))
        found.append(Reach(last + 1, moves))
    return found[0], found[1]
