"""The computer player: Monte Carlo tree search over any game's :class:`~engines.base.Position`.

Pure: no I/O, no asyncio.  :func:`choose_move` returns a move that ``position.play()``
accepts, searching for a number of ``iterations`` and/or ``seconds``; the same seed and
iteration count give the same move.  The levels are budgets, in :data:`BUDGETS`:

>>> import engines
>>> from engines.ai import Level, budget_of, choose_move
>>> p = engines.position_after("maphex", ["5", "e5"])
>>> move = choose_move(p, iterations=50, seed=1)
>>> move in p.legal_moves(), move == choose_move(p, iterations=50, seed=1)
(True, True)
>>> budget_of(Level.EASY)
{'iterations': 150, 'seconds': 2.0}

Before searching it takes a move that wins at once, and keeps out the moves after which
the opponent wins at once (or that lose on the spot) when any other move exists.

Which search: the games with an alpha-beta plan (:func:`engines.ai.hooks.plan_of`: inpHeXion,
Pathagon, Lines of Fixation and Iso-Path, where it measured stronger than the tree search at
equal time) search by
iterative-deepening alpha-beta whenever the budget is at least :data:`ALPHABETA_FROM`
iterations or is a time alone, each iteration worth :data:`NODES_PER_ITERATION` evaluations
(Iso-Path by its plan's own search, :mod:`engines.ai.isopath_search`, at every budget:
``easy`` there looks one turn ahead); the other games, and the smallest budgets (``easy``),
by Monte Carlo tree search.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from engines.ai import alphabeta, compiled
from engines.ai.hooks import budget_times, knowledge_of, plan_of
from engines.ai.knowledge import Knowledge
from engines.ai.mcts import search
from engines.ai.tactics import Tactics, safe_moves, winning_move
from engines.base import Position
from engines.levels import Level

__all__ = [
    "BUDGETS",
    "Budget",
    "BudgetArgs",
    "Choice",
    "Knowledge",
    "Level",
    "budget_of",
    "choose_move",
    "safe_moves",
    "think",
    "wants_history",
    "winning_move",
]

# Before anything imports a compiled module (none of the imports above does): their sources
# when they were compiled from other ones.
compiled.use_sources()


@dataclass(frozen=True)
class Budget:
    """A search budget: ``iterations`` of the tree search, capped at ``seconds`` of wall time
    (the cap only bites on a slow machine; below it the move depends on the seed alone)."""

    iterations: int
    seconds: float


#: The budget of every level (a game may give a level a multiple of its iterations on some of
#: its boards: :func:`budget_of`).
BUDGETS: dict[Level, Budget] = {
    Level.EASY: Budget(iterations=150, seconds=2.0),
    Level.NORMAL: Budget(iterations=600, seconds=3.0),
    Level.HARD: Budget(iterations=12000, seconds=20.0),
}

#: The smallest iteration budget that the games with an alpha-beta plan search by alpha-beta.
ALPHABETA_FROM = 600

#: Alpha-beta evaluations per iteration of a budget (an evaluation costs about what one tree
#: search iteration does in those games).
NODES_PER_ITERATION = 8


#: The share of a time budget that the one-move look-ahead may use before the search starts.
TACTICS_SHARE = 0.5


class BudgetArgs(TypedDict):
    """The keyword arguments of :func:`choose_move` that :func:`budget_of` returns."""

    iterations: int
    seconds: float


def budget_of(
    level: Level | str,
    game: str | None = None,
    options: Mapping[str, Any] | None = None,
    budgets: Mapping[Level, Budget] = BUDGETS,
) -> BudgetArgs:
    """The keyword arguments of :func:`choose_move` for ``level`` (a :class:`Level` or its
    name, e.g. ``"normal"``) by ``budgets`` (the bot's tests pass tiny ones); ``ValueError``
    for an unknown level.  In ``game`` with ``options`` (missing ones: the defaults), its
    iterations times what the game's player gives that level there
    (:func:`engines.ai.hooks.budget_times`: Iso-Path's ``hard`` twice); its wall-time cap
    stays.

    >>> budget_of("hard", "maphex", {"size": 9}), budget_of("hard", "isopath", {"size": 5})
    ({'iterations': 12000, 'seconds': 20.0}, {'iterations': 24000, 'seconds': 20.0})
    """
    level = Level(level)
    budget = budgets[level]
    times = 1 if game is None else budget_times(game, level, options or {})
    return {"iterations": budget.iterations * times, "seconds": budget.seconds}


@dataclass(frozen=True)
class Choice:
    """What :func:`think` decided: the ``move``, the search ``iterations`` it ran (0 when
    one-move tactics decided alone) and the ``reason`` (``"only move"``, ``"wins"``,
    ``"only safe move"`` or ``"search"``)."""

    move: str
    iterations: int
    reason: str


def choose_move(
    position: Position,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int | None = None,
    history: Sequence[Position] = (),
) -> str:
    """A legal move for the player to move in ``position``, chosen by tree search.

    The search stops after ``iterations`` or ``seconds`` of wall time (the one-move
    look-ahead included), whichever comes first; at least one must be given
    (``ValueError`` otherwise, or for a finished game).
    With a ``seed`` and no time cap reached, the move is always the same.
    ``history``, the game's earlier positions (see :func:`wants_history`), lets the player
    of a game whose positions can come round again steer away from going round.
    """
    return think(position, iterations=iterations, seconds=seconds, seed=seed, history=history).move


def wants_history(game: str) -> bool:
    """Whether the player of ``game`` uses the game's earlier positions (Iso-Path, where
    the same positions can come round for ever: the rules have no repetition rule).

    >>> wants_history("isopath"), wants_history("maphex")
    (True, False)
    """
    plan = plan_of(game)
    return plan is not None and plan.own_search is not None


def think(
    position: Position,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int | None = None,
    history: Sequence[Position] = (),
) -> Choice:
    """:func:`choose_move` with the figures of the search (for benchmarks and logs)."""
    if iterations is None and seconds is None:
        raise ValueError("give a search budget: iterations, seconds or both")
    if iterations is not None and (isinstance(iterations, bool) or iterations < 1):
        raise ValueError(f"iterations must be a positive whole number, not {iterations!r}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be positive, not {seconds!r}")
    if position.outcome is not None:
        raise ValueError("the game is over: there is no move to choose")
    start = time.perf_counter()
    rng = random.Random(seed)
    knowledge = knowledge_of(position)
    moves = position.legal_moves()
    if len(moves) == 1:
        return Choice(moves[0], 0, "only move")
    deadline = None if seconds is None else start + seconds
    plan = plan_of(position.game)
    searched = plan is not None and (
        iterations is None or iterations >= ALPHABETA_FROM or plan.own_search is not None
    )
    if plan is not None and searched and not plan.root_candidates:
        # The search sees a win and the opponent's answer itself (depth 2 is always searched
        # before a move that was not is preferred): only the cheap win check comes first,
        # and the whole budget goes to the search.
        win = winning_move(position, knowledge)
        if win is not None:
            return Choice(win, 0, "wins")
        best = alphabeta.search(
            position,
            moves,
            plan,
            nodes=None if iterations is None else iterations * NODES_PER_ITERATION,
            deadline=deadline,
        )
        return Choice(best.move, best.nodes, "search")
    if plan is not None and searched and plan.own_search is not None:
        nodes = None if iterations is None else iterations * NODES_PER_ITERATION
        move, done = plan.own_search(position, nodes, deadline, history)
        return Choice(move, done, "search")
    if plan is not None and searched and plan.candidates is not None:
        # Thousands of turns (Iso-Path): the plan's candidates, wins first, are the root.
        roots = plan.candidates(position)
        first = position.play(roots[0]).outcome
        if first is not None and first.winner == position.to_move:
            return Choice(roots[0], 0, "wins")
        best = alphabeta.search(
            position,
            roots,
            plan,
            nodes=None if iterations is None else iterations * NODES_PER_ITERATION,
            deadline=deadline,
        )
        return Choice(best.move, best.nodes, "search")
    # The look-ahead may use part of a time budget; moves it had no time for are searched
    # unchecked, so a move never takes much more than ``seconds``.
    found = Tactics(
        position,
        knowledge,
        sample=rng,
        deadline=None if seconds is None else start + TACTICS_SHARE * seconds,
    )
    if found.win is not None:
        return Choice(found.win, 0, "wins")
    candidates = found.best
    if len(candidates) == 1:
        return Choice(candidates[0], 0, "only safe move")
    move, done = search(
        position,
        candidates,
        knowledge,
        rng,
        iterations=iterations,
        deadline=deadline,
        children=found.children,
    )
    return Choice(move, done, "search")
