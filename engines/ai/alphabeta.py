"""Iterative-deepening alpha-beta (negamax) over the :class:`~engines.base.Position` interface.

A :class:`Plan` gives the search its game: ``evaluate`` (seat 0's chance of winning, as in
:mod:`engines.ai.knowledge`), and ``candidates`` (the moves worth a look below the root, best
first by a cheap guess, at most ``width`` of them; ``None`` looks at every legal move).  Below
the root the moves are tried in the order: the best move of the transposition table, then by
the evaluation of the position they lead to (one look each, at nodes two or more plies from the
horizon).  The search stops after ``nodes`` evaluations or at ``deadline``, whichever comes
first, and answers with the best move of the deepest iteration it finished (a move the
unfinished iteration found better is taken too: it was searched first, so fully).  The first
two plies are always searched far enough to find a root move after which the opponent has no
win at once, when there is one.

>>> import engines
>>> from engines.ai.hooks import knowledge_of
>>> p = engines.position_after("pathagon", "d1 a1 d2 a2 d3 a3 d4 a4 d5 a5 d6 b6".split())
>>> plan = Plan(knowledge_of(p).evaluate)
>>> found = search(p, p.legal_moves(), plan, nodes=2000)
>>> found.move, found.value > 0.9
('d7', True)
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain

from engines.base import Position

__all__ = ["TABLE_LIMIT", "WIN", "Bound", "Found", "Plan", "search"]

#: The score of a won game (from the winner's side), less one per ply until it is won.
WIN = 1000.0

#: Transposition table entries a search keeps: a full table is cleared before the next entry
#: goes in (each entry holds a position's content, so a search on time alone, with no
#: evaluation budget, would otherwise grow it for as long as it runs).  Above the
#: evaluations of the largest level's budget (each entry is a node that evaluated at least
#: once), so a budgeted search never reaches it.  Iso-Path's own search
#: (:mod:`engines.ai.isopath_search`) keeps the same.
TABLE_LIMIT = 100_000


@dataclass(frozen=True)
class Plan:
    """What the search needs of a game: ``evaluate`` (seat 0's chance in ``[0, 1]`` for a game
    still going), optional ``candidates`` (moves below the root, best guess first) and
    ``width`` (at most this many of them; ``None``: all), ``max_depth``,
    ``root_candidates`` and ``own_search``."""

    evaluate: Callable[[Position], float]
    candidates: Callable[[Position], list[str]] | None = None
    width: int | None = None
    max_depth: int = 12
    #: whether the root moves are the candidates too (games with thousands of moves, where
    #: the one-move look-ahead over every move costs more than the search)
    root_candidates: bool = False
    #: a game's own search replacing :func:`search` at the root: ``(position, nodes,
    #: deadline, history)`` to the chosen move and the evaluations it made (Iso-Path, whose
    #: positions can come round again: ``history`` is the game's earlier positions)
    own_search: (
        Callable[[Position, int | None, float | None, Sequence[Position]], tuple[str, int]] | None
    ) = None


class Bound(enum.IntEnum):
    """What a score kept in a transposition table is: the node's exact value, or only a
    lower bound (the search failed high) or an upper bound (it failed low)."""

    EXACT = 0
    LOWER = 1
    UPPER = 2

    @classmethod
    def of(cls, best: float, alpha: float, beta: float) -> Bound:
        """The kind of ``best``, searched in the window ``(alpha, beta)``.

        >>> Bound.of(0.9, 0.2, 0.8), Bound.of(0.1, 0.2, 0.8), Bound.of(0.5, 0.2, 0.8)
        (<Bound.LOWER: 1>, <Bound.UPPER: 2>, <Bound.EXACT: 0>)
        """
        return cls.LOWER if best >= beta else cls.UPPER if best <= alpha else cls.EXACT

    def settles(self, score: float, alpha: float, beta: float) -> bool:
        """Whether a kept ``score`` of this kind answers a search in ``(alpha, beta)``
        (the kept search being deep enough) without searching again."""
        return (
            self is Bound.EXACT
            or (self is Bound.LOWER and score >= beta)
            or (self is Bound.UPPER and score <= alpha)
        )


@dataclass(frozen=True)
class Found:
    """The search's answer: ``move``, its ``value`` for the player to move (in ``[0, 1]``,
    1 a forced win), the ``depth`` of the deepest finished iteration and the ``nodes``
    evaluated."""

    move: str
    value: float
    depth: int
    nodes: int


class _Stop(Exception):
    """The node budget or the deadline ran out inside an iteration."""


class _Search:
    """One search's state: budget, counts and the transposition table."""

    def __init__(self, plan: Plan, nodes: int | None, deadline: float | None) -> None:
        self.plan = plan
        self.budget = nodes
        self.deadline = deadline
        self.nodes = 0
        #: while set, the budget is not checked (the second ply of the root moves until one
        #: of them is found not to lose at once, so the answer is never a move whose reply
        #: was not looked at while one was checked safe)
        self.free = False
        # position's content -> (depth, score, Bound, best move), at most TABLE_LIMIT of them
        # (the content, not the position: a position keeps its listed moves)
        self.table: dict[Hashable, tuple[int, float, Bound, str | None]] = {}

    def static(self, pos: Position) -> float:
        """``pos``'s value for its player to move, in ``[-1, 1]`` (a finished game: ±WIN)."""
        self.nodes += 1
        if self.free:
            pass  # the budget waits: see ``free``
        elif (self.budget is not None and self.nodes > self.budget) or (
            self.deadline is not None
            and self.nodes % 16 == 0
            and time.perf_counter() > self.deadline
        ):
            raise _Stop
        out = pos.outcome
        if out is not None:
            if out.winner is None:
                return 0.0
            return WIN - pos.ply if out.winner == pos.to_move else -(WIN - pos.ply)
        v = self.plan.evaluate(pos)
        return 2 * v - 1 if pos.to_move == 0 else 1 - 2 * v

    def moves(self, pos: Position) -> list[str]:
        """The moves searched at a node below the root."""
        pick = self.plan.candidates
        moves = pick(pos) if pick is not None else pos.legal_moves()
        if not moves:
            moves = pos.legal_moves()
        width = self.plan.width
        return moves if width is None else moves[:width]

    def negamax(self, pos: Position, depth: int, alpha: float, beta: float) -> float:
        """``pos``'s value for its player to move, searched ``depth`` plies."""
        if pos.outcome is not None or depth == 0:
            return self.static(pos)
        key = pos.content()
        entry = self.table.get(key)
        first: str | None = None
        if entry is not None:
            d, score, bound, first = entry
            if d >= depth and bound.settles(score, alpha, beta):
                return score
        moves = self.moves(pos)
        children: Iterable[tuple[str, Position]]
        if depth >= 2:
            # Best first by a one-look evaluation (the child's value for us is minus its own);
            # each child is played just before its look, so the budget is checked between.
            keyed = []
            for i, m in enumerate(moves):
                child = pos.play(m)
                keyed.append((-self.static(child), i, m, child))
            keyed.sort(key=lambda t: (-t[0], t[1]))
            children = [(m, child) for _, _, m, child in keyed]
        else:
            children = ((m, pos.play(m)) for m in moves)  # played one by one
        if first is not None and first in moves:
            children = chain(
                [(first, pos.play(first))], ((m, c) for m, c in children if m != first)
            )
        start_alpha = alpha
        best = -2 * WIN
        best_move: str | None = None
        for m, child in children:
            score = -self.negamax(child, depth - 1, -beta, -alpha)
            if score > best:
                best, best_move = score, m
            if score > alpha:
                alpha = score
            if alpha >= beta:
                break
        if len(self.table) >= TABLE_LIMIT and key not in self.table:
            self.table.clear()
        self.table[key] = (depth, best, Bound.of(best, start_alpha, beta), best_move)
        return best


