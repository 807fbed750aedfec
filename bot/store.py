"""All SQL of the bot, behind a narrow async interface (SQLite through aiosqlite).

The session manager only calls the methods of :class:`Store`; a PostgreSQL store for several
bot processes can implement the same methods later without touching the manager.

Rules the store keeps:

- WAL mode, foreign keys, a busy timeout; the schema is versioned (``PRAGMA user_version``) and
  migrated at :meth:`Store.open`.
- Every change is one transaction (``BEGIN IMMEDIATE``) that also inserts the notifications the
  change causes, so an event is in the outbox exactly when its cause is committed.
- Game rows carry ``ply`` and ``version``; every update of a game names the values it expects
  (``WHERE id=? AND ply=? AND version=?``), so two processes that race are serialised: exactly
  one update applies and the other learns it lost (the method returns ``False``).
- Times are stored as UTC text ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` so that text order is time order.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

__all__ = [
    "SCHEMA_VERSION",
    "ChallengeRow",
    "GameRow",
    "MoveRow",
    "NewGame",
    "Note",
    "NotificationRow",
    "PlayerRow",
    "Store",
    "StoreError",
    "from_ts",
    "to_ts",
]


class StoreError(Exception):
    """The database cannot be opened or used (bad path, not a database, newer schema)."""


class _Stale(Exception):
    """A row changed under a multi-row write: roll the whole transaction back."""


def _ts(text: str) -> datetime:
    when = from_ts(text)
    if when is None:
        raise StoreError("a stored time is missing")
    return when


def to_ts(when: datetime) -> str:
    """A UTC time as sortable text.

    >>> to_ts(datetime(2026, 1, 5, 12, 0, tzinfo=UTC))
    '2026-01-05T12:00:00.000000Z'
    """
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def from_ts(text: str | None) -> datetime | None:
    """The time stored by :func:`to_ts` (``None`` stays ``None``)."""
    if text is None:
        return None
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


# Each entry brings the schema from version i to i + 1.  Never edit a released entry: append.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        -- settings (issue 9 reads and writes them)
        dm_enabled INTEGER NOT NULL DEFAULT 1,
        reminders_enabled INTEGER NOT NULL DEFAULT 1,
        quiet_start INTEGER,            -- minutes after local midnight, NULL = no quiet hours
        quiet_end INTEGER,
        utc_offset_min INTEGER NOT NULL DEFAULT 0,
        vacation_days_used INTEGER NOT NULL DEFAULT 0,
        vacation_year INTEGER,
        away_until TEXT,
        UNIQUE (platform, user_id)
    );
    CREATE INDEX players_name ON players (platform, name COLLATE NOCASE);

    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,          -- JSON object of resolved options
        seat0 INTEGER NOT NULL REFERENCES players (id),
        seat1 INTEGER NOT NULL REFERENCES players (id),
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        status TEXT NOT NULL,           -- active | finished | aborted | corrupt
        ply INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 0,
        to_move INTEGER,                -- seat to move, NULL once over
        snapshot TEXT NOT NULL,         -- JSON of Position.to_dict() after the last move
        winner INTEGER,                 -- seat, NULL for a draw or no result
        result TEXT,                    -- win | draw | none (aborted)
        reason TEXT,                    -- connection, resignation, timeout, agreement, ...
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT,
        time_per_move REAL,             -- days, NULL = no clock
        turn_started_at TEXT,           -- when the player to move got the move (clock start)
        deadline_at TEXT,
        reminder_sent_for_ply INTEGER,
        draw_offer_by INTEGER,          -- seat or NULL
        takeback_by INTEGER,            -- seat or NULL
        rematch_of INTEGER REFERENCES games (id),
        challenge_id INTEGER,
        corrupt_reason TEXT,
        last_move TEXT,                 -- the move that made this ply (moves has them all)
        last_seat INTEGER,
        pending_notes TEXT              -- JSON notes, moved to notifications by a trigger
    );
    CREATE INDEX games_seat0 ON games (seat0, status);
    CREATE INDEX games_seat1 ON games (seat1, status);
    CREATE INDEX games_deadline ON games (status, deadline_at);

    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL,           -- ply before the move (0 for the first)
        move TEXT NOT NULL,
        seat INTEGER NOT NULL,
        played_at TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );

    CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        challenger INTEGER NOT NULL REFERENCES players (id),
        target INTEGER REFERENCES players (id),  -- NULL = open challenge
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        first TEXT NOT NULL,            -- me | them | random (who takes seat 0)
        time_per_move REAL,
        status TEXT NOT NULL,           -- pending | accepted | declined | cancelled | expired
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        closed_at TEXT,
        game_id INTEGER REFERENCES games (id),
        rematch_of INTEGER REFERENCES games (id)
    );
    CREATE INDEX challenges_pending ON challenges (status, expires_at);

    CREATE TABLE notifications (
        id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        player_id INTEGER REFERENCES players (id),
        kind TEXT NOT NULL,             -- challenge | your_turn | game_over | ... (issue 9 adds)
        game_id INTEGER,
        challenge_id INTEGER,
        chat_id TEXT,                   -- the game's chat (when direct messages are off)
        text TEXT NOT NULL,
        created_at TEXT NOT NULL,
        deliver_after TEXT NOT NULL,
        sent_at TEXT,
        dedupe TEXT UNIQUE              -- e.g. your_turn:<game>:<ply>: at most one such event
    );

    CREATE TABLE away_spans (           -- vacations (issue 9): clocks pause inside them
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players (id),
        start_at TEXT NOT NULL,
        end_at TEXT NOT NULL
    );
    CREATE INDEX away_spans_player ON away_spans (player_id, end_at);
    CREATE INDEX notifications_due ON notifications (platform, sent_at, deliver_after);

    -- A move is ONE statement (UPDATE games ...): these triggers append the move and move the
    -- notes into the outbox inside it, so it is atomic without BEGIN/COMMIT and costs one trip
    -- to the database thread instead of five.  (PostgreSQL: one statement of data-modifying
    -- CTEs does the same.)
    CREATE TRIGGER games_append_move AFTER UPDATE OF ply ON games
    WHEN NEW.ply = OLD.ply + 1 AND NEW.last_move IS NOT NULL
    BEGIN
        INSERT INTO moves (game_id, ply, move, seat, played_at)
        VALUES (NEW.id, OLD.ply, NEW.last_move, NEW.last_seat, NEW.updated_at);
    END;
    CREATE TRIGGER games_emit_notes AFTER UPDATE OF pending_notes ON games
    WHEN NEW.pending_notes IS NOT NULL
    BEGIN
        INSERT OR IGNORE INTO notifications (platform, user_id, player_id, kind, game_id,
            challenge_id, chat_id, text, created_at, deliver_after, dedupe)
        SELECT json_extract(value, '$.platform'), json_extract(value, '$.user_id'),
            json_extract(value, '$.player_id'), json_extract(value, '$.kind'),
            json_extract(value, '$.game_id'), json_extract(value, '$.challenge_id'),
            json_extract(value, '$.chat_id'), json_extract(value, '$.text'),
            json_extract(value, '$.created_at'), json_extract(value, '$.deliver_after'),
            json_extract(value, '$.dedupe')
        FROM json_each(NEW.pending_notes);
        UPDATE games SET pending_notes = NULL WHERE id = NEW.id;
    END;
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)


@dataclass(frozen=True)
class PlayerRow:
    """A stored player and their settings."""

    id: int
    platform: str
    user_id: str
    name: str
    created_at: str
    dm_enabled: bool = True
    reminders_enabled: bool = True
    quiet_start: int | None = None
    quiet_end: int | None = None
    utc_offset_min: int = 0
    vacation_days_used: int = 0
    vacation_year: int | None = None
    away_until: str | None = None


@dataclass(frozen=True)
class GameRow:
    """A stored game (the position itself is rebuilt from its moves by the manager)."""

    id: int
    game: str
    options: str
    seat0: int
    seat1: int
    platform: str
    chat_id: str
    status: str
    ply: int
    version: int
    to_move: int | None
    snapshot: str
    winner: int | None
    result: str | None
    reason: str | None
    created_at: str
    updated_at: str
    finished_at: str | None
    time_per_move: float | None
    turn_started_at: str | None
    deadline_at: str | None
    reminder_sent_for_ply: int | None
    draw_offer_by: int | None
    takeback_by: int | None
    rematch_of: int | None
    challenge_id: int | None
    corrupt_reason: str | None
    last_move: str | None
    last_seat: int | None

    @property
    def seats(self) -> tuple[int, int]:
        """Player ids of seat 0 and seat 1."""
        return (self.seat0, self.seat1)


@dataclass(frozen=True)
class MoveRow:
    """One stored move: ``ply`` is the ply of the position it was played in."""

    game_id: int
    ply: int
    move: str
    seat: int
    played_at: str


@dataclass(frozen=True)
class ChallengeRow:
    """A stored challenge."""

    id: int
    challenger: int
    target: int | None
    platform: str
    chat_id: str
    game: str
    options: str
    first: str
    time_per_move: float | None
    status: str
    created_at: str
    expires_at: str
    closed_at: str | None
    game_id: int | None
    rematch_of: int | None


@dataclass(frozen=True)
class NotificationRow:
    """One outbox entry."""

    id: int
    platform: str
    user_id: str
    player_id: int | None
    kind: str
    game_id: int | None
    challenge_id: int | None
    chat_id: str | None
    text: str
    created_at: str
    deliver_after: str
    sent_at: str | None
    dedupe: str | None
    #: the target player's "direct messages" setting when the row was read (issue 9): ``False``
    #: means deliver it in ``chat_id`` instead of a direct message
    direct: bool = True


@dataclass(frozen=True)
class Note:
    """A notification to insert with a change (``dedupe`` makes a second copy a no-op)."""

    player: PlayerRow
    kind: str
    text: str
    deliver_after: datetime
    game_id: int | None = None
    challenge_id: int | None = None
    dedupe: str | None = None
    chat_id: str | None = None
    created_at: datetime | None = None


@dataclass(frozen=True)
class NewGame:
    """What the store needs to create a game."""

    game: str
    options: str
    seat0: int
    seat1: int
    platform: str
    chat_id: str
    to_move: int
    snapshot: str
    time_per_move: float | None = None
    deadline_at: datetime | None = None
    rematch_of: int | None = None
    challenge_id: int | None = None


_GAME_COLUMNS = ", ".join(GameRow.__dataclass_fields__)
_CHALLENGE_COLUMNS = ", ".join(ChallengeRow.__dataclass_fields__)
_PLAYER_COLUMNS = ", ".join(PlayerRow.__dataclass_fields__)
_NOTE_COLUMNS = ", ".join(f for f in NotificationRow.__dataclass_fields__ if f != "direct")
# Outbox rows joined with the target's current dm setting.
_NOTE_SELECT = (
    ", ".join(f"n.{f}" for f in NotificationRow.__dataclass_fields__ if f != "direct")
    + ", COALESCE(p.dm_enabled, 1) AS direct FROM notifications n "
    "LEFT JOIN players p ON p.id = n.player_id"
)


def _note_row(row: Any) -> NotificationRow:
    values = dict(row)
    values["direct"] = bool(values["direct"])
    return NotificationRow(**values)


def _player(row: Any) -> PlayerRow:
    values = dict(row)
    values["dm_enabled"] = bool(values["dm_enabled"])
    values["reminders_enabled"] = bool(values["reminders_enabled"])
    return PlayerRow(**values)


class Store:
    """The SQLite store.  Open with ``await Store.open(path)``; close with :meth:`close`."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        # One connection is shared by every coroutine: the lock keeps one transaction's
        # statements from interleaving with another's.
        self._lock = asyncio.Lock()

    # -- opening ----------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating if needed) and migrate the database at ``path``.

        Raises :class:`StoreError` with a readable message if it cannot be used.
        """
        text = str(path)
        if text != ":memory:":
            parent = Path(text).expanduser().resolve().parent
            if not parent.is_dir():
                raise StoreError(f"cannot open database {text!r}: folder {str(parent)!r} missing")
            if Path(text).is_dir():
                raise StoreError(f"cannot open database {text!r}: it is a folder")
        try:
            conn = await aiosqlite.connect(text, isolation_level=None)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open database {text!r}: {exc}") from None
        store = cls(conn, text)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA busy_timeout = 10000")
            await conn.execute("PRAGMA journal_mode = WAL")
            # NORMAL is durable across application crashes (kill -9) in WAL mode; only a power
            # cut may lose the last commits.
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await store._migrate()
        except (sqlite3.Error, OSError) as exc:
            await conn.close()
            raise StoreError(f"cannot use database {text!r}: {exc}") from None
        except StoreError:
            await conn.close()
            raise
        return store

    async def _migrate(self) -> None:
        version = await self._scalar("PRAGMA user_version")
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"database {self.path!r} has schema {version}, newer than this bot "
                f"({SCHEMA_VERSION}): upgrade Hexhall"
            )
        for number in range(version, SCHEMA_VERSION):
            script = MIGRATIONS[number]
            await self._conn.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number + 1};\nCOMMIT;"
            )

    async def close(self) -> None:
        """Close the connection."""
        await self._conn.close()

    async def schema_version(self) -> int:
        """The schema version of the open database."""
        return int(await self._scalar("PRAGMA user_version"))

    # -- helpers ----------------------------------------------------------------------------

    async def _scalar(self, sql: str, args: Sequence[Any] = ()) -> Any:
        row = await _first(sql, args, self._conn)
        return None if row is None else row[0]

    async def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        async with self._lock:
            return await _rows(sql, args, self._conn)

    async def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        async with self._lock:
            return await _first(sql, args, self._conn)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; rolled back if the body raises."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    async def _insert_notes(self, conn: aiosqlite.Connection, notes: Iterable[Note]) -> None:
        rows = [tuple(_note_fields(n).values()) for n in notes]
        if rows:
            await conn.executemany(
                "INSERT OR IGNORE INTO notifications (platform, user_id, player_id, kind, "
                "game_id, challenge_id, chat_id, text, created_at, deliver_after, dedupe) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )

    # -- players ----------------------------------------------------------------------------

    async def player(self, platform: str, user_id: str, name: str, now: datetime) -> PlayerRow:
        """The player (platform, user_id), created if new; the display name is kept current."""
        row = await self._one(
            f"SELECT {_PLAYER_COLUMNS} FROM players WHERE platform = ? AND user_id = ?",
            (platform, user_id),
        )
        if row is not None and row["name"] == name:
            return _player(row)
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO players (platform, user_id, name, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name",
                (platform, user_id, name, to_ts(now)),
            )
            row = await _first(
                f"SELECT {_PLAYER_COLUMNS} FROM players WHERE platform = ? AND user_id = ?",
                (platform, user_id),
                conn,
            )
        return _player(row)

    async def get_player(self, player_id: int) -> PlayerRow | None:
        """The player with this id, if any."""
        row = await self._one(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,))
        return None if row is None else _player(row)

    async def find_player(self, platform: str, user_id: str) -> PlayerRow | None:
        """The player (platform, user_id), if known."""
        row = await self._one(
            f"SELECT {_PLAYER_COLUMNS} FROM players WHERE platform = ? AND user_id = ?",
            (platform, user_id),
        )
        return None if row is None else _player(row)

    async def update_player(self, player_id: int, **settings: Any) -> None:
        """Set some settings columns of a player (names as in :class:`PlayerRow`)."""
        allowed = set(PlayerRow.__dataclass_fields__) - {"id", "platform", "user_id"}
        bad = set(settings) - allowed
        if bad:
            raise ValueError(f"not player settings: {sorted(bad)}")
        if not settings:
            return
        assignments = ", ".join(f"{name} = ?" for name in settings)
        async with self._write() as conn:
            await conn.execute(
                f"UPDATE players SET {assignments} WHERE id = ?", (*settings.values(), player_id)
            )

    # -- challenges ---------------------------------------------------------------------------

    async def create_challenge(
        self,
        *,
        challenger: int,
        target: int | None,
        platform: str,
        chat_id: str,
        game: str,
        options: str,
        first: str,
        time_per_move: float | None,
        now: datetime,
        expires_at: datetime,
        limit: int,
        notes: Sequence[Note] = (),
        rematch_of: int | None = None,
    ) -> ChallengeRow | None:
        """Store a pending challenge and its notifications; ``None`` if the challenger already
        has ``limit`` pending challenges (checked inside the transaction)."""
        async with self._write() as conn:
            row = await _first(
                "SELECT COUNT(*) FROM challenges WHERE challenger = ? AND status = 'pending' "
                "AND expires_at > ?",
                (challenger, to_ts(now)),
                conn,
            )
            if row is not None and row[0] >= limit:
                return None
            created = ChallengeRow(
                **dict(
                    await _fetched(
                        "INSERT INTO challenges (challenger, target, platform, chat_id, game, "
                        "options, first, time_per_move, status, created_at, expires_at, "
                        "rematch_of) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?) "
                        f"RETURNING {_CHALLENGE_COLUMNS}",
                        (
                            challenger,
                            target,
                            platform,
                            chat_id,
                            game,
                            options,
                            first,
                            time_per_move,
                            to_ts(now),
                            to_ts(expires_at),
                            rematch_of,
                        ),
                        conn,
                    )
                )
            )
            await self._insert_notes(conn, [_with_challenge(n, created.id) for n in notes])
        return created

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        """The challenge with this id, if any."""
        row = await self._one(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        )
        return None if row is None else ChallengeRow(**dict(row))

    async def pending_challenges(self, player_id: int, now: datetime) -> list[ChallengeRow]:
        """Pending, unexpired challenges made by or addressed to ``player_id``, oldest first."""
        rows = await self._all(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' "
            "AND expires_at > ? AND (challenger = ? OR target = ?) ORDER BY id",
            (to_ts(now), player_id, player_id),
        )
        return [ChallengeRow(**dict(r)) for r in rows]

    async def open_challenges(
        self, platform: str, chat_id: str, now: datetime
    ) -> list[ChallengeRow]:
        """Pending, unexpired open challenges in a chat, oldest first."""
        rows = await self._all(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' "
            "AND target IS NULL AND expires_at > ? AND platform = ? AND chat_id = ? ORDER BY id",
            (to_ts(now), platform, chat_id),
        )
        return [ChallengeRow(**dict(r)) for r in rows]

    async def close_challenge(
        self, challenge_id: int, status: str, now: datetime, notes: Sequence[Note] = ()
    ) -> bool:
        """Mark a pending challenge ``status`` (with its notifications); ``False`` if it was
        no longer pending."""
        async with self._write() as conn:
            cur = await conn.execute(
                "UPDATE challenges SET status = ?, closed_at = ? "
                "WHERE id = ? AND status = 'pending'",
                (status, to_ts(now), challenge_id),
            )
            if cur.rowcount != 1:
                return False
            await self._insert_notes(conn, [_with_challenge(n, challenge_id) for n in notes])
            return True

    async def expire_challenges(self, now: datetime) -> list[ChallengeRow]:
        """Mark every pending challenge whose time is up as expired; return them."""
        async with self._write() as conn:
            rows = await _rows(
                "UPDATE challenges SET status = 'expired', closed_at = ? "
                "WHERE status = 'pending' AND expires_at <= ? "
                f"RETURNING {_CHALLENGE_COLUMNS}",
                (to_ts(now), to_ts(now)),
                conn,
            )
        return [ChallengeRow(**dict(r)) for r in rows]

    async def accept_challenge(
        self, challenge_id: int, target: int, new: NewGame, now: datetime, notes: Sequence[Note]
    ) -> GameRow | None:
        """Turn a pending challenge into a game (one transaction, notifications included).

        ``target`` is the accepting player (filled in for an open challenge).  Returns ``None``
        if the challenge was no longer pending or has expired (someone was faster).
        """
        async with self._write() as conn:
            cur = await conn.execute(
                "UPDATE challenges SET status = 'accepted', closed_at = ?, target = ? "
                "WHERE id = ? AND status = 'pending' AND expires_at > ?",
                (to_ts(now), target, challenge_id, to_ts(now)),
            )
            if cur.rowcount != 1:
                return None
            game = await self._insert_game(conn, new, now)
            await conn.execute(
                "UPDATE challenges SET game_id = ? WHERE id = ?", (game.id, challenge_id)
            )
            await self._insert_notes(conn, [_with_game(n, game.id) for n in notes])
        return game

    # -- games --------------------------------------------------------------------------------

    async def _insert_game(
        self, conn: aiosqlite.Connection, new: NewGame, now: datetime
    ) -> GameRow:
        row = await _fetched(
            "INSERT INTO games (game, options, seat0, seat1, platform, chat_id, status, ply, "
            "to_move, snapshot, created_at, updated_at, time_per_move, turn_started_at, "
            "deadline_at, rematch_of, challenge_id) "
            "VALUES (?, ?, ?, ?, ?, ?, 'active', 0, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            f"RETURNING {_GAME_COLUMNS}",
            (
                new.game,
                new.options,
                new.seat0,
                new.seat1,
                new.platform,
                new.chat_id,
                new.to_move,
                new.snapshot,
                to_ts(now),
                to_ts(now),
                new.time_per_move,
                to_ts(now),
                None if new.deadline_at is None else to_ts(new.deadline_at),
                new.rematch_of,
                new.challenge_id,
            ),
            conn,
        )
        return GameRow(**dict(row))

    async def create_game(self, new: NewGame, now: datetime, notes: Sequence[Note] = ()) -> GameRow:
        """Create an active game directly (no challenge), with its notifications."""
        async with self._write() as conn:
            game = await self._insert_game(conn, new, now)
            await self._insert_notes(conn, [_with_game(n, game.id) for n in notes])
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, if any."""
        row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else GameRow(**dict(row))

    async def game_with_moves(self, game_id: int) -> tuple[GameRow, list[MoveRow]] | None:
        """A game and its moves read in one transaction, so they agree with each other even
        while another process is writing."""
        async with self._lock:
            await self._conn.execute("BEGIN")
            try:
                row = await _first(
                    f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,), self._conn
                )
                moves = [
                    MoveRow(**dict(r))
                    for r in await _rows(
                        "SELECT game_id, ply, move, seat, played_at FROM moves WHERE game_id = ? "
                        "ORDER BY ply",
                        (game_id,),
                        self._conn,
                    )
                ]
            finally:
                await self._conn.execute("COMMIT")
        return None if row is None else (GameRow(**dict(row)), moves)

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The moves of a game in order."""
        rows = await self._all(
            "SELECT game_id, ply, move, seat, played_at FROM moves WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
        return [MoveRow(**dict(r)) for r in rows]

    async def move_at(self, game_id: int, ply: int) -> MoveRow | None:
        """The move played at ``ply`` in a game, if any."""
        row = await self._one(
            "SELECT game_id, ply, move, seat, played_at FROM moves WHERE game_id = ? AND ply = ?",
            (game_id, ply),
        )
        return None if row is None else MoveRow(**dict(row))

    async def games_of(
        self, player_id: int, statuses: Sequence[str], limit: int = 50
    ) -> list[GameRow]:
        """Games where ``player_id`` sits, with one of ``statuses``, newest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE (seat0 = ? OR seat1 = ?) "
            f"AND status IN ({marks}) ORDER BY updated_at DESC, id DESC LIMIT ?",
            (player_id, player_id, *statuses, limit),
        )
        return [GameRow(**dict(r)) for r in rows]

    async def active_games_in_chat(
        self, player_id: int, platform: str, chat_id: str
    ) -> list[GameRow]:
        """Active games of ``player_id`` that live in this chat."""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE (seat0 = ? OR seat1 = ?) "
            "AND status = 'active' AND platform = ? AND chat_id = ? ORDER BY id",
            (player_id, player_id, platform, chat_id),
        )
        return [GameRow(**dict(r)) for r in rows]

    async def apply_move(
        self,
        game: GameRow,
        move: str,
        seat: int,
        snapshot: str,
        to_move: int | None,
        now: datetime,
        notes: Sequence[Note] = (),
        finish: tuple[int | None, str, str] | None = None,
        deadline_at: datetime | None = None,
    ) -> GameRow | None:
        """Append ``move`` at ``game.ply`` and update the game, in one transaction.

        ``finish`` is ``(winner seat or None, result, reason)`` when the move ends the game.
        Returns the updated row, or ``None`` if the stored game is no longer at ``game.ply`` /
        ``game.version`` or not active (another submission won the race).
        """
        status, winner, result, reason, finished_at = "active", None, None, None, None
        if finish is not None:
            status = "finished"
            winner, result, reason = finish
            finished_at = to_ts(now)
        # One statement (see the triggers in the schema): atomic, and the hot path's only trip
        # to the database thread.  The lock keeps it out of another coroutine's transaction.
        async with self._lock:
            row = await _first(
                "UPDATE games SET ply = ply + 1, version = version + 1, to_move = ?, snapshot = ?, "
                "status = ?, winner = ?, result = ?, reason = ?, finished_at = ?, updated_at = ?, "
                "turn_started_at = ?, deadline_at = ?, reminder_sent_for_ply = NULL, "
                "draw_offer_by = CASE WHEN draw_offer_by = ? THEN draw_offer_by END, "
                "takeback_by = NULL, "
                "last_move = ?, last_seat = ?, pending_notes = ? "
                "WHERE id = ? AND ply = ? AND version = ? AND status = 'active' "
                f"RETURNING {_GAME_COLUMNS}",
                (
                    to_move,
                    snapshot,
                    status,
                    winner,
                    result,
                    reason,
                    finished_at,
                    to_ts(now),
                    None if finish is not None else to_ts(now),
                    None if deadline_at is None or finish is not None else to_ts(deadline_at),
                    seat,
                    move,
                    seat,
                    _notes_json(notes) if notes else None,
                    game.id,
                    game.ply,
                    game.version,
                ),
                self._conn,
            )
        return None if row is None else GameRow(**dict(row))

    async def finish_game(
        self,
        game: GameRow,
        status: str,
        winner: int | None,
        result: str,
        reason: str,
        now: datetime,
        notes: Sequence[Note] = (),
    ) -> GameRow | None:
        """End an active game without a move (resignation, timeout, agreement, abort).

        Returns the updated row, or ``None`` if the game changed meanwhile or is not active.
        """
        async with self._write() as conn:
            row = await _first(
                "UPDATE games SET version = version + 1, status = ?, winner = ?, result = ?, "
                "reason = ?, finished_at = ?, updated_at = ?, to_move = NULL, deadline_at = NULL, "
                "draw_offer_by = NULL, takeback_by = NULL "
                "WHERE id = ? AND version = ? AND status = 'active' "
                f"RETURNING {_GAME_COLUMNS}",
                (status, winner, result, reason, to_ts(now), to_ts(now), game.id, game.version),
                conn,
            )
            if row is None:
                return None
            await self._insert_notes(conn, notes)
        return GameRow(**dict(row))

    async def update_game(
        self, game: GameRow, now: datetime, notes: Sequence[Note] = (), **columns: Any
    ) -> GameRow | None:
        """Set some columns of a game if it is still at ``game.version`` (bumping the version),
        with notifications; ``None`` if it changed meanwhile.  For issue-9 features such as
        ``draw_offer_by``, ``takeback_by``, ``deadline_at``, ``reminder_sent_for_ply``."""
        allowed = set(GameRow.__dataclass_fields__) - {"id", "version"}
        bad = set(columns) - allowed
        if bad:
            raise ValueError(f"not game columns: {sorted(bad)}")
        assignments = "".join(f"{name} = ?, " for name in columns)
        async with self._write() as conn:
            row = await _first(
                f"UPDATE games SET {assignments}version = version + 1, updated_at = ? "
                f"WHERE id = ? AND version = ? RETURNING {_GAME_COLUMNS}",
                (*columns.values(), to_ts(now), game.id, game.version),
                conn,
            )
            if row is None:
                return None
            await self._insert_notes(conn, notes)
        return GameRow(**dict(row))

    async def mark_corrupt(self, game_id: int, reason: str) -> None:
        """Set a game aside: status ``corrupt`` with the reason (its rows are kept as they are)."""
        async with self._write() as conn:
            await conn.execute(
                "UPDATE games SET status = 'corrupt', corrupt_reason = ?, version = version + 1 "
                "WHERE id = ?",
                (reason[:500], game_id),
            )

    # -- correspondence (issue 9) -------------------------------------------------------------

    async def clock_games(self, horizon: datetime) -> list[GameRow]:
        """Active games whose deadline is at or before ``horizon`` (the sweeper asks for
        ``now`` + the longest reminder lead, so every due reminder is among them)."""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' "
            "AND deadline_at IS NOT NULL AND deadline_at <= ? ORDER BY deadline_at, id",
            (to_ts(horizon),),
        )
        return [GameRow(**dict(r)) for r in rows]

    async def next_deadline(self) -> datetime | None:
        """The earliest deadline of any active game."""
        row = await self._one(
            "SELECT MIN(deadline_at) FROM games WHERE status = 'active' AND deadline_at IS NOT NULL"
        )
        return None if row is None else from_ts(row[0])

    async def away_spans(self, player_id: int) -> list[tuple[datetime, datetime]]:
        """A player's vacations as (start, end), oldest first."""
        rows = await self._all(
            "SELECT start_at, end_at FROM away_spans WHERE player_id = ? ORDER BY start_at, id",
            (player_id,),
        )
        return [(_ts(r[0]), _ts(r[1])) for r in rows]

    async def set_away(
        self,
        player_id: int,
        now: datetime,
        until: datetime | None,
        deadlines: Sequence[tuple[GameRow, datetime]],
        notes: Sequence[Note] = (),
    ) -> bool:
        """In one transaction: cut a vacation running at ``now`` short, start a new one until
        ``until`` (``None``: just come back), move the given games' deadlines, and queue the
        notes.  ``False`` (nothing changed) if one of the games changed meanwhile."""
        try:
            await self._set_away(player_id, now, until, deadlines, notes)
        except _Stale:
            return False
        return True

    async def _set_away(
        self,
        player_id: int,
        now: datetime,
        until: datetime | None,
        deadlines: Sequence[tuple[GameRow, datetime]],
        notes: Sequence[Note],
    ) -> None:
        async with self._write() as conn:
            await conn.execute(
                "UPDATE away_spans SET end_at = ? WHERE player_id = ? AND start_at <= ? "
                "AND end_at > ?",
                (to_ts(now), player_id, to_ts(now), to_ts(now)),
            )
            if until is not None:
                await conn.execute(
                    "INSERT INTO away_spans (player_id, start_at, end_at) VALUES (?, ?, ?)",
                    (player_id, to_ts(now), to_ts(until)),
                )
            await conn.execute(
                "UPDATE players SET away_until = ? WHERE id = ?",
                (None if until is None else to_ts(until), player_id),
            )
            for game, deadline in deadlines:
                cur = await conn.execute(
                    "UPDATE games SET deadline_at = ?, version = version + 1, updated_at = ? "
                    "WHERE id = ? AND version = ? AND status = 'active'",
                    (to_ts(deadline), to_ts(now), game.id, game.version),
                )
                if cur.rowcount != 1:
                    raise _Stale
            await self._insert_notes(conn, notes)

    async def take_back(
        self,
        game: GameRow,
        snapshot: str,
        to_move: int,
        now: datetime,
        deadline_at: datetime | None,
        notes: Sequence[Note] = (),
    ) -> GameRow | None:
        """Undo the last move of an active game in one transaction: its moves row goes, the
        game returns to ``snapshot`` with ``to_move`` to play, and "your turn" / reminder keys
        of the undone ply are retired so the move played instead is announced again.
        ``None`` if the game changed meanwhile."""
        async with self._write() as conn:
            previous = await _first(
                "SELECT move, seat FROM moves WHERE game_id = ? AND ply = ?",
                (game.id, game.ply - 2),
                conn,
            )
            row = await _first(
                "UPDATE games SET ply = ply - 1, version = version + 1, to_move = ?, "
                "snapshot = ?, updated_at = ?, turn_started_at = ?, deadline_at = ?, "
                "reminder_sent_for_ply = NULL, draw_offer_by = NULL, takeback_by = NULL, "
                "last_move = ?, last_seat = ? "
                "WHERE id = ? AND ply = ? AND version = ? AND status = 'active' "
                f"RETURNING {_GAME_COLUMNS}",
                (
                    to_move,
                    snapshot,
                    to_ts(now),
                    to_ts(now),
                    None if deadline_at is None else to_ts(deadline_at),
                    None if previous is None else previous[0],
                    None if previous is None else previous[1],
                    game.id,
                    game.ply,
                    game.version,
                ),
                conn,
            )
            if row is None:
                return None
            await conn.execute(
                "DELETE FROM moves WHERE game_id = ? AND ply = ?", (game.id, game.ply - 1)
            )
            await conn.execute(
                "UPDATE notifications SET dedupe = dedupe || ':undone:' || id "
                "WHERE dedupe IN (?, ?)",
                (f"your_turn:{game.id}:{game.ply}", f"reminder:{game.id}:{game.ply}"),
            )
            await self._insert_notes(conn, notes)
        return GameRow(**dict(row))

    async def rematches_of(self, game_id: int) -> list[ChallengeRow]:
        """Challenges made as rematches of a game, oldest first."""
        rows = await self._all(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE rematch_of = ? ORDER BY id",
            (game_id,),
        )
        return [ChallengeRow(**dict(r)) for r in rows]

    async def import_game(
        self,
        new: NewGame,
        moves: Sequence[str],
        seats: Sequence[int],
        now: datetime,
        finish: tuple[str, int | None, str, str] | None,
    ) -> GameRow:
        """Store a game read from a record, with all its moves, in one transaction.

        ``seats[i]`` is the seat that played ``moves[i]``; ``finish`` is ``(status, winner,
        result, reason)`` for a game that is over.  ``new.snapshot`` is the final position."""
        async with self._write() as conn:
            game = await self._insert_game(conn, new, now)
            status, winner, result, reason = finish or ("active", None, None, None)
            over = finish is not None
            # ply first, with no last_move, so the append trigger stays quiet; then the moves.
            await conn.execute(
                "UPDATE games SET ply = ?, status = ?, winner = ?, result = ?, reason = ?, "
                "finished_at = ?, to_move = ?, deadline_at = ?, last_move = NULL WHERE id = ?",
                (
                    len(moves),
                    status,
                    winner,
                    result,
                    reason,
                    to_ts(now) if over else None,
                    None if over else new.to_move,
                    None if over or new.deadline_at is None else to_ts(new.deadline_at),
                    game.id,
                ),
            )
            await conn.executemany(
                "INSERT INTO moves (game_id, ply, move, seat, played_at) VALUES (?, ?, ?, ?, ?)",
                [(game.id, i, m, seats[i], to_ts(now)) for i, m in enumerate(moves)],
            )
            row = await _fetched(
                "UPDATE games SET last_move = ?, last_seat = ? "
                f"WHERE id = ? RETURNING {_GAME_COLUMNS}",
                (moves[-1] if moves else None, seats[-1] if moves else None, game.id),
                conn,
            )
        return GameRow(**dict(row))

    # -- notifications outbox -----------------------------------------------------------------

    async def due_notifications(
        self, platform: str, now: datetime, limit: int = 50
    ) -> list[NotificationRow]:
        """Unsent notifications for ``platform`` whose delivery time has come, oldest first."""
        rows = await self._all(
            f"SELECT {_NOTE_SELECT} WHERE n.platform = ? AND n.sent_at IS NULL "
            "AND n.deliver_after <= ? ORDER BY n.deliver_after, n.id LIMIT ?",
            (platform, to_ts(now), limit),
        )
        return [_note_row(r) for r in rows]

    async def notifications_for(self, player_id: int) -> list[NotificationRow]:
        """Every notification addressed to a player, oldest first (for tests and tools)."""
        rows = await self._all(
            f"SELECT {_NOTE_SELECT} WHERE n.player_id = ? ORDER BY n.id", (player_id,)
        )
        return [_note_row(r) for r in rows]

    async def mark_sent(self, ids: Iterable[int], now: datetime) -> None:
        """Mark notifications delivered."""
        values = [(to_ts(now), i) for i in ids]
        if not values:
            return
        async with self._write() as conn:
            await conn.executemany(
                "UPDATE notifications SET sent_at = ? WHERE id = ? AND sent_at IS NULL", values
            )


