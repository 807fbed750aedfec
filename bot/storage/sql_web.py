"""The web board's links in SQL (:class:`SqlWeb`, a part of :class:`~bot.storage.sql.SqlStore`).

Table ``web_links`` (migration 8 of :mod:`bot.storage.schema`): one row per game that has a
page, with its unguessable ``slug`` (the page's address, :mod:`bot.webboard`), made the first
time a page link is asked for.  Several processes asking at once get the same slug: the insert
does nothing on a conflict and the stored one is read back.
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

        def make(conn: Conn) -> str:
            conn.execute(
                "INSERT INTO web_links (game_id, slug, created_at) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO NOTHING",
                (game_id, fresh, to_ts(now)),
            )
            row = conn.execute(
                "SELECT slug FROM web_links WHERE game_id = ?", (game_id,)
            ).fetchone()
            assert row is not None  # inserted or already there, in this transaction
            return str(row["slug"])

        return await self._write(make)

    async def game_of_slug(self, slug: str) -> int | None:
        """The game whose page is at ``slug`` (``None``: no such page)."""
        row = await self._row("SELECT game_id FROM web_links WHERE slug = ?", (slug,))
        return None if row is None else int(row["game_id"])
