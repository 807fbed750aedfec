"""Reading stored rows: every stored text becomes a typed value of :mod:`bot.storage.rows`, or
a :class:`~bot.storage.errors.BadRow` naming table, id and column (:class:`Reader`); a row
being set aside is read as far as it can be (:class:`Lenient`).  Also the column lists every
query selects and the small conversions writing needs (:func:`dumps`, :func:`opt_ts`,
:func:`alarm_text`).  Internal to :mod:`bot.storage`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, time, timedelta
from enum import StrEnum
from typing import Any, TypeVar

from bot.core.ending import Termination
from bot.core.notification import Kind, Notification, Recipient
from bot.core.settings import QuietHours, Settings
from bot.core.status import ChallengeStatus, GameResult, GameStatus
from bot.deadlines import alarm_at
from bot.messages import Action, Chat, Text
from bot.ratings import Origin
from bot.storage.dbapi import Row, from_ts, to_ts
from bot.storage.errors import BadRow
from bot.storage.rows import ChallengeRow, First, GameRow, MoveRow, PlayerRow
from engines.levels import Level

__all__ = [
    "CHALLENGE_COLUMNS",
    "GAME_COLUMNS",
    "MOVE_COLUMNS",
    "NOTE_COLUMNS",
    "NOTE_RETURNING",
    "PLAYER_COLUMNS",
    "Lenient",
    "Reader",
    "alarm_text",
    "dumps",
    "opt_ts",
    "read_challenge",
    "read_game",
    "read_move",
    "read_notification",
    "read_player",
    "set_aside_game",
    "status_match",
    "was_reminded",
]

log = logging.getLogger(__name__)

E = TypeVar("E", bound=StrEnum)


def opt_ts(value: datetime | None) -> str | None:
    """A time as stored (:func:`~bot.storage.dbapi.to_ts`), ``None`` kept."""
    return None if value is None else to_ts(value)


def alarm_text(due: datetime | None, days: float | None, reminded: bool) -> str | None:
    """A game's stored ``alarm_at``: when the clock sweep must next look at it (see
    :func:`bot.deadlines.alarm_at`), so a sweep reads the games with work due and no others."""
    return opt_ts(alarm_at(due, days, reminded=reminded))


def was_reminded(game: GameRow) -> bool:
    """Whether the reminder of the game's current ply was sent."""
    return game.reminder_sent_for_ply == game.ply


def dumps(value: Any) -> str:
    """``value`` as the store's JSON text (compact, keys sorted)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


# -- reading rows: every stored text becomes a typed value, or a BadRow naming it ------------


class Reader:
    """Typed access to one stored row; a value that cannot be read raises :class:`BadRow`."""

    def __init__(self, table: str, row: Row) -> None:
        self.table = table
        self.row = row
        names = row.keys()  # ``in row`` would look among the values
        self.id = row["id"] if "id" in names else None

    def bad(self, column: str, detail: str) -> BadRow:
        """The error naming this row's ``column`` (``detail`` cut to 200 characters)."""
        return BadRow(self.table, self.id, column, detail[:200])

    def integer(self, column: str) -> int:
        """A whole number (not a boolean)."""
        value = self.row[column]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.bad(column, f"not a whole number: {value!r}")
        return value

    def opt_integer(self, column: str) -> int | None:
        """A whole number or ``None``."""
        return None if self.row[column] is None else Reader.integer(self, column)

    def seat(self, column: str) -> int | None:
        """A seat (0 or 1) or ``None``."""
        value = self.opt_integer(column)
        if value not in (None, 0, 1):
            raise self.bad(column, f"not a seat: {value!r}")
        return value

    def text(self, column: str) -> str:
        """A text."""
        value = self.row[column]
        if not isinstance(value, str):
            raise self.bad(column, f"not text: {value!r}")
        return value

    def opt_text(self, column: str) -> str | None:
        """A text or ``None``."""
        return None if self.row[column] is None else Reader.text(self, column)

    def number(self, column: str) -> float | None:
        """A number (whole or not) or ``None``."""
        value = self.row[column]
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.bad(column, f"not a number: {value!r}")
        return value

    def time(self, column: str) -> datetime:
        """A stored time (:func:`~bot.storage.dbapi.from_ts`)."""
        try:
            return from_ts(self.row[column])
        except ValueError:
            raise self.bad(column, f"not a time: {self.row[column]!r}") from None

    def opt_time(self, column: str) -> datetime | None:
        """A stored time or ``None``."""
        return None if self.row[column] is None else Reader.time(self, column)

    def obj(self, column: str) -> dict[str, Any]:
        """A JSON object."""
        try:
            value = json.loads(self.row[column])
        except (TypeError, ValueError, RecursionError):
            raise self.bad(column, "not JSON") from None
        if not isinstance(value, dict):
            raise self.bad(column, "not a JSON object")
        return value

    def enum(self, kind: type[E], column: str) -> E:
        """A member of ``kind`` by its stored text."""
        try:
            return kind(self.row[column])
        except ValueError:
            raise self.bad(column, f"not a {kind.__name__}: {self.row[column]!r}") from None

    def opt_enum(self, kind: type[E], column: str) -> E | None:
        """A member of ``kind`` or ``None``."""
        return None if self.row[column] is None else Reader.enum(self, kind, column)


