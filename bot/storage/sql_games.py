"""Games and their moves in SQL (:class:`SqlGames`): creating, reading and listing games, and
every change of one (a move, its end, a takeback, an import, the clock's bookkeeping), each in
one transaction checked against the game's ``version`` and carrying its notifications.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.core.ending import Termination
from bot.core.notification import Notification
from bot.core.status import GameResult, GameStatus
from bot.ratings import Origin
from bot.storage.dbapi import Conn, Row, one, to_ts
from bot.storage.errors import BadRow
from bot.storage.premove_rows import drop_stale_premoves
from bot.storage.rows import GameRow, MoveRow, NewGame
from bot.storage.sql_base import SqlBase
from bot.storage.sql_clock import changed_game, deadline_on_db_clock
from bot.storage.sql_outbox import cancel_obsolete_notes, filled, insert_notes
from bot.storage.sql_rows import (
    GAME_COLUMNS,
    MOVE_COLUMNS,
    Reader,
    alarm_text,
    dumps,
    opt_ts,
    read_game,
    read_move,
    set_aside_game,
    status_match,
    was_reminded,
)
from bot.storage.sql_standings import write_rated_end
from bot.storage.standings import RatingEnd
from engines.levels import Level

__all__ = ["SqlGames", "insert_game"]

log = logging.getLogger(__name__)

#: How far ahead of now a game's stored alarm can be (a time per move of two weeks plus a
#: year's vacation days many times over): one further ahead is damaged and worked out again.
ALARM_REACH = timedelta(days=366)

_GAME_UPDATABLE = frozenset(
    {"draw_offer_by", "takeback_by", "reminder_sent_for_ply", "deadline_at"}
)


class SqlGames(SqlBase):
    """The game methods of the store."""

    async def _games(self, rows: Iterable[Row], *, keep_bad: bool = True) -> list[GameRow]:
        """Decode game rows.  One that cannot be read is set aside (status ``corrupt``, with
        a log line) and returned as far as it can be read (``keep_bad``) or left out."""
        games = []
        for row in rows:
            try:
                games.append(read_game(row))
            except BadRow as exc:
                if row["status"] != GameStatus.CORRUPT:
                    log.error("setting aside a game that cannot be read: %s", exc)
                    await self.mark_corrupt(row["id"], str(exc))
                if keep_bad:
                    games.append(set_aside_game(row, str(exc)))
        return games

    async def _game_or_none(self, row: Row | None) -> GameRow | None:
        if row is None:
            return None
        (game,) = await self._games([row])
        return game

    # -- games --------------------------------------------------------------------------------

    async def create_game(
        self, new: NewGame, now: datetime, notes: Sequence[Notification] = ()
    ) -> GameRow:
        """Create an active game directly (no challenge), with its notifications."""

        async def create(conn: Conn) -> Row:
            row = await insert_game(conn, new, now)
            await insert_notes(conn, [filled(n, game_id=row["id"]) for n in notes])
            return row

        return read_game(await self._write(create))

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, if any.  One that cannot be read is set aside (with a log
        line) and returned as far as it can be read, with status ``corrupt``."""
        row = await self._row(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return await self._game_or_none(row)

    async def game_with_moves(self, game_id: int) -> tuple[GameRow, list[MoveRow]] | None:
        """A game and its moves read in one transaction, so they agree with each other even
        while another process is writing; ``None`` if there is no such game.  A game that
        cannot be read is set aside and returned with status ``corrupt`` and no moves; moves
        that cannot be read set the game aside and raise :class:`BadRow`."""

        async def read(conn: Conn) -> tuple[Row | None, list[Row]]:
            async with conn.transaction(readonly=True):
                row = await conn.fetchrow(
                    f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
                )
                moves = await conn.fetch(
                    f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
                )
            return row, moves

        row, moves = await self._read(read)
        game = await self._game_or_none(row)
        if game is None:
            return None
        if game.status is GameStatus.CORRUPT:
            return game, []
        try:
            return game, [read_move(m) for m in moves]
        except BadRow as exc:
            log.error("setting aside a game whose moves cannot be read: %s", exc)
            await self.mark_corrupt(game_id, str(exc))
            raise

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The moves of a game in order."""
        rows = await self._rows(
            f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return await self._read_moves(game_id, rows)

    async def _read_moves(self, game_id: int, rows: Iterable[Row]) -> list[MoveRow]:
        """Decode a game's move rows; one that cannot be read sets the game aside and raises
        :class:`BadRow` naming the game (what its players are told about)."""
        try:
            return [read_move(r) for r in rows]
        except BadRow as exc:
            log.error("setting aside a game whose moves cannot be read: %s", exc)
            await self.mark_corrupt(game_id, str(exc))
            raise BadRow("games", game_id, "moves", str(exc)) from None

    async def move_at(self, game_id: int, ply: int) -> MoveRow | None:
        """The move played at ``ply`` in a game, if any."""
        row = await self._row(
            f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? AND ply = ?", (game_id, ply)
        )
        return None if row is None else (await self._read_moves(game_id, [row]))[0]

    async def games_of(
        self,
        player_id: int,
        statuses: Sequence[GameStatus],
        *,
        limit: int = 50,
        offset: int = 0,
    ) -> list[GameRow]:
        """Games where ``player_id`` sits with one of ``statuses``, newest first: ``limit``
        of them after skipping ``offset`` (pages through all of them)."""
        match, names = status_match(statuses)
        # One index lookup per seat (an OR of the two seats may make the planner scan).
        rows = await self._rows(
            f"SELECT {GAME_COLUMNS} FROM games WHERE seat0 = ? AND {match} "
            f"UNION ALL SELECT {GAME_COLUMNS} FROM games WHERE seat1 = ? AND seat0 <> ? "
            f"AND {match} ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?",
            (player_id, *names, player_id, player_id, *names, limit, offset),
        )
        return await self._games(rows)

    async def count_games_of(self, player_id: int, statuses: Sequence[GameStatus]) -> int:
        """How many games :meth:`games_of` pages through."""
        match, names = status_match(statuses)
        row = await self._row(
            f"SELECT (SELECT COUNT(*) FROM games WHERE seat0 = ? AND {match}) + "
            f"(SELECT COUNT(*) FROM games WHERE seat1 = ? AND seat0 <> ? AND {match})",
            (player_id, *names, player_id, player_id, *names),
        )
        return 0 if row is None else int(row[0])

    async def count_bot_games(self, player_id: int) -> int:
        """How many active games ``player_id`` plays against the bot."""
        row = await self._row(
            "SELECT (SELECT COUNT(*) FROM games WHERE seat0 = ? AND status = 'active' "
            "AND bot_seat IS NOT NULL) + (SELECT COUNT(*) FROM games WHERE seat1 = ? "
            "AND seat0 <> ? AND status = 'active' AND bot_seat IS NOT NULL)",
            (player_id, player_id, player_id),
        )
        return 0 if row is None else int(row[0])

    async def active_games_in_chat(
        self, player_id: int, platform: str, chat_id: str
    ) -> list[GameRow]:
        """Active games of ``player_id`` that live in this chat, oldest first (one that
        cannot be read is set aside and returned with status ``corrupt``)."""
        rows = await self._rows(
            f"SELECT {GAME_COLUMNS} FROM games WHERE seat0 = ? AND status = 'active' "
            "AND platform = ? AND chat_id = ? "
            f"UNION ALL SELECT {GAME_COLUMNS} FROM games WHERE seat1 = ? AND seat0 <> ? "
            "AND status = 'active' AND platform = ? AND chat_id = ? ORDER BY id",
            (player_id, platform, chat_id, player_id, player_id, platform, chat_id),
        )
        return await self._games(rows)

    async def chat_players(self, platform: str, chat_id: str) -> list[tuple[int, str, str, bool]]:
        """The players of every active game that lives in a chat, by game then player: (game
        id, user id, name, whether a direct message may reach them: the platform never
        refused one, ``players.dm_refused_at``).  Issue 26: a group that removed the bot."""
        rows = await self._rows(
            "SELECT g.id, p.user_id, p.name, "
            "CASE WHEN p.dm_refused_at IS NULL THEN 1 ELSE 0 END FROM games g "
            "JOIN players p ON p.id = g.seat0 OR p.id = g.seat1 "
            "WHERE g.status = 'active' AND g.platform = ? AND g.chat_id = ? ORDER BY g.id, p.id",
            (platform, chat_id),
        )
        return [(int(r[0]), str(r[1]), str(r[2]), bool(r[3])) for r in rows]

    async def _change_game(
        self,
        update: str,
        values: Sequence[Any],
        game_id: int,
        now: datetime,
        notes: Sequence[Notification],
        also: Callable[[Conn, Row], Awaitable[None]] | None = None,
        *,
        timed: bool = False,
    ) -> GameRow | None:
        """Every change of a stored game in one transaction: ``update`` (an ``UPDATE games
        ... WHERE`` with its version check, to which ``RETURNING`` is added), then ``also``
        (the moves row, rating changes), then what the change makes obsolete is cancelled and
        ``notes`` are added.  ``None`` (nothing written) if the check failed: the game changed
        meanwhile.  ``timed``: the change set a deadline reckoned from ``now``, which is moved
        onto the database's clock (:func:`deadline_on_db_clock`)."""

        async def change(conn: Conn) -> Row | None:
            row = await changed_game(conn, update, values)
            if row is None:
                return None
            if timed:
                row = await deadline_on_db_clock(conn, row, now)
            if also is not None:
                await also(conn, row)
            await drop_stale_premoves(conn, row)
            await cancel_obsolete_notes(conn, game_id, now)
            await insert_notes(conn, notes)
            return row

        row = await self._write(change)
        return None if row is None else read_game(row)

    async def apply_move(
        self,
        game: GameRow,
        move: str,
        seat: int,
        snapshot: Mapping[str, Any],
        to_move: int | None,
        now: datetime,
        notes: Sequence[Notification] = (),
        finish: tuple[int | None, GameResult, Termination] | None = None,
        deadline_at: datetime | None = None,
        rating: RatingEnd | None = None,
        alone_in: tuple[int, str, str] | None = None,
    ) -> GameRow | None:
        """Append ``move`` at ``game.ply`` and update the game, in one transaction: the game
        row (checked against ``game.ply`` and ``game.version``), the moves row, the
        notifications the move makes obsolete cancelled, and ``notes`` inserted.

        ``finish`` is ``(winner seat or None, result, reason)`` when the move ends the game.
        ``None`` if the stored game is no longer at ``game.ply`` / ``game.version`` or not
        active (another submission won the race): then nothing is written.  ``rating`` (with
        ``finish``): the players' rating changes, written in the same transaction
        (:class:`~bot.storage.standings.RatingsMoved` if a rating changed since they were
        computed: nothing is written).
        ``alone_in`` is ``(player id, platform, chat id)`` when the move was sent without
        naming its game and this must be that player's only active game in that chat (the
        check a typed move's choice of game needs, made in the write itself): ``None``
        (nothing written) when it is not.
        """
        sql, values, play = self.move_statement(
            game, move, seat, snapshot, to_move, now, finish, deadline_at, rating, alone_in
        )
        timed = deadline_at is not None and finish is None
        return await self._change_game(sql, values, game.id, now, notes, play, timed=timed)

    @staticmethod
    def move_statement(
        game: GameRow,
        move: str,
        seat: int,
        snapshot: Mapping[str, Any],
        to_move: int | None,
        now: datetime,
        finish: tuple[int | None, GameResult, Termination] | None = None,
        deadline_at: datetime | None = None,
        rating: RatingEnd | None = None,
        alone_in: tuple[int, str, str] | None = None,
    ) -> tuple[str, tuple[Any, ...], Callable[[Conn, Row], Awaitable[None]]]:
        """One move's statement (see :meth:`apply_move`) for a transaction: the game's checked
        ``UPDATE`` (to which ``RETURNING`` is added), its values, and the writes that go with
        it (the moves row, rating changes)."""
        status, winner, result, reason, finished_at = "active", None, None, None, None
        if finish is not None:
            status, finished_at = "finished", to_ts(now)
            winner, result_enum, ending = finish
            result, reason = str(GameResult(result_enum)), str(Termination(ending))
        values: tuple[Any, ...] = (
            to_move,
            dumps(dict(snapshot)),
            status,
            winner,
            result,
            reason,
            finished_at,
            to_ts(now),
            None if deadline_at is None or finish is not None else to_ts(deadline_at),
            alarm_text(None if finish is not None else deadline_at, game.time_per_move, False),
            seat,
            game.id,
            game.ply,
            game.version,
            game.premove_lines,
        )
        alone = ""
        if alone_in is not None:
            player, platform, chat_id = alone_in
            alone = (
                "AND (SELECT count(*) FROM games o WHERE o.seat0 = ? AND o.status = 'active' "
                "AND o.platform = ? AND o.chat_id = ?) + (SELECT count(*) FROM games o "
                "WHERE o.seat1 = ? AND o.seat0 <> ? AND o.status = 'active' "
                "AND o.platform = ? AND o.chat_id = ?) = 1 "
            )
            values += (player, platform, chat_id, player, player, platform, chat_id)

        async def play(conn: Conn, row: Row) -> None:
            await conn.execute(
                "INSERT INTO moves (game_id, ply, move, seat, played_at) VALUES (?, ?, ?, ?, ?)",
                (game.id, game.ply, move, seat, to_ts(now)),
            )
            if rating is not None and finish is not None:
                await write_rated_end(conn, row, rating)

        return (
            "UPDATE games SET ply = ply + 1, version = version + 1, to_move = ?, "
            "snapshot = ?, status = ?, winner = ?, result = ?, reason = ?, finished_at = ?, "
            "updated_at = ?, deadline_at = ?, alarm_at = ?, reminder_sent_for_ply = NULL, "
            "draw_offer_by = CASE WHEN draw_offer_by = ? THEN draw_offer_by END, "
            "takeback_by = NULL "
            # The lines it keeps as ``game`` counted them: the move's prepared reply was looked
            # for (bot.sessions.premoves.follow_up) only if it keeps some, so a row that missed
            # lines added since (another process's cache) is judged again, fresh.
            "WHERE id = ? AND ply = ? AND version = ? AND status = 'active' "
            "AND premove_lines = ? " + alone,
            values,
            play,
        )

    async def finish_game(
        self,
        game: GameRow,
        status: GameStatus,
        winner: int | None,
        result: GameResult,
        reason: Termination,
        now: datetime,
        notes: Sequence[Notification] = (),
        rating: RatingEnd | None = None,
    ) -> GameRow | None:
        """End an active game without a move (resignation, timeout, agreement, abort), cancel
        what that makes obsolete and add ``notes``, in one transaction.  ``None`` if the game
        changed meanwhile or is not active.  ``rating``: the players' rating changes, written
        in the same transaction (as in :meth:`apply_move`)."""
        values = (
            str(GameStatus(status)),
            winner,
            str(GameResult(result)),
            str(Termination(reason)),
            to_ts(now),
            to_ts(now),
            game.id,
            game.version,
        )

        async def finish(conn: Conn, row: Row) -> None:
            if rating is not None:
                await write_rated_end(conn, row, rating)

        return await self._change_game(
            "UPDATE games SET version = version + 1, status = ?, winner = ?, result = ?, "
            "reason = ?, finished_at = ?, updated_at = ?, to_move = NULL, deadline_at = NULL, "
            "alarm_at = NULL, "
            "draw_offer_by = NULL, takeback_by = NULL "
            "WHERE id = ? AND version = ? AND status = 'active' ",
            values,
            game.id,
            now,
            notes,
            finish,
        )

    async def update_game(
        self,
        game: GameRow,
        now: datetime,
        notes: Sequence[Notification] = (),
        **columns: int | datetime | None,
    ) -> GameRow | None:
        """Set some of ``draw_offer_by``, ``takeback_by``, ``reminder_sent_for_ply`` and
        ``deadline_at`` if the game is still at ``game.version`` (bumping the version), cancel
        what that makes obsolete (a withdrawn request) and add ``notes``; ``None`` if it
        changed meanwhile.  ``ValueError`` for any other column."""
        bad = set(columns) - _GAME_UPDATABLE
        if bad:
            raise ValueError(f"not updatable game columns: {sorted(bad)}")
        assignments = "".join(f"{name} = ?, " for name in columns)
        values = [to_ts(v) if isinstance(v, datetime) else v for v in columns.values()]
        # The sweep's next look moves with the deadline and the reminder.
        due = columns.get("deadline_at", game.deadline_at)
        reminded = columns.get("reminder_sent_for_ply", game.reminder_sent_for_ply) == game.ply
        alarm = alarm_text(due if isinstance(due, datetime) else None, game.time_per_move, reminded)

        return await self._change_game(
            f"UPDATE games SET {assignments}alarm_at = ?, version = version + 1, updated_at = ? "
            "WHERE id = ? AND version = ? ",
            (*values, alarm, to_ts(now), game.id, game.version),
            game.id,
            now,
            notes,
            timed=isinstance(columns.get("deadline_at"), datetime),
        )

    async def mark_corrupt(self, game_id: int, reason: str) -> None:
        """Set a game aside: status ``corrupt`` with the reason (its rows are kept as they are)."""
        await self._write(
            lambda c: c.execute(
                "UPDATE games SET status = 'corrupt', corrupt_reason = ?, version = version + 1 "
                "WHERE id = ?",
                (reason[:500], game_id),
            )
        )

    async def take_back(
        self,
        game: GameRow,
        snapshot: Mapping[str, Any],
        to_move: int,
        now: datetime,
        deadline_at: datetime | None,
        notes: Sequence[Notification] = (),
    ) -> GameRow | None:
        """Undo the last move of an active game in one transaction: its moves row goes, the
        game returns to ``snapshot`` with ``to_move`` to play, and the "your turn" / reminder
        of the undone ply are cancelled (so the move played instead is announced again).
        ``None`` if the game changed meanwhile."""
        values = (
            to_move,
            dumps(dict(snapshot)),
            to_ts(now),
            opt_ts(deadline_at),
            alarm_text(deadline_at, game.time_per_move, False),
            game.id,
            game.ply,
            game.version,
        )

        async def undo(conn: Conn, row: Row) -> None:
            await conn.execute(
                "DELETE FROM moves WHERE game_id = ? AND ply = ?", (game.id, game.ply - 1)
            )

        return await self._change_game(
            "UPDATE games SET ply = ply - 1, version = version + 1, to_move = ?, "
            "snapshot = ?, updated_at = ?, deadline_at = ?, alarm_at = ?, "
            "reminder_sent_for_ply = NULL, "
            "draw_offer_by = NULL, takeback_by = NULL "
            "WHERE id = ? AND ply = ? AND version = ? AND status = 'active' ",
            values,
            game.id,
            now,
            notes,
            undo,
            timed=deadline_at is not None,
        )

    async def import_game(
        self,
        new: NewGame,
        moves: Sequence[str],
        seats: Sequence[int],
        now: datetime,
        finish: tuple[GameStatus, int | None, GameResult, Termination] | None,
    ) -> GameRow:
        """Store a game read from a record, with all its moves, in one transaction.

        ``seats[i]`` is the seat that played ``moves[i]``; ``finish`` is ``(status, winner,
        result, reason)`` for a game that is over.  ``new.snapshot`` is the final position."""
        over = finish is not None
        status, winner, result, reason = finish or (GameStatus.ACTIVE, None, None, None)

        async def store(conn: Conn) -> Row:
            game = await insert_game(conn, new, now)
            await conn.executemany(
                "INSERT INTO moves (game_id, ply, move, seat, played_at) VALUES (?, ?, ?, ?, ?)",
                [(game["id"], i, m, seats[i], to_ts(now)) for i, m in enumerate(moves)],
            )
            # An imported game is never rated: its result was not played here.
            row = one(
                await conn.fetchrow(
                    "UPDATE games SET ply = ?, status = ?, winner = ?, result = ?, reason = ?, "
                    "finished_at = ?, to_move = ?, deadline_at = ?, alarm_at = ?, "
                    "origin = 'imported', rated = 0 "
                    f"WHERE id = ? RETURNING {GAME_COLUMNS}",
                    (
                        len(moves),
                        str(GameStatus(status)),
                        winner,
                        None if result is None else str(GameResult(result)),
                        None if reason is None else str(Termination(reason)),
                        to_ts(now) if over else None,
                        None if over else new.to_move,
                        None if over else opt_ts(new.deadline_at),
                        None if over else alarm_text(new.deadline_at, new.time_per_move, False),
                        game["id"],
                    ),
                )
            )
            return await deadline_on_db_clock(conn, row, now) if not over else row

        return read_game(await self._write(store))

    # -- clocks ---------------------------------------------------------------------------------

    async def clock_games(self, horizon: datetime) -> list[GameRow]:
        """Active games with clock work due by ``horizon``: their reminder's time or their
        deadline has come (the sweeper asks with ``now``).  One index range over the games'
        stored alarms, whatever the number of games with a clock.  A game that cannot be read
        is set aside with a log line; the others are returned."""
        # An alarm beyond any a clock can set is damaged text ('garbage' sorts after every
        # time): read too, and worked out again, so a damaged alarm never stops a clock.
        rows = await self._rows(
            f"SELECT {GAME_COLUMNS}, alarm_at FROM games WHERE status = 'active' "
            "AND (alarm_at <= ? OR alarm_at > ?) ORDER BY alarm_at, id",
            (to_ts(horizon), to_ts(horizon + ALARM_REACH)),
        )
        # A game with a deadline and no alarm at all (a row written by hand or a tool) would
        # never be looked at: found through its own (normally empty) index, worked out again.
        missing = await self._rows(
            f"SELECT {GAME_COLUMNS}, alarm_at FROM games WHERE status = 'active' "
            "AND alarm_at IS NULL AND deadline_at IS NOT NULL ORDER BY id"
        )
        due = to_ts(horizon)
        # '' marks the games of a database from before alarms (schema 8): their alarm is
        # worked out here, once.
        redo = [r["alarm_at"] == "" or r["alarm_at"] > due for r in rows]
        again = [r for r, worked_out in zip(rows, redo, strict=True) if worked_out]
        for row in again:
            if row["alarm_at"] != "":
                try:
                    Reader("games", row).time("alarm_at")
                except BadRow as exc:
                    log.error("%s; worked out again from its deadline", exc)
        for row in missing:
            log.error(
                "games #%s: its alarm is missing; worked out again from its deadline", row["id"]
            )
        again += missing
        kept = [r for r, worked_out in zip(rows, redo, strict=True) if not worked_out]
        games = await self._games(kept, keep_bad=False)
        unset = await self._games(again, keep_bad=False)
        alarms = [(alarm_text(g.deadline_at, g.time_per_move, was_reminded(g)), g) for g in unset]
        if alarms:
            await self._write(
                lambda c: c.executemany(
                    "UPDATE games SET alarm_at = ? WHERE id = ?", [(a, g.id) for a, g in alarms]
                )
            )
        return games + [g for a, g in alarms if a is not None and a <= to_ts(horizon)]

    async def bot_turn_games(self, limit: int = 1000) -> list[GameRow]:
        """Active games against the bot where the bot is to move, oldest first (at most
        ``limit``); a game that cannot be read is set aside with a log line."""
        rows = await self._rows(
            f"SELECT {GAME_COLUMNS} FROM games{self.BOT_TURN_INDEX} WHERE status = 'active' "
            "AND bot_seat IS NOT NULL AND to_move = bot_seat ORDER BY id LIMIT ?",
            (limit,),
        )
        return await self._games(rows, keep_bad=False)

    async def next_deadline(self) -> datetime | None:
        """The earliest deadline of any active game (games whose deadline cannot be read are
        set aside)."""
        while True:
            row = await self._row(
                "SELECT id, status, deadline_at FROM games WHERE status = 'active' "
                "AND deadline_at IS NOT NULL ORDER BY deadline_at LIMIT 1"
            )
            if row is None:
                return None
            try:
                return Reader("games", row).time("deadline_at")
            except BadRow as exc:
                log.error("setting aside a game that cannot be read: %s", exc)
                await self.mark_corrupt(row["id"], str(exc))


async def insert_game(conn: Conn, new: NewGame, now: datetime) -> Row:
    """Insert an active game at ply 0 inside the caller's transaction; its stored row."""
    row = one(
        await conn.fetchrow(
            "INSERT INTO games (game, options, seat0, seat1, platform, chat_id, status, ply, "
            "to_move, snapshot, created_at, updated_at, time_per_move, deadline_at, alarm_at, "
            "rematch_of, challenge_id, rated, origin, community, bot_seat, bot_level) "
            "VALUES (?, ?, ?, ?, ?, ?, 'active', 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            f"RETURNING {GAME_COLUMNS}",
            (
                new.game,
                dumps(dict(new.options)),
                new.seat0,
                new.seat1,
                new.platform,
                new.chat_id,
                new.to_move,
                dumps(dict(new.snapshot)),
                to_ts(now),
                to_ts(now),
                new.time_per_move,
                opt_ts(new.deadline_at),
                alarm_text(new.deadline_at, new.time_per_move, False),
                new.rematch_of,
                new.challenge_id,
                int(bool(new.rated)),
                Origin(new.origin).value,
                new.chat_id if new.community is None else new.community,
                new.bot_seat,
                None if new.bot_level is None else Level(new.bot_level).value,
            ),
        )
    )
    return await deadline_on_db_clock(conn, row, now)
