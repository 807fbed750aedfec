"""The plain distance (``kth`` 1, Pathagon) by a walk where the side's pieces cost nothing
gives the same figures as the neighbourhoods' walk it replaced (issue 49: Pathagon's
evaluation in less time)."""

from __future__ import annotations

import random

import engines
from engines.ai import distance, pathagon_player
from engines.ai.bitboard import masks
from engines.geometry import Square
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


def _traps_by_steps(p: PathagonPosition, side: int) -> set[int]:
    """The squares where ``side`` would trap an opponent piece, by the rules' words (point 5):
    an empty square next to an opponent piece with one of ``side``'s on its other side, in a
    line, found by stepping from each opponent piece."""
    board, cells = p.board, p.cells
    found = set()
    for piece, v in enumerate(cells):
        if v != 1 - side:
            continue
        for d, (dc, dr) in enumerate(Square.DIRECTIONS):
            back = Square.DIRECTIONS.index((-dc, -dr))
            near, beyond = board.step(piece, d), board.step(piece, back)
            if (
                near is not None
                and beyond is not None
                and cells[near] == distance.EMPTY
                and cells[beyond] == side
            ):
                found.add(near)
    return found


def test_the_reach_and_traps_by_masks_are_the_potentials_and_traps() -> None:
    """:func:`distance.plain_reaches` (a level of cells at a time, as bit masks) gives the
    value and moves of :func:`distance.potentials`, and :func:`pathagon_player.traps` (by
    shifts of the masks) the squares found by stepping from each opponent piece, in every
    position of random games, from the first ply to the last, won ones included."""
    rng = random.Random(11)
    seen = traps = 0
    for game in range(80):
        p = engines.new("pathagon")
        while True:
            assert isinstance(p, PathagonPosition)
            squares = masks(p.cells)
            walked = distance.potentials(p.cells, p.board.neighbours, p.edges, (0, 1), kth=1)
            masked = distance.plain_reaches(squares, p.board.neighbours, p.edges)
            assert masked == tuple((x.value, x.moves) for x in walked), (game, p.ply)
            for side in (0, 1):
                found = pathagon_player.traps(p, side)
                assert found == _traps_by_steps(p, side), (game, p.ply, side)
                counted = pathagon_player.trap_mask(squares, side, p.board.neighbours)
                assert counted.bit_count() == len(found)
                traps += len(found)
            seen += 1
            if p.outcome is not None or p.ply >= 120:
                break
            p = p.play(p.random_move(rng))
    assert seen > 2000 and traps > 500
