"""Where the bot's moves are searched: :class:`Thinker`, a pool of worker processes.

A search holds a CPU for up to seconds; in the bot's process it would hold the interpreter
lock too, and every other game's move and autocompletion would wait for it.  So each search
runs in a worker process (:func:`bot.workers.process_pool`: workers die with the bot), the
event loop only awaits its result.  This module imports nothing but the engines, so a worker
starts light.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import engines
from bot.workers import process_pool
from engines.ai import BUDGETS, Budget, Level, choose_move
from engines.ai.review import review

__all__ = ["REVIEW_NODES", "Reviewed", "Search", "Thinker", "review_moves", "search_move"]

#: Evaluations per position of a review (a few seconds for a whole game of one core).
REVIEW_NODES = 300

#: One reviewed move, as :func:`review_moves` gives it: ply, mover seat, move played, better
#: move, the mover's chance with the better move and after the move played.
Reviewed = tuple[int, int, str, str, float, float]


def search_move(
    game: str,
    options: Mapping[str, Any],
    moves: Sequence[str],
    iterations: int,
    seconds: float,
    seed: int,
) -> str:
    """The computer player's move after ``moves`` of ``game`` (run in a worker process)."""
    position = engines.position_after(game, moves, **options)
    return choose_move(position, iterations=iterations, seconds=seconds, seed=seed)


def review_moves(
    game: str, options: Mapping[str, Any], moves: Sequence[str], count: int
) -> list[Reviewed]:
    """The ``count`` costliest moves of a game (:func:`engines.ai.review.review`, run in a
    worker process), as plain tuples."""
    found = review(game, moves, options=options, nodes=REVIEW_NODES, count=count)
    return [(m.ply, m.mover, m.played, m.better, m.before, m.after) for m in found]


#: The function a worker runs: :func:`search_move`'s signature (tests pass one that waits).
Search = Callable[[str, Mapping[str, Any], Sequence[str], int, float, int], str]


class Thinker:
    """Searches moves in a process pool of ``workers`` processes (default: one per CPU this
    process may use), each level with its budget from ``budgets`` (default
    :data:`engines.ai.BUDGETS`; tests pass tiny ones).  The pool starts with the first
    search; :meth:`close` stops it.  ``search`` must be a module-level function (it is
    pickled by name into the workers)."""

    def __init__(
        self,
        *,
        budgets: Mapping[Level, Budget] | None = None,
        workers: int | None = None,
        search: Search = search_move,
    ) -> None:
        self.budgets = dict(BUDGETS if budgets is None else budgets)
        self.workers = workers
        self.search = search
        self._pool: ProcessPoolExecutor | None = None

    async def move(
        self,
        game: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        level: Level,
        seed: int,
    ) -> str:
        """The bot's move at ``level`` after ``moves``, searched in a worker process.

        Raises what the search raised, or ``concurrent.futures.process.BrokenProcessPool``
        when a worker died (the pool is then started afresh by the next search)."""
        budget = self.budgets[level]
        if self._pool is None:
            # Made (and its workers started) on the event loop's thread: see bot.workers.
            self._pool = process_pool(self.workers)
        pool = self._pool
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                pool,
                self.search,
                game,
                dict(options),
                list(moves),
                budget.iterations,
                budget.seconds,
                seed,
            )
        except BrokenProcessPool:
            if self._pool is pool:
                # A dead worker breaks the whole pool for good: the next search gets a new one.
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    async def review(
        self, game: str, options: Mapping[str, Any], moves: Sequence[str], count: int
    ) -> list[Reviewed]:
        """:func:`review_moves` in a worker process (the errors as :meth:`move`'s)."""
        if self._pool is None:
            self._pool = process_pool(self.workers)
        pool = self._pool
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                pool, review_moves, game, dict(options), list(moves), count
            )
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self, wait: bool = False) -> None:
        """Stop the pool: searches not started are dropped; a worker ends once its running
        search does (``wait``: block until all workers have ended)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=True)
