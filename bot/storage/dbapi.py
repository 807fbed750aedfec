"""The one async connection interface the shared SQL of both stores runs on, and the stored
time.

:mod:`bot.storage.sql` writes every query once, with ``?`` placeholders, as ``async``
functions of a :class:`Conn`: :mod:`bot.storage.sqlite` implements it on an aiosqlite
connection, :mod:`bot.storage.postgres` on an asyncpg one (numbering the placeholders).  A
:class:`Conn` is lent by its store for one call (:meth:`~bot.storage.sql_base.SqlBase._read`,
:meth:`~bot.storage.sql_base.SqlBase._write`), inside the store's transaction for a write.

Times are stored as UTC text ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` in both databases: fixed width, so
text order is time order, and one reader serves both.

>>> to_ts(datetime(2026, 1, 5, 12, 0, tzinfo=UTC))
'2026-01-05T12:00:00.000000Z'
>>> from_ts("2026-01-05T12:00:00.000000Z") == datetime(2026, 1, 5, 12, tzinfo=UTC)
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import Any, Protocol

__all__ = ["Conn", "Row", "from_ts", "one", "to_ts"]


class Row(Protocol):
    """A result row: columns by name or position, and their names."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def keys(self) -> Iterable[str]:
        """The column names."""
        ...


def one(row: Row | None) -> Row:
    """The row of a statement that always returns one (``INSERT ... RETURNING``, a count)."""
    if row is None:
        raise LookupError("the statement returned no row")
    return row


class Conn(Protocol):
    """A connection lent by the store for one call: each statement is awaited on the
    database's own async driver."""

    #: An SQL expression for the database's clock now, as the stored text of a time (what
    #: :meth:`~bot.storage.sql_base.SqlBase.db_time` gives for no offset).
    now_sql: str

    #: The database's clock as first read in the write transaction open on this connection
    #: (:func:`~bot.storage.sql_base.db_clock`, or a statement's ``RETURNING`` of
    #: :attr:`now_sql`), kept for the rest of it; ``None`` outside a write transaction, or
    #: before the clock is read in it.  One read per transaction (issue 48's times cost no
    #: statement of their own on a move): PostgreSQL's ``now()`` is the transaction's start
    #: anyway, SQLite's differs by the milliseconds between statements.
    tx_clock: datetime | None

    def keep_clock(self, when: datetime) -> None:
        """Keep ``when``, the database's clock just read, as :attr:`tx_clock` if a write
        transaction is open (else nothing: each read outside one reads the clock again)."""
        ...

    async def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> int:
        """Run one statement (``?`` placeholders) with ``parameters``; how many rows it
        changed."""
        ...

    async def fetch(self, sql: str, parameters: Sequence[Any] = (), /) -> list[Row]:
        """Run one query (or a change with ``RETURNING``); its rows."""
        ...

    async def fetchrow(self, sql: str, parameters: Sequence[Any] = (), /) -> Row | None:
        """Run one query (or a change with ``RETURNING``); its first row, or ``None``."""
        ...

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> None:
        """Run one statement once per set of ``parameters``."""
        ...

    def transaction(self, *, readonly: bool = False) -> AbstractAsyncContextManager[None]:
        """One transaction around the statements inside, committed at the end and rolled back
        if they raise.  A write takes the write lock at once where the database has one
        (SQLite's ``BEGIN IMMEDIATE``); ``readonly``: one snapshot of the database (for a read
        of several tables that must agree with each other)."""
        ...


def to_ts(when: datetime) -> str:
    """A UTC time as sortable text."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


#: The stored form of a time (:func:`to_ts`; SQLite's clock gives three digits of fraction).
_STORED_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{1,6}Z")


def from_ts(text: object) -> datetime:
    """The time stored by :func:`to_ts`; ``ValueError`` if it is not one.

    Checked against the stored form, then read by ``fromisoformat`` (which also refuses a
    31 February): under a quarter of ``strptime``'s time (``benchmarks/store_open.py``), and
    this reads every time of every row.

    >>> from_ts("2026-12-03T10:00:00.123Z")
    datetime.datetime(2026, 12, 3, 10, 0, 0, 123000, tzinfo=datetime.timezone.utc)
    >>> from_ts(to_ts(datetime(2026, 12, 3, 10, 0, 0, 5, tzinfo=UTC))).microsecond
    5
    >>> from_ts("2026-02-30T10:00:00.000000Z")
    Traceback (most recent call last):
    ...
    ValueError: day is out of range for month
    >>> from_ts("2026-12-03 10:00:00Z")
    Traceback (most recent call last):
    ...
    ValueError: not a time: '2026-12-03 10:00:00Z'
    """
    if not isinstance(text, str) or _STORED_TIME.fullmatch(text) is None:
        raise ValueError(f"not a time: {text!r}")
    return datetime.fromisoformat(text[:-1]).replace(tzinfo=UTC)
