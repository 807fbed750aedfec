"""What the store raises: every failure of the database is a :class:`StoreError` (a shared value:
the sessions and the surfaces catch it too).

>>> str(StoreBusy())
'the database is busy, try again'
>>> str(StoreUnavailable("the server cannot be reached"))
'the database is unavailable: the server cannot be reached'
>>> str(StoreFull("database or disk is full"))
"the database's storage is full: database or disk is full"
>>> isinstance(StoreFull("quota"), StoreUnavailable)
True
>>> error = BadRow("games", 7, "deadline_at", "not a time: 'soon'")
>>> str(error)
"games #7: column deadline_at cannot be read (not a time: 'soon')"
>>> isinstance(error, ValueError), (error.table, error.row_id, error.column)
(True, ('games', 7, 'deadline_at'))
"""

from __future__ import annotations

__all__ = ["BadRow", "StoreBusy", "StoreError", "StoreFull", "StoreUnavailable"]


class StoreError(Exception):
    """The database cannot be opened or used (bad path, not a database, newer schema)."""


class StoreBusy(StoreError):
    """Another connection held the write lock longer than the busy timeout (a backup, a stuck
    second process).  Nothing was changed: the same request may simply be tried again."""

    def __init__(self) -> None:
        super().__init__("the database is busy, try again")


class StoreUnavailable(StoreError):
    """The database cannot take the request now: the server cannot be reached or refused the
    statement (a full storage is :class:`StoreFull`, a kind of it).  Nothing was changed;
    ``detail`` says what happened (for the log, never for players: they are told to try
    again)."""

    def __init__(self, detail: str) -> None:
        self.detail = detail
        super().__init__(f"the database is unavailable: {detail}")


class StoreFull(StoreUnavailable):
    """The database's storage is full: SQLite's ``SQLITE_FULL`` (the disk, a quota, or
    ``max_page_count``), PostgreSQL's ``disk_full`` (SQLSTATE 53100).  Nothing was changed.
    Unlike a server that cannot be reached, it lasts until someone frees space: players are
    told so (not "try again"), and the operator is alerted (:mod:`bot.storage.full`)."""

    def __init__(self, detail: str) -> None:
        self.detail = detail
        StoreError.__init__(self, f"the database's storage is full: {detail}")


class BadRow(StoreError, ValueError):
    """A stored value cannot be read back (a damaged time, JSON or enum value): names the
    table, the row's id and the column, so the row can be set aside and the others used."""

    def __init__(self, table: str, row_id: object, column: str, detail: str) -> None:
        self.table = table
        self.row_id = row_id
        self.column = column
        self.detail = detail
        super().__init__(f"{table} #{row_id}: column {column} cannot be read ({detail})")
