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

What answering a challenge's card does (a game thread, a card accepted privately, the other
copies closed) is :mod:`~bot.adapters.discord.accepting`; the move picker's presses,
:mod:`~bot.adapters.discord.picking`; a reply's message fields,
:mod:`~bot.adapters.discord.composing`; what the channel is told beside an answer,
:mod:`~bot.adapters.discord.telling`: all are parts of :class:`DiscordBot`.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot import metrics
from bot.adapters import afterpost
from bot.adapters.args import GameRef, TournamentRef
from bot.adapters.commands import REGISTRY, Command
from bot.adapters.discord.accepting import ChallengeCards
from bot.adapters.discord.buttons import ActionButton, action_view
from bot.adapters.discord.commands import OUTDATED, add_commands
from bot.adapters.discord.composing import Composing
from bot.adapters.discord.followups import Followups
from bot.adapters.discord.format import (
    PLATFORM,
    TEXT_LIMIT,
    markdown,
    mentions_only,
    user_of,
)
from bot.adapters.discord.languages import speakers_of
from bot.adapters.discord.launching import ENTRY_POINT, ActivityLaunches
from bot.adapters.discord.leaving import TournamentLeaving
from bot.adapters.discord.outgoing import Outgoing, as_board_edit, as_edit
from bot.adapters.discord.picker import PickMenu, PreviewButton
from bot.adapters.discord.picking import MovePicker
from bot.adapters.discord.posts import DiscordPosts
from bot.adapters.discord.reach import MISSING_ACCESS, Reach
from bot.adapters.discord.sync import sync_if_changed
from bot.adapters.discord.telling import ChannelTelling, foreign
from bot.adapters.discord.threads import chat_here
from bot.adapters.discord.translator import CatalogTranslator
from bot.adapters.redact import hide
from bot.core import i18n
from bot.core.lru import Lru
from bot.core.posts import PostKind
from bot.delivery.outbox import Outbox
from bot.messages import Action, ActionKind, Chat, Reply, User
from bot.outcomes import SignUp
from bot.sessions import texts
from bot.sessions.manager import SessionManager
from bot.workers import worker_name

__all__ = [
    "DEFER_AFTER",
    "ActionButton",
    "DiscordBot",
    "Mode",
    "action_view",
]

log = logging.getLogger(__name__)

#: A command whose answer is not ready after this many seconds is deferred first (Discord
#: wants a first response within 3 s; the rest is a followup).
DEFER_AFTER = 1.5
#: The gateway intents: none. Everything the bot acts on arrives as an interaction, which
#: Discord sends whatever the intents; the bot reads no messages, members, presences or
#: reactions, and posts and edits through REST by id (no channel cache needed).
INTENTS = discord.Intents.none()
#: How long an interaction's token may edit its messages (Discord: 15 minutes).
TOKEN_LIFETIME = 14 * 60.0
#: Most interaction tokens kept for editing their messages (the oldest go first; a message
#: whose token is gone is edited through its channel, as after 15 minutes).
KEPT_TOKENS = 2_000
#: Platform words of the one answer to an unexpected error.
ERROR_TEXT = "Sorry, something went wrong on my side. Please try again."
#: Presses answered privately (a board, a move list, the question before resigning, a step
#: through a game opened from a public message).
# "Open board" answers with the presser's own link to the game's page: privately.
_PRIVATE = {
    ActionKind.BOARD,
    ActionKind.HISTORY,
    ActionKind.RESIGN,
    ActionKind.BROWSE,
    ActionKind.BROWSE_OPEN,
    ActionKind.WEB_BOARD,
}


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


class _Tree(app_commands.CommandTree["DiscordBot"]):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """The app's Entry Point command, when its handler is ``APP_HANDLER`` (Discord sends
        it to the app), opens the Activity; every other command goes on to the tree."""
        data: Any = interaction.data or {}
        if data.get("type") != ENTRY_POINT:
            return True
        await self.client.entry_point(interaction)
        return False

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await self.client.report(interaction, error)


