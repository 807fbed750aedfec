"""Races to the goal row in Iso-Path: the ways of one or two steps into it, and the races
that the other side cannot stop, counted exactly for the search's evaluation
(:func:`engines.ai.isopath_search._score`, issue 49).

The goal row is the other side's home row, where that side may never move a tile: a piece
next to it needs only the tiles of its goal space, which no tile of the other side undoes.
A race is *sure* (:func:`race`) when at every turn of the other side the runner stands next
to the goal row (or has two first spaces, of which one tile spoils one), no piece of the
other side can step onto the goal space while it is at that side's height, no two of its
pieces can stand next to the runner in time (one step a turn, whatever the heights), the
other side cannot win first, and a runner waiting for its tiles has another piece to step
(both actions of a turn are compulsory).  A sure race of ``t`` turns is worth nearly a win
(:data:`engines.ai.isopath_search.SURE` less :data:`RACE_TURN` a turn): the search sees such a
race two to four plies before its end, a lost one while it can still be met elsewhere.

>>> import engines
>>> from engines.ai.isopath_search import _layout
>>> p = engines.isopath.setup(white=["f2", "a2"], black=["c1", "c6"])
>>> lay, h, pieces = _layout(p), list(p.heights), list(p.pieces)
>>> race(lay, pieces, 0, ways(lay, h, pieces, 0), True, fastest(lay, pieces, 1, []))
2
"""

from __future__ import annotations

from typing import Protocol

from engines.isopath import STAND

__all__ = ["RACE_TURN", "RACE_TURNS", "Layout", "Way", "caught", "fastest", "race", "ways"]

NONE = -1
#: The longest race :func:`race` counts, in turns of the racing side.
RACE_TURNS = 4
#: Fewer turns than any race.
RACE_NEVER = 99
#: What each turn of a sure race takes off :data:`SURE` (a shorter race is worth more).
RACE_TURN = 1_000.0

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


def race(lay: Layout, p: list[int], side: int, ways: list[Way], first: bool, other: int) -> int:
    """The turns of ``side``'s surest race to its goal row by one of its ``ways``
    (:func:`ways`), 0 when it has none that the
    other side cannot stop: by a tile (only on a space off the goal row, which is the other
    side's home row: every turn of the other side finds the runner next to the goal row, or
    has two first spaces to spoil), by stepping onto the goal space while it is at its
    height, by a capture (two of its pieces next to the runner, one step a turn) or by
    winning first (``other``: its fewest turns, :func:`_fastest`).  ``first``: ``side`` is
    to move."""
    enemy = 1 - side
    theirs = [c for c in range(lay.n) if p[c] == enemy]
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
        if any(u >= 1 and caught(far[c], theirs, u) for c, u in stands):
            continue
        if two and not first:
            spoilable[v] = min(spoilable.get(v, turns), turns)
        else:
            best = min(best, turns)
    if len(spoilable) >= 2:
        best = min(best, sorted(spoilable.values())[1])  # the other side spoils the best
    return 0 if best == RACE_NEVER else best
