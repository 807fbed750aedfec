"""Players in SQL (:class:`SqlPlayers`): who they are, their notification settings and their
vacations (a vacation moves the deadlines of their games in the same transaction).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.core.notification import Notification
from bot.core.settings import Settings
from bot.storage.dbapi import Conn, one, to_ts
from bot.storage.errors import BadRow, StoreError
from bot.storage.rows import GameRow, PlayerRow
from bot.storage.sql_base import SqlBase
from bot.storage.sql_clock import clock_gap
from bot.storage.sql_outbox import insert_notes
from bot.storage.sql_rows import (
    PLAYER_COLUMNS,
    Reader,
    alarm_text,
    opt_ts,
    read_player,
    was_reminded,
)

__all__ = ["SqlPlayers"]

log = logging.getLogger(__name__)


class _Stale(Exception):
    """A row changed under a multi-row write: roll the whole transaction back."""


class SqlPlayers(SqlBase):
    """The player methods of the store."""

    async def player(self, platform: str, user_id: str, name: str, now: datetime) -> PlayerRow:
        """The player (platform, user_id), created if new; the display name is kept current."""
        row = await self._row(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE platform = ? AND user_id = ?",
            (platform, user_id),
        )
        if row is not None and row["name"] == name:
            return read_player(row)
        created = await self._write(
            lambda c: c.fetchrow(
                # Direct messages are opt-in (``settings dm on``): off for a new player.
                "INSERT INTO players (platform, user_id, name, created_at, dm_enabled) "
                "VALUES (?, ?, ?, ?, 0) "
                "ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name "
                f"RETURNING {PLAYER_COLUMNS}",
                (platform, user_id, name, to_ts(now)),
            )
        )
        return read_player(one(created))

    async def drop_new_player(self, player_id: int) -> bool:
        """Remove a player nothing refers to (made by a request that was then refused);
        whether it went.  A player anything refers to stays (the foreign keys refuse)."""
        try:
            return bool(
                await self._write(
                    lambda c: c.fetch(
                        "DELETE FROM players WHERE id = ? AND NOT EXISTS "
                        "(SELECT 1 FROM games WHERE seat0 = ? OR seat1 = ?) AND NOT EXISTS "
                        "(SELECT 1 FROM challenges WHERE challenger = ? OR target = ?) "
                        "RETURNING id",
                        (player_id, player_id, player_id, player_id, player_id),
                    )
                )
            )
        except StoreError:  # something else refers to it: it stays
            return False

    async def get_player(self, player_id: int) -> PlayerRow | None:
        """The player with this id, if any."""
        row = await self._row(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,))
        return None if row is None else read_player(row)

    async def find_player(self, platform: str, user_id: str) -> PlayerRow | None:
        """The player (platform, user_id), if known."""
        row = await self._row(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE platform = ? AND user_id = ?",
            (platform, user_id),
        )
        return None if row is None else read_player(row)

    async def set_settings(self, player_id: int, settings: Settings) -> None:
        """Store a player's notification settings."""
        quiet = settings.quiet
        values = (
            int(settings.direct),
            int(settings.reminders),
            None if quiet is None else quiet.start.hour * 60 + quiet.start.minute,
            None if quiet is None else quiet.end.hour * 60 + quiet.end.minute,
            0 if quiet is None else quiet.offset // timedelta(minutes=1),
            int(settings.direct),
            player_id,
        )
        await self._write(
            lambda c: c.execute(
                # Turning direct messages on asks for them again after a refusal.
                "UPDATE players SET dm_enabled = ?, reminders_enabled = ?, quiet_start = ?, "
                "quiet_end = ?, utc_offset_min = ?, "
                "dm_refused_at = CASE WHEN ? = 1 THEN NULL ELSE dm_refused_at END "
                "WHERE id = ?",
                values,
            )
        )

    async def away_spans(self, player_id: int) -> list[tuple[datetime, datetime]]:
        """A player's vacations as (start, end), oldest first.  One that cannot be read (a
        damaged time, an end before its start) is left out with a log line: it never counts,
        and the player's other vacations and games go on."""
        rows = await self._rows(
            "SELECT id, start_at, end_at FROM away_spans WHERE player_id = ? ORDER BY start_at, id",
            (player_id,),
        )
        spans = []
        for row in rows:
            r = Reader("away_spans", row)
            try:
                start, end = r.time("start_at"), r.time("end_at")
                if end < start:
                    raise r.bad("end_at", f"ends before it starts ({r.row['start_at']})")
            except BadRow as exc:
                log.error("%s; left out", exc)
                continue
            spans.append((start, end))
        return spans

    async def set_away(
        self,
        player_id: int,
        now: datetime,
        until: datetime | None,
        deadlines: Sequence[tuple[GameRow, datetime]],
        notes: Sequence[Notification] = (),
    ) -> bool:
        """In one transaction: cut a vacation running at ``now`` short, start a new one until
        ``until`` (``None``: just come back), move the given games' deadlines, and queue the
        notes.  ``False`` (nothing changed) if one of the games changed meanwhile."""

        async def away(conn: Conn) -> None:
            # Every time on the database's clock, which every process's sweep reads (issue 48).
            gap = await clock_gap(conn, now)
            at = now + gap
            end = None if until is None else until + gap
            await conn.execute(
                "UPDATE away_spans SET end_at = ? WHERE player_id = ? AND start_at <= ? "
                "AND end_at > ?",
                (to_ts(at), player_id, to_ts(at), to_ts(at)),
            )
            if end is not None:
                await conn.execute(
                    "INSERT INTO away_spans (player_id, start_at, end_at) VALUES (?, ?, ?)",
                    (player_id, to_ts(at), to_ts(end)),
                )
            await conn.execute(
                "UPDATE players SET away_until = ? WHERE id = ?", (opt_ts(end), player_id)
            )
            for game, moved in deadlines:
                deadline = moved + gap
                changed = await conn.execute(
                    "UPDATE games SET deadline_at = ?, alarm_at = ?, version = version + 1, "
                    "updated_at = ? "
                    "WHERE id = ? AND version = ? AND status = 'active'",
                    (
                        to_ts(deadline),
                        alarm_text(deadline, game.time_per_move, was_reminded(game)),
                        to_ts(at),
                        game.id,
                        game.version,
                    ),
                )
                if changed != 1:
                    raise _Stale
            await insert_notes(conn, notes)

        try:
            await self._write(away)
        except _Stale:
            return False
        return True