class DiscordBot(
    discord.Client,
    Composing,
    ChannelTelling,
    ChallengeCards,
    MovePicker,
    ActivityLaunches,
    TournamentLeaving,
):
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
        registry: Sequence[Command] = REGISTRY,
    ) -> None:
        super().__init__(intents=INTENTS, guild_ready_timeout=guild_ready_timeout)
        self.manager = manager
        self.guild_id = guild_id
        self.outbox = outbox
        # Who claims a move's committed board while answering it, without an outbox.
        self._owner = worker_name()
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
        # Only the interaction's followup webhook is kept (its token), not the interaction
        # with its payload, member and message (issue 48: a process that stays small).
        # At most KEPT_TOKENS, the least recently used first out; an expired one is never used.
        self._tokens: Lru[int, tuple[discord.Webhook, float]] = Lru(KEPT_TOKENS)
        # Channels that refused the bot, players no notice reached (bot.adapters.discord.reach).
        self.reach = Reach()
        # Followups each interaction sent (a user install's allow 5: followups.py).
        self.followups = Followups()
        # What the flow after a post does to one of the bot's messages (afterpost.py).
        self.posts = DiscordPosts(self)
        self.add_dynamic_items(ActionButton, PickMenu, PreviewButton)
        add_commands(self, self.tree, registry)
        self.open_in_activity = False  # (bot.adapters.discord.launching)

    async def login(self, token: str) -> None:
        """Log in; from now on this module's log records never show ``token``."""
        hide(token, loggers=(log,))
        await super().login(token)

    async def setup_hook(self) -> None:
        """Upload the command list (to the development server when one is set) if it differs
        from the one Discord holds (see :mod:`bot.adapters.discord.sync`)."""
        if not self.sync_commands:
            return
        # Issue 43: the descriptions in every language that ships.
        await self.tree.set_translator(CatalogTranslator())
        if self.guild_id is not None:
            # Commands of one guild answer there at once (global ones too, from the tree).
            self.tree.copy_global_to(guild=discord.Object(self.guild_id))
        await sync_if_changed(self, self.tree, self.guild_id)

    # -- errors ---------------------------------------------------------------------------

    async def report(self, interaction: discord.Interaction, error: BaseException) -> None:
        """The one place a handler's error is logged and answered: an ephemeral one-liner."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, app_commands.TransformerError | app_commands.CommandSignatureMismatch):
            # A client with an old copy of the command: a clear answer, no traceback.
            name = interaction.command.name if interaction.command else "?"
            log.info("interaction %s: outdated /%s: %s", interaction.id, name, cause)
            await self._answer_privately(interaction, OUTDATED.format(command=name))
            return
        log.error(
            "interaction %s (%s) failed: %s",
            interaction.id,
            interaction.command.name if interaction.command else interaction.type.name,
            type(cause).__name__,
            exc_info=cause,
        )
        await self._answer_privately(interaction, ERROR_TEXT)

    async def _answer_privately(self, interaction: discord.Interaction, text: str) -> None:
        """Answer ``text`` to the interaction's user only (nothing for autocompletion)."""
        if interaction.type is discord.InteractionType.autocomplete:
            return
        try:
            if interaction.response.is_done():
                await self.followups.send(interaction, text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except Exception as exc:  # closing down, or Discord refused: the log says it all
            log.warning("could not answer interaction %s: %s", interaction.id, type(exc).__name__)

    # -- answering ------------------------------------------------------------------------

    def _wake(self) -> None:
        if self.outbox is not None:
            self.outbox.wake()

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
        chat = chat_here(interaction)
        # Issue 43: the call says what everyone reads (pictures, buttons) in the channel's
        # language; its answer is rendered in the asker's when it is theirs alone.  An answer
        # known to be theirs alone before the call (an ephemeral one: asked privately, or a
        # private message edited in place) has its picture and alt text drawn in theirs too.
        said = await speakers_of(self.manager, interaction)
        pressed_on = interaction.message
        alone = mode is Mode.PRIVATE or (
            mode is Mode.EDIT and pressed_on is not None and pressed_on.flags.ephemeral
        )
        with i18n.use(said.player if alone else said.chat):
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
        private = not reply.ok or mode is Mode.PRIVATE or reply.private
        with i18n.use(said.player if private else said.chat):
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
        if out.card is not None and mode is Mode.PUBLIC and foreign(interaction):
            # A new challenge where only the user install works: say what the friends need.
            line = markdown(texts.user_install_card())
            fields["content"] = f"{fields.get('content', '')}\n{line}".strip()[:TEXT_LIMIT]
        sent: discord.InteractionMessage | discord.WebhookMessage | None = None
        if reply.private:
            # A repeat the store had already applied, a look by someone not playing: for the
            # asker alone (ephemeral: "only the user receiving the message can see it",
            # Discord's Receiving and Responding), and pinging no one.
            fields["allowed_mentions"] = discord.AllowedMentions.none()
            fields.pop("view", None)
        if not reply.ok and await self._close_stale_card(interaction, reply, deferred, pressed):
            return
        pressed_on = interaction.message
        if reply.private and mode is Mode.SETTLE and pressed_on and pressed_on.flags.ephemeral:
            # A private preview whose move was played already (by another press, or before a
            # restart that left it showing "Nothing is played yet"): it now says what is true.
            edit = {
                "content": fields.get("content", ""), "view": None, "attachments": [],
                "embed": None, "allowed_mentions": discord.AllowedMentions.none(),
            }  # fmt: skip
            if deferred:
                await interaction.edit_original_response(**edit)
            else:
                await interaction.response.edit_message(**edit)
            return
        if not reply.ok or mode is Mode.PRIVATE or reply.private:
            if deferred and mode is not Mode.PRIVATE:
                if mode is Mode.PUBLIC:
                    # The public "thinking" placeholder gives way to a private answer.
                    await interaction.delete_original_response()
                await self.followups.send(interaction, **fields, ephemeral=True)
            elif deferred:
                # The private "thinking" placeholder becomes the answer (see as_edit).
                await interaction.edit_original_response(**as_edit(fields))
            else:
                await interaction.response.send_message(**fields, ephemeral=True)
            more = markdown(texts.rest_attached())
            await self.followups.sections(interaction, out.rest, more, ephemeral=True)
            await self._say_unreachable(interaction)
            return
        sign_up = reply.outcome if isinstance(reply.outcome, SignUp) else None
        signing_up = (
            sign_up.tournament_id if sign_up and mode is Mode.PUBLIC and pressed is None else None
        )
        if signing_up is not None and await self._update_sign_up(interaction, reply, signing_up):
            # The chat's card shows the new list: the answer is its first line, no 2nd card.
            fields = {
                "content": markdown(reply.body.first_paragraph())[:TEXT_LIMIT],
                "allowed_mentions": mentions_only(),
            }
            signing_up = None
        # A move's committed board is this answer (a live board, or the final one): claimed,
        # so no outbox posts it too. In a game's thread the game's chat is the thread's
        # channel (threads.chat_here), which is where its boards are committed.
        live = out.board
        owner = self.outbox.owner if self.outbox is not None else self._owner
        chat = chat_here(interaction).chat_id
        async with self.manager.posts.answering(owner, live, chat):
            if mode is Mode.EDIT and await self._accept_into_thread(
                interaction, reply, out, deferred, pressed
            ):
                pass  # the card stays in the channel; the board went into the game's thread
            elif mode is Mode.EDIT and await self._accept_from_dm(
                interaction, reply, out, deferred, pressed
            ):
                pass  # the channel's card became the board; the pressed DM card points to it
            elif mode is Mode.EDIT:
                edit = as_board_edit(fields)
                if deferred:
                    sent = await interaction.edit_original_response(**edit)
                else:
                    await interaction.response.edit_message(**edit)
                if interaction.message is not None:
                    await self._remember(interaction, out, interaction.message.id)
                if pressed is not None and pressed.on_card and reply.challenge_id is not None:
                    # After answering (Discord's 3 s): the challenge's other cards close too.
                    await self._close_cards(reply, interaction.message)
            else:
                if mode is Mode.SETTLE:
                    # The pressed message (a preview, a warning) has done its job.
                    if deferred:
                        await interaction.edit_original_response(view=None)
                    else:
                        await interaction.response.edit_message(view=None)
                    sent = await self.followups.send(interaction, **fields, wait=True)
                elif deferred:
                    sent = await interaction.edit_original_response(**as_edit(fields))
                else:
                    response = await interaction.response.send_message(**fields)
                    resource = response.resource
                    if isinstance(resource, discord.InteractionMessage):
                        sent = resource
                if sent is not None:
                    await self._remember(interaction, out, sent.id)
                if sent is not None and signing_up is not None:
                    await self._remember_card(interaction, sent.id, signing_up)
        more = markdown(texts.rest_attached())
        await self.followups.sections(interaction, out.rest, more, allowed_mentions=mentions_only())
        await self._tell_channel(interaction, reply)
        await self._say_unreachable(interaction)

    async def _remember_card(
        self, interaction: discord.Interaction, message_id: int, tournament_id: int
    ) -> None:
        """Remember ``message_id`` (sent here) as tournament ``tournament_id``'s sign-up card,
        so a later join or leave edits it."""
        await self.manager.posts.remember_post(
            PLATFORM, str(interaction.channel_id or 0), str(message_id),
            PostKind.CARD, tournament_id=tournament_id,
        )  # fmt: skip

    async def _update_sign_up(
        self, interaction: discord.Interaction, reply: Reply, tournament_id: int
    ) -> bool:
        """Edit the channel's sign-up card of ``tournament_id`` to ``reply`` (a typed join or
        leave: the new list, its count right); ``False`` when none is known here or it is
        gone (then the answer is a new card)."""
        channel = interaction.channel_id
        if channel is None:
            return False
        cards = await self.manager.posts.posts_for(
            PLATFORM, tournament_id=tournament_id, kind=PostKind.CARD
        )
        known = [p for p in cards if p.chat_id == str(channel)]
        if not known:
            return False
        card = self.get_partial_messageable(channel).get_partial_message(int(known[-1].message_id))
        try:
            await card.edit(
                content=markdown(reply.body)[:TEXT_LIMIT],
                view=action_view(reply.actions),
                allowed_mentions=mentions_only(),
            )
        except (discord.NotFound, discord.Forbidden):
            return False
        return True

    async def _remember(
        self, interaction: discord.Interaction, out: Outgoing, message_id: int
    ) -> None:
        """Remember a public message that shows a board or a card (in the store, so it is
        known after a restart); a game's older boards lose their buttons."""
        if out.board is None and out.card is None:
            return
        channel = str(interaction.channel_id or 0)
        now = self._token_time()
        self._tokens[message_id] = (interaction.followup, now)
        manager = self.manager
        if out.card is not None:
            await manager.posts.remember_post(
                PLATFORM, channel, str(message_id), PostKind.CARD, challenge_id=out.card
            )
            return
        if out.board is not None:  # only the latest board of a game keeps live buttons
            await afterpost.board_posted(manager, self.posts, channel, str(message_id), out.board)

    def _token_time(self) -> float:
        """Seconds on the manager's clock, which times the interaction tokens' lifetime (the
        real clock in production; a test's clock moves the tokens' age with the games')."""
        return self.manager.now().timestamp()

    async def edit_post(self, post: afterpost.Place, **fields: Any) -> bool:
        """Edit one of the bot's remembered messages (``fields`` as for
        :meth:`discord.Message.edit`): through the interaction that sent it while its token
        lasts (it reaches private channels the bot is not in), else through the channel.
        ``False`` when Discord refused (a deleted message, a channel out of reach)."""
        try:
            message_id, channel_id = int(post.message_id), int(post.chat_id)
        except ValueError:
            return False
        fresh = self._tokens.get(message_id)
        if fresh is not None and self._token_time() - fresh[1] < TOKEN_LIFETIME:
            try:
                await fresh[0].edit_message(message_id, **fields)
                return True
            except discord.HTTPException as exc:
                log.info("could not edit message %s by its interaction: %s", message_id, exc)
        if self.reach.out_of_reach(channel_id):
            return False  # no refused request spent (bot.adapters.discord.reach)
        try:
            channel = self.get_partial_messageable(channel_id)
            await channel.get_partial_message(message_id).edit(**fields)
        except discord.HTTPException as exc:
            # An old message whose buttons stay: the manager still refuses stale presses.
            log.info("could not edit message %s in %s: %s", message_id, channel_id, exc)
            if isinstance(exc, discord.Forbidden) and exc.code == MISSING_ACCESS:
                self.reach.refused(channel_id)
            return False
        return True

    # -- handlers -------------------------------------------------------------------------

    async def run_command(
        self, interaction: discord.Interaction, command: Command, args: Any
    ) -> None:
        """A slash command of the registry: its manager call with the options as typed values,
        answered privately where the command says so."""
        manager = self.manager

        async def call(user: User, chat: Chat) -> Reply:
            return await command.run(manager, user, chat, args)

        if command.qualified == "tournament leave" and isinstance(args, TournamentRef):
            # Leaving is asked of the leaver alone first (issue 45), never for all to see.
            await self._ask_leave(interaction, args.tournament_id)
            return
        mode = Mode.PRIVATE if command.private(args) else Mode.PUBLIC
        game_id = args.game_id if isinstance(args, GameRef) else None
        name = f"hexhall-{game_id or 'game'}.txt" if command.record else None
        await self._run(interaction, call, mode, file_name=name, board=command.board_card)

    async def _ask_leave(self, interaction: discord.Interaction, tournament_id: int | None) -> None:
        """ "Really leave?" about a tournament here, privately to the presser (a card's Leave
        or a typed leave; see :mod:`~bot.adapters.discord.leaving`): nothing public changes."""
        manager = self.manager

        async def ask(user: User, chat: Chat) -> Reply:
            return await manager.tournaments.tournament_leave_question(user, chat, tournament_id)

        await self._run(interaction, ask, Mode.PRIVATE, board=False)

    async def on_press(self, interaction: discord.Interaction, action_id: str) -> None:
        """A button: one manager call, shown where that button's answer belongs."""
        action = Action("", action_id)
        kind = action.kind
        manager = self.manager
        if kind is ActionKind.PREVIEW_CANCEL:
            await interaction.response.edit_message(view=None)
            return
        if kind in (ActionKind.PICK, ActionKind.PICK_STEP):
            await self._pick(interaction, action_id, new=kind is ActionKind.PICK)
            return
        if kind is ActionKind.PICK_CLOSE:
            await interaction.response.edit_message(
                content=markdown(texts.picker_closed()), embed=None, attachments=[], view=None
            )
            return
        if (
            kind is ActionKind.WEB_BOARD
            and self.open_in_activity
            and await self.launch(interaction, action)
        ):
            return
        if kind is ActionKind.TOURNAMENT_LEAVE:
            await self._ask_leave(interaction, action.subject)
            return
        if kind is ActionKind.TOURNAMENT_LEAVE_CONFIRMED:
            await self._leave_confirmed(interaction, action_id)
            return
        if kind is ActionKind.OFFER_DRAW:
            game = action.subject

            async def offer(user: User, chat: Chat) -> Reply:
                return await manager.games.draw(user, chat, game, "offer")

            await self._run(interaction, offer, Mode.PUBLIC)
            return
        message = interaction.message
        # The position browser steps in place in its own (private) message; "Step through"
        # on a public message (a move list) opens a private browser instead.
        browsing = (
            kind is not None and kind.browses and message is not None and message.flags.ephemeral
        )
        mode = (
            Mode.EDIT
            if (kind is not None and (kind.on_card or kind.updates_card)) or browsing
            else Mode.PRIVATE
            if kind in _PRIVATE
            else Mode.SETTLE
            if kind is not None and kind.plays
            else Mode.PUBLIC
        )

        async def press(user: User, chat: Chat) -> Reply:
            return await manager.games.press(user, chat, action_id)

        await self._run(
            interaction, press, mode, pressed=kind, board=not (kind is not None and kind.browses)
        )
