"""A memo of drawn parts bounded by the bytes of their pixels, not only by their count.

``functools.lru_cache(maxsize=4096)`` bounds how many parts it keeps, not how big they are: a
status text is a 570×29 RGBA sprite (~65 KB) and almost every move writes a new one ("move 37:
…"), an arrow across an Iso-Path board is ~600 KB, so a count bound let a long-running bot
keep hundreds of MiB of them (issue 48).  :func:`budgeted` keeps the least recently used parts
whose pixels fit in ``most_bytes`` (and at most ``most`` of them), forgets the rest, and
answers ``cache_info`` / ``cache_clear`` like ``lru_cache`` so
:func:`~render._pipeline.clear_caches` empties it too.

>>> @budgeted(10, weigh=len)
... def word(n: int) -> str:
...     return "x" * n
>>> word(4), word(4), word(5), word(3)
('xxxx', 'xxxx', 'xxxxx', 'xxx')
>>> word.cache_info().currsize, word.weight  # "xxxx" went: 4 + 5 + 3 > 10
(2, 8)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import update_wrapper
from typing import Generic, NamedTuple, ParamSpec, TypeVar

__all__ = ["Budgeted", "CacheInfo", "budgeted"]

P = ParamSpec("P")
V = TypeVar("V")


class CacheInfo(NamedTuple):
    """What ``functools.lru_cache``'s ``cache_info`` tells, plus the bytes kept."""

    hits: int
    misses: int
    maxsize: int
    currsize: int
    weight: int
    most_bytes: int


class Budgeted(Generic[P, V]):
    """``function`` memoised: at most ``most`` results whose ``weigh`` sums to at most
    ``most_bytes`` (a single result heavier than that is returned and kept alone).  Safe to
    call from several threads (the web board draws in threads)."""

    def __init__(
        self, function: Callable[P, V], most_bytes: int, weigh: Callable[[V], int], most: int
    ) -> None:
        if most_bytes < 1 or most < 1:
            raise ValueError("a budgeted cache needs room for at least one byte and one entry")
        self._function = function
        self.most_bytes = most_bytes
        self.most = most
        self._weigh = weigh
        self._kept: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        #: the bytes of the results kept
        self.weight = 0
        self._hits = 0
        self._misses = 0
        update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> V:
        key = (args, tuple(kwargs.items()))
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                self._hits += 1
                return found[0]
            self._misses += 1
        value = self._function(*args, **kwargs)  # drawn outside the lock
        weight = self._weigh(value)
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:  # another thread drew it meanwhile
                self.weight -= old[1]
            self._kept[key] = (value, weight)
            self.weight += weight
            while len(self._kept) > 1 and (
                self.weight > self.most_bytes or len(self._kept) > self.most
            ):
                _, (_, gone) = self._kept.popitem(last=False)
                self.weight -= gone
        return value

    def cache_info(self) -> CacheInfo:
        """Hits, misses, the most entries, the entries and bytes kept, the byte budget."""
        with self._lock:
            return CacheInfo(
                self._hits, self._misses, self.most, len(self._kept), self.weight, self.most_bytes
            )

    def cache_clear(self) -> None:
        """Forget every result."""
        with self._lock:
            self._kept.clear()
            self.weight = 0
            self._hits = self._misses = 0


def budgeted(
    most_bytes: int, weigh: Callable[[V], int], most: int = 4096
) -> Callable[[Callable[P, V]], Budgeted[P, V]]:
    """Memoise a function in a :class:`Budgeted` cache of ``most_bytes`` (see the module)."""

    def wrap(function: Callable[P, V]) -> Budgeted[P, V]:
        return Budgeted(function, most_bytes, weigh, most)

    return wrap
