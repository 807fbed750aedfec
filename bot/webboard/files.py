"""The web board's rendered files (the board's picture, the game's animation): each made once
per key, with every asker of a key that is being made waiting for that one rendering, at most
:data:`AT_ONCE` renderings in this process at a time, and the results kept (bounded, the least
recently used go first).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Hashable

from bot.core.lru import Lru

__all__ = ["AT_ONCE", "KEPT", "Renderings"]

log = logging.getLogger(__name__)

#: Renderings under way at once in this process (each holds its frames in memory).
AT_ONCE = 2
#: Rendered files kept.
KEPT = 64


class Renderings:
    """Rendered files by key; :attr:`made` counts the renderings done (each key's once while it
    stays kept)."""

    def __init__(self, kept: int = KEPT, at_once: int = AT_ONCE) -> None:
        self._kept: Lru[Hashable, bytes] = Lru(kept)
        self._making: dict[Hashable, asyncio.Task[bytes]] = {}
        self._slots = asyncio.Semaphore(at_once)
        self.made = 0

    def ready(self, key: Hashable) -> bool:
        """Whether asking for ``key`` costs no new rendering (kept, or being made)."""
        return key in self._kept or key in self._making

    async def get(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        """The file of ``key``: kept, or the rendering under way, or ``make()`` run in a thread
        (an asker that goes away does not stop the rendering the others wait for)."""
        body = self._kept.get(key)
        if body is not None:
            return body
        task = self._making.get(key)
        if task is None:
            task = asyncio.create_task(self._make(key, make))
            self._making[key] = task
            task.add_done_callback(self._done)
        return await asyncio.shield(task)

    async def _make(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        try:
            async with self._slots:
                body = await asyncio.to_thread(make)
            self.made += 1
            self._kept[key] = body
            return body
        finally:
            del self._making[key]

    @staticmethod
    def _done(task: asyncio.Task[bytes]) -> None:
        # Read here too, so that a rendering failed after every asker left is still logged.
        if not task.cancelled() and task.exception() is not None:
            log.warning("cannot render a file", exc_info=task.exception())
