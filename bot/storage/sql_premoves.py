"""Conditional moves ("premoves", issue 46) in SQL (:class:`SqlPremoves`): the lines a player
prepared for a game during the opponent's turn, and the one transaction that stores the
opponent's move together with the prepared reply it matched.

A line is stored at the game's ply where its next move (the opponent's) is due.  Every change
of a game (:meth:`~bot.storage.sql_games.SqlGames._change_game`) drops, in its own
transaction, the lines that change made stale
(:func:`~bot.storage.premove_rows.drop_stale_premoves`): those of another ply (a move was
played, or taken back) and all of them once the game is over (a result, a draw agreed, a
timeout).  Lines are read only by their owner's commands and by the move that plays them:
nothing that shows a game (its board, page, record or history) reads this table.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.core.ending import Termination
from bot.core.notification import Notification
from bot.core.status import GameResult
from bot.storage.dbapi import Conn, Row, to_ts
from bot.storage.errors import BadRow
from bot.storage.premove_rows import drop_stale_premoves, recount_premoves
from bot.storage.rows import GameRow
from bot.storage.sql_base import SqlBase
from bot.storage.sql_clock import changed_game, deadline_on_db_clock
from bot.storage.sql_games import SqlGames
from bot.storage.sql_outbox import cancel_obsolete_notes, insert_notes
from bot.storage.sql_rows import GAME_COLUMNS, read_game
from bot.storage.standings import RatingEnd

__all__ = ["PlannedMove", "PremoveLine", "SqlPremoves"]

#: The most lines one player keeps for one game, and the most moves in one line.
MOST_LINES = 20
MOST_MOVES = 40


@dataclass(frozen=True)
class PremoveLine:
    """One prepared line: ``moves`` alternate, the opponent's first, then the owner's reply."""

    id: int
    game_id: int
    player_id: int
    ply: int
    line: int
    moves: tuple[str, ...]


@dataclass(frozen=True)
class PlannedMove:
    """One move to store (the arguments of :meth:`~bot.storage.sql_games.SqlGames.apply_move`
    but the notes, which go with the whole change)."""

    move: str
    seat: int
    snapshot: Mapping[str, Any]
    to_move: int | None
    finish: tuple[int | None, GameResult, Termination] | None = None
    deadline_at: datetime | None = None
    rating: RatingEnd | None = None
    #: the writing process's now that ``deadline_at`` was reckoned from (what the store is
    #: given as the change's now, so the deadline moves onto the database's clock exactly)
    planned_at: datetime | None = None


def _read_line(row: Row) -> PremoveLine:
    try:
        moves = json.loads(row["moves"])
    except (TypeError, ValueError) as exc:
        raise BadRow("premoves", row["id"], "moves", str(exc)) from None
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise BadRow("premoves", row["id"], "moves", "not a list of moves")
    return PremoveLine(
        int(row["id"]),
        int(row["game_id"]),
        int(row["player_id"]),
        int(row["ply"]),
        int(row["line"]),
        tuple(moves),
    )


_LINE_COLUMNS = "id, game_id, player_id, ply, line, moves"


async def _insert_lines(
    conn: Conn,
    game_id: int,
    player_id: int,
    ply: int,
    lines: Sequence[Sequence[str]],
    first: int,
    now: datetime,
) -> None:
    await conn.executemany(
        "INSERT INTO premoves (game_id, player_id, ply, line, moves, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [
            (game_id, player_id, ply, first + n, json.dumps(list(moves)), to_ts(now))
            for n, moves in enumerate(lines)
        ],
    )


class SqlPremoves(SqlBase):
    """The conditional-move methods of the store."""

    async def add_premove_lines(
        self,
        game_id: int,
        player_id: int,
        ply: int,
        lines: Sequence[Sequence[str]],
        now: datetime,
    ) -> bool:
        """Add ``player_id``'s ``lines`` to the game's, after theirs already kept, if the game
        is still active at ``ply`` (else nothing is written: ``False``)."""

        async def add(conn: Conn) -> bool:
            # Counted on the game's row (premove_rows), which also holds back a move racing it.
            game = await conn.fetchrow(
                "UPDATE games SET premove_lines = premove_lines + ? "
                "WHERE id = ? AND ply = ? AND status = 'active' RETURNING id",
                (len(lines), game_id, ply),
            )
            if game is None:
                return False
            last = await conn.fetchrow(
                "SELECT max(line) AS last FROM premoves WHERE game_id = ? AND ply = ?",
                (game_id, ply),
            )
            first = 0 if last is None or last["last"] is None else int(last["last"]) + 1
            await _insert_lines(conn, game_id, player_id, ply, lines, first, now)
            return True

        return await self._write(add)

    async def premove_lines(self, game_id: int, ply: int) -> list[PremoveLine]:
        """The game's lines kept for ``ply``, first line first."""
        rows = await self._rows(
            f"SELECT {_LINE_COLUMNS} FROM premoves WHERE game_id = ? AND ply = ? ORDER BY line",
            (game_id, ply),
        )
        return [_read_line(r) for r in rows]

    async def premoves_of(self, game_id: int, player_id: int) -> list[PremoveLine]:
        """``player_id``'s lines for the game, first line first."""
        rows = await self._rows(
            f"SELECT {_LINE_COLUMNS} FROM premoves WHERE game_id = ? AND player_id = ? "
            "ORDER BY ply, line",
            (game_id, player_id),
        )
        return [_read_line(r) for r in rows]

    async def clear_premoves(self, game_id: int, player_id: int) -> int:
        """Drop ``player_id``'s lines for the game; how many."""

        async def clear(conn: Conn) -> int:
            dropped = await conn.execute(
                "DELETE FROM premoves WHERE game_id = ? AND player_id = ?", (game_id, player_id)
            )
            if dropped:
                await recount_premoves(conn, game_id)
            return dropped

        return await self._write(clear)

    async def apply_with_reply(
        self,
        game: GameRow,
        first: PlannedMove,
        reply: PlannedMove,
        owner_id: int,
        kept: Sequence[Sequence[str]],
        now: datetime,
        notes: Sequence[Notification] = (),
        alone_in: tuple[int, str, str] | None = None,
    ) -> GameRow | None:
        """Store the opponent's ``first`` move and the prepared ``reply`` it matched, in one
        transaction: both moves (each checked as :meth:`~bot.storage.sql_games.SqlGames.
        apply_move` checks one), the owner's lines that go on past the reply (``kept``, each
        from the opponent's next move on) for the ply after it, the rest of the game's lines
        dropped, what the change makes obsolete cancelled and ``notes`` inserted.  ``None``
        if the stored game was no longer at ``game``'s ply and version: nothing is written."""

        async def both(conn: Conn) -> Row | None:
            sql, values, also = SqlGames.move_statement(
                game, first.move, first.seat, first.snapshot, first.to_move, now,
                first.finish, first.deadline_at, first.rating, alone_in,
            )  # fmt: skip
            row = await changed_game(conn, sql, values)
            if row is None:
                return None
            await also(conn, row)
            sql, values, also = SqlGames.move_statement(
                read_game(row), reply.move, reply.seat, reply.snapshot, reply.to_move, now,
                reply.finish, reply.deadline_at, reply.rating,
            )  # fmt: skip
            row = await conn.fetchrow(f"{sql}RETURNING {GAME_COLUMNS}", values)
            if row is None:  # the row was changed in this transaction: cannot be stale
                raise LookupError(f"game {game.id}: the prepared reply found no game to update")
            if reply.deadline_at is not None and reply.finish is None:
                row = await deadline_on_db_clock(conn, row, now)  # as apply_move's "timed"
            await also(conn, row)
            await drop_stale_premoves(conn, row)
            if kept and row["status"] == "active":
                await _insert_lines(conn, game.id, owner_id, int(row["ply"]), kept, 0, now)
                await recount_premoves(conn, game.id)
            await cancel_obsolete_notes(conn, game.id, now)
            await insert_notes(conn, notes)
            return row

        row = await self._write(both)
        return None if row is None else read_game(row)
