"""When a notification goes out: :func:`delivery_time` says when (and whether) one may be
delivered to a player with given :class:`~bot.core.settings.Settings`, and :func:`dedupe_key`
what makes it unique.  Pure functions; the values they work on live in :mod:`bot.core`.

>>> from datetime import UTC
>>> from bot.core.settings import Settings
>>> s = Settings().change("quiet", "22:00-07:00 +01:00")
>>> at = datetime(2026, 1, 5, 22, 30, tzinfo=UTC)          # 23:30 local: quiet
>>> delivery_time(Kind.YOUR_TURN, s, at)
datetime.datetime(2026, 1, 6, 6, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

from datetime import datetime

from bot.core.notification import Kind
from bot.core.settings import Settings

__all__ = ["dedupe_key", "delivery_time"]


def delivery_time(kind: Kind, settings: Settings, at: datetime) -> datetime | None:
    """When a notification of ``kind`` raised at ``at`` may be delivered to a player with
    ``settings``: ``at`` itself, the end of the quiet hours ``at`` falls in, or ``None`` when
    it is not to be sent at all (a reminder to a player who turned reminders off)."""
    if kind is Kind.REMINDER and not settings.reminders:
        return None
    if settings.quiet is not None and settings.quiet.contains(at):
        return settings.quiet.ends_after(at)
    return at


def dedupe_key(kind: Kind, game_id: int | str | None, ply: int | None = None) -> str | None:
    """The key that makes a notification unique: "your turn" and the reminder once per game
    per move (ply), the other kinds each time they happen (``None``).

    >>> dedupe_key(Kind.YOUR_TURN, 42, 7)
    'your_turn:42:7'
    """
    if kind in (Kind.YOUR_TURN, Kind.REMINDER) and game_id is not None:
        return f"{kind.value}:{game_id}:{ply}"
    return None
