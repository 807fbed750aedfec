"""One effect per tap: a button tapped twice in a row (a double tap, a client retrying) is
handled once.

Updates are handled concurrently (``concurrent_updates``), so the two callback queries of a
double tap run side by side and each would post its own answer (two move pickers, two
questions).  A tap is the same as another when the same person pressed the same button (its
callback data) on the same message; it counts as a repeat while the first is being handled and
for :data:`REPEAT_WINDOW` seconds after.  The repeat is answered at once, with no notification
(every callback query must be answered: core.telegram.org/bots/api#answercallbackquery), and
does nothing else.

>>> taps = Taps()
>>> key = (7, -100, 3, "pk:12")
>>> taps.begin(key, now=10.0), taps.begin(key, now=10.2)
(True, False)
>>> taps.end(key, now=10.3); taps.begin(key, now=10.9), taps.begin(key, now=11.4)
(False, True)
"""

from __future__ import annotations

from bot.core.lru import Lru

__all__ = ["REMEMBERED_TAPS", "REPEAT_WINDOW", "Tap", "Taps"]

#: How long after a tap was handled the same tap again is a repeat (seconds).
REPEAT_WINDOW = 1.0
#: Taps remembered at once (least recently seen first out).
REMEMBERED_TAPS = 5000

#: Who pressed (user id), where (chat id, message id) and which button (its data).
Tap = tuple[int, int, int, str]


class Taps:
    """The taps being handled and those handled a moment ago (see the module docstring)."""

    def __init__(self, window: float = REPEAT_WINDOW) -> None:
        self._window = window
        # tap -> when it was handled (None: being handled now)
        self._seen: Lru[Tap, float | None] = Lru(REMEMBERED_TAPS, keep=lambda v: v is None)

    @property
    def window(self) -> float:
        """How long after a tap was handled the same tap again is a repeat (seconds)."""
        return self._window

    def begin(self, tap: Tap, *, now: float) -> bool:
        """Whether ``tap`` is a new one, to handle (then :meth:`end` it); ``False`` for a
        repeat."""
        done = self._seen.get(tap, float("-inf"))
        if done is None or now - done < self._window:
            return False
        self._seen[tap] = None
        return True

    def busy(self) -> bool:
        """Whether a tap is being handled now."""
        return any(v is None for v in self._seen.values())

    def end(self, tap: Tap, *, now: float) -> None:
        """``tap`` has been handled at ``now``."""
        self._seen[tap] = now
