"""Leases in SQL (:class:`SqlLeases`): a named chore held by one worker until a time, so
several processes on one database do it once between them.

A lease is timed by the database's clock (:meth:`~bot.storage.sql_base.SqlBase.db_time`), not
the claiming process's: one process whose clock runs ahead must not judge another's lease
ended.  A lease row whose end cannot be read, or ends further ahead than any lease is ever
taken for (:data:`LONGEST_LEASE`), would otherwise hold its chore for ever: it is set aside
(taken over) with a log line.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from bot.storage.dbapi import from_ts
from bot.storage.sql_base import SqlBase
from bot.workers import namespace, pid_ended

__all__ = ["GONE_AFTER", "LONGEST_LEASE", "SqlLeases"]

log = logging.getLogger(__name__)

#: No lease is ever taken for longer (the longest: a handled update remembered for 25 hours);
#: a lease ending later than this from now was written by a clock far off, or damaged.
LONGEST_LEASE = timedelta(days=2)
#: A worker whose heartbeat is older than this (by the database's clock) is gone: an outbox
#: beats every round (a few seconds), a process's leases at least every sweep (30 s).
GONE_AFTER = timedelta(seconds=60)


class SqlLeases(SqlBase):
    """The lease methods of the store."""

    async def claim_lease(
        self,
        name: str,
        owner: str,
        now: datetime | None,
        lease: timedelta,
        *,
        replacing: str | None = None,
        grace: timedelta = timedelta(0),
    ) -> bool:
        """Take (or renew) the lease on the chore ``name`` for ``owner`` for ``lease`` by the
        database's clock; ``False`` if another owner holds it until later (unless that owner
        is ``replacing``, known to be gone), or ended less than ``grace`` ago (a tap just
        handled: issue 45).  Several processes on one database use it to do a
        chore (the clock sweep) once between them.  (``now``, the caller's clock, is not
        used: kept for the callers that pass it.)"""
        until, at = self.db_time(lease), self.db_time(-grace)
        row = await self._write(
            lambda c: c.fetchrow(
                f"INSERT INTO leases (name, owner, until) VALUES (?, ?, {until}) "
                "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until "
                f"WHERE leases.owner = excluded.owner OR leases.until <= {at} OR leases.owner = ? "
                "RETURNING owner",
                (name, owner, replacing or ""),
            )
        )
        if row is not None:
            return True
        return await self._set_aside(name, owner, lease)

    async def _set_aside(self, name: str, owner: str, lease: timedelta) -> bool:
        """Take the lease ``name`` over if its row cannot be read or ends implausibly far
        ahead (with a log line); whether it was taken."""
        held = await self._row(
            f"SELECT owner, until, {self.db_time(LONGEST_LEASE)} AS latest FROM leases "
            "WHERE name = ?",
            (name,),
        )
        if held is None:
            return False
        try:
            ends = from_ts(held["until"])
        except ValueError:
            why = f"its end {str(held['until'])[:40]!r} cannot be read"
        else:
            if ends <= from_ts(held["latest"]):
                return False  # held, plausibly
            why = f"it ends {ends.isoformat()}, implausibly far ahead"
        taken = await self._write(
            lambda c: c.fetchrow(
                f"UPDATE leases SET owner = ?, until = {self.db_time(lease)} "
                "WHERE name = ? AND owner = ? AND until = ? RETURNING owner",
                (owner, name, held["owner"], held["until"]),
            )
        )
        if taken is not None:
            log.error("lease %r held by %r set aside: %s", name, held["owner"], why)
        return taken is not None

    async def lease_holder(self, name: str) -> str | None:
        """Who holds (or last held) the lease on ``name``, if anyone."""
        row = await self._row("SELECT owner FROM leases WHERE name = ?", (name,))
        return None if row is None else str(row["owner"])

    async def prune_leases(self, now: datetime | None = None) -> int:
        """Delete the leases that ended, by the database's clock; how many.  (``now`` is not
        used: kept for the callers that pass it.)"""
        return await self._write(
            lambda c: c.execute(f"DELETE FROM leases WHERE until < {self.db_time()}")
        )

    async def release_lease(self, name: str, owner: str) -> None:
        """Give up the lease on ``name`` if ``owner`` holds it (another may take it at once)."""
        await self._write(
            lambda c: c.execute("DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner))
        )

    async def beat(self, worker: str, host: str, pid: int) -> None:
        """Record that the worker ``worker`` (of process ``pid`` on ``host``, in this
        process's :func:`~bot.workers.namespace`) is alive now, by the database's clock."""
        at = self.db_time()
        await self._write(
            lambda c: c.execute(
                f"INSERT INTO workers (id, host, ns, pid, seen_at) VALUES (?, ?, ?, ?, {at}) "
                "ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at",
                (worker, host, namespace(), pid),
            )
        )

    async def worker_gone(self, worker: str) -> bool:
        """Whether the worker ``worker`` is known to be gone: its heartbeat stopped more
        than :data:`GONE_AFTER` ago by the database's clock, or its process, in this very
        pid namespace, has ended.  A worker with no heartbeat on record is not known to be
        gone (what it holds is trusted until its lease ends)."""
        row = await self._row(
            f"SELECT ns, pid, seen_at < {self.db_time(-GONE_AFTER)} AS stale FROM workers "
            "WHERE id = ?",
            (worker,),
        )
        if row is None:
            return False
        if row["stale"]:
            return True
        here = namespace()
        return bool(here) and row["ns"] == here and pid_ended(int(row["pid"]))

    async def forget_workers(self) -> int:
        """Delete the workers whose heartbeat stopped a day ago (by the database's clock);
        how many."""
        return await self._write(
            lambda c: c.execute(
                f"DELETE FROM workers WHERE seen_at < {self.db_time(-timedelta(days=1))}"
            )
        )
