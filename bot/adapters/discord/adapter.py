"""The Discord adapter: a discord.py client whose slash commands and buttons each turn into one
session manager call, and whose answers are the manager's replies in Discord's form.

No game rules and no sentences about games live here: the manager decides and words
everything; this module chooses Discord's form (a public board message with an embed and an
attached picture, a challenge card edited in place, ephemeral refusals, autocompletion).
Errors of any handler are logged and answered in one place, :meth:`DiscordBot.report`
(called by the command tree's ``on_error`` and by the buttons), never with the token.

Buttons are :class:`ActionButton` dynamic items over the manager's compact action ids, so a
board's buttons keep working after a restart: the id holds everything.

Which message shows which game's board, or which challenge's card, is remembered in the store
(:mod:`bot.sessions.posts`), so after a restart too only a game's latest board keeps live
buttons, and an expired challenge's cards are edited by the outbox's sender
(:mod:`bot.adapters.discord.sender`).
"""

from __future__ import annotations

import asyncio
import enum
import io
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

import engines
from bot import metrics
from bot.adapters.discord.format import (
    ALT_LIMIT,
    BOARD_FILE,
    CHART_FILE,
    PLATFORM,
    TEXT_LIMIT,
    board_embed,
    chat_of,
    markdown,
    mentions_only,
    user_of,
)
from bot.adapters.redact import hide
from bot.delivery.outbox import Outbox
from bot.messages import ACTION_PREFIX, Action, ActionKind, Chat, Reply, ReplyKind, User
from bot.ratings import Pool
from bot.sessions import texts
from bot.sessions.manager import FIRST_CHOICES, TIME_CHOICES, SessionManager
from bot.storage import Post, PostKind
from engines.levels import Level

__all__ = [
    "DEFER_AFTER",
    "GAME_OPTIONS",
    "SCOPES",
    "ActionButton",
    "DiscordBot",
    "Mode",
    "action_view",
]

log = logging.getLogger(__name__)

#: A command whose answer is not ready after this many seconds is deferred first (Discord
#: wants a first response within 3 s; the rest is a followup).
DEFER_AFTER = 1.5
#: How long an interaction's token may edit its messages (Discord: 15 minutes).
TOKEN_LIFETIME = 14 * 60.0
#: Platform words of the one answer to an unexpected error.
ERROR_TEXT = "Sorry, something went wrong on my side. Please try again."
#: The scopes of /leaderboard: this server (or group DM), or everyone on the bot.
SCOPES = ("here", "all")
#: Game options offered by /challenge (each game takes the ones it has; the manager checks).
GAME_OPTIONS: tuple[str, ...] = ("size", "pie")
_DANGER = {
    ActionKind.DECLINE,
    ActionKind.CANCEL,
    ActionKind.RESIGN,
    ActionKind.RESIGN_CONFIRMED,
    ActionKind.MOVE_ANYWAY,
}
_SUCCESS = {
    ActionKind.ACCEPT,
    ActionKind.MOVE,
    ActionKind.DRAW_ACCEPT,
    ActionKind.TAKEBACK_ACCEPT,
    ActionKind.REMATCH,
}
#: Presses answered privately (a board, a move list, the question before resigning, a step
#: through a game opened from a public message).
_PRIVATE = {ActionKind.BOARD, ActionKind.HISTORY, ActionKind.RESIGN, ActionKind.BROWSE}


