"""A bounded map that forgets the least recently used entry: every in-process cache of the bot
is one, so memory stays flat however many games and players pass through.

>>> cache = Lru[str, int](2)
>>> cache["a"] = 1; cache["b"] = 2; cache.get("a"); cache["c"] = 3
1
>>> sorted(cache)
['a', 'c']
>>> len(cache), "b" in cache
(2, False)

``keep`` is asked before an entry is dropped: an entry it keeps (a lock someone holds or
waits for) stays, and the next least recently used one goes instead.

Each read and write is one step under a lock, so threads may share one (the pictures are drawn
in worker threads): a lookup and its reorder, or a store and its eviction, never interleave
with another thread's.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar, overload

__all__ = ["Lru"]

K = TypeVar("K")
V = TypeVar("V")
D = TypeVar("D")


class Lru(Generic[K, V]):
    """At most ``size`` entries (beyond them only entries ``keep`` holds on to); reading an
    entry with :meth:`get` or ``[]`` makes it the most recently used."""

    def __init__(self, size: int, keep: Callable[[V], bool] | None = None) -> None:
        if size < 1:
            raise ValueError(f"an Lru needs room for at least one entry, not {size}")
        self.size = size
        self._keep = keep
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[K]:
        with self._lock:
            return iter(list(self._data))

    def __getitem__(self, key: K) -> V:
        with self._lock:
            value = self._data[key]
            self._data.move_to_end(key)
            return value

    @overload
    def get(self, key: K) -> V | None: ...

    @overload
    def get(self, key: K, default: D) -> V | D: ...

    def get(self, key: K, default: object = None) -> object:
        """The entry of ``key`` (now the most recently used), or ``default``."""
        with self._lock:
            if key not in self._data:
                return default
            self._data.move_to_end(key)
            return self._data[key]

    def __setitem__(self, key: K, value: V) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            self._evict()

    def pop(self, key: K, default: V | None = None) -> V | None:
        """Remove ``key``'s entry and return it (``default`` if there is none)."""
        with self._lock:
            return self._data.pop(key, default)

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._data.clear()

    def values(self) -> list[V]:
        """The entries, least recently used first (a copy)."""
        with self._lock:
            return list(self._data.values())

    def items(self) -> list[tuple[K, V]]:
        """The keys and entries, least recently used first (a copy)."""
        with self._lock:
            return list(self._data.items())

    def _evict(self) -> None:
        """Drop the least recently used entries beyond :attr:`size` (the lock held)."""
        if len(self._data) <= self.size:
            return
        if self._keep is None:
            while len(self._data) > self.size:
                self._data.popitem(last=False)
            return
        for key in list(self._data):
            if len(self._data) <= self.size:
                return
            if not self._keep(self._data[key]):
                del self._data[key]
