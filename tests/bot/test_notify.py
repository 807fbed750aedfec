"""Notification kinds, per-player settings and when a notification may be delivered."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from bot.core.notification import Kind
from bot.core.settings import QuietHours, Settings, parse_quiet_hours, parse_utc_offset
from bot.delivery.notify import dedupe_key, delivery_time

MONDAY = datetime(2026, 1, 5, tzinfo=UTC)


def at(hour: int, minute: int = 0, day: int = 0) -> datetime:
    """A UTC time on Monday 5 January 2026 (plus ``day`` days)."""
    return MONDAY + timedelta(days=day, hours=hour, minutes=minute)


def test_quiet_hours_hold_back_every_kind_and_only_reminders_can_be_turned_off() -> None:
    quiet = Settings().change("quiet", "22-7")
    no_reminders = Settings().change("reminders", "off")
    for kind in Kind:
        # Raised in the quiet hours: held until they end; outside them: at once.
        assert delivery_time(kind, quiet, at(23)) == at(7, day=1), kind
        assert delivery_time(kind, quiet, at(12)) == at(12), kind
        expected = None if kind is Kind.REMINDER else at(12)
        assert delivery_time(kind, no_reminders, at(12)) == expected, kind


def test_default_settings_send_everything_at_once_direct_messages_opt_in() -> None:
    s = Settings()
    # Direct messages are opt-in (README: "settings dm on"); the chat's board tells the rest.
    assert not s.direct and s.reminders and s.quiet is None
    for kind in Kind:
        assert delivery_time(kind, s, at(3)) == at(3)


def test_reminders_off_drops_only_reminders() -> None:
    s = Settings().change("reminders", "off")
    assert delivery_time(Kind.REMINDER, s, at(12)) is None
    assert delivery_time(Kind.YOUR_TURN, s, at(12)) == at(12)
    assert delivery_time(Kind.GAME_OVER, s, at(12)) == at(12)


def test_direct_messages_can_be_turned_off_and_on() -> None:
    s = Settings().change("dm", "off")
    assert not s.direct
    assert s.change("DM", " On ").direct


def test_quiet_hours_in_the_same_day_hold_until_they_end() -> None:
    s = Settings(quiet=QuietHours(time(13), time(15), timedelta(0)))
    assert delivery_time(Kind.YOUR_TURN, s, at(12, 59)) == at(12, 59)
    assert delivery_time(Kind.YOUR_TURN, s, at(13)) == at(15)
    assert delivery_time(Kind.GAME_OVER, s, at(14, 30)) == at(15)
    assert delivery_time(Kind.YOUR_TURN, s, at(15)) == at(15)


def test_quiet_hours_wrapping_midnight_hold_until_the_morning() -> None:
    s = Settings(quiet=QuietHours(time(22), time(7), timedelta(0)))
    assert delivery_time(Kind.CHALLENGE, s, at(21, 59)) == at(21, 59)
    assert delivery_time(Kind.CHALLENGE, s, at(22)) == at(7, day=1)
    assert delivery_time(Kind.CHALLENGE, s, at(23, 30)) == at(7, day=1)
    assert delivery_time(Kind.CHALLENGE, s, at(2)) == at(7)
    assert delivery_time(Kind.CHALLENGE, s, at(7)) == at(7)


def test_quiet_hours_are_local_time_with_the_players_utc_offset() -> None:
    # 22:00-07:00 at UTC+02:00 is 20:00-05:00 UTC.
    s = Settings().change("quiet", "22:00-07:00 +02:00")
    assert delivery_time(Kind.YOUR_TURN, s, at(19, 59)) == at(19, 59)
    assert delivery_time(Kind.YOUR_TURN, s, at(20)) == at(5, day=1)
    assert delivery_time(Kind.YOUR_TURN, s, at(4, 59)) == at(5)
    # 23:00-06:30 at UTC-05:00 is 04:00-11:30 UTC.
    west = Settings().change("quiet", "23-6:30 UTC-5")
    assert delivery_time(Kind.YOUR_TURN, west, at(3, 59)) == at(3, 59)
    assert delivery_time(Kind.YOUR_TURN, west, at(4)) == at(11, 30)
    assert delivery_time(Kind.YOUR_TURN, west, at(11, 30)) == at(11, 30)


def test_a_reminder_inside_quiet_hours_waits_like_the_rest() -> None:
    s = Settings(quiet=QuietHours(time(0), time(8), timedelta(0)))
    assert delivery_time(Kind.REMINDER, s, at(3)) == at(8)


@pytest.mark.parametrize(
    ("text", "minutes"),
    [("+01:00", 60), ("-5", -300), ("UTC+5:30", 330), ("+0530", 330), ("utc", 0),
     ("GMT-03:30", -210), ("+14", 840)],
)  # fmt: skip
def test_utc_offsets_parse(text: str, minutes: int) -> None:
    assert parse_utc_offset(text) == timedelta(minutes=minutes)


@pytest.mark.parametrize("text", ["", "+15", "+1:75", "5", "Europe/Paris", "+-1"])
def test_bad_utc_offsets_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="offset"):
        parse_utc_offset(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [("22:00", "window"), ("25-7", "time of day"), ("22:61-7", "time of day"),
     ("7-7", "different"), ("22-7 nowhere", "offset"), ("", "Quiet hours")],
)  # fmt: skip
def test_bad_quiet_hours_are_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_quiet_hours(text)


def test_quiet_hours_off_removes_them() -> None:
    s = Settings().change("quiet", "22-7")
    assert s.quiet is not None
    assert s.change("quiet", "off").quiet is None


def test_unknown_settings_and_values_are_refused() -> None:
    with pytest.raises(ValueError, match="No setting 'colour'"):
        Settings().change("colour", "red")
    with pytest.raises(ValueError, match="on or off"):
        Settings().change("reminders", "sometimes")


def test_settings_round_trip_through_storage_form() -> None:
    s = Settings(direct=False, reminders=False).change("quiet", "21:30-06:45 -03:30")
    assert Settings.from_dict(s.to_dict()) == s
    assert Settings.from_dict(Settings().to_dict()) == Settings()
    with pytest.raises(ValueError, match="bad stored settings"):
        Settings.from_dict({"quiet": {"start": "22:00"}})


def test_settings_describe_themselves_in_one_line() -> None:
    s = Settings(direct=False).change("quiet", "22-7 +1")
    assert s.describe() == "direct messages off, reminders on, quiet hours 22:00-07:00 UTC+01:00"


def test_your_turn_and_reminder_are_keyed_once_per_game_per_move() -> None:
    # One key per (kind, game, move): no two of them collide, e.g. game 1 move 23 and
    # game 12 move 3.
    grid = [(kind, game, ply) for kind in (Kind.YOUR_TURN, Kind.REMINDER)
            for game in (1, 12, 123) for ply in (0, 3, 23)]  # fmt: skip
    keys = [dedupe_key(kind, game, ply) for kind, game, ply in grid]
    assert None not in keys and len(set(keys)) == len(grid)
    assert dedupe_key(Kind.GAME_OVER, 7, 3) is None
