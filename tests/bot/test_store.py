"""The SQLite store: schema versioning, pragmas, bad paths, the outbox and the optimistic
check (issue 8, "Storage")."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.store import SCHEMA_VERSION, NewGame, Note, Store, StoreError, from_ts, to_ts

NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


async def test_schema_is_created_versioned_and_reopened_without_change(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    store = await Store.open(path)
    assert await store.schema_version() == SCHEMA_VERSION
    await store.close()
    store = await Store.open(path)  # a second start-up migrates nothing
    assert await store.schema_version() == SCHEMA_VERSION
    await store.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        columns = {r[1] for r in raw.execute("PRAGMA table_info(games)")}
    assert {"players", "games", "moves", "challenges", "notifications"} <= tables
    # What issue 9 needs is already there.
    assert {
        "time_per_move",
        "deadline_at",
        "reminder_sent_for_ply",
        "draw_offer_by",
        "takeback_by",
        "rematch_of",
    } <= columns


@pytest.mark.parametrize("kind", ["missing folder", "folder", "not a database", "newer schema"])
async def test_bad_database_path_is_a_clear_store_error(tmp_path: Path, kind: str) -> None:
    if kind == "missing folder":
        path = tmp_path / "nope" / "h.db"
    elif kind == "folder":
        path = tmp_path
    elif kind == "not a database":
        path = tmp_path / "h.db"
        path.write_bytes(b"this is not sqlite" * 100)
    else:
        path = tmp_path / "h.db"
        with sqlite3.connect(path) as raw:
            raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError) as caught:
        await Store.open(path)
    assert "database" in str(caught.value) and "\n" not in str(caught.value)


def test_timestamps_sort_as_text() -> None:
    early, late = NOW, NOW.replace(microsecond=5)
    assert to_ts(early) < to_ts(late)
    assert from_ts(to_ts(late)) == late


async def test_foreign_keys_are_enforced(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "h.db")
    try:
        with pytest.raises(sqlite3.IntegrityError):
            await store.create_game(NewGame("maphex", "{}", 98, 99, "test", "room", 1, "{}"), NOW)
    finally:
        await store.close()


async def test_move_and_its_notification_commit_together_and_race_safely(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "h.db")
    try:
        alice = await store.player("test", "1", "alice", NOW)
        bob = await store.player("test", "2", "bob", NOW)
        game = await store.create_game(
            NewGame("maphex", "{}", alice.id, bob.id, "test", "room", 1, "{}"), NOW
        )
        note = Note(alice, "your_turn", "go", NOW, game.id, dedupe=f"your_turn:{game.id}:1")
        moved = await store.apply_move(game, "5", 1, "{}", 0, NOW, [note])
        assert moved is not None and (moved.ply, moved.version) == (1, 1)
        # The same stale row again (a second process, a double click): refused, nothing added.
        assert await store.apply_move(game, "7", 1, "{}", 0, NOW, [note]) is None
        assert [m.move for m in await store.moves(game.id)] == ["5"]
        assert len(await store.notifications_for(alice.id)) == 1
        # A duplicate event key inserts nothing.
        assert await store.apply_move(moved, "e5", 0, "{}", 1, NOW, [note]) is not None
        assert len(await store.notifications_for(alice.id)) == 1
    finally:
        await store.close()


async def test_renamed_player_keeps_their_id(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "h.db")
    try:
        first = await store.player("test", "1", "alice", NOW)
        again = await store.player("test", "1", "Alice B.", NOW)
        assert again.id == first.id and again.name == "Alice B."
    finally:
        await store.close()
