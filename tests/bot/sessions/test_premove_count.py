"""What a game's row knows of its conditional moves (``games.premove_lines``, schema 18): how
many lines it keeps, kept by every write of them, so a move in a game without lines neither
reads nor drops any (the statement budget of a move: tests/adapters/test_telegram_statements.py)
while a game with lines still plays them, even when another process prepared them after this
one cached the game's row.  On SQLite and on PostgreSQL."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import open_store
from bot.storage.schema import MIGRATIONS
from tests.bot.session_kit import ALICE, BOB, ROOM, session
from tests.bot.sessions.test_premoves import DM, pathagon, typed
from tests.bot.storage.raw import raw


async def _count(m: SessionManager, game_id: int) -> tuple[int, int]:
    """(the row's count, the lines actually kept) of the game."""
    ((counted,),) = await raw(m.store, "SELECT premove_lines FROM games WHERE id = ?", game_id)
    ((kept,),) = await raw(m.store, "SELECT count(*) FROM premoves WHERE game_id = ?", game_id)
    return int(counted), int(kept)


async def test_every_write_of_the_lines_keeps_the_count(store_url: str) -> None:
    async with session(store_url, FakeClock()) as m:
        gid = await pathagon(m)
        assert await _count(m, gid) == (0, 0)
        assert (await typed(m, ALICE, f"premove #{gid} b1 => c1", DM)).ok
        assert (await typed(m, ALICE, f"premove #{gid} b2 => c2 ; c3 => d1", DM)).ok
        assert await _count(m, gid) == (2, 2)
        row = await m.store.get_game(gid)
        assert row is not None and row.premove_lines == 2
        assert "premove_lines" not in repr(row)  # nothing printed of a game hints at them
        assert (await typed(m, ALICE, f"premove #{gid} clear", DM)).ok
        assert await _count(m, gid) == (0, 0)
        # A move off every line drops them all.
        assert (await typed(m, ALICE, f"premove #{gid} b1 => c1", DM)).ok
        assert (await m.games.move(BOB, ROOM, "b3", gid)).ok
        assert await _count(m, gid) == (0, 0)


async def test_a_reply_played_keeps_the_count_of_the_lines_going_on(store_url: str) -> None:
    async with session(store_url, FakeClock()) as m:
        gid = await pathagon(m)
        line = f"premove #{gid} b1 => c1 ; b2 => c2"
        assert (await typed(m, ALICE, line, DM)).ok
        assert (await typed(m, ALICE, f"premove #{gid} b3 => c3", DM)).ok
        answer = await m.games.move(BOB, ROOM, "b1", gid)
        assert answer.ok and "replied c1 (prepared)" in answer.text, answer.text
        assert await _count(m, gid) == (1, 1)  # the first line goes on; the other is gone
        answer = await m.games.move(BOB, ROOM, "b2", gid)
        assert answer.ok and "replied c2 (prepared)" in answer.text, answer.text
        assert await _count(m, gid) == (0, 0)


@asynccontextmanager
async def _two(url: str) -> AsyncIterator[tuple[SessionManager, SessionManager]]:
    """Two managers on the database ``url``, each with its own store and its own cache."""
    first, second = await open_store(url), await open_store(url)
    clock = FakeClock()
    try:
        yield (
            SessionManager(first, clock, pictures=False, rng=random.Random(1)),
            SessionManager(second, clock, pictures=False, rng=random.Random(2)),
        )
    finally:
        await first.close()
        await second.close()


async def test_a_line_prepared_in_another_process_is_played(store_url: str) -> None:
    async with _two(store_url) as (here, there):
        gid = await pathagon(here)  # here caches the game's row: no lines
        assert (await typed(there, ALICE, f"premove #{gid} b1 => c1", DM)).ok
        # Here's cached row counted none: its move is judged again on the stored row, and the
        # prepared reply is played in the same transaction.
        answer = await here.games.move(BOB, ROOM, "b1", gid)
        assert answer.ok and "replied c1 (prepared)" in answer.text, answer.text
        assert await _count(here, gid) == (0, 0)
        row = await here.store.get_game(gid)
        assert row is not None and row.ply == 3


async def test_the_migration_counts_the_lines_already_kept(tmp_path: Path) -> None:
    """A database from before schema 18 keeping lines: they are counted when it migrates (on
    SQLite; PostgreSQL runs the same two statements)."""
    path = str(tmp_path / "old.db")
    async with session(path, FakeClock()) as m:
        gid = await pathagon(m)
        assert (await typed(m, ALICE, f"premove #{gid} b1 => c1", DM)).ok
        assert (await typed(m, ALICE, f"premove #{gid} b2 => c2", DM)).ok
    with sqlite3.connect(path) as old:  # back to schema 17: the column was not there
        old.executescript(
            "ALTER TABLE games DROP COLUMN premove_lines; DROP TABLE bot_ratings; "
            "PRAGMA user_version = 17;"
        )
    store = await open_store(path)
    try:
        assert store.migrated == tuple(range(18, len(MIGRATIONS) + 1))
        row = await store.get_game(gid)
        assert row is not None and row.premove_lines == 2
    finally:
        await store.close()
