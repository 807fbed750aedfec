"""The SQLite store: :class:`SqliteStore`, the shared SQL of :class:`~bot.storage.sql.SqlStore`
on one SQLite file.

What is SQLite's own:

- One connection, used only by one dedicated thread; every read and every transaction is one
  function run in that thread, so a whole transaction is one trip from the event loop and
  transactions never interleave.  Writes start with ``BEGIN IMMEDIATE`` (SQLite's way to take
  the write lock at once), so a busy database fails before anything is done.
- ``PRAGMA`` settings: WAL, ``synchronous = NORMAL``, foreign keys, the busy timeout, and
  ``PRAGMA optimize`` when the database is opened and closed.  A write lock held by someone
  else for longer than the busy timeout raises :class:`~bot.storage.errors.StoreBusy`.
- The schema version is ``PRAGMA user_version``; :meth:`SqliteStore.open` applies the missing
  migrations of :mod:`bot.storage.schema`.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from bot.storage.dbapi import Conn
from bot.storage.errors import StoreBusy, StoreError, StoreUnavailable
from bot.storage.schema import MIGRATIONS, SCHEMA_VERSION
from bot.storage.sql import SqlStore

__all__ = ["SqliteStore"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Default busy timeout: how long a write waits for another connection's lock.
BUSY_TIMEOUT = 10.0


def _is_busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(exc) or "busy" in str(exc)


def _connect(path: str, busy_timeout: float) -> tuple[sqlite3.Connection, tuple[int, ...]]:
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(f"cannot open database {path!r}: {exc}") from None
    try:
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        conn.execute("PRAGMA journal_mode = WAL")
        # NORMAL is durable across application crashes (kill -9) in WAL mode; only a power cut
        # may lose the last commits.
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        migrated = _migrate(conn, path)
        # Statistics for the planner, bounded in cost (SQLite's advice for long-lived
        # connections): without them it may scan every active game for one player's.
        conn.execute("PRAGMA analysis_limit = 1000")
        conn.execute("PRAGMA optimize = 0x10002")
    except sqlite3.Error as exc:
        conn.close()
        if _is_busy(exc):
            raise StoreBusy() from None
        raise StoreError(f"cannot use database {path!r}: {exc}") from None
    except BaseException:
        conn.close()
        raise
    return conn, migrated


def _migrate(conn: sqlite3.Connection, path: str) -> tuple[int, ...]:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"database {path!r} has schema {version}, newer than this bot "
            f"({SCHEMA_VERSION}): upgrade Hexhall"
        )
    for number in range(version, SCHEMA_VERSION):
        conn.executescript(
            f"BEGIN IMMEDIATE;\n{MIGRATIONS[number].sqlite}\n"
            f"PRAGMA user_version = {number + 1};\nCOMMIT;"
        )
    return tuple(range(version + 1, SCHEMA_VERSION + 1))


class SqliteStore(SqlStore):
    """The SQLite store.  Open with ``await SqliteStore.open(path)``; close with :meth:`close`.

    ``busy_timeout`` (seconds) is how long a write waits for another connection's lock before
    :class:`StoreBusy` is raised.
    """

    BOT_TURN_INDEX = " INDEXED BY games_bot_turn"

    def __init__(self, conn: sqlite3.Connection, executor: ThreadPoolExecutor, path: str) -> None:
        self._conn = conn
        self._executor = executor
        self.path = path

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
        # The one thread that uses the connection: a transaction is one call into it.
        executor = ThreadPoolExecutor(1, thread_name_prefix="hexhall-sqlite")
        loop = asyncio.get_running_loop()
        try:
            conn, migrated = await loop.run_in_executor(executor, _connect, text, busy_timeout)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        store = cls(conn, executor, text)
        store.migrated = migrated
        return store

    async def close(self) -> None:
        """Run ``PRAGMA optimize`` and close the connection."""

        def close(conn: sqlite3.Connection) -> None:
            try:
                conn.execute("PRAGMA optimize")
            except sqlite3.Error as exc:  # a full disk, say: one line, the close goes on
                log.warning("PRAGMA optimize failed at close: %s", exc)
            conn.close()

        await asyncio.get_running_loop().run_in_executor(self._executor, close, self._conn)
        self._executor.shutdown(wait=True)

    async def schema_version(self) -> int:
        """The schema version of the open database."""
        return int(await self._read(lambda c: c.execute("PRAGMA user_version").fetchone()[0]))

    async def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, self._guard, fn)

    def _guard(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        try:
            return fn(self._conn)
        except sqlite3.Error as exc:
            if _is_busy(exc):
                raise StoreBusy() from None
            # A full disk, an I/O error, a refused statement: nothing was changed (the
            # transaction rolled back), and the process goes on serving.
            raise StoreUnavailable(f"the database refused the change: {exc}") from exc

    async def _read(self, fn: Callable[[Conn], T]) -> T:
        return await self._call(fn)

    async def _write(self, fn: Callable[[Conn], T]) -> T:
        """Run ``fn`` in one write transaction (``BEGIN IMMEDIATE``: the write lock is taken at
        once, so a busy database fails before anything is done); rolled back if it raises."""

        def transaction(conn: sqlite3.Connection) -> T:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = fn(conn)
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result

        return await self._call(transaction)
