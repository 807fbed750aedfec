"""Time as the bot sees it: one injectable clock, so tests can move time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol

__all__ = ["Clock", "FakeClock", "SystemClock"]


class Clock(Protocol):
    """Anything that tells the current time (always timezone-aware, UTC)."""

    def now(self) -> datetime:
        """The current time in UTC."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        """The current time in UTC."""
        return datetime.now(UTC)


class FakeClock:
    """A clock that stands still until a test moves it."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 5, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        """The time the test set."""
        return self._now

    def advance(self, **delta: float) -> datetime:
        """Move time forward by ``timedelta(**delta)`` and return the new time."""
        self._now += timedelta(**delta)
        return self._now

    def set(self, when: datetime) -> None:
        """Jump to ``when``."""
        self._now = when
