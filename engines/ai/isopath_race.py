"""Races to the goal row in Iso-Path: the ways of one or two steps into it, the free runs of
any length, and the races that the other side cannot stop, counted exactly for the search's
evaluation (:func:`engines.ai.isopath_search._score`, issue 49).

The goal row is the other side's home row, where that side may never move a tile: a piece
next to it needs only the tiles of its goal space, which no tile of the other side undoes.
A race is *sure* (:func:`race`) when at every turn of the other side the runner stands next
to the goal row (or has two first spaces, of which one tile spoils one), no piece of the
other side can step onto the goal space while it is at that side's height, no two of its
pieces can stand next to the runner in time (one step and one tile move a turn:
:class:`Catchers`), the other side cannot win first, and a runner waiting for its tiles has
another piece to step (both actions of a turn are compulsory).  A sure race of ``t`` turns
is worth nearly a win (:data:`engines.ai.isopath_search.SURE` less :data:`RACE_TURN` a
turn): the search sees such a race two to four plies before its end, a lost one while it
can still be met elsewhere.  A *free run* (:func:`run`), every space of the way already at
the runner's height, goes a row a turn whatever the other side's tiles do, so it is sure at
any length unless two of the other side's pieces can stand next to the runner in time or
the other side wins first.

>>> import engines
>>> from engines.ai.isopath_search import _layout
>>> p = engines.isopath.setup(white=["f2", "a2"], black=["c1", "c6"])
>>> lay, h, pieces = _layout(p), list(p.heights), list(p.pieces)
>>> black = Catchers(lay, h, [c for c, x in enumerate(pieces) if x == 1], 1)
>>> race(lay, pieces, 0, ways(lay, h, pieces, 0), True, fastest(lay, pieces, 1, []), black)
2
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Protocol

from engines.isopath import STAND

__all__ = [
    "RACE_TURN",
    "RACE_TURNS",
    "Catchers",
    "Layout",
    "Way",
    "caught",
    "fastest",
    "race",
    "run",
    "way_costs",
    "ways",
]

NONE: Final = -1
#: The longest race :func:`race` counts, in turns of the racing side.
RACE_TURNS: Final = 4
#: Fewer turns than any race.
RACE_NEVER: Final = 99
#: What each turn of a sure race takes off :data:`SURE` (a shorter race is worth more).
RACE_TURN: Final = 1_000.0

# A way into the goal row: turns, piece, first space, goal space, tiles for each (ways).
Way = tuple[int, int, int, int, int, int]


class Layout(Protocol):
    """What the race count needs of a board size (:class:`engines.ai.isopath_search._Layout`)."""

    n: int
    adj: tuple[tuple[int, ...], ...]
    home: tuple[frozenset[int], frozenset[int]]
    ring: tuple[tuple[tuple[int, ...], ...], ...]
    near: tuple[tuple[int, ...], ...]
    far: tuple[tuple[int, ...], ...]
    to_go: tuple[tuple[int, ...], tuple[int, ...]]


def ways(lay: Layout, h: list[int], p: list[int], side: int) -> list[Way]:
    """``side``'s ways into its goal row in one or two steps, as if the other side did
    nothing: (turns, piece, first space, goal space, tiles the first space needs, tiles the
    goal space needs); the first space is the goal space for a one-step way.

    A turn is one tile move and one step, so a way of two steps whose spaces need ``n1`` and
    ``ng`` tiles takes ``max(2, n1 + 1, n1 + ng)`` turns (tiles go on the goal space while
    the piece walks), one of one step ``max(1, ng)``."""
    stand = STAND[side]
    own = lay.home[side]
    goal = lay.home[1 - side]
    adj, ring = lay.adj, lay.ring[side]
    out: list[Way] = []
    for x in lay.near[side]:
        if p[x] != side:
            continue
        for v in adj[x]:
            if p[v] != NONE:
                continue
            n1 = abs(h[v] - stand)
            if v in goal:
                out.append((max(1, n1), x, v, v, n1, n1))
            elif not n1 or v not in own:  # no side may move a tile of its own home row
                for g in ring[v]:
                    if p[g] == NONE:
                        ng = abs(h[g] - stand)
                        out.append((max(2, n1 + 1, n1 + ng), x, v, g, n1, ng))
    return out


def fastest(lay: Layout, p: list[int], side: int, ways: list[Way]) -> int:
    """The fewest turns ``side`` could win in, at least (its ``ways``, else three or the
    rows its nearest piece has to go): what the other side's race must beat."""
    to_go = lay.to_go[side]
    rows = min((to_go[c] for c in range(lay.n) if p[c] == side), default=RACE_NEVER)
    return min(min((w[0] for w in ways), default=RACE_NEVER), max(3, rows))


