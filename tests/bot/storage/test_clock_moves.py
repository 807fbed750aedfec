"""A tournament's start-by time and a vacation (its end and the deadlines it moves) are
written on the database's clock, like a game's deadline (issue 48): a process whose clock is
150 s behind stores them as due when they really are, so no other process's sweep starts a
tournament or times a game out 150 s late (nor, with a clock ahead, early)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import NewGame, SqlStore
from bot.storage.tournament_rows import NewTournament

#: How far the writing process's clock is off the database's (the real one, here).
OFF = timedelta(seconds=150)
#: Slack for the time between reading the real clock here and the database reading its own.
SLACK = timedelta(seconds=20)


def _near(stored: datetime, expected: datetime) -> bool:
    return abs(stored - expected) < SLACK


@pytest.mark.parametrize("off", [-OFF, OFF])
async def test_a_tournament_starts_by_the_database_clock(store: SqlStore, off: timedelta) -> None:
    real = datetime.now(UTC)
    now = real + off  # this process's clock
    alice = await store.player("test", "1", "alice", now)
    new = NewTournament("test", "room", "", alice.id, "maphex", {}, None, 1, False, 8)
    made = await store.create_tournament(new, now, now + timedelta(hours=1))
    assert _near(made.starts_by, real + timedelta(hours=1)), made.starts_by - real
    stored = await store.get_tournament(made.id)
    assert stored is not None and stored.starts_by == made.starts_by


@pytest.mark.parametrize("off", [-OFF, OFF])
async def test_a_vacation_and_its_deadlines_by_the_database_clock(
    store: SqlStore, off: timedelta
) -> None:
    real = datetime.now(UTC)
    now = real + off
    alice = await store.player("test", "1", "alice", now)
    bob = await store.player("test", "2", "bob", now)
    game = await store.create_game(
        NewGame(
            "maphex", {}, alice.id, bob.id, "test", "room", 0, {},
            time_per_move=1.0, deadline_at=now + timedelta(days=1),
        ),
        now,
    )  # fmt: skip
    week = timedelta(days=7)
    assert await store.set_away(alice.id, now, now + week, [(game, now + week + timedelta(days=1))])
    away = await store.player("test", "1", "alice", now)
    assert away.away_until is not None and _near(away.away_until, real + week)
    moved = await store.get_game(game.id)
    assert moved is not None and moved.deadline_at is not None
    assert _near(moved.deadline_at, real + week + timedelta(days=1))
    # Coming back the next (real) day cuts the stored vacation short then, by the same clock.
    assert await store.set_away(alice.id, now + timedelta(days=1), None, [])
    back = await store.player("test", "1", "alice", now)
    assert back.away_until is None
