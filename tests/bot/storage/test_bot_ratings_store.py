"""What the store keeps of the bot's level ratings (issue 49): each level's rating per pool,
moved in the transaction that ends a game against the bot, from the measured one when the
store has none; a database from before them upgraded in place.  On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.core.notification import BOT_USER_ID
from bot.core.status import GameResult, GameStatus
from bot.ratings import Pool, Rating, Result, update
from bot.storage import BotRatedEnd, Community, SqliteStore, SqlStore, StoreError
from bot.storage.schema import MIGRATIONS
from engines.levels import Level
from tests.bot.storage.games_kit import pathagon_game

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
PATHAGON = Pool("pathagon")
#: A measured start (as ``bot/level_ratings.json`` would give it).
MEASURED = Rating(mu=31.0, sigma=4.0, games=20)


async def test_ending_games_against_the_bot_moves_its_level(store: SqlStore) -> None:
    ada = await store.player("console", "ada", "ada", NOW)
    bot = await store.player("console", BOT_USER_ID, "Hexhall bot", NOW)
    assert await store.bot_ratings() == {}
    theirs = Rating(mu=27.0, sigma=6.0, games=4)
    first = await store.create_game(pathagon_game(ada.id, bot.id, 1, Level.HARD), NOW)
    end = BotRatedEnd(PATHAGON, Level.HARD, theirs, Result.A_WINS, MEASURED)
    done = await store.finish_game(
        first, GameStatus.FINISHED, 1, GameResult.WIN, "resignation", NOW, rating=end
    )
    assert done is not None
    won, _ = update(MEASURED, theirs, Result.A_WINS)
    assert await store.bot_ratings() == {(PATHAGON, Level.HARD): won}
    # Two games ending at once each move it in turn, from what the other one stored.
    games = [
        await store.create_game(pathagon_game(bot.id, ada.id, 0, Level.HARD), NOW) for _ in range(2)
    ]
    lost = BotRatedEnd(PATHAGON, Level.HARD, theirs, Result.B_WINS, MEASURED)
    await asyncio.gather(
        *(
            store.finish_game(g, GameStatus.FINISHED, 1, GameResult.WIN, "resignation", NOW,
                              rating=lost)
            for g in games
        )
    )  # fmt: skip
    once, _ = update(won, theirs, Result.B_WINS)
    twice, _ = update(once, theirs, Result.B_WINS)
    assert await store.bot_ratings() == {(PATHAGON, Level.HARD): twice}
    # Nothing of the player's: no rating, no rating change.
    assert await store.ratings_of(ada.id, Community("console", "local")) == {}
    assert await store.rating_changes(first.id) is None


async def test_a_rating_for_another_level_is_refused_and_nothing_is_written(
    store: SqlStore,
) -> None:
    ada = await store.player("console", "ada", "ada", NOW)
    bot = await store.player("console", BOT_USER_ID, "Hexhall bot", NOW)
    game = await store.create_game(pathagon_game(ada.id, bot.id, 1, Level.EASY), NOW)
    wrong = BotRatedEnd(PATHAGON, Level.HARD, Rating(), Result.A_WINS, MEASURED)
    with pytest.raises(StoreError):
        await store.finish_game(
            game, GameStatus.FINISHED, 1, GameResult.WIN, "resignation", NOW, rating=wrong
        )
    row = await store.get_game(game.id)
    assert row is not None and row.status == GameStatus.ACTIVE
    assert await store.bot_ratings() == {}


async def test_a_database_from_before_gets_the_table(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    with sqlite3.connect(path) as conn:
        for number in range(len(MIGRATIONS) - 1):
            conn.executescript(
                f"BEGIN;\n{MIGRATIONS[number].sqlite}\nPRAGMA user_version = {number + 1};\nCOMMIT;"
            )
    conn.close()
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        assert await store.bot_ratings() == {}
    finally:
        await store.close()