def caught(far: tuple[int, ...], theirs: list[int], turn: int) -> bool:
    """Whether two of ``theirs`` (pieces) can stand next to the space ``far`` is measured
    from by the start of their ``turn``-th turn (one step a turn, heights aside)."""
    extra = sorted(far[c] - 1 for c in theirs)
    return len(extra) >= 2 and extra[0] + extra[1] <= turn - 1


def race(
    lay: Layout,
    p: list[int],
    side: int,
    ways: list[Way],
    first: bool,
    other: int,
    catchers: Catchers,
) -> int:
    """The turns of ``side``'s surest race to its goal row by one of its ``ways``
    (:func:`ways`), 0 when it has none that the
    other side cannot stop: by a tile (only on a space off the goal row, which is the other
    side's home row: every turn of the other side finds the runner next to the goal row, or
    has two first spaces to spoil), by stepping onto the goal space while it is at its
    height, by a capture (two of its pieces next to the runner in time, :class:`Catchers`) or
    by winning first (``other``: its fewest turns, :func:`fastest`).  ``first``: ``side`` is
    to move; ``catchers``: the other side's pieces."""
    theirs = catchers.theirs
    far = lay.far
    best = RACE_NEVER
    spoilable: dict[int, int] = {}  # second to move, two steps: per first space its turns
    alone = p.count(side) == 1
    for turns, x, v, g, n1, ng in ways:
        two = v != g
        if turns > RACE_TURNS or (two and n1 > 1) or other <= (turns - 1 if first else turns):
            continue
        if alone and turns > (2 if two else 1):
            continue  # a turn's step is compulsory: a lone runner cannot wait for its tiles
        waits = turns - 1 if first else turns  # the other side's turns before the last
        # Still at the other side's height at its first turn: it may step onto it.
        if ng == 2 and (not first or (two and n1)) and any(far[g][c] == 1 for c in theirs):
            continue
        if first:
            stands = [(v if two else x, waits)]
        else:
            stands = [(x, 1), (v, waits)] if two else [(x, waits)]
        if any(u >= 1 and catchers.catch(c, u) for c, u in stands):
            continue
        if two and not first:
            spoilable[v] = min(spoilable.get(v, turns), turns)
        else:
            best = min(best, turns)
    if len(spoilable) >= 2:
        best = min(best, sorted(spoilable.values())[1])  # the other side spoils the best
    return 0 if best == RACE_NEVER else best


def run(
    lay: Layout,
    side: int,
    starts: list[int],
    cost: list[int],
    dist: list[int],
    first: bool,
    other: int,
    catchers: Catchers,
) -> int:
    """The turns of ``side``'s shortest *free run*, 0 when it has none: a piece (of
    ``starts``) whose way to the goal row costs no more than the rows it has to go (``dist``
    from ``cost``, the search's :func:`engines.ai.isopath_search._from_goal`), so that every
    space on it is empty and at ``side``'s height, the goal space at most one tile off.

    Such a run takes one turn a row whatever the other side does.  A tile move spoils one
    space by one tile (a space at one end of the heights can lose or take a tile, not both),
    and the runner's own tile move of its next turn mends it before the step; no piece of the
    other side stands on a space at the runner's height or one tile from it; the goal row is
    the other side's home row, whose tiles it may not move.  So only a capture stops it (two
    of the other side's pieces next to the runner by one of their turns, :class:`Catchers`)
    or a faster win (``other``, :func:`fastest`).  ``first``: ``side`` is to move;
    ``catchers``: the other side's pieces."""
    to_go = lay.to_go[side]
    best = RACE_NEVER
    for x in starts:
        k = to_go[x]
        if k >= best or other <= (k - 1 if first else k):
            continue
        if _free(lay, cost, dist, to_go, x, 0 if first else 1, catchers, {}):
            best = k
    return 0 if best == RACE_NEVER else best


