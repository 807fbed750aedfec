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
from dataclasses import dataclass, field
from functools import cached_property

from engines.ai.bitboard import Shifts, cells_of, masks, shifts_of

__all__ = ["EMPTY", "FAR", "Potential", "potential", "potentials"]

EMPTY = -1
#: The distance of a cell that cannot reach an edge at all.
FAR = 99


@dataclass(frozen=True)
class Potential:
    """One side's connection potential: ``value`` (pieces still needed against resistance,
    :data:`FAR` when blocked), ``moves`` (how many empty cells reach that value: the more,
    the harder to block) and :attr:`through` (each empty cell's sum of the two distances,
    given or worked out when first asked for)."""

    value: int
    moves: int
    cells: tuple[int, ...] | Callable[[], tuple[int, ...]] = field(repr=False, compare=False)

    @cached_property
    def through(self) -> tuple[int, ...]:
        """Each cell's sum of the two distances (:data:`FAR` for a cell not empty)."""
        return self.cells if isinstance(self.cells, tuple) else self.cells()


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
    owner: Sequence[int], who: int, nbrs: Sequence[Sequence[int]], bits: list[int], bit: int
) -> list[int]:
    """Per cell the empty cells ``who`` must fill to reach it from the edge ``bit`` (the cell
    itself counted when empty; 0 for its pieces joined to the edge; :data:`FAR` when none):
    :func:`_two_distance` with ``kth`` 1, by a walk where its pieces cost nothing."""
    dist = [FAR] * len(owner)
    todo: deque[int] = deque()
    for c, v in enumerate(owner):
        if bits[c] & bit:
            if v == who:
                dist[c] = 0
                todo.appendleft(c)
            elif v == EMPTY:
                dist[c] = 1
                todo.append(c)
    while todo:  # nearest first: a piece's cell goes to the front, an empty one to the back
        c = todo.popleft()
        d = dist[c]
        for nb in nbrs[c]:
            v = owner[nb]
            if v == who:
                if d < dist[nb]:
                    dist[nb] = d
                    todo.appendleft(nb)
            elif v == EMPTY and d + 1 < dist[nb]:
                dist[nb] = d + 1
                todo.append(nb)
    return dist


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
    if kth == 1 and who in (0, 1) and _SIDES.issuperset(owner):
        return _plain_potential(owner, who, nbrs, edges)
    if kth == 1:
        # The plain distance needs no neighbourhoods: a walk from each edge where ``who``'s
        # pieces cost nothing and each empty cell one (the same figures, in less time).
        bits = _edge_bits(edges, n)
        a = _plain_distance(owner, who, nbrs, bits, 1)
        if any(a[c] == 0 and bits[c] & 2 for c in range(n)):
            return Potential(0, 1, tuple([FAR] * n))  # a group touching both edges
        b = _plain_distance(owner, who, nbrs, bits, 2)
    else:
        near, touches, joined = _neighbourhoods(owner, who, nbrs, edges)
        if joined:  # a group already touching both edges: connected
            return Potential(0, 1, tuple([FAR] * n))
        a = _two_distance(owner, near, touches, 1, kth)
        b = _two_distance(owner, near, touches, 2, kth)
    through = [FAR] * n
    best = FAR
    moves = 0
    for c in range(n):
        if owner[c] != EMPTY:
            continue
        s = min(a[c] + b[c], FAR)  # the cell itself counted in both
        through[c] = s
        if s < best:
            best, moves = s, 1
        elif s == best:
            moves += 1
    return Potential(best, moves, tuple(through))


def _edge_masks(edges: tuple[Collection[int], ...], n: int) -> tuple[int, int]:
    """The masks of the two edges (bit ``c`` for cell ``c``), from :func:`_edge_bits`."""
    bits = _edge_bits(edges, n)
    key = (id(bits), n)
    found = _MASKS.get(key)
    if found is None or found[0] is not bits:
        a = sum(1 << c for c in range(n) if bits[c] & 1)
        b = sum(1 << c for c in range(n) if bits[c] & 2)
        found = (bits, a, b)
        if len(_MASKS) >= 64:
            _MASKS.clear()
        _MASKS[key] = found
    return found[1], found[2]


_MASKS: dict[tuple[int, int], tuple[list[int], int, int]] = {}
#: The cell values the masks of :mod:`engines.ai.bitboard` know.
_SIDES = frozenset((EMPTY, 0, 1))


def _groups(sh: Shifts, own: int) -> list[tuple[int, int]]:
    """Each group of ``own`` (its cells joined through neighbours) and the cells next to it."""
    out = []
    rest = own
    while rest:
        grown = front = rest & -rest
        while front:
            front = sh.dilate(front) & rest & ~grown
            grown |= front
        rest ^= grown
        out.append((grown, sh.dilate(grown)))
    return out


def _plain_layers(sh: Shifts, groups: list[tuple[int, int]], empty: int, edge: int) -> list[int]:
    """The cells by plain distance from ``edge`` (:func:`_plain_distance` on masks): layer 0
    the side's ``groups`` touching the edge, then each layer the empty cells next to the one
    before (or on the edge) and the groups next to them."""
    layer = near = 0
    left = []
    for group in groups:
        if group[0] & edge:
            layer |= group[0]
            near |= group[1]
        else:
            left.append(group)
    layers = [layer]
    reached = layer
    front = (edge | near) & empty
    while front:
        near = sh.dilate(front)
        layer = front
        if left:
            keep = []
            for group in left:
                if group[0] & near:
                    layer |= group[0]
                    near |= group[1]
                else:
                    keep.append(group)
            left = keep
        reached |= layer
        layers.append(layer)
        front = near & empty & ~reached
    return layers


def _plain_potential(
    owner: Sequence[int],
    who: int,
    nbrs: Sequence[Sequence[int]],
    edges: tuple[Collection[int], Collection[int]],
) -> Potential:
    """:func:`potential` with ``kth`` 1 for a board of ``-1``, ``0`` and ``1`` cells, on bit
    masks (:mod:`engines.ai.bitboard`): the same figures in less time, each cell's sum of
    the two distances worked out only when asked for."""
    n = len(owner)
    sh = shifts_of(nbrs)
    edge_a, edge_b = _edge_masks(edges, n)
    empty, zero, one = masks(owner)
    own = zero if who == 0 else one
    groups = _groups(sh, own)
    layers_a = _plain_layers(sh, groups, empty, edge_a)
    if layers_a[0] & edge_b:
        return Potential(0, 1, tuple([FAR] * n))  # a group touching both edges
    layers_b = _plain_layers(sh, groups, empty, edge_b)
    best, moves = FAR, 0
    seen = 0  # the empty cells with a sum below FAR
    for i, ma in enumerate(layers_a):
        ma &= empty
        if not ma or i + 1 > best:
            continue
        for j, mb in enumerate(layers_b):
            s = i + j
            if s >= FAR:
                break
            m = ma & mb
            if m:
                seen |= m
                if s < best:
                    best, moves = s, m.bit_count()
                elif s == best:
                    moves += m.bit_count()
    if best == FAR:
        moves = (empty & ~seen).bit_count()

    def through() -> tuple[int, ...]:
        a = _by_cell(layers_a, n)
        b = _by_cell(layers_b, n)
        return tuple(min(a[c] + b[c], FAR) if v == EMPTY else FAR for c, v in enumerate(owner))

    return Potential(best, moves, through)


def _by_cell(layers: list[int], n: int) -> list[int]:
    """Each cell's layer (:data:`FAR` for a cell in none)."""
    out = [FAR] * n
    for i, layer in enumerate(layers):
        for c in cells_of(layer):
            out[c] = i
    return out


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
