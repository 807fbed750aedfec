"""The PostgreSQL store: :class:`PostgresStore`, the shared SQL of :class:`~bot.storage.sql.
SqlStore` on a PostgreSQL database through asyncpg, for any number of bot processes at once.

How it works:

- A pool of asyncpg connections.  Each call of the store takes one connection and runs the
  same ``async`` function of the shared SQL the SQLite store runs, with a :class:`_Connection`
  on it: each statement is awaited on asyncpg, on the event loop.  So one body of SQL and one
  set of row readers serve both databases.
- ``?`` placeholders become ``$1, $2, ...`` (:func:`translate`, the one place the two SQL
  dialects differ in how a statement is written); asyncpg prepares and caches each statement
  per connection.
- A write is one transaction (``BEGIN`` ... ``COMMIT``, READ COMMITTED); a read that needs
  one snapshot of several tables is REPEATABLE READ, READ ONLY.  Between processes:
  the version check in each ``UPDATE games`` lets one of two racing moves through (the other
  row lock waits, then finds the version moved on); claims of notifications skip rows another
  worker has locked (``FOR UPDATE SKIP LOCKED``); the pending-challenge count locks the
  challenger's row first.  A deadlock or a serialization failure is :class:`StoreBusy` (nothing
  was written; try again).
- The schema version is the one row of ``schema_version``; the missing migrations of
  :mod:`bot.storage.schema` are applied when the store opens, under an advisory lock so two
  processes starting together do not both apply them.
- The URL's password never reaches a log line or an error: :func:`redact_url`.

>>> translate("SELECT a FROM t WHERE b = ? AND c = 'what?' AND d IN (?, ?)")
"SELECT a FROM t WHERE b = $1 AND c = 'what?' AND d IN ($2, $3)"
>>> redact_url("postgresql://hexhall:s3cret@db.example:5432/hexhall")
'postgresql://hexhall:***@db.example:5432/hexhall'
>>> redact_url("postgresql://db.example/hexhall?user=hexhall&password=s3cret&sslmode=require")
'postgresql://db.example/hexhall?user=hexhall&password=***&sslmode=require'
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.storage.dbapi import Conn, Row
from bot.storage.errors import StoreBusy, StoreError, StoreUnavailable
from bot.storage.full import FullAlarm
from bot.storage.schema import MIGRATIONS, SCHEMA_VERSION
from bot.storage.sql import SqlStore

__all__ = ["PostgresStore", "is_postgres_url", "redact_url", "translate"]

log = logging.getLogger(__name__)

#: Default busy timeout: how long a statement waits for another process's row lock.
BUSY_TIMEOUT = 10.0

#: Connections per process: enough for the adapters, the outbox workers
#: and the sweeper to wait on the database side by side.
POOL_SIZE = 8

# Failures that mean "not now" rather than "never": nothing was written, the caller may retry.
_BUSY = (
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.LockNotAvailableError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.QueryCanceledError,
)


def is_postgres_url(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database (``postgresql://`` or ``postgres://``)."""
    return url.strip().lower().startswith(("postgresql://", "postgres://"))


def redact_url(url: str) -> str:
    """``url`` with its password shown as ``***`` (for logs and error messages)."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if parts.password is not None:
            user = parts.username or ""
            host = parts.hostname or ""
            port = f":{parts.port}" if parts.port is not None else ""
            netloc = f"{user}:***@{host}{port}"
    except ValueError:
        return "a database URL that cannot be read"
    # libpq also takes the password as a query parameter.
    query = re.sub(r"(?i)(^|&)(password=)[^&]*", r"\1\2***", parts.query)
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> str:
    """The store's SQL with ``?`` placeholders numbered for PostgreSQL (``$1``, ``$2``, ...);
    a ``?`` inside a quoted literal stays as it is."""
    out: list[str] = []
    number = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
        else:
            out.append(char)
    return "".join(out)


def _count(status: str) -> int:
    # asyncpg's status of a statement: "UPDATE 3", "DELETE 0", "INSERT 0 1".
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def postgres_time(ahead: timedelta = timedelta(0)) -> str:
    """PostgreSQL's expression for the server's clock (``now()``: the transaction's start)
    ``ahead`` of now, as the stored text of a time."""
    seconds = ahead.total_seconds()
    return (
        f"to_char((now() + interval '{seconds:.6f} seconds') AT TIME ZONE 'UTC', "
        """'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"""
    )


class _Connection:
    """The :class:`~bot.storage.dbapi.Conn` of the PostgreSQL store: each statement awaited on
    the asyncpg connection the store took from its pool for this call."""

    now_sql = postgres_time()

    def __init__(self, conn: asyncpg.pool.PoolConnectionProxy[asyncpg.Record]) -> None:
        self.tx_clock: datetime | None = None
        self._writing = False
        self._conn = conn

    async def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> int:
        return _count(await self._conn.execute(translate(sql), *parameters))

    async def fetch(self, sql: str, parameters: Sequence[Any] = (), /) -> list[Row]:
        return list(await self._conn.fetch(translate(sql), *parameters))

    async def fetchrow(self, sql: str, parameters: Sequence[Any] = (), /) -> Row | None:
        row: Row | None = await self._conn.fetchrow(translate(sql), *parameters)
        return row

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> None:
        await self._conn.executemany(translate(sql), list(parameters))

    def keep_clock(self, when: datetime) -> None:
        if self._writing:
            self.tx_clock = when

    @asynccontextmanager
    async def transaction(self, *, readonly: bool = False) -> AsyncIterator[None]:
        # A write is READ COMMITTED (the version checks in the UPDATEs settle races); a read
        # of several tables wants one snapshot.
        if readonly:
            async with self._conn.transaction(isolation="repeatable_read", readonly=True):
                yield
        else:
            self.tx_clock, self._writing = None, True
            try:
                async with self._conn.transaction():
                    yield
            finally:
                self.tx_clock, self._writing = None, False


