"""The one statement every change of a game runs on its conditional moves (issue 46, see
:mod:`bot.storage.sql_premoves`), apart so that the games part needs nothing else of them."""

from __future__ import annotations

from bot.storage.dbapi import Conn, Row

__all__ = ["drop_stale_premoves"]


async def drop_stale_premoves(conn: Conn, game: Row) -> None:
    """Inside a change of ``game`` (its row as the change left it): drop its lines prepared for
    another ply, and all of them when it is over."""
    await conn.execute(
        "DELETE FROM premoves WHERE game_id = ? AND (ply <> ? OR ? <> 'active')",
        (game["id"], game["ply"], game["status"]),
    )
