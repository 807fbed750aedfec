"""The SQLite store: :class:`SqliteStore`, the shared SQL of :class:`~bot.storage.sql.SqlStore`
on one SQLite file through aiosqlite.

What is SQLite's own:

- One aiosqlite connection (its own thread runs each statement) and one :class:`asyncio.Lock`:
  a call of the store has the connection to itself from its first statement to its last, so
  transactions never interleave and a read never sees a write half-done.  Writes start with
  ``BEGIN IMMEDIATE`` (SQLite's way to take the write lock at once), so a busy database fails
  before anything is done.
- ``PRAGMA`` settings: WAL, ``synchronous = NORMAL``, foreign keys, the busy timeout, and
  ``PRAGMA optimize`` when the database is opened and closed.  A write lock held by someone
  else for longer than the busy timeout raises :class:`~bot.storage.errors.StoreBusy`.
- The schema version is ``PRAGMA user_version``; :meth:`SqliteStore.open` applies the missing
  migrations of :mod:`bot.storage.schema`.  A database file that does not exist yet starts
  as an image of an empty database with every migration applied, made once per process
  (:func:`_new_database_image`): opening and closing a new store took 38 ms of processor
  time with every migration applied to the file, 5 ms from the image
  (``benchmarks/store_open.py``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import aiosqlite

from bot.storage.dbapi import Conn, Row
from bot.storage.errors import StoreBusy, StoreError, StoreUnavailable
from bot.storage.full import FullAlarm
from bot.storage.schema import MIGRATIONS, SCHEMA_VERSION
from bot.storage.sql import SqlStore
from bot.storage.sql_base import sqlite_time

__all__ = ["SqliteStore"]

log = logging.getLogger(__name__)

#: Default busy timeout: how long a write waits for another connection's lock.
BUSY_TIMEOUT = 10.0


def _is_busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(exc) or "busy" in str(exc)


def _is_full(exc: sqlite3.Error) -> bool:
    """Whether SQLite refused for want of space: ``SQLITE_FULL`` ("database or disk is full":
    the disk, a quota, or ``max_page_count``)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return bool(code & 0xFF == sqlite3.SQLITE_FULL)
    return "database or disk is full" in str(exc)


class _Connection:
    """The :class:`~bot.storage.dbapi.Conn` of the SQLite store: statements on an aiosqlite
    connection, one cursor reused for those that return no rows (one trip to aiosqlite's
    thread each)."""

    now_sql = sqlite_time()

    def __init__(self, db: aiosqlite.Connection, cursor: aiosqlite.Cursor) -> None:
        self.tx_clock: datetime | None = None
        self._writing = False
        self._db = db
        self._cursor = cursor

    async def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> int:
        await self._cursor.execute(sql, parameters)
        return int(self._cursor.rowcount)

    async def fetch(self, sql: str, parameters: Sequence[Any] = (), /) -> list[Row]:
        return list(await self._db.execute_fetchall(sql, parameters))

    async def fetchrow(self, sql: str, parameters: Sequence[Any] = (), /) -> Row | None:
        rows = await self.fetch(sql, parameters)
        return rows[0] if rows else None

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> None:
        await self._cursor.executemany(sql, parameters)

    def keep_clock(self, when: datetime) -> None:
        if self._writing:
            self.tx_clock = when

    @asynccontextmanager
    async def transaction(self, *, readonly: bool = False) -> AsyncIterator[None]:
        # A deferred BEGIN reads one snapshot (WAL); IMMEDIATE takes the write lock at once.
        await self._cursor.execute("BEGIN" if readonly else "BEGIN IMMEDIATE")
        self.tx_clock, self._writing = None, not readonly
        try:
            yield
            await self._cursor.execute("COMMIT")
        except BaseException:
            await self._rollback()
            raise
        finally:
            self.tx_clock, self._writing = None, False

    async def _rollback(self) -> None:
        # SQLite may have rolled back itself (a full disk, an I/O error): then nothing is open.
        with suppress(sqlite3.OperationalError):
            await self._cursor.execute("ROLLBACK")


