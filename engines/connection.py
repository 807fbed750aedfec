"""Connection checks shared by the connection games (Maphex, inpHeXion, Pathagon) and the
group count of Lines of Fixation.

Boards are given as a tuple ``owner`` (one value per cell, e.g. -1 empty, 0 or 1 a side) and
a neighbour table from :mod:`engines.geometry`.

>>> from engines.geometry import Rhombus
>>> b = Rhombus(3)
>>> owner = (-1, 0, -1,
...          -1, 0, -1,
...           0, -1, -1)
>>> connects(owner, 0, b.neighbours, b.top, b.bottom)
True
>>> connects(owner, 0, b.neighbours, b.left, b.right)
False
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Sequence

__all__ = ["chain", "chain_connects", "connects", "is_one_group", "shortest_link"]

Neighbours = Sequence[Sequence[int]]


def chain(start: int, owner: Sequence[int], neighbours: Neighbours) -> set[int]:
    """Every cell joined to ``start`` through cells of the same owner (``start`` included)."""
    who = owner[start]
    seen = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        for nb in neighbours[cell]:
            if nb not in seen and owner[nb] == who:
                seen.add(nb)
                todo.append(nb)
    return seen


def chain_connects(
    start: int,
    owner: Sequence[int],
    neighbours: Neighbours,
    edge_a: Collection[int],
    edge_b: Collection[int],
) -> bool:
    """Whether the chain through ``start`` touches both ``edge_a`` and ``edge_b``.

    Stops as soon as both are reached; used after a placement, when only the placed
    stone's chain can have changed.
    """
    who = owner[start]
    seen = {start}
    todo = [start]
    a = start in edge_a
    b = start in edge_b
    while todo:
        if a and b:
            return True
        cell = todo.pop()
        for nb in neighbours[cell]:
            if nb not in seen and owner[nb] == who:
                seen.add(nb)
                todo.append(nb)
                a = a or nb in edge_a
                b = b or nb in edge_b
    return a and b


def connects(
    owner: Sequence[int],
    who: int,
    neighbours: Neighbours,
    edge_a: Iterable[int],
    edge_b: Collection[int],
) -> bool:
    """Whether any chain of ``who``'s cells joins ``edge_a`` to ``edge_b``."""
    todo = [c for c in edge_a if owner[c] == who]
    seen = set(todo)
    while todo:
        cell = todo.pop()
        if cell in edge_b:
            return True
        for nb in neighbours[cell]:
            if nb not in seen and owner[nb] == who:
                seen.add(nb)
                todo.append(nb)
    return False


def shortest_link(
    owner: Sequence[int],
    who: int,
    neighbours: Neighbours,
    edge_a: Iterable[int],
    edge_b: Collection[int],
) -> tuple[int, ...]:
    """The fewest of ``who``'s cells that join ``edge_a`` to ``edge_b`` through neighbours,
    from ``edge_a`` on (the first such path in cell order when several are as short); ``()``
    when they are not joined.  What a finished connection game shows as its winning chain.

    >>> from engines.geometry import Rhombus
    >>> b = Rhombus(3)
    >>> shortest_link((0, 0, -1,  0, 0, -1,  0, -1, -1), 0, b.neighbours, b.top, b.bottom)
    (0, 3, 6)
    """
    starts = sorted(c for c in edge_a if owner[c] == who)
    came: dict[int, int | None] = dict.fromkeys(starts)
    todo = deque(starts)
    while todo:
        cell = todo.popleft()
        if cell in edge_b:
            path = []
            step: int | None = cell
            while step is not None:
                path.append(step)
                step = came[step]
            return tuple(reversed(path))
        for nb in sorted(neighbours[cell]):
            if nb not in came and owner[nb] == who:
                came[nb] = cell
                todo.append(nb)
    return ()


def is_one_group(members: Collection[int], neighbours: Neighbours) -> bool:
    """Whether ``members`` (at least one cell) form a single connected group."""
    if not members:
        return False
    start = next(iter(members))
    seen = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        for nb in neighbours[cell]:
            if nb not in seen and nb in members:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(members)


def edge_touches(
    owner: Sequence[int],
    who: int,
    neighbours: Neighbours,
    edge_a: Collection[int],
    edge_b: Collection[int],
) -> list[int]:
    """For every cell of ``who``: which edges its chain touches (bit 1 ``edge_a``, bit 2
    ``edge_b``); 0 for other cells.  One pass over the board, so that many "would a disc
    here connect?" questions cost a lookup each: a new disc connects when the bits of the
    chains it joins (and its own edges) add up to 3.

    >>> from engines.geometry import Rhombus
    >>> b = Rhombus(3)
    >>> edge_touches((-1, 0, -1,  -1, -1, -1,  0, -1, -1), 0, b.neighbours, b.top, b.bottom)
    [0, 1, 0, 0, 0, 0, 2, 0, 0]
    >>> edge_touches((-1, 0, -1,  -1, 0, -1,  0, -1, -1), 0, b.neighbours, b.top, b.bottom)
    [0, 3, 0, 0, 3, 0, 3, 0, 0]
    """
    out = [0] * len(owner)
    seen = [False] * len(owner)
    for start, v in enumerate(owner):
        if v != who or seen[start]:
            continue
        seen[start] = True
        group = [start]
        todo = [start]
        bits = 0
        while todo:
            c = todo.pop()
            if c in edge_a:
                bits |= 1
            if c in edge_b:
                bits |= 2
            for nb in neighbours[c]:
                if not seen[nb] and owner[nb] == who:
                    seen[nb] = True
                    group.append(nb)
                    todo.append(nb)
        for c in group:
            out[c] = bits
    return out
