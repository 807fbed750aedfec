"""One damaged row harms only its own game (issue 27): a rating that cannot be read, a game's
stored alarm, a vacation that ends before it starts.  Damaged with raw SQL on SQLite and on
PostgreSQL; the clock sweep sets the damaged game aside with one log line naming the row and
goes on for every other game; ``leaderboard`` and ``stats`` go on for everyone else; the
damaged game answers its players with a clear sentence."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from bot.core.status import GameStatus
from bot.messages import User
from bot.ratings import Pool
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import Community
from bot.storage.dbapi import to_ts
from tests.bot.session_kit import ALICE, BOB, CAROL, ROOM, finishing_moves, session
from tests.bot.storage.raw import raw

DAVE = User("test", "4", "dave")


async def _rated(m: SessionManager, first: User, second: User) -> int:
    """``first`` challenges ``second`` to a rated Pathagon game (1 day a move), it is
    accepted and ``first`` makes the first move; the game id."""
    made = await m.challenges.challenge(first, ROOM, "pathagon", second, None, "me", 1, True)
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


def _damaged_rating(store_url: str) -> str:
    """A value of ``ratings.mu`` no version of Hexhall writes: text on SQLite (a REAL column
    keeps it), not-a-number on PostgreSQL (a DOUBLE PRECISION column takes nothing else)."""
    return "'NaN'" if store_url.startswith("postgres") else "'high'"


async def test_a_damaged_rating_stops_only_its_own_game(
    store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as m:
        # Alice and Bob have ratings after one rated game; then two rated games run out of time.
        first = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB, None, "me", 1, True)
        assert first.challenge_id is not None
        done = await m.challenges.accept(BOB, ROOM, first.challenge_id)
        assert done.game_id is not None
        assert (await m.games.resign(ALICE, ROOM, done.game_id)).ok
        damaged = await _rated(m, ALICE, BOB)
        spared = await _rated(m, CAROL, DAVE)
        await raw(
            m.store,
            f"UPDATE ratings SET mu = {_damaged_rating(store_url)} WHERE player = "
            "(SELECT id FROM players WHERE user_id = ?)",
            ALICE.user_id,
        )
        clock.advance(days=2)
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            assert await m.sweep() == 1
        assert await _status(m, spared) is GameStatus.FINISHED
        assert await _status(m, damaged) is GameStatus.ACTIVE
        lines = [r.getMessage() for r in caplog.records if f"#{damaged}" in r.getMessage()]
        assert len(lines) == 1 and "ratings" in lines[0], caplog.text
        # The next round does not log it again, and still times the other games out.
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            assert await m.sweep() == 0
        assert not [r for r in caplog.records if f"#{damaged}" in r.getMessage()]
        # Its players get a clear sentence; nothing escapes.
        resigned = await m.games.resign(BOB, ROOM, damaged)
        assert not resigned.ok and f"#{damaged}" in resigned.text, resigned.text
        assert "rating" in resigned.text and "\n" not in resigned.text
        offered = await m.games.draw(BOB, ROOM, damaged)
        accepted = await m.games.draw(ALICE, ROOM, damaged, "accept")
        assert offered.ok and not accepted.ok and "rating" in accepted.text, accepted.text
        # Leaderboard and stats go on for everyone else.
        board = await m.players.leaderboard(ALICE, ROOM, "pathagon")
        assert board.ok and "bob" in board.text and "carol" in board.text, board.text
        assert "alice" not in board.text
        for who in (ALICE, BOB):
            stats = await m.players.stats(ALICE, ROOM, who)
            assert stats.ok, stats.text
        # A damaged rating change reads as not rated: history and chart go on without it.
        await raw(
            m.store,
            f"UPDATE rating_changes SET sigma = {_damaged_rating(store_url)} WHERE game_id = ?",
            done.game_id,
        )
        assert await m.store.rating_changes(done.game_id) is None
        bob = await m.store.find_player(BOB.platform, BOB.user_id)
        assert bob is not None
        here = Community(ROOM.platform, ROOM.community_id)
        assert await m.store.rating_history(bob.id, Pool("pathagon"), here) == []
        assert (await m.games.history(BOB, ROOM, done.game_id)).ok
        # Once fixed, the game's clock runs again.
        await raw(m.store, "UPDATE ratings SET mu = 25.0 WHERE mu <> mu OR sigma > 0")
        assert await m.sweep() == 1
        assert await _status(m, damaged) is GameStatus.FINISHED


async def test_a_damaged_alarm_is_worked_out_again(
    store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as m:
        damaged = await _rated(m, ALICE, BOB)
        spared = await _rated(m, CAROL, DAVE)
        await raw(m.store, "UPDATE games SET alarm_at = 'garbage' WHERE id = ?", damaged)
        clock.advance(days=2)
        with caplog.at_level(logging.WARNING):
            assert await m.sweep() == 2
        assert await _status(m, damaged) is GameStatus.FINISHED
        assert await _status(m, spared) is GameStatus.FINISHED
        lines = [r.getMessage() for r in caplog.records if f"#{damaged}" in r.getMessage()]
        assert len(lines) == 1 and "alarm_at" in lines[0], caplog.text


async def test_a_vacation_ending_before_it_starts_is_left_out(
    store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as m:
        gid = await _rated(m, ALICE, BOB)
        now = clock.now()
        await raw(
            m.store,
            "INSERT INTO away_spans (player_id, start_at, end_at) "
            "SELECT id, ?, ? FROM players WHERE user_id = ?",
            to_ts(now - timedelta(days=1)),
            to_ts(now - timedelta(days=3)),
            BOB.user_id,
        )
        with caplog.at_level(logging.WARNING):
            away = await m.players.away(BOB, "2")
            back = await m.players.back(BOB)
        assert away.ok, away.text
        assert back.ok, back.text
        assert [r for r in caplog.records if "away_spans" in r.getMessage()], caplog.text
        assert await _status(m, gid) is GameStatus.ACTIVE


async def test_the_sweep_sets_a_damaged_game_aside_and_times_out_the_others(
    store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as m:
        damaged = await _rated(m, ALICE, BOB)
        spared = await _rated(m, CAROL, DAVE)
        await raw(m.store, "UPDATE games SET options = 'garbage' WHERE id = ?", damaged)
        clock.advance(days=2)
        with caplog.at_level(logging.WARNING):
            assert await m.sweep() == 1
        assert await _status(m, spared) is GameStatus.FINISHED
        assert await _status(m, damaged) is GameStatus.CORRUPT
        assert any(f"#{damaged}" in r.getMessage() for r in caplog.records), caplog.text
        told = await m.games.board(ALICE, ROOM, damaged)
        assert not told.ok and f"#{damaged}" in told.text and "set aside" in told.text
