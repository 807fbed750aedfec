"""What the session modules share: the store, the clock, the settings of this manager, the
per-game locks and the caches (state only).

One :class:`Context` belongs to one :class:`~bot.sessions.manager.SessionManager`; every
module of :mod:`bot.sessions` takes it as its first argument.  What is done with it lives in
modules of its own: loading games and players and caching them
(:mod:`~bot.sessions.loading`), presenting them (:mod:`~bot.sessions.presentation`), and whom
to tell what when (:mod:`~bot.sessions.policy`).  :class:`~bot.refusal.Refusal` (re-exported
here) is how any of them answers with a one-line refusal (each service's
:func:`~bot.sessions.services.base.answer` turns it into a reply).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Awaitable, Callable
from contextvars import ContextVar, Token
from datetime import datetime, timedelta
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Protocol

from bot.core.lru import Lru
from bot.delivery.bell import Bell
from bot.limits import MAX_ID
from bot.messages import Text, User
from bot.refusal import Refusal
from bot.sessions import clock as clk
from bot.sessions import texts
from bot.sessions.clock import Clock, SystemClock
from bot.sessions.thinker import Thinker
from bot.storage import (
    BadRow,
    GameRow,
    PlayerRow,
    SqlStore,
    StoreError,
)
from bot.workers import worker_name
from engines import Position
from engines.base import shown

__all__ = [
    "CACHED_GAMES",
    "CACHED_PLAYERS",
    "CHALLENGE_TTL",
    "DEFAULT_TIME_PER_MOVE",
    "FIRST_CHOICES",
    "MAX_BOT_GAMES",
    "MAX_PENDING",
    "RULES_DIR",
    "TIME_CHOICES",
    "Context",
    "Damaged",
    "GameLock",
    "Refusal",
    "Undo",
    "WebPages",
    "checked_id",
    "dumps",
    "on_refusal",
    "undo",
    "undo_later",
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
#: At most this many unfinished games of one player against the bot.
MAX_BOT_GAMES = 5
CHALLENGE_TTL = timedelta(hours=24)
#: How many games this process keeps in memory (rows, positions and locks; least recently
#: used first out): a game not in memory is read again from its stored snapshot.
CACHED_GAMES = 2000
#: How many players this process keeps in memory (by id and by platform user).
CACHED_PLAYERS = 5000
#: How many games set aside by the clock sweep are remembered (not logged again).
SET_ASIDE_REMEMBERED = 1024


class Damaged(Refusal):
    """A refusal because a stored row that ``game_id`` needs cannot be read (``row`` names
    it): the game answers its players with ``text``, every other game goes on."""

    def __init__(self, text: Text, game_id: int, row: BadRow) -> None:
        super().__init__(text)
        self.game_id = game_id
        self.row = row


#: A step that undoes a change made by a request that was then refused.
Undo = Callable[[], Awaitable[None]]

#: What the request being answered changed before it may still be refused (the acting player
#: created or renamed on first contact): undone by :func:`undo` when it is refused.
UNDO: ContextVar[list[Undo] | None] = ContextVar("hexhall_undo", default=None)


def on_refusal(step: Undo) -> None:
    """Have ``step`` run should the request being answered end in a refusal."""
    pending = UNDO.get()
    if pending is not None:
        pending.append(step)


def undo_later() -> tuple[list[Undo], Token[list[Undo] | None]]:
    """Start collecting what :func:`on_refusal` is told of (for the request being answered):
    the list it fills, and the token that stops collecting (``UNDO.reset(token)``)."""
    pending: list[Undo] = []
    return pending, UNDO.set(pending)


async def undo(pending: list[Undo]) -> None:
    """Run what :func:`on_refusal` was told of, the last first (a refused request leaves
    nothing behind)."""
    for step in reversed(pending):
        try:
            await step()
        except StoreError as exc:  # kept as it is: the refusal is answered all the same
            log.warning("could not undo before a refusal: %s", exc)


def checked_id(value: object, what: str) -> int:
    """``value`` as a game or challenge id; :class:`Refusal` if it is not a sane one."""
    # Ids come from adapters and typed text: anything but a sane int would reach SQL.
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        raise Refusal(texts.no_such(what, shown(str(value))))
    return value


def dumps(value: Any) -> str:
    """Compact, stable JSON (options and snapshots as stored)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class GameLock:
    """A game's :class:`asyncio.Lock` that counts who holds or awaits it, so the bounded map
    of locks drops it only when it is free (two locks for one game would let two requests
    change it at once)."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._users = 0

    def locked(self) -> bool:
        """Whether a request holds the lock now."""
        return self._lock.locked()

    def busy(self) -> bool:
        """Whether a request holds the lock or waits for it."""
        return self._users > 0

    async def __aenter__(self) -> None:
        self._users += 1
        try:
            await self._lock.acquire()
        except BaseException:
            self._users -= 1
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._lock.release()
        self._users -= 1


class WebPages(Protocol):
    """The web board's links, as the sessions ask for them (:class:`bot.webboard.WebBoard`)."""

    async def link(self, game_id: int) -> str:
        """The address of game ``game_id``'s page (anyone may watch there)."""
        ...

    async def personal_link(self, game_id: int, who: User) -> str:
        """``who``'s own short-lived link to game ``game_id``'s page (they may move there)."""
        ...

    def changed(self, game_id: int) -> None:
        """Game ``game_id`` changed in this process: its open pages are told at once (changes
        made elsewhere reach them by polling)."""
        ...


