"""The alpha-beta evaluation of inpHeXion: connection potentials in the game's own terms.

In inpHeXion a turn takes one of the opponent's discs (pushing it to an empty neighbour) and
puts one's own disc in its place, so an opponent disc that can still be pushed is no wall: it
is a cell one turn away, like an empty one.  Only the opponent discs with no empty neighbour
(they can never be moved again) block.  The evaluation is therefore the two-distance potential
of :mod:`engines.ai.distance` over a board where each side sees the opponent's movable discs
as open cells, plus the one-turn threats:

* the side to move that can connect at once (an opponent disc next to an empty cell whose
  place joins both its edges) has all but won;
* each such cell the other side holds is a threat the mover must meet this turn, two or more
  rarely can be.

Measured at equal wall time against the benchmark's alpha-beta reference (two-distance with
every opponent disc a wall), 0.1 s a move, 40 games, seats alternating: this evaluation
34 of 40 (85 %), the plain two-distance with the threats 22 of 40, the plain two-distance
(the earlier plan) 12 of 20; at 0.25 s (``benchmarks/ai.py --matchups ref-ab``) 17 of 20.
Keeping only two ways of relocating per push below the root was no better at equal
evaluations (7 of 13), so every legal move is searched.

>>> import engines
>>> p = engines.position_after("inphexion", ["d4", "d4-d3"])
>>> 0.0 < evaluate(p) < 1.0
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engines.ai.distance import EMPTY, FAR
from engines.base import Position
from engines.connection import edge_touches
from engines.inphexion import InphexionPosition

__all__ = ["evaluate", "open_board", "open_potential", "winning_cells"]

#: A potential counted at most this high (a blocked side is far behind, not infinitely).
CAP = 16
#: Seat 0's chance when the side to move can connect at once (its own chance, mirrored).
WINS_NOW = 0.97


def winning_cells(
    cells: Sequence[int],
    colour: int,
    nbrs: Sequence[Sequence[int]],
    edge_a: frozenset[int],
    edge_b: frozenset[int],
) -> int:
    """How many opponent discs ``colour`` could push and replace to join its two edges at
    once (a disc next to an empty cell, whose place touches chains reaching both edges)."""
    opp = 1 - colour
    touches = edge_touches(cells, colour, nbrs, edge_a, edge_b)
    count = 0
    for a, v in enumerate(cells):
        if v != opp:
            continue
        movable = False
        reach = (1 if a in edge_a else 0) | (2 if a in edge_b else 0)
        for nb in nbrs[a]:
            w = cells[nb]
            if w == EMPTY:
                movable = True
            elif w == colour:
                reach |= touches[nb]
        if movable and reach == 3:
            count += 1
    return count


def open_board(cells: Sequence[int], colour: int, nbrs: Sequence[Sequence[int]]) -> list[int]:
    """``cells`` as ``colour`` sees them: the opponent's movable discs counted empty."""
    opp = 1 - colour
    out = list(cells)
    for c, v in enumerate(cells):
        if v == opp and any(cells[nb] == EMPTY for nb in nbrs[c]):
            out[c] = EMPTY
    return out


class _Shape:
    """What never changes on one board size: neighbours and, per colour, each cell's edges
    (bit 1 the first, bit 2 the second)."""

    def __init__(self, position: InphexionPosition) -> None:
        self.nbrs = position.board.neighbours
        self.bits = tuple(
            [(1 if c in a else 0) | (2 if c in b else 0) for c in range(len(position.cells))]
            for a, b in position.edges
        )


_SHAPES: dict[int, _Shape] = {}


