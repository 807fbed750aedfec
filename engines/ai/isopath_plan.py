"""Iso-Path for the alpha-beta search: a few real candidate turns instead of thousands, and
evaluations by the cost of each side's best way to the goal row.

Candidate turns (after the Padfoot player of the jes/isopath project: few tile moves, every
piece move): the tile moves are chosen apart from the piece moves, the ``k`` best places to
take a tile from and to put one on by the evaluation after that one change; each piece step
is combined with them, a step onto a middle-height space with the tile move that makes it
standable, and captures with the steps and the tile moves.  Winning turns come first.

Path cost: from every space, the cheapest way to the goal row, entering a space costing 1 at
the mover's height, 2 at the middle, 3 at the other side's height, more when it holds a piece
or is threatened.  :func:`reference_evaluate` scores the best and all pieces' paths, material
and a capture in hand (the Padfoot-like reference of the benchmark); :func:`evaluate` adds that
a side's own home row raised or dug to the opponent's height is a permanent way in (a side may
never build on its own home row), and the tempo: it judges positions for the review after
the game, while the levels' search itself is :mod:`engines.ai.isopath_search` (the hard plan's
``own_search``: the same shape, on bare lists, several times deeper in the same time).

>>> import engines
>>> p = engines.new("isopath")
>>> turns = candidates(p)
>>> 0 < len(turns) < len(p.legal_moves()) and set(turns) <= set(p.legal_moves())
True
>>> 0.4 < evaluate(p) < 0.6
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from engines.ai import isopath_race, isopath_search
from engines.ai.alphabeta import Plan
from engines.base import Position
from engines.isopath import STAND, IsopathPosition

__all__ = [
    "HARD",
    "REFERENCE",
    "candidates",
    "evaluate",
    "path_costs",
    "reference_candidates",
    "reference_evaluate",
]

NONE = -1
#: Tile moves of each kind (take, put) combined with the piece moves.
TILE_CHOICES = 3

Board = tuple[Sequence[int], Sequence[int]]  # heights, pieces


def path_costs(
    position: IsopathPosition, heights: Sequence[int], pieces: Sequence[int], side: int
) -> list[int]:
    """For every space, the cost of ``side``'s cheapest way from it to its goal row."""
    adj = position.adjacent
    stand = STAND[side]
    enemy = 1 - side
    goal = position.home_rows[enemy]
    # Next to two enemy pieces a space is threatened: count the enemy pieces around each.
    near = [0] * len(heights)
    for c, p in enumerate(pieces):
        if p == enemy:
            for nb in adj[c]:
                near[nb] += 1
    cost = [1 if h == stand else 2 if h == 0 else 3 for h in heights]
    for c, p in enumerate(pieces):
        if p != NONE:
            cost[c] += 4
        elif near[c] >= 2 and c not in goal:
            cost[c] += 3
    return isopath_race.way_costs(adj, cost, goal)


def _side_paths(
    position: IsopathPosition, heights: Sequence[int], pieces: Sequence[int], side: int
) -> tuple[float, float, int]:
    """``side``'s best path score, the sum of all its pieces' and its piece count."""
    dist = path_costs(position, heights, pieces, side)
    scores = [10.0 / max(1, dist[c]) for c, p in enumerate(pieces) if p == side]
    if not scores:
        return 0.0, 0.0, 0
    return max(scores), sum(scores), len(scores)


def _threats(position: IsopathPosition, pieces: Sequence[int], side: int) -> int:
    """How many of the other side's pieces ``side`` threatens (two of its pieces next to)."""
    adj = position.adjacent
    return sum(
        1
        for c, p in enumerate(pieces)
        if p == 1 - side and sum(1 for nb in adj[c] if pieces[nb] == side) >= 2
    )


def _reference_score(position: IsopathPosition, board: Board, mover: int) -> float:
    """The reference's score for ``mover`` (to move) on ``board``."""
    heights, pieces = board
    mine = _side_paths(position, heights, pieces, mover)
    theirs = _side_paths(position, heights, pieces, 1 - mover)
    score = (mine[0] + 0.3 * mine[1] + 2.0 * mine[2]) - (
        theirs[0] + 0.3 * theirs[1] + 2.0 * theirs[2]
    )
    if _threats(position, pieces, mover):
        score += 2.0
    return score


def _score(position: IsopathPosition, board: Board, mover: int) -> float:
    """The hard level's score for ``mover`` (to move) on ``board``."""
    heights = board[0]
    score = _reference_score(position, board, mover)
    for side, sign in ((mover, 1.0), (1 - mover, -1.0)):
        enemy_stand = STAND[1 - side]
        # A home-row space at the opponent's height is a way in for good (no side may build
        # on its own home row); at the middle height it is one tile from being one.
        for c in position.home_rows[side]:
            if heights[c] == enemy_stand:
                score -= sign * 2.5
            elif heights[c] == 0:
                score -= sign * 0.8
    return score + 0.5


