"""A full storage, told to the operator: each refusal it causes counted (by what listens,
:func:`when_full`: :mod:`bot.metrics` counts ``hexhall_storage_full_total``; the store does
not import the metrics, which read its rows), and one error line when it
starts (again at most once a minute while it lasts), so whoever watches the metrics or the log
learns the disk or quota ran out, not that the database is away.  Each store keeps a
:class:`FullAlarm` and calls :meth:`FullAlarm.full` where it turns the database's failure into
:class:`~bot.storage.errors.StoreFull`."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bot.storage.errors import StoreFull

__all__ = ["SAID_EVERY", "FullAlarm", "when_full"]

log = logging.getLogger(__name__)

#: While the storage stays full, its log line is repeated at most this often (seconds).
SAID_EVERY = 60.0


_listeners: list[Callable[[], None]] = []


def when_full(callback: Callable[[], None]) -> None:
    """Have ``callback`` called for every request a store refuses because its storage is
    full (the metrics' counter)."""
    if callback not in _listeners:
        _listeners.append(callback)


class FullAlarm:
    """One store's alarm for a full storage (see the module docstring)."""

    def __init__(self, where: str) -> None:
        #: The database, as the log names it (its password hidden).
        self.where = where
        self._said_at: float | None = None
        self._unsaid = 0

    def full(self, detail: str) -> StoreFull:
        """Count one request refused because the storage is full (``detail``: the database's
        words), log it unless a line said so in the last :data:`SAID_EVERY` seconds, and
        return the error to raise."""
        for listener in _listeners:
            listener()
        now = time.monotonic()
        if self._said_at is None or now - self._said_at >= SAID_EVERY:
            more = f" ({self._unsaid} more refused since the last line)" if self._unsaid else ""
            log.error(
                "storage is full (database %s): %s; requests that write are refused "
                "until space is freed%s",
                self.where,
                detail,
                more,
            )
            self._said_at, self._unsaid = now, 0
        else:
            self._unsaid += 1
        return StoreFull(detail)
