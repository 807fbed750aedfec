"""When a timed move's reminder goes out, and when the clock sweep must next look at a game.

Shared by the sessions (which send the reminder) and the store (which keeps each active game's
next alarm indexed, so a sweep reads only the games with something due instead of every game
with a deadline in the next day).

>>> from datetime import UTC
>>> due = datetime(2026, 1, 15, tzinfo=UTC)
>>> str(alarm_at(due, 1, reminded=False)), str(alarm_at(due, 1, reminded=True))
('2026-01-14 21:36:00+00:00', '2026-01-15 00:00:00+00:00')
>>> alarm_at(None, 3, reminded=False) is None
True
"""

from __future__ import annotations

from datetime import datetime, timedelta

__all__ = ["REMINDER_LEAD", "alarm_at", "reminder_at"]

#: The reminder goes when this much time is left (or 10 % of the time, if that is less).
REMINDER_LEAD = timedelta(hours=24)


def reminder_at(due: datetime, days: float) -> datetime:
    """When the single reminder for a move with ``days`` per move, due at ``due``, goes out:
    when 24 hours are left, or 10 % of the time per move if that is less.

    ``due`` may be a deadline pushed back by vacation: the reminder moves with it, and the
    10 % stays that of the time per move.

    >>> from datetime import UTC
    >>> due = datetime(2026, 1, 15, tzinfo=UTC)
    >>> [str(due - reminder_at(due, d)) for d in (1, 3, 7, 14)]
    ['2:24:00', '7:12:00', '16:48:00', '1 day, 0:00:00']
    """
    return due - min(REMINDER_LEAD, timedelta(days=days) / 10)


def alarm_at(due: datetime | None, days: float | None, *, reminded: bool) -> datetime | None:
    """The next time the clock sweep has work in a game due at ``due`` with ``days`` per move:
    the reminder's time until it is ``reminded``, then the deadline itself (``None``: no
    clock)."""
    if due is None:
        return None
    if reminded or not days:
        return due
    return reminder_at(due, days)
