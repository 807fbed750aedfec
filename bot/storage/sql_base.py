"""The base of the store's SQL: :class:`SqlBase` runs a method of the shared SQL on its
database (:meth:`SqlBase._read`, :meth:`SqlBase._write`) with the connection the concrete store
lends (:meth:`SqlBase._lend`).  The parts of :class:`~bot.storage.sql.SqlStore` (games,
challenges, players, the outbox, leases, ratings, posts) each build on it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Any, TypeVar

from bot.storage.dbapi import Conn, Row, from_ts

__all__ = ["MAX_SKEW", "MIN_SKEW", "SqlBase", "db_clock", "skew", "sqlite_time"]

T = TypeVar("T")

#: How far a process's clock may be from the database's and still be taken for a wall clock
#: that is off (a host whose clock drifts): its times are then moved onto the database's
#: clock.  A clock further off is not a wall clock at all (a test's fake clock, a host whose
#: clock is broken): its times are stored as it gives them, as before.
MAX_SKEW = timedelta(hours=1)


#: A difference smaller than this is the time the process took since it read its clock (a
#: transaction, a bot's move): not a clock that is off, and nothing to move (a row written
#: again for it would cost every move a statement).
MIN_SKEW = timedelta(seconds=1)


def skew(now: datetime, db_now: datetime) -> timedelta:
    """What moves a time of a process whose clock reads ``now`` onto the database's clock,
    which reads ``db_now``: their difference, unless it is under :data:`MIN_SKEW` or beyond
    :data:`MAX_SKEW` (then nothing: see there).

    >>> from datetime import UTC
    >>> t = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
    >>> skew(t, t + timedelta(seconds=150)), skew(t, t + timedelta(days=300))
    (datetime.timedelta(seconds=150), datetime.timedelta(0))
    >>> skew(t, t + timedelta(milliseconds=40))
    datetime.timedelta(0)
    """
    gap = db_now - now
    return gap if MIN_SKEW <= abs(gap) <= MAX_SKEW else timedelta(0)


def sqlite_time(ahead: timedelta = timedelta(0)) -> str:
    """SQLite's expression for its clock ``ahead`` of now as the stored text of a time (see
    :meth:`SqlBase.db_time`)."""
    seconds = ahead.total_seconds()
    return f"(strftime('%Y-%m-%dT%H:%M:%f', 'now', '{seconds:+.6f} seconds') || '000Z')"


async def db_clock(conn: Conn) -> datetime:
    """The database's clock now, read in SQL on ``conn`` (in a PostgreSQL transaction:
    ``now()``, its start, the time every other statement of it uses); in a write transaction,
    read once and kept for the rest of it (:attr:`~bot.storage.dbapi.Conn.tx_clock`)."""
    if conn.tx_clock is not None:
        return conn.tx_clock
    row = await conn.fetchrow(f"SELECT {conn.now_sql} AS now")
    assert row is not None
    when = from_ts(row["now"])
    conn.keep_clock(when)
    return when


class SqlBase:
    """How the shared SQL reaches a database; a concrete store provides :meth:`_lend` (and
    opening, closing and :meth:`schema_version`)."""

    #: The schema versions that migrations applied when this store opened the database (what
    #: ``hexhall migrate`` reports; empty when it was up to date).
    migrated: tuple[int, ...] = ()

    async def close(self) -> None:
        """Close the database."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        """The schema version of the open database."""
        raise NotImplementedError

    #: Added to the select of notifications to claim: PostgreSQL's ``FOR UPDATE SKIP
    #: LOCKED`` lets workers of several processes pass each other's rows by instead of
    #: waiting on them; SQLite has one writer at a time and no such clause.
    SKIP_LOCKED = ""

    #: Names the index of games waiting for the bot where a planner needs telling (SQLite:
    #: while no game is against the bot the index is empty, has no statistics, and the planner
    #: would walk every active game instead).
    BOT_TURN_INDEX = ""

    def db_time(self, ahead: timedelta = timedelta(0)) -> str:
        """An SQL expression for the database's clock ``ahead`` of now, as the stored text of
        a time (:func:`~bot.storage.dbapi.to_ts`): leases and claims are timed by it, so
        processes whose clocks disagree still agree on who holds what.  SQLite's
        ``strftime(..., 'now', '<N> seconds')`` (millisecond precision, padded to the stored
        microseconds); PostgreSQL overrides it with ``now()``."""
        return sqlite_time(ahead)

    async def db_now(self) -> datetime:
        """The database's clock now (see :meth:`db_time`)."""
        row = await self._row(f"SELECT {self.db_time()} AS now")
        assert row is not None
        return from_ts(row["now"])

    async def clock_now(self, now: datetime) -> datetime:
        """The time to judge what is due by, for a process whose clock reads ``now``: the
        database's clock, unless ``now`` is further from it than :data:`MAX_SKEW` (a test's
        fake clock: then ``now`` itself).  Processes whose clocks disagree by a few minutes
        thus agree on when a board, a retry, a reminder or a deadline falls due."""
        return now + skew(now, await self.db_now())

    def _lend(self) -> AbstractAsyncContextManager[Conn]:
        """A connection for one call, to this call alone until the context ends; the
        database's failures leave the context as :class:`~bot.storage.errors.StoreError`."""
        raise NotImplementedError

    async def _run(self, fn: Callable[[Conn], Awaitable[T]], write: bool) -> T:
        async with self._lend() as conn:
            if not write:
                return await fn(conn)
            async with conn.transaction():
                return await fn(conn)

    async def _read(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run ``fn`` outside a transaction of its own (each statement sees what is committed;
        a function that needs one snapshot opens ``conn.transaction(readonly=True)``)."""
        # Shielded, as a write: a caller that gives up does not leave a connection mid-call.
        return await asyncio.shield(self._run(fn, False))

    async def _write(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run ``fn`` in one write transaction, rolled back if it raises.  Shielded: a caller
        that gives up (a cancelled handler) does not cut a transaction short; it finishes, as
        it would have without the caller."""
        return await asyncio.shield(self._run(fn, True))

    async def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return await self._read(lambda c: c.fetch(sql, args))

    async def _row(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        return await self._read(lambda c: c.fetchrow(sql, args))
