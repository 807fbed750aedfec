"""What the store keeps of games against the bot (issue 17): the bot's seat and level, the
games waiting for its move, and a database from before them upgraded in place."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import engines
from bot.core.notification import BOT_USER_ID
from bot.core.status import GameResult, GameStatus
from bot.ratings import Origin
from bot.storage import SqliteStore, open_store
from bot.storage.schema import MIGRATIONS
from engines.levels import Level
from tests.bot.storage.games_kit import pathagon_game

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
#: The schema version before games against the bot.
BEFORE = 3


async def test_games_waiting_for_the_bot(store_url: str) -> None:
    """(On SQLite and on PostgreSQL.)"""
    store = await open_store(store_url)
    try:
        ada = await store.player("console", "ada", "ada", NOW)
        bob = await store.player("console", "bob", "bob", NOW)
        bot = await store.player("console", BOT_USER_ID, "Hexhall bot", NOW)
        people = await store.create_game(pathagon_game(ada.id, bob.id, None, None), NOW)
        bot_first = await store.create_game(pathagon_game(bot.id, ada.id, 0, Level.HARD), NOW)
        ada_first = await store.create_game(pathagon_game(ada.id, bot.id, 1, Level.EASY), NOW)
        assert not people.against_bot and people.bot_level is None
        assert bot_first.against_bot and bot_first.bot_seat == 0
        assert bot_first.bot_level is Level.HARD and ada_first.bot_level is Level.EASY
        assert [g.id for g in await store.bot_turn_games()] == [bot_first.id]
        # Ada moves: now the bot is to move there too; the bot's move takes the game off.
        after = engines.new("pathagon").play("b2")
        moved = await store.apply_move(ada_first, "b2", 0, after.to_dict(), 1, NOW)
        assert moved is not None and moved.bot_level is Level.EASY
        assert [g.id for g in await store.bot_turn_games()] == [bot_first.id, ada_first.id]
        answer = after.play("c3")
        await store.apply_move(moved, "c3", 1, answer.to_dict(), 0, NOW)
        assert [g.id for g in await store.bot_turn_games(limit=5)] == [bot_first.id]
        # A game that is over waits for nobody.
        await store.finish_game(
            bot_first, GameStatus.FINISHED, 1, GameResult.WIN, "resignation", NOW
        )
        assert await store.bot_turn_games() == []
    finally:
        await store.close()


async def test_an_unreadable_level_sets_the_game_aside(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    store = await SqliteStore.open(path)
    try:
        ada = await store.player("console", "ada", "ada", NOW)
        bot = await store.player("console", BOT_USER_ID, "Hexhall bot", NOW)
        game = await store.create_game(pathagon_game(bot.id, ada.id, 0, Level.NORMAL), NOW)
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET bot_level = 'grandmaster' WHERE id = ?", (game.id,))
    conn.close()
    store = await SqliteStore.open(path)
    try:
        # The sweep's query leaves it out (with a log line) instead of failing for all games.
        assert await store.bot_turn_games() == []
        row = await store.get_game(game.id)
        assert row is not None and row.status == GameStatus.CORRUPT and row.bot_level is None
        assert row.corrupt_reason is not None and "bot_level" in row.corrupt_reason
    finally:
        await store.close()


async def test_a_database_from_before_bot_games_upgrades_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    for number in range(BEFORE):
        conn.executescript(
            f"BEGIN;\n{MIGRATIONS[number].sqlite}\nPRAGMA user_version = {number + 1};\nCOMMIT;"
        )
    conn.execute(
        "INSERT INTO players (id, platform, user_id, name, created_at) "
        "VALUES (1, 'console', 'ada', 'ada', '2026-01-01T00:00:00.000000Z'), "
        "(2, 'console', 'bob', 'bob', '2026-01-01T00:00:00.000000Z')"
    )
    snapshot = engines.new("pathagon").to_dict()
    conn.execute(
        "INSERT INTO games (id, game, options, seat0, seat1, platform, chat_id, status, ply, "
        "to_move, snapshot, created_at, updated_at, challenge_id) VALUES (1, 'pathagon', '{}', "
        "1, 2, 'console', 'local', 'active', 0, 0, ?, '2026-01-01T00:00:00.000000Z', "
        "'2026-01-01T00:00:00.000000Z', 7)",
        (json.dumps(snapshot),),
    )
    conn.commit()
    conn.close()
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        row = await store.get_game(1)
        assert row is not None and row.status == GameStatus.ACTIVE
        assert not row.against_bot and row.bot_level is None and row.origin is Origin.CHALLENGE
        assert await store.bot_turn_games() == []
    finally:
        await store.close()
