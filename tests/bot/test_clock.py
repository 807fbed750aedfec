"""Correspondence time arithmetic: time controls, deadlines, the reminder, vacation, pacing."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.adapters.commands import execute
from bot.sessions.clock import (
    DEFAULT_TIME_CONTROL,
    MAX_AWAY_DAYS_PER_YEAR,
    SWEEP_GAP,
    TIME_CONTROLS,
    AwaySpan,
    FakeClock,
    away_left,
    away_used,
    check_away,
    deadline,
    describe_time_control,
    pace,
    parse_time_control,
    paused_deadline,
    reminder_at,
)
from tests.bot.session_kit import ALICE, BOB, ROOM, session

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def test_every_time_control_reads_back_from_its_description() -> None:
    for days in TIME_CONTROLS:
        assert parse_time_control(describe_time_control(days)) == days
    assert parse_time_control(describe_time_control(DEFAULT_TIME_CONTROL)) == 3


async def test_a_typed_challenge_without_days_gives_three_days_per_move(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db", FakeClock(T0)) as m:
        made = await execute(m, ALICE, ROOM, "challenge bob maphex first=me", lambda _: BOB)
        assert made.ok and made.challenge_id is not None, made.text
        started = await m.challenges.accept(BOB, ROOM, made.challenge_id)
        assert started.ok and started.game_id is not None
        row = await m.store.get_game(started.game_id)
        assert row is not None and row.deadline_at == T0 + 3 * DAY


@pytest.mark.parametrize(
    ("text", "days"),
    [("none", None), ("off", None), ("0", None), (0, None), (None, None), ("1", 1),
     ("1 day", 1), ("3d", 3), ("7 DAYS", 7), (" 14 ", 14), (14, 14)],
)  # fmt: skip
def test_time_control_parses_what_players_type(text: str | int | None, days: int | None) -> None:
    assert parse_time_control(text) == days


@pytest.mark.parametrize("text", ["2", "30 days", "soon", "-3", "", 5, True])
def test_time_control_refuses_other_values_naming_the_allowed_ones(text: str | int) -> None:
    with pytest.raises(ValueError, match=r"none, 1 day, 3 days, 7 days, 14 days"):
        parse_time_control(text)


def test_deadline_is_the_time_per_move_after_the_turn_started() -> None:
    for days in (1, 3, 7, 14):
        assert deadline(T0, days) == T0 + days * DAY
    assert deadline(T0, None) is None


def test_reminder_goes_24_hours_before_the_deadline_when_10_percent_is_more() -> None:
    due = deadline(T0, 14)
    assert due is not None
    assert reminder_at(due, 14) == due - timedelta(hours=24)


@pytest.mark.parametrize(("days", "left"), [(1, 2.4), (3, 7.2), (7, 16.8)])
def test_reminder_goes_at_10_percent_left_when_that_is_less_than_24_hours(
    days: int, left: float
) -> None:
    due = deadline(T0, days)
    assert due is not None
    assert reminder_at(due, days) == due - timedelta(hours=left)


def test_reminder_follows_a_deadline_pushed_by_vacation() -> None:
    due = T0 + 3 * DAY
    pushed = paused_deadline(due, T0, [AwaySpan(T0 + DAY, T0 + 3 * DAY)])
    assert pushed == due + 2 * DAY
    assert reminder_at(pushed, 3) == pushed - timedelta(hours=7.2)


def test_vacation_allowance_is_14_days_per_calendar_year() -> None:
    assert MAX_AWAY_DAYS_PER_YEAR == 14
    assert check_away([], T0, 14).end == T0 + 14 * DAY
    with pytest.raises(ValueError, match="at most 14 days"):
        check_away([], T0, 15)
    with pytest.raises(ValueError, match="at least 1"):
        check_away([], T0, 0)


def test_vacation_used_earlier_in_the_year_counts_against_the_allowance() -> None:
    spans = [AwaySpan(T0 - 40 * DAY, T0 - 30 * DAY)]
    assert away_used(spans, 2026) == 10 * DAY
    assert away_left(spans, 2026) == 4 * DAY
    assert check_away(spans, T0, 4).length == 4 * DAY
    with pytest.raises(ValueError, match="4 days of vacation left this year, not 5 days"):
        check_away(spans, T0, 5)


def test_vacation_from_last_year_does_not_count_this_year() -> None:
    spans = [AwaySpan(datetime(2025, 12, 1, tzinfo=UTC), datetime(2025, 12, 15, tzinfo=UTC))]
    assert away_left(spans, 2026) == 14 * DAY
    assert check_away(spans, T0, 14).length == 14 * DAY


def test_vacation_over_new_year_counts_in_each_year() -> None:
    new_year_eve = datetime(2026, 12, 28, tzinfo=UTC)
    spans = [AwaySpan(datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 11, tzinfo=UTC))]
    # 10 days used in 2026; 4 left; a 7-day vacation from 28 December needs 4 days of 2026.
    span = check_away(spans, new_year_eve, 7)
    assert away_used([span], 2026) == 4 * DAY
    assert away_used([span], 2027) == 3 * DAY
    with pytest.raises(ValueError, match="left this year"):
        check_away(spans, new_year_eve - DAY, 7)


def test_a_running_vacation_only_counts_its_past_part_when_renewed() -> None:
    running = AwaySpan(T0 - 2 * DAY, T0 + 10 * DAY)
    # Two days were used; "away 12" now replaces the rest of the running vacation.
    assert check_away([running], T0, 12).end == T0 + 12 * DAY
    with pytest.raises(ValueError, match="12 days of vacation left"):
        check_away([running], T0, 13)


def test_vacation_pauses_the_clock_deadline_pushed_by_the_time_away() -> None:
    due = T0 + 3 * DAY
    away = AwaySpan(T0 + DAY, T0 + 4 * DAY)
    assert paused_deadline(due, T0, [away]) == due + 3 * DAY


def test_vacation_before_the_turn_only_counts_from_the_turn_start() -> None:
    due = T0 + 3 * DAY
    away = AwaySpan(T0 - 5 * DAY, T0 + DAY)
    assert paused_deadline(due, T0, [away]) == due + DAY


def test_vacation_after_the_deadline_changes_nothing() -> None:
    due = T0 + 3 * DAY
    assert paused_deadline(due, T0, [AwaySpan(due + DAY, due + 2 * DAY)]) == due
    assert paused_deadline(due, T0, [AwaySpan(T0 - 9 * DAY, T0 - 8 * DAY)]) == due


def test_a_second_vacation_inside_the_pushed_time_pushes_again() -> None:
    due = T0 + DAY
    first = AwaySpan(T0 + timedelta(hours=12), T0 + timedelta(days=2))  # pushes to T0 + 2.5d
    second = AwaySpan(T0 + timedelta(days=2, hours=6), T0 + timedelta(days=3))
    assert paused_deadline(due, T0, [second, first]) == T0 + timedelta(days=3, hours=6)


def test_overdue_work_after_a_restart_is_spread_out_oldest_first() -> None:
    overdue = [(T0 - timedelta(hours=h), f"item{h}") for h in range(1, 21)]
    plan = pace(overdue, T0)
    assert [item for _, item in plan] == [f"item{h}" for h in range(20, 0, -1)]
    times = [when for when, _ in plan]
    assert times[0] == T0
    assert all(b - a >= SWEEP_GAP for a, b in itertools.pairwise(times))
    assert times[-1] == T0 + 19 * SWEEP_GAP


def test_pacing_keeps_future_work_on_time_unless_the_paced_stretch_reaches_it() -> None:
    gap = timedelta(minutes=1)
    plan = pace(
        [(T0 - DAY, "old"), (T0 - DAY, "old2"), (T0 + timedelta(seconds=30), "soon"),
         (T0 + DAY, "later")],
        T0,
        gap,
    )  # fmt: skip
    assert plan == [
        (T0, "old"),
        (T0 + gap, "old2"),
        (T0 + 2 * gap, "soon"),
        (T0 + DAY, "later"),
    ]


def test_pacing_refuses_a_zero_gap() -> None:
    with pytest.raises(ValueError, match="positive"):
        pace([], T0, timedelta(0))


def test_fake_clock_moves_only_when_told() -> None:
    clock = FakeClock(T0)
    assert clock.now() == T0
    assert clock.advance(hours=25) == T0 + timedelta(hours=25)
    clock.set(T0)
    assert clock.now() == T0
