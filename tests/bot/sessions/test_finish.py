"""Every ending goes through bot/sessions/finish.py, each kind stating its differences: who is
told and how, the one dedupe key per player and game, whether the recap follows."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.notification import Kind, Notification
from bot.core.status import GameResult, GameStatus
from bot.messages import User
from bot.sessions import finish
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from engines import Termination
from tests.bot.session_kit import ALICE, BOB, ROOM, migrated


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[SessionManager]:
    store = await SqliteStore.open(migrated(tmp_path / "h.db"))
    try:
        yield SessionManager(store, FakeClock(), rng=random.Random(1))
    finally:
        await store.close()


async def _game(m: SessionManager, days: int | None = 3) -> int:
    made = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB, {}, "me", days)
    accepted = await m.challenges.accept(BOB, ROOM, made.challenge_id)
    assert accepted.ok and accepted.game_id is not None, accepted.text
    return accepted.game_id


async def _notes(m: SessionManager, user: User) -> list[Notification]:
    player = await m.store.find_player(user.platform, user.user_id)
    assert player is not None and player.id is not None
    return await m.store.notifications_for(player.id)


def test_each_ending_states_how_it_is_stored_and_told() -> None:
    assert [e.told for e in (finish.RESIGNATION, finish.AGREEMENT)] == [finish.Told.OPPONENT] * 2
    assert finish.TIMEOUT.told is finish.NO_FIRST_MOVE.told is finish.Told.BOTH
    assert finish.WITHDRAWAL.told is finish.Told.NOBODY
    assert finish.WITHDRAWAL.termination is finish.RESIGNATION.termination
    assert finish.NO_FIRST_MOVE.status is GameStatus.ABORTED
    assert finish.TIMEOUT.result(0) is GameResult.WIN
    assert finish.by_the_rules(Termination.ONE_GROUP).recap
    assert not any(e.recap for e in (finish.TIMEOUT, finish.NO_FIRST_MOVE, finish.WITHDRAWAL))


async def test_a_resignation_is_answered_in_the_chat_and_recapped(manager: SessionManager) -> None:
    gid = await _game(manager)
    assert (await manager.games.move(ALICE, ROOM, "d1", gid, 0)).ok
    resigned = await manager.games.resign(BOB, ROOM, gid, confirm=True)
    assert resigned.ok, resigned.text
    row = await manager.store.get_game(gid)
    assert row is not None and row.reason == Termination.RESIGNATION and row.winner == 0
    recaps = [n for n in await _notes(manager, BOB) if n.kind is Kind.RECAP]
    assert [n.dedupe for n in recaps] == [f"recap:{gid}"]
    # The opponent asked for no direct messages: the final board in the chat tells them.
    assert not [n for n in await _notes(manager, ALICE) if n.kind is Kind.GAME_OVER]


async def test_a_loss_on_time_tells_both_players_in_the_chat(manager: SessionManager) -> None:
    gid = await _game(manager, days=1)
    assert (await manager.games.move(ALICE, ROOM, "d1", gid, 0)).ok
    clock = manager.clock
    assert isinstance(clock, FakeClock)
    clock.advance(days=2)
    await manager.sweep()
    row = await manager.store.get_game(gid)
    assert row is not None and row.reason == Termination.TIMEOUT and row.winner == 0
    for user in (ALICE, BOB):
        player = await manager.store.find_player(user.platform, user.user_id)
        assert player is not None
        over = [n for n in await _notes(manager, user) if n.kind is Kind.GAME_OVER]
        assert [n.dedupe for n in over] == [finish.game_over_key(gid, player.id)]
        assert over[0].chat is not None and over[0].chat.chat_id == ROOM.chat_id
    assert not [n for n in await _notes(manager, BOB) if n.kind is Kind.RECAP]
