"""Tournaments in SQL (:class:`SqlTournaments`): opening one, signing up and leaving, starting
it with all its games, replays, withdrawals, the standings posts and the end.

Every change of a tournament's status is a conditional ``UPDATE ... WHERE status = ?``: of two
processes (or a sweep and a command) trying to start, cancel or finish the same tournament, one
finds the row and does it, with its games and notifications in the same transaction; the other
finds nothing and does nothing.  Signing up first takes the tournament's row (an ``UPDATE`` that
changes nothing locks it in PostgreSQL; SQLite has one writer), so the count of players that
guards ``max`` holds across processes.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from datetime import datetime

from bot.core.notification import Notification
from bot.storage.dbapi import Conn, Row, one, to_ts
from bot.storage.errors import BadRow
from bot.storage.rows import GameRow
from bot.storage.sql_base import SqlBase
from bot.storage.sql_clock import clock_gap
from bot.storage.sql_games import insert_game
from bot.storage.sql_outbox import filled, insert_notes
from bot.storage.sql_rows import GAME_COLUMNS, Reader, dumps, opt_ts, read_game
from bot.storage.tournament_rows import (
    EntrantRow,
    NewTournament,
    TournamentGameRow,
    TournamentNewGame,
    TournamentRow,
    TournamentStatus,
)

__all__ = ["Joined", "SqlTournaments"]

_COLUMNS = (
    "id, platform, chat_id, community, creator, game, options, time_per_move, rounds, rated, "
    "max_players, status, created_at, starts_by, started_at, finished_at, standings_at, swept"
)
_ENTRANT_COLUMNS = "player_id, joined_at, rating, grp, withdrawn_at, withdrawn_why, place"


class _SignUpChanged(Exception):
    """The players of a tournament changed while it was being started (rolls it back)."""


class Joined(enum.Enum):
    """What signing up did."""

    JOINED = "joined"
    ALREADY = "already"
    FULL = "full"
    CLOSED = "closed"


def read_tournament(row: Row) -> TournamentRow:
    """A stored tournament; :class:`BadRow` naming what cannot be read."""
    r = Reader("tournaments", row)
    try:
        status = TournamentStatus(r.text("status"))
    except ValueError:
        raise r.bad("status", f"not a status: {row['status']!r}") from None

    try:
        options = json.loads(r.text("options"))
    except ValueError:
        raise r.bad("options", "not JSON") from None
    if not isinstance(options, dict):
        raise r.bad("options", "not an object")
    return TournamentRow(
        id=r.integer("id"),
        platform=r.text("platform"),
        chat_id=r.text("chat_id"),
        community=r.text("community"),
        creator=r.integer("creator"),
        game=r.text("game"),
        options=options,
        time_per_move=r.number("time_per_move"),
        rounds=r.integer("rounds"),
        rated=bool(r.integer("rated")),
        max_players=r.integer("max_players"),
        status=status,
        created_at=r.time("created_at"),
        starts_by=r.time("starts_by"),
        started_at=r.opt_time("started_at"),
        finished_at=r.opt_time("finished_at"),
        standings_at=r.opt_time("standings_at"),
        swept=r.opt_integer("swept"),
    )


def _entrant(row: Row) -> EntrantRow:
    r = Reader("tournament_players", row)
    return EntrantRow(
        player_id=r.integer("player_id"),
        joined_at=r.time("joined_at"),
        rating=r.integer("rating"),
        group=r.opt_integer("grp"),
        withdrawn_at=r.opt_time("withdrawn_at"),
        withdrawn_why=r.opt_text("withdrawn_why"),
        place=r.opt_integer("place"),
    )


async def _insert_games(
    conn: Conn, tournament_id: int, games: Sequence[TournamentNewGame], now: datetime
) -> list[Row]:
    rows = []
    for new in games:
        row = await insert_game(conn, new.game, now)
        await conn.execute(
            "INSERT INTO tournament_games (game_id, tournament_id, grp, leg, replay_of) "
            "VALUES (?, ?, ?, ?, ?)",
            (row["id"], tournament_id, new.group, new.leg, new.replay_of),
        )
        await insert_notes(conn, [filled(n, game_id=row["id"]) for n in new.notes])
        rows.append(row)
    return rows


class SqlTournaments(SqlBase):
    """The tournament methods of the store."""

    async def create_tournament(
        self, new: NewTournament, now: datetime, starts_by: datetime
    ) -> TournamentRow:
        """Open a tournament for sign-up; its creator is its first player."""

        async def create(conn: Conn) -> Row:
            # Both times on the database's clock, which every process's sweep reads (issue 48).
            gap = await clock_gap(conn, now)
            created, due = now + gap, starts_by + gap
            row = one(
                await conn.fetchrow(
                    "INSERT INTO tournaments (platform, chat_id, community, creator, game, "
                    "options, time_per_move, rounds, rated, max_players, status, created_at, "
                    "starts_by) "
                    f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?) RETURNING {_COLUMNS}",
                    (
                        new.platform,
                        new.chat_id,
                        new.community,
                        new.creator,
                        new.game,
                        dumps(dict(new.options)),
                        new.time_per_move,
                        new.rounds,
                        int(new.rated),
                        new.max_players,
                        to_ts(created),
                        to_ts(due),
                    ),
                )
            )
            await conn.execute(
                "INSERT INTO tournament_players (tournament_id, player_id, joined_at) "
                "VALUES (?, ?, ?)",
                (row["id"], new.creator, to_ts(created)),
            )
            return row

        return read_tournament(await self._write(create))

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        """The tournament with this id, if any."""
        row = await self._row(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else read_tournament(row)

    async def chat_tournaments(
        self, platform: str, chat_id: str, limit: int = 50
    ) -> list[TournamentRow]:
        """The tournaments of a chat, newest first (at most ``limit``)."""
        rows = await self._rows(
            f"SELECT {_COLUMNS} FROM tournaments WHERE platform = ? AND chat_id = ? "
            "ORDER BY id DESC LIMIT ?",
            (platform, chat_id, limit),
        )
        return [read_tournament(r) for r in rows]

    async def live_tournaments(self) -> list[TournamentRow]:
        """Every tournament open for sign-up or running (what the sweep looks at)."""
        rows = await self._rows(
            f"SELECT {_COLUMNS} FROM tournaments WHERE status IN ('open', 'running') ORDER BY id"
        )
        out = []
        for row in rows:
            try:
                out.append(read_tournament(row))
            except BadRow:
                continue
        return out

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """Who signed up for a tournament, in the order they did."""
        rows = await self._rows(
            f"SELECT {_ENTRANT_COLUMNS} FROM tournament_players WHERE tournament_id = ? "
            "ORDER BY joined_at, player_id",
            (tournament_id,),
        )
        return [_entrant(r) for r in rows]

    async def join_tournament(self, tournament_id: int, player_id: int, now: datetime) -> Joined:
        """Sign ``player_id`` up for an open tournament that is not full."""

        async def join(conn: Conn) -> Joined:
            locked = await conn.fetchrow(
                "UPDATE tournaments SET status = status WHERE id = ? AND status = 'open' "
                "RETURNING max_players",
                (tournament_id,),
            )
            if locked is None:
                return Joined.CLOSED
            there = await conn.fetchrow(
                "SELECT 1 FROM tournament_players WHERE tournament_id = ? AND player_id = ?",
                (tournament_id, player_id),
            )
            if there is not None:
                return Joined.ALREADY
            (count,) = one(
                await conn.fetchrow(
                    "SELECT COUNT(*) FROM tournament_players WHERE tournament_id = ?",
                    (tournament_id,),
                )
            )
            if count >= locked["max_players"]:
                return Joined.FULL
            await conn.execute(
                "INSERT INTO tournament_players (tournament_id, player_id, joined_at) "
                "VALUES (?, ?, ?)",
                (tournament_id, player_id, to_ts(now)),
            )
            return Joined.JOINED

        return await self._write(join)

    async def leave_open_tournament(self, tournament_id: int, player_id: int) -> bool:
        """Take ``player_id`` off an open tournament's list; ``False`` if they were not on it
        or it is no longer open."""

        async def leave(conn: Conn) -> bool:
            gone = await conn.execute(
                "DELETE FROM tournament_players WHERE tournament_id = ? AND player_id = ? "
                "AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'open')",
                (tournament_id, player_id, tournament_id),
            )
            return bool(gone)

        return await self._write(leave)

    async def start_tournament(
        self,
        tournament_id: int,
        placed: Mapping[int, tuple[int, int]],
        games: Sequence[TournamentNewGame],
        now: datetime,
        notes: Sequence[Notification] = (),
    ) -> list[GameRow] | None:
        """Start an open tournament: its players' ``(group, rating)`` by player id, all its
        games and their notifications, and ``notes``, in one transaction.  ``None`` if it was
        no longer open (another process or the creator started or cancelled it), or if its
        players are no longer those of ``placed`` (someone joined or left meanwhile: nothing
        is stored, and the caller may plan again)."""

        async def start(conn: Conn) -> list[Row] | None:
            started = await conn.fetchrow(
                "UPDATE tournaments SET status = 'running', started_at = ?, standings_at = ? "
                "WHERE id = ? AND status = 'open' RETURNING id",
                (to_ts(now), to_ts(now), tournament_id),
            )
            if started is None:
                return None
            signed = await conn.fetch(
                "SELECT player_id FROM tournament_players WHERE tournament_id = ?",
                (tournament_id,),
            )
            if {row["player_id"] for row in signed} != set(placed):
                raise _SignUpChanged  # someone joined or left meanwhile: undo, start afresh
            for player, (group, rating) in placed.items():
                await conn.execute(
                    "UPDATE tournament_players SET grp = ?, rating = ? "
                    "WHERE tournament_id = ? AND player_id = ?",
                    (group, rating, tournament_id, player),
                )
            # The chat's notes first: the start message goes out before the games' boards.
            await insert_notes(conn, notes)
            return await _insert_games(conn, tournament_id, games, now)

        try:
            rows = await self._write(start)
        except _SignUpChanged:
            return None
        return None if rows is None else [read_game(r) for r in rows]

    async def close_tournament(
        self,
        tournament_id: int,
        was: TournamentStatus,
        status: TournamentStatus,
        now: datetime,
        notes: Sequence[Notification] = (),
        places: Mapping[int, int] | None = None,
    ) -> bool:
        """Move a tournament from ``was`` to ``status`` (cancelled, finished), storing the
        final ``places`` by player id and adding ``notes``; ``False`` if it was not ``was``."""

        async def close(conn: Conn) -> bool:
            done = await conn.fetchrow(
                "UPDATE tournaments SET status = ?, finished_at = ? WHERE id = ? AND status = ? "
                "RETURNING id",
                (str(status), to_ts(now), tournament_id, str(was)),
            )
            if done is None:
                return False
            for player, place in (places or {}).items():
                await conn.execute(
                    "UPDATE tournament_players SET place = ? "
                    "WHERE tournament_id = ? AND player_id = ?",
                    (place, tournament_id, player),
                )
            await insert_notes(conn, notes)
            return True

        return await self._write(close)

    async def tournament_games(self, tournament_id: int) -> list[TournamentGameRow]:
        """The games of a tournament (replays too), in the order they were made."""
        rows = await self._rows(
            "SELECT game_id, grp, leg, replay_of FROM tournament_games "
            "WHERE tournament_id = ? ORDER BY game_id",
            (tournament_id,),
        )
        out = []
        for row in rows:
            r = Reader("tournament_games", row)
            out.append(
                TournamentGameRow(
                    r.integer("game_id"),
                    r.integer("grp"),
                    r.integer("leg"),
                    r.opt_integer("replay_of"),
                )
            )
        return out

    async def tournament_game_rows(
        self, tournament_id: int
    ) -> list[tuple[TournamentGameRow, GameRow]]:
        """The games of a tournament with their rows, in one query (what the standings and
        the sweep read); a game row that cannot be read is left out (reading it on its own sets it
        aside, with a log line)."""
        columns = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        rows = await self._rows(
            f"SELECT t.game_id, t.grp, t.leg, t.replay_of, {columns} FROM tournament_games t "
            "JOIN games g ON g.id = t.game_id WHERE t.tournament_id = ? ORDER BY t.game_id",
            (tournament_id,),
        )
        out = []
        for row in rows:
            r = Reader("tournament_games", row)
            listed = TournamentGameRow(
                r.integer("game_id"), r.integer("grp"), r.integer("leg"), r.opt_integer("replay_of")
            )
            try:
                game = read_game(row)
            except BadRow:
                continue  # set aside when read on its own (get_game); no result here
            out.append((listed, game))
        return out

    async def tournament_fingerprint(self, tournament_id: int) -> tuple[int, datetime | None]:
        """A number that grows with every change of a tournament's games (the sum of their
        versions, which every change of a game raises, and their count), and when the last of
        them ended; one indexed query, so the sweep can pass over a tournament whose games
        have not changed since it last read them all (:meth:`mark_swept`)."""
        row = await self._row(
            "SELECT COALESCE(SUM(g.version), 0) + COUNT(*) AS fingerprint, "
            "MAX(g.finished_at) AS ended FROM tournament_games t "
            "JOIN games g ON g.id = t.game_id WHERE t.tournament_id = ?",
            (tournament_id,),
        )
        if row is None:
            return 0, None
        r = Reader("tournaments", row)
        return r.integer("fingerprint"), r.opt_time("ended")

    async def mark_swept(self, tournament_id: int, fingerprint: int) -> None:
        """Record the fingerprint of a tournament's games as the sweep last read them all."""
        await self._write(
            lambda c: c.execute(
                "UPDATE tournaments SET swept = ? WHERE id = ?", (fingerprint, tournament_id)
            )
        )

    async def tournament_of_game(self, game_id: int) -> int | None:
        """The tournament a game belongs to, if any."""
        row = await self._row(
            "SELECT tournament_id FROM tournament_games WHERE game_id = ?", (game_id,)
        )
        return None if row is None else int(row["tournament_id"])

    async def add_replays(
        self, tournament_id: int, games: Sequence[TournamentNewGame], now: datetime
    ) -> list[GameRow]:
        """Add the replays of aborted games to a running tournament (each aborted game is
        replayed once: one already replayed is skipped)."""

        async def add(conn: Conn) -> list[Row]:
            running = await conn.fetchrow(
                "UPDATE tournaments SET status = status WHERE id = ? AND status = 'running' "
                "RETURNING id",
                (tournament_id,),
            )
            if running is None:
                return []
            fresh = [
                g
                for g in games
                if await conn.fetchrow(
                    "SELECT 1 FROM tournament_games WHERE replay_of = ?", (g.replay_of,)
                )
                is None
            ]
            return await _insert_games(conn, tournament_id, fresh, now)

        return [read_game(r) for r in await self._write(add)]

    async def withdraw(
        self,
        tournament_id: int,
        player_id: int,
        why: str,
        now: datetime,
        notes: Sequence[Notification] = (),
    ) -> bool:
        """Mark a player of a running tournament withdrawn (``why``: ``left`` or ``time``);
        ``False`` if they already were or it is not running."""

        async def mark(conn: Conn) -> bool:
            done = await conn.fetchrow(
                "UPDATE tournament_players SET withdrawn_at = ?, withdrawn_why = ? "
                "WHERE tournament_id = ? AND player_id = ? AND withdrawn_at IS NULL "
                "AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'running') "
                "RETURNING player_id",
                (to_ts(now), why, tournament_id, player_id, tournament_id),
            )
            if done is None:
                return False
            await insert_notes(conn, notes)
            return True

        return await self._write(mark)

    async def claim_standings_post(
        self,
        tournament_id: int,
        previous: datetime | None,
        now: datetime,
        notes: Sequence[Notification] = (),
    ) -> bool:
        """Record a standings update posted at ``now`` with its ``notes``, if the last one is
        still ``previous`` (so of several processes one posts it)."""

        async def claim(conn: Conn) -> bool:
            done = await conn.fetchrow(
                "UPDATE tournaments SET standings_at = ? WHERE id = ? AND status = 'running' "
                "AND COALESCE(standings_at, '') = ? RETURNING id",
                (to_ts(now), tournament_id, opt_ts(previous) or ""),
            )
            if done is None:
                return False
            await insert_notes(conn, notes)
            return True

        return await self._write(claim)

    async def tournament_record(self, player_id: int) -> tuple[int, int]:
        """How many finished tournaments ``player_id`` played, and how many they won (first
        place, shared or not)."""
        row = await self._row(
            "SELECT COUNT(*) AS played, "
            "COALESCE(SUM(CASE WHEN p.place = 1 THEN 1 ELSE 0 END), 0) AS won "
            "FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id "
            "WHERE p.player_id = ? AND t.status = 'finished'",
            (player_id,),
        )
        if row is None:
            return 0, 0
        return int(row["played"]), int(row["won"])
