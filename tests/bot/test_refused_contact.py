"""A refused command leaves nothing behind (issue 27): it does not create the acting player
nor rewrite their display name; an answered one does both.  On SQLite and on PostgreSQL."""

from __future__ import annotations

from bot.messages import User
from tests.bot.session_kit import ALICE, BOB, ROOM, session

DAVE = User("test", "4", "dave")


async def test_a_refused_command_creates_no_player_and_renames_no_one(store_url: str) -> None:
    async with session(store_url) as m:
        assert not (await m.games.board(DAVE, ROOM)).ok  # no game here
        assert not (await m.challenges.challenge(DAVE, ROOM, "chess", BOB)).ok  # no such game
        assert await m.store.find_player(DAVE.platform, DAVE.user_id) is None
        assert await m.store.find_player(BOB.platform, BOB.user_id) is None
        assert (await m.games.games(ALICE)).ok  # answered: Alice is a player now
        renamed = User(ALICE.platform, ALICE.user_id, "Mallory")
        assert not (await m.games.move(renamed, ROOM, "a1")).ok
        alice = await m.store.find_player(ALICE.platform, ALICE.user_id)
        assert alice is not None and alice.name == "alice"
        assert (await m.games.games(renamed)).ok
        alice = await m.store.find_player(ALICE.platform, ALICE.user_id)
        assert alice is not None and alice.name == "Mallory"
        # A refused command after an answered one keeps the player.
        assert not (await m.games.board(renamed, ROOM)).ok
        assert await m.store.find_player(ALICE.platform, ALICE.user_id) is not None