def _chance(
    position: IsopathPosition, score: Callable[[IsopathPosition, Board, int], float]
) -> float:
    mover = position.to_move
    v = 1.0 / (1.0 + math.exp(-0.5 * score(position, (position.heights, position.pieces), mover)))
    return v if mover == 0 else 1.0 - v


def evaluate(position: Position) -> float:
    """Seat 0's chance in an Iso-Path position (the hard level's evaluation)."""
    assert isinstance(position, IsopathPosition)
    return _chance(position, _score)


def reference_evaluate(position: Position) -> float:
    """Seat 0's chance by the Padfoot-like reference's evaluation (paths, material, a
    threat), without the home-row and tempo terms."""
    assert isinstance(position, IsopathPosition)
    return _chance(position, _reference_score)


def _best_tiles(
    position: IsopathPosition, score: Callable[[IsopathPosition, Board, int], float], k: int
) -> tuple[list[int], list[int]]:
    """The ``k`` best spaces to take a tile from and to put one on, for the mover, each
    judged by the score after that one change."""
    heights, pieces = position.heights, position.pieces
    mover = position.to_move
    own_home = position.home_rows[mover]
    takes: list[tuple[float, int]] = []
    puts: list[tuple[float, int]] = []
    changed = list(heights)
    adj = position.adjacent
    for c, h in enumerate(heights):
        if pieces[c] != NONE or c in own_home or all(pieces[nb] == NONE for nb in adj[c]):
            continue  # only the spaces next to a piece matter now
        for delta, out in ((-1, takes), (1, puts)):
            if -1 <= h + delta <= 1:
                changed[c] = h + delta
                out.append((-score(position, (changed, pieces), mover), c))
                changed[c] = h
    takes.sort()
    puts.sort()
    return [c for _, c in takes[:k]], [c for _, c in puts[:k]]


def _candidates(
    position: Position, score: Callable[[IsopathPosition, Board, int], float], k: int
) -> list[str]:
    assert isinstance(position, IsopathPosition)
    # Not ``legal_moves()``, which keeps the list on the position: the Padfoot-like reference at
    # depth 3 peaked at 353 MB so, 220 MB of it these lists held by its search's table.
    legal = position.listed_turns()
    allowed = set(legal)  # the texts built below are kept when legal
    names = position.board.names
    mover = position.to_move
    stand = STAND[mover]
    heights, pieces = position.heights, position.pieces
    adj = position.adjacent
    goal = position.home_rows[1 - mover]
    out: list[str] = []
    seen: set[str] = set()

    def add(*texts: str) -> None:
        for text in texts:
            if text in allowed and text not in seen:
                seen.add(text)
                out.append(text)
                return

    # Winning turns first: the capture of the last piece, a step into the goal row.
    if sum(1 for p in pieces if p == 1 - mover) == 1:
        add(*("x" + names[c] for c in position.threatened))
    for f, p in enumerate(pieces):
        if p == mover:
            add(*(f"{names[f]}-{names[t]}" for t in adj[f] if t in goal))
    takes, puts = _best_tiles(position, score, k)
    tiles = [(s, d) for s in takes for d in puts if s != d]
    steps: list[tuple[int, int]] = []
    for f, p in enumerate(pieces):
        if p != mover:
            continue
        for t in adj[f]:
            if pieces[t] != NONE:
                continue
            step = f"{names[f]}-{names[t]}"
            if heights[t] == stand:
                steps.append((f, t))
                if t in goal:
                    add(step)
                for s, d in tiles:
                    if t not in (s, d):
                        tile = f"{names[s]}>{names[d]}"
                        add(f"{step} {tile}", f"{tile} {step}")
            elif heights[t] == 0:
                # One tile makes it standable: put one there (White), take one off (Black).
                ends = [(s, t) for s in takes] if stand == 1 else [(t, d) for d in puts]
                for s, d in ends:
                    if s != d:
                        add(f"{names[s]}>{names[d]} {step}")
    for c in sorted(position.threatened):
        capture = "x" + names[c]
        for f, t in steps:
            add(f"{capture} {names[f]}-{names[t]}")
        for s, d in tiles:
            add(f"{capture} {names[s]}>{names[d]}")
    if not out:
        out = legal[: TILE_CHOICES * 10]
    return out


def candidates(position: Position) -> list[str]:
    """The hard level's candidate turns of an Iso-Path position (legal, wins first)."""
    return _candidates(position, _score, TILE_CHOICES)


def reference_candidates(position: Position) -> list[str]:
    """The Padfoot-like reference's candidate turns (its own evaluation picks the tiles)."""
    return _candidates(position, _reference_score, TILE_CHOICES)


#: The hard level's plan: its evaluation, its candidates; searched by
#: :func:`engines.ai.isopath_search.choose`, as deep as time allows.
HARD = Plan(evaluate, candidates, root_candidates=True, own_search=isopath_search.choose)
#: The benchmark's Padfoot-like reference: depth-2 negamax over its candidate turns.
REFERENCE = Plan(reference_evaluate, reference_candidates, max_depth=2, root_candidates=True)