class Context:
    """The state the session modules share (see the module docstring)."""

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
        max_bot_games: int = MAX_BOT_GAMES,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.pictures = pictures
        self.rng = rng or random.Random()
        self.rules_dir = rules_dir
        self.challenge_ttl = challenge_ttl
        self.max_pending = max_pending
        #: at most this many unfinished games of one player against the bot
        self.max_bot_games = max_bot_games
        # player id -> the lock that lets one of their requests at a time start a bot game
        self.player_locks: Lru[int, GameLock] = Lru(CACHED_PLAYERS, keep=GameLock.busy)
        # Every cache is bounded (least recently used goes first); a lock goes only when free.
        self.locks: Lru[int, GameLock] = Lru(CACHED_GAMES, keep=GameLock.busy)
        # game id -> (row, position) as last read or written: only what the store can rebuild.
        self.positions: Lru[int, tuple[GameRow, Position]] = Lru(CACHED_GAMES)
        self.players: Lru[int, PlayerRow] = Lru(CACHED_PLAYERS)
        self.by_user: Lru[tuple[str, str], PlayerRow] = Lru(CACHED_PLAYERS)
        #: gap between two pieces of clock work (reminders, timeouts) handled by a sweep
        self.sweep_gap = clk.SWEEP_GAP
        # The earliest time the next piece of clock work may be delivered: pacing across sweeps.
        self.next_free: datetime | None = None
        #: where the bot's moves are searched (see bot.sessions.opponent)
        self.thinker = thinker or Thinker()
        # game id -> the task making the bot's move there: at most one per game.
        self.bot_tasks: dict[int, asyncio.Task[None]] = {}
        #: games the clock sweep set aside (id -> why), so each is logged once, not each round
        self.set_aside: Lru[int, str] = Lru(SET_ASIDE_REMEMBERED)
        #: this manager among the bot processes on one database (host, process, a random
        #: part): the owner of the leases on shared chores such as the clock sweep.
        self.worker = worker_name()
        #: the web board's links (:mod:`bot.webboard`), ``None`` while it is off
        self.pages: WebPages | None = None
        #: rung when a change made notifications due that no adapter's answer posts (a move
        #: made on the web board): wakes this process's outboxes (see bot.delivery.bell)
        self.bell = Bell()

    def now(self) -> datetime:
        """The manager's current time (from the injected clock)."""
        return self.clock.now()

    def player_lock(self, player_id: int) -> GameLock:
        """The lock of player ``player_id``'s requests that must not run at once."""
        lock = self.player_locks.get(player_id)
        if lock is None:
            lock = self.player_locks[player_id] = GameLock()
        return lock

    def lock(self, game_id: int) -> GameLock:
        """The lock of game ``game_id``: one request at a time changes a game here."""
        lock = self.locks.get(game_id)
        if lock is None:
            lock = self.locks[game_id] = GameLock()
        return lock