def open_potential(
    cells: Sequence[int], colour: int, nbrs: Sequence[Sequence[int]], bits: Sequence[int]
) -> tuple[int, int]:
    """``colour``'s two-distance potential on the board it sees (:func:`open_board`) and the
    number of cells reaching it: :func:`engines.ai.distance.potential` of the open board,
    computed in one go (``bits``: each cell's edges for ``colour``, bit 1 and bit 2)."""
    n = len(cells)
    # 0 open (empty or a movable opponent disc), 1 own, 2 wall (an opponent disc for good)
    kind = [0] * n
    for c in range(n):
        v = cells[c]
        if v == EMPTY:
            continue
        if v == colour:
            kind[c] = 1
            continue
        for nb in nbrs[c]:
            if cells[nb] == EMPTY:
                break
        else:
            kind[c] = 2
    group = [-1] * n
    mark = [-1] * n  # the last group whose surroundings listed the cell
    around: list[list[int]] = []
    group_bits: list[int] = []
    for start in range(n):
        if kind[start] != 1 or group[start] >= 0:
            continue
        g = len(around)
        group[start] = g
        todo = [start]
        cells_around: list[int] = []
        touch = 0
        while todo:
            c = todo.pop()
            touch |= bits[c]
            for nb in nbrs[c]:
                k = kind[nb]
                if k == 1:
                    if group[nb] < 0:
                        group[nb] = g
                        todo.append(nb)
                elif k == 0 and mark[nb] != g:
                    mark[nb] = g
                    cells_around.append(nb)
        if touch == 3:
            return 0, 1
        around.append(cells_around)
        group_bits.append(touch)
    near: list[list[int]] = [[] for _ in range(n)]
    touches = [0] * n
    stamp = [-1] * n
    opened = [c for c in range(n) if kind[c] == 0]
    for c in opened:
        stamp[c] = c
        out = near[c]
        touch = bits[c]
        for nb in nbrs[c]:
            k = kind[nb]
            if k == 0:
                if stamp[nb] != c:
                    stamp[nb] = c
                    out.append(nb)
            elif k == 1:
                g = group[nb]
                if mark[c] == n + g:
                    continue  # this group's surroundings are listed already
                mark[c] = n + g
                touch |= group_bits[g]
                for x in around[g]:
                    if stamp[x] != c:
                        stamp[x] = c
                        out.append(x)
        touches[c] = touch
    total = [0] * n
    for bit in (1, 2):
        dist = [FAR] * n
        count = [0] * n
        frontier = [c for c in opened if touches[c] & bit]
        for c in frontier:
            dist[c] = 1
        d = 2
        while frontier:
            nxt = []
            for c in frontier:
                for x in near[c]:
                    if dist[x] == FAR:
                        count[x] += 1
                        if count[x] == 2:
                            dist[x] = d
                            nxt.append(x)
            frontier = nxt
            d += 1
        for c in opened:
            total[c] += dist[c]
    best, moves = FAR, 0
    for c in opened:
        s = total[c]
        if s < best:
            best, moves = s, 1
        elif s == best:
            moves += 1
    return min(best, FAR), moves


#: Values already worked out, by board, colours, player to move and whether the opening is
#: over (an iterative-deepening search evaluates the same positions again at every depth, and
#: the next move's search many of them once more); emptied when it reaches :data:`KEPT`.
_VALUES: dict[tuple[tuple[int, ...], tuple[int, int], int, bool], float] = {}
#: The most values :data:`_VALUES` holds.
KEPT = 50_000


def evaluate(position: Position) -> float:
    """Seat 0's chance in an inpHeXion position (see the module's description)."""
    assert isinstance(position, InphexionPosition)
    key = (position.cells, position.colours, position.to_move, position.ply >= 2)
    value = _VALUES.get(key)
    if value is None:
        if len(_VALUES) >= KEPT:
            _VALUES.clear()
        value = _VALUES[key] = _evaluate(position)
    return value


def _evaluate(position: InphexionPosition) -> float:
    cells = position.cells
    nbrs = position.board.neighbours
    mover = position.to_move
    colours = position.colours
    mine = colours[mover]
    if position.ply >= 2 and winning_cells(cells, mine, nbrs, *position.edges[mine]):
        return WINS_NOW if mover == 0 else 1.0 - WINS_NOW
    shape = _SHAPES.get(position.size)
    if shape is None:
        shape = _SHAPES[position.size] = _Shape(position)
    (v0, m0), (v1, m1) = (open_potential(cells, c, nbrs, shape.bits[c]) for c in colours)
    lead = float(min(v1, CAP) - min(v0, CAP))
    lead += 0.1 * (min(m0, 8) - min(m1, 8))
    lead += 0.5 if mover == 0 else -0.5
    theirs = 1 - mine
    threats = (
        winning_cells(cells, theirs, nbrs, *position.edges[theirs]) if position.ply >= 2 else 0
    )
    if threats:
        swing = 1.0 + 1.5 * min(threats - 1, 2)
        lead += -swing if mover == 0 else swing
    return 1.0 / (1.0 + math.exp(-0.7 * lead))
