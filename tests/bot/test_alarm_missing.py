"""A game whose stored alarm is missing (NULL, written by hand or a tool) still times out
(issue 48): the clock sweep finds it, works its alarm out again from its deadline with one log
line naming the game, and the games around it go on as before.  On SQLite and PostgreSQL."""

from __future__ import annotations

import logging

import pytest

from bot.core.status import GameStatus
from bot.messages import User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from tests.bot.session_kit import ALICE, BOB, CAROL, ROOM, finishing_moves, session
from tests.bot.storage.raw import raw

DAVE = User("test", "4", "dave")


async def _timed(m: SessionManager, first: User, second: User) -> int:
    """``first`` challenges ``second`` to Pathagon at 1 day a move, it is accepted and
    ``first`` moves; the game id."""
    made = await m.challenges.challenge(first, ROOM, "pathagon", second, None, "me", 1)
    assert made.ok and made.challenge_id is not None, made.text
    accepted = await m.challenges.accept(second, ROOM, made.challenge_id)
    assert accepted.ok and accepted.game_id is not None, accepted.text
    played = await m.games.move(first, ROOM, finishing_moves("pathagon")[0], accepted.game_id)
    assert played.ok, played.text
    return accepted.game_id


async def _status(m: SessionManager, game_id: int) -> GameStatus:
    row = await m.store.get_game(game_id)
    assert row is not None
    return row.status


def _lines(caplog: pytest.LogCaptureFixture, game_id: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if f"#{game_id}:" in r.getMessage()]


async def test_a_missing_alarm_is_worked_out_again_and_the_game_times_out(
    store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as m:
        damaged = await _timed(m, ALICE, BOB)
        spared = await _timed(m, CAROL, DAVE)
        await raw(m.store, "UPDATE games SET alarm_at = NULL WHERE id = ?", damaged)
        clock.advance(days=2)
        with caplog.at_level(logging.WARNING):
            assert await m.sweep() == 2
        assert await _status(m, damaged) is GameStatus.FINISHED
        assert await _status(m, spared) is GameStatus.FINISHED
        (line,) = _lines(caplog, damaged)
        assert "alarm is missing" in line and "deadline" in line


async def test_a_missing_alarm_not_yet_due_is_stored_again_once(
    store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as m:
        gid = await _timed(m, ALICE, BOB)
        ((before,),) = await raw(m.store, "SELECT alarm_at FROM games WHERE id = ?", gid)
        await raw(m.store, "UPDATE games SET alarm_at = NULL WHERE id = ?", gid)
        with caplog.at_level(logging.WARNING):
            assert await m.sweep() == 0  # the reminder is hours away
            assert await m.sweep() == 0
        # Worked out once, to what the move stored, and said once.
        assert await raw(m.store, "SELECT alarm_at FROM games WHERE id = ?", gid) == [(before,)]
        assert len(_lines(caplog, gid)) == 1
        assert await _status(m, gid) is GameStatus.ACTIVE
        # Its clock runs: the reminder, then the loss on time.
        clock.advance(hours=22)
        assert await m.sweep() == 1
        clock.advance(hours=3)
        assert await m.sweep() == 1
        assert await _status(m, gid) is GameStatus.FINISHED


async def test_a_game_without_a_clock_is_not_looked_at(
    store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as m:
        made = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB, None, "me", None)
        assert made.ok and made.challenge_id is not None, made.text
        accepted = await m.challenges.accept(BOB, ROOM, made.challenge_id)
        assert accepted.ok and accepted.game_id is not None
        clock.advance(days=30)
        with caplog.at_level(logging.WARNING):
            assert await m.sweep() == 0
        assert _lines(caplog, accepted.game_id) == []
        assert await _status(m, accepted.game_id) is GameStatus.ACTIVE
