"""A review after the game: the moves where the position's value changed most, each with the
move the search would have played instead.

Pure: no I/O.  Every position of the game is searched briefly
(:func:`engines.ai.alphabeta.search` with the game's alpha-beta plan, or its knowledge's
evaluation where it has none; a fixed number of evaluations, so a review is the same every
time), and the move played is searched as deep: a move's *cost* is the mover's chance with
the best move found less its chance with the move played.

Light misses its win at d7 and Dark takes the square to win itself:

>>> moves = "d1 a7 d2 b7 d3 c7 d4 e7 d5 f7 d6 g7 g1 d7".split()
>>> [(m.ply, m.played, m.better, m.cost) for m in review("pathagon", moves, nodes=200, count=1)]
[(12, 'g1', 'd7', 1.0)]
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import engines
from engines.ai import alphabeta
from engines.ai.hooks import knowledge_of, plan_of
from engines.ai.tactics import winning_move
from engines.base import Position

__all__ = ["INNER_SAMPLE", "MIN_COST", "Moment", "review"]

#: A move costing less than this share of the mover's chance is not worth naming.
MIN_COST = 0.1


@dataclass(frozen=True)
class Moment:
    """One move of the review: ``ply`` (how many moves came before it), the ``mover`` seat,
    the move ``played``, the ``better`` one the search preferred, the mover's chance
    ``before`` the move (with the better one) and ``after`` it, and the ``position`` the
    move was played in."""

    ply: int
    mover: int
    played: str
    better: str
    before: float
    after: float
    position: Position

    @property
    def cost(self) -> float:
        """How much of the mover's chance the move gave away."""
        return self.before - self.after


#: Moves looked at below the root in a game with thousands of them (Iso-Path), a sample.
INNER_SAMPLE = 40


def _sampled(position: Position) -> list[str]:
    """A sample of ``position``'s moves fixed by its ply, with a win if there is one."""
    moves = position.legal_moves()
    if len(moves) <= INNER_SAMPLE:
        return moves
    picked = random.Random(position.ply).sample(moves, INNER_SAMPLE)
    win = winning_move(position)
    return picked if win is None or win in picked else [win, *picked]


def _plan(position: Position) -> alphabeta.Plan:
    """The game's alpha-beta plan, or one by its knowledge's evaluation (with a sample of
    the moves below the root where there are thousands)."""
    plan = plan_of(position.game)
    if plan is not None:
        return plan
    known = knowledge_of(position)
    return alphabeta.Plan(known.evaluate, _sampled if known.root_sample else None)


def _judge(position: Position, played: str, nodes: int) -> tuple[str, float, float]:
    """The best move of ``position`` by a search of ``nodes`` evaluations, its chance for the
    player to move, and the chance of ``played`` searched exactly as deep (so that the two
    compare: a deeper or shallower look would tilt the value by whose turn it is)."""
    plan = _plan(position)
    moves = position.legal_moves()
    limit = knowledge_of(position).root_sample
    if plan.root_candidates and plan.candidates is not None:
        # The plan's few real candidates (Iso-Path), the move played among them.
        moves = plan.candidates(position)
        moves += [played] if played not in moves else []
    elif limit is not None and len(moves) > limit:
        # Thousands of turns (Iso-Path): a sample fixed by the ply, the move played and a win.
        moves = random.Random(position.ply).sample(moves, limit)
        win = winning_move(position)
        moves += [m for m in (played, win) if m is not None and m not in moves]
    best = alphabeta.search(position, moves, plan, nodes=nodes)
    if best.move == played:
        return best.move, best.value, best.value
    child = position.play(played)
    if child.outcome is None and winning_move(child) is not None:
        return best.move, best.value, 0.0  # the opponent wins at once
    # At least two plies: the reply that punishes the move is seen even when a forced win
    # stopped the first search at one.
    deep = replace(plan, max_depth=max(best.depth, 2))
    alone = alphabeta.search(position, [played], deep, nodes=nodes * 4)
    return best.move, best.value, min(alone.value, best.value)


def review(
    game: str,
    moves: Sequence[str],
    *,
    options: Mapping[str, Any] | None = None,
    nodes: int = 400,
    count: int = 3,
) -> list[Moment]:
    """The ``count`` moves of ``game`` (played as ``moves`` with ``options``) that cost their
    mover most, in the order played, each costing at least :data:`MIN_COST`; ``nodes``
    evaluations per position (at least every move of it looked at once).  ``ValueError``
    (:class:`~engines.base.IllegalMove`) for a move that is not legal or an unknown game."""
    positions = list(engines.replay(game, moves, **dict(options or {})))
    found: list[Moment] = []
    for ply, move in enumerate(moves):
        before_pos, after_pos = positions[ply], positions[ply + 1]
        played = after_pos.last_move or move
        if len(before_pos.legal_moves()) < 2:
            continue
        better, before, after = _judge(before_pos, played, nodes)
        if better == played or before - after < MIN_COST:
            continue
        found.append(Moment(ply, before_pos.to_move, played, better, before, after, before_pos))
    found.sort(key=lambda m: -m.cost)
    return sorted(found[:count], key=lambda m: m.ply)
