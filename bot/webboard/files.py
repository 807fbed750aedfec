"""The web board's rendered files (the board's picture, the game's animation): each made once
per key, with every asker of a key that is being made waiting for that one rendering, at most
:data:`AT_ONCE` renderings in this process at a time, and the results kept (bounded, the least
recently used go first).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

__all__ = ["AT_ONCE", "KEPT", "Lru", "Renderings"]

log = logging.getLogger(__name__)

#: Renderings under way at once in this process (each holds its frames in memory).
AT_ONCE = 2
#: Rendered files kept.
KEPT = 64


class Lru(OrderedDict[Hashable, Any]):
    """A bounded cache: the least recently used entry goes first.

    >>> kept = Lru(2)
    >>> kept.put("a", 1); kept.put("b", 2); kept.get_or_none("a"); kept.put("c", 3)
    1
    >>> list(kept)
    ['a', 'c']
    """

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def get_or_none(self, key: Hashable) -> Any:
        """The value of ``key`` (now the most recently used), ``None`` when not kept."""
        if key not in self:
            return None
        self.move_to_end(key)
        return self[key]

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` for ``key`` (forgetting the least recently used past the size)."""
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class Renderings:
    """Rendered files by key; :attr:`made` counts the renderings done (each key's once while it
    stays kept)."""

    def __init__(self, kept: int = KEPT, at_once: int = AT_ONCE) -> None:
        self._kept = Lru(kept)
        self._making: dict[Hashable, asyncio.Task[bytes]] = {}
        self._slots = asyncio.Semaphore(at_once)
        self.made = 0

    def ready(self, key: Hashable) -> bool:
        """Whether asking for ``key`` costs no new rendering (kept, or being made)."""
        return key in self._kept or key in self._making

    async def get(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        """The file of ``key``: kept, or the rendering under way, or ``make()`` run in a thread
        (an asker that goes away does not stop the rendering the others wait for)."""
        body: bytes | None = self._kept.get_or_none(key)
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
            self._kept.put(key, body)
            return body
        finally:
            del self._making[key]

    @staticmethod
    def _done(task: asyncio.Task[bytes]) -> None:
        # Read here too, so that a rendering failed after every asker left is still logged.
        if not task.cancelled() and task.exception() is not None:
            log.warning("cannot render a file", exc_info=task.exception())
