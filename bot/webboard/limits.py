"""Limits on what one asker may take from the web board: a token bucket per key (a player, an
address), kept for a bounded number of keys (the least recently used is forgotten first), and
caps on the open event streams, per address and in all.

>>> bucket = Buckets(rate=1.0, burst=2, keys=100)
>>> [bucket.take("ada", now=0.0) for _ in range(3)]
[True, True, False]
>>> bucket.take("ada", now=1.0)
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from bot.core.lru import Lru

__all__ = [
    "STREAMS_PER_ADDRESS",
    "STREAMS_RETRY_AFTER",
    "STREAMS_TOTAL",
    "Buckets",
    "StreamFull",
    "Streams",
]


class Buckets:
    """Token buckets: each key gets ``burst`` tokens, refilled at ``rate`` per second; at most
    ``keys`` keys are remembered."""

    def __init__(self, rate: float, burst: int, keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keys = keys
        self._tokens: Lru[str, tuple[float, float]] = Lru(keys)

    def take(self, key: str, now: float) -> bool:
        """Take a token for ``key`` at time ``now`` (seconds, monotonic): whether it had one."""
        tokens, then = self._tokens.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        allowed = tokens >= 1.0
        self._tokens[key] = (tokens - 1.0 if allowed else tokens, now)
        return allowed


#: The event streams (live pages) one address may hold open at once: a household or an office
#: behind one address watches a few games, never fifty.
STREAMS_PER_ADDRESS = 50
#: The event streams this process holds open in all: well under the usual 1 024 open files, so
#: the pages, the API and the chats' own connections always have descriptors left.
STREAMS_TOTAL = 600
#: What a refused stream's ``Retry-After`` says (seconds): a page that retries waits this long.
STREAMS_RETRY_AFTER = 30


class StreamFull(Exception):
    """No stream left for this address (or for anyone): the asker should retry later."""


class Streams:
    """Counts of the open event streams, per address and in all, each capped.

    >>> streams = Streams(per_address=1, total=2)
    >>> with streams.hold("a"):
    ...     streams.open("a"), streams.total
    (1, 1)
    >>> with streams.hold("a"), streams.hold("a"):
    ...     pass
    Traceback (most recent call last):
    bot.webboard.limits.StreamFull: a
    >>> streams.open("a"), streams.total
    (0, 0)
    """

    def __init__(self, per_address: int = STREAMS_PER_ADDRESS, total: int = STREAMS_TOTAL) -> None:
        self.per_address = per_address
        self.limit = total
        self.total = 0
        self._open: dict[str, int] = {}

    def open(self, address: str) -> int:
        """How many streams ``address`` holds open now."""
        return self._open.get(address, 0)

    @contextlib.contextmanager
    def hold(self, address: str) -> Iterator[None]:
        """A stream for ``address`` while the block runs; :class:`StreamFull` when the address
        or the process has no stream left."""
        if self.total >= self.limit or self.open(address) >= self.per_address:
            raise StreamFull(address)
        self._open[address] = self.open(address) + 1
        self.total += 1
        try:
            yield
        finally:
            self.total -= 1
            left = self._open[address] - 1
            if left:
                self._open[address] = left
            else:
                del self._open[address]