class Mode(enum.Enum):
    """Where an answer goes."""

    #: a new public message (refusals stay private)
    PUBLIC = "public"
    #: a message only the user sees
    PRIVATE = "private"
    #: the message whose button was pressed, edited in place
    EDIT = "edit"
    #: the pressed message loses its buttons, the answer is a new public message
    SETTLE = "settle"


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"(?P<id>{ACTION_PREFIX}[^\n]{{1,95}})",
):
    """A button carrying a manager action id (see :mod:`bot.messages`); it works after a
    restart because discord.py rebuilds it from the custom id alone."""

    def __init__(self, action: Action) -> None:
        kind = action.kind
        style = (
            discord.ButtonStyle.danger
            if kind in _DANGER
            else discord.ButtonStyle.success
            if kind in _SUCCESS
            else discord.ButtonStyle.secondary
        )
        super().__init__(
            discord.ui.Button(label=action.label[:80] or "?", custom_id=action.id, style=style)
        )
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ActionButton:
        """The button again, from its custom id."""
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(Action(label or "", match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the press to the bot (errors are answered by :meth:`DiscordBot.report`)."""
        client = interaction.client
        if not isinstance(client, DiscordBot):
            return
        try:
            await client.on_press(interaction, self.action.id)
        except Exception as error:
            await client.report(interaction, error)


def action_view(actions: tuple[Action, ...]) -> discord.ui.View | None:
    """A view of buttons for ``actions`` (five to a row, at most five rows; one button per
    action id), or ``None``."""
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    seen: set[str] = set()
    for action in actions:
        # Discord wants custom ids unique in a message: of two buttons doing the same (the
        # position browser's "next" that is also the "last"), the first stays.
        if action.id in seen or len(seen) == 25:
            continue
        seen.add(action.id)
        view.add_item(ActionButton(action))
    return view


@dataclass
class _Outgoing:
    """A reply in Discord's terms: the first message's fields and the sections that follow;
    ``board`` is the game whose board it shows (remembered as the game's latest board when
    public), ``card`` the challenge whose card it is."""

    fields: dict[str, Any]
    rest: list[str]
    board: int | None
    card: int | None


class _Tree(app_commands.CommandTree["DiscordBot"]):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await self.client.report(interaction, error)


def _is_board(reply: Reply) -> bool:
    """Whether a reply shows a game's board as the game's latest: its live board, a board
    picture, or the end of the game (with Rematch)."""
    if reply.kind is ReplyKind.LIVE_BOARD:
        return True
    return reply.kind is ReplyKind.BOARD and (
        reply.image is not None or reply.offers(ActionKind.REMATCH)
    )


def _game_id(value: str | None) -> int | None:
    """A game option as typed or chosen (``12``, ``#12``); 0 (no such game) if unreadable."""
    if value is None or not value.strip():
        return None
    digits = value.strip().lstrip("#")
    return int(digits) if digits.isdigit() and len(digits) < 19 else 0


def _days(value: str) -> float | None:
    if value == "none":
        return None
    try:
        return int(value)
    except ValueError:
        return -1  # the manager refuses it, in its words


class DiscordBot(discord.Client):
    """The Hexhall bot on Discord over one :class:`SessionManager` (see the module docstring).

    ``guild_id`` syncs the commands to that one server (development) instead of globally;
    ``outbox`` is woken after every command so its notifications go out at once;
    ``defer_after`` is the time after which a slow answer is deferred first.
    """

    def __init__(
        self,
        manager: SessionManager,
        *,
        guild_id: int | None = None,
        outbox: Outbox | None = None,
        defer_after: float = DEFER_AFTER,
        sync_commands: bool = True,
        guild_ready_timeout: float = 2.0,
    ) -> None:
        # No privileged intents: everything arrives as interactions.
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=guild_ready_timeout)
        self.manager = manager
        self.guild_id = guild_id
        self.outbox = outbox
        self.defer_after = defer_after
        self.sync_commands = sync_commands
        self.tree = _Tree(
            self,
            allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=True
            ),
        )
        # Which interaction sent each recent public message, while its token may still edit
        # it (the only way into a private channel the bot is not in); which message is which
        # game's board or which challenge's card lives in the store (bot.sessions.posts).
        self._tokens: dict[int, tuple[discord.Interaction, float]] = {}
        self.add_dynamic_items(ActionButton)
        _add_commands(self)

    async def login(self, token: str) -> None:
        """Log in; from now on this module's log records never show ``token``."""
        hide(token, loggers=(log,))
        await super().login(token)

    async def setup_hook(self) -> None:
        """Sync the command tree (to the development server when one is set)."""
        if not self.sync_commands:
            return
        if self.guild_id is not None:
            guild = discord.Object(self.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    # -- errors ---------------------------------------------------------------------------

    async def report(self, interaction: discord.Interaction, error: BaseException) -> None:
        """The one place a handler's error is logged and answered: an ephemeral one-liner."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        log.error(
            "interaction %s (%s) failed: %s",
            interaction.id,
            interaction.command.name if interaction.command else interaction.type.name,
            type(cause).__name__,
            exc_info=cause,
        )
        if interaction.type is discord.InteractionType.autocomplete:
            return
        try:
            if interaction.response.is_done():
                await interaction.followup.send(ERROR_TEXT, ephemeral=True)
            else:
                await interaction.response.send_message(ERROR_TEXT, ephemeral=True)
        except Exception as exc:  # closing down, or Discord refused: the log says it all
            log.warning("could not answer interaction %s: %s", interaction.id, type(exc).__name__)

    # -- answering ------------------------------------------------------------------------

    def _wake(self) -> None:
        if self.outbox is not None:
            self.outbox.wake()

    async def _compose(
        self, reply: Reply, caller: User, *, file_name: str | None = None, board: bool = True
    ) -> _Outgoing:
        """``reply`` as Discord message fields; ``board=False`` shows a game's picture without
        the board card (a past position of the position browser)."""
        sections = [markdown(s) for s in reply.sections(TEXT_LIMIT)]
        first, rest = sections[0], sections[1:]
        fields: dict[str, Any] = {"allowed_mentions": mentions_only()}
        if reply.ok and reply.challenge_id is not None and reply.game_id is None:
            # A challenge card pings whom it challenges (never the challenger, never roles).
            named = [m for m in reply.body.mentions() if m.user_id != caller.user_id]
            fields["allowed_mentions"] = mentions_only(*named)
        actions = reply.actions
        live = reply.ok and reply.kind is ReplyKind.LIVE_BOARD
        if live and reply.game_id is not None:
            actions = (*actions, Action.make("Offer draw", ActionKind.OFFER_DRAW, reply.game_id))
        if file_name is not None and reply.ok:
            # The text itself is the file (an exported record).
            fields["file"] = discord.File(io.BytesIO(reply.text.encode()), filename=file_name)
            first, rest = "", []
        elif board and reply.ok and reply.facts is not None and (reply.image or live):
            # A board: the picture (with the board in words as alt text) and its card.
            facts = reply.facts
            if reply.image is not None:
                alt = reply.alt[:ALT_LIMIT] if reply.alt else None
                fields["file"] = discord.File(
                    io.BytesIO(reply.image), filename=BOARD_FILE, description=alt
                )
            ratings = await self.manager.board_ratings(facts.game_id)
            fields["embed"] = board_embed(facts, ratings, image=reply.image is not None)
            fields["allowed_mentions"] = mentions_only(facts.to_move)
        elif reply.ok and reply.image is not None:
            # Another picture (a past position, a rating chart), described by its alt text.
            alt = reply.alt[:ALT_LIMIT] if reply.alt else None
            name = BOARD_FILE if reply.game_id is not None else CHART_FILE
            fields["file"] = discord.File(io.BytesIO(reply.image), filename=name, description=alt)
        if first:
            fields["content"] = first
        view = action_view(actions)
        if view is not None:
            fields["view"] = view
        shown = reply.game_id if board and reply.ok and _is_board(reply) else None
        card = reply.challenge_id if reply.ok and reply.kind is ReplyKind.CARD else None
        return _Outgoing(fields, rest, shown, card)

    async def _run(
        self,
        interaction: discord.Interaction,
        call: Callable[[User, Chat], Awaitable[Reply]],
        mode: Mode,
        *,
        file_name: str | None = None,
        pressed: ActionKind | None = None,
        board: bool = True,
    ) -> None:
        """Make the one manager call, deferring first if it is slow, and show its reply
        (``pressed``: the kind of the button pressed, if one was; ``board``: see
        :meth:`_compose`)."""
        user = user_of(interaction.user)
        chat = chat_of(interaction.channel_id, interaction.guild_id)
        task = asyncio.ensure_future(call(user, chat))
        deferred = False
        # Discord's 3 s run from the interaction's creation (a busy bot may see it late);
        # the clamp keeps a skewed clock from deferring everything or nothing.
        waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        budget = self.defer_after - min(max(waited, 0.0), self.defer_after)
        done = budget > 0 and bool((await asyncio.wait({task}, timeout=budget))[0])
        if not done:
            if mode in (Mode.EDIT, Mode.SETTLE):
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=mode is Mode.PRIVATE, thinking=True)
            deferred = True
        reply = await task
        await self._show(interaction, reply, mode, deferred, file_name, pressed, board)
        self._wake()

    async def _show(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        mode: Mode,
        deferred: bool,
        file_name: str | None,
        pressed: ActionKind | None = None,
        board: bool = True,
    ) -> None:
        metrics.replied(PLATFORM)
        caller = user_of(interaction.user)
        out = await self._compose(reply, caller, file_name=file_name, board=board)
        fields = out.fields
        sent: discord.InteractionMessage | discord.WebhookMessage | None = None
        if not reply.ok or mode is Mode.PRIVATE:
            if deferred and mode is not Mode.PRIVATE:
                if mode is Mode.PUBLIC:
                    # The public "thinking" placeholder gives way to a private answer.
                    await interaction.delete_original_response()
                await interaction.followup.send(**fields, ephemeral=True)
            elif deferred:
                await interaction.followup.send(**fields, ephemeral=True)
            else:
                await interaction.response.send_message(**fields, ephemeral=True)
            for section in out.rest:
                await interaction.followup.send(section, ephemeral=True)
            return
        if mode is Mode.EDIT:
            edit = dict(fields)
            edit["attachments"] = [edit.pop("file")] if "file" in edit else []
            edit.setdefault("content", "")
            edit.setdefault("embed", None)
            edit.setdefault("view", None)
            if deferred:
                sent = await interaction.edit_original_response(**edit)
            else:
                await interaction.response.edit_message(**edit)
            if interaction.message is not None:
                await self._remember(interaction, out, interaction.message.id)
            if pressed is not None and pressed.on_card and reply.challenge_id is not None:
                # After answering (Discord's 3 s): the challenge's other cards close too.
                await self._close_cards(reply.challenge_id, interaction.message)
        else:
            if mode is Mode.SETTLE:
                # The pressed message (a preview, a warning) has done its job.
                if deferred:
                    await interaction.edit_original_response(view=None)
                else:
                    await interaction.response.edit_message(view=None)
                sent = await interaction.followup.send(**fields, wait=True)
            elif deferred:
                sent = await interaction.followup.send(**fields, wait=True)
            else:
                response = await interaction.response.send_message(**fields)
                resource = response.resource
                if isinstance(resource, discord.InteractionMessage):
                    sent = resource
            if sent is not None:
                await self._remember(interaction, out, sent.id)
        for section in out.rest:
            await interaction.followup.send(section, allowed_mentions=mentions_only())

    async def _remember(
        self, interaction: discord.Interaction, out: _Outgoing, message_id: int
    ) -> None:
        """Remember a public message that shows a board or a card (in the store, so it is
        known after a restart); a game's older boards lose their buttons."""
        if out.board is None and out.card is None:
            return
        channel = str(interaction.channel_id or 0)
        now = time.monotonic()
        self._tokens.pop(message_id, None)
        self._tokens[message_id] = (interaction, now)
        while self._tokens:  # oldest first: drop the tokens that expired
            oldest = next(iter(self._tokens))
            if now - self._tokens[oldest][1] < TOKEN_LIFETIME:
                break
            del self._tokens[oldest]
        manager = self.manager
        if out.card is not None:
            await manager.remember_post(
                PLATFORM, channel, str(message_id), PostKind.CARD, challenge_id=out.card
            )
            return
        older = await manager.remember_post(
            PLATFORM, channel, str(message_id), PostKind.BOARD, game_id=out.board
        )
        for post in older:  # only the latest board of a game keeps live buttons
            await self.edit_post(post, view=None)

    async def _close_cards(self, challenge_id: int, pressed: discord.Message | None) -> None:
        """A challenge was answered on one of its cards (``pressed``, edited by the caller):
        its other cards lose their buttons, and none of them is a live card any more."""
        cards = await self.manager.posts_for(
            PLATFORM, challenge_id=challenge_id, kind=PostKind.CARD
        )
        for card in cards:
            if pressed is None or card.message_id != str(pressed.id):
                await self.edit_post(card, view=None)
        await self.manager.retire_posts(cards)

    async def edit_post(self, post: Post, **fields: Any) -> bool:
        """Edit one of the bot's remembered messages (``fields`` as for
        :meth:`discord.Message.edit`): through the interaction that sent it while its token
        lasts (it reaches private channels the bot is not in), else through the channel.
        ``False`` when Discord refused (a deleted message, a channel out of reach)."""
        try:
            message_id, channel_id = int(post.message_id), int(post.chat_id)
        except ValueError:
            return False
        fresh = self._tokens.get(message_id)
        if fresh is not None and time.monotonic() - fresh[1] < TOKEN_LIFETIME:
            try:
                await fresh[0].followup.edit_message(message_id, **fields)
                return True
            except discord.HTTPException as exc:
                log.info("could not edit message %s by its interaction: %s", message_id, exc)
        try:
            channel = self.get_partial_messageable(channel_id)
            await channel.get_partial_message(message_id).edit(**fields)
        except discord.HTTPException as exc:
            # An old message whose buttons stay: the manager still refuses stale presses.
            log.info("could not edit message %s in %s: %s", message_id, channel_id, exc)
            return False
        return True

    # -- handlers -------------------------------------------------------------------------

    async def on_press(self, interaction: discord.Interaction, action_id: str) -> None:
        """A button: one manager call, shown where that button's answer belongs."""
        action = Action("", action_id)
        kind = action.kind
        manager = self.manager
        if kind is ActionKind.PREVIEW_CANCEL:
            await interaction.response.edit_message(view=None)
            return
        if kind is ActionKind.OFFER_DRAW:
            game = action.subject

            async def offer(user: User, chat: Chat) -> Reply:
                return await manager.draw(user, chat, game, "offer")

            await self._run(interaction, offer, Mode.PUBLIC)
            return
        message = interaction.message
        # The position browser steps in place in its own (private) message; "Step through"
        # on a public message (a move list) opens a private browser instead.
        browsing = kind is ActionKind.BROWSE and message is not None and message.flags.ephemeral
        mode = (
            Mode.EDIT
            if (kind is not None and kind.on_card) or browsing
            else Mode.PRIVATE
            if kind in _PRIVATE
            else Mode.SETTLE
            if kind is not None and kind.plays
            else Mode.PUBLIC
        )

        async def press(user: User, chat: Chat) -> Reply:
            return await manager.press(user, chat, action_id)

        await self._run(interaction, press, mode, pressed=kind, board=kind is not ActionKind.BROWSE)

    async def autocomplete_game(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's active games, those where it is their turn first."""
        games = await self.manager.game_choices(user_of(interaction.user), current, 25)
        return [app_commands.Choice(name=g.label[:100], value=str(g.game_id)) for g in games]

    async def autocomplete_move(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal moves (or beginnings of moves) starting with what is typed, in the chosen
        game, from the current position."""
        typed_game = getattr(interaction.namespace, "game", None)
        game = _game_id(typed_game if isinstance(typed_game, str) else None)
        moves = await self.manager.suggest_moves(
            user_of(interaction.user),
            chat_of(interaction.channel_id, interaction.guild_id),
            game,
            current[:100],
            25,
        )
        return [app_commands.Choice(name=m[:100], value=m[:100]) for m in moves if m]


def _add_commands(bot: DiscordBot) -> None:
    """The slash commands of the issue, each one manager call through ``bot._run``."""
    tree, manager = bot.tree, bot.manager
    game_names = [
        app_commands.Choice(name=spec.title[:100], value=name)
        for name, spec in engines.GAMES.items()
    ]
    sizes = sorted(
        {
            v
            for spec in engines.GAMES.values()
            for opt in spec.options
            if opt.name == "size"
            for v in opt.values
        }
    )
    game_opt = app_commands.describe(game="The game (start typing: your games are listed)")

    @tree.command(name="challenge", description="Challenge someone (or anyone here) to a game")
    @app_commands.describe(
        game="Which game",
        opponent="Whom to challenge (empty: anyone here may accept)",
        first="Who moves first",
        days="Days per move",
        size="Board size (games that have sizes)",
        pie="Pie rule (inpHeXion)",
        rated="Whether the game counts for ratings (rated unless you say no)",
        level="Play the bot itself at this level (or pick the bot as the opponent)",
    )
    @app_commands.choices(
        game=game_names,
        first=[app_commands.Choice(name=f, value=f) for f in FIRST_CHOICES],
        days=[
            app_commands.Choice(name="no clock" if t is None else f"{t:g}", value=f"{t or 'none'}")
            for t in TIME_CHOICES
        ],
        level=[app_commands.Choice(name=lv.value, value=lv.value) for lv in Level],
    )
    @app_commands.choices(size=[app_commands.Choice(name=str(v), value=int(v)) for v in sizes])
    async def challenge(
        interaction: discord.Interaction,
        game: str,
        opponent: discord.User | None = None,
        first: str = "random",
        days: str = "3",
        size: int | None = None,
        pie: bool | None = None,
        rated: bool | None = None,
        level: str | None = None,
    ) -> None:
        options = {k: v for k, v in (("size", size), ("pie", pie)) if v is not None}
        whom = None if opponent is None else user_of(opponent)
        # The bot itself as the opponent, or a level: a game against the bot (never rated).
        against_member = (
            opponent is not None and bot.user is not None and opponent.id == bot.user.id
        )
        against_bot = level is not None or against_member

        async def call(user: User, chat: Chat) -> Reply:
            if level is not None and whom is not None and not against_member:
                return Reply.refuse(texts.level_is_for_the_bot())
            if against_bot:
                return await manager.challenge_bot(
                    user, chat, game, level or "normal", options, first, _days(days)
                )
            return await manager.challenge(
                user, chat, game, whom, options, first, _days(days), rated is not False
            )

        await bot._run(interaction, call, Mode.PUBLIC)

    @tree.command(name="move", description="Play a move (or preview it first)")
    @app_commands.describe(
        game="The game (your games where it is your turn come first)",
        move="Your move (start typing: legal moves are listed)",
        preview="Show the board after the move, privately, before playing it",
    )
    @app_commands.autocomplete(game=bot.autocomplete_game, move=bot.autocomplete_move)
    async def move(
        interaction: discord.Interaction, game: str, move: str, preview: bool = False
    ) -> None:
        gid = _game_id(game)

        async def call(user: User, chat: Chat) -> Reply:
            if preview:
                return await manager.preview(user, chat, move, gid)
            return await manager.move(user, chat, move, gid)

        await bot._run(interaction, call, Mode.PRIVATE if preview else Mode.PUBLIC)

    def per_game(
        name: str,
        description: str,
        method: Callable[[User, Chat, int | None], Awaitable[Reply]],
        mode: Mode = Mode.PUBLIC,
        file_name: str | None = None,
    ) -> None:
        async def command(interaction: discord.Interaction, game: str | None = None) -> None:
            gid = _game_id(game)

            async def call(user: User, chat: Chat) -> Reply:
                return await method(user, chat, gid)

            name = None if file_name is None else file_name.format(game=gid or "game")
            await bot._run(interaction, call, mode, file_name=name)

        cmd: app_commands.Command[Any, ..., None]
        cmd = app_commands.Command(name=name, description=description, callback=command)
        cmd = game_opt(app_commands.autocomplete(game=bot.autocomplete_game)(cmd))
        tree.add_command(cmd)

    per_game("board", "Show a game's board", lambda u, c, g: manager.board(u, c, g))
    per_game("history", "The moves of a game so far", lambda u, c, g: manager.history(u, c, g))
    per_game(
        "rematch", "Ask for a rematch of a finished game", lambda u, c, g: manager.rematch(u, c, g)
    )
    per_game(
        "export",
        "The record of a game as a file",
        lambda u, c, g: manager.export(u, c, g),
        file_name="hexhall-{game}.txt",
    )

    async def confirm_resign(user: User, chat: Chat, gid: int | None) -> Reply:
        if gid is None:
            return await manager.resign(user, chat, gid)
        return await manager.press(user, chat, Action.make("", ActionKind.RESIGN, gid).id)

    per_game("resign", "Resign a game (asks first)", confirm_resign, Mode.PRIVATE)

    def answered(name: str, description: str, answers: tuple[str, ...]) -> None:
        method = manager.draw if name == "draw" else manager.takeback

        async def command(
            interaction: discord.Interaction, game: str | None = None, answer: str = answers[0]
        ) -> None:
            gid = _game_id(game)

            async def call(user: User, chat: Chat) -> Reply:
                return await method(user, chat, gid, answer)

            await bot._run(interaction, call, Mode.PUBLIC)

        cmd: app_commands.Command[Any, ..., None]
        cmd = app_commands.Command(name=name, description=description, callback=command)
        cmd = app_commands.choices(answer=[app_commands.Choice(name=a, value=a) for a in answers])(
            cmd
        )
        cmd = app_commands.describe(answer="What to do")(cmd)
        cmd = game_opt(app_commands.autocomplete(game=bot.autocomplete_game)(cmd))
        tree.add_command(cmd)

    answered(
        "draw", "Offer a draw, or answer your opponent's offer", ("offer", "accept", "decline")
    )
    answered("undo", "Ask to take back your last move, or answer", ("ask", "accept", "decline"))

    @tree.command(name="games", description="Your games (active ones first)")
    @app_commands.describe(page="Page of finished games")
    async def games(
        interaction: discord.Interaction, page: app_commands.Range[int, 1, 100_000] = 1
    ) -> None:
        async def call(user: User, chat: Chat) -> Reply:
            return await manager.games(user, page)

        await bot._run(interaction, call, Mode.PRIVATE)

    @tree.command(name="rules", description="The rules of a game")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_names)
    async def rules(interaction: discord.Interaction, game: str) -> None:
        async def call(user: User, chat: Chat) -> Reply:
            return await manager.rules(game)

        await bot._run(interaction, call, Mode.PRIVATE)

    @tree.command(name="settings", description="Your notification settings (or change one)")
    @app_commands.describe(
        setting="What to change (empty: show them)",
        value="on / off, or quiet hours such as 22:00-07:00 +01:00",
    )
    @app_commands.choices(
        setting=[app_commands.Choice(name=s, value=s) for s in ("dm", "reminders", "quiet")]
    )
    async def settings(
        interaction: discord.Interaction, setting: str | None = None, value: str = ""
    ) -> None:
        async def call(user: User, chat: Chat) -> Reply:
            return await manager.settings(user, setting, value)

        await bot._run(interaction, call, Mode.PRIVATE)

    @tree.command(name="away", description="Go on vacation: your clocks stop")
    @app_commands.describe(days="How many days")
    async def away(interaction: discord.Interaction, days: app_commands.Range[int, 1, 14]) -> None:
        async def call(user: User, chat: Chat) -> Reply:
            return await manager.away(user, days)

        await bot._run(interaction, call, Mode.PRIVATE)

    @tree.command(name="back", description="End your vacation early")
    async def back(interaction: discord.Interaction) -> None:
        async def call(user: User, chat: Chat) -> Reply:
            return await manager.back(user)

        await bot._run(interaction, call, Mode.PRIVATE)

    @tree.command(name="leaderboard", description="The top rated players of a game")
    @app_commands.describe(game="Which game (and size)", scope="This server, or everyone")
    @app_commands.choices(
        game=[app_commands.Choice(name=pool.title, value=pool.key) for pool in Pool],
        scope=[app_commands.Choice(name=s, value=s) for s in SCOPES],
    )
    async def leaderboard(interaction: discord.Interaction, game: str, scope: str = "here") -> None:
        async def call(user: User, chat: Chat) -> Reply:
            return await manager.leaderboard(user, chat, game, everywhere=scope == "all")

        await bot._run(interaction, call, Mode.PUBLIC)

    @tree.command(name="stats", description="A player's ratings, results and rating chart")
    @app_commands.describe(player="Whose (empty: yours)")
    async def stats(interaction: discord.Interaction, player: discord.User | None = None) -> None:
        whom = None if player is None else user_of(player)

        async def call(user: User, chat: Chat) -> Reply:
            return await manager.stats(user, chat, whom)

        await bot._run(interaction, call, Mode.PUBLIC)

    @tree.command(name="browse", description="Step through a game's positions")
    @app_commands.describe(
        game="The game (start typing: your games are listed)",
        moves="The position after this many moves (empty: the latest)",
    )
    @app_commands.autocomplete(game=bot.autocomplete_game)
    async def browse(
        interaction: discord.Interaction,
        game: str | None = None,
        moves: app_commands.Range[int, 0, 100_000] | None = None,
    ) -> None:
        gid = _game_id(game)

        async def call(user: User, chat: Chat) -> Reply:
            return await manager.browse(user, chat, gid, moves)

        # Privately: each press of first / previous / next / last edits it in place.
        await bot._run(interaction, call, Mode.PRIVATE, board=False)
