"""The move path answers with a typed outcome (bot.outcomes) besides its words: a surface
learns what happened from ``reply.outcome``, never from the text or the buttons."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.messages import TurnRefusal
from bot.outcomes import AlreadyPlayed, Ended, Moved, NeedsConfirm, Refused, Started
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from engines import IllegalMoveCode, Termination, pathagon
from tests.bot.session_kit import ALICE, BOB, ROOM
from tests.web.kit import losing_game

#: Light joins its two edges with d7.
WINNING = "d1 a1 d2 a2 d3 a3 d4 a4 d5 a5 d6 b6".split()


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[SessionManager]:
    store = await SqliteStore.open(tmp_path / "h.db")
    try:
        yield SessionManager(store, FakeClock(), pictures=False, rng=random.Random(1))
    finally:
        await store.close()


async def _game(m: SessionManager, game: str = "pathagon", **options: object) -> int:
    made = await m.challenges.challenge(ALICE, ROOM, game, BOB, dict(options), "me", 3)
    assert made.ok, made.text
    accepted = await m.challenges.accept(BOB, ROOM, made.challenge_id)
    assert accepted.ok and accepted.game_id is not None, accepted.text
    assert accepted.outcome == Started(accepted.game_id)
    return accepted.game_id


async def test_a_move_played_is_moved_and_the_last_one_ended(manager: SessionManager) -> None:
    gid = await _game(manager)
    first = await manager.games.move(ALICE, ROOM, "D1", gid, 0)
    assert first.ok and first.outcome == Moved(gid, 1, "d1")
    for ply, move in enumerate(WINNING[1:], 1):
        answer = await manager.games.move((ALICE, BOB)[ply % 2], ROOM, move, gid, ply)
        assert answer.outcome == Moved(gid, ply + 1, move), answer.text
    won = await manager.games.move(ALICE, ROOM, "d7", gid, len(WINNING))
    assert won.ok and won.outcome == Ended(gid, len(WINNING) + 1, Termination.CONNECTION, 0)


async def test_the_same_move_again_is_already_played(manager: SessionManager) -> None:
    gid = await _game(manager)
    assert (await manager.games.move(ALICE, ROOM, "d1", gid, 0)).ok
    again = await manager.games.move(ALICE, ROOM, "d1", gid, 0)
    assert again.private and again.outcome == AlreadyPlayed(gid, 0, "d1")


async def test_refusals_carry_their_code_and_arguments(manager: SessionManager) -> None:
    gid = await _game(manager)
    assert (await manager.games.move(ALICE, ROOM, "d1", gid, 0)).ok
    taken = await manager.games.move(BOB, ROOM, "d1", gid, 1)
    assert not taken.ok and isinstance(taken.outcome, Refused)
    assert taken.outcome.code is pathagon.IllegalMoveCode.NOT_EMPTY
    assert dict(taken.outcome.arguments) == {"square": "d1"}
    empty = await manager.games.move(BOB, ROOM, " ", gid, 1)
    assert isinstance(empty.outcome, Refused) and empty.outcome.code is IllegalMoveCode.EMPTY
    not_yours = await manager.games.move(ALICE, ROOM, "a1", gid, 1)
    assert not not_yours.ok and not_yours.outcome == Refused(TurnRefusal.NOT_YOUR_TURN)


async def test_a_losing_move_needs_confirming(manager: SessionManager) -> None:
    moves, losing = losing_game()
    gid = await _game(manager, "inphexion", size=5, pie=False)
    for ply, move in enumerate(moves):
        assert (await manager.games.move((ALICE, BOB)[ply % 2], ROOM, move, gid, ply)).ok
    ply = len(moves)
    asked = await manager.games.move((ALICE, BOB)[ply % 2], ROOM, losing, gid, ply)
    assert not asked.ok and isinstance(asked.outcome, NeedsConfirm), asked.text
    assert (asked.outcome.game_id, asked.outcome.ply) == (gid, ply)
    played = await manager.games.move((ALICE, BOB)[ply % 2], ROOM, losing, gid, ply, confirm=True)
    assert played.ok and isinstance(played.outcome, Ended) and played.outcome.winner == 1 - ply % 2
