"""Rate limits on the web board's POSTs: a token bucket per key (a player, an address), kept
for a bounded number of keys (the least recently used is forgotten first).

>>> bucket = Buckets(rate=1.0, burst=2, keys=100)
>>> [bucket.take("ada", now=0.0) for _ in range(3)]
[True, True, False]
>>> bucket.take("ada", now=1.0)
True
"""

from __future__ import annotations

from collections import OrderedDict

__all__ = ["Buckets"]


class Buckets:
    """Token buckets: each key gets ``burst`` tokens, refilled at ``rate`` per second; at most
    ``keys`` keys are remembered."""

    def __init__(self, rate: float, burst: int, keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keys = keys
        self._tokens: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, now: float) -> bool:
        """Take a token for ``key`` at time ``now`` (seconds, monotonic): whether it had one."""
        tokens, then = self._tokens.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        allowed = tokens >= 1.0
        self._tokens[key] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._tokens) > self.keys:
            self._tokens.popitem(last=False)
        return allowed
