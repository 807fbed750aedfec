"""The web board's links in SQL (:class:`SqlWeb`, a part of :class:`~bot.storage.sql.SqlStore`).

Table ``web_links`` (migration 9 of :mod:`bot.storage.schema`): one row per game that has a
page, with its unguessable ``slug`` (the page's address, :mod:`bot.webboard`), made the first
time a page link is asked for.  Several processes asking at once get the same slug: the insert
does nothing on a conflict and the stored one is read back.

Table ``web_watchers`` (the same migration): per game and bot process, how many of its pages
are open, valid until ``until`` (a process that stops refreshing drops out of the count).
"""

from __future__ import annotations

import secrets
from datetime import datetime

from bot.storage.dbapi import Conn, to_ts
from bot.storage.sql_base import SqlBase

__all__ = ["SLUG_BYTES", "SqlWeb"]

#: Random bytes in a slug (URL-safe base64: 16 bytes make 22 characters, 128 bits).
SLUG_BYTES = 16


class SqlWeb(SqlBase):
    """The web links methods of the store."""

    async def web_slug(self, game_id: int, now: datetime) -> str:
        """The slug of game ``game_id``'s page, made (at random) if it has none yet."""
        fresh = secrets.token_urlsafe(SLUG_BYTES)

        async def make(conn: Conn) -> str:
            await conn.execute(
                "INSERT INTO web_links (game_id, slug, created_at) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO NOTHING",
                (game_id, fresh, to_ts(now)),
            )
            row = await conn.fetchrow("SELECT slug FROM web_links WHERE game_id = ?", (game_id,))
            assert row is not None  # inserted or already there, in this transaction
            return str(row["slug"])

        return await self._write(make)

    async def game_of_slug(self, slug: str) -> int | None:
        """The game whose page is at ``slug`` (``None``: no such page)."""
        row = await self._row("SELECT game_id FROM web_links WHERE slug = ?", (slug,))
        return None if row is None else int(row["game_id"])

    async def watch_count(
        self, game_id: int, worker: str, watchers: int, until: datetime, now: datetime
    ) -> int:
        """Record that ``worker`` has ``watchers`` pages of ``game_id`` open (until ``until``;
        0 forgets it) and answer how many pages of it all processes have open at ``now``."""

        async def count(conn: Conn) -> int:
            await conn.execute(
                "DELETE FROM web_watchers WHERE game_id = ? AND (worker = ? OR until <= ?)",
                (game_id, worker, to_ts(now)),
            )
            if watchers > 0:
                await conn.execute(
                    "INSERT INTO web_watchers (game_id, worker, watchers, until) "
                    "VALUES (?, ?, ?, ?)",
                    (game_id, worker, watchers, to_ts(until)),
                )
            row = await conn.fetchrow(
                "SELECT COALESCE(SUM(watchers), 0) AS n FROM web_watchers WHERE game_id = ?",
                (game_id,),
            )
            return int(row["n"]) if row is not None else 0

        return await self._write(count)
