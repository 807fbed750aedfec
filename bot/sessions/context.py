"""What the session modules share: the store, the clock, the settings of this manager, the
per-game locks and the caches (state only).

One :class:`Context` belongs to one :class:`~bot.sessions.manager.SessionManager`; every
module of :mod:`bot.sessions` takes it as its first argument.  What is done with it lives in
modules of its own: loading games and players and caching them
(:mod:`~bot.sessions.loading`), presenting them (:mod:`~bot.sessions.presentation`), and whom
to tell what when (:mod:`~bot.sessions.policy`).  :class:`Refusal` is how any of them answers
with a one-line refusal (the manager's :func:`guard` turns it into a reply).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, ParamSpec, Protocol, TypeVar

from bot.limits import MAX_ID
from bot.messages import (
    Need,
    Reply,
    Text,
    User,
)
from bot.sessions import clock as clk
from bot.sessions import texts, validate
from bot.sessions.clock import Clock, SystemClock
from bot.sessions.thinker import Thinker
from bot.storage import BadRow, GameRow, PlayerRow, SqlStore, StoreBusy
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
    "Refusal",
    "WebPages",
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
        #: the web board's links (:mod:`bot.webboard`), ``None`` while it is off
        self.pages: WebPages | None = None

    def now(self) -> datetime:
        """The manager's current time (from the injected clock)."""
        return self.clock.now()

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self.locks.get(game_id)
        if lock is None:
            lock = self.locks[game_id] = asyncio.Lock()
        return lock
