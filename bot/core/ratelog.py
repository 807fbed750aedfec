"""A log line that repeats at most once a period: what strangers can cause at will (requests
without the webhook's secret, say) must not fill the log one line each.

>>> import logging
>>> now = [0.0]
>>> lines = RateLimited(logging.getLogger("doc"), every=60.0, clock=lambda: now[0])
>>> lines.allow(), lines.allow(), lines.allow()
(True, False, False)
>>> now[0] = 61.0
>>> lines.allow(), lines.suppressed
(True, 2)
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

__all__ = ["RateLimited"]


class RateLimited:
    """Logs through ``log`` at most once every ``every`` seconds; the next line logged says
    how many were left out meanwhile."""

    def __init__(
        self, log: logging.Logger, every: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.log = log
        self.every = every
        self.clock = clock
        self._next = float("-inf")
        self._left_out = 0
        #: how many lines the last allowed one stands for, besides itself
        self.suppressed = 0

    def allow(self) -> bool:
        """Whether a line may be logged now (counting it as left out if not)."""
        now = self.clock()
        if now < self._next:
            self._left_out += 1
            return False
        self._next = now + self.every
        self.suppressed, self._left_out = self._left_out, 0
        return True

    def warning(self, message: str, *args: object) -> None:
        """``log.warning(message, *args)`` unless one was logged less than ``every`` seconds
        ago; then it is only counted, and said with the next one."""
        if not self.allow():
            return
        if self.suppressed:
            message += f" (and {self.suppressed} more like it since the last one logged)"
        self.log.warning(message, *args)