class PostgresStore(SqlStore):
    """The PostgreSQL store.  Open with ``await PostgresStore.open(url)``; close with
    :meth:`close`."""

    SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"

    def db_time(self, ahead: timedelta = timedelta(0)) -> str:
        """The database server's clock (``now()``: the transaction's start) ``ahead`` of now,
        as the stored text of a time (see :meth:`SqlBase.db_time`)."""
        return postgres_time(ahead)

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        #: The database, with its password hidden.
        self.path = redact_url(url)
        self._alarm = FullAlarm(self.path)

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        pool_size: int = POOL_SIZE,
        migrate: bool = True,
        busy_timeout: float = BUSY_TIMEOUT,
    ) -> PostgresStore:
        """Connect to the database at ``url`` and (``migrate``) apply missing migrations.

        ``busy_timeout`` (seconds) is how long a statement waits for a row another process has
        locked before :class:`StoreBusy` is raised (PostgreSQL's ``lock_timeout``).  Raises
        :class:`StoreError` with a one-line message (the password hidden) if the database
        cannot be used."""
        where = redact_url(url)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                command_timeout=60,
                server_settings={"lock_timeout": str(max(1, int(busy_timeout * 1000)))},
                reset=_keep_session,
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            raise StoreError(f"cannot open database {where}: {_reason(exc, url)}") from None
        store = cls(pool, url)
        try:
            if migrate:
                store.migrated = tuple(await store.migrate())
            elif await store.schema_version() != SCHEMA_VERSION:
                raise StoreError(
                    f"database {where} has schema {await store.schema_version()}, "
                    f"this bot needs {SCHEMA_VERSION}: run hexhall migrate"
                )
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Close every connection of the pool."""
        await self._pool.close()

    async def schema_version(self) -> int:
        """The schema version of the database (0 for an empty one)."""
        try:
            async with self._pool.acquire() as conn:
                return int(await conn.fetchval(_VERSION) or 0)
        except asyncpg.PostgresError as exc:
            raise StoreError(f"the database refused the question: {exc}") from None

    async def migrate(self) -> list[int]:
        """Apply the missing migrations, each in one transaction; the versions reached."""
        applied = []
        try:
            async with self._pool.acquire() as conn:
                async with conn.transaction():
                    # Locked first: two CREATE TABLE IF NOT EXISTS at once may both try.
                    await conn.execute(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
                    await conn.execute(
                        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
                    )
                for number in range(SCHEMA_VERSION):
                    async with conn.transaction():
                        # Two processes starting together: the second waits here, then finds
                        # the step done.
                        await conn.execute(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
                        version = int(await conn.fetchval(_VERSION) or 0)
                        if version > SCHEMA_VERSION:
                            raise StoreError(
                                f"database {self.path} has schema {version}, newer than this "
                                f"bot ({SCHEMA_VERSION}): upgrade Hexhall"
                            )
                        if version != number:
                            continue
                        if MIGRATIONS[number].postgres.strip():
                            await conn.execute(MIGRATIONS[number].postgres)
                        await conn.execute("DELETE FROM schema_version")
                        await conn.execute(
                            "INSERT INTO schema_version (version) VALUES ($1)", number + 1
                        )
                        applied.append(number + 1)
        except asyncpg.PostgresError as exc:
            raise StoreError(f"cannot migrate database {self.path}: {exc}") from None
        return applied

    @asynccontextmanager
    async def _lend(self) -> AsyncIterator[Conn]:
        try:
            async with self._pool.acquire() as conn:
                yield _Connection(conn)
        except (*_BUSY, TimeoutError):
            raise StoreBusy() from None
        except asyncpg.PostgresError as exc:
            # The first line only: PostgreSQL's DETAIL repeats the row, players' text and all.
            if getattr(exc, "sqlstate", None) == DISK_FULL:
                raise self._alarm.full(_first_line(exc)) from exc
            raise StoreUnavailable(f"the database refused the change: {_first_line(exc)}") from exc
        except (OSError, asyncpg.InterfaceError) as exc:
            raise StoreUnavailable(f"the database cannot be reached: {exc}") from None


#: PostgreSQL's SQLSTATE for "disk_full" (class 53, insufficient resources): the server could
#: not extend a file for want of space.  The class's other codes (out of memory, too many
#: connections, a configuration limit) pass, and are told as the database unavailable.
DISK_FULL = "53100"

# The advisory lock key that makes migrations one process at a time (any fixed number).
_MIGRATION_LOCK = 728190019

_VERSION = (
    "SELECT version FROM schema_version WHERE to_regclass('schema_version') IS NOT NULL LIMIT 1"
)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """What a connection needs when it goes back to the pool, beyond the rollback of an
    unfinished transaction asyncpg always does: nothing.  The store sets no session state (no
    LISTEN, no session locks, no SET), so asyncpg's default reset query would only cost a
    round trip per call."""


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _reason(exc: BaseException, url: str) -> str:
    text = _first_line(exc)
    parts = urlsplit(url) if "://" in url else None
    secrets = [parts.password] if parts is not None and parts.password else []
    if parts is not None:
        secrets += re.findall(r"(?i)(?:^|&)password=([^&]+)", parts.query)
    for secret in secrets:
        text = text.replace(secret, "***")
    return text