PLAYER_COLUMNS = (
    "id, platform, user_id, name, created_at, dm_enabled, reminders_enabled, quiet_start, "
    "quiet_end, utc_offset_min, away_until"
)
GAME_COLUMNS = (
    "id, game, options, seat0, seat1, platform, chat_id, status, ply, version, to_move, "
    "snapshot, winner, result, reason, created_at, updated_at, finished_at, time_per_move, "
    "deadline_at, reminder_sent_for_ply, draw_offer_by, takeback_by, rematch_of, challenge_id, "
    "corrupt_reason, rated, origin, community, bot_seat, bot_level, premove_lines"
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
# The recipient's current "direct messages" setting rides along with every notification read
# (off while the platform's last refusal of a direct message to them stands).
NOTE_RETURNING = (
    f"{NOTE_COLUMNS}, (SELECT CASE WHEN p.dm_refused_at IS NULL THEN p.dm_enabled ELSE 0 END "
    "FROM players p WHERE p.id = notifications.player_id) AS dm_enabled"
)


def status_match(statuses: Sequence[GameStatus]) -> tuple[str, list[str]]:
    """The SQL condition for games with one of ``statuses``, and its arguments.  A status no
    version of Hexhall writes is a damaged row: it is listed with the games set aside (and set
    aside for good when it is read), so a damaged game never silently vanishes."""
    names = [str(GameStatus(s)) for s in statuses]
    match = f"status IN ({', '.join('?' for _ in names)})"
    if GameStatus.CORRUPT in names:
        known = ", ".join(f"'{s}'" for s in GameStatus)
        match = f"({match} OR status IS NULL OR status NOT IN ({known}))"
    return match, names


def read_player(row: Row) -> PlayerRow:
    """A stored player; a damaged setting reads as the neutral one, with a log line."""
    r = Reader("players", row)
    # Who the player is must be readable; what they chose (quiet hours, a vacation's end) or
    # when they came falls back to the neutral value with a log line: a damaged setting must
    # not lock a player out of every game (nor their opponents, whose moves give them the turn).
    soft = Lenient("players", row)
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


def read_game(row: Row, reader: Reader | None = None) -> GameRow:
    """A stored game (:class:`BadRow` if a value cannot be read; ``reader``: a
    :class:`Lenient` one for a row being set aside)."""
    r = reader or Reader("games", row)
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
        reason=_termination(r),
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
        premove_lines=r.integer("premove_lines"),
    )


#: How a game whose stored reason names no :class:`Termination` ended, by its result: only a
#: reason typed into a record imported before endings were enums can be such a text.
_UNNAMED = {GameResult.WIN: Termination.WIN, GameResult.DRAW: Termination.DRAW}


def _termination(r: Reader) -> Termination | None:
    text = r.opt_text("reason")
    if text is None:
        return None
    try:
        return Termination(text)
    except ValueError:
        # Read as the ending it amounts to; the row is kept as it is.
        result = r.opt_enum(GameResult, "result")
        return None if result is None else _UNNAMED.get(result, Termination.ABORTED)


def _level(r: Reader) -> Level | None:
    text = r.row["bot_level"]
    if text is None:
        return None
    try:
        return Level(text)
    except ValueError:
        if isinstance(r, Lenient):
            return None
        raise r.bad("bot_level", f"not a level: {text!r}") from None


def _origin(r: Reader) -> Origin:
    try:
        return Origin(r.row["origin"])
    except ValueError:
        if isinstance(r, Lenient):
            return Origin.IMPORTED  # a damaged row is never rated
        raise r.bad("origin", f"not an Origin: {r.row['origin']!r}") from None


class Lenient(Reader):
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


def set_aside_game(row: Row, reason: str) -> GameRow:
    """What can be read of a game row that cannot be read, with status ``corrupt``."""
    game = read_game(row, Lenient("games", row))
    return replace(game, status=GameStatus.CORRUPT, corrupt_reason=reason[:500])


def read_challenge(row: Row, reader: Reader | None = None) -> ChallengeRow:
    """A stored challenge (:class:`BadRow` if a value cannot be read; ``reader``: a
    :class:`Lenient` one for a row being set aside)."""
    r = reader or Reader("challenges", row)
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


def read_move(row: Row) -> MoveRow:
    """A stored move (:class:`BadRow` if a value cannot be read)."""
    r = Reader("moves", row)
    return MoveRow(
        game_id=r.integer("game_id"),
        ply=r.integer("ply"),
        move=r.text("move"),
        seat=r.integer("seat"),
        played_at=r.time("played_at"),
    )


def read_notification(row: Row) -> Notification:
    """A stored notification (:class:`BadRow` if a value cannot be read); ``direct`` is off
    when the recipient's current setting (``dm_enabled``, when selected) is."""
    r = Reader("notifications", row)
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
