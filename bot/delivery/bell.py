"""The outbox's doorbell: how a change that makes a notification due at once, with no adapter
to answer it (a move made on the web board), wakes this process's outbox senders instead of
leaving it to their next poll.

One :class:`Bell` belongs to a session manager (``manager.bell``); each
:class:`~bot.delivery.outbox.Outbox` given it listens while it runs.  Ringing is synchronous
and cheap (it sets each listener's wake-up event), so it is done right after the commit.

>>> bell, heard = Bell(), []
>>> with bell.listening(lambda: heard.append(1)):
...     bell.ring()
>>> bell.ring()
>>> heard
[1]
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

__all__ = ["Bell"]


class Bell:
    """Wakes whoever listens (the outboxes of this process) when notifications became due."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[], None]] = []

    def ring(self) -> None:
        """Tell every listener that something is due now."""
        for wake in tuple(self._listeners):
            wake()

    @contextlib.contextmanager
    def listening(self, wake: Callable[[], None]) -> Iterator[None]:
        """Call ``wake`` at each :meth:`ring` until the block ends."""
        self._listeners.append(wake)
        try:
            yield
        finally:
            self._listeners.remove(wake)
