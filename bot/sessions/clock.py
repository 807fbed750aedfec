"""Time as the bot sees it: one injectable clock, so tests can move time, and the pure
arithmetic of correspondence play built on it.

Everything here except :class:`SystemClock` is pure: functions take the times they need and
return new times, so the session manager and the tests agree on every deadline.

* Time controls: ``none`` or 1, 3, 7, 14 days per move (default 3).
* :func:`deadline` and :func:`reminder_at`: when a move is due and when the one reminder goes.
* Vacation (``away <days>``): at most 14 days per calendar year; time away pauses the
  player's clocks (:func:`paused_deadline`).
* :func:`pace`: overdue work found after a restart is spread out, never sent in a burst.

>>> start = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
>>> deadline(start, 3)
datetime.datetime(2026, 1, 8, 12, 0, tzinfo=datetime.timezone.utc)
>>> reminder_at(deadline(start, 1), 1)   # 10 % of one day is less than 24 hours
datetime.datetime(2026, 1, 6, 9, 36, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Protocol, TypeVar

from bot.core import i18n
from bot.core.i18n import N_, BadValue
from bot.deadlines import reminder_at
from bot.limits import is_ascii_digits

__all__ = [
    "DEFAULT_TIME_CONTROL",
    "MAX_AWAY_DAYS_PER_YEAR",
    "SWEEP_GAP",
    "TIME_CONTROLS",
    "AwaySpan",
    "Clock",
    "FakeClock",
    "FileClock",
    "SystemClock",
    "away_days_left",
    "away_left",
    "away_used",
    "check_away",
    "deadline",
    "describe_time_control",
    "pace",
    "parse_time_control",
    "paused_deadline",
    "reminder_at",
]

#: The allowed times per move, in days; ``None`` is no time limit.
TIME_CONTROLS: tuple[int | None, ...] = (None, 1, 3, 7, 14)
#: Days per move when a challenge does not say.
DEFAULT_TIME_CONTROL = 3
#: The most vacation a player may take in one calendar year.
MAX_AWAY_DAYS_PER_YEAR = 14
#: Gap between two pieces of overdue work handled after a restart.
SWEEP_GAP = timedelta(seconds=3)

T = TypeVar("T")


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


class FileClock:
    """The time written in a file (ISO 8601 with its UTC offset), standing still until the
    file is rewritten: the :class:`FakeClock` of a whole bot process, which a test moves by
    rewriting the file (``HEXHALL_CLOCK_FILE``, for tests only: see :mod:`bot.config`).

    Raises ``ValueError`` (or ``OSError``) when the file holds no such time at the start;
    later, a file that cannot be read (a rewrite in progress) keeps the last time read.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._last = self._read()

    def _read(self) -> datetime:
        text = self.path.read_text(encoding="utf-8").strip()
        when = datetime.fromisoformat(text)
        if when.tzinfo is None:
            raise ValueError(f"{self.path} holds a time without its UTC offset: {text[:40]!r}")
        return when.astimezone(UTC)

    def now(self) -> datetime:
        """The time the file holds now (the last one read if it cannot be read)."""
        with contextlib.suppress(OSError, ValueError):
            self._last = self._read()
        return self._last


# --- time controls ---------------------------------------------------------------------------

_NO_LIMIT_WORDS = ("none", "no", "off", "unlimited", "0", "-")


def parse_time_control(text: str | int | None) -> int | None:
    """Days per move from what a player typed: ``"3"``, ``"7d"``, ``"14 days"``, ``"none"``.

    Raises ``ValueError`` naming the allowed values for anything else.

    >>> parse_time_control("7 days"), parse_time_control("1d"), parse_time_control("none")
    (7, 1, None)
    """
    if text is None:
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        if text in TIME_CONTROLS:
            return text
        if text == 0:
            return None
    elif isinstance(text, str):
        word = text.strip().lower()
        if word in _NO_LIMIT_WORDS:
            return None
        for suffix in ("days", "day", "d"):
            if word.endswith(suffix):
                word = word[: -len(suffix)].strip()
                break
        if is_ascii_digits(word) and int(word) in TIME_CONTROLS:
            return int(word)
    allowed = ", ".join(describe_time_control(days) for days in TIME_CONTROLS)
    raise ValueError(f"time per move must be one of {allowed}, not {str(text)[:24]!r}")


def describe_time_control(days: int | None) -> str:
    """The time control in words.

    >>> describe_time_control(None), describe_time_control(1), describe_time_control(3)
    ('none', '1 day', '3 days')
    """
    if days is None:
        return "none"
    return "1 day" if days == 1 else f"{days} days"


def deadline(turn_started: datetime, days: int | None) -> datetime | None:
    """When a move started at ``turn_started`` is due (``None`` without a time limit)."""
    if days is None:
        return None
    return turn_started + timedelta(days=days)


# --- vacation --------------------------------------------------------------------------------


@dataclass(frozen=True)
class AwaySpan:
    """One stretch of vacation: from ``start`` (inclusive) to ``end`` (exclusive), UTC."""

    start: datetime
    end: datetime

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError("a vacation cannot end before it starts")

    @property
    def length(self) -> timedelta:
        """How long the vacation lasts."""
        return self.end - self.start

    def overlap(self, start: datetime, end: datetime) -> timedelta:
        """How much of this vacation falls between ``start`` and ``end``."""
        return max(timedelta(0), min(self.end, end) - max(self.start, start))


