"""The computer player's knowledge of Hexagonal Iso-Path: evaluations only (material,
distance to the goal row, threats), cheap random turns, a sample of the root turns; and its
own alpha-beta search (:mod:`engines.ai.isopath_plan`).  Registered through the game's record
(``GAME.ai``, :mod:`engines.ai.hooks`)."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engines.ai import isopath_plan, isopath_search
from engines.ai.hooks import Player
from engines.ai.knowledge import EMPTY, Knowledge, squash
from engines.base import Position
from engines.isopath import IsopathPosition, piece_moves, tile_ends
from engines.levels import Level

__all__ = ["PLAYER", "IsopathKnowledge"]


class IsopathKnowledge(Knowledge):
    """Evaluation only (material, distance to the goal row, threats); cheap random turns;
    a sample of the root turns (a position has thousands, mostly alike).

    Measured on h4, AI against AI over 6 games: 6 random turns before the evaluation
    against none, both at 300 iterations, 3 of 6 (no better, twice the time per move);
    random playouts to the end (25 iterations, already more time than the cut-off search)
    against the cut-off at 300 iterations, 1 of 6.  Scoring a piece of the side not to move
    next to its goal and out of capture as winning for it, at 600 iterations: 12 of 20
    against the evaluation without it, not clearly better, so not kept.
    """

    playout_depth = 0
    wide = True
    exploration = 0.3
    self_losing = False  # a turn that leaves the opponent stuck wins for the mover
    root_sample = 400
    lazy_moves = True

    def __init__(self) -> None:
        self._distances: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def _goal_distance(self, position: IsopathPosition) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per seat, the steps from every space to that seat's goal (the other home row)."""
        found = self._distances.get(position.size)
        if found is None:
            adj = position.adjacent
            per_seat = []
            for seat in (0, 1):
                goal = position.home_rows[1 - seat]
                dist = [len(adj)] * len(adj)
                todo = deque(goal)
                for c in goal:
                    dist[c] = 0
                while todo:
                    c = todo.popleft()
                    for nb in adj[c]:
                        if dist[nb] > dist[c] + 1:
                            dist[nb] = dist[c] + 1
                            todo.append(nb)
                per_seat.append(tuple(dist))
            found = (per_seat[0], per_seat[1])
            self._distances[position.size] = found
        return found

    def evaluate(self, position: Position) -> float:
        assert isinstance(position, IsopathPosition)
        dist = self._goal_distance(position)
        pieces = position.pieces
        score = [0.0, 0.0]
        for seat in (0, 1):
            mine = [c for c, p in enumerate(pieces) if p == seat]
            if not mine:
                score[seat] -= 20.0
                continue
            ds = sorted(dist[seat][c] for c in mine)
            score[seat] += 2.5 * len(mine) - 0.9 * ds[0] - 0.25 * sum(ds)
        mover = position.to_move
        # The mover may capture what it threatens, and wins with a piece next to the goal.
        score[mover] += 1.5 * len(position.threatened)
        if self.may_win_now(position):
            score[mover] += 6.0
        return squash(0.8 * (score[0] - score[1]))

    def random_move(self, position: Position, rng: random.Random) -> str:
        assert isinstance(position, IsopathPosition)
        mover = position.to_move
        heights, pieces = position.heights, position.pieces
        names = position.board.names
        goal = position.home_rows[1 - mover]
        steps = piece_moves(position.adjacent, heights, pieces, mover)
        sources, targets = tile_ends(heights, pieces, position.home_rows[mover])
        captures = sorted(position.threatened)
        for _ in range(20):
            kind = rng.randrange(3)
            if kind == 0 and captures:
                cell = rng.choice(captures)
                first = "x" + names[cell]
                if sum(1 for p in pieces if p == 1 - mover) == 1:
                    return first
            elif kind == 1 and steps:
                f, t = rng.choice(steps)
                first = names[f] + "-" + names[t]
                if t in goal:
                    return first
            elif kind == 2 and sources and targets:
                s, d = rng.choice(sources), rng.choice(targets)
                if s == d:
                    continue
                first = names[s] + ">" + names[d]
            else:
                continue
            seconds = position.second_actions(first)
            if seconds:
                return first + " " + rng.choice(seconds)
        return position.random_move(rng)

    def win_candidates(self, position: Position) -> Iterable[str]:
        assert isinstance(position, IsopathPosition)
        goal = {position.board.names[c] for c in position.home_rows[1 - position.to_move]}
        out = []
        for move in position.legal_moves():
            last = move.rsplit(" ", 1)[-1]
            if last.startswith("x") or last.rsplit("-", 1)[-1] in goal:
                out.append(move)
        return out

    def may_win_now(self, position: Position) -> bool:
        assert isinstance(position, IsopathPosition)
        mover = position.to_move
        pieces, heights = position.pieces, position.heights
        if position.threatened and sum(1 for p in pieces if p == 1 - mover) == 1:
            return True
        stand = (1, -1)[mover]
        adj = position.adjacent
        for c in position.home_rows[1 - mover]:
            # A tile move then a step wins too, so a goal space one tile off is enough.
            if (
                pieces[c] == EMPTY
                and abs(heights[c] - stand) <= 1
                and any(pieces[nb] == mover for nb in adj[c])
            ):
                return True
        return False

    def quiet(self, position: Position) -> bool:
        assert isinstance(position, IsopathPosition)
        mover = position.to_move
        pieces = position.pieces
        if sum(1 for p in pieces if p == mover) < 2:
            return False
        adj = position.adjacent
        # The opponent's pieces stay put during this turn: only one already next to the
        # mover's home row can step into it next turn.
        return not any(pieces[nb] == 1 - mover for c in position.home_rows[mover] for nb in adj[c])