async def _connect(path: str, busy_timeout: float) -> tuple[aiosqlite.Connection, tuple[int, ...]]:
    try:
        db = await aiosqlite.connect(path, isolation_level=None)
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(f"cannot open database {path!r}: {exc}") from None
    try:
        db.row_factory = sqlite3.Row
        await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        await _wal(db, busy_timeout)
        # NORMAL is durable across application crashes (kill -9) in WAL mode; only a power cut
        # may lose the last commits.
        await db.execute("PRAGMA synchronous = NORMAL")
        await db.execute("PRAGMA foreign_keys = ON")
        migrated = await _migrate(db, path)
        # Statistics for the planner, bounded in cost (SQLite's advice for long-lived
        # connections): without them it may scan every active game for one player's.
        await db.execute("PRAGMA analysis_limit = 1000")
        await _optimize(db)
    except sqlite3.Error as exc:
        await db.close()
        if _is_busy(exc):
            raise StoreBusy() from None
        raise StoreError(f"cannot use database {path!r}: {exc}") from None
    except BaseException:
        await db.close()
        raise
    return db, migrated


async def _wal(db: aiosqlite.Connection, busy_timeout: float) -> None:
    """Put the database in WAL mode (a file made from the image already is).

    Switching takes an exclusive lock, and SQLite refuses one of two connections switching one
    file at once without waiting (``SQLITE_BUSY``: waiting could deadlock), so a refused
    switch is tried again, for up to ``busy_timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline, pause = loop.time() + busy_timeout, 0.005
    while True:
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or loop.time() + pause > deadline:
                raise
        await asyncio.sleep(pause)
        pause = min(2 * pause, 0.1)


async def _optimize(db: aiosqlite.Connection) -> None:
    """``PRAGMA optimize`` as a connection opens.  Its statistics are advice: when another
    connection is writing, SQLite may refuse the upgrade from reading to writing at once
    (``SQLITE_BUSY`` without waiting), and the statistics wait for the next open or close."""
    try:
        await db.execute("PRAGMA optimize = 0x10002")
    except sqlite3.OperationalError as exc:
        if not _is_busy(exc):
            raise
        log.info("PRAGMA optimize passed over at open: the database is busy")


async def _user_version(db: aiosqlite.Connection) -> int:
    (row,) = await db.execute_fetchall("PRAGMA user_version")
    return int(row[0])


async def _migrate(db: aiosqlite.Connection, path: str) -> tuple[int, ...]:
    """Apply the migrations the database lacks, each in its own write transaction; the schema
    versions this connection made.  Each step reads the version again once it holds the write
    lock, so another connection migrating the same file at once is never undone or repeated:
    a step it made first is passed over."""
    version = await _user_version(db)
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"database {path!r} has schema {version}, newer than this bot "
            f"({SCHEMA_VERSION}): upgrade Hexhall"
        )
    applied: list[int] = []
    for number in range(version, SCHEMA_VERSION):
        await db.execute("BEGIN IMMEDIATE")
        try:
            if await _user_version(db) == number:
                for statement in _step(number):
                    await db.execute(statement)
                applied.append(number + 1)
            await db.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                await db.execute("ROLLBACK")
            raise
    return tuple(applied)


@functools.cache
def _step(number: int) -> tuple[str, ...]:
    """Migration ``number`` (from 0) one statement at a time, then the schema version after
    it: what one write transaction applies (a script run whole by ``executescript`` would
    first commit the transaction it must run in).

    >>> _step(0)[-1], all(sqlite3.complete_statement(s) for s in _step(0)), len(_step(0)) > 5
    ('PRAGMA user_version = 1;', True, True)
    """
    statements, lines = [], ""
    for line in MIGRATIONS[number].sqlite.splitlines(keepends=True):
        lines += line
        if sqlite3.complete_statement(lines):
            statements.append(lines.strip())
            lines = ""
    if lines.strip():
        raise ValueError(f"migration {number + 1} ends in an unfinished statement: {lines!r}")
    return (*statements, f"PRAGMA user_version = {number + 1};")


# Bytes 18 and 19 of a database file's header, its file format write and read versions: 2
# marks a database in WAL mode (https://www.sqlite.org/fileformat2.html#database_header).
_FORMAT_VERSIONS = slice(18, 20)
_WAL_FORMAT = b"\x02\x02"


@functools.cache
def _new_database_image() -> bytes | None:
    """The bytes of an empty database at this bot's schema, in WAL mode: every migration
    applied, as :func:`_migrate` applies them, to a database in memory, once per process;
    ``None`` where Python cannot serialise a database (``sqlite3.Connection.serialize``).

    The file is in WAL mode from its first byte, so its first openers never switch it:
    switching takes an exclusive lock, and two connections switching one file at once may be
    refused at once, without waiting (``SQLITE_BUSY``: SQLite does not wait where waiting could
    deadlock)."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    try:
        db.execute("PRAGMA foreign_keys = ON")
        for number in range(SCHEMA_VERSION):
            db.execute("BEGIN IMMEDIATE")
            for statement in _step(number):
                db.execute(statement)
            db.execute("COMMIT")
        image = bytearray(db.serialize())
    except (sqlite3.Error, AttributeError):
        return None
    finally:
        db.close()
    image[_FORMAT_VERSIONS] = _WAL_FORMAT
    return bytes(image)


