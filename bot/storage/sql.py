"""The store's SQL, shared by both databases: :class:`SqlStore` implements
:class:`~bot.storage.protocol.Store` over :class:`~bot.storage.dbapi.Conn`.

Every method is a plain function of a connection, run by the concrete store in one call:
:class:`~bot.storage.sqlite.SqliteStore` runs it on its one SQLite thread,
:class:`~bot.storage.postgres.PostgresStore` in a worker thread bridged to asyncpg.  The SQL is
what both accept as it is: ``?`` placeholders (translated for PostgreSQL), ``INSERT ... ON
CONFLICT (...) DO NOTHING``, ``UPDATE ... RETURNING``; times are text (:mod:`~bot.storage.
dbapi`), options, snapshots and texts JSON text.

What differs between several processes and one is settled here too: a move, or any change of a
game, checks the game's ``version`` in its ``UPDATE`` (a racing change finds nothing and is
told the game moved on); a claim of notifications is a conditional ``UPDATE`` (with ``FOR
UPDATE SKIP LOCKED`` in PostgreSQL); a count that guards an insert first locks the row it
counts for (:meth:`SqlStore.create_challenge`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, time, timedelta
from enum import StrEnum
from typing import Any, TypeVar

from bot.core.notification import Kind, Notification, Recipient
from bot.core.settings import QuietHours, Settings
from bot.core.status import ChallengeStatus, GameResult, GameStatus
from bot.deadlines import alarm_at
from bot.messages import Action, Chat, Code, Segment, Strong, Text
from bot.ratings import Origin
from bot.storage.dbapi import Conn, Row, from_ts, to_ts
from bot.storage.errors import BadRow
from bot.storage.rows import Backlog, ChallengeRow, First, GameRow, MoveRow, NewGame, PlayerRow
from bot.storage.sql_posts import SqlPosts
from bot.storage.sql_standings import SqlStandings, write_rated_end
from bot.storage.standings import RatedEnd
from engines.levels import Level

__all__ = ["SqlStore"]

log = logging.getLogger(__name__)

T = TypeVar("T")
E = TypeVar("E", bound=StrEnum)


def _ts(value: datetime | None) -> str | None:
    return None if value is None else to_ts(value)


def _alarm(due: datetime | None, days: float | None, reminded: bool) -> str | None:
    # The stored alarm_at: when the clock sweep must next look at the game (see
    # bot.deadlines), so a sweep reads the games with work due and no others.
    return _ts(alarm_at(due, days, reminded=reminded))


def _reminded(game: GameRow) -> bool:
    return game.reminder_sent_for_ply == game.ply


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


# -- reading rows: every stored text becomes a typed value, or a BadRow naming it ------------


class _Reader:
    """Typed access to one stored row; a value that cannot be read raises :class:`BadRow`."""

    def __init__(self, table: str, row: Row) -> None:
        self.table = table
        self.row = row
        names = row.keys()  # ``in row`` would look among the values
        self.id = row["id"] if "id" in names else None

    def bad(self, column: str, detail: str) -> BadRow:
        return BadRow(self.table, self.id, column, detail[:200])

    def integer(self, column: str) -> int:
        value = self.row[column]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.bad(column, f"not a whole number: {value!r}")
        return value

    def opt_integer(self, column: str) -> int | None:
        return None if self.row[column] is None else _Reader.integer(self, column)

    def seat(self, column: str) -> int | None:
        value = self.opt_integer(column)
        if value not in (None, 0, 1):
            raise self.bad(column, f"not a seat: {value!r}")
        return value

    def text(self, column: str) -> str:
        value = self.row[column]
        if not isinstance(value, str):
            raise self.bad(column, f"not text: {value!r}")
        return value

    def opt_text(self, column: str) -> str | None:
        return None if self.row[column] is None else _Reader.text(self, column)

    def number(self, column: str) -> float | None:
        value = self.row[column]
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.bad(column, f"not a number: {value!r}")
        return value

    def time(self, column: str) -> datetime:
        try:
            return from_ts(self.row[column])
        except ValueError:
            raise self.bad(column, f"not a time: {self.row[column]!r}") from None

    def opt_time(self, column: str) -> datetime | None:
        return None if self.row[column] is None else _Reader.time(self, column)

    def obj(self, column: str) -> dict[str, Any]:
        try:
            value = json.loads(self.row[column])
        except (TypeError, ValueError, RecursionError):
            raise self.bad(column, "not JSON") from None
        if not isinstance(value, dict):
            raise self.bad(column, "not a JSON object")
        return value

    def enum(self, kind: type[E], column: str) -> E:
        try:
            return kind(self.row[column])
        except ValueError:
            raise self.bad(column, f"not a {kind.__name__}: {self.row[column]!r}") from None

    def opt_enum(self, kind: type[E], column: str) -> E | None:
        return None if self.row[column] is None else _Reader.enum(self, kind, column)


PLAYER_COLUMNS = (
    "id, platform, user_id, name, created_at, dm_enabled, reminders_enabled, quiet_start, "
    "quiet_end, utc_offset_min, away_until"
)
GAME_COLUMNS = (
    "id, game, options, seat0, seat1, platform, chat_id, status, ply, version, to_move, "
    "snapshot, winner, result, reason, created_at, updated_at, finished_at, time_per_move, "
    "deadline_at, reminder_sent_for_ply, draw_offer_by, takeback_by, rematch_of, challenge_id, "
    "corrupt_reason, rated, origin, community, bot_seat, bot_level"
)
CHALLENGE_COLUMNS = (
    "id, challenger, target, platform, chat_id, game, options, first, time_per_move, status, "
    "created_at, expires_at, closed_at, game_id, rematch_of, rated, community, target_name"
)
MOVE_COLUMNS = "game_id, ply, move, seat, played_at"
NOTE_COLUMNS = (
    "id, platform, user_id, name, player_id, chat_id, kind, game_id, challenge_id, ply, text, "
    "actions, direct, created_at, deliver_after, dedupe, attempts"
)
# The recipient's current "direct messages" setting rides along with every notification read.
NOTE_RETURNING = (
    f"{NOTE_COLUMNS}, (SELECT p.dm_enabled FROM players p "
    "WHERE p.id = notifications.player_id) AS dm_enabled"
)


def _status_match(statuses: Sequence[GameStatus]) -> tuple[str, list[str]]:
    # The SQL condition for games with one of ``statuses``, and its arguments.  A status no
    # version of Hexhall writes is a damaged row: it is listed with the games set aside (and
    # set aside for good when it is read), so a damaged game never silently vanishes.
    names = [str(GameStatus(s)) for s in statuses]
    match = f"status IN ({', '.join('?' for _ in names)})"
    if GameStatus.CORRUPT in names:
        known = ", ".join(f"'{s}'" for s in GameStatus)
        match = f"({match} OR status IS NULL OR status NOT IN ({known}))"
    return match, names


def _player(row: Row) -> PlayerRow:
    r = _Reader("players", row)
    # Who the player is must be readable; what they chose (quiet hours, a vacation's end) or
    # when they came falls back to the neutral value with a log line: a damaged setting must
    # not lock a player out of every game (nor their opponents, whose moves give them the turn).
    soft = _Lenient("players", row)
    quiet = None
    start, end = soft.opt_integer("quiet_start"), soft.opt_integer("quiet_end")
    if start is not None and end is not None and start != end:
        try:
            quiet = QuietHours(
                time(start // 60, start % 60),
                time(end // 60, end % 60),
                timedelta(minutes=r.integer("utc_offset_min")),
            )
        except (ValueError, OverflowError, BadRow) as exc:
            log.error("players #%s: quiet hours cannot be read, ignored (%s)", r.id, exc)
    try:
        away_until = r.opt_time("away_until")
    except BadRow as exc:
        log.error("%s; read as not away", exc)
        away_until = None
    return PlayerRow(
        id=r.integer("id"),
        platform=r.text("platform"),
        user_id=r.text("user_id"),
        name=soft.text("name") or f"player {r.id}",
        created_at=soft.time("created_at"),
        settings=Settings(bool(row["dm_enabled"]), bool(row["reminders_enabled"]), quiet),
        away_until=away_until,
    )


def _game(row: Row, reader: _Reader | None = None) -> GameRow:
    r = reader or _Reader("games", row)
    return GameRow(
        id=r.integer("id"),
        game=r.text("game"),
        options=r.obj("options"),
        seat0=r.integer("seat0"),
        seat1=r.integer("seat1"),
        platform=r.text("platform"),
        chat_id=r.text("chat_id"),
        status=r.opt_enum(GameStatus, "status") or GameStatus.CORRUPT,
        ply=r.integer("ply"),
        version=r.integer("version"),
        to_move=r.seat("to_move"),
        snapshot=r.obj("snapshot"),
        winner=r.seat("winner"),
        result=r.opt_enum(GameResult, "result"),
        reason=r.opt_text("reason"),
        created_at=r.time("created_at"),
        updated_at=r.time("updated_at"),
        finished_at=r.opt_time("finished_at"),
        time_per_move=r.number("time_per_move"),
        deadline_at=r.opt_time("deadline_at"),
        reminder_sent_for_ply=r.opt_integer("reminder_sent_for_ply"),
        draw_offer_by=r.seat("draw_offer_by"),
        takeback_by=r.seat("takeback_by"),
        rematch_of=r.opt_integer("rematch_of"),
        challenge_id=r.opt_integer("challenge_id"),
        corrupt_reason=r.opt_text("corrupt_reason"),
        rated=bool(r.integer("rated")),
        origin=_origin(r),
        community=r.opt_text("community"),
        bot_seat=r.seat("bot_seat"),
        bot_level=_level(r),
    )


def _level(r: _Reader) -> Level | None:
    text = r.row["bot_level"]
    if text is None:
        return None
    try:
        return Level(text)
    except ValueError:
        if isinstance(r, _Lenient):
            return None
        raise r.bad("bot_level", f"not a level: {text!r}") from None


def _origin(r: _Reader) -> Origin:
    try:
        return Origin(r.row["origin"])
    except ValueError:
        if isinstance(r, _Lenient):
            return Origin.IMPORTED  # a damaged row is never rated
        raise r.bad("origin", f"not an Origin: {r.row['origin']!r}") from None


class _Lenient(_Reader):
    """Reads what it can of a row being set aside; an unreadable value becomes a neutral one
    (the row's status says it is damaged, and nothing is played from it)."""

    def __getattribute__(self, name: str) -> Any:
        method = super().__getattribute__(name)
        fallback = _FALLBACK.get(name)
        if fallback is None:
            return method

        def lenient(*args: Any) -> Any:
            try:
                return method(*args)
            except BadRow:
                return fallback()

        return lenient


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_FALLBACK: dict[str, Callable[[], Any]] = {
    "integer": lambda: 0,
    "opt_integer": lambda: None,
    "seat": lambda: None,
    "text": lambda: "",
    "opt_text": lambda: None,
    "number": lambda: None,
    "time": lambda: _EPOCH,
    "opt_time": lambda: None,
    "obj": dict,
    "opt_enum": lambda: None,
}


def _set_aside_game(row: Row, reason: str) -> GameRow:
    """What can be read of a game row that cannot be read, with status ``corrupt``."""
    game = _game(row, _Lenient("games", row))
    return replace(game, status=GameStatus.CORRUPT, corrupt_reason=reason[:500])


def _challenge(row: Row, reader: _Reader | None = None) -> ChallengeRow:
    r = reader or _Reader("challenges", row)
    return ChallengeRow(
        id=r.integer("id"),
        challenger=r.integer("challenger"),
        target=r.opt_integer("target"),
        platform=r.text("platform"),
        chat_id=r.text("chat_id"),
        game=r.text("game"),
        options=r.obj("options"),
        first=r.enum(First, "first"),
        time_per_move=r.number("time_per_move"),
        status=r.opt_enum(ChallengeStatus, "status") or ChallengeStatus.CORRUPT,
        created_at=r.time("created_at"),
        expires_at=r.time("expires_at"),
        closed_at=r.opt_time("closed_at"),
        game_id=r.opt_integer("game_id"),
        rematch_of=r.opt_integer("rematch_of"),
        rated=bool(r.integer("rated")),
        community=r.opt_text("community"),
        target_name=r.opt_text("target_name"),
    )


def _move(row: Row) -> MoveRow:
    r = _Reader("moves", row)
    return MoveRow(
        game_id=r.integer("game_id"),
        ply=r.integer("ply"),
        move=r.text("move"),
        seat=r.integer("seat"),
        played_at=r.time("played_at"),
    )


def _notification(row: Row) -> Notification:
    r = _Reader("notifications", row)
    try:
        text = Text.from_json(r.text("text"))
    except ValueError as exc:
        raise r.bad("text", str(exc)) from None
    try:
        raw = json.loads(r.text("actions"))
        actions = tuple(Action(str(label), str(action_id)) for label, action_id in raw)
    except (TypeError, ValueError):
        raise r.bad("actions", "not a JSON list of [label, id]") from None
    platform = r.text("platform")
    chat_id = r.opt_text("chat_id")
    names = row.keys()  # ``in row`` would look among the values
    dm = row["dm_enabled"] if "dm_enabled" in names else 1
    return Notification(
        kind=r.enum(Kind, "kind"),
        recipient=Recipient(
            platform, r.text("user_id"), r.text("name"), r.opt_integer("player_id")
        ),
        text=text,
        deliver_after=r.time("deliver_after"),
        chat=None if chat_id is None else Chat(platform, chat_id),
        game_id=r.opt_integer("game_id"),
        challenge_id=r.opt_integer("challenge_id"),
        ply=r.opt_integer("ply"),
        actions=actions,
        direct=bool(row["direct"]) and dm in (None, 1),
        dedupe=r.opt_text("dedupe"),
        created_at=r.time("created_at"),
        id=r.integer("id"),
        attempts=r.integer("attempts"),
    )


# -- writing notifications ----------------------------------------------------------------------


def _fill_text(text: Text, key: str, value: str) -> Text:
    def fill(segment: Segment) -> Segment:
        if isinstance(segment, str):
            return segment.replace(key, value)
        if isinstance(segment, Strong):
            return Strong(segment.text.replace(key, value))
        if isinstance(segment, Code):
            return Code(segment.text.replace(key, value))
        return segment

    return Text(tuple(fill(s) for s in text.segments))


def _filled(
    note: Notification, game_id: int | None = None, challenge_id: int | None = None
) -> Notification:
    """``note`` with the id of the game or challenge created in the same transaction put in:
    ``{game}`` / ``{challenge}`` in its text, action ids and dedupe key are replaced, and the id
    is set (unless the note already names one)."""
    if game_id is not None and note.game_id is None:
        note = replace(_fill(note, "{game}", str(game_id)), game_id=game_id)
    if challenge_id is not None and note.challenge_id is None:
        note = replace(_fill(note, "{challenge}", str(challenge_id)), challenge_id=challenge_id)
    return note


def _fill(note: Notification, key: str, number: str) -> Notification:
    return replace(
        note,
        text=_fill_text(note.text, key, number),
        actions=tuple(Action(a.label, a.id.replace(key, number)) for a in note.actions),
        dedupe=None if note.dedupe is None else note.dedupe.replace(key, number),
    )


_INSERT_NOTE = (
    "INSERT INTO notifications (platform, user_id, name, player_id, chat_id, kind, game_id, "
    "challenge_id, ply, text, actions, direct, created_at, deliver_after, dedupe) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe) DO NOTHING"
)


def _note_values(note: Notification) -> tuple[Any, ...]:
    who = note.recipient
    return (
        who.platform,
        who.user_id,
        who.name,
        who.player_id,
        None if note.chat is None else note.chat.chat_id,
        None if note.kind is None else str(note.kind),
        note.game_id,
        note.challenge_id,
        note.ply,
        None if note.text is None else note.text.to_json(),
        json.dumps([[a.label, a.id] for a in note.actions], ensure_ascii=False),
        int(note.direct),
        to_ts(note.created_at or note.deliver_after),
        None if note.deliver_after is None else to_ts(note.deliver_after),
        note.dedupe,
    )


def _insert_notes(conn: Conn, notes: Iterable[Notification]) -> None:
    # ON CONFLICT on the dedupe key only: a NOT NULL or foreign-key violation still fails the
    # whole transaction (INSERT OR IGNORE would silently drop the row and commit the rest).
    rows = [_note_values(n) for n in notes]
    if rows:
        conn.executemany(_INSERT_NOTE, rows)


_PLY_KINDS = ", ".join(f"'{k}'" for k in Kind if k.about_ply)
_ENDED_KINDS = ", ".join(f"'{k}'" for k in Kind if k.lapses_when_game_ends)
# When an undelivered notification has become obsolete, judged against its game's row ``g``:
# "your turn" / a reminder for a ply that is no longer the game's, anything about a running
# game once it is over, a draw offer or takeback request no longer standing.
_OBSOLETE = (
    f"((notifications.kind IN ({_PLY_KINDS}) AND notifications.ply IS NOT NULL "
    "AND notifications.ply <> g.ply) "
    f"OR (notifications.kind IN ({_ENDED_KINDS}) AND g.status <> 'active') "
    f"OR (notifications.kind = '{Kind.DRAW_OFFERED}' AND g.draw_offer_by IS NULL) "
    f"OR (notifications.kind = '{Kind.TAKEBACK_REQUESTED}' AND g.takeback_by IS NULL))"
)
# The dedupe key is released, so the same event may be announced again (a ply played again
# after a takeback).
_DROP = (
    "UPDATE notifications SET done_at = ?, outcome = 'obsolete', dedupe = NULL, "
    "lease_owner = NULL, lease_until = NULL "
)


def _cancel_obsolete(conn: Conn, game_id: int, now: datetime) -> int:
    # A notification a worker holds is being sent this very moment: left to finish as sent
    # (if its sending fails, the next claim drops it as obsolete).
    cur = conn.execute(
        _DROP + "WHERE game_id = ? AND done_at IS NULL "
        "AND (lease_until IS NULL OR lease_until <= ?) AND EXISTS (SELECT 1 FROM games g "
        f"WHERE g.id = notifications.game_id AND {_OBSOLETE})",
        (to_ts(now), game_id, to_ts(now)),
    )
    return cur.rowcount


class _Stale(Exception):
    """A row changed under a multi-row write: roll the whole transaction back."""


_GAME_UPDATABLE = frozenset(
    {"draw_offer_by", "takeback_by", "reminder_sent_for_ply", "deadline_at"}
)


class SqlStore(SqlStandings, SqlPosts):
    """The store's methods over SQL; a concrete store provides :meth:`_read` and
    :meth:`_write` (and opening, closing and :meth:`schema_version`)."""

    #: The schema versions that migrations applied when this store opened the database (what
    #: ``hexhall migrate`` reports; empty when it was up to date).
    migrated: tuple[int, ...] = ()

    async def close(self) -> None:
        """Close the database."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        """The schema version of the open database."""
        raise NotImplementedError

    #: Added to the select of notifications to claim: PostgreSQL's ``FOR UPDATE SKIP
    #: LOCKED`` lets workers of several processes pass each other's rows by instead of
    #: waiting on them; SQLite has one writer at a time and no such clause.
    SKIP_LOCKED = ""

    #: Names the index of games waiting for the bot where a planner needs telling (SQLite:
    #: while no game is against the bot the index is empty, has no statistics, and the planner
    #: would walk every active game instead).
    BOT_TURN_INDEX = ""

    async def _read(self, fn: Callable[[Conn], T]) -> T:
        """Run ``fn`` outside a transaction of its own (each statement sees what is committed;
        a function that needs one snapshot runs ``BEGIN`` itself)."""
        raise NotImplementedError

    async def _write(self, fn: Callable[[Conn], T]) -> T:
        """Run ``fn`` in one write transaction, rolled back if it raises."""
        raise NotImplementedError

    async def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return await self._read(lambda c: c.execute(sql, args).fetchall())

    async def _row(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        return await self._read(lambda c: c.execute(sql, args).fetchone())

    async def _games(self, rows: Iterable[Row], *, keep_bad: bool = True) -> list[GameRow]:
        """Decode game rows.  One that cannot be read is set aside (status ``corrupt``, with
        a log line) and returned as far as it can be read (``keep_bad``) or left out."""
        games = []
        for row in rows:
            try:
                games.append(_game(row))
            except BadRow as exc:
                if row["status"] != GameStatus.CORRUPT:
                    log.error("setting aside a game that cannot be read: %s", exc)
                    await self.mark_corrupt(row["id"], str(exc))
                if keep_bad:
                    games.append(_set_aside_game(row, str(exc)))
        return games

    async def _game_or_none(self, row: Row | None) -> GameRow | None:
        if row is None:
            return None
        (game,) = await self._games([row])
        return game

    # -- players ----------------------------------------------------------------------------

    async def player(self, platform: str, user_id: str, name: str, now: datetime) -> PlayerRow:
        """The player (platform, user_id), created if new; the display name is kept current."""
        row = await self._row(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE platform = ? AND user_id = ?",
            (platform, user_id),
        )
        if row is not None and row["name"] == name:
            return _player(row)
        created: Row = await self._write(
            lambda c: c.execute(
                "INSERT INTO players (platform, user_id, name, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name "
                f"RETURNING {PLAYER_COLUMNS}",
                (platform, user_id, name, to_ts(now)),
            ).fetchone()
        )
        return _player(created)

    async def get_player(self, player_id: int) -> PlayerRow | None:
        """The player with this id, if any."""
        row = await self._row(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,))
        return None if row is None else _player(row)

    async def find_player(self, platform: str, user_id: str) -> PlayerRow | None:
        """The player (platform, user_id), if known."""
        row = await self._row(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE platform = ? AND user_id = ?",
            (platform, user_id),
        )
        return None if row is None else _player(row)

    async def set_settings(self, player_id: int, settings: Settings) -> None:
        """Store a player's notification settings."""
        quiet = settings.quiet
        values = (
            int(settings.direct),
            int(settings.reminders),
            None if quiet is None else quiet.start.hour * 60 + quiet.start.minute,
            None if quiet is None else quiet.end.hour * 60 + quiet.end.minute,
            0 if quiet is None else quiet.offset // timedelta(minutes=1),
            player_id,
        )
        await self._write(
            lambda c: c.execute(
                "UPDATE players SET dm_enabled = ?, reminders_enabled = ?, quiet_start = ?, "
                "quiet_end = ?, utc_offset_min = ? WHERE id = ?",
                values,
            )
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
        options: Mapping[str, Any],
        first: First,
        time_per_move: float | None,
        now: datetime,
        expires_at: datetime,
        limit: int,
        notes: Sequence[Notification] = (),
        rematch_of: int | None = None,
        rated: bool = True,
        community: str | None = None,
        target_name: str | None = None,
    ) -> ChallengeRow | None:
        """Store a pending challenge and its notifications; ``None`` if the challenger already
        has ``limit`` pending challenges.  The count and the insert are one transaction that
        holds the write lock, so two processes cannot both slip under the limit.  ``rated``
        is false for a casual game; ``community`` is the group or server (``None``: the chat);
        ``target_name`` the invited player's username while their id is unknown."""
        values = (
            challenger,
            target,
            platform,
            chat_id,
            game,
            _dumps(dict(options)),
            str(First(first)),
            time_per_move,
            to_ts(now),
            to_ts(expires_at),
            rematch_of,
            int(bool(rated)),
            chat_id if community is None else community,
            target_name,
        )

        def create(conn: Conn) -> Row | None:
            # Lock the challenger's row first: two processes counting the same player's
            # challenges then take turns (a PostgreSQL row lock until commit; SQLite's write
            # lock already serialises every writer), so neither slips under the limit.
            conn.execute("UPDATE players SET id = id WHERE id = ?", (challenger,))
            count = conn.execute(
                "SELECT COUNT(*) FROM challenges WHERE challenger = ? AND status = 'pending' "
                "AND expires_at > ?",
                (challenger, to_ts(now)),
            ).fetchone()[0]
            if count >= limit:
                return None
            row: Row = conn.execute(
                "INSERT INTO challenges (challenger, target, platform, chat_id, game, options, "
                "first, time_per_move, status, created_at, expires_at, rematch_of, rated, "
                "community, target_name) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?) "
                f"RETURNING {CHALLENGE_COLUMNS}",
                values,
            ).fetchone()
            _insert_notes(conn, [_filled(n, challenge_id=row["id"]) for n in notes])
            return row

        row = await self._write(create)
        return None if row is None else _challenge(row)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        """The challenge with this id, if any.  One that cannot be read is set aside (status
        ``corrupt``) and :class:`BadRow` raised; once set aside it is returned as far as it
        can be read."""
        row = await self._row(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        )
        if row is None:
            return None
        try:
            return _challenge(row)
        except BadRow as exc:
            if row["status"] == ChallengeStatus.CORRUPT:
                aside = _challenge(row, _Lenient("challenges", row))
                return replace(aside, status=ChallengeStatus.CORRUPT)
            log.error("setting aside a challenge that cannot be read: %s", exc)
            await self._write(
                lambda c: c.execute(
                    "UPDATE challenges SET status = 'corrupt' WHERE id = ?", (challenge_id,)
                )
            )
            raise

    async def pending_challenges(self, player_id: int, now: datetime) -> list[ChallengeRow]:
        """Pending, unexpired challenges made by or addressed to ``player_id``, oldest first."""
        rows = await self._rows(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' "
            "AND challenger = ? AND expires_at > ? "
            f"UNION SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' "
            "AND target = ? AND expires_at > ? ORDER BY id",
            (player_id, to_ts(now), player_id, to_ts(now)),
        )
        return [_challenge(r) for r in rows]

    async def open_challenges(
        self, platform: str, chat_id: str, now: datetime
    ) -> list[ChallengeRow]:
        """Pending, unexpired open challenges in a chat, oldest first."""
        rows = await self._rows(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' "
            "AND target IS NULL AND platform = ? AND chat_id = ? AND expires_at > ? ORDER BY id",
            (platform, chat_id, to_ts(now)),
        )
        return [_challenge(r) for r in rows]

    async def close_challenge(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        now: datetime,
        notes: Sequence[Notification] = (),
    ) -> bool:
        """Mark a pending challenge ``status`` (with its notifications); ``False`` if it was
        no longer pending."""

        def close(conn: Conn) -> bool:
            cur = conn.execute(
                "UPDATE challenges SET status = ?, closed_at = ? "
                "WHERE id = ? AND status = 'pending'",
                (str(ChallengeStatus(status)), to_ts(now), challenge_id),
            )
            if cur.rowcount != 1:
                return False
            _insert_notes(conn, [_filled(n, challenge_id=challenge_id) for n in notes])
            return True

        return await self._write(close)

    async def expire_challenges(self, now: datetime) -> list[ChallengeRow]:
        """Mark every pending challenge whose time is up as expired; return them."""
        rows = await self._write(
            lambda c: c.execute(
                "UPDATE challenges SET status = 'expired', closed_at = ? "
                f"WHERE status = 'pending' AND expires_at <= ? RETURNING {CHALLENGE_COLUMNS}",
                (to_ts(now), to_ts(now)),
            ).fetchall()
        )
        return [_challenge(r) for r in rows]

    async def rematches_of(self, game_id: int) -> list[ChallengeRow]:
        """Challenges made as rematches of a game, oldest first."""
        rows = await self._rows(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE rematch_of = ? ORDER BY id",
            (game_id,),
        )
        return [_challenge(r) for r in rows]

    async def accept_challenge(
        self,
        challenge_id: int,
        target: int,
        new: NewGame,
        now: datetime,
        notes: Sequence[Notification] = (),
    ) -> GameRow | None:
        """Turn a pending challenge into a game (one transaction, notifications included;
        ``{game}`` in them becomes the new game's id).  ``target`` is the accepting player
        (filled in for an open challenge).  ``None`` if the challenge was no longer pending or
        has expired (someone was faster)."""

        def accept(conn: Conn) -> Row | None:
            cur = conn.execute(
                "UPDATE challenges SET status = 'accepted', closed_at = ?, target = ? "
                "WHERE id = ? AND status = 'pending' AND expires_at > ?",
                (to_ts(now), target, challenge_id, to_ts(now)),
            )
            if cur.rowcount != 1:
                return None
            row = _insert_game(conn, new, now)
            conn.execute(
                "UPDATE challenges SET game_id = ? WHERE id = ?", (row["id"], challenge_id)
            )
            _insert_notes(conn, [_filled(n, game_id=row["id"]) for n in notes])
            return row

        row = await self._write(accept)
        return None if row is None else _game(row)

    # -- games --------------------------------------------------------------------------------

    async def create_game(
        self, new: NewGame, now: datetime, notes: Sequence[Notification] = ()
    ) -> GameRow:
        """Create an active game directly (no challenge), with its notifications."""

        def create(conn: Conn) -> Row:
            row = _insert_game(conn, new, now)
            _insert_notes(conn, [_filled(n, game_id=row["id"]) for n in notes])
            return row

        return _game(await self._write(create))

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, if any.  One that cannot be read is set aside (with a log
        line) and returned as far as it can be read, with status ``corrupt``."""
        row = await self._row(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return await self._game_or_none(row)

    async def game_with_moves(self, game_id: int) -> tuple[GameRow, list[MoveRow]] | None:
        """A game and its moves read in one transaction, so they agree with each other even
        while another process is writing."""

        def read(conn: Conn) -> tuple[Row | None, list[Row]]:
            conn.execute("BEGIN")
            try:
                row = conn.execute(
                    f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                moves = conn.execute(
                    f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
                ).fetchall()
            finally:
                conn.execute("COMMIT")
            return row, moves

        row, moves = await self._read(read)
        game = await self._game_or_none(row)
        if game is None:
            return None
        if game.status is GameStatus.CORRUPT:
            return game, []
        try:
            return game, [_move(m) for m in moves]
        except BadRow as exc:
            log.error("setting aside a game whose moves cannot be read: %s", exc)
            await self.mark_corrupt(game_id, str(exc))
            raise

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The moves of a game in order."""
        rows = await self._rows(
            f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return [_move(r) for r in rows]

    async def move_at(self, game_id: int, ply: int) -> MoveRow | None:
        """The move played at ``ply`` in a game, if any."""
        row = await self._row(
            f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? AND ply = ?", (game_id, ply)
        )
        return None if row is None else _move(row)

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
        match, names = _status_match(statuses)
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
        match, names = _status_match(statuses)
        row = await self._row(
            f"SELECT (SELECT COUNT(*) FROM games WHERE seat0 = ? AND {match}) + "
            f"(SELECT COUNT(*) FROM games WHERE seat1 = ? AND seat0 <> ? AND {match})",
            (player_id, *names, player_id, player_id, *names),
        )
        return 0 if row is None else int(row[0])

    async def active_games_in_chat(
        self, player_id: int, platform: str, chat_id: str
    ) -> list[GameRow]:
        """Active games of ``player_id`` that live in this chat."""
        rows = await self._rows(
            f"SELECT {GAME_COLUMNS} FROM games WHERE seat0 = ? AND status = 'active' "
            "AND platform = ? AND chat_id = ? "
            f"UNION ALL SELECT {GAME_COLUMNS} FROM games WHERE seat1 = ? AND seat0 <> ? "
            "AND status = 'active' AND platform = ? AND chat_id = ? ORDER BY id",
            (player_id, platform, chat_id, player_id, player_id, platform, chat_id),
        )
        return await self._games(rows)

    async def _change_game(
        self,
        update: str,
        values: Sequence[Any],
        game_id: int,
        now: datetime,
        notes: Sequence[Notification],
        also: Callable[[Conn, Row], None] | None = None,
    ) -> GameRow | None:
        """Every change of a stored game in one transaction: ``update`` (an ``UPDATE games
        ... WHERE`` with its version check, to which ``RETURNING`` is added), then ``also``
        (the moves row, rating changes), then what the change makes obsolete is cancelled and
        ``notes`` are added.  ``None`` (nothing written) if the check failed: the game changed
        meanwhile."""

        def change(conn: Conn) -> Row | None:
            row: Row | None = conn.execute(f"{update}RETURNING {GAME_COLUMNS}", values).fetchone()
            if row is None:
                return None
            if also is not None:
                also(conn, row)
            _cancel_obsolete(conn, game_id, now)
            _insert_notes(conn, notes)
            return row

        row = await self._write(change)
        return None if row is None else _game(row)

    async def apply_move(
        self,
        game: GameRow,
        move: str,
        seat: int,
        snapshot: Mapping[str, Any],
        to_move: int | None,
        now: datetime,
        notes: Sequence[Notification] = (),
        finish: tuple[int | None, GameResult, str] | None = None,
        deadline_at: datetime | None = None,
        rating: RatedEnd | None = None,
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
        """
        status, winner, result, reason, finished_at = "active", None, None, None, None
        if finish is not None:
            status, finished_at = "finished", to_ts(now)
            winner, result_enum, reason = finish
            result = str(GameResult(result_enum))
        values = (
            to_move,
            _dumps(dict(snapshot)),
            status,
            winner,
            result,
            reason,
            finished_at,
            to_ts(now),
            None if deadline_at is None or finish is not None else to_ts(deadline_at),
            _alarm(None if finish is not None else deadline_at, game.time_per_move, False),
            seat,
            game.id,
            game.ply,
            game.version,
        )

        def play(conn: Conn, row: Row) -> None:
            conn.execute(
                "INSERT INTO moves (game_id, ply, move, seat, played_at) VALUES (?, ?, ?, ?, ?)",
                (game.id, game.ply, move, seat, to_ts(now)),
            )
            if rating is not None and finish is not None:
                write_rated_end(conn, row, rating)

        return await self._change_game(
            "UPDATE games SET ply = ply + 1, version = version + 1, to_move = ?, "
            "snapshot = ?, status = ?, winner = ?, result = ?, reason = ?, finished_at = ?, "
            "updated_at = ?, deadline_at = ?, alarm_at = ?, reminder_sent_for_ply = NULL, "
            "draw_offer_by = CASE WHEN draw_offer_by = ? THEN draw_offer_by END, "
            "takeback_by = NULL "
            "WHERE id = ? AND ply = ? AND version = ? AND status = 'active' ",
            values,
            game.id,
            now,
            notes,
            play,
        )

    async def finish_game(
        self,
        game: GameRow,
        status: GameStatus,
        winner: int | None,
        result: GameResult,
        reason: str,
        now: datetime,
        notes: Sequence[Notification] = (),
        rating: RatedEnd | None = None,
    ) -> GameRow | None:
        """End an active game without a move (resignation, timeout, agreement, abort), cancel
        what that makes obsolete and add ``notes``, in one transaction.  ``None`` if the game
        changed meanwhile or is not active.  ``rating``: the players' rating changes, written
        in the same transaction (as in :meth:`apply_move`)."""
        values = (
            str(GameStatus(status)),
            winner,
            str(GameResult(result)),
            reason,
            to_ts(now),
            to_ts(now),
            game.id,
            game.version,
        )

        def finish(conn: Conn, row: Row) -> None:
            if rating is not None:
                write_rated_end(conn, row, rating)

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
        changed meanwhile."""
        bad = set(columns) - _GAME_UPDATABLE
        if bad:
            raise ValueError(f"not updatable game columns: {sorted(bad)}")
        assignments = "".join(f"{name} = ?, " for name in columns)
        values = [to_ts(v) if isinstance(v, datetime) else v for v in columns.values()]
        # The sweep's next look moves with the deadline and the reminder.
        due = columns.get("deadline_at", game.deadline_at)
        reminded = columns.get("reminder_sent_for_ply", game.reminder_sent_for_ply) == game.ply
        alarm = _alarm(due if isinstance(due, datetime) else None, game.time_per_move, reminded)

        return await self._change_game(
            f"UPDATE games SET {assignments}alarm_at = ?, version = version + 1, updated_at = ? "
            "WHERE id = ? AND version = ? ",
            (*values, alarm, to_ts(now), game.id, game.version),
            game.id,
            now,
            notes,
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
            _dumps(dict(snapshot)),
            to_ts(now),
            _ts(deadline_at),
            _alarm(deadline_at, game.time_per_move, False),
            game.id,
            game.ply,
            game.version,
        )

        def undo(conn: Conn, row: Row) -> None:
            conn.execute("DELETE FROM moves WHERE game_id = ? AND ply = ?", (game.id, game.ply - 1))

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
        )

    async def import_game(
        self,
        new: NewGame,
        moves: Sequence[str],
        seats: Sequence[int],
        now: datetime,
        finish: tuple[GameStatus, int | None, GameResult, str] | None,
    ) -> GameRow:
        """Store a game read from a record, with all its moves, in one transaction.

        ``seats[i]`` is the seat that played ``moves[i]``; ``finish`` is ``(status, winner,
        result, reason)`` for a game that is over.  ``new.snapshot`` is the final position."""
        over = finish is not None
        status, winner, result, reason = finish or (GameStatus.ACTIVE, None, None, None)

        def store(conn: Conn) -> Row:
            game = _insert_game(conn, new, now)
            conn.executemany(
                "INSERT INTO moves (game_id, ply, move, seat, played_at) VALUES (?, ?, ?, ?, ?)",
                [(game["id"], i, m, seats[i], to_ts(now)) for i, m in enumerate(moves)],
            )
            # An imported game is never rated: its result was not played here.
            row: Row = conn.execute(
                "UPDATE games SET ply = ?, status = ?, winner = ?, result = ?, reason = ?, "
                "finished_at = ?, to_move = ?, deadline_at = ?, alarm_at = ?, "
                "origin = 'imported', rated = 0 "
                f"WHERE id = ? RETURNING {GAME_COLUMNS}",
                (
                    len(moves),
                    str(GameStatus(status)),
                    winner,
                    None if result is None else str(GameResult(result)),
                    reason,
                    to_ts(now) if over else None,
                    None if over else new.to_move,
                    None if over else _ts(new.deadline_at),
                    None if over else _alarm(new.deadline_at, new.time_per_move, False),
                    game["id"],
                ),
            ).fetchone()
            return row

        return _game(await self._write(store))

    # -- clocks and vacations -------------------------------------------------------------

    async def clock_games(self, horizon: datetime) -> list[GameRow]:
        """Active games with clock work due by ``horizon``: their reminder's time or their
        deadline has come (the sweeper asks with ``now``).  One index range over the games'
        stored alarms, whatever the number of games with a clock.  A game that cannot be read
        is set aside with a log line; the others are returned."""
        rows = await self._rows(
            f"SELECT {GAME_COLUMNS}, alarm_at FROM games WHERE status = 'active' "
            "AND alarm_at <= ? ORDER BY alarm_at, id",
            (to_ts(horizon),),
        )
        # '' marks the games of a database from before alarms (schema 8): their alarm is
        # worked out here, once.
        games = await self._games([r for r in rows if r["alarm_at"] != ""], keep_bad=False)
        unset = await self._games([r for r in rows if r["alarm_at"] == ""], keep_bad=False)
        alarms = [(_alarm(g.deadline_at, g.time_per_move, _reminded(g)), g) for g in unset]
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
                return _Reader("games", row).time("deadline_at")
            except BadRow as exc:
                log.error("setting aside a game that cannot be read: %s", exc)
                await self.mark_corrupt(row["id"], str(exc))

    async def away_spans(self, player_id: int) -> list[tuple[datetime, datetime]]:
        """A player's vacations as (start, end), oldest first."""
        rows = await self._rows(
            "SELECT id, start_at, end_at FROM away_spans WHERE player_id = ? ORDER BY start_at, id",
            (player_id,),
        )
        spans = []
        for row in rows:
            r = _Reader("away_spans", row)
            spans.append((r.time("start_at"), r.time("end_at")))
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

        def away(conn: Conn) -> None:
            conn.execute(
                "UPDATE away_spans SET end_at = ? WHERE player_id = ? AND start_at <= ? "
                "AND end_at > ?",
                (to_ts(now), player_id, to_ts(now), to_ts(now)),
            )
            if until is not None:
                conn.execute(
                    "INSERT INTO away_spans (player_id, start_at, end_at) VALUES (?, ?, ?)",
                    (player_id, to_ts(now), to_ts(until)),
                )
            conn.execute("UPDATE players SET away_until = ? WHERE id = ?", (_ts(until), player_id))
            for game, deadline in deadlines:
                cur = conn.execute(
                    "UPDATE games SET deadline_at = ?, alarm_at = ?, version = version + 1, "
                    "updated_at = ? "
                    "WHERE id = ? AND version = ? AND status = 'active'",
                    (
                        to_ts(deadline),
                        _alarm(deadline, game.time_per_move, _reminded(game)),
                        to_ts(now),
                        game.id,
                        game.version,
                    ),
                )
                if cur.rowcount != 1:
                    raise _Stale
            _insert_notes(conn, notes)

        try:
            await self._write(away)
        except _Stale:
            return False
        return True

    # -- the outbox -------------------------------------------------------------------------

    async def notifications_for(self, player_id: int) -> list[Notification]:
        """Every notification addressed to a player that is still to be delivered or was
        delivered, oldest first (for tests and tools; cancelled ones are left out)."""
        rows = await self._rows(
            f"SELECT {NOTE_RETURNING} FROM notifications WHERE player_id = ? "
            "AND (outcome IS NULL OR outcome = 'sent') ORDER BY id",
            (player_id,),
        )
        return [_notification(r) for r in rows]

    async def due_notifications(
        self, platform: str, now: datetime, limit: int = 50
    ) -> list[Notification]:
        """Undelivered notifications for ``platform`` whose delivery time has come, oldest
        first, without claiming them (for tests and tools: workers use :meth:`claim_due`)."""
        rows = await self._rows(
            f"SELECT {NOTE_RETURNING} FROM notifications WHERE platform = ? AND done_at IS NULL "
            "AND deliver_after <= ? ORDER BY deliver_after, id LIMIT ?",
            (platform, to_ts(now), limit),
        )
        return [_notification(r) for r in rows]

    async def claim_due(
        self, platform: str, owner: str, now: datetime, lease: timedelta, limit: int = 20
    ) -> list[Notification]:
        """Claim up to ``limit`` due notifications of ``platform`` for the worker ``owner``
        until ``now + lease``, oldest first; obsolete ones are dropped instead (and not
        returned), as is a row that cannot be read (with a log line).

        One conditional ``UPDATE ... RETURNING``: a row is taken only if it is unclaimed or
        its lease has ended, so two workers never hold the same one (PostgreSQL adds ``FOR
        UPDATE SKIP LOCKED`` to the inner select so they do not wait on each other either).
        """
        stamp, until = to_ts(now), to_ts(now + lease)
        free = "done_at IS NULL AND (lease_until IS NULL OR lease_until <= ?)"

        def claim(conn: Conn) -> list[Row]:
            conn.execute(
                _DROP + f"WHERE platform = ? AND deliver_after <= ? AND {free} "
                "AND game_id IS NOT NULL AND EXISTS (SELECT 1 FROM games g "
                f"WHERE g.id = notifications.game_id AND {_OBSOLETE})",
                (stamp, platform, stamp, stamp),
            )
            # The rows to take are picked once, in a CTE: as a plain ``IN (subquery)``
            # PostgreSQL may run a locking subquery again per row and take more than ``limit``.
            rows: list[Row] = conn.execute(
                "WITH picked AS (SELECT id FROM notifications WHERE platform = ? "
                "AND done_at IS NULL AND deliver_after <= ? AND (lease_until IS NULL "
                f"OR lease_until <= ?) ORDER BY deliver_after, id LIMIT ?{self.SKIP_LOCKED}) "
                "UPDATE notifications SET lease_owner = ?, lease_until = ? "
                f"WHERE id IN (SELECT id FROM picked) AND {free} "
                f"RETURNING {NOTE_RETURNING}",
                (platform, stamp, stamp, limit, owner, until, stamp),
            ).fetchall()
            return rows

        claimed = []
        for row in sorted(await self._write(claim), key=lambda r: (r["deliver_after"], r["id"])):
            try:
                claimed.append(_notification(row))
            except BadRow as exc:
                log.error("dropping a notification that cannot be read: %s", exc)
                await self._finish_note(row["id"], owner, now, "failed", str(exc))
        return claimed

    async def _finish_note(
        self, note_id: int, owner: str, now: datetime, outcome: str, error: str | None
    ) -> bool:
        cur = await self._write(
            lambda c: c.execute(
                "UPDATE notifications SET done_at = ?, outcome = ?, last_error = ?, "
                "lease_owner = NULL, lease_until = NULL "
                "WHERE id = ? AND lease_owner = ? AND done_at IS NULL",
                (to_ts(now), outcome, None if error is None else error[:500], note_id, owner),
            )
        )
        return bool(cur.rowcount == 1)

    async def mark_sent(self, note_id: int, owner: str, now: datetime) -> bool:
        """Record that the worker ``owner`` delivered a notification it claimed; ``False`` if
        it no longer held the claim (its lease ended and another worker took it)."""
        return await self._finish_note(note_id, owner, now, "sent", None)

    async def give_up(self, note_id: int, owner: str, now: datetime, error: str) -> bool:
        """Stop trying to deliver a claimed notification (``error`` says why)."""
        return await self._finish_note(note_id, owner, now, "failed", error)

    async def retry_later(
        self, note_id: int, owner: str, when: datetime, error: str, *, direct: bool | None = None
    ) -> bool:
        """Release a claimed notification to be tried again at ``when``, counting a failed
        attempt (``direct=False``: deliver it in the game's chat from now on, the fallback for
        a refused direct message, which does not count as an attempt)."""
        counted = 1 if direct is None else 0

        def retry(conn: Conn) -> bool:
            cur = conn.execute(
                "UPDATE notifications SET attempts = attempts + ?, deliver_after = ?, "
                "last_error = ?, direct = COALESCE(?, direct), lease_owner = NULL, "
                "lease_until = NULL WHERE id = ? AND lease_owner = ? AND done_at IS NULL",
                (
                    counted,
                    to_ts(when),
                    error[:500],
                    None if direct is None else int(direct),
                    note_id,
                    owner,
                ),
            )
            return bool(cur.rowcount == 1)

        return await self._write(retry)

    async def outbox_backlog(self, now: datetime) -> list[Backlog]:
        """Per platform: how many notifications are due and undelivered at ``now``, and how
        many seconds the oldest of them has waited (for the metrics)."""
        rows = await self._rows(
            "SELECT platform, COUNT(*) AS due, MIN(deliver_after) AS oldest FROM notifications "
            "WHERE done_at IS NULL AND deliver_after <= ? GROUP BY platform ORDER BY platform",
            (to_ts(now),),
        )
        backlog = []
        for row in rows:
            try:
                waited = max(0.0, (now - from_ts(row["oldest"])).total_seconds())
            except ValueError:
                waited = 0.0
            backlog.append(Backlog(str(row["platform"]), int(row["due"]), waited))
        return backlog

    async def claim_lease(
        self,
        name: str,
        owner: str,
        now: datetime,
        lease: timedelta,
        *,
        replacing: str | None = None,
    ) -> bool:
        """Take (or renew) the lease on the chore ``name`` for ``owner`` until ``now +
        lease``; ``False`` if another owner holds it until later (unless that owner is
        ``replacing``, known to be gone).  Several processes on one database use it to do a
        chore (the clock sweep) once between them."""
        row = await self._write(
            lambda c: c.execute(
                "INSERT INTO leases (name, owner, until) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until "
                "WHERE leases.owner = excluded.owner OR leases.until <= ? OR leases.owner = ? "
                "RETURNING owner",
                (name, owner, to_ts(now + lease), to_ts(now), replacing or ""),
            ).fetchone()
        )
        return row is not None

    async def lease_holder(self, name: str) -> str | None:
        """Who holds (or last held) the lease on ``name``, if anyone."""
        row = await self._row("SELECT owner FROM leases WHERE name = ?", (name,))
        return None if row is None else str(row["owner"])

    async def prune_leases(self, now: datetime) -> int:
        """Delete the leases that ended before ``now``; how many."""
        return await self._write(
            lambda c: c.execute("DELETE FROM leases WHERE until < ?", (to_ts(now),)).rowcount
        )

    async def release_lease(self, name: str, owner: str) -> None:
        """Give up the lease on ``name`` if ``owner`` holds it (another may take it at once)."""
        await self._write(
            lambda c: c.execute("DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner))
        )

    async def claim_owners(self, platform: str, now: datetime) -> list[str]:
        """The workers holding unexpired claims on ``platform``'s undelivered notifications."""
        rows = await self._rows(
            "SELECT DISTINCT lease_owner FROM notifications WHERE platform = ? "
            "AND done_at IS NULL AND lease_until > ? ORDER BY lease_owner",
            (platform, to_ts(now)),
        )
        return [str(r["lease_owner"]) for r in rows]

    async def release_claims(self, platform: str, owner: str) -> int:
        """Free ``owner``'s claims on ``platform``'s undelivered notifications (a worker known
        to be gone), so any worker may take them at once; how many."""
        return await self._write(
            lambda c: (
                c.execute(
                    "UPDATE notifications SET lease_owner = NULL, lease_until = NULL "
                    "WHERE platform = ? AND lease_owner = ? AND done_at IS NULL",
                    (platform, owner),
                ).rowcount
            )
        )

    async def cancel_obsolete(self, game_id: int, now: datetime) -> int:
        """Cancel a game's undelivered notifications that its current state makes obsolete;
        how many.  (Every change of a game in this store already does this inside its own
        transaction; this is for tools and other writers.)"""
        return await self._write(lambda c: _cancel_obsolete(c, game_id, now))

    async def prune_notifications(self, before: datetime) -> int:
        """Delete notifications delivered (or dropped) before ``before``; how many."""
        cur = await self._write(
            lambda c: c.execute(
                "DELETE FROM notifications WHERE done_at IS NOT NULL AND done_at < ?",
                (to_ts(before),),
            )
        )
        return int(cur.rowcount)


def _insert_game(conn: Conn, new: NewGame, now: datetime) -> Row:
    row: Row = conn.execute(
        "INSERT INTO games (game, options, seat0, seat1, platform, chat_id, status, ply, "
        "to_move, snapshot, created_at, updated_at, time_per_move, deadline_at, alarm_at, "
        "rematch_of, challenge_id, rated, origin, community, bot_seat, bot_level) "
        "VALUES (?, ?, ?, ?, ?, ?, 'active', 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        f"RETURNING {GAME_COLUMNS}",
        (
            new.game,
            _dumps(dict(new.options)),
            new.seat0,
            new.seat1,
            new.platform,
            new.chat_id,
            new.to_move,
            _dumps(dict(new.snapshot)),
            to_ts(now),
            to_ts(now),
            new.time_per_move,
            _ts(new.deadline_at),
            _alarm(new.deadline_at, new.time_per_move, False),
            new.rematch_of,
            new.challenge_id,
            int(bool(new.rated)),
            Origin(new.origin).value,
            new.chat_id if new.community is None else new.community,
            new.bot_seat,
            None if new.bot_level is None else Level(new.bot_level).value,
        ),
    ).fetchone()
    return row
