"""The database's clock read once per write transaction (issue 48's times at no statement of
their own on a move): kept on the connection for the rest of the transaction, read again by
the next one, and never kept outside one.  On SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import datetime

from bot.storage import SqliteStore
from bot.storage.dbapi import Conn
from bot.storage.sql import SqlStore
from bot.storage.sql_base import db_clock


async def _twice(conn: Conn) -> tuple[datetime, datetime]:
    return await db_clock(conn), await db_clock(conn)


async def test_a_write_transaction_reads_the_clock_once(store: SqlStore) -> None:
    reads: list[str] = []
    if isinstance(store, SqliteStore):
        await store.trace_statements(lambda sql: reads.append(sql) if "AS now" in sql else None)
    first, again = await store._write(_twice)
    assert first == again
    later, _ = await store._write(_twice)  # the next transaction reads it again
    assert later >= first
    if isinstance(store, SqliteStore):
        await store.trace_statements(None)
        assert len(reads) == 2, reads


async def test_outside_a_transaction_each_read_reads_the_clock(store: SqlStore) -> None:
    reads: list[str] = []
    if isinstance(store, SqliteStore):
        await store.trace_statements(lambda sql: reads.append(sql) if "AS now" in sql else None)
    first, second = await store._read(_twice)
    assert second >= first
    if isinstance(store, SqliteStore):
        await store.trace_statements(None)
        assert len(reads) == 2, reads