def _write_new(path: Path, data: bytes) -> None:
    """Write ``data`` to the new file ``path`` with the permissions SQLite gives the files it
    creates (0644 less the umask)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, "wb") as out:
        out.write(data)


def _create(path: Path) -> bool:
    """Create the database file ``path`` from :func:`_new_database_image` unless a file is
    there; whether it did.  The image is written beside it and linked into place, so another
    process opening the same new file meets either no file or the whole image; on any error
    (a full disk, a file system without links) nothing is left and the caller migrates as
    before."""
    if path.exists():
        return False
    image = _new_database_image()
    if image is None:
        return False
    # Its own name per call: two opens of one new file at once each write their own.
    beside = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(6)}.new")
    try:
        _write_new(beside, image)
        os.link(beside, path)
    except OSError:
        return False
    finally:
        with suppress(OSError):
            beside.unlink()
    return True


class SqliteStore(SqlStore):
    """The SQLite store.  Open with ``await SqliteStore.open(path)``; close with :meth:`close`.

    ``busy_timeout`` (seconds) is how long a write waits for another connection's lock before
    :class:`StoreBusy` is raised.
    """

    BOT_TURN_INDEX = " INDEXED BY games_bot_turn"

    def __init__(self, conn: aiosqlite.Connection, cursor: aiosqlite.Cursor, path: str) -> None:
        self._conn = conn
        self._connection = _Connection(conn, cursor)
        # One call at a time on the one connection, from its first statement to its last.
        self._lock = asyncio.Lock()
        self.path = path
        self._alarm = FullAlarm(path)

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout: float = BUSY_TIMEOUT) -> SqliteStore:
        """Open (creating if needed) and migrate the database at ``path``.

        Raises :class:`StoreError` with a readable one-line message if it cannot be used.
        """
        text = str(path)
        if text != ":memory:":
            parent = Path(text).expanduser().resolve().parent
            if not parent.is_dir():
                raise StoreError(f"cannot open database {text!r}: folder {str(parent)!r} missing")
            if Path(text).is_dir():
                raise StoreError(f"cannot open database {text!r}: it is a folder")
        created = text != ":memory:" and await asyncio.to_thread(_create, Path(text))
        db, migrated = await _connect(text, busy_timeout)
        try:
            cursor = await db.cursor()
        except BaseException:
            await db.close()
            raise
        store = cls(db, cursor, text)
        # A new file holds every migration, as if each had been applied to it.
        store.migrated = tuple(range(1, SCHEMA_VERSION + 1)) if created else migrated
        return store

    async def close(self) -> None:
        """Run ``PRAGMA optimize`` and close the connection."""
        async with self._lock:
            try:
                await self._conn.execute("PRAGMA optimize")
            except sqlite3.Error as exc:  # a full disk, say: one line, the close goes on
                log.warning("PRAGMA optimize failed at close: %s", exc)
            await self._conn.close()

    async def schema_version(self) -> int:
        """The schema version of the open database."""
        row = await self._row("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def trace_statements(self, callback: Callable[[str], object] | None) -> None:
        """Have ``callback`` called with every statement the store runs (on aiosqlite's
        thread), or no longer (``None``): what tests and benchmarks count."""
        # aiosqlite's annotation leaves out None, which sqlite3 takes to stop tracing.
        await self._conn.set_trace_callback(cast(Callable[[str], object], callback))

    @asynccontextmanager
    async def _lend(self) -> AsyncIterator[Conn]:
        async with self._lock:
            try:
                yield self._connection
            except sqlite3.Error as exc:
                if _is_busy(exc):
                    raise StoreBusy() from None
                if _is_full(exc):
                    raise self._alarm.full(str(exc)) from exc
                # A full disk, an I/O error, a refused statement: nothing was changed (the
                # transaction rolled back), and the process goes on serving.
                raise StoreUnavailable(f"the database refused the change: {exc}") from exc
