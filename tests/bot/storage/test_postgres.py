"""What is PostgreSQL's own in the store (issue 19): choosing the backend by URL, migrations
from the one list (also when two processes start together), clear errors that never show the
password; and the posts of a chat on both backends."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.config import settings
from bot.storage import (
    NewGame,
    Post,
    PostgresStore,
    PostKind,
    SqliteStore,
    StoreBusy,
    StoreError,
    open_store,
    redact_url,
    sqlite_path,
)
from bot.storage.schema import MIGRATIONS, SCHEMA_VERSION
from bot.storage.sql import SqlStore
from tests.bot.storage.raw import raw
from tests.postgres import PostgresServer

NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def with_password(url: str, password: str) -> str:
    parts = urlsplit(url)
    netloc = f"{parts.username}:{password}@{parts.hostname}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


async def test_the_url_chooses_the_backend(postgres_url: str) -> None:
    store = await open_store(postgres_url)
    try:
        assert isinstance(store, PostgresStore)
        assert await store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
    finally:
        await store.close()
    assert sqlite_path("postgres://db/hexhall") is None
    assert sqlite_path("sqlite:///hexhall.db") == "hexhall.db"
    assert sqlite_path("/var/lib/hexhall.db") == "/var/lib/hexhall.db"


async def test_an_sqlite_url_opens_that_file(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = await open_store("sqlite:///here.db")
    try:
        assert isinstance(store, SqliteStore) and store.path == "here.db"
    finally:
        await store.close()


async def test_two_processes_starting_on_an_empty_database_migrate_it_once(
    postgres_url: str,
) -> None:
    first, second = await asyncio.gather(open_store(postgres_url), open_store(postgres_url))
    try:
        assert isinstance(first, PostgresStore) and isinstance(second, PostgresStore)
        assert await raw(first, "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
        assert await second.migrate() == []  # nothing left to do
        player = await first.player("test", "1", "alice", NOW)
        assert await second.get_player(player.id) == player
    finally:
        await first.close()
        await second.close()


async def test_a_database_of_a_newer_bot_is_refused(postgres_url: str) -> None:
    store = await open_store(postgres_url)
    try:
        await raw(store, "UPDATE schema_version SET version = ?", SCHEMA_VERSION + 1)
    finally:
        await store.close()
    with pytest.raises(StoreError, match="newer than this bot"):
        await open_store(postgres_url)


async def test_a_database_that_cannot_be_reached_is_one_line_without_the_password(
    postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    closed = with_password(postgres_server.url("hexhall"), "s3cret-Pw")
    closed = closed.replace(f":{postgres_server.port}/", ":1/")  # nothing listens on port 1
    with pytest.raises(StoreError) as caught:
        await open_store(closed)
    message = str(caught.value)
    assert message.startswith("cannot open database postgresql://hexhall:***@127.0.0.1:1/")
    assert "\n" not in message and "s3cret" not in message and "s3cret" not in caplog.text
    missing = with_password(postgres_server.url("no_such_db"), "s3cret-Pw")
    with pytest.raises(StoreError, match="no_such_db") as caught:
        await open_store(missing)
    assert "s3cret" not in str(caught.value)
    assert redact_url(missing).count("***") == 1 and "s3cret" not in redact_url(missing)


async def test_a_password_in_the_url_is_used_and_never_kept(postgres_url: str) -> None:
    # The throwaway server trusts local connections, so any password is accepted.
    store = await open_store(with_password(postgres_url, "s3cret-Pw"))
    try:
        assert "s3cret" not in store.path and "***" in store.path
        assert "s3cret" not in repr(vars(store))
    finally:
        await store.close()


async def test_posts_are_remembered_retired_and_follow_a_chat_that_moves(
    store: SqlStore,
) -> None:
    alice = await store.player("test", "1", "alice", NOW)
    bob = await store.player("test", "2", "bob", NOW)

    game = await store.create_game(
        NewGame("maphex", {}, alice.id, bob.id, "test", "old", 1, {}), NOW
    )
    first = Post("test", "old", "9", PostKind.BOARD, game_id=game.id)
    second = Post("test", "old", "10", PostKind.BOARD, game_id=game.id)
    assert await store.remember_post(first, NOW) == []
    retired = await store.remember_post(second, NOW + timedelta(seconds=1))
    assert [p.message_id for p in retired] == ["9"]
    live = await store.posts_for("test", game_id=game.id, live=True)
    assert [p.message_id for p in live] == ["10"]
    every = await store.posts_for("test", game_id=game.id)
    assert [p.message_id for p in every] == ["9", "10"]
    # The chat becomes a supergroup with a new id, which numbers its messages afresh: the
    # old chat's posts stay there (retired), never taken for the new chat's message 10.
    await store.remember_post(Post("test", "new", "10", PostKind.CARD), NOW)
    moved = await store.move_chat("test", "old", "new")
    assert moved == 2  # the game and the one live post retired
    moved_game = await store.get_game(game.id)
    assert moved_game is not None and moved_game.chat_id == "new"
    rows = await raw(
        store, "SELECT chat_id, message_id, live FROM posts ORDER BY chat_id, message_id"
    )
    assert [(c, m, bool(live)) for c, m, live in rows] == [
        ("new", "10", True),
        ("old", "10", False),
        ("old", "9", False),
    ]
    assert await store.posts_for("test", game_id=game.id, live=True) == []


async def test_a_row_locked_too_long_is_store_busy_and_nothing_is_lost(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url, busy_timeout=0.05)
    try:
        alice = await store.player("test", "1", "alice", NOW)
        bob = await store.player("test", "2", "bob", NOW)
        game = await store.create_game(
            NewGame("maphex", {}, alice.id, bob.id, "test", "room", 1, {}), NOW
        )
        other = await asyncpg.connect(postgres_url)  # a stuck second process
        try:
            async with other.transaction():
                await other.execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", game.id)
                with pytest.raises(StoreBusy, match=r"^the database is busy, try again$"):
                    await store.apply_move(game, "5", 0, {"ply": 1}, 1, NOW)
        finally:
            await other.close()
        assert await store.get_game(game.id) == game  # nothing half-done
        assert await store.apply_move(game, "5", 0, {"ply": 1}, 1, NOW) is not None
    finally:
        await store.close()


def test_the_settings_never_show_the_database_password() -> None:
    config = settings({"HEXHALL_DB": "postgresql://hexhall:s3cret-Pw@db.example/hexhall"})
    assert config.db_path.endswith("@db.example/hexhall")
    assert "s3cret" not in repr(config) and "s3cret" not in str(config)
