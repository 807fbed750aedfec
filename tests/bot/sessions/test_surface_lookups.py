"""The small look-ups the surfaces make through the session manager instead of the store: a
player's name by id, a game's chat, a game's tournament, a refused direct message remembered,
and a board answered without an outbox posting it again."""

from __future__ import annotations

import random
from pathlib import Path

from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from tests.bot.session_kit import ALICE, BOB, ROOM


async def test_the_lookups_answer_from_the_store_and_none_for_what_is_missing(
    tmp_path: Path,
) -> None:
    store = await SqliteStore.open(tmp_path / "h.db")
    try:
        m = SessionManager(store, FakeClock(), pictures=False, rng=random.Random(1))
        made = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB, {}, "me", 3)
        accepted = await m.challenges.accept(BOB, ROOM, made.challenge_id)
        game = accepted.game_id
        assert accepted.ok and game is not None, accepted.text
        alice = await m.players.player(ALICE)
        assert await m.players.player_name(alice.id) == ALICE.name
        assert await m.players.player_name(alice.id + 1000) is None
        assert await m.games.game_chat(game) == ROOM.chat_id
        assert await m.games.game_chat(game + 1000) is None
        assert await m.tournaments.tournament_of_game(game) is None
        await m.players.direct_refused(BOB)  # remembered: forgetting it finds it once
        assert await store.direct_reachable(BOB.platform, BOB.user_id) is True
        assert await store.direct_reachable(BOB.platform, BOB.user_id) is False
        async with m.posts.answering("here", None, ROOM.chat_id):
            pass  # no game: nothing claimed, nothing to mark
    finally:
        await m.close()
        await store.close()
