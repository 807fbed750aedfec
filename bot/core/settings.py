"""A player's notification settings: direct messages, the one reminder, quiet hours.

Quiet hours are a window of local time given with a fixed UTC offset, e.g. ``22:00-07:00
+01:00``; the window may wrap midnight.  Anything that falls inside is held until it ends
(:func:`bot.delivery.notify.delivery_time`).

>>> s = Settings().change("quiet", "22:00-07:00 +01:00")
>>> s.describe()
'direct messages off, reminders on, quiet hours 22:00-07:00 UTC+01:00'
>>> s.quiet.contains(datetime(2026, 1, 5, 22, 30, tzinfo=UTC))          # 23:30 local
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, time, timedelta
from typing import Any

from bot.core.i18n import N_, BadValue

__all__ = ["QuietHours", "Settings", "parse_quiet_hours", "parse_utc_offset"]


@dataclass(frozen=True)
class QuietHours:
    """A daily window of local time in which nothing is sent.

    ``start`` and ``end`` are local wall-clock times, ``offset`` the player's UTC offset.  When
    ``start`` is later than ``end`` the window wraps midnight (22:00-07:00).
    """

    start: time
    end: time
    offset: timedelta

    def __post_init__(self) -> None:
        if self.start == self.end:
            raise BadValue(N_("Quiet hours need different start and end times."))
        if abs(self.offset) > timedelta(hours=14):
            raise BadValue(N_("A UTC offset is between -14:00 and +14:00."))

    def _local(self, at: datetime) -> datetime:
        return at.astimezone(UTC).replace(tzinfo=None) + self.offset

    def contains(self, at: datetime) -> bool:
        """Whether ``at`` (aware) falls inside the window."""
        now = self._local(at).time()
        if self.start < self.end:
            return self.start <= now < self.end
        return now >= self.start or now < self.end

    def ends_after(self, at: datetime) -> datetime:
        """The first end of the window at or after ``at`` (UTC)."""
        local = self._local(at)
        end = datetime.combine(local.date(), self.end)
        if end < local:
            end += timedelta(days=1)
        return (end - self.offset).replace(tzinfo=UTC)

    def describe(self) -> str:
        """The window as a player would type it, e.g. ``22:00-07:00 UTC+01:00``."""
        return f"{self.start:%H:%M}-{self.end:%H:%M} UTC{_offset_text(self.offset)}"


def _offset_text(offset: timedelta) -> str:
    sign = "-" if offset < timedelta(0) else "+"
    minutes = abs(offset) // timedelta(minutes=1)
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


# re.ASCII: \d would also match other scripts' digits (``٣``), which a player never means here.
_OFFSET = re.compile(r"^(?:utc|gmt)?\s*(?:([+-])\s*(\d{1,2})(?::?(\d{2}))?)?$", re.ASCII)
_TIME = re.compile(r"^(\d{1,2})(?::(\d{2}))?$", re.ASCII)


def parse_utc_offset(text: str) -> timedelta:
    """A UTC offset such as ``+01:00``, ``-5``, ``UTC+5:30``, ``+0530`` or ``UTC``.

    >>> parse_utc_offset("UTC+5:30")
    datetime.timedelta(seconds=19800)
    """
    match = _OFFSET.match(text.strip().lower())
    if not match or (match.group(1) is None and not text.strip()):
        raise BadValue(
            N_("{text} is not a UTC offset (say e.g. +01:00 or -5)."), text=repr(text[:24])
        )
    sign, hours, minutes = match.groups()
    if sign is None:
        return timedelta(0)
    if int(minutes or 0) >= 60:
        raise BadValue(
            N_("{text} is not a UTC offset (minutes must be below 60)."), text=repr(text[:24])
        )
    value = timedelta(hours=int(hours), minutes=int(minutes or 0))
    if value > timedelta(hours=14):
        raise BadValue(N_("A UTC offset is between -14:00 and +14:00."))
    return -value if sign == "-" else value


def _parse_time(text: str) -> time:
    match = _TIME.match(text.strip())
    if match:
        hour, minute = int(match.group(1)), int(match.group(2) or 0)
        if hour < 24 and minute < 60:
            return time(hour, minute)
    raise BadValue(N_("{text} is not a time of day (say e.g. 22:00 or 7)."), text=repr(text[:24]))


def parse_quiet_hours(text: str) -> QuietHours | None:
    """Quiet hours as typed: ``22:00-07:00 +01:00`` (offset optional, UTC by default), or
    ``off`` for none.

    >>> parse_quiet_hours("23-7 UTC-5").describe()
    '23:00-07:00 UTC-05:00'
    """
    words = text.strip().split(maxsplit=1)
    if not words:
        raise BadValue(N_("Quiet hours: say e.g. 22:00-07:00 +01:00, or off."))
    if words[0].lower() in ("off", "none", "no"):
        return None
    span = words[0].split("-")
    if len(span) != 2:
        raise BadValue(
            N_("Quiet hours are a window like 22:00-07:00, not {text}."), text=repr(words[0][:24])
        )
    offset = parse_utc_offset(words[1]) if len(words) > 1 else timedelta(0)
    return QuietHours(_parse_time(span[0]), _parse_time(span[1]), offset)


_SWITCH = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}


@dataclass(frozen=True)
class Settings:
    """One player's notification settings.

    ``direct``: notifications come as direct messages (opt-in: off until the player turns
    them on; otherwise what happens in a game is seen on its board in the game's chat);
    ``reminders``: the one reminder before a deadline is sent; ``quiet``: quiet hours or
    ``None``.
    """

    direct: bool = False
    reminders: bool = True
    quiet: QuietHours | None = None

    def change(self, name: str, value: str) -> Settings:
        """These settings with one changed from what a player typed (``dm off``, ``reminders
        on``, ``quiet 22:00-07:00 +01:00``, ``quiet off``); ``ValueError`` otherwise."""
        key = name.strip().lower()
        if key in ("dm", "dms", "direct"):
            return replace(self, direct=_switch(key, value))
        if key in ("reminder", "reminders"):
            return replace(self, reminders=_switch(key, value))
        if key in ("quiet", "quiet-hours", "quiet_hours"):
            return replace(self, quiet=parse_quiet_hours(value))
        raise BadValue(
            N_("No setting {name} (settings: dm, reminders, quiet)."), name=repr(name[:24])
        )

    def describe(self) -> str:
        """The settings in one line."""
        quiet = self.quiet.describe() if self.quiet else "none"
        return (
            f"direct messages {'on' if self.direct else 'off'}, "
            f"reminders {'on' if self.reminders else 'off'}, quiet hours {quiet}"
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable form for storage."""
        quiet = None
        if self.quiet is not None:
            quiet = {
                "start": self.quiet.start.strftime("%H:%M"),
                "end": self.quiet.end.strftime("%H:%M"),
                "offset_minutes": self.quiet.offset // timedelta(minutes=1),
            }
        return {"direct": self.direct, "reminders": self.reminders, "quiet": quiet}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settings:
        """Rebuild settings from :meth:`to_dict` output (``ValueError`` if malformed)."""
        try:
            q = d.get("quiet")
            quiet = None
            if q is not None:
                quiet = QuietHours(
                    _parse_time(q["start"]),
                    _parse_time(q["end"]),
                    timedelta(minutes=int(q["offset_minutes"])),
                )
            return cls(bool(d.get("direct", False)), bool(d.get("reminders", True)), quiet)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"bad stored settings: {exc!r}") from None


def _switch(name: str, value: str) -> bool:
    word = value.strip().lower()
    if word not in _SWITCH:
        raise BadValue(N_("{name} is on or off, not {value}."), name=name, value=repr(value[:24]))
    return _SWITCH[word]