def _free(
    lay: Layout,
    cost: list[int],
    dist: list[int],
    to_go: tuple[int, ...],
    at: int,
    turn: int,
    catchers: Catchers,
    seen: dict[int, bool],
) -> bool:
    """Whether the runner standing on ``at`` at the other side's ``turn``-th turn (0: none
    before its step) goes on along a free run to the goal row without being caught."""
    if to_go[at] == 0:
        return True
    found = seen.get(at)
    if found is not None:
        return found
    ok = turn < 1 or not catchers.catch(at, turn)
    if ok:
        ok = any(
            cost[v] == 1
            and dist[v] == dist[at] - 1
            and _free(lay, cost, dist, to_go, v, turn + 1, catchers, seen)
            for v in lay.adj[at]
        )
    seen[at] = ok
    return ok


class Catchers:
    """The other side's pieces ``theirs`` (of ``side``) as they may come to capture a runner:
    two of them must stand next to it at the start of one of their turns, one step and one
    tile move a turn in all, so before their ``turn``-th turn the two pieces' steps together
    and the tiles they must move together must each fit in the ``turn - 1`` turns.  The
    steps alone (:func:`caught`) rule most cases out; the tiles are counted only when the
    steps would allow it."""

    def __init__(self, lay: Layout, h: list[int], theirs: list[int], side: int) -> None:
        self.lay, self.h, self.theirs, self.side = lay, h, theirs, side
        self.off: list[int] = []

    def catch(self, at: int, turn: int) -> bool:
        """Whether two of the pieces may stand next to ``at`` by their ``turn``-th turn."""
        far = self.lay.far[at]
        if not caught(far, self.theirs, turn):
            return False
        tiles = self.tiles(at)
        need = [(far[c] - 1, tiles[c]) for c in self.theirs]
        return any(
            max(a[0] + b[0], a[1] + b[1]) <= turn - 1
            for i, a in enumerate(need)
            for b in need[i + 1 :]
        )

    def tiles(self, at: int) -> list[int]:
        """Per space, the fewest tiles a piece there must move to walk onto a space next to
        ``at`` (each space entered: 0 at its height, 1 one tile off, 2 two off; the pieces on
        the way left aside, so never more than it takes)."""
        lay, h = self.lay, self.h
        if not self.off:
            # The tiles each space needs for one of them to stand on it: none off its height
            # on its own home row, whose tiles it may not move.
            stand, home = STAND[self.side], lay.home[self.side]
            self.off = [
                RACE_NEVER if c in home and h[c] != stand else abs(h[c] - stand)
                for c in range(lay.n)
            ]
        return way_costs(lay.adj, self.off, lay.adj[at])


def way_costs(
    adj: tuple[tuple[int, ...], ...], cost: list[int], sources: Iterable[int]
) -> list[int]:
    """Per space, the cheapest cost of the spaces entered on a way from it to one of
    ``sources`` (0 on a source; ``cost``: of entering each space; 1000 for none).

    Shortest ways are unique in cost, so any order of relaxing finds them: spaces whose cost
    fell are relaxed again, a frontier at a time (on 37 to 61 spaces with small costs, faster
    in Python than a heap).

    >>> way_costs(((1,), (0, 2), (1,)), [1, 2, 3], [0])
    [0, 1, 3]
    """
    dist = [1000] * len(adj)
    frontier = list(sources)
    for g in frontier:
        dist[g] = 0
    while frontier:
        later = []
        for v in frontier:
            step = dist[v] + cost[v]  # entering v from a neighbour
            for u in adj[v]:
                if step < dist[u]:
                    dist[u] = step
                    later.append(u)
        frontier = later
    return dist
