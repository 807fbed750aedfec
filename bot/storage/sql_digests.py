"""Daily digests (issue 46) in SQL (:class:`SqlDigests`): each player's chosen local time and
UTC offset, when their next digest is due, and the last local day one went out.

Sending a digest is one transaction (:meth:`SqlDigests.send_digest`): the day is marked sent
only if it was not already (a conditional ``UPDATE``), and the digest's notification is
inserted with it, so a restart, or a second process, never sends a day's digest twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.core.notification import Notification
from bot.storage.dbapi import Conn, Row, from_ts, to_ts
from bot.storage.sql_base import SqlBase
from bot.storage.sql_outbox import insert_notes

__all__ = ["DigestRow", "SqlDigests"]


@dataclass(frozen=True)
class DigestRow:
    """A player's digest: at ``at_minute`` minutes after local midnight, local time being UTC
    plus ``utc_offset`` minutes; ``last_day`` the local day (``YYYY-MM-DD``) of the last one
    sent; ``due_at`` when the next is due."""

    player_id: int
    at_minute: int
    utc_offset: int
    last_day: str | None
    due_at: datetime


def _read(row: Row) -> DigestRow:
    return DigestRow(
        int(row["player_id"]),
        int(row["at_minute"]),
        int(row["utc_offset"]),
        None if row["last_day"] is None else str(row["last_day"]),
        from_ts(row["due_at"]),
    )


_COLUMNS = "player_id, at_minute, utc_offset, last_day, due_at"


class SqlDigests(SqlBase):
    """The daily digest methods of the store."""

    async def set_digest(
        self, player_id: int, at_minute: int, utc_offset: int, due_at: datetime
    ) -> None:
        """Turn ``player_id``'s digest on (or move it), next due at ``due_at``; the last day
        sent is kept, so moving it never sends one day twice."""
        await self._write(
            lambda c: c.execute(
                "INSERT INTO digests (player_id, at_minute, utc_offset, last_day, due_at) "
                "VALUES (?, ?, ?, NULL, ?) ON CONFLICT (player_id) DO UPDATE SET "
                "at_minute = excluded.at_minute, utc_offset = excluded.utc_offset, "
                "due_at = excluded.due_at",
                (player_id, at_minute, utc_offset, to_ts(due_at)),
            )
        )

    async def clear_digest(self, player_id: int) -> int:
        """Turn ``player_id``'s digest off; whether it was on (1) or not (0)."""
        return await self._write(
            lambda c: c.execute("DELETE FROM digests WHERE player_id = ?", (player_id,))
        )

    async def digest_of(self, player_id: int) -> DigestRow | None:
        """``player_id``'s digest, or ``None`` when it is off."""
        row = await self._row(f"SELECT {_COLUMNS} FROM digests WHERE player_id = ?", (player_id,))
        return None if row is None else _read(row)

    async def digest_players(self, player_ids: Sequence[int]) -> set[int]:
        """Which of ``player_ids`` have their digest on."""
        if not player_ids:
            return set()
        marks = ", ".join("?" for _ in player_ids)
        rows = await self._rows(
            f"SELECT player_id FROM digests WHERE player_id IN ({marks})", tuple(player_ids)
        )
        return {int(r["player_id"]) for r in rows}

    async def due_digests(self, now: datetime, limit: int = 500) -> list[DigestRow]:
        """The digests due at ``now``, earliest first."""
        rows = await self._rows(
            f"SELECT {_COLUMNS} FROM digests WHERE due_at <= ? ORDER BY due_at, player_id LIMIT ?",
            (to_ts(now), limit),
        )
        return [_read(r) for r in rows]

    async def send_digest(
        self, player_id: int, day: str, next_due: datetime, notes: Sequence[Notification]
    ) -> bool:
        """Mark ``player_id``'s digest of the local ``day`` sent, next due at ``next_due``, and
        insert ``notes`` (the digest itself, or none on a day without a turn), in one
        transaction; ``False`` (nothing written) if that day's was already sent."""

        async def send(conn: Conn) -> bool:
            changed = await conn.execute(
                "UPDATE digests SET last_day = ?, due_at = ? WHERE player_id = ? "
                "AND (last_day IS NULL OR last_day < ?)",
                (day, to_ts(next_due), player_id, day),
            )
            if not changed:
                return False
            await insert_notes(conn, notes)
            return True

        return await self._write(send)

    async def skip_digest(self, player_id: int, next_due: datetime) -> None:
        """Move a digest whose day was already sent to its next time."""
        await self._write(
            lambda c: c.execute(
                "UPDATE digests SET due_at = ? WHERE player_id = ?", (to_ts(next_due), player_id)
            )
        )
