"""The platform-neutral session manager: the composition root of the session layer.

Adapters (console, Discord, Telegram) and the web board call the services the manager owns,
each a plain class with typed methods (:mod:`bot.sessions.services`):
``manager.games`` (moves, boards, lists, requests in a game), ``manager.challenges``,
``manager.tournaments``, ``manager.players`` (settings, languages, ratings), ``manager.posts``
(the bot's messages on the platforms) and ``manager.web`` (the web board's pages).  Every
refusal is a one-line ``Reply`` with ``ok=False``; bad input never raises.  Everything that
matters is in the store: the services only cache positions they can rebuild.

The manager itself holds what the app wires: the clock, the bell, the web board's links, the
clock sweep and the bot's moves in the works, and the delivery over the store
(:meth:`SessionManager.outbox`, :meth:`SessionManager.recaps`), so no surface reaches the
store.
"""

from __future__ import annotations

import asyncio
import random
from datetime import datetime, timedelta
from importlib.resources.abc import Traversable

from bot.delivery.bell import Bell
from bot.delivery.outbox import Outbox
from bot.delivery.recap import Recaps
from bot.sessions import clocks, opponent
from bot.sessions import digest as digests
from bot.sessions.clock import Clock
from bot.sessions.context import (
    CHALLENGE_TTL,
    DEFAULT_TIME_PER_MOVE,
    FIRST_CHOICES,
    MAX_PENDING,
    RULES_DIR,
    TIME_CHOICES,
    Context,
    WebPages,
)
from bot.sessions.services import Challenges, Games, Players, Posts, Tournaments, Web
from bot.sessions.thinker import Thinker
from bot.storage import SqlStore

__all__ = [
    "DEFAULT_TIME_PER_MOVE",
    "FIRST_CHOICES",
    "MAX_PENDING",
    "RULES_DIR",
    "TIME_CHOICES",
    "SessionManager",
]


class SessionManager:
    """Everything a chat adapter needs, as services: challenges, games, tournaments, players,
    posts, the web board.

    ``pictures=False`` leaves boards out of replies (benchmarks, tests that do not need them).
    """

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
        self._ctx = Context(
            store,
            clock,
            pictures=pictures,
            rng=rng,
            rules_dir=rules_dir,
            challenge_ttl=challenge_ttl,
            max_pending=max_pending,
            thinker=thinker,
        )
        self.games = Games(self._ctx)
        self.challenges = Challenges(self._ctx)
        self.tournaments = Tournaments(self._ctx)
        self.players = Players(self._ctx)
        self.posts = Posts(self._ctx)
        self.web = Web(self._ctx)

    @property
    def store(self) -> SqlStore:
        """The store every session change goes through (for the app and tests: no surface
        reaches it, ``tests/test_layers.py``)."""
        return self._ctx.store

    @property
    def clock(self) -> Clock:
        """The injected clock."""
        return self._ctx.clock

    def now(self) -> datetime:
        """The manager's current time (from the injected clock)."""
        return self._ctx.now()

    @property
    def sweep_gap(self) -> timedelta:
        """The gap between two pieces of clock work (reminders, timeouts) handled by
        :meth:`sweep`."""
        return self._ctx.sweep_gap

    @sweep_gap.setter
    def sweep_gap(self, gap: timedelta) -> None:
        self._ctx.sweep_gap = gap

    @property
    def bell(self) -> Bell:
        """Rung when notifications became due that no adapter's answer posts (a move made on
        the web board): given to this process's outboxes (:meth:`outbox`) so they deliver them
        at once."""
        return self._ctx.bell

    @property
    def web_pages(self) -> WebPages | None:
        """The web board's links (``None``: off); boards then carry their page."""
        return self._ctx.pages

    @web_pages.setter
    def web_pages(self, pages: WebPages | None) -> None:
        self._ctx.pages = pages

    # -- delivery, for the surfaces' services -----------------------------------------------

    def outbox(self) -> Outbox:
        """An outbox over the store for one process's surface, woken by :attr:`bell`."""
        return Outbox(self._ctx.store, self._ctx.clock, bell=self._ctx.bell)

    def recaps(self) -> Recaps:
        """The finished games' recaps, read from the store for a surface's sender."""
        return Recaps(self._ctx.store)

    # -- the clock work and the bot's moves -------------------------------------------------

    async def sweep(self) -> int:
        """Handle the clock work that is due: reminders, and losses (or aborts) on time.

        At start-up this finds everything that fell due while the bot was down; the
        notifications it causes are spread ``sweep_gap`` apart (oldest first, also across
        calls), never sent in a burst.  Deadlines still ahead are left for a later call: they
        live in the store, so nothing needs re-arming in memory.  Returns how many pieces of
        work were done.  Tests call this directly after moving the injected clock.

        It also starts the bot's move in every game where the bot is to move (the process may
        have died while it thought); those moves are made in the background (see
        :meth:`bot_idle`) and each counts as one piece of work.
        """
        done = await clocks.sweep(self._ctx) + await digests.sweep(self._ctx)
        return done + await opponent.resume(self._ctx)

    async def run_clocks(self, stop: asyncio.Event, every: float = 30.0) -> None:
        """The sweeper: at start-up, then every ``every`` seconds until ``stop`` is set, run
        :meth:`sweep` and expire old challenges.  A failing round is logged, not fatal."""
        await asyncio.gather(
            clocks.run_clocks(self._ctx, stop, every), opponent.run(self._ctx, stop, every)
        )

    async def bot_idle(self) -> None:
        """Wait until the bot has no move in the works in this process (tests, tools)."""
        await opponent.idle(self._ctx)

    async def close(self) -> None:
        """Stop the bot's moves in the works (the next start's sweep makes them) and its
        worker processes.  Call before closing the store."""
        await opponent.close(self._ctx)
