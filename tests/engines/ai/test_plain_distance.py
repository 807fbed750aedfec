"""The plain distance (``kth`` 1, Pathagon) by a walk where the side's pieces cost nothing
gives the same figures as the neighbourhoods' walk it replaced (issue 49: Pathagon's
evaluation in less time)."""

from __future__ import annotations

import random

import engines
from engines.ai import distance, pathagon_player
from engines.pathagon import PathagonPosition


def _by_neighbourhoods(p: PathagonPosition, who: int) -> tuple[int, int, tuple[int, ...]]:
    near, touches, joined = distance._neighbourhoods(p.cells, who, p.board.neighbours, p.edges[who])
    n = len(p.cells)
    if joined:
        return 0, 1, tuple([distance.FAR] * n)
    a = distance._two_distance(p.cells, near, touches, 1, 1)
    b = distance._two_distance(p.cells, near, touches, 2, 1)
    through = [
        min(a[c] + b[c], distance.FAR) if v == distance.EMPTY else distance.FAR
        for c, v in enumerate(p.cells)
    ]
    empty = [through[c] for c, v in enumerate(p.cells) if v == distance.EMPTY]
    best = min(empty, default=distance.FAR)
    return best, empty.count(best), tuple(through)


def test_the_plain_distance_is_the_neighbourhoods_distance() -> None:
    rng = random.Random(7)
    for game in range(60):
        p = engines.new("pathagon")
        for _ in range(rng.randrange(0, 70)):
            if p.outcome is not None:
                break
            p = p.play(p.random_move(rng))
        assert isinstance(p, PathagonPosition)
        for who in (0, 1):
            found = distance.potential(p.cells, who, p.board.neighbours, p.edges[who], kth=1)
            assert (found.value, found.moves, found.through) == _by_neighbourhoods(p, who), game


def test_the_reach_and_traps_by_masks_are_the_potentials_and_traps() -> None:
    """:func:`distance.square_reaches` (a level of cells at a time, as bit masks) gives the
    value and moves of :func:`distance.potentials`, and the trap count by masks the number of
    :func:`pathagon_player.traps`, in every position of random games, from the first ply to
    the last, won ones included."""
    rng = random.Random(11)
    seen = traps = 0
    for game in range(80):
        p = engines.new("pathagon")
        while True:
            assert isinstance(p, PathagonPosition)
            walked = distance.potentials(p.cells, p.board.neighbours, p.edges, (0, 1), kth=1)
            masked = distance.square_reaches(distance.square_masks(p.cells), p.board.n, p.edges)
            assert masked == tuple((x.value, x.moves) for x in walked), (game, p.ply)
            masks = distance.square_masks(p.cells)
            for side in (0, 1):
                counted = pathagon_player._trap_count(masks, side, p.board.n)
                assert counted == len(pathagon_player.traps(p, side)), (game, p.ply, side)
                traps += counted
            seen += 1
            if p.outcome is not None or p.ply >= 120:
                break
            p = p.play(p.random_move(rng))
    assert seen > 2000 and traps > 500
