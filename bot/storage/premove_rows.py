"""The statements every change of a game runs on its conditional moves (issue 46, see
:mod:`bot.storage.sql_premoves`), apart so that the games part needs nothing else of them.

``games.premove_lines`` counts the game's lines (schema 18): every write of ``premoves`` keeps
it (:func:`recount_premoves`), so a change of a game without lines, the common case, reads it
from the game's own ``RETURNING`` and runs nothing here."""

from __future__ import annotations

from bot.storage.dbapi import Conn, Row

__all__ = ["drop_stale_premoves", "recount_premoves"]


async def drop_stale_premoves(conn: Conn, game: Row) -> None:
    """Inside a change of ``game`` (its row as the change left it): drop its lines prepared for
    another ply, and all of them when it is over (nothing to do when it keeps none)."""
    if not game["premove_lines"]:
        return
    dropped = await conn.execute(
        "DELETE FROM premoves WHERE game_id = ? AND (ply <> ? OR ? <> 'active')",
        (game["id"], game["ply"], game["status"]),
    )
    if dropped:
        await recount_premoves(conn, int(game["id"]))


async def recount_premoves(conn: Conn, game_id: int) -> None:
    """Inside a write of the game's lines: count them again into ``games.premove_lines``."""
    await conn.execute(
        "UPDATE games SET premove_lines = "
        "(SELECT count(*) FROM premoves WHERE game_id = ?) WHERE id = ?",
        (game_id, game_id),
    )
