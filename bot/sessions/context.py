"""What the session modules share: the store, the clock, per-game locks, the caches, and the
helpers that load, replay and describe games.

One :class:`Context` belongs to one :class:`~bot.sessions.manager.SessionManager`; every
module of :mod:`bot.sessions` takes it as its first argument.  :class:`Refusal` is how any of
them answers with a one-line refusal (the manager's :func:`guard` turns it into a reply).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, ParamSpec, TypeVar

import engines
from bot.core.notification import BOT_USER_ID, Kind, Notification, Recipient
from bot.core.settings import Settings
from bot.core.status import GameStatus
from bot.delivery.notify import delivery_time
from bot.limits import MAX_ID, cut
from bot.messages import (
    Action,
    ActionKind,
    Chat,
    Mention,
    Need,
    NeedKind,
    Reply,
    Segment,
    Text,
    User,
)
from bot.sessions import clock as clk
from bot.sessions import texts, validate
from bot.sessions.clock import Clock, SystemClock
from bot.sessions.pictures import board_picture
from bot.sessions.thinker import Thinker
from bot.storage import BadRow, GameRow, MoveRow, PlayerRow, SqlStore, StoreBusy
from bot.workers import worker_name
from engines import Position
from engines.base import shown

__all__ = [
    "CHALLENGE_TTL",
    "DEFAULT_TIME_PER_MOVE",
    "FIRST_CHOICES",
    "MAX_PENDING",
    "RULES_DIR",
    "TIME_CHOICES",
    "Context",
    "Loaded",
    "Refusal",
    "checked_id",
    "dumps",
    "guard",
]

log = logging.getLogger(__name__)

#: Where ``rules`` reads ``<game>.md`` from: shipped inside the package (``docs/rules/`` holds
#: the same files for readers of the repository; a test keeps them identical).
RULES_DIR: Traversable = resources.files("bot.sessions") / "rules"
#: Who takes seat 0 (the side the rules call first): the challenger, the opponent, or chance.
FIRST_CHOICES = ("me", "them", "random")
#: Time per move a challenge may ask for, in days (``None`` = no clock).
TIME_CHOICES: tuple[float | None, ...] = (None, 1, 3, 7, 14)
DEFAULT_TIME_PER_MOVE = 3
#: At most this many pending challenges per challenger.
MAX_PENDING = 10
CHALLENGE_TTL = timedelta(hours=24)

P = ParamSpec("P")
R = TypeVar("R")


class Refusal(Exception):
    """Raised inside the sessions to answer with a one-line refusal (never escapes the
    manager); ``need`` says what the request lacked, when it did not name a game or
    challenge."""

    def __init__(self, text: Text | str, need: Need | None = None) -> None:
        super().__init__(str(text))
        self.text = text if isinstance(text, Text) else Text.of(text)
        self.need = need


def guard(method: Callable[P, Awaitable[Reply]]) -> Callable[P, Awaitable[Reply]]:
    """Turn a :class:`Refusal` raised anywhere in ``method`` into a refusal reply."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> Reply:
        try:
            # Every argument checked against its hint first (see bot.sessions.validate).
            checked, named = validate.checked_call(method, args, kwargs)
            return validate.bounded(await method(*checked, **named))
        except validate.BadArgument as exc:
            return Reply.refuse(exc.text)
        except Refusal as refusal:
            return validate.bounded(Reply.refuse(refusal.text, refusal.need))
        except StoreBusy:
            # Another process (a backup, a stuck bot) held the database too long: nothing
            # was changed, the same command can simply be sent again.
            return Reply.refuse(texts.BUSY)
        except BadRow as exc:
            # The store has set a damaged game or challenge aside; other rows are not.
            log.error("a stored row cannot be read: %s", exc)
            return Reply.refuse(texts.row_unreadable(exc.table, exc.row_id))

    return wrapper


