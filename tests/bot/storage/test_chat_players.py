"""The players of a chat's live games, for a group that removed the bot (issue 26): every
active game there, both its players, and whether a direct message may reach each (the
platform never refused one); on SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.core.status import GameResult, GameStatus
from bot.storage import GameRow, NewGame, SqlStore

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def test_chat_players_lists_the_live_games_players_and_who_can_be_reached(
    store: SqlStore,
) -> None:
    alice = await store.player("telegram", "1", "Alice", NOW)
    bob = await store.player("telegram", "2", "Bob", NOW)
    carol = await store.player("telegram", "3", "Carol", NOW)

    async def game(a: int, b: int, chat: str) -> GameRow:
        new = NewGame("maphex", {"size": 5}, a, b, "telegram", chat, 0, {"ply": 0})
        return await store.create_game(new, NOW)

    first = (await game(alice.id, bob.id, "-5")).id
    second = (await game(carol.id, alice.id, "-5")).id
    await game(alice.id, carol.id, "-6")  # another chat
    ended = await game(bob.id, carol.id, "-5")
    await store.finish_game(ended, GameStatus.FINISHED, 0, GameResult.WIN, "resignation", NOW)
    await store.direct_refused(carol.id, NOW + timedelta(seconds=1))
    rows = await store.chat_players("telegram", "-5")
    assert rows == [
        (first, "1", "Alice", True),
        (first, "2", "Bob", True),
        (second, "1", "Alice", True),
        (second, "3", "Carol", False),
    ]
    assert await store.chat_players("telegram", "-7") == []
