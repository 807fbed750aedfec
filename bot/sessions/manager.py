"""The platform-neutral session manager: challenges, games, moves, and their notifications.

Adapters (console, Discord, Telegram) call the async methods of :class:`SessionManager` with a
:class:`~bot.messages.User` and a :class:`~bot.messages.Chat` and show the :class:`Reply` they get.
Every refusal is a one-line ``Reply`` with ``ok=False``; bad input never raises.  Everything
that matters is in the store: the manager only caches positions it can rebuild.

The manager is a facade: each method hands over to the module of its concern
(:mod:`~bot.sessions.challenges`, :mod:`~bot.sessions.moves`, :mod:`~bot.sessions.clocks`,
:mod:`~bot.sessions.requests`, :mod:`~bot.sessions.rematch`, :mod:`~bot.sessions.history`,
:mod:`~bot.sessions.views`, :mod:`~bot.sessions.players`, :mod:`~bot.sessions.buttons`), all
sharing one :class:`~bot.sessions.context.Context`.
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from importlib.resources.abc import Traversable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from bot.core.status import ChallengeStatus
from bot.delivery.bell import Bell
from bot.delivery.outbox import answering
from bot.messages import Chat, Reply, Text, User
from bot.sessions import (
    browse as browsing,
)
from bot.sessions import (
    buttons,
    challenges,
    clocks,
    languages,
    leases,
    loading,
    moves,
    opponent,
    pageactions,
    picker,
    players,
    posts,
    removal,
    requests,
    reviews,
    standings,
    tournaments,
    views,
)
from bot.sessions import (
    digest as digests,
)
from bot.sessions import (
    history as histories,
)
from bot.sessions import (
    premoves as conditional,
)
from bot.sessions import (
    preview as previews,
)
from bot.sessions import questions as asking
from bot.sessions import (
    rematch as rematches,
)
from bot.sessions import (
    webview as webviews,
)
from bot.sessions.clock import Clock
from bot.sessions.context import (
    CHALLENGE_TTL,
    DEFAULT_TIME_PER_MOVE,
    FIRST_CHOICES,
    MAX_PENDING,
    RULES_DIR,
    TIME_CHOICES,
    Context,
    Refusal,
    WebPages,
    checked,
    guard,
)
from bot.sessions.launches import Launches
from bot.sessions.preview import BoardFacts, GameChoice
from bot.sessions.thinker import Thinker
from bot.sessions.validate import BadArgument
from bot.storage import PlayerRow, Post, SqlStore

__all__ = [
    "DEFAULT_TIME_PER_MOVE",
    "FIRST_CHOICES",
    "MAX_PENDING",
    "RULES_DIR",
    "TIME_CHOICES",
    "SessionManager",
]


# What the public methods that answer with something other than a reply give for an argument
# of the wrong kind (see :func:`~bot.sessions.context.checked`): nothing, or a refusal.
def _no_player(_: BadArgument) -> PlayerRow | None:
    return None


def _not_against_bot(_: BadArgument) -> bool:
    return False


def _not_seated(_: BadArgument) -> bool:
    return False


def _no_ratings(_: BadArgument) -> Text:
    return Text()


def _no_facts(_: BadArgument) -> BoardFacts | None:
    return None


def _no_moves(_: BadArgument) -> list[str]:
    return []


def _no_choices(_: BadArgument) -> list[GameChoice]:
    return []


def _no_view(_: BadArgument) -> webviews.GameView | None:
    return None


def _refused_step(bad: BadArgument) -> picker.Picker | Reply:
    return Reply.refuse(bad.text)


P = ParamSpec("P")
R = TypeVar("R")


class forward(Generic[P, R]):
    """A method of the manager that is a function of a session module, called with the
    manager's :class:`~bot.sessions.context.Context` first: its signature and docstring are
    the function's own (nothing copied), typed as the function without its first argument.

    Wrap the function in :func:`~bot.sessions.context.guard` (replies) or
    :func:`~bot.sessions.context.checked` first where the manager checks its arguments."""

    def __init__(self, function: Callable[Concatenate[Context, P], Awaitable[R]]) -> None:
        self.function = function
        self.__doc__ = function.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, manager: None, owner: type) -> forward[P, R]: ...

    @overload
    def __get__(self, manager: SessionManager, owner: type) -> Callable[P, Awaitable[R]]: ...

    def __get__(
        self, manager: SessionManager | None, owner: type
    ) -> forward[P, R] | Callable[P, Awaitable[R]]:
        if manager is None:
            return self
        bound = functools.partial(self.function, manager._ctx)
        functools.update_wrapper(bound, self.function)
        return bound


class SessionManager:
    """Everything a chat adapter needs: challenges, moves, boards, lists, rules.

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
        # Which game each person last opened in Discord's Activity (bot.sessions.launches).
        self._launches = Launches()

    @property
    def store(self) -> SqlStore:
        """The store every session change goes through."""
        return self._ctx.store

    @property
    def clock(self) -> Clock:
        """The injected clock."""
        return self._ctx.clock

    @property
    def sweep_gap(self) -> timedelta:
        """The gap between two pieces of clock work (reminders, timeouts) handled by
        :meth:`sweep`."""
        return self._ctx.sweep_gap

    @sweep_gap.setter
    def sweep_gap(self, gap: timedelta) -> None:
        self._ctx.sweep_gap = gap

    # -- small helpers ----------------------------------------------------------------------

    def now(self) -> datetime:
        """The manager's current time (from the injected clock)."""
        return self._ctx.now()

    player = forward(loading.player)

    player_to_move = forward(checked(_no_player)(loading.player_to_move))

    claim_update = forward(leases.claim_update)

    async def finish_update(self, platform: str, update_id: int) -> None:
        """Record that this process handled an update it claimed."""
        await leases.finish_update(self._ctx, platform, update_id)

    # Issue 45: a double tap has one effect across processes (bot.sessions.leases).
    claim_tap = forward(leases.claim_tap)
    end_tap = forward(leases.end_tap)

    against_bot = forward(checked(_not_against_bot)(loading.against_bot))

    seated = forward(checked(_not_seated)(loading.seated))

    challenge = forward(guard(challenges.challenge))

    @guard
    async def challenge_bot(
        self,
        user: User,
        chat: Chat,
        game: str,
        level: str = "normal",
        options: Mapping[str, Any] | None = None,
        first: str = "random",
        time_per_move: float | None = DEFAULT_TIME_PER_MOVE,
    ) -> Reply:
        """Start a game of ``game`` against the bot itself at ``level`` (``easy``, ``normal``
        or ``hard``) in ``chat``, at once: no challenge to accept, never rated.

        ``options`` and ``time_per_move`` are as for :meth:`challenge` (the time per move is
        the player's clock: the bot has none); ``first`` is ``me`` (the player takes seat 0),
        ``them`` (the bot does) or ``random``.  The bot's moves come as notifications (see
        :mod:`~bot.sessions.opponent`).
        """
        return await opponent.start(
            self._ctx, user, chat, game, level, dict(options or {}), first, time_per_move
        )

    async def bot_idle(self) -> None:
        """Wait until the bot has no move in the works in this process (tests, tools)."""
        await opponent.idle(self._ctx)

    async def close(self) -> None:
        """Stop the bot's moves in the works (the next start's sweep makes them) and its
        worker processes.  Call before closing the store."""
        await opponent.close(self._ctx)

    accept = forward(guard(challenges.accept))

    decline = forward(guard(challenges.decline))

    cancel = forward(guard(challenges.cancel))

    expire_challenges = forward(challenges.expire_challenges)

    # -- the bot's own messages on the platforms (bot.sessions.posts) ------------------------

    async def challenge_answered(self, challenge_id: int) -> bool:
        """Whether challenge ``challenge_id`` is no longer pending (accepted, declined,
        cancelled or expired); ``False`` when there is no such challenge."""
        row = await self.store.get_challenge(challenge_id)
        return row is not None and row.status is not ChallengeStatus.PENDING

    async def offer_standing(self, game_id: int) -> bool | None:
        """Whether game ``game_id`` has a draw offer or a takeback request standing
        (``None``: no such game)."""
        row = await self.store.get_game(game_id)
        if row is None:
            return None
        return row.draw_offer_by is not None or row.takeback_by is not None

    async def direct_reachable(self, user: User) -> None:
        """``user`` opened a private chat with the bot: direct messages the platform refused
        before may reach them now (the refusal remembered in ``players.dm_refused_at``)."""
        await self.store.direct_reachable(user.platform, user.user_id)

    async def direct_refused(self, user: User) -> None:
        """The platform refused a direct message to ``user``: remembered in the store
        (``players.dm_refused_at``), so no outbox tries again until they open a private chat
        with the bot (:meth:`direct_reachable`)."""
        player = await self.player(user)
        await self.store.direct_refused(player.id, self.clock.now())

    async def player_name(self, player_id: int) -> str | None:
        """The name of the player ``player_id`` (``None``: no such player)."""
        row = await self.store.get_player(player_id)
        return None if row is None else row.name

    async def game_chat(self, game_id: int) -> str | None:
        """The chat game ``game_id`` is played in, as the store keeps it (``None``: no such
        game)."""
        row = await self.store.get_game(game_id)
        return None if row is None else row.chat_id

    async def tournament_of_game(self, game_id: int) -> int | None:
        """The tournament game ``game_id`` belongs to (``None``: none)."""
        return await self.store.tournament_of_game(game_id)

    def answering(
        self, owner: str, game_id: int | None, chat_id: str
    ) -> AbstractAsyncContextManager[None]:
        """Around a surface posting a board of ``game_id`` in ``chat_id`` as its answer: the
        game's committed boards are claimed for ``owner`` so no outbox posts them a second
        time (see :func:`bot.delivery.outbox.answering`)."""
        return answering(self.store, self.clock, owner, game_id, chat_id)

    remember_post = forward(posts.remember_post)

    chat_players = forward(removal.chat_players)

    posts_for = forward(posts.posts_for)

    async def retire_posts(self, retired: list[Post]) -> None:
        """Mark messages as without live buttons (after taking them away)."""
        await posts.retire_posts(self._ctx, retired)

    move_chat = forward(posts.move_chat)

    @guard
    async def move(
        self,
        user: User,
        chat: Chat,
        text: str,
        game_id: int | None = None,
        expected_ply: int | None = None,
        confirm: bool = False,
        answered_in_chat: bool = True,
    ) -> Reply:
        """Play ``text`` in a game (your only active game here when no id is given).

        ``expected_ply`` is the ply the player saw (buttons carry it): if the game has moved on
        since, the move is refused as "the position changed" unless it is the same move the
        same player already made at that ply (judged by the stored move, whichever process
        stored it), which is answered for that player alone (a private one-line reply) and
        posts nothing new.

        A legal move that would lose the game for its player (inpHeXion and Lines of Fixation
        have such moves) is not played: the reply warns and offers to play it anyway.
        ``confirm`` plays it without asking (typed commands confirm with a trailing ``!``).
        ``answered_in_chat=False``: the surface answers elsewhere than ``chat`` (the web board,
        on its page), so the move's board is posted in the game's chat at once.
        """
        reply = await moves.move(
            self._ctx, user, chat, text, game_id, expected_ply, confirm, answered_in_chat
        )
        return await opponent.after_move(self._ctx, reply)

    resign = forward(guard(moves.resign))

    board = forward(guard(views.board))

    browse = forward(guard(browsing.browse))

    history = forward(guard(histories.history))

    review = forward(guard(reviews.review))

    costliest = forward(reviews.costliest)

    games = forward(guard(views.games))

    rules = forward(guard(views.rules))

    help = forward(views.help)

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

    settings = forward(guard(players.settings))
    # Whose language a message is said in (issue 43): the asker's and the chat's, a notice's
    # recipient's, a chat's posts'.
    speakers = forward(languages.speakers)
    recipient_language = forward(languages.recipient)
    chat_language = forward(languages.chat)

    away = forward(guard(clocks.away))

    back = forward(guard(clocks.back))

    draw = forward(guard(requests.draw))

    takeback = forward(guard(requests.takeback))

    rematch = forward(guard(rematches.rematch))

    @checked(_refused_step)
    async def pick(self, user: User, chat: Chat, action_id: str) -> picker.Picker | Reply:
        """A step of the move picker for a ``pk`` or ``pp`` button (see
        :mod:`~bot.sessions.picker`), or a refusal when ``user`` may not use it now."""
        try:
            return await picker.pick(self._ctx, user, chat, action_id)
        except Refusal as refusal:
            return Reply.refuse(str(refusal), refusal=refusal.code)

    suggest_moves = forward(checked(_no_moves)(picker.suggestions))

    preview = forward(guard(previews.preview))

    @checked(_no_facts)
    async def board_facts(self, game_id: int) -> BoardFacts | None:
        """A game at a glance for a platform's card (``None`` if there is no such game)."""
        try:
            return await previews.board_facts(self._ctx, game_id)
        except Refusal:
            return None

    @checked(_no_ratings)
    async def board_ratings(self, game_id: int) -> Text:
        """Both players' ratings in game ``game_id``'s pool, or that it is casual, for a
        platform's card beside a board (the one fact a board's reply does not carry: reading
        them is left to the platforms that show them)."""
        try:
            loaded = await loading.load(self._ctx, game_id, fresh=False)
        except Refusal:
            return Text()
        return await standings.board_line(self._ctx, loaded.row)

    game_choices = forward(checked(_no_choices)(previews.game_choices))

    export = forward(guard(histories.export))

    @property
    def bell(self) -> Bell:
        """Rung when notifications became due that no adapter's answer posts (a move made on
        the web board): give it to this process's outboxes (:class:`~bot.delivery.outbox.
        Outbox` ``bell=``) so they deliver them at once."""
        return self._ctx.bell

    @property
    def web_pages(self) -> WebPages | None:
        """The web board's links (``None``: off); boards then carry their page."""
        return self._ctx.pages

    @web_pages.setter
    def web_pages(self, pages: WebPages | None) -> None:
        self._ctx.pages = pages

    web_link = forward(guard(webviews.web_link))

    @checked(_no_view)
    async def web_view(self, game_id: int) -> webviews.GameView | None:
        """What game ``game_id``'s web page shows (:mod:`~bot.sessions.webview`), ``None``
        if there is no such game."""
        try:
            return await webviews.game_view(self._ctx, game_id)
        except Refusal:
            return None

    def launched(self, user: User, game_id: int) -> None:
        """``user`` opened game ``game_id`` in Discord's Activity: its page, once they are
        signed in, opens that game first (:mod:`~bot.sessions.launches`)."""
        self._launches.remember(user, game_id, self.now())

    def launched_game(self, user: User) -> int | None:
        """The game ``user`` last opened in Discord's Activity, if they did lately."""
        return self._launches.last(user, self.now())

    import_record = forward(guard(histories.import_record))

    #: The game other than the one named where it is the player's turn (the web board's
    #: "next game" link; :func:`~bot.sessions.webview.next_turn`).
    next_turn = forward(webviews.next_turn)

    #: A player's resign, draw or takeback made on the web board's page, told in the game's
    #: chat too (:func:`~bot.sessions.pageactions.page_action`).
    page_action = forward(guard(pageactions.page_action))

    @guard
    async def press(self, user: User, chat: Chat, action_id: str) -> Reply:
        """Resolve a button press by its action id (works after a restart: ids hold it all)."""
        reply = await buttons.press(self._ctx, user, chat, action_id)
        return await opponent.after_move(self._ctx, reply)

    # -- ratings ---------------------------------------------------------------------------

    @guard
    async def leaderboard(
        self, user: User, chat: Chat, game: str, everywhere: bool = False
    ) -> Reply:
        """The top rated players of ``game`` (``maphex``, ``maphex 16``, ``isopath h5``,
        ``maphex16`` ...): this chat's community's ratings (from the rated games played in
        this group or server: ``chat.community``), or each player's best community rating
        when ``everywhere``.  Each line: rank, name, rating (``?`` while provisional), rated
        games."""
        await loading.player(self._ctx, user)
        return await standings.leaderboard(self._ctx, chat, game, everywhere)

    stats = forward(guard(standings.stats))

    rebuild_ratings = forward(standings.rebuild)

    # -- tournaments (bot.sessions.tournaments) ---------------------------------------------

    tournament_new = forward(guard(tournaments.new))

    tournament_join = forward(guard(tournaments.join))

    tournament_leave = forward(guard(tournaments.leave))
    #: "Really leave?" for the leaver alone (issue 45), its yes button leaving.
    tournament_leave_question = forward(guard(asking.leave_question))

    tournament_start = forward(guard(tournaments.start))

    tournament_cancel = forward(guard(tournaments.cancel))

    tournament_standings = forward(guard(tournaments.show))

    tournament_list = forward(guard(tournaments.listing))

    #: conditional moves (issue 46): prepare, list or clear your replies in a game
    premove = forward(guard(conditional.premove))

    #: your prepared lines of a game, as moves (the web board's plan mode)
    premove_lines = forward(conditional.lines_of)

    #: the line typed so far completed with legal moves along it (Discord's autocompletion)
    suggest_line = forward(checked(_no_moves)(conditional.suggestions))
