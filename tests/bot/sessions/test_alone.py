"""A move that names no game goes straight to the one active game this process knows of in the
chat, the store checking in the same write that it is still the player's only one there: two
managers on one SQLite file (two bot processes) show that a game the first does not know of
makes it answer exactly as when it reads the chat's games first."""

from __future__ import annotations

import random
from pathlib import Path

from bot.messages import NeedKind
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from tests.bot.session_kit import ALICE, BOB, CAROL, ROOM


async def _game(m: SessionManager, first: str = "me") -> int:
    made = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB, {}, first, 3)
    assert made.ok, made.text
    accepted = await m.challenges.accept(BOB, ROOM, made.challenge_id)
    assert accepted.ok and accepted.game_id is not None, accepted.text
    return accepted.game_id


async def test_a_game_only_another_process_knows_makes_a_bare_move_ask_which(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    path = tmp_path / "h.db"
    one, two = await SqliteStore.open(path), await SqliteStore.open(path)
    try:
        here = SessionManager(one, clock, pictures=False, rng=random.Random(1))
        there = SessionManager(two, clock, pictures=False, rng=random.Random(1))
        first = await _game(here)
        played = await here.games.move(ALICE, ROOM, "a1")
        assert played.ok and played.game_id == first, played.text
        # Another process starts a second game for Alice in the same chat.
        made = await there.challenges.challenge(CAROL, ROOM, "pathagon", ALICE, {}, "them", 3)
        second = await there.challenges.accept(ALICE, ROOM, made.challenge_id)
        assert second.ok and second.game_id not in (None, first)
        # Bob's bare move: his only game here, still (Alice's second game is not his).
        assert (await here.games.move(BOB, ROOM, "g7")).ok
        # Alice has two active games here now: a bare move names neither, as before.
        asked = await here.games.move(ALICE, ROOM, "b2")
        assert not asked.ok and "which one?" in asked.text, asked.text
        assert asked.need is not None and asked.need.kind is NeedKind.GAME
        # Nothing was written to the first game by the refused move.
        row = await one.get_game(first)
        assert row is not None and row.ply == 2
    finally:
        await one.close()
        await two.close()


async def test_a_bare_move_in_the_only_game_is_played_and_refusals_read_as_before(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    store = await SqliteStore.open(tmp_path / "h.db")
    try:
        m = SessionManager(store, clock, pictures=False, rng=random.Random(1))
        gid = await _game(m)
        illegal = await m.games.move(ALICE, ROOM, "zz99")
        assert not illegal.ok and f"#{gid}" in illegal.text, illegal.text
        early = await m.games.move(BOB, ROOM, "a1")
        assert not early.ok and "turn" in early.text.lower(), early.text
        played = await m.games.move(ALICE, ROOM, "a1")
        assert played.ok and played.game_id == gid, played.text
        row = await store.get_game(gid)
        assert row is not None and row.ply == 1
    finally:
        await store.close()
