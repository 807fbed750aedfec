"""Where the bot's moves are searched: :class:`Thinker`, a pool of worker processes.

A search holds a CPU for up to seconds; in the bot's process it would hold the interpreter
lock too, and every other game's move and autocompletion would wait for it.  So each search
runs in a worker process (:func:`bot.workers.process_pool`: workers die with the bot), the
event loop only awaits its result.  This module imports nothing but the engines, so a worker
starts light.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import engines
from bot.workers import cpu_count, process_pool
from engines.ai import (
    BUDGETS,
    NODES_PER_ITERATION,
    Budget,
    Level,
    budget_of,
    choose_move,
    wants_history,
)
from engines.ai.draws import ASSESS_NODES, held, quiet_plies, should_offer
from engines.ai.review import review

_T = TypeVar("_T")

__all__ = [
    "REVIEW_NODES",
    "FairQueue",
    "Reviewed",
    "Search",
    "Thinker",
    "draw_offered",
    "draw_view",
    "review_moves",
    "search_move",
]

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
    """The computer player's move after ``moves`` of ``game`` (run in a worker process),
    with the game's earlier positions where the player uses them (Iso-Path: see
    :func:`engines.ai.wants_history`)."""
    if not wants_history(game):
        position = engines.position_after(game, moves, **options)
        return choose_move(position, iterations=iterations, seconds=seconds, seed=seed)
    *history, position = engines.replay(game, moves, **options)
    return choose_move(position, iterations=iterations, seconds=seconds, seed=seed, history=history)


def review_moves(
    game: str,
    options: Mapping[str, Any],
    moves: Sequence[str],
    count: int,
    nodes: int = REVIEW_NODES,
) -> list[Reviewed]:
    """The ``count`` costliest moves of a game (:func:`engines.ai.review.review` with
    ``nodes`` evaluations per position, run in a worker process), as plain tuples."""
    found = review(game, moves, options=options, nodes=nodes, count=count)
    return [(m.ply, m.mover, m.played, m.better, m.before, m.after) for m in found]


def draw_view(
    game: str, options: Mapping[str, Any], moves: Sequence[str], seat: int, nodes: int
) -> tuple[bool, int]:
    """Whether the game after ``moves`` is held for both by ``seat``'s evaluation
    (:func:`engines.ai.draws.held`, assessments of ``nodes`` evaluations) and the plies it has
    gone without progress (:func:`engines.ai.draws.quiet_plies`); run in a worker process."""
    positions = list(engines.replay(game, moves, **options))
    return held(positions, seat, nodes=nodes), quiet_plies(positions)


def draw_offered(
    game: str, options: Mapping[str, Any], moves: Sequence[str], seat: int, nodes: int
) -> tuple[bool, int]:
    """Whether ``seat``, which made the last of ``moves``, offers a draw now
    (:func:`engines.ai.draws.should_offer`), and the plies the game has gone without progress;
    run in a worker process."""
    positions = list(engines.replay(game, moves, **options))
    return should_offer(positions, seat, nodes), quiet_plies(positions)


def _ready() -> None:
    """Nothing: submitted once per worker when the pool starts, so each starts at once."""


#: The function a worker runs: :func:`search_move`'s signature (tests pass one that waits).
Search = Callable[[str, Mapping[str, Any], Sequence[str], int, float, int], str]


class Thinker:
    """Searches moves in a process pool of ``workers`` processes (default: one per CPU this
    process may use), each level with its budget from ``budgets`` (default
    :data:`engines.ai.BUDGETS`; tests pass tiny ones), times what the game gives the level on
    its board (:func:`engines.ai.budget_of`), and ``review_nodes`` evaluations per
    position of a review (default :data:`REVIEW_NODES`).  The pool starts with the first
    search; :meth:`close` stops it.  ``search`` must be a module-level function (it is
    pickled by name into the workers)."""

    def __init__(
        self,
        *,
        budgets: Mapping[Level, Budget] | None = None,
        workers: int | None = None,
        search: Search = search_move,
        review_nodes: int = REVIEW_NODES,
    ) -> None:
        self.budgets = dict(BUDGETS if budgets is None else budgets)
        self.review_nodes = review_nodes
        self.workers = workers
        self.search = search
        self._pool: ProcessPoolExecutor | None = None
        self._queue = FairQueue(max(1, workers or cpu_count()))

    async def move(
        self,
        game: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        level: Level,
        seed: int,
        owner: Hashable = None,
    ) -> str:
        """The bot's move at ``level`` after ``moves``, searched in a worker process when its
        turn comes: searches wait in :class:`FairQueue` by ``owner`` (the player the bot
        plays), so one player's burst of games never holds up another player's move.

        Raises what the search raised, or ``concurrent.futures.process.BrokenProcessPool``
        when a worker died (the pool is then started afresh by the next search)."""
        async with self._queue.turn(owner):
            return await self._search(game, options, moves, level, seed)

    async def _search(
        self,
        game: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        level: Level,
        seed: int,
    ) -> str:
        budget = budget_of(level, game, options, self.budgets)
        return await self._in_pool(
            self.search,
            game,
            dict(options),
            list(moves),
            budget["iterations"],
            budget["seconds"],
            seed,
        )

    async def _in_pool(self, work: Callable[..., _T], *args: Any) -> _T:
        """``work(*args)`` in a worker process of the pool (started here at first use);
        raises what it raised, or ``BrokenProcessPool`` when a worker died."""
        if self._pool is None:
            # Made (and its workers started) on the event loop's thread: see bot.workers.
            self._pool = process_pool(self.workers)
            # Every worker starts now, not on the first search that finds none idle: a
            # player's search never waits for a process to start and import the engines.
            for _ in range(self._queue.slots):
                self._pool.submit(_ready)
        pool = self._pool
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(pool, work, *args)
        except BrokenProcessPool:
            if self._pool is pool:
                # A dead worker breaks the whole pool for good: the next search gets a new one.
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def assess_nodes(self, level: Level) -> int:
        """Evaluations of one draw assessment at ``level``: :data:`ASSESS_NODES`, or the
        level's own search budget when that is smaller (an assessment never costs more than
        a move)."""
        return min(ASSESS_NODES, self.budgets[level].iterations * NODES_PER_ITERATION)

    async def draw_view(
        self,
        game: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        level: Level,
        seat: int,
        owner: Hashable = None,
    ) -> tuple[bool, int]:
        """:func:`draw_view` in a worker process, in turn with the searches by ``owner``."""
        return await self._assessed(draw_view, game, options, moves, level, seat, owner)

    async def draw_offered(
        self,
        game: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        level: Level,
        seat: int,
        owner: Hashable = None,
    ) -> tuple[bool, int]:
        """:func:`draw_offered` in a worker process, in turn with the searches by ``owner``."""
        return await self._assessed(draw_offered, game, options, moves, level, seat, owner)

    async def _assessed(
        self,
        assess: Callable[[str, dict[str, Any], list[str], int, int], tuple[bool, int]],
        game: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        level: Level,
        seat: int,
        owner: Hashable,
    ) -> tuple[bool, int]:
        """``assess`` (a draw assessment) in a worker process at ``level``'s budget for one,
        in turn with the searches by ``owner``."""
        nodes = self.assess_nodes(level)
        async with self._queue.turn(owner):
            return await self._in_pool(assess, game, dict(options), list(moves), seat, nodes)

    async def review(
        self,
        game: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        count: int,
        owner: Hashable = None,
    ) -> list[Reviewed]:
        """:func:`review_moves` in a worker process, in turn with the searches in
        :class:`FairQueue` by ``owner`` (the errors as :meth:`move`'s)."""
        async with self._queue.turn(owner):
            return await self._in_pool(
                review_moves, game, dict(options), list(moves), count, self.review_nodes
            )

    def close(self, wait: bool = False) -> None:
        """Stop the pool: searches not started are dropped; a worker ends once its running
        search does (``wait``: block until all workers have ended)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=True)


class FairQueue:
    """Turns at ``slots`` workers, fairly among owners: a free slot goes to the waiting owner
    with the fewest searches running, then to the one whose last search started longest ago
    (a newcomer first); no owner holds more than ``per_owner`` slots at once (by default all
    but one, so another owner's search finds a free worker at once).

    >>> queue = FairQueue(2)
    >>> queue.per_owner
    1
    """

    def __init__(self, slots: int, per_owner: int | None = None) -> None:
        self.slots = slots
        self.per_owner = per_owner or max(1, slots - 1)
        self._running: dict[Hashable, int] = {}
        self._waiting: dict[Hashable, deque[asyncio.Future[None]]] = {}
        # owner -> when (a count of starts) their last search started, while they have any
        self._started: dict[Hashable, int] = {}
        self._starts = 0

    def turn(self, owner: Hashable) -> _Turn:
        """``async with queue.turn(owner):`` runs its body when ``owner``'s turn comes."""
        return _Turn(self, owner)

    @property
    def busy(self) -> int:
        """Slots in use."""
        return sum(self._running.values())

    def _start(self, owner: Hashable) -> None:
        self._running[owner] = self._running.get(owner, 0) + 1
        self._starts += 1
        self._started[owner] = self._starts

    async def _acquire(self, owner: Hashable) -> None:
        if (
            not self._waiting
            and self.busy < self.slots
            and self._running.get(owner, 0) < self.per_owner
        ):
            self._start(owner)
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(owner, deque()).append(waiter)
        self._wake()  # a slot may be free for this owner while others wait at their limit
        try:
            await waiter
        except BaseException:
            if waiter.done() and not waiter.cancelled():
                self._release(owner)  # the turn was given just as the waiter gave up
            else:
                self._forget(owner, waiter)
            raise

    def _forget(self, owner: Hashable, waiter: asyncio.Future[None]) -> None:
        queue = self._waiting.get(owner)
        if queue is not None and waiter in queue:
            queue.remove(waiter)
        self._tidy(owner)

    def _tidy(self, owner: Hashable) -> None:
        if owner in self._waiting and not self._waiting[owner]:
            del self._waiting[owner]
        if owner not in self._waiting and owner not in self._running:
            self._started.pop(owner, None)

    def _release(self, owner: Hashable) -> None:
        left = self._running[owner] - 1
        if left:
            self._running[owner] = left
        else:
            del self._running[owner]
        self._tidy(owner)
        self._wake()

    def _wake(self) -> None:
        """Give free slots to the waiting owners, fewest running first."""
        while self.busy < self.slots:
            for owner in list(self._waiting):
                queue = self._waiting[owner]
                while queue and queue[0].done():  # given up (cancelled), not yet forgotten
                    queue.popleft()
                self._tidy(owner)
            ready = [o for o in self._waiting if self._running.get(o, 0) < self.per_owner]
            if not ready:
                return
            owner = min(ready, key=lambda o: (self._running.get(o, 0), self._started.get(o, 0)))
            waiter = self._waiting[owner].popleft()
            self._start(owner)
            self._tidy(owner)
            waiter.set_result(None)


class _Turn:
    def __init__(self, queue: FairQueue, owner: Hashable) -> None:
        self.queue = queue
        self.owner = owner

    async def __aenter__(self) -> None:
        await self.queue._acquire(self.owner)

    async def __aexit__(self, *exc: object) -> None:
        self.queue._release(self.owner)