def away_used(spans: Iterable[AwaySpan], year: int) -> timedelta:
    """The vacation counted against calendar ``year`` (UTC), in whole days: every day of a
    vacation that was begun counts as a whole day (``away 1`` then ``back`` an hour later uses
    a day), in the year that day begins; a vacation over New Year counts partly in each year.

    >>> t = datetime(2026, 3, 1, 9, tzinfo=UTC)
    >>> away_used([AwaySpan(t, t + timedelta(hours=1))], 2026)
    datetime.timedelta(days=1)
    """
    day = timedelta(days=1)
    begun = (span.start + k * day for span in spans for k in range(math.ceil(span.length / day)))
    return day * sum(1 for start in begun if start.year == year)


def away_left(spans: Iterable[AwaySpan], year: int) -> timedelta:
    """The vacation time still allowed in calendar ``year``."""
    allowance = timedelta(days=MAX_AWAY_DAYS_PER_YEAR)
    return max(timedelta(0), allowance - away_used(spans, year))


def away_days_left(spans: Iterable[AwaySpan], year: int) -> int:
    """The whole days of vacation still allowed in calendar ``year``."""
    return away_left(spans, year).days


def check_away(spans: Sequence[AwaySpan], now: datetime, days: int) -> AwaySpan:
    """The vacation ``away <days>`` starting ``now`` would give, checked against the yearly
    allowance; raises :class:`~bot.core.i18n.BadValue` with a message for the player when it
    is not allowed.

    ``spans`` are the player's earlier vacations.  A vacation still running is replaced by
    the new one (so ``away 5`` during a vacation sets a new return time); a vacation must not
    already be running for it to start.

    >>> now = datetime(2026, 3, 1, tzinfo=UTC)
    >>> check_away([], now, 10).end
    datetime.datetime(2026, 3, 11, 0, 0, tzinfo=datetime.timezone.utc)
    >>> check_away([AwaySpan(now - timedelta(days=30), now - timedelta(days=20))], now, 5)
    Traceback (most recent call last):
    bot.core.i18n.BadValue: You have 4 days of vacation left this year, not 5 days.
    """
    if days < 1:
        raise BadValue(N_("Away takes a number of days, at least 1."))
    if days > MAX_AWAY_DAYS_PER_YEAR:
        raise BadValue(
            N_("Away is at most {most} days a year, not {days}."),
            most=MAX_AWAY_DAYS_PER_YEAR,
            days=days,
        )
    # A vacation running now is cut short at ``now``: only its past part counts.
    earlier = [AwaySpan(span.start, min(span.end, now)) for span in spans if span.start <= now]
    wanted = AwaySpan(now, now + timedelta(days=days))
    for year in range(now.year, wanted.end.year + 1):
        need = away_used([wanted], year)
        left = away_left(earlier, year)
        if need > left:
            if year == now.year:
                template = N_("You have {left} of vacation left this year, not {need}.")
            else:
                template = N_("You have {left} of vacation left in {year}, not {need}.")
            raise BadValue(template, left=_days_text(left), need=_days_text(need), year=year)
    return wanted


def _days_text(span: timedelta) -> str:
    # Vacation is counted in whole days (see away_used).
    days = i18n.ngettext("{count} day", "{count} days", span.days)
    return i18n.fill(days, {"count": i18n.number(span.days)})


def paused_deadline(due: datetime, turn_started: datetime, spans: Iterable[AwaySpan]) -> datetime:
    """``due`` pushed back by the time the player to move spent away since ``turn_started``.

    Only vacation that begins before the (already pushed) deadline counts, so a vacation that
    starts after the deadline passed changes nothing.

    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> paused_deadline(t + timedelta(days=3), t, [AwaySpan(t + timedelta(days=1),
    ...                                                     t + timedelta(days=5))])
    datetime.datetime(2026, 1, 8, 0, 0, tzinfo=datetime.timezone.utc)
    """
    pushed = due
    for span in sorted(spans, key=lambda s: s.start):
        begin = max(span.start, turn_started)
        if begin < pushed and span.end > begin:
            pushed += span.end - begin
    return pushed


# --- pacing ----------------------------------------------------------------------------------


def pace(
    due: Iterable[tuple[datetime, T]], now: datetime, gap: timedelta = SWEEP_GAP
) -> list[tuple[datetime, T]]:
    """Schedule work so that no two items are closer than ``gap``: overdue items are handled
    one per ``gap`` from ``now`` on, oldest first, so a restart never sends a burst; items due
    later keep their time unless the paced stretch reaches them.

    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> [(w - t).seconds for w, _ in pace([(t - timedelta(hours=1), "a"),
    ...                                    (t - timedelta(days=1), "b")], t)]
    [0, 3]
    >>> [x for _, x in pace([(t - timedelta(hours=1), "a"), (t - timedelta(days=1), "b")], t)]
    ['b', 'a']
    """
    if gap <= timedelta(0):
        raise ValueError("the gap between paced items must be positive")
    ordered = sorted(due, key=lambda item: item[0])
    out: list[tuple[datetime, T]] = []
    next_free = now
    for when, item in ordered:
        slot = max(when, next_free)
        out.append((slot, item))
        next_free = slot + gap
    return out