def _note_fields(note: Note) -> dict[str, Any]:
    # The notifications columns, in the order of the INSERTs and the trigger.
    return {
        "platform": note.player.platform,
        "user_id": note.player.user_id,
        "player_id": note.player.id,
        "kind": note.kind,
        "game_id": note.game_id,
        "challenge_id": note.challenge_id,
        "chat_id": note.chat_id,
        "text": note.text,
        "created_at": to_ts(note.created_at or note.deliver_after),
        "deliver_after": to_ts(note.deliver_after),
        "dedupe": note.dedupe,
    }


def _notes_json(notes: Iterable[Note]) -> str:
    return json.dumps([_note_fields(n) for n in notes], separators=(",", ":"))


async def _rows(sql: str, args: Sequence[Any], conn: aiosqlite.Connection) -> list[Any]:
    # execute_fetchall is one trip to the database thread (execute + fetch + close are three).
    return list(await conn.execute_fetchall(sql, args))


async def _first(sql: str, args: Sequence[Any], conn: aiosqlite.Connection) -> Any:
    rows = await conn.execute_fetchall(sql, args)
    return next(iter(rows), None)


async def _fetched(sql: str, args: Sequence[Any], conn: aiosqlite.Connection) -> Any:
    row = await _first(sql, args, conn)
    if row is None:  # RETURNING of an INSERT always yields the row
        raise StoreError("the database returned no row for an insert")
    return row


def _with_game(note: Note, game_id: int) -> Note:
    if note.game_id is not None:
        return note
    dedupe = None if note.dedupe is None else note.dedupe.replace("{game}", str(game_id))
    text = note.text.replace("{game}", str(game_id))
    return replace(note, text=text, game_id=game_id, dedupe=dedupe)


def _with_challenge(note: Note, challenge_id: int) -> Note:
    if note.challenge_id is not None:
        return note
    text = note.text.replace("{challenge}", str(challenge_id))
    return replace(note, text=text, challenge_id=challenge_id)
