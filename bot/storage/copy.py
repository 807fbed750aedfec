"""Moving a database from one store to another (``hexhall copy-db FROM TO``): an SQLite file
to PostgreSQL when the bot outgrows one process, and back.

:func:`copy_database` copies every row of every table the bot keeps (:data:`TABLES`, in an
order that satisfies the foreign keys) from an open store into an open, empty one at the same
schema version.  Both databases have the same tables column for column
(:mod:`bot.storage.schema`), so the rows go across as they are: times as the same UTC text,
options and snapshots as the same JSON text, ids unchanged.

- All or nothing: the whole copy is one write transaction of the target.  Inside it, each
  table is read from the source in batches of :data:`BATCH` rows in primary-key order (each
  batch one read of the source), so memory stays bounded however big the database is.  A
  failure anywhere (a row the target refuses, the source gone) rolls the target back to empty.
- Never a merge: a target that holds any row of these tables is refused before anything is
  written, so copying cannot mix two communities' players and games.
- The source is read table by table, not as one snapshot: stop the bot processes on the
  source before copying (a move made during the copy may be missing from the copy).
- Leases (who does the clock sweep now) and the schema version are not copied: the target's
  own are right for it.
- In PostgreSQL each id column counts on from its identity sequence, which the copied ids do
  not move: the copy sets each sequence to the highest copied id, so new rows do not collide.
  SQLite takes the next id after the highest one by itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.dbapi import Conn
from bot.storage.errors import StoreError
from bot.storage.postgres import PostgresStore
from bot.storage.sql import SqlStore

__all__ = ["BATCH", "TABLES", "Table", "copy_database"]

#: Rows read from the source and written to the target at a time.
BATCH = 1000


@dataclass(frozen=True)
class Table:
    """A table :func:`copy_database` copies: its name, its primary key, and whether its ``id``
    is an identity column (PostgreSQL's sequence must move past the copied ids)."""

    name: str
    key: tuple[str, ...]
    identity: bool = False


#: The tables of the bot's data in foreign-key order: a row's references are copied before it
#: (games by id: a rematch refers to an earlier game).
TABLES: tuple[Table, ...] = (
    Table("players", ("id",), identity=True),
    Table("games", ("id",), identity=True),
    Table("challenges", ("id",), identity=True),
    Table("moves", ("game_id", "ply")),
    Table("away_spans", ("id",), identity=True),
    Table("notifications", ("id",), identity=True),
    Table("ratings", ("player", "platform", "community", "pool")),
    Table("rating_changes", ("game_id", "seat")),
    Table("tournaments", ("id",), identity=True),
    Table("tournament_players", ("tournament_id", "player_id")),
    Table("tournament_games", ("game_id",)),
    Table("posts", ("platform", "chat_id", "message_id")),  # a standings post: its tournament
    Table("web_links", ("game_id",)),
    Table("web_watchers", ("game_id", "worker")),
    Table("workers", ("id",)),
    Table("premoves", ("id",), identity=True),
    Table("digests", ("player_id",)),
    Table("languages", ("platform", "kind", "key")),
)

_SQLITE_COLUMNS = "SELECT name FROM pragma_table_info(?) ORDER BY cid"
_POSTGRES_COLUMNS = (
    "SELECT column_name::text AS name FROM information_schema.columns "
    "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position"
)


def _where(store: SqlStore) -> str:
    # Every store names its database in ``path`` (PostgreSQL's with the password hidden).
    return str(getattr(store, "path", "the database"))


async def _columns(store: SqlStore, table: str) -> list[str]:
    query = _POSTGRES_COLUMNS if isinstance(store, PostgresStore) else _SQLITE_COLUMNS
    rows = await store._rows(query, (table,))
    return [str(row["name"]) for row in rows]


async def _matching_columns(source: SqlStore, target: SqlStore) -> dict[str, list[str]]:
    """Each table's columns (in the source's order), refusing a table the two databases do not
    have alike."""
    columns: dict[str, list[str]] = {}
    for table in TABLES:
        have, want = await _columns(source, table.name), await _columns(target, table.name)
        if not have or not want:
            where = _where(source) if not have else _where(target)
            raise StoreError(f"cannot copy: database {where} has no table {table.name}")
        if set(have) != set(want):
            only_source = sorted(set(have) - set(want))
            only_target = sorted(set(want) - set(have))
            raise StoreError(
                f"cannot copy table {table.name}: its columns differ "
                f"(only in {_where(source)}: {', '.join(only_source) or 'none'}; "
                f"only in {_where(target)}: {', '.join(only_target) or 'none'})"
            )
        columns[table.name] = have
    return columns


def _refused(
    table: Table, names: Sequence[str], first: Sequence[Any], exc: Exception
) -> StoreError:
    # Names the table and the batch (by its first row's key): a damaged row in an SQLite file
    # (text where a number belongs) is found with it.  The driver's first line only: the rest
    # may repeat the row, players' text and all.
    key = ", ".join(f"{name} {first[names.index(name)]!r}" for name in table.key)
    detail = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
    return StoreError(
        f"cannot copy table {table.name}: the target refused a row of the batch from "
        f"{key} on ({detail}); nothing was copied"
    )


def _batch_query(table: Table, columns: Sequence[str], after: bool) -> str:
    # Keyset paging (``WHERE key > last key``), not OFFSET: every batch is an index range, so
    # the copy takes time in proportion to the rows, not to their square.
    key = ", ".join(table.key)
    where = f" WHERE ({key}) > ({', '.join('?' for _ in table.key)})" if after else ""
    return f"SELECT {', '.join(columns)} FROM {table.name}{where} ORDER BY {key} LIMIT ?"


async def copy_database(
    source: SqlStore, target: SqlStore, *, batch: int = BATCH
) -> dict[str, int]:
    """Copy every row of :data:`TABLES` from ``source`` into the empty ``target``; the rows
    copied per table (in :data:`TABLES` order).

    Raises :class:`StoreError` (nothing written to ``target``) when the two are one store,
    their schema versions differ, a table's columns differ, ``target`` already holds rows, or
    a row cannot be read or written.  Stop the bot on ``source`` first: its tables are read one
    after the other, not as one snapshot."""
    if batch < 1:
        raise ValueError(f"batch must be at least 1, not {batch}")
    if source is target:
        raise StoreError(f"cannot copy database {_where(source)} onto itself")
    have, want = await source.schema_version(), await target.schema_version()
    if have != want:
        raise StoreError(
            f"cannot copy: database {_where(source)} has schema {have}, "
            f"{_where(target)} has schema {want} (run hexhall migrate on the older one)"
        )
    columns = await _matching_columns(source, target)
    postgres = isinstance(target, PostgresStore)

    async def fetch(table: Table, last: tuple[Any, ...] | None) -> list[tuple[Any, ...]]:
        # Awaited inside the target's transaction: the source is the other store, with its
        # own connection, so the two never wait on each other.
        query = _batch_query(table, columns[table.name], last is not None)
        args = (*(last or ()), batch)
        return [tuple(row) for row in await source._rows(query, args)]

    async def copy(conn: Conn) -> dict[str, int]:
        for table in TABLES:
            if await conn.fetchrow(f"SELECT 1 FROM {table.name} LIMIT 1") is not None:
                raise StoreError(
                    f"cannot copy into database {_where(target)}: it already holds "
                    f"{table.name}; copy only into a new, empty database"
                )
        counts: dict[str, int] = {}
        for table in TABLES:
            names = columns[table.name]
            where = [names.index(name) for name in table.key]
            insert = (
                f"INSERT INTO {table.name} ({', '.join(names)}) "
                f"VALUES ({', '.join('?' for _ in names)})"
            )
            counts[table.name] = 0
            last: tuple[Any, ...] | None = None
            while True:
                rows = await fetch(table, last)
                if rows:
                    try:
                        await conn.executemany(insert, rows)
                    except OSError:  # the connection, not the row
                        raise
                    except Exception as exc:  # what the target's driver says of a bad row
                        raise _refused(table, names, rows[0], exc) from exc
                    counts[table.name] += len(rows)
                    last = tuple(rows[-1][i] for i in where)
                if len(rows) < batch:
                    break
            if postgres and table.identity and counts[table.name]:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                    f"(SELECT max(id) FROM {table.name}))"
                )
        return counts

    return await target._write(copy)
