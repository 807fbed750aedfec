"""Repeats are quiet (issue 24): a move the store has already applied (a double tap, an
update retried by another process, a stale preview's Play it) is answered for the repeater
alone and queues nothing; a board asked for by someone not playing is for them alone.  Two
managers on one database stand for two processes: the second never saw the first's move in
memory, so what it decides comes from the store.  Both databases."""

from __future__ import annotations

import asyncio
import socket
import sys

import engines
from bot.delivery.outbox import LEASE
from bot.messages import User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from tests.bot.session_kit import ALICE, BOB, CAROL, ROOM, session, start_game


async def _notes(manager: SessionManager, *users: User) -> int:
    """How many notifications the users have, queued or delivered."""
    count = 0
    for user in users:
        player = await manager.players.player(user)
        count += len(await manager.store.notifications_for(player.id))
    return count


async def test_a_move_applied_by_another_process_is_answered_privately(store_url: str) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as first, session(store_url, clock) as second:
        game_id, _ = await start_game(first, "pathagon")
        # The second process has the game in memory as it was before the move.
        assert (await second.games.board(ALICE, ROOM, game_id)).ok
        move = engines.new("pathagon").legal_moves()[0]
        played = await first.games.move(ALICE, ROOM, move, game_id, expected_ply=0)
        assert played.ok and not played.private and played.image is None
        before = await _notes(first, ALICE, BOB)

        # The same press retried through the other process, with and without its ply.
        for again in (
            await second.games.move(ALICE, ROOM, move, game_id, expected_ply=0),
            await second.games.move(ALICE, ROOM, move, game_id),
            await first.games.move(ALICE, ROOM, move, game_id),
        ):
            assert again.ok and again.private
            assert again.text == f"#{game_id} Pathagon, move 1: you already played {move}."
        assert await _notes(first, ALICE, BOB) == before

        # Another move at that ply by the same player is no repeat: refused as stale.
        other = engines.new("pathagon").legal_moves()[1]
        stale = await second.games.move(ALICE, ROOM, other, game_id, expected_ply=0)
        assert not stale.ok and not stale.private


async def test_a_board_for_someone_not_playing_is_theirs_alone(store_url: str) -> None:
    async with session(store_url) as manager:
        game_id, _ = await start_game(manager, "pathagon")
        looked = await manager.games.board(CAROL, ROOM, game_id)
        assert looked.ok and looked.private and looked.game_id == game_id
        for player in (ALICE, BOB):
            shown = await manager.games.board(player, ROOM, game_id)
            assert shown.ok and not shown.private


async def test_a_repeat_answers_with_the_board_when_its_first_answer_died(
    store_url: str,
) -> None:
    """The process that stored the move died answering it (its committed board is still
    claimed by it, and it is gone): the update sent again is answered with the board, for
    everyone, once; otherwise a repeat stays quiet."""
    dead = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    assert await dead.wait() == 0
    pid = dead.pid
    ghost = f"{socket.gethostname()}:{pid}:dead"
    async with session(store_url) as manager:
        game_id, _ = await start_game(manager, "pathagon")
        move = engines.new("pathagon").legal_moves()[0]
        assert (await manager.games.move(ALICE, ROOM, move, game_id)).ok
        store = manager.store
        claimed = await store.claim_boards(game_id, ROOM.chat_id, ghost, manager.now(), LEASE)
        assert claimed, "the move's board is committed with it"
        # Claimed by a worker with no heartbeat on record: maybe alive, so quiet.
        assert (await manager.games.move(ALICE, ROOM, move, game_id)).private
        await store.beat(ghost, socket.gethostname(), pid)  # it beat here; its process ended
        again = await manager.games.move(ALICE, ROOM, move, game_id)
        assert again.ok and not again.private and f"played {move}" in again.text
