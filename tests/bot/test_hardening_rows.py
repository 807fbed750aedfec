"""Damaged rows (issue 14): every column the manager reads, damaged with raw SQL in a real
SQLite file, then every command that reads it: no exception, one clear line (a damaged game is
set aside and named), and the player's other game unaffected."""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.adapters.console import Console
from bot.messages import Chat, Reply, User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore, open_store
from bot.storage.sql_rows import CHALLENGE_COLUMNS, GAME_COLUMNS, MOVE_COLUMNS, PLAYER_COLUMNS
from tests.bot.session_kit import migrated, process_file

ALICE = User("console", "alice", "alice")
BOB = User("console", "bob", "bob")
CAROL = User("console", "carol", "carol")
ROOM = Chat("console", "local")
ELSEWHERE = Chat("console", "elsewhere")


def _columns(spec: str) -> list[str]:
    return [c.strip() for c in spec.split(",")]


# (table, column, where): the damaged row is game #1 (Alice v Bob in ROOM), its moves, Bob's
# player row, or the pending challenge #3 (Alice to Bob).
_WHERE = {
    "games": "id = 1",
    "players": "user_id = 'bob'",
    "challenges": "id = 3",
    "moves": "game_id = 1 AND ply = 1",
}
CASES = [
    (table, column)
    for table, spec in (
        ("games", GAME_COLUMNS),
        ("players", PLAYER_COLUMNS),
        ("challenges", CHALLENGE_COLUMNS),
        ("moves", MOVE_COLUMNS),
    )
    for column in _columns(spec)
    if (table, column) not in {("players", "id"), ("games", "id"), ("challenges", "id")}
]

# Values no version of Hexhall writes: text where a number or time belongs, a number where a
# text belongs, a blob, a missing player; the first that the column's constraints take is used.
BAD_VALUES = ("'garbage'", "X'FF00FE'", "999", "-7", "NULL")

#: Every command that reads a game, a player or a challenge (with and without an id).
COMMANDS = (
    "board",
    "board #1",
    "history #1",
    "export #1",
    "games",
    "a1",
    "move #1 b2",
    "draw #1",
    "takeback #1",
    "rematch #1",
    "resign #1 !",
    "away 2",
    "back",
    "settings",
    "settings dm off",
    "stats",
    "stats bob",
    "accept #3",
    "decline #3",
    "cancel #3",
    "as bob",
    "board #1",
    "games",
    "accept",
    "accept #3",
    "a1",
    "away 1",
    "back",
    "as alice",
)


class _Recording(Console):
    replies: list[Reply]

    async def show(self, reply: Reply) -> None:
        self.replies.append(reply)
        await super().show(reply)


async def _prepare(path: Path) -> None:
    """Make ``path`` a copy of the prepared database: two games (#1 Alice and Bob in ROOM, two
    moves played; #2 Alice and Carol elsewhere) and the pending challenge #3.  Built once per
    process (the same rows every time: a fake clock and a seeded manager) and copied."""
    prepared = process_file("rows.db")
    if not prepared.exists():
        building = process_file("rows-building.db")
        await _build(building)
        building.rename(prepared)  # only a whole database is ever copied
    shutil.copyfile(prepared, path)


async def _build(url: Path | str) -> None:
    """Prepare the database ``url`` (a new SQLite file, or an empty or migrated database on
    any backend): the rows :func:`_prepare` copies."""
    store = await open_store(migrated(url))
    try:
        m = SessionManager(store, FakeClock(), pictures=False, rng=random.Random(1))
        made = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB, {}, "me")
        assert (await m.challenges.accept(BOB, ROOM, made.challenge_id)).ok
        assert (await m.games.move(ALICE, ROOM, "a2", 1)).ok
        assert (await m.games.move(BOB, ROOM, "b5", 1)).ok
        other = await m.challenges.challenge(ALICE, ELSEWHERE, "maphex", CAROL, {}, "me")
        assert (await m.challenges.accept(CAROL, ELSEWHERE, other.challenge_id)).ok
        pending = await m.challenges.challenge(ALICE, ROOM, "isopath", BOB, {}, "me")
        assert pending.challenge_id == 3
    finally:
        await store.close()


