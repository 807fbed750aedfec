"""The platform-neutral session manager: challenges, games, moves, and their notifications.

Adapters (console, Discord, Telegram) call the async methods of :class:`SessionManager` with a
:class:`~bot.messages.User` and a :class:`~bot.messages.Chat` and show the :class:`Reply` they get.
Every refusal is a one-line ``Reply`` with ``ok=False``; bad input never raises.  Everything
that matters is in the store: the manager only caches positions it can rebuild.

Concurrency: moves of one game are serialised by a per-game ``asyncio.Lock`` in this process and
by the store's optimistic check (``WHERE ply = ? AND version = ?``) across processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, time, timedelta
from pathlib import Path
from typing import Any, ParamSpec

import engines
from bot import clock as clk
from bot import records
from bot.clock import Clock, SystemClock
from bot.delivery.notify import Kind, QuietHours, Settings, dedupe_key, delivery_time
from bot.messages import Action, Chat, Reply, User, parse_action
from bot.pictures import board_picture, recap_in_worker
from bot.store import (
    ChallengeRow,
    GameRow,
    MoveRow,
    NewGame,
    Note,
    PlayerRow,
    Store,
    from_ts,
)
from engines import IllegalMove, Position
from engines.base import shown

__all__ = [
    "DEFAULT_TIME_PER_MOVE",
    "FIRST_CHOICES",
    "MAX_PENDING",
    "RULES_DIR",
    "TIME_CHOICES",
    "SessionManager",
]

log = logging.getLogger(__name__)

#: Where ``rules`` reads ``<game>.md`` from.
RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"
#: Who takes seat 0 (the side the rules call first): the challenger, the opponent, or chance.
FIRST_CHOICES = ("me", "them", "random")
#: Time per move a challenge may ask for, in days (``None`` = no clock).
TIME_CHOICES: tuple[float | None, ...] = (None, 1, 3, 7, 14)
DEFAULT_TIME_PER_MOVE = 3
#: At most this many pending challenges per challenger.
MAX_PENDING = 10
CHALLENGE_TTL = timedelta(hours=24)

HELP = """Commands (a game id like #42 is needed only when you have several games here):
challenge <player|open> <game> [option=value ...] [first=me|them|random] [days=none|1|3|7|14]
accept [#challenge]   decline [#challenge]   cancel [#challenge]
move [#game] <move>   board [#game]   history [#game]   export [#game]   resign [#game]
  (a move that would lose is not played until you confirm it: end it with !)
draw [#game] [accept|decline]   takeback [#game] [accept|decline]   rematch [#game]
away <days>   back   settings [dm on|off | reminders on|off | quiet 22:00-07:00 +01:00|off]
games   rules <game>   help"""

P = ParamSpec("P")


class Refusal(Exception):
    """Raised inside the manager to answer with a one-line refusal (never escapes it)."""


def _guard(method: Callable[P, Awaitable[Reply]]) -> Callable[P, Awaitable[Reply]]:
    """Turn a :class:`Refusal` raised anywhere in ``method`` into a refusal reply."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> Reply:
        try:
            return await method(*args, **kwargs)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))

    return wrapper


def _checked_id(value: object, what: str) -> int:
    # Ids come from adapters and typed text: anything but a sane int would reach SQL.
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**62:
        raise Refusal(f"There is no {what} #{shown(str(value))}.")
    return value


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _days(value: float | None) -> str:
    if value is None:
        return "no clock"
    return f"{value:g} day{'s' if value != 1 else ''} per move"


@dataclass(frozen=True)
class _Loaded:
    row: GameRow
    position: Position
    cached: bool = False


class SessionManager:
    """Everything a chat adapter needs: challenges, moves, boards, lists, rules.

    ``pictures=False`` leaves boards out of replies (benchmarks, tests that do not need them).
    """

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        *,
        pictures: bool = True,
        rng: random.Random | None = None,
        rules_dir: Path = RULES_DIR,
        challenge_ttl: timedelta = CHALLENGE_TTL,
        max_pending: int = MAX_PENDING,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.pictures = pictures
        self.rng = rng or random.Random()
        self.rules_dir = rules_dir
        self.challenge_ttl = challenge_ttl
        self.max_pending = max_pending
        self._locks: dict[int, asyncio.Lock] = {}
        # game id -> (row, position) as last read or written: only what the store can rebuild.
        self._positions: dict[int, tuple[GameRow, Position]] = {}
        self._players: dict[int, PlayerRow] = {}
        self._by_user: dict[tuple[str, str], PlayerRow] = {}
        #: gap between two pieces of clock work (reminders, timeouts) handled by :meth:`sweep`
        self.sweep_gap = clk.SWEEP_GAP
        # The earliest time the next piece of clock work may be delivered: pacing across sweeps.
        self._next_free: datetime | None = None

    # -- small helpers ----------------------------------------------------------------------

    def now(self) -> datetime:
        """The manager's current time (from the injected clock)."""
        return self.clock.now()

    @staticmethod
    def settings_of(player: PlayerRow) -> Settings:
        """A player's notification settings as stored."""
        quiet = None
        if (
            player.quiet_start is not None
            and player.quiet_end is not None
            and player.quiet_start != player.quiet_end
        ):
            quiet = QuietHours(
                time(player.quiet_start // 60, player.quiet_start % 60),
                time(player.quiet_end // 60, player.quiet_end % 60),
                timedelta(minutes=player.utc_offset_min),
            )
        return Settings(player.dm_enabled, player.reminders_enabled, quiet)

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
        left of the player's vacation (their clock does not run while they are away)."""
        due = self.deadline(time_per_move, now)
        until = from_ts(player.away_until)
        if due is None or until is None or until <= now:
            return due
        return clk.paused_deadline(due, now, [clk.AwaySpan(now, until)])

    async def player(self, user: User) -> PlayerRow:
        """The stored player for ``user`` (created on first contact)."""
        key = (user.platform, user.user_id)
        cached = self._by_user.get(key)
        if cached is not None and cached.name == user.name:
            return cached
        row = await self.store.player(user.platform, user.user_id, user.name, self.now())
        self._by_user[key] = row
        self._players[row.id] = row
        return row

    async def _player_by_id(self, player_id: int) -> PlayerRow:
        cached = self._players.get(player_id)
        if cached is not None:
            return cached
        row = await self.store.get_player(player_id)
        if row is None:
            raise Refusal(f"player {player_id} is missing from the database")
        self._players[player_id] = row
        return row

    async def player_to_move(self, game_id: int) -> PlayerRow | None:
        """The player whose turn it is in an active game (``None`` if none or not active)."""
        row = await self.store.get_game(game_id)
        if row is None or row.status != "active" or row.to_move not in (0, 1):
            return None
        return await self._player_by_id(row.seats[row.to_move])

    def forget_player(self, player_id: int) -> None:
        """Drop a cached player row (call after changing their settings in the store)."""
        row = self._players.pop(player_id, None)
        if row is not None:
            self._by_user.pop((row.platform, row.user_id), None)

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _names(self, row: GameRow) -> tuple[str, str]:
        a = await self._player_by_id(row.seat0)
        b = await self._player_by_id(row.seat1)
        return a.name, b.name

    def _note(
        self,
        player: PlayerRow,
        kind: str,
        text: str,
        now: datetime,
        *,
        game_id: int | None = None,
        dedupe: str | None = None,
        chat_id: str | None = None,
        at: datetime | None = None,
    ) -> Note:
        # ``at`` is a paced delivery time from the sweeper; quiet hours may push it later.
        return Note(
            player,
            kind,
            text,
            self.deliver_after(player, at or now),
            game_id=game_id,
            dedupe=dedupe,
            chat_id=chat_id,
            created_at=now,
        )

    # -- loading games ------------------------------------------------------------------------

    async def _replay(
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
            options = json.loads(row.options)
            if not isinstance(options, dict):
                raise ValueError("options are not an object")
            count = row.ply if upto is None else upto
            if [m.ply for m in moves[:count]] != list(range(count)) or (
                upto is None and len(moves) != row.ply
            ):
                raise ValueError(f"{len(moves)} stored moves for ply {count}")
            position = engines.position_after(row.game, [m.move for m in moves[:count]], **options)
            if upto is None and json.loads(json.dumps(position.to_dict())) != json.loads(
                row.snapshot
            ):
                raise ValueError("replayed moves do not match the stored snapshot")
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            # IllegalMove and json.JSONDecodeError are ValueErrors too.
            reason = " ".join(str(exc).split())[:200] or type(exc).__name__
            log.error("game #%d is corrupt: %s", row.id, reason)
            await self.store.mark_corrupt(row.id, reason)
            self._positions.pop(row.id, None)
            raise Refusal(
                f"Game #{row.id} cannot be read (damaged in storage: {reason}); "
                "it has been set aside."
            ) from None
        return position

    async def _load(self, game_id: int, fresh: bool = True) -> _Loaded:
        """The game and its position; ``fresh=False`` trusts this process's cache (a move
        does: the store's optimistic check catches a stale row, and the move is retried)."""
        cached = self._positions.get(game_id)
        if not fresh and cached is not None:
            return _Loaded(cached[0], cached[1], cached=True)
        row = await self.store.get_game(game_id)
        if row is None:
            raise Refusal(f"There is no game #{game_id}.")
        if row.status == "corrupt":
            raise Refusal(f"Game #{game_id} is damaged in storage and has been set aside.")
        if cached is not None and cached[0].version == row.version:
            return _Loaded(row, cached[1])
        # Read the row again with its moves in one transaction: another process may be
        # writing, and a row and moves from two moments would look corrupt.
        both = await self.store.game_with_moves(game_id)
        if both is None:
            raise Refusal(f"There is no game #{game_id}.")
        row, moves = both
        if row.status == "corrupt":
            raise Refusal(f"Game #{game_id} is damaged in storage and has been set aside.")
        position = await self._replay(row, moves)
        self._positions[game_id] = (row, position)
        return _Loaded(row, position)

    async def _pick_game(self, player: PlayerRow, chat: Chat, game_id: int | None) -> int:
        if game_id is not None:
            return _checked_id(game_id, "game")
        games = await self.store.active_games_in_chat(player.id, chat.platform, chat.chat_id)
        if not games:
            raise Refusal("You have no active game here: give a game id, e.g. #42.")
        if len(games) > 1:
            ids = ", ".join(f"#{g.id}" for g in games[:10])
            raise Refusal(f"You have {len(games)} active games here ({ids}): say which one.")
        return games[0].id

    @staticmethod
    def _seat(player: PlayerRow, row: GameRow) -> int | None:
        if row.seat0 == player.id:
            return 0
        if row.seat1 == player.id:
            return 1
        return None

    async def _picture(self, position: Position, reply: Reply) -> Reply:
        if not self.pictures:
            return reply
        png, alt = await asyncio.to_thread(board_picture, position)
        if png is None:
            return reply
        return replace(reply, image=png, alt=alt)

    def _title(self, row: GameRow) -> str:
        game = engines.GAMES.get(row.game)
        return game.title if game else row.game

    async def _who(self, row: GameRow, position: Position, seat: int) -> str:
        names = await self._names(row)
        return f"{names[seat]} ({position.seat_sides[seat]})"

    async def _result_text(self, row: GameRow, position: Position) -> str:
        if row.result == "draw":
            return f"#{row.id} is drawn ({row.reason})."
        if row.result == "none":
            return f"#{row.id} was aborted ({row.reason})."
        if row.winner is None:
            return f"#{row.id} is over ({row.reason})."
        return f"{await self._who(row, position, row.winner)} wins #{row.id} ({row.reason})."

    # -- challenges ---------------------------------------------------------------------------

    @_guard
    async def challenge(
        self,
        user: User,
        chat: Chat,
        game: str,
        opponent: User | None = None,
        options: Mapping[str, Any] | None = None,
        first: str = "random",
        time_per_move: float | None = DEFAULT_TIME_PER_MOVE,
    ) -> Reply:
        """Challenge ``opponent`` (or anyone in the chat, if ``None``) to ``game``.

        ``options`` are the game's options (text values are accepted, e.g. ``{"size": "16"}``);
        ``first`` is who takes seat 0 (``me``, ``them`` or ``random``); ``time_per_move`` is in
        days (``None``, 1, 3, 7 or 14).
        """
        name = game.strip().lower() if isinstance(game, str) else ""
        spec = engines.GAMES.get(name)
        if spec is None:
            raise Refusal(
                f"There is no game {shown(str(game))!r}: choose one of {', '.join(engines.GAMES)}."
            )
        try:
            resolved = spec.resolve_options(**dict(options or {}))
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        except TypeError:
            raise Refusal("Options must be given as name=value.") from None
        if first not in FIRST_CHOICES:
            raise Refusal(
                f"first must be one of {', '.join(FIRST_CHOICES)}, not {shown(str(first))!r}."
            )
        if time_per_move not in TIME_CHOICES:
            choices = ", ".join("none" if t is None else f"{t}" for t in TIME_CHOICES)
            raise Refusal(f"Days per move must be one of {choices}.")
        me = await self.player(user)
        target: PlayerRow | None = None
        if opponent is not None:
            if opponent.platform != user.platform:
                raise Refusal("You can only challenge players on the same platform.")
            if opponent.user_id == user.user_id:
                raise Refusal("You cannot challenge yourself.")
            target = await self.player(opponent)
        now = self.now()
        option_text = ", ".join(f"{k} {_value(v)}" for k, v in resolved.items())
        terms = f"{spec.title}" + (f" ({option_text})" if option_text else "")
        terms += f"; first: {first}; {_days(time_per_move)}"
        notes = []
        if target is not None:
            notes.append(
                self._note(
                    target,
                    "challenge",
                    f"{me.name} challenges you to {terms}: challenge #{{challenge}}.",
                    now,
                    chat_id=chat.chat_id,
                )
            )
        created = await self.store.create_challenge(
            challenger=me.id,
            target=None if target is None else target.id,
            platform=chat.platform,
            chat_id=chat.chat_id,
            game=name,
            options=_dumps(resolved),
            first=first,
            time_per_move=time_per_move,
            now=now,
            expires_at=now + self.challenge_ttl,
            limit=self.max_pending,
            notes=notes,
        )
        if created is None:
            raise Refusal(
                f"You already have {self.max_pending} pending challenges: cancel one first."
            )
        hours = self.challenge_ttl.total_seconds() / 3600
        whom = "anyone here" if target is None else target.name
        text = (
            f"{me.name} challenges {whom} to {terms}. Challenge #{created.id} "
            f"expires in {hours:g} hours."
        )
        actions = (
            Action.make("Accept", "acc", created.id),
            Action.make(
                "Decline" if target is not None else "Cancel",
                "dec" if target is not None else "can",
                created.id,
            ),
        )
        return Reply(text, actions=actions)

    async def _pick_challenge(
        self, player: PlayerRow, chat: Chat, challenge_id: int | None, role: str
    ) -> ChallengeRow:
        now = self.now()
        if challenge_id is not None:
            challenge = await self.store.get_challenge(_checked_id(challenge_id, "challenge"))
            if challenge is None:
                raise Refusal(f"There is no challenge #{challenge_id}.")
            return challenge
        pending = await self.store.pending_challenges(player.id, now)
        if role == "challenger":
            mine = [c for c in pending if c.challenger == player.id]
        else:
            mine = [c for c in pending if c.target == player.id]
            if role == "accepter":
                mine += [
                    c
                    for c in await self.store.open_challenges(chat.platform, chat.chat_id, now)
                    if c.challenger != player.id
                ]
        if not mine:
            raise Refusal("There is no pending challenge for you here.")
        if len(mine) > 1:
            ids = ", ".join(f"#{c.id}" for c in mine[:10])
            raise Refusal(f"There are {len(mine)} pending challenges ({ids}): say which one.")
        return mine[0]

    def _check_pending(self, challenge: ChallengeRow) -> None:
        if challenge.status != "pending":
            raise Refusal(f"Challenge #{challenge.id} was already {challenge.status}.")
        expires = from_ts(challenge.expires_at)
        if expires is not None and expires <= self.now():
            raise Refusal(f"Challenge #{challenge.id} has expired.")

    @_guard
    async def accept(self, user: User, chat: Chat, challenge_id: int | None = None) -> Reply:
        """Accept a challenge (the only one for you here when no id is given); starts the game."""
        me = await self.player(user)
        challenge = await self._pick_challenge(me, chat, challenge_id, "accepter")
        self._check_pending(challenge)
        if challenge.platform != chat.platform:
            raise Refusal(f"Challenge #{challenge.id} was made on another platform.")
        if challenge.target is None:
            if challenge.challenger == me.id:
                raise Refusal("You cannot accept your own challenge: anyone else can.")
        elif challenge.target != me.id:
            target = await self._player_by_id(challenge.target)
            raise Refusal(f"Challenge #{challenge.id} is for {target.name}, not for you.")
        try:
            options = json.loads(challenge.options)
            position = engines.new(challenge.game, **options)
        except (ValueError, TypeError) as exc:
            await self.store.close_challenge(challenge.id, "corrupt", self.now())
            raise Refusal(
                f"Challenge #{challenge.id} cannot be read ({shown(str(exc), 80)}); "
                "it has been set aside."
            ) from None
        challenger = await self._player_by_id(challenge.challenger)
        if challenge.first == "me":
            seats = (challenger, me)
        elif challenge.first == "them":
            seats = (me, challenger)
        else:
            seats = (challenger, me) if self.rng.random() < 0.5 else (me, challenger)
        now = self.now()
        sides = position.seat_sides
        to_move = seats[position.to_move]
        title = engines.GAMES[challenge.game].title
        notes = [
            self._note(
                challenger,
                "challenge_accepted",
                f"{me.name} accepted challenge #{challenge.id}: game #{{game}} {title}.",
                now,
                chat_id=challenge.chat_id,
            )
        ]
        if to_move.id != me.id:
            notes.append(
                self._note(
                    to_move,
                    "your_turn",
                    f"Your turn in #{{game}} {title} ({sides[position.to_move]}).",
                    now,
                    chat_id=challenge.chat_id,
                    dedupe="your_turn:{game}:0",
                )
            )
        row = await self.store.accept_challenge(
            challenge.id,
            me.id,
            NewGame(
                game=challenge.game,
                options=challenge.options,
                seat0=seats[0].id,
                seat1=seats[1].id,
                platform=challenge.platform,
                chat_id=challenge.chat_id,
                to_move=position.to_move,
                snapshot=_dumps(position.to_dict()),
                time_per_move=challenge.time_per_move,
                deadline_at=self.turn_deadline(to_move, challenge.time_per_move, now),
                rematch_of=challenge.rematch_of,
                challenge_id=challenge.id,
            ),
            now,
            notes,
        )
        if row is None:
            fresh = await self.store.get_challenge(challenge.id)
            status = "taken" if fresh is None else fresh.status
            raise Refusal(f"Challenge #{challenge.id} was already {status}.")
        self._positions[row.id] = (row, position)
        text = (
            f"{me.name} accepted challenge #{challenge.id}: game #{row.id} {title}. "
            f"{seats[0].name} plays {sides[0]}, {seats[1].name} plays {sides[1]}. "
            f"{to_move.name} ({sides[position.to_move]}) to move."
        )
        return await self._picture(
            position, Reply(text, actions=self._game_actions(row), game_id=row.id)
        )

    @_guard
    async def decline(self, user: User, chat: Chat, challenge_id: int | None = None) -> Reply:
        """Decline a challenge addressed to you."""
        me = await self.player(user)
        challenge = await self._pick_challenge(me, chat, challenge_id, "target")
        if challenge.target != me.id:
            if challenge.challenger == me.id:
                raise Refusal(f"Challenge #{challenge.id} is yours: cancel it instead.")
            raise Refusal(f"Challenge #{challenge.id} is not addressed to you.")
        self._check_pending(challenge)
        challenger = await self._player_by_id(challenge.challenger)
        now = self.now()
        note = self._note(
            challenger,
            "challenge_declined",
            f"{me.name} declined challenge #{challenge.id}.",
            now,
            chat_id=challenge.chat_id,
        )
        if not await self.store.close_challenge(challenge.id, "declined", now, [note]):
            raise Refusal(f"Challenge #{challenge.id} is no longer pending.")
        return Reply(f"{me.name} declined challenge #{challenge.id} from {challenger.name}.")

    @_guard
    async def cancel(self, user: User, chat: Chat, challenge_id: int | None = None) -> Reply:
        """Withdraw your own pending challenge."""
        me = await self.player(user)
        challenge = await self._pick_challenge(me, chat, challenge_id, "challenger")
        if challenge.challenger != me.id:
            raise Refusal(f"Challenge #{challenge.id} is not yours to cancel.")
        self._check_pending(challenge)
        if not await self.store.close_challenge(challenge.id, "cancelled", self.now()):
            raise Refusal(f"Challenge #{challenge.id} is no longer pending.")
        return Reply(f"{me.name} cancelled challenge #{challenge.id}.")

    async def expire_challenges(self) -> list[ChallengeRow]:
        """Mark every challenge whose time is up as expired (a sweeper may call this)."""
        return await self.store.expire_challenges(self.now())

    # -- moves --------------------------------------------------------------------------------

    @_guard
    async def move(
        self,
        user: User,
        chat: Chat,
        text: str,
        game_id: int | None = None,
        expected_ply: int | None = None,
        confirm: bool = False,
    ) -> Reply:
        """Play ``text`` in a game (your only active game here when no id is given).

        ``expected_ply`` is the ply the player saw (buttons carry it): if the game has moved on
        since, the move is refused as "the position changed" unless it is the same move the
        same player already made at that ply, which gets the same answer again.

        A legal move that would lose the game for its player (inpHeXion and Lines of Fixation
        have such moves) is not played: the reply warns and offers to play it anyway.
        ``confirm`` (or a move ending in ``!``) plays it without asking.
        """
        if not isinstance(text, str):
            raise Refusal("A move is text, e.g. e5.")
        if text.rstrip().endswith("!"):
            text, confirm = text.rstrip()[:-1], True
        me = await self.player(user)
        gid = await self._pick_game(me, chat, game_id)
        # What the player saw when they sent the move: a racing submission is judged against it.
        # Only when another submission holds the lock is there a race to judge; otherwise the
        # fresh stored state is what the player is answered against.
        lock = self._lock(gid)
        seen = self._positions.get(gid)
        if expected_ply is None and seen is not None and lock.locked():
            expected_ply = seen[1].ply
        async with lock:
            for fresh in (False, True):
                loaded = await self._load(gid, fresh)
                reply = await self._try_move(me, loaded, text, expected_ply, confirm)
                if reply is not None:
                    return reply
                if not loaded.cached:
                    # Another process changed the game between our read and our write.
                    self._positions.pop(gid, None)
                    row = await self.store.get_game(gid)
                    seat = self._seat(me, loaded.row)
                    if row is None or seat is None:
                        raise Refusal(f"There is no game #{gid}.")
                    return await self._stale(row, seat, text, loaded.row.ply)
                # Our cached row was stale (another process wrote): judge again, fresh.
                self._positions.pop(gid, None)
            raise AssertionError("unreachable: the fresh attempt returns or raises")

    async def _try_move(
        self,
        me: PlayerRow,
        loaded: _Loaded,
        text: str,
        expected_ply: int | None,
        confirm: bool = False,
    ) -> Reply | None:
        """Check and commit one move; ``None`` if the store refused the write as stale."""
        row, position, gid = loaded.row, loaded.position, loaded.row.id
        seat = self._seat(me, row)
        if seat is None:
            raise Refusal(f"You are not playing in #{gid}.")
        if expected_ply is not None and expected_ply != row.ply:
            if loaded.cached:
                return None  # check against the stored state before calling it stale
            return await self._stale(row, seat, text, expected_ply)
        if row.status != "active":
            repeat = await self._repeat(row, seat, text, row.ply - 1)
            if repeat is not None:
                return repeat
            raise Refusal(f"#{gid} is over: {await self._result_text(row, position)}")
        due = from_ts(row.deadline_at)
        if due is not None and due <= self.now():
            if loaded.cached:
                return None  # look at the stored game before calling time
            # The deadline passed before the sweeper got to it: time is called now.
            ended = await self._expire(row, self.now())
            if ended is None:
                return None
            raise Refusal(f"Time ran out in #{gid}: {await self._result_text(ended, position)}")
        if position.to_move != seat:
            if loaded.cached:
                return None
            repeat = await self._repeat(row, seat, text, row.ply - 1)
            if repeat is not None:
                return repeat
            other = await self._who(row, position, position.to_move)
            raise Refusal(f"It is not your turn in #{gid}: {other} is to move.")
        try:
            after = position.play(text)
        except IllegalMove as exc:
            raise Refusal(f"Illegal move in #{gid}: {exc}") from None
        outcome = after.outcome
        if not confirm and outcome is not None and outcome.winner not in (None, seat):
            move = after.last_move or text
            winner = await self._who(row, position, outcome.winner)
            return Reply(
                f"Careful: {move} loses #{gid}, {winner} would win ({outcome.reason}). "
                f"Nothing is played yet: press Play it anyway, or send {move} ! to confirm.",
                actions=(Action.make("Play it anyway", "mvy", gid, row.ply, move),),
                ok=False,
                game_id=gid,
            )
        return await self._commit(row, after, me, seat)

    async def _commit(
        self, row: GameRow, after: Position, me: PlayerRow, seat: int
    ) -> Reply | None:
        """Store the move (one transaction with its notifications) and answer it; ``None`` if
        the stored game was no longer at ``row``'s ply and version."""
        now = self.now()
        move = after.last_move or ""
        opponent = await self._player_by_id(row.seats[1 - seat])
        title = self._title(row)
        finish: tuple[int | None, str, str] | None = None
        notes = []
        deadline = None
        if after.outcome is None:
            next_player = await self._player_by_id(row.seats[after.to_move])
            deadline = self.turn_deadline(next_player, row.time_per_move, now)
        if after.outcome is not None:
            result = "draw" if after.outcome.winner is None else "win"
            finish = (after.outcome.winner, result, after.outcome.reason)
            notes.append(
                self._note(
                    opponent,
                    "game_over",
                    f"#{row.id} {title} is over: {me.name} played {move}. "
                    + (
                        "Draw."
                        if after.outcome.winner is None
                        else f"{'You lose' if after.outcome.winner == seat else 'You win'} "
                        f"({after.outcome.reason})."
                    ),
                    now,
                    chat_id=row.chat_id,
                    game_id=row.id,
                    dedupe=f"game_over:{row.id}:{opponent.id}",
                )
            )
        else:
            mover = row.seats[after.to_move]
            if mover != me.id:
                target = await self._player_by_id(mover)
                notes.append(
                    self._note(
                        target,
                        "your_turn",
                        f"Your turn in #{row.id} {title}: {me.name} played {move}.",
                        now,
                        chat_id=row.chat_id,
                        game_id=row.id,
                        dedupe=dedupe_key(Kind.YOUR_TURN, row.id, after.ply),
                    )
                )
        updated = await self.store.apply_move(
            row,
            move,
            seat,
            _dumps(after.to_dict()),
            None if after.outcome is not None else after.to_move,
            now,
            notes,
            finish,
            deadline,
        )
        if updated is None:
            return None
        self._positions[row.id] = (updated, after)
        return await self._move_reply(updated, row.ply, seat, after)

    async def _canonical(self, row: GameRow, text: str, ply: int) -> str | None:
        """``text`` as the canonical move it would have been at ``ply``, if legal there."""
        try:
            position = await self._replay(row, upto=ply)
            return position.play(text).last_move
        except (IllegalMove, Refusal):
            return None

    async def _repeat(self, row: GameRow, seat: int, text: str, ply: int) -> Reply | None:
        """The first answer again if ``text`` is the move ``seat`` already made at ``ply``."""
        if ply < 0:
            return None
        stored = await self.store.move_at(row.id, ply)
        if stored is None or stored.seat != seat:
            return None
        if await self._canonical(row, text, ply) != stored.move:
            return None
        return await self._move_reply(row, ply, seat, None)

    async def _stale(self, row: GameRow, seat: int, text: str, ply: int) -> Reply:
        repeat = await self._repeat(row, seat, text, ply)
        if repeat is not None:
            return repeat
        raise Refusal(
            f"The position of #{row.id} changed (it is now at move {row.ply + 1}): "
            "look at the board and try again."
        )

    async def _move_reply(self, row: GameRow, ply: int, seat: int, after: Position | None) -> Reply:
        """The answer to ``seat``'s move at ``ply`` (the same whenever it is asked again)."""
        if after is None or after.ply != ply + 1:
            after = await self._replay(row, upto=ply + 1)
        stored_move = after.last_move
        who = await self._who(row, after, seat)
        text = f"#{row.id} {self._title(row)}, move {ply + 1}: {who} played {stored_move}."
        actions: tuple[Action, ...] = ()
        if after.outcome is not None:
            if after.outcome.winner is None:
                text += f" The game is drawn ({after.outcome.reason})."
            else:
                winner = await self._who(row, after, after.outcome.winner)
                text += f" {winner} wins ({after.outcome.reason})."
            return await self._game_over_reply(row, after, text, upto=ply + 1)
        text += f" {await self._who(row, after, after.to_move)} to move."
        actions = self._game_actions(row)
        return await self._picture(after, Reply(text, actions=actions, game_id=row.id))

    def _game_actions(self, row: GameRow) -> tuple[Action, ...]:
        return (
            Action.make("Board", "bd", row.id),
            Action.make("History", "hi", row.id),
            Action.make("Resign", "rs", row.id),
        )

    @_guard
    async def resign(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """Resign a game you play in."""
        me = await self.player(user)
        gid = await self._pick_game(me, chat, game_id)
        async with self._lock(gid):
            loaded = await self._load(gid)
            row, position = loaded.row, loaded.position
            seat = self._seat(me, row)
            if seat is None:
                raise Refusal(f"You are not playing in #{gid}: only its players can resign.")
            if row.status != "active":
                raise Refusal(f"#{gid} is already over.")
            now = self.now()
            opponent = await self._player_by_id(row.seats[1 - seat])
            note = self._note(
                opponent,
                "game_over",
                f"{me.name} resigned #{gid} {self._title(row)}: you win.",
                now,
                chat_id=row.chat_id,
                game_id=gid,
                dedupe=f"game_over:{gid}:{opponent.id}",
            )
            updated = await self.store.finish_game(
                row, "finished", 1 - seat, "win", "resignation", now, [note]
            )
            if updated is None:
                raise Refusal(f"The game #{gid} changed meanwhile: look at it and try again.")
            self._positions[gid] = (updated, position)
            winner = await self._who(updated, position, 1 - seat)
            return await self._game_over_reply(
                updated, position, f"{me.name} resigned #{gid}: {winner} wins (resignation)."
            )

    # -- looking ------------------------------------------------------------------------------

    @_guard
    async def board(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """The board of a game and whose turn it is."""
        me = await self.player(user)
        gid = await self._pick_game(me, chat, game_id)
        loaded = await self._load(gid)
        row, position = loaded.row, loaded.position
        names = await self._names(row)
        sides = position.seat_sides
        head = (
            f"#{gid} {self._title(row)}: {names[0]} ({sides[0]}) vs {names[1]} ({sides[1]}), "
            f"move {row.ply + 1}."
        )
        if row.status == "active":
            head += f" {await self._who(row, position, position.to_move)} to move."
            actions = self._game_actions(row)
        else:
            head += " " + await self._result_text(row, position)
            actions = ()
        return await self._picture(position, Reply(head, actions=actions, game_id=gid))

    @_guard
    async def history(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """The numbered move list of a game."""
        me = await self.player(user)
        gid = await self._pick_game(me, chat, game_id)
        loaded = await self._load(gid)
        row = loaded.row
        moves = await self.store.moves(gid)
        names = await self._names(row)
        # The record's header (game, options, players, dates, result), then the moves with
        # who played them.
        header = records.export(self._record(row, names, [])).split("\n\n")[0]
        lines = [f"#{gid} {self._title(row)}: {names[0]} vs {names[1]}", header]
        lines += [f"{m.ply + 1}. {m.move} ({names[m.seat]})" for m in moves]
        if not moves:
            lines.append("No moves yet.")
        if row.status != "active":
            lines.append(await self._result_text(row, loaded.position))
        return Reply("\n".join(lines), game_id=gid)

    @_guard
    async def games(self, user: User) -> Reply:
        """Your games: active ones first (those where it is your turn on top), then recent ones."""
        me = await self.player(user)
        active = await self.store.games_of(me.id, ("active",))
        done = await self.store.games_of(me.id, ("finished", "aborted", "corrupt"), limit=10)
        active.sort(key=lambda g: (g.seats[g.to_move or 0] != me.id, -g.id))
        lines = []
        for g in active:
            seat = self._seat(me, g)
            other = await self._player_by_id(g.seats[1 - (seat or 0)])
            turn = (
                "your turn"
                if g.to_move is not None and g.seats[g.to_move] == me.id
                else (f"{other.name} to move")
            )
            lines.append(f"#{g.id} {self._title(g)} vs {other.name}: {turn} (move {g.ply + 1})")
        for g in done:
            seat = self._seat(me, g)
            other = await self._player_by_id(g.seats[1 - (seat or 0)])
            if g.status == "corrupt":
                outcome = "damaged, set aside"
            elif g.result == "draw":
                outcome = f"draw ({g.reason})"
            elif g.result == "none":
                outcome = f"aborted ({g.reason})"
            else:
                outcome = f"{'won' if g.winner == seat else 'lost'} ({g.reason})"
            lines.append(f"#{g.id} {self._title(g)} vs {other.name}: {outcome}")
        if not lines:
            return Reply("You have no games yet: challenge someone!")
        return Reply("\n".join(lines))

    @_guard
    async def rules(self, game: str) -> Reply:
        """The rules of ``game`` from ``docs/rules/<game>.md``."""
        name = game.strip().lower() if isinstance(game, str) else ""
        if name not in engines.GAMES:
            raise Refusal(
                f"There is no game {shown(str(game))!r}: choose one of {', '.join(engines.GAMES)}."
            )
        path = self.rules_dir / f"{name}.md"
        try:
            text = await asyncio.to_thread(path.read_text, encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            raise Refusal(f"The rules of {engines.GAMES[name].title} are not available.") from None
        return Reply(text.strip())

    async def help(self) -> Reply:
        """The list of commands."""
        return Reply(HELP)

    # -- correspondence: game over, clocks, vacation ---------------------------------------

    async def _game_over_reply(
        self, row: GameRow, position: Position, text: str, upto: int | None = None
    ) -> Reply:
        """The reply that ends a game: the final board, the animated recap and a rematch
        button."""
        reply = Reply(text, actions=(Action.make("Rematch", "rm", row.id),), game_id=row.id)
        reply = await self._picture(position, reply)
        if not self.pictures:
            return reply
        moves = [m.move for m in await self.store.moves(row.id)]
        try:
            options = json.loads(row.options)
        except ValueError:
            return reply  # a damaged game is reported by the board; the recap is a bonus
        count = row.ply if upto is None else upto
        gif = await recap_in_worker(row.game, options, moves[:count])
        return replace(reply, animation=gif)

    async def _expire(
        self, row: GameRow, now: datetime, at: datetime | None = None
    ) -> GameRow | None:
        """Call time on an active game whose deadline passed: the player to move loses, or the
        game is aborted with no result if its first move was never made.  ``at`` is the paced
        delivery time of the notifications.  ``None`` if the game changed meanwhile."""
        if row.to_move not in (0, 1):
            return None
        title = self._title(row)
        late = await self._player_by_id(row.seats[row.to_move])
        other = await self._player_by_id(row.seats[1 - row.to_move])
        if row.ply == 0:
            status, winner, result, reason = "aborted", None, "none", "no first move"
            texts = {
                late.id: f"#{row.id} {title} was aborted: you did not make the first move in time.",
                other.id: f"#{row.id} {title} was aborted: {late.name} did not make the first "
                "move in time.",
            }
        else:
            status, winner, result, reason = "finished", 1 - row.to_move, "win", "timeout"
            texts = {
                late.id: f"#{row.id} {title}: your time ran out. {other.name} wins on time.",
                other.id: f"#{row.id} {title}: {late.name}'s time ran out. You win on time.",
            }
        notes = [
            self._note(
                player,
                Kind.GAME_OVER.value,
                texts[player.id],
                now,
                game_id=row.id,
                chat_id=row.chat_id,
                dedupe=f"game_over:{row.id}:{player.id}",
                at=at,
            )
            for player in (late, other)
        ]
        updated = await self.store.finish_game(row, status, winner, result, reason, now, notes)
        if updated is not None:
            cached = self._positions.get(row.id)
            if cached is not None:
                self._positions[row.id] = (updated, cached[1])
        return updated

    async def _remind(self, row: GameRow, due: datetime, now: datetime, at: datetime) -> bool:
        """Send the one reminder of the current move (unless the player turned reminders off)
        and mark it sent; ``False`` if the game changed meanwhile."""
        if row.to_move not in (0, 1):
            return False
        player = await self._player_by_id(row.seats[row.to_move])
        notes = []
        if self.settings_of(player).reminders:
            left = due - now
            hours = max(1, round(left / timedelta(hours=1)))
            notes.append(
                self._note(
                    player,
                    Kind.REMINDER.value,
                    f"Reminder: your move in #{row.id} {self._title(row)} is due in about "
                    f"{hours} hour{'s' if hours != 1 else ''} ({due:%Y-%m-%d %H:%M} UTC).",
                    now,
                    game_id=row.id,
                    chat_id=row.chat_id,
                    dedupe=dedupe_key(Kind.REMINDER, row.id, row.ply),
                    at=at,
                )
            )
        updated = await self.store.update_game(row, now, notes, reminder_sent_for_ply=row.ply)
        if updated is not None:
            cached = self._positions.get(row.id)
            if cached is not None:
                self._positions[row.id] = (updated, cached[1])
        return updated is not None

    async def sweep(self) -> int:
        """Handle the clock work that is due: reminders, and losses (or aborts) on time.

        At start-up this finds everything that fell due while the bot was down; the
        notifications it causes are spread ``sweep_gap`` apart (oldest first, also across
        calls), never sent in a burst.  Deadlines still ahead are left for a later call: they
        live in the store, so nothing needs re-arming in memory.  Returns how many pieces of
        work were done.  Tests call this directly after moving the injected clock.
        """
        now = self.now()
        work: list[tuple[datetime, tuple[str, int]]] = []
        for row in await self.store.clock_games(now + clk.REMINDER_LEAD):
            due = from_ts(row.deadline_at)
            if due is None:
                continue
            if due <= now:
                work.append((due, ("timeout", row.id)))
            elif row.reminder_sent_for_ply != row.ply and row.time_per_move:
                when = clk.reminder_at(due, row.time_per_move)
                if when <= now:
                    work.append((when, ("reminder", row.id)))
        start = now if self._next_free is None else max(now, self._next_free)
        done = 0
        for slot, (kind, gid) in clk.pace(work, start, self.sweep_gap):
            async with self._lock(gid):
                try:
                    row = (await self._load(gid)).row
                except Refusal:
                    continue  # a damaged game was set aside by the load
                due = from_ts(row.deadline_at)
                if row.status != "active" or due is None:
                    continue
                if kind == "timeout" and due <= now:
                    handled = await self._expire(row, now, slot) is not None
                elif kind == "reminder" and due > now and row.reminder_sent_for_ply != row.ply:
                    handled = await self._remind(row, due, now, slot)
                else:
                    handled = False
            if handled:
                done += 1
                self._next_free = slot + self.sweep_gap
        return done

    async def run_clocks(self, stop: asyncio.Event, every: float = 30.0) -> None:
        """The sweeper: at start-up, then every ``every`` seconds until ``stop`` is set, run
        :meth:`sweep` and expire old challenges.  A failing round is logged, not fatal."""
        while not stop.is_set():
            try:
                await self.sweep()
                await self.expire_challenges()
            except Exception:  # one bad round must not stop the clocks of every game
                log.exception("clock sweep failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=every)

    @_guard
    async def settings(self, user: User, name: str | None = None, value: str = "") -> Reply:
        """Show your notification settings, or change one: ``dm on|off``, ``reminders
        on|off``, ``quiet 22:00-07:00 +01:00`` or ``quiet off``."""
        me = await self.player(user)
        current = self.settings_of(me)
        if name is None:
            return Reply(f"Your settings: {current.describe()}.")
        try:
            new = current.change(name, value)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        quiet = new.quiet
        await self.store.update_player(
            me.id,
            dm_enabled=int(new.direct),
            reminders_enabled=int(new.reminders),
            quiet_start=None if quiet is None else quiet.start.hour * 60 + quiet.start.minute,
            quiet_end=None if quiet is None else quiet.end.hour * 60 + quiet.end.minute,
            utc_offset_min=0 if quiet is None else quiet.offset // timedelta(minutes=1),
        )
        self.forget_player(me.id)
        return Reply(f"Your settings: {new.describe()}.")

    async def _away_change(
        self, me: PlayerRow, now: datetime, until: datetime | None, spans: list[clk.AwaySpan]
    ) -> tuple[int, int]:
        """Store a vacation change: deadlines of the games where ``me`` is to move lose what
        is left of a running vacation and gain the new one; opponents are told.  Returns
        (games paused or resumed, opponents told)."""
        running_end = max((s.end for s in spans if s.start <= now < s.end), default=now)
        games = await self.store.games_of(me.id, ("active",), limit=1000)
        deadlines: list[tuple[GameRow, datetime]] = []
        notes: list[Note] = []
        for g in games:
            seat = self._seat(me, g)
            if seat is None:
                continue
            opponent = await self._player_by_id(g.seats[1 - seat])
            if until is not None:
                text = (
                    f"{me.name} is away until {until:%Y-%m-%d %H:%M} UTC: their clock in "
                    f"#{g.id} {self._title(g)} is paused."
                )
            else:
                text = f"{me.name} is back: their clock in #{g.id} {self._title(g)} runs again."
            notes.append(
                self._note(
                    opponent, Kind.OPPONENT_AWAY.value, text, now, game_id=g.id, chat_id=g.chat_id
                )
            )
            due = from_ts(g.deadline_at)
            if g.to_move == seat and due is not None:
                base = due - (running_end - now)  # take back the running vacation's pause
                pushed = base if until is None else base + (until - now)
                deadlines.append((g, pushed))
        if not await self.store.set_away(me.id, now, until, deadlines, notes):
            raise Refusal("One of your games changed meanwhile: try again.")
        self.forget_player(me.id)
        for g, _ in deadlines:
            self._positions.pop(g.id, None)
        return len(deadlines), len(notes)

    @_guard
    async def away(self, user: User, days: int | str) -> Reply:
        """Go on vacation for ``days`` days: your clocks stop (deadlines move by the time
        away), at most 14 days per calendar year; your opponents are told."""
        me = await self.player(user)
        try:
            count = int(str(days).strip())
        except ValueError:
            raise Refusal("away takes a number of days, e.g. away 5.") from None
        now = self.now()
        spans = [clk.AwaySpan(a, b) for a, b in await self.store.away_spans(me.id)]
        try:
            span = clk.check_away(spans, now, count)
        except ValueError as exc:
            message = str(exc)
            raise Refusal(message[:1].upper() + message[1:] + ".") from None
        paused, _ = await self._away_change(me, now, span.end, spans)
        kept = [clk.AwaySpan(s.start, min(s.end, now)) for s in spans if s.start <= now]
        left = clk.away_left([*kept, span], now.year) / timedelta(days=1)
        return Reply(
            f"{me.name} is away until {span.end:%Y-%m-%d %H:%M} UTC; clocks are paused "
            f"({paused} game{'s' if paused != 1 else ''} waiting on you). "
            f"{left:g} days of vacation left this year."
        )

    @_guard
    async def back(self, user: User) -> Reply:
        """End your vacation early: your clocks run again (the unused days are not counted)."""
        me = await self.player(user)
        now = self.now()
        spans = [clk.AwaySpan(a, b) for a, b in await self.store.away_spans(me.id)]
        if not any(s.start <= now < s.end for s in spans):
            raise Refusal("You are not away.")
        await self._away_change(me, now, None, spans)
        return Reply(f"Welcome back, {me.name}: your clocks run again.")

    # -- correspondence: draws, takebacks, rematches -----------------------------------------

    async def _own_game(self, user: User, chat: Chat, game_id: int | None) -> tuple[PlayerRow, int]:
        me = await self.player(user)
        return me, await self._pick_game(me, chat, game_id)

    async def _seat_in_active(
        self, me: PlayerRow, loaded: _Loaded, what: str
    ) -> tuple[GameRow, Position, int]:
        row, position = loaded.row, loaded.position
        seat = self._seat(me, row)
        if seat is None:
            raise Refusal(f"You are not playing in #{row.id}: only its players can {what}.")
        if row.status != "active":
            raise Refusal(f"#{row.id} is over: {await self._result_text(row, position)}")
        return row, position, seat

    def _store_row(self, updated: GameRow | None, position: Position) -> GameRow:
        if updated is None:
            raise Refusal("The game changed meanwhile: look at it and try again.")
        self._positions[updated.id] = (updated, position)
        return updated

    async def _open_request(
        self,
        row: GameRow,
        position: Position,
        seat: int,
        opponent: PlayerRow,
        column: str,
        kind: Kind,
        note_text: str,
        reply_text: str,
        answers: tuple[Action, Action],
        now: datetime,
    ) -> Reply:
        """Record that ``seat`` asks the opponent for something (a draw, a takeback): the
        request column is set and the opponent notified in one transaction, and the reply
        carries the buttons that answer it."""
        note = self._note(opponent, kind.value, note_text, now, game_id=row.id, chat_id=row.chat_id)
        self._store_row(await self.store.update_game(row, now, [note], **{column: seat}), position)
        return Reply(reply_text, actions=answers, game_id=row.id)

    async def _close_request(
        self, row: GameRow, position: Position, column: str, reply_text: str, now: datetime
    ) -> Reply:
        """Clear a declined request (``column``) and say so."""
        updated = await self.store.update_game(row, now, (), **{column: None})
        self._store_row(updated, position)
        return Reply(reply_text, game_id=row.id)

    @_guard
    async def draw(
        self, user: User, chat: Chat, game_id: int | None = None, answer: str = "offer"
    ) -> Reply:
        """Offer a draw (``answer="offer"``), or ``accept`` / ``decline`` the opponent's offer.
        Offering when the opponent has already offered agrees to the draw.  An offer lapses
        when the offerer's opponent moves."""
        if answer not in ("offer", "accept", "decline"):
            raise Refusal("draw takes accept or decline, or nothing to offer one.")
        me, gid = await self._own_game(user, chat, game_id)
        async with self._lock(gid):
            loaded = await self._load(gid)
            row, position, seat = await self._seat_in_active(me, loaded, "agree to a draw")
            now = self.now()
            opponent = await self._player_by_id(row.seats[1 - seat])
            offer = row.draw_offer_by
            if answer == "offer" and offer != 1 - seat:
                if offer == seat:
                    raise Refusal(f"You already offered a draw in #{gid}.")
                return await self._open_request(
                    row,
                    position,
                    seat,
                    opponent,
                    "draw_offer_by",
                    Kind.DRAW_OFFERED,
                    f"{me.name} offers a draw in #{gid} {self._title(row)}.",
                    f"{me.name} offers a draw in #{gid}; it stands until {opponent.name} moves.",
                    (
                        Action.make("Accept draw", "dra", gid),
                        Action.make("Decline draw", "drd", gid),
                    ),
                    now,
                )
            if offer is None:
                raise Refusal(f"There is no draw offer in #{gid}.")
            if offer == seat:
                raise Refusal(f"You offered the draw in #{gid}: {opponent.name} may accept it.")
            if answer == "decline":
                return await self._close_request(
                    row, position, "draw_offer_by", f"{me.name} declined the draw in #{gid}.", now
                )
            note = self._note(
                opponent,
                Kind.GAME_OVER.value,
                f"{me.name} accepted your draw offer: #{gid} {self._title(row)} is drawn.",
                now,
                game_id=gid,
                chat_id=row.chat_id,
                dedupe=f"game_over:{gid}:{opponent.id}",
            )
            updated = self._store_row(
                await self.store.finish_game(
                    row, "finished", None, "draw", "agreement", now, [note]
                ),
                position,
            )
            return await self._game_over_reply(
                updated, position, f"{me.name} accepted the draw: #{gid} is drawn (agreement)."
            )

    @_guard
    async def takeback(
        self, user: User, chat: Chat, game_id: int | None = None, answer: str = "ask"
    ) -> Reply:
        """Ask to take back your own last move (``answer="ask"``) while your opponent has not
        moved, or ``accept`` / ``decline`` the opponent's request."""
        if answer not in ("ask", "accept", "decline"):
            raise Refusal("takeback takes accept or decline, or nothing to ask for one.")
        me, gid = await self._own_game(user, chat, game_id)
        async with self._lock(gid):
            loaded = await self._load(gid)
            row, position, seat = await self._seat_in_active(me, loaded, "take moves back")
            now = self.now()
            opponent = await self._player_by_id(row.seats[1 - seat])
            asked = row.takeback_by
            if answer == "ask":
                last = await self.store.move_at(gid, row.ply - 1) if row.ply > 0 else None
                if last is None or last.seat != seat:
                    raise Refusal(
                        f"You can only take back your own last move in #{gid}, before "
                        f"{opponent.name} moves."
                    )
                if asked == seat:
                    raise Refusal(f"You already asked to take back {last.move} in #{gid}.")
                return await self._open_request(
                    row,
                    position,
                    seat,
                    opponent,
                    "takeback_by",
                    Kind.TAKEBACK_REQUESTED,
                    f"{me.name} asks to take back {last.move} in #{gid} {self._title(row)}.",
                    f"{me.name} asks to take back {last.move} in #{gid}.",
                    (
                        Action.make("Allow takeback", "tba", gid),
                        Action.make("Refuse takeback", "tbd", gid),
                    ),
                    now,
                )
            if asked is None:
                raise Refusal(f"There is no takeback request in #{gid}.")
            if asked == seat:
                raise Refusal(f"You asked for the takeback in #{gid}: {opponent.name} decides.")
            if answer == "decline":
                return await self._close_request(
                    row, position, "takeback_by", f"{me.name} refused the takeback in #{gid}.", now
                )
            undone = await self.store.move_at(gid, row.ply - 1)
            before = await self._replay(row, upto=row.ply - 1)
            next_player = await self._player_by_id(row.seats[before.to_move])
            updated = self._store_row(
                await self.store.take_back(
                    row,
                    _dumps(before.to_dict()),
                    before.to_move,
                    now,
                    self.turn_deadline(next_player, row.time_per_move, now),
                ),
                before,
            )
            move = undone.move if undone is not None else "the last move"
            who = await self._who(updated, before, before.to_move)
            return await self._picture(
                before,
                Reply(
                    f"{me.name} allowed the takeback in #{gid}: {move} is taken back. "
                    f"{who} to move.",
                    actions=self._game_actions(updated),
                    game_id=gid,
                ),
            )

    @_guard
    async def rematch(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """Ask for a rematch of a finished game: same game and options, seats swapped (a
        challenge linked to the old game).  If the opponent already asked, this accepts."""
        me = await self.player(user)
        if game_id is None:
            recent = [
                g
                for g in await self.store.games_of(me.id, ("finished", "aborted"), limit=20)
                if g.platform == chat.platform and g.chat_id == chat.chat_id
            ]
            if not recent:
                raise Refusal("You have no finished game here: give a game id, e.g. #42.")
            game_id = recent[0].id
        row = await self.store.get_game(game_id)
        if row is None:
            raise Refusal(f"There is no game #{game_id}.")
        seat = self._seat(me, row)
        if seat is None:
            raise Refusal(f"You are not playing in #{game_id}: only its players can rematch.")
        if row.status == "active":
            raise Refusal(f"#{game_id} is still going: a rematch comes after the game.")
        if row.status == "corrupt":
            raise Refusal(f"Game #{game_id} is damaged in storage and has been set aside.")
        now = self.now()
        for earlier in await self.store.rematches_of(row.id):
            if earlier.status == "accepted":
                raise Refusal(f"The rematch of #{game_id} is already game #{earlier.game_id}.")
            expires = from_ts(earlier.expires_at)
            if earlier.status == "pending" and expires is not None and expires > now:
                if earlier.challenger == me.id:
                    raise Refusal(
                        f"You already asked for a rematch of #{game_id}: challenge #{earlier.id}."
                    )
                return await self.accept(user, chat, earlier.id)
        opponent = await self._player_by_id(row.seats[1 - seat])
        title = self._title(row)
        # Seats swapped: whoever sat second last time sits first now.
        first = "me" if seat == 1 else "them"
        note = self._note(
            opponent,
            Kind.CHALLENGE.value,
            f"{me.name} asks for a rematch of #{row.id} {title}: challenge #{{challenge}}.",
            now,
            chat_id=row.chat_id,
        )
        created = await self.store.create_challenge(
            challenger=me.id,
            target=opponent.id,
            platform=row.platform,
            chat_id=row.chat_id,
            game=row.game,
            options=row.options,
            first=first,
            time_per_move=row.time_per_move,
            now=now,
            expires_at=now + self.challenge_ttl,
            limit=self.max_pending,
            notes=[note],
            rematch_of=row.id,
        )
        if created is None:
            raise Refusal(
                f"You already have {self.max_pending} pending challenges: cancel one first."
            )
        return Reply(
            f"{me.name} asks {opponent.name} for a rematch of #{row.id} {title} (seats "
            f"swapped): challenge #{created.id}.",
            actions=(
                Action.make("Accept", "acc", created.id),
                Action.make("Decline", "dec", created.id),
            ),
        )

    # -- records ----------------------------------------------------------------------------

    def _record(self, row: GameRow, names: tuple[str, str], moves: list[MoveRow]) -> records.Record:
        """The plain-text record of a stored game."""
        result = None
        if row.status == "aborted":
            result = records.Result(None, row.reason or "aborted", aborted=True)
        elif row.status == "finished":
            winner = row.winner if row.result == "win" else None
            result = records.Result(winner, row.reason or "")
        days = row.time_per_move
        time_per_move = int(days) if days is not None and days in clk.TIME_CONTROLS else None
        return records.Record(
            row.game,
            json.loads(row.options),
            names,
            tuple(m.move for m in moves),
            result,
            from_ts(row.created_at),
            from_ts(row.finished_at),
            time_per_move,
            f"#{row.id}",
        )

    @_guard
    async def export(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """The plain-text record of a game (``hexhall import`` reads it back)."""
        me = await self.player(user)
        gid = await self._pick_game(me, chat, game_id)
        loaded = await self._load(gid)
        moves = await self.store.moves(gid)
        record = self._record(loaded.row, await self._names(loaded.row), moves)
        return Reply(records.export(record), game_id=gid)

    @_guard
    async def import_record(self, user: User, chat: Chat, text: str, opponent: User) -> Reply:
        """Store the game of a plain-text record between ``user`` and ``opponent`` in
        ``chat``: finished as recorded, or active and ready to continue.  ``user`` takes the
        seat whose player has their name (the first seat otherwise)."""
        try:
            record = records.parse(text)
        except ValueError as exc:
            raise Refusal(f"Cannot import that record: {exc}") from None
        if (opponent.platform, opponent.user_id) == (user.platform, user.user_id):
            raise Refusal("The two players of an imported game must differ.")
        me = await self.player(user)
        other = await self.player(opponent)
        names = [n.lower() for n in record.players]
        mine = 1 if names[1] == user.name.lower() and names[0] != user.name.lower() else 0
        seats = (me, other) if mine == 0 else (other, me)
        positions = list(engines.replay(record.game, record.moves, **record.options))
        movers = [p.to_move for p in positions[:-1]]
        position = positions[-1]
        finish: tuple[str, int | None, str, str] | None = None
        if record.result is not None:
            if record.result.aborted:
                finish = ("aborted", None, "none", record.result.reason)
            else:
                winner = record.result.winner
                finish = ("finished", winner, "draw" if winner is None else "win",
                          record.result.reason)  # fmt: skip
        elif position.outcome is not None:
            winner = position.outcome.winner
            finish = ("finished", winner, "draw" if winner is None else "win",
                      position.outcome.reason)  # fmt: skip
        now = self.now()
        next_player = seats[position.to_move]
        row = await self.store.import_game(
            NewGame(
                game=record.game,
                options=_dumps(dict(record.options)),
                seat0=seats[0].id,
                seat1=seats[1].id,
                platform=chat.platform,
                chat_id=chat.chat_id,
                to_move=position.to_move,
                snapshot=_dumps(position.to_dict()),
                time_per_move=record.time_per_move,
                deadline_at=self.turn_deadline(next_player, record.time_per_move, now),
            ),
            record.moves,
            movers,
            now,
            finish,
        )
        self._positions[row.id] = (row, position)
        title = self._title(row)
        text = (
            f"Imported {title} as game #{row.id}: {seats[0].name} vs {seats[1].name}, "
            f"{len(record.moves)} moves. "
        )
        if row.status == "active":
            text += f"{await self._who(row, position, position.to_move)} to move."
            return await self._picture(
                position, Reply(text, actions=self._game_actions(row), game_id=row.id)
            )
        return await self._picture(
            position, Reply(text + await self._result_text(row, position), game_id=row.id)
        )

    # -- buttons ------------------------------------------------------------------------------

    @_guard
    async def press(self, user: User, chat: Chat, action_id: str) -> Reply:
        """Resolve a button press by its action id (works after a restart: ids hold it all)."""
        parsed = parse_action(action_id)
        if parsed is None:
            raise Refusal("That button is not one of mine (or is too old).")
        kind, fields = parsed
        try:
            number = int(fields[0])
        except ValueError:
            raise Refusal("That button is not one of mine (or is too old).") from None
        if kind == "acc":
            return await self.accept(user, chat, number)
        if kind == "dec":
            return await self.decline(user, chat, number)
        if kind == "can":
            return await self.cancel(user, chat, number)
        if kind == "bd":
            return await self.board(user, chat, number)
        if kind == "hi":
            return await self.history(user, chat, number)
        if kind == "rs":
            return Reply(
                f"Really resign #{number}?",
                actions=(Action.make("Yes, resign", "rsy", number),),
                game_id=number,
            )
        if kind == "rsy":
            return await self.resign(user, chat, number)
        if kind == "dra":
            return await self.draw(user, chat, number, "accept")
        if kind == "drd":
            return await self.draw(user, chat, number, "decline")
        if kind == "tba":
            return await self.takeback(user, chat, number, "accept")
        if kind == "tbd":
            return await self.takeback(user, chat, number, "decline")
        if kind == "rm":
            return await self.rematch(user, chat, number)
        if kind == "mv":
            if not fields[1].isdigit():
                raise Refusal("That button is not one of mine (or is too old).")
            return await self.move(user, chat, fields[2], number, int(fields[1]))
        if kind == "mvy":
            if not fields[1].isdigit():
                raise Refusal("That button is not one of mine (or is too old).")
            return await self.move(user, chat, fields[2], number, int(fields[1]), confirm=True)
        raise Refusal("That button is not one of mine (or is too old).")
