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
import random
from collections.abc import Mapping
from datetime import datetime, timedelta
from importlib.resources.abc import Traversable
from typing import Any

from bot.messages import Chat, Reply, Text, User
from bot.sessions import (
    browse,
    buttons,
    challenges,
    clocks,
    history,
    leases,
    loading,
    moves,
    opponent,
    picker,
    players,
    posts,
    preview,
    rematch,
    requests,
    standings,
    views,
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
    checked,
    guard,
)
from bot.sessions.preview import BoardFacts, GameChoice
from bot.sessions.thinker import Thinker
from bot.sessions.validate import BadArgument
from bot.storage import ChallengeRow, PlayerRow, Post, PostKind, RebuildSummary, SqlStore

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


def _no_ratings(_: BadArgument) -> Text:
    return Text()


def _no_facts(_: BadArgument) -> BoardFacts | None:
    return None


def _no_moves(_: BadArgument) -> list[str]:
    return []


def _no_choices(_: BadArgument) -> list[GameChoice]:
    return []


def _refused_step(bad: BadArgument) -> picker.Picker | Reply:
    return Reply.refuse(bad.text)


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

    async def player(self, user: User) -> PlayerRow:
        """The stored player for ``user`` (created on first contact)."""
        return await loading.player(self._ctx, user)

    @checked(_no_player)
    async def player_to_move(self, game_id: int) -> PlayerRow | None:
        """The player whose turn it is in an active game (``None`` if none or not active)."""
        return await loading.player_to_move(self._ctx, game_id)

    async def claim_update(self, platform: str, update_id: int) -> leases.Claim:
        """Claim a platform's update (a Telegram webhook's) for this process among all the
        bot processes on the database: handle it (``NEW``, then :meth:`finish_update`), let
        the platform send it again later (``BUSY``: another process is at it), or just
        acknowledge it (``DONE``)."""
        return await leases.claim_update(self._ctx, platform, update_id)

    async def finish_update(self, platform: str, update_id: int) -> None:
        """Record that this process handled an update it claimed."""
        await leases.finish_update(self._ctx, platform, update_id)

    @checked(_not_against_bot)
    async def against_bot(self, game_id: int) -> bool:
        """Whether game ``game_id`` is played against the bot itself (for a notification,
        which says only which game it is about)."""
        return await loading.against_bot(self._ctx, game_id)

    @guard
    async def challenge(
        self,
        user: User,
        chat: Chat,
        game: str,
        opponent: User | None = None,
        options: Mapping[str, Any] | None = None,
        first: str = "random",
        time_per_move: float | None = DEFAULT_TIME_PER_MOVE,
        rated: bool | str = True,
        username: str | None = None,
    ) -> Reply:
        """Challenge ``opponent`` (or anyone in the chat, if ``None``) to ``game``.

        ``options`` are the game's options (text values are accepted, e.g. ``{"size": "16"}``);
        ``first`` is who takes seat 0 (``me``, ``them`` or ``random``); ``time_per_move`` is in
        days (``None``, 1, 3, 7 or 14); ``rated=False`` (or ``"no"``) makes a casual game
        (rated by default).  The challenge card shows both players' ratings in the game.
        ``username`` (with no ``opponent``) invites a player by their platform username when
        their id is unknown (Telegram cannot look one up): only the user whose
        :attr:`~bot.messages.User.username` matches it (in any case) can accept or decline,
        and accepting binds their id.
        """
        return await challenges.challenge(
            self._ctx, user, chat, game, opponent, options, first, time_per_move, rated,
            username,
        )  # fmt: skip

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

    @guard
    async def accept(self, user: User, chat: Chat, challenge_id: int | None = None) -> Reply:
        """Accept a challenge (the only one for you here when no id is given); starts the game."""
        return await challenges.accept(self._ctx, user, chat, challenge_id)

    @guard
    async def decline(self, user: User, chat: Chat, challenge_id: int | None = None) -> Reply:
        """Decline a challenge addressed to you."""
        return await challenges.decline(self._ctx, user, chat, challenge_id)

    @guard
    async def cancel(self, user: User, chat: Chat, challenge_id: int | None = None) -> Reply:
        """Withdraw your own pending challenge."""
        return await challenges.cancel(self._ctx, user, chat, challenge_id)

    async def expire_challenges(self) -> list[ChallengeRow]:
        """Mark every challenge whose time is up as expired (a sweeper may call this)."""
        return await challenges.expire_challenges(self._ctx)

    # -- the bot's own messages on the platforms (bot.sessions.posts) ------------------------

    async def remember_post(
        self,
        platform: str,
        chat_id: str,
        message_id: str,
        kind: PostKind,
        *,
        game_id: int | None = None,
        challenge_id: int | None = None,
    ) -> list[Post]:
        """Remember a message the bot sent (a board or a challenge card); for a board, the
        game's older boards that had live buttons, for the caller to take them away."""
        return await posts.remember_post(
            self._ctx, platform, chat_id, message_id, kind,
            game_id=game_id, challenge_id=challenge_id,
        )  # fmt: skip

    async def posts_for(
        self,
        platform: str,
        *,
        game_id: int | None = None,
        challenge_id: int | None = None,
        kind: PostKind | None = None,
        live: bool | None = None,
    ) -> list[Post]:
        """The remembered messages of a game or a challenge on ``platform``, oldest first."""
        return await posts.posts_for(
            self._ctx, platform, game_id=game_id, challenge_id=challenge_id, kind=kind, live=live
        )

    async def retire_posts(self, retired: list[Post]) -> None:
        """Mark messages as without live buttons (after taking them away)."""
        await posts.retire_posts(self._ctx, retired)

    async def move_chat(self, platform: str, old_chat_id: str, new_chat_id: str) -> int:
        """A chat changed its id (a Telegram group became a supergroup): its games,
        challenges, posts and undelivered notifications move along; how many rows moved."""
        return await posts.move_chat(self._ctx, platform, old_chat_id, new_chat_id)

    @guard
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
        ``confirm`` plays it without asking (typed commands confirm with a trailing ``!``).
        """
        reply = await moves.move(self._ctx, user, chat, text, game_id, expected_ply, confirm)
        return await opponent.after_move(self._ctx, reply)

    @guard
    async def resign(
        self, user: User, chat: Chat, game_id: int | None = None, confirm: bool = True
    ) -> Reply:
        """Resign a game you play in.  ``confirm=False`` asks first: the reply is the question
        with a "Yes, resign" button (what every adapter does before resigning)."""
        return await moves.resign(self._ctx, user, chat, game_id, confirm)

    @guard
    async def board(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """The board of a game and whose turn it is."""
        return await views.board(self._ctx, user, chat, game_id)

    @guard
    async def browse(
        self, user: User, chat: Chat, game_id: int | None = None, ply: int | None = None
    ) -> Reply:
        """The picture of a game after ``ply`` moves (its last position by default), with
        buttons to the first, previous, next and last position (``br`` actions: adapters edit
        the message in place when one is pressed)."""
        return await browse.browse(self._ctx, user, chat, game_id, ply)

    @guard
    async def history(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """The numbered move list of a game."""
        return await history.history(self._ctx, user, chat, game_id)

    @guard
    async def games(self, user: User, page: int = 1) -> Reply:
        """Your games: active ones first (those where it is your turn on top), then finished
        ones newest first, :data:`~bot.sessions.views.PAGE` to a page (``page`` 2 and on:
        older finished games)."""
        return await views.games(self._ctx, user, page)

    @guard
    async def rules(self, game: str) -> Reply:
        """The rules of ``game`` as shipped inside the package, Markdown marks turned into
        emphasis (long: adapters send :meth:`~bot.messages.Reply.sections`)."""
        return await views.rules(self._ctx, game)

    async def help(self) -> Reply:
        """What players can do, without saying how (each adapter lists its own commands or
        buttons)."""
        return await views.help(self._ctx)

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
        done = await clocks.sweep(self._ctx)
        return done + await opponent.resume(self._ctx)

    async def run_clocks(self, stop: asyncio.Event, every: float = 30.0) -> None:
        """The sweeper: at start-up, then every ``every`` seconds until ``stop`` is set, run
        :meth:`sweep` and expire old challenges.  A failing round is logged, not fatal."""
        await asyncio.gather(
            clocks.run_clocks(self._ctx, stop, every), opponent.run(self._ctx, stop, every)
        )

    @guard
    async def settings(self, user: User, name: str | None = None, value: str = "") -> Reply:
        """Show your notification settings, or change one: ``dm on|off``, ``reminders
        on|off``, ``quiet 22:00-07:00 +01:00`` or ``quiet off``."""
        return await players.settings(self._ctx, user, name, value)

    @guard
    async def away(self, user: User, days: int | str) -> Reply:
        """Go on vacation for ``days`` days: your clocks stop (deadlines move by the time
        away), at most 14 days per calendar year; your opponents are told."""
        return await clocks.away(self._ctx, user, days)

    @guard
    async def back(self, user: User) -> Reply:
        """End your vacation early: your clocks run again (the unused days are not counted)."""
        return await clocks.back(self._ctx, user)

    @guard
    async def draw(
        self, user: User, chat: Chat, game_id: int | None = None, answer: str = "offer"
    ) -> Reply:
        """Offer a draw (``answer="offer"``), or ``accept`` / ``decline`` the opponent's offer.
        Offering when the opponent has already offered agrees to the draw.  An offer lapses
        when the offerer's opponent moves."""
        return await requests.draw(self._ctx, user, chat, game_id, answer)

    @guard
    async def takeback(
        self, user: User, chat: Chat, game_id: int | None = None, answer: str = "ask"
    ) -> Reply:
        """Ask to take back your own last move (``answer="ask"``) while your opponent has not
        moved, or ``accept`` / ``decline`` the opponent's request."""
        return await requests.takeback(self._ctx, user, chat, game_id, answer)

    @guard
    async def rematch(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """Ask for a rematch of a finished game: same game and options, seats swapped (a
        challenge linked to the old game).  If the opponent already asked, this accepts."""
        return await rematch.rematch(self._ctx, user, chat, game_id)

    @checked(_refused_step)
    async def pick(self, user: User, chat: Chat, action_id: str) -> picker.Picker | Reply:
        """A step of the move picker for a ``pk`` or ``pp`` button (see
        :mod:`~bot.sessions.picker`), or a refusal when ``user`` may not use it now."""
        try:
            return await picker.pick(self._ctx, user, chat, action_id)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))

    @checked(_no_moves)
    async def suggest_moves(
        self, user: User, chat: Chat, game_id: int | None, typed: str, limit: int = 25
    ) -> list[str]:
        """Moves (or beginnings of moves) starting with ``typed`` in ``user``'s game, most
        useful first, for autocompletion; empty when they are not to move there."""
        return await picker.suggestions(self._ctx, user, chat, game_id, typed, limit)

    @guard
    async def preview(self, user: User, chat: Chat, text: str, game_id: int | None = None) -> Reply:
        """The board after ``text`` would be played, with Play it / Cancel; nothing is stored
        (see :mod:`~bot.sessions.preview`)."""
        return await preview.preview(self._ctx, user, chat, text, game_id)

    @checked(_no_facts)
    async def board_facts(self, game_id: int) -> BoardFacts | None:
        """A game at a glance for a platform's card (``None`` if there is no such game)."""
        try:
            return await preview.board_facts(self._ctx, game_id)
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

    @checked(_no_choices)
    async def game_choices(self, user: User, typed: str = "", limit: int = 25) -> list[GameChoice]:
        """``user``'s active games for autocompletion, those where it is their turn first."""
        return await preview.game_choices(self._ctx, user, typed, limit)

    @guard
    async def export(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """The plain-text record of a game (``hexhall import`` reads it back)."""
        return await history.export(self._ctx, user, chat, game_id)

    @guard
    async def import_record(self, user: User, chat: Chat, text: str, opponent: User) -> Reply:
        """Store the game of a plain-text record between ``user`` and ``opponent`` in
        ``chat``: finished as recorded, or active and ready to continue.  ``user`` takes the
        seat whose player has their name (the first seat otherwise)."""
        return await history.import_record(self._ctx, user, chat, text, opponent)

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
        ``maphex16`` ...): of this chat's community (who played a rated game in this group or
        server: ``chat.community``), or of everyone on the bot when ``everywhere``.  Each line:
        rank, name, rating (``?`` while provisional), rated games."""
        await loading.player(self._ctx, user)
        return await standings.leaderboard(self._ctx, chat, game, everywhere)

    @guard
    async def stats(self, user: User, chat: Chat, player: User | None = None) -> Reply:
        """``player``'s (the asker's by default) rating per game, wins/losses/draws, current
        streak, record against the asker, and their rating over time as the reply's image
        (when pictures are on)."""
        return await standings.stats(self._ctx, user, chat, player)

    async def rebuild_ratings(self) -> RebuildSummary:
        """Recompute every rating from the stored games in order (``hexhall ratings
        rebuild``); the numbers equal those the games gave as they ended."""
        return await standings.rebuild(self._ctx)
