"""What the shared SQL of both stores needs from a database connection, and the stored time.

:mod:`bot.storage.sql` writes every query once, with ``?`` placeholders, as plain functions of
a :class:`Conn`: :class:`sqlite3.Connection` is one as it is; the PostgreSQL store hands the
same functions a bridge to asyncpg (:mod:`bot.storage.postgres`).  Only this much of DB-API is
used, so the two stay interchangeable.

Times are stored as UTC text ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` in both databases: fixed width, so
text order is time order, and one reader serves both.

>>> to_ts(datetime(2026, 1, 5, 12, 0, tzinfo=UTC))
'2026-01-05T12:00:00.000000Z'
>>> from_ts("2026-01-05T12:00:00.000000Z") == datetime(2026, 1, 5, 12, tzinfo=UTC)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

__all__ = ["Conn", "Cursor", "Row", "from_ts", "to_ts"]


class Row(Protocol):
    """A result row: columns by name or position, and their names."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def keys(self) -> Iterable[str]:
        """The column names."""
        ...


class Cursor(Protocol):
    """The outcome of one statement."""

    @property
    def rowcount(self) -> int:
        """How many rows the statement changed."""
        ...

    def fetchone(self) -> Any:
        """The next row, or ``None``."""
        ...

    def fetchall(self) -> list[Any]:
        """The remaining rows."""
        ...


class Conn(Protocol):
    """A connection inside the store's transaction."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor:
        """Run one statement (``?`` placeholders) with ``parameters``."""
        ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> object:
        """Run one statement once per set of ``parameters``."""
        ...


def to_ts(when: datetime) -> str:
    """A UTC time as sortable text."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def from_ts(text: object) -> datetime:
    """The time stored by :func:`to_ts`; ``ValueError`` if it is not one."""
    if not isinstance(text, str):
        raise ValueError(f"not a time: {text!r}")
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
