"""Leases in SQL (:class:`SqlLeases`): a named chore held by one worker until a time, so
several processes on one database do it once between them.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.storage.dbapi import to_ts
from bot.storage.sql_base import SqlBase

__all__ = ["SqlLeases"]


class SqlLeases(SqlBase):
    """The lease methods of the store."""

    async def claim_lease(
        self,
        name: str,
        owner: str,
        now: datetime,
        lease: timedelta,
        *,
        replacing: str | None = None,
    ) -> bool:
        """Take (or renew) the lease on the chore ``name`` for ``owner`` until ``now +
        lease``; ``False`` if another owner holds it until later (unless that owner is
        ``replacing``, known to be gone).  Several processes on one database use it to do a
        chore (the clock sweep) once between them."""
        row = await self._write(
            lambda c: c.execute(
                "INSERT INTO leases (name, owner, until) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until "
                "WHERE leases.owner = excluded.owner OR leases.until <= ? OR leases.owner = ? "
                "RETURNING owner",
                (name, owner, to_ts(now + lease), to_ts(now), replacing or ""),
            ).fetchone()
        )
        return row is not None

    async def lease_holder(self, name: str) -> str | None:
        """Who holds (or last held) the lease on ``name``, if anyone."""
        row = await self._row("SELECT owner FROM leases WHERE name = ?", (name,))
        return None if row is None else str(row["owner"])

    async def prune_leases(self, now: datetime) -> int:
        """Delete the leases that ended before ``now``; how many."""
        return await self._write(
            lambda c: c.execute("DELETE FROM leases WHERE until < ?", (to_ts(now),)).rowcount
        )

    async def release_lease(self, name: str, owner: str) -> None:
        """Give up the lease on ``name`` if ``owner`` holds it (another may take it at once)."""
        await self._write(
            lambda c: c.execute("DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner))
        )
