"""Damaged rows on both databases (issue 27): every text column of the games, players,
challenges and moves a command reads, damaged with raw SQL on SQLite and on PostgreSQL, then
every command of :mod:`tests.bot.test_hardening_rows`: no exception, one clear line, and the
player's game in the other chat untouched.  (The SQLite-only matrix there damages every column
with every kind of value; PostgreSQL's types let only text columns hold a damaged text.)"""

from __future__ import annotations

import itertools
import os
import random
from pathlib import Path

import pytest

from bot.messages import Reply
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import open_store
from bot.storage.sql_rows import CHALLENGE_COLUMNS, GAME_COLUMNS, MOVE_COLUMNS, PLAYER_COLUMNS
from tests.bot.storage.raw import raw
from tests.bot.test_hardening_rows import (
    ALICE,
    COMMANDS,
    ELSEWHERE,
    _build,
    _prepare,
    _Recording,
)
from tests.postgres import PostgresServer

_WHERE = {
    "games": "id = 1",
    "players": "user_id = 'bob'",
    "challenges": "id = 3",
    "moves": "game_id = 1 AND ply = 1",
}
#: The columns the manager reads that are text on both databases (times, JSON, enums, names).
TEXT = {
    "games": (
        "game options platform chat_id status snapshot result reason created_at updated_at "
        "finished_at deadline_at corrupt_reason origin community bot_level"
    ),
    "players": "platform name created_at away_until",
    "challenges": (
        "platform chat_id game options first status created_at expires_at closed_at community "
        "target_name"
    ),
    "moves": "move played_at",
}
_READ = {"games": GAME_COLUMNS, "players": PLAYER_COLUMNS, "challenges": CHALLENGE_COLUMNS}
_READ["moves"] = MOVE_COLUMNS
CASES = [(table, column) for table, columns in TEXT.items() for column in columns.split()]


def test_the_cases_are_columns_the_manager_reads() -> None:
    for table, column in CASES:
        assert column in [c.strip() for c in _READ[table].split(",")], (table, column)


#: The name of this process's PostgreSQL database prepared by :func:`_build` (made once).
_postgres_prepared: list[str] = []
_numbers = itertools.count(1)


@pytest.fixture(params=["sqlite", "postgres"])
async def prepared_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A copy of the prepared database of :mod:`tests.bot.test_hardening_rows` (game #1 Alice
    and Bob, two moves; #2 Alice and Carol elsewhere; pending challenge #3), built once per
    process and backend: an SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        path = tmp_path / "h.db"
        await _prepare(path)
        return str(path)
    server: PostgresServer = request.getfixturevalue("postgres_server")
    if not _postgres_prepared:
        template: str = request.getfixturevalue("postgres_template")
        name = f"prepared_{os.getpid()}"
        await _build(server.create_database(name, template=template))
        _postgres_prepared.append(name)
    return server.create_database(f"damaged_{os.getpid()}_{next(_numbers)}", _postgres_prepared[0])


@pytest.mark.parametrize(("table", "column"), CASES, ids=[f"{t}.{c}" for t, c in CASES])
async def test_a_damaged_text_column_harms_only_its_own_game(
    prepared_url: str, tmp_path: Path, table: str, column: str
) -> None:
    store = await open_store(prepared_url)
    try:
        await raw(store, f"UPDATE {table} SET {column} = 'garbage' WHERE {_WHERE[table]}")
        m = SessionManager(store, FakeClock(), pictures=False, rng=random.Random(1))
        console = _Recording(m, tmp_path / "boards", player="alice")
        console.replies = []
        for line in COMMANDS:
            await console.handle(line)  # raises on any escaped exception
        replies: list[Reply] = console.replies
        for reply in replies:
            assert reply.text.strip(), reply
            if not reply.ok:
                assert "\n" not in reply.text and len(reply.text) < 300, reply.text
                assert "None" not in reply.text and "missing from" not in reply.text
        board = await m.games.board(ALICE, ELSEWHERE, 2)
        assert board.ok, board.text
        row = await store.get_game(2)
        assert row is not None and row.status == "active"
    finally:
        await store.close()