def checked(
    refused: Callable[[validate.BadArgument], R],
) -> Callable[[Callable[P, Awaitable[R]]], Callable[P, Awaitable[R]]]:
    """:func:`guard`'s argument check for the manager's public methods that answer with
    something other than a reply (move suggestions, a board's facts, a picker): every argument
    is checked against its hint first, and a bad one gets ``refused(error)`` (an empty answer,
    or a refusal) without running the method."""

    def wrap(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
        @functools.wraps(method)
        async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                checked_args, named = validate.checked_call(method, args, kwargs)
            except validate.BadArgument as exc:
                return refused(exc)
            return await method(*checked_args, **named)

        return wrapper

    return wrap


def checked_id(value: object, what: str) -> int:
    """``value`` as a game or challenge id; :class:`Refusal` if it is not a sane one."""
    # Ids come from adapters and typed text: anything but a sane int would reach SQL.
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        raise Refusal(texts.no_such(what, shown(str(value))))
    return value


def dumps(value: Any) -> str:
    """Compact, stable JSON (options and snapshots as stored)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@dataclass(frozen=True)
class Loaded:
    """A stored game and its position; ``cached`` when both came from this process's cache."""

    row: GameRow
    position: Position
    cached: bool = False


class Context:
    """The state and helpers the session modules share (see the module docstring)."""

    def __init__(
        self,
        store: SqlStore,
        clock: Clock | None = None,
        *,
        pictures: bool = True,
        rng: random.Random | None = None,
        rules_dir: Traversable = RULES_DIR,
        challenge_ttl: timedelta = CHALLENGE_TTL,
        max_pending: int = MAX_PENDING,
        thinker: Thinker | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.pictures = pictures
        self.rng = rng or random.Random()
        self.rules_dir = rules_dir
        self.challenge_ttl = challenge_ttl
        self.max_pending = max_pending
        self.locks: dict[int, asyncio.Lock] = {}
        # game id -> (row, position) as last read or written: only what the store can rebuild.
        self.positions: dict[int, tuple[GameRow, Position]] = {}
        self.players: dict[int, PlayerRow] = {}
        self.by_user: dict[tuple[str, str], PlayerRow] = {}
        #: gap between two pieces of clock work (reminders, timeouts) handled by a sweep
        self.sweep_gap = clk.SWEEP_GAP
        # The earliest time the next piece of clock work may be delivered: pacing across sweeps.
        self.next_free: datetime | None = None
        #: where the bot's moves are searched (see bot.sessions.opponent)
        self.thinker = thinker or Thinker()
        # game id -> the task making the bot's move there: at most one per game.
        self.bot_tasks: dict[int, asyncio.Task[None]] = {}
        #: this manager among the bot processes on one database (host, process, a random
        #: part): the owner of the leases on shared chores such as the clock sweep.
        self.worker = worker_name()

    def now(self) -> datetime:
        """The manager's current time (from the injected clock)."""
        return self.clock.now()

    @staticmethod
    def settings_of(player: PlayerRow) -> Settings:
        """A player's notification settings as stored."""
        return player.settings

    def deliver_after(self, player: PlayerRow, now: datetime) -> datetime:
        """When a notification to ``player`` raised at ``now`` may be delivered: at once, or
        when the player's quiet hours end.  (Whether a reminder is sent at all is decided
        before it is made: see :meth:`sweep`.)"""
        return delivery_time(Kind.YOUR_TURN, self.settings_of(player), now) or now

    def deadline(self, time_per_move: float | None, now: datetime) -> datetime | None:
        """The deadline of the next move for a game with this time per move (days)."""
        if time_per_move is None:
            return None
        return now + timedelta(days=time_per_move)

    def turn_deadline(
        self, player: PlayerRow, time_per_move: float | None, now: datetime
    ) -> datetime | None:
        """The deadline of a move ``player`` gets at ``now``: the time per move, plus what is
        left of the player's vacation (their clock does not run while they are away).
        The bot as an opponent has no clock."""
        if player.user_id == BOT_USER_ID:
            return None
        due = self.deadline(time_per_move, now)
        until = player.away_until
        if due is None or until is None or until <= now:
            return due
        return clk.paused_deadline(due, now, [clk.AwaySpan(now, until)])

    async def player(self, user: User) -> PlayerRow:
        """The stored player for ``user`` (created on first contact)."""
        key = (user.platform, user.user_id)
        cached = self.by_user.get(key)
        if cached is not None and cached.name == user.name:
            return cached
        row = await self.store.player(user.platform, user.user_id, user.name, self.now())
        self.by_user[key] = row
        self.players[row.id] = row
        return row

    async def someone(self, user: User) -> PlayerRow:
        """The stored player for ``user`` named by someone else (a challenge's opponent, an
        imported record's other player): created on first mention, but an existing player's
        display name is never changed by what another player typed (only by their own
        requests, through :meth:`player`)."""
        known = self.by_user.get((user.platform, user.user_id))
        if known is None:
            known = await self.store.find_player(user.platform, user.user_id)
        if known is None:
            return await self.player(user)
        self.by_user[(user.platform, user.user_id)] = known
        self.players[known.id] = known
        return known

    async def player_by_id(self, player_id: int) -> PlayerRow:
        cached = self.players.get(player_id)
        if cached is not None:
            return cached
        row = await self.store.get_player(player_id)
        if row is None:
            raise Refusal(texts.player_missing(player_id))
        self.players[player_id] = row
        return row

    async def player_to_move(self, game_id: int) -> PlayerRow | None:
        """The player whose turn it is in an active game (``None`` if none or not active)."""
        row = await self.store.get_game(game_id)
        if row is None or row.status != GameStatus.ACTIVE or row.to_move not in (0, 1):
            return None
        try:
            await self.check_seats(row)
        except Refusal:
            return None
        return await self.player_by_id(row.seats[row.to_move])

    async def against_bot(self, game_id: int) -> bool:
        """Whether one seat of game ``game_id`` is the bot itself (``False`` for no such game);
        from this process's cache when it holds the game (the seats never change)."""
        cached = self.positions.get(game_id)
        if cached is not None:
            return cached[0].against_bot
        try:
            row = await self.store.get_game(game_id)
        except BadRow:
            return False
        return row is not None and row.against_bot

    def forget_player(self, player_id: int) -> None:
        """Drop a cached player row (call after changing their settings in the store)."""
        row = self.players.pop(player_id, None)
        if row is not None:
            self.by_user.pop((row.platform, row.user_id), None)

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self.locks.get(game_id)
        if lock is None:
            lock = self.locks[game_id] = asyncio.Lock()
        return lock

    async def names(self, row: GameRow) -> tuple[str, str]:
        a = await self.player_by_id(row.seat0)
        b = await self.player_by_id(row.seat1)
        return a.name, b.name

    @staticmethod
    def mention(player: PlayerRow) -> Mention:
        """A player named inside a notification's text (each platform mentions its way)."""
        return Mention(player.platform, player.user_id, player.name)

    def note(
        self,
        player: PlayerRow,
        kind: Kind,
        text: Text | Segment,
        now: datetime,
        *,
        game_id: int | None = None,
        dedupe: str | None = None,
        chat_id: str | None = None,
        at: datetime | None = None,
        ply: int | None = None,
        actions: tuple[Action, ...] = (),
    ) -> Notification:
        """A notification to ``player`` raised at ``now``, to deliver after their quiet hours
        (``at`` is a paced delivery time from the sweeper; quiet hours may push it later).
        ``{game}`` / ``{challenge}`` in the text, actions and dedupe key become the id of a
        game or challenge created in the same transaction."""
        return Notification(
            kind=kind,
            recipient=Recipient(player.platform, player.user_id, player.name, player.id),
            text=Text.of(text),
            deliver_after=self.deliver_after(player, at or now),
            chat=None if chat_id is None else Chat(player.platform, chat_id),
            game_id=game_id,
            ply=ply,
            actions=actions,
            direct=player.settings.direct,
            dedupe=dedupe,
            created_at=now,
        )

    def recap_notes(self, row: GameRow, player: PlayerRow, now: datetime) -> list[Notification]:
        """The animated recap of a game that just ended, as its own delivery to the game's
        chat (drawn when it is delivered, so the game-over reply does not wait for it)."""
        if not self.pictures:
            return []
        note = self.note(
            player,
            Kind.RECAP,
            texts.recap_note(row.id, self.title(row)),
            now,
            game_id=row.id,
            chat_id=row.chat_id,
            dedupe=f"recap:{row.id}",
        )
        return [replace(note, direct=False)]

    async def replay(
        self, row: GameRow, moves: list[MoveRow] | None = None, upto: int | None = None
    ) -> Position:
        """The position of a stored game after ``upto`` plies (all of them by default, checked
        against the stored snapshot; ``moves`` must then come from the same read as ``row``).

        Raises :class:`Refusal` after setting the game aside when its rows cannot be decoded
        or do not agree with each other.
        """
        try:
            if moves is None:
                moves = await self.store.moves(row.id)
            options = dict(row.options)
            count = row.ply if upto is None else upto
            if [m.ply for m in moves[:count]] != list(range(count)) or (
                upto is None and len(moves) != row.ply
            ):
                raise ValueError(f"{len(moves)} stored moves for ply {count}")
            position = engines.position_after(row.game, [m.move for m in moves[:count]], **options)
            if upto is None and json.loads(json.dumps(position.to_dict())) != row.snapshot:
                raise ValueError("replayed moves do not match the stored snapshot")
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            # IllegalMove and json.JSONDecodeError are ValueErrors too.
            reason = " ".join(str(exc).split())[:200] or type(exc).__name__
            log.error("game #%d is corrupt: %s", row.id, reason)
            await self.store.mark_corrupt(row.id, reason)
            self.positions.pop(row.id, None)
            raise Refusal(texts.cannot_be_read(row.id, reason)) from None
        return position

    async def load(self, game_id: int, fresh: bool = True) -> Loaded:
        """The game and its position; ``fresh=False`` trusts this process's cache (a move
        does: the store's optimistic check catches a stale row, and the move is retried)."""
        cached = self.positions.get(game_id)
        if not fresh and cached is not None:
            return Loaded(cached[0], cached[1], cached=True)
        try:
            row = await self.store.get_game(game_id)
        except BadRow:  # the store has set it aside
            raise Refusal(texts.set_aside(game_id)) from None
        if row is None:
            raise Refusal(texts.no_such("game", str(game_id)))
        if row.status == GameStatus.CORRUPT:
            raise Refusal(texts.set_aside(game_id))
        if cached is not None and cached[0].version == row.version:
            return Loaded(row, cached[1])
        # Read the row again with its moves in one transaction: another process may be
        # writing, and a row and moves from two moments would look corrupt.
        try:
            both = await self.store.game_with_moves(game_id)
        except BadRow:
            raise Refusal(texts.set_aside(game_id)) from None
        if both is None:
            raise Refusal(texts.no_such("game", str(game_id)))
        row, moves = both
        if row.status == GameStatus.CORRUPT:
            raise Refusal(texts.set_aside(game_id))
        await self.check_seats(row)
        position = await self.replay(row, moves)
        self.positions[game_id] = (row, position)
        return Loaded(row, position)

    async def pick_game(
        self,
        player: PlayerRow,
        chat: Chat,
        game_id: int | None,
        *,
        turn: bool = False,
        ended: bool = False,
    ) -> int:
        """The game a request without an id is about: the player's only active game in this
        chat; with ``turn`` (a move) the only one where it is their turn, when several are
        active; with ``ended`` (looking at a game) their most recent game in this chat when
        none is active.  :class:`Refusal` with a :class:`Need` when it is not clear."""
        if game_id is not None:
            return checked_id(game_id, "game")
        games = await self.store.active_games_in_chat(player.id, chat.platform, chat.chat_id)
        # A game found damaged while reading the list is set aside: not a candidate.
        damaged = [g.id for g in games if g.status is GameStatus.CORRUPT]
        games = [g for g in games if g.status is not GameStatus.CORRUPT]
        if len(games) > 1 and turn:
            mine = [g for g in games if g.to_move is not None and g.seats[g.to_move] == player.id]
            if len(mine) == 1:
                return mine[0].id
        if not games and ended:
            recent = await self.recent_game(player, chat)
            if recent is not None:
                return recent
        if not games:
            damaged += await self.damaged_here(player, chat)
            if damaged:
                # Naming the damaged game says more than "no game here".
                raise Refusal(texts.damaged_game_here(damaged[0]))
            raise Refusal(texts.no_active_game_here(), Need(NeedKind.GAME))
        if len(games) > 1:
            ids = [g.id for g in games]
            raise Refusal(texts.which_game(len(games), ids), Need(NeedKind.GAME, tuple(ids[:10])))
        return games[0].id

    async def damaged_here(self, player: PlayerRow, chat: Chat, scan: int = 20) -> list[int]:
        """Ids of ``player``'s games in ``chat`` set aside as damaged (among their ``scan``
        newest such games), newest first."""
        rows = await self.store.games_of(player.id, (GameStatus.CORRUPT,), limit=scan)
        return [r.id for r in rows if (r.platform, r.chat_id) == (chat.platform, chat.chat_id)]

    async def check_seats(self, row: GameRow) -> None:
        """Read both seats' players; a game whose seat names a missing or unreadable player is
        set aside (:class:`Refusal` naming it), so it does not block the player's other games."""
        for player_id in row.seats:
            try:
                await self.player_by_id(player_id)
            except (Refusal, BadRow) as exc:
                reason = cut(" ".join(str(exc).split()), 200)
                log.error("game #%d is corrupt: %s", row.id, reason)
                await self.store.mark_corrupt(row.id, reason)
                self.positions.pop(row.id, None)
                raise Refusal(texts.game_damaged(row.id, cut(reason, 80))) from None

    async def recent_game(self, player: PlayerRow, chat: Chat, scan: int = 200) -> int | None:
        """The id of ``player``'s most recent game in ``chat`` (among their ``scan`` newest
        games), if any."""
        statuses = (GameStatus.ACTIVE, GameStatus.FINISHED, GameStatus.ABORTED)
        for row in await self.store.games_of(player.id, statuses, limit=scan):
            if (row.platform, row.chat_id) == (chat.platform, chat.chat_id):
                return row.id
        return None

    @staticmethod
    def seat(player: PlayerRow, row: GameRow) -> int | None:
        if row.seat0 == player.id:
            return 0
        if row.seat1 == player.id:
            return 1
        return None

    async def picture(self, position: Position, reply: Reply, row: GameRow | None = None) -> Reply:
        """``reply`` with the board of ``position`` (when pictures are on).  With the stored
        game ``row`` the picture names the players, shows the time left to move and, at the
        game's last ply, how it ended (also when that was a resignation, a draw or time)."""
        if not self.pictures:
            return reply
        outcome = players = clock = None
        if row is not None:
            players = await self.names(row)
            if position.ply == row.ply:
                outcome = row.outcome
                if outcome is None and row.deadline_at is not None:
                    left = (row.deadline_at - self.now()).total_seconds()
                    clock = texts.time_left(left)
        png, alt = await asyncio.to_thread(
            functools.partial(
                board_picture, position, outcome=outcome, players=players, clock=clock
            )
        )
        if png is None:
            return reply
        return replace(reply, image=png, alt=alt)

    def title(self, row: GameRow) -> str:
        game = engines.GAMES.get(row.game)
        return game.title if game else row.game

    async def mentions(self, row: GameRow) -> tuple[Mention, Mention]:
        """The players of both seats, as mentions."""
        a = await self.player_by_id(row.seat0)
        b = await self.player_by_id(row.seat1)
        return self.mention(a), self.mention(b)

    async def who(self, row: GameRow, position: Position, seat: int) -> Text:
        """The player in ``seat`` with their side, e.g. ``Ada (Red)``."""
        return texts.side((await self.mentions(row))[seat], position.seat_sides[seat])

    async def result_text(self, row: GameRow, position: Position) -> Text:
        """How a finished game ended."""
        winner = None if row.winner is None else await self.who(row, position, row.winner)
        return texts.result(row.id, row.result, row.reason, winner)

    def game_actions(self, row: GameRow) -> tuple[Action, ...]:
        return (
            Action.make("Board", ActionKind.BOARD, row.id),
            Action.make("History", ActionKind.HISTORY, row.id),
            Action.make("Resign", ActionKind.RESIGN, row.id),
        )

    def store_row(self, updated: GameRow | None, position: Position) -> GameRow:
        if updated is None:
            raise Refusal(texts.changed_meanwhile())
        self.positions[updated.id] = (updated, position)
        return updated

    async def own_game(self, user: User, chat: Chat, game_id: int | None) -> tuple[PlayerRow, int]:
        me = await self.player(user)
        return me, await self.pick_game(me, chat, game_id)

    async def seat_in_active(
        self, me: PlayerRow, loaded: Loaded, what: str
    ) -> tuple[GameRow, Position, int]:
        row, position = loaded.row, loaded.position
        seat = self.seat(me, row)
        if seat is None:
            raise Refusal(texts.not_playing(row.id, what))
        if row.status != GameStatus.ACTIVE:
            raise Refusal(texts.is_over(row.id, await self.result_text(row, position)))
        return row, position, seat
