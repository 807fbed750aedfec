"""Live pages: who watches which game, and telling them when it changed.

Each game with an open page has one poller in this process that reads the stored game's
version every :data:`POLL_EVERY` seconds (a move made anywhere, by this process, by another one
on the same PostgreSQL database, by the bot, is seen there) and wakes at once when this
process's own page played (:meth:`Live.poke`).  Each watcher gets the latest change in a queue
of one (a slow page skips states, never falls behind).

The spectator count is every process's: each poller tells the store how many spectators of its
game this process serves (when that changes, and every :data:`COUNT_EVERY` seconds, valid for
:data:`COUNT_TTL`) and reads back the sum over the processes.  A spectator is who the server
says (the client's address): ten pages from one address are one spectator, and the players'
own pages are no spectators at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Hashable
from dataclasses import dataclass
from typing import Any

__all__ = ["COUNT_EVERY", "COUNT_TTL", "POLL_EVERY", "Change", "Live"]

log = logging.getLogger(__name__)

#: How often a watched game is read from the store (seconds): pages see moves well within 2 s.
POLL_EVERY = 0.5
#: How often a process renews its count of a game's open pages in the store and reads every
#: process's (seconds): a page opened elsewhere shows in the count within this.
COUNT_EVERY = 2.0
#: How long a stored count holds without renewal (a process that died drops out after it).
COUNT_TTL = 15.0


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
    (``None``: no such game), ``count_of(game_id, here)`` stores this process's count of open
    pages and answers every process's (``None``: this process's count alone)."""

    def __init__(
        self,
        stamp_of: Callable[[int], Awaitable[Hashable | None]],
        every: float = POLL_EVERY,
        count_of: Callable[[int, int], Coroutine[Any, Any, int]] | None = None,
    ) -> None:
        self._stamp_of = stamp_of
        self._count_of = count_of
        self._every = every
        # Each game's watchers: their queue, and the spectator each is (``None``: a player).
        self._queues: dict[int, dict[asyncio.Queue[Change | None], Hashable | None]] = {}
        self._pollers: dict[int, asyncio.Task[None]] = {}
        self._wake: dict[int, asyncio.Event] = {}
        self._stamps: dict[int, Hashable] = {}
        self._totals: dict[int, int] = {}
        self._forget: set[asyncio.Task[int]] = set()

    def local(self, game_id: int) -> int:
        """How many spectators (distinct, players apart) watch ``game_id`` in this process."""
        watchers = self._queues.get(game_id, {})
        return len({who for who in watchers.values() if who is not None})

    def spectators(self, game_id: int) -> int:
        """How many spectators watch ``game_id`` in every process (as last read)."""
        return self._totals.get(game_id, self.local(game_id))

    def poke(self, game_id: int) -> None:
        """Read ``game_id`` now (this process just changed it)."""
        event = self._wake.get(game_id)
        if event is not None:
            event.set()

    @contextlib.asynccontextmanager
    async def watch(
        self, game_id: int, spectator: Hashable | None = None
    ) -> AsyncIterator[asyncio.Queue[Change | None]]:
        """A queue of the changes of ``game_id`` while the block runs (its first item is the
        state now; ``None`` when this process stops serving pages), for ``spectator`` (counted
        once however many pages they have open; ``None``: a player, not counted)."""
        queue: asyncio.Queue[Change | None] = asyncio.Queue(maxsize=1)
        watchers = self._queues.setdefault(game_id, {})
        watchers[queue] = spectator
        if game_id not in self._pollers:
            self._wake[game_id] = asyncio.Event()
            self._pollers[game_id] = asyncio.create_task(self._poll(game_id))
        else:
            self._broadcast(game_id)
            self.poke(game_id)
        try:
            yield queue
        finally:
            del watchers[queue]
            if not watchers:
                del self._queues[game_id]
                self._pollers.pop(game_id).cancel()
                self._wake.pop(game_id, None)
                self._stamps.pop(game_id, None)
                self._totals.pop(game_id, None)
                if self._count_of is not None:
                    task = asyncio.create_task(self._count_of(game_id, 0))
                    self._forget.add(task)
                    task.add_done_callback(self._forgotten)
            else:
                self._broadcast(game_id)
                self.poke(game_id)

    def _forgotten(self, task: asyncio.Task[int]) -> None:
        self._forget.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("cannot clear a page count", exc_info=task.exception())

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
        counted: tuple[int, float] | None = None  # the count last stored, and when
        while True:
            changed = False
            try:
                stamp = await self._stamp_of(game_id)
                if stamp is not None and stamp != self._stamps.get(game_id):
                    self._stamps[game_id] = stamp
                    changed = True
                here = self.local(game_id)
                renew = (
                    counted is None
                    or counted[0] != here
                    or time.monotonic() - counted[1] >= COUNT_EVERY
                )
                if self._count_of is not None and renew:
                    total = await self._count_of(game_id, here)
                    counted = (here, time.monotonic())
                    if total != self._totals.get(game_id):
                        self._totals[game_id] = total
                        changed = True
            except Exception:  # a store that fails now may answer at the next read
                log.warning("cannot read game #%d for its pages", game_id, exc_info=True)
            if changed:
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