def isopath_progress(position: Position) -> tuple[int, int, int, int]:
    """Iso-Path's progress mark: each side's pieces and the rows they have still to go
    (White's to the last row, Black's to row ``a``), so a capture or a step to a new row count
    makes progress, and tile moves and a piece stepping back and forth do not."""
    assert isinstance(position, IsopathPosition)
    last = 2 * (position.size - 1)
    rows = [ord(name[0]) - ord("a") for name in position.board.names]
    count, to_go = [0, 0], [0, 0]
    for cell, side in enumerate(position.pieces):
        if side in (0, 1):
            count[side] += 1
            to_go[side] += last - rows[cell] if side == 0 else rows[cell]
    return count[0], count[1], to_go[0], to_go[1]


#: The search's scores are in points (a path of cost one is 1 000, a sure win 50 000): the
#: draw assessment's chance is ``squash(score / ASSESS_SCALE)``, so 0.40..0.60 is about ±400.
ASSESS_SCALE = 1000.0


def isopath_assess(position: Position, history: Sequence[Position], nodes: int) -> float:
    """Seat 0's chance by the game's own search of ``nodes`` evaluations (at most four plies,
    with the game's earlier positions: a way back to one of them is a draw)."""
    found = isopath_search.search(position, nodes=nodes, history=history, max_depth=4)
    mover = squash(max(-50.0, min(50.0, found.score / ASSESS_SCALE)))
    return mover if position.to_move == 0 else 1.0 - mover


#: How many times its budget ``hard`` searches in Iso-Path, on h4 and h5 alike: twice the
#: evaluations keep its longest move under 10 s on both boards, and against the Padfoot-like
#: players twice the budget scored 77.5 % on h4 (depth 3) where once scored 67.5 %, and
#: 92.5 % on h5 (depth 2) where once scored 67 % in 15; against ``normal`` on h5 it scored
#: 70 % where once scored 77.5 %, better in 6 games and worse in 6 (README, "Iso-Path h5's
#: ``hard`` searches twice its budget too").
HARD_TIMES = 2


def isopath_budget_times(level: Level, options: Mapping[str, Any]) -> int:
    """How many times its budget ``level`` searches on any board: ``hard``
    :data:`HARD_TIMES` times, every other level once."""
    return HARD_TIMES if level is Level.HARD else 1


#: The computer player of Hexagonal Iso-Path.
PLAYER = Player(
    IsopathKnowledge(),
    isopath_plan.HARD,
    isopath_progress,
    assess=isopath_assess,
    budget_times=isopath_budget_times,
)
