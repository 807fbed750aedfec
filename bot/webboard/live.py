"""Live pages: who watches which game, and telling them when it changed.

Each game with an open page has one poller in this process that reads the stored game's ply,
version and status every :data:`POLL_EVERY` seconds (a move made anywhere, by this process, by
another one on the same PostgreSQL database, by the bot, is seen there) and wakes at once when
this process's own page played (:meth:`Live.poke`).  Each watcher gets the latest change in a
queue of one (a slow page skips states, never falls behind).  The spectator count is the
number of open pages in this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass

__all__ = ["POLL_EVERY", "Change", "Live"]

log = logging.getLogger(__name__)

#: How often a watched game is read from the store (seconds): pages see moves well within 2 s.
POLL_EVERY = 0.5


@dataclass(frozen=True)
class Change:
    """What a page is told: the game's ``stamp`` (changes with every stored change) and how
    many pages watch it."""

    stamp: Hashable
    spectators: int

    def to_json(self) -> dict[str, object]:
        """The event's data."""
        return {"stamp": str(self.stamp), "spectators": self.spectators}


class Live:
    """The pollers and watchers of this process; ``stamp_of(game_id)`` reads a game's stamp
    (``None``: no such game)."""

    def __init__(
        self, stamp_of: Callable[[int], Awaitable[Hashable | None]], every: float = POLL_EVERY
    ) -> None:
        self._stamp_of = stamp_of
        self._every = every
        self._queues: dict[int, set[asyncio.Queue[Change | None]]] = {}
        self._pollers: dict[int, asyncio.Task[None]] = {}
        self._wake: dict[int, asyncio.Event] = {}
        self._stamps: dict[int, Hashable] = {}

    def spectators(self, game_id: int) -> int:
        """How many pages of ``game_id`` are open in this process."""
        return len(self._queues.get(game_id, ()))

    def poke(self, game_id: int) -> None:
        """Read ``game_id`` now (this process just changed it)."""
        event = self._wake.get(game_id)
        if event is not None:
            event.set()

    @contextlib.asynccontextmanager
    async def watch(self, game_id: int) -> AsyncIterator[asyncio.Queue[Change | None]]:
        """A queue of the changes of ``game_id`` while the block runs (its first item is the
        state now; ``None`` when this process stops serving pages)."""
        queue: asyncio.Queue[Change | None] = asyncio.Queue(maxsize=1)
        watchers = self._queues.setdefault(game_id, set())
        watchers.add(queue)
        if game_id not in self._pollers:
            self._wake[game_id] = asyncio.Event()
            self._pollers[game_id] = asyncio.create_task(self._poll(game_id))
        self._broadcast(game_id)
        try:
            yield queue
        finally:
            watchers.discard(queue)
            if not watchers:
                del self._queues[game_id]
                self._pollers.pop(game_id).cancel()
                self._wake.pop(game_id, None)
                self._stamps.pop(game_id, None)
            else:
                self._broadcast(game_id)

    def _broadcast(self, game_id: int) -> None:
        if game_id not in self._stamps:
            return  # the poller's first read tells everyone
        change = Change(self._stamps[game_id], self.spectators(game_id))
        for queue in self._queues.get(game_id, ()):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(change)

    async def _poll(self, game_id: int) -> None:
        wake = self._wake[game_id]
        while True:
            try:
                stamp = await self._stamp_of(game_id)
            except Exception:  # a store that fails now may answer at the next read
                log.warning("cannot read game #%d for its pages", game_id, exc_info=True)
                stamp = self._stamps.get(game_id)
            if stamp is not None and stamp != self._stamps.get(game_id):
                self._stamps[game_id] = stamp
                self._broadcast(game_id)
            wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), self._every)

    async def close(self) -> None:
        """Stop every poller and tell every watcher (``None``)."""
        for queues in self._queues.values():
            for queue in queues:
                if queue.full():
                    queue.get_nowait()
                queue.put_nowait(None)
        for task in self._pollers.values():
            task.cancel()
        for task in list(self._pollers.values()):
            with contextlib.suppress(asyncio.CancelledError):
                await task