def _damage(path: Path, table: str, column: str) -> str:
    conn = sqlite3.connect(path)
    try:
        for value in BAD_VALUES:
            try:
                conn.execute(f"UPDATE {table} SET {column} = {value} WHERE {_WHERE[table]}")
                conn.commit()
                return value
            except sqlite3.IntegrityError:
                conn.rollback()
    finally:
        conn.close()
    raise AssertionError(f"no bad value fits {table}.{column}")


@pytest.mark.parametrize(("table", "column"), CASES, ids=[f"{t}.{c}" for t, c in CASES])
def test_a_damaged_column_is_answered_in_one_line_and_spares_the_other_game(
    tmp_path: Path, table: str, column: str
) -> None:
    path = tmp_path / "h.db"

    async def run() -> None:
        await _prepare(path)
        _damage(path, table, column)
        store = await SqliteStore.open(path)
        try:
            m = SessionManager(store, FakeClock(), pictures=False, rng=random.Random(1))
            console = _Recording(m, tmp_path / "boards", player="alice")
            console.replies = []
            for line in COMMANDS:
                await console.handle(line)  # raises on any escaped exception
            for reply in console.replies:
                assert reply.text.strip(), reply
                if not reply.ok:
                    assert "\n" not in reply.text and len(reply.text) < 300, reply.text
                    assert "None" not in reply.text and "missing from" not in reply.text
            # The game in the other chat is untouched and still playable.
            board = await m.games.board(ALICE, ELSEWHERE, 2)
            assert board.ok, board.text
            row = await store.get_game(2)
            assert row is not None and row.status == "active"
        finally:
            await store.close()

    asyncio.run(run())


@pytest.mark.parametrize(
    ("sql", "line", "said"),
    [
        ("UPDATE games SET created_at = 'soon' WHERE id = 1", "history #1", "#1"),
        ("UPDATE games SET created_at = 'soon' WHERE id = 1", "export #1", "#1"),
        ("UPDATE games SET time_per_move = 'abc' WHERE id = 1", "a1", "#1"),
        ("UPDATE games SET status = 'weird' WHERE id = 1", "board #1", "#1"),
        ("UPDATE games SET status = 'weird' WHERE id = 1", "games", "#1 Pathagon: damaged"),
        ("UPDATE games SET seat1 = 999 WHERE id = 1", "games", "#1 Pathagon: damaged"),
        ("UPDATE games SET snapshot = '{' WHERE id = 1", "move b2", "#1"),
    ],
)
def test_the_damaged_game_is_named(tmp_path: Path, sql: str, line: str, said: str) -> None:
    path = tmp_path / "h.db"

    async def run() -> list[Reply]:
        await _prepare(path)
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute(sql)
        conn.commit()
        conn.close()
        store = await SqliteStore.open(path)
        try:
            m = SessionManager(store, FakeClock(), pictures=False, rng=random.Random(1))
            console = _Recording(m, tmp_path / "boards", player="alice")
            console.replies = []
            await console.handle(line)
            again = await m.games.games(ALICE)
            assert "#2 Maphex" in again.text  # the other game is listed as before
            return console.replies
        finally:
            await store.close()

    (reply,) = asyncio.run(run())
    assert said in reply.text, reply.text
    assert "no active game" not in reply.text and "None" not in reply.text


def test_a_damaged_vacation_end_blocks_no_move(tmp_path: Path) -> None:
    """An unreadable away-until time is read as "not away" (logged): moves that give that
    player the turn, their games list and ``away`` all work."""
    path = tmp_path / "h.db"

    async def run() -> list[Reply]:
        await _prepare(path)
        conn = sqlite3.connect(path)
        conn.execute("UPDATE players SET away_until = 'garbage' WHERE user_id = 'bob'")
        conn.commit()
        conn.close()
        store = await SqliteStore.open(path)
        try:
            m = SessionManager(store, FakeClock(), pictures=False, rng=random.Random(1))
            return [
                await m.games.move(ALICE, ROOM, "a1", 1),
                await m.games.games(BOB),
                await m.players.away(BOB, "2"),
            ]
        finally:
            await store.close()

    played, listed, away = asyncio.run(run())
    assert played.ok and listed.ok and away.ok, (played.text, listed.text, away.text)