def _chance(score: float) -> float:
    """A score for the player to move turned back into its chance in ``[0, 1]``."""
    if score >= WIN / 2:
        return 1.0
    if score <= -WIN / 2:
        return 0.0
    return (score + 1) / 2


def search(
    position: Position,
    moves: Sequence[str],
    plan: Plan,
    *,
    nodes: int | None = None,
    deadline: float | None = None,
    children: dict[str, Position] | None = None,
) -> Found:
    """The best of ``moves`` (legal in ``position``, at least one) by iterative-deepening
    alpha-beta, within ``nodes`` evaluations and/or until ``deadline`` (a
    ``time.perf_counter`` value; at least one of the two).  ``children`` may hold positions
    already computed after some of the moves."""
    if nodes is None and deadline is None:
        raise ValueError("give a search budget: nodes, deadline or both")
    known = children or {}
    state = _Search(plan, nodes, deadline)
    played = [(m, known.get(m) or position.play(m)) for m in moves]
    # Depth 1, always finished whatever the budget: every root move looked at once.
    state.budget = None
    state.deadline = None
    scored = sorted(
        ((-state.static(child), i, m, child) for i, (m, child) in enumerate(played)),
        key=lambda t: (-t[0], t[1]),
    )
    state.budget, state.deadline = nodes, deadline
    order = [(m, child) for _, _, m, child in scored]
    best_move, best_score, depth_done = scored[0][2], scored[0][0], 1
    for depth in range(2, plan.max_depth + 1):
        if best_score >= WIN / 2:
            break  # a forced win is known: no need to look further
        alpha = -2 * WIN
        results: list[tuple[float, str, Position]] = []
        state.free = depth == 2
        try:
            for m, child in order:
                score = -state.negamax(child, depth - 1, -2 * WIN, -alpha)
                results.append((score, m, child))
                if score > -WIN / 2:
                    state.free = False
                if score > alpha:
                    alpha = score
        except _Stop:
            if results:
                # The previous best was searched first, so fully: a move that beat it counts.
                top = max(results, key=lambda t: t[0])
                best_score, best_move = top[0], top[1]
            break
        results.sort(key=lambda t: -t[0])
        best_score, best_move = results[0][0], results[0][1]
        depth_done = depth
        # The others' scores are upper bounds only; their order still guides the next one.
        order = [(best_move, results[0][2])] + [(m, c) for _, m, c in results[1:]]
        if all(s <= -WIN / 2 for s, _, _ in results):
            break  # every move loses by force: keep the one that loses last
    return Found(best_move, _chance(best_score), depth_done, state.nodes)
