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
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot import metrics
from bot.adapters.args import Args
from bot.adapters.commands import COMMAND, REGISTRY, Command
from bot.adapters.discord.buttons import ActionButton, action_view
from bot.adapters.discord.cards import closed_fields, copy_fields
from bot.adapters.discord.commands import OUTDATED, add_commands
from bot.adapters.discord.followups import Followups
from bot.adapters.discord.format import (
    ALT_LIMIT,
    BOARD_FILE,
    CHART_FILE,
    PLATFORM,
    TEXT_LIMIT,
    board_embed,
    markdown,
    mentions_only,
    user_of,
)
from bot.adapters.discord.picker import PickMenu, PreviewButton, picker_view
from bot.adapters.discord.reach import MISSING_ACCESS, Reach
from bot.adapters.discord.sync import sync_if_changed
from bot.adapters.discord.threads import (
    ARCHIVE_AFTER,
    can_thread,
    chat_here,
    parent_of,
    thread_name_of,
)
from bot.adapters.redact import hide
from bot.core.status import ChallengeStatus
from bot.delivery.outbox import Outbox
from bot.messages import Action, ActionKind, Chat, GameFacts, Reply, ReplyKind, User
from bot.sessions import texts
from bot.sessions.manager import SessionManager
from bot.sessions.picker import PREFIX_MARK, Picker
from bot.storage import Post, PostKind
from bot.workers import worker_name

__all__ = [
    "DEFER_AFTER",
    "GAME_OPTIONS",
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
#: Platform words of the one answer to an unexpected error.
ERROR_TEXT = "Sorry, something went wrong on my side. Please try again."
#: Game options offered by /challenge (each game takes the ones it has; the manager checks).
GAME_OPTIONS: tuple[str, ...] = tuple(
    p.name for p in COMMAND["challenge"].params if p.target == "options"
)
#: A challenge's ends after which its card never shows anything else (not accepted: that
#: card may have become the game's board).
_CLOSED = (ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED, ChallengeStatus.EXPIRED)
#: Presses and commands that can end a game (its thread's channel is then told the result).
_ENDING = {
    ActionKind.MOVE,
    ActionKind.MOVE_ANYWAY,
    ActionKind.RESIGN_CONFIRMED,
    ActionKind.DRAW_ACCEPT,
}
_ENDING_COMMANDS = {"move", "resign", "draw"}
#: Presses answered privately (a board, a move list, the question before resigning, a step
#: through a game opened from a public message).
# "Open board" answers with the presser's own link to the game's page: privately.
_PRIVATE = {
    ActionKind.BOARD,
    ActionKind.HISTORY,
    ActionKind.RESIGN,
    ActionKind.BROWSE,
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


@dataclass
class _Outgoing:
    """A reply in Discord's terms: the first message's fields and the sections that follow;
    ``board`` is the game whose board it shows (remembered as the game's latest board when
    public), ``card`` the challenge whose card it is."""

    fields: dict[str, Any]
    rest: list[str]
    board: int | None
    card: int | None


def _foreign(interaction: discord.Interaction) -> bool:
    """Whether the bot is not a member where ``interaction`` happened (a DM or group DM
    between users, a server without the bot): only the user install answers there."""
    if interaction.context.private_channel:
        return True
    return interaction.guild_id is not None and not interaction.is_guild_integration()


def _as_board_edit(fields: dict[str, Any]) -> dict[str, Any]:
    """A message's fields as the edit that turns another message into it (what the new
    message has not is removed: its picture, embed, buttons)."""
    edit = dict(fields)
    edit["attachments"] = [edit.pop("file")] if "file" in edit else []
    edit.setdefault("content", "")
    edit.setdefault("embed", None)
    edit.setdefault("view", None)
    return edit


def _as_edit(fields: dict[str, Any]) -> dict[str, Any]:
    """A deferred answer's fields as the edit of its "thinking" placeholder.  Discord's Create
    Followup Message: after a deferral the first followup edits the placeholder only "for
    backwards compatibility"; the documented way is Edit Original Interaction Response
    (discord/discord-api-docs#7091).  Such an edit counts as no followup either (a user
    install's interaction allows 5, discord/discord-api-docs#6958)."""
    edit = dict(fields)
    edit["attachments"] = [edit.pop("file")] if "file" in edit else []
    return edit


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
        self._tokens: dict[int, tuple[discord.Interaction, float]] = {}
        # Channels that refused the bot, players no notice reached (bot.adapters.discord.reach).
        self.reach = Reach()
        # Followups each interaction sent (a user install's allow 5: followups.py).
        self.followups = Followups()
        self.add_dynamic_items(ActionButton, PickMenu, PreviewButton)
        add_commands(self, self.tree, registry)

    async def login(self, token: str) -> None:
        """Log in; from now on this module's log records never show ``token``."""
        hide(token, loggers=(log,))
        await super().login(token)

    async def setup_hook(self) -> None:
        """Upload the command list (to the development server when one is set) if it differs
        from the one Discord holds (see :mod:`bot.adapters.discord.sync`)."""
        if not self.sync_commands:
            return
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

    async def message_fields(self, reply: Reply, caller: User) -> dict[str, Any]:
        """The fields of the first message showing ``reply`` (a board with its card, for the
        outbox's sender posting a move's committed board)."""
        return (await self._compose(reply, caller)).fields

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
            # Move opens the picker, privately, for whoever presses it (the player to move).
            move = Action.make(texts.MOVE_LABEL, ActionKind.PICK, reply.game_id)
            draw = Action.make("Offer draw", ActionKind.OFFER_DRAW, reply.game_id)
            actions = (move, *actions, draw)
        if reply.ok and reply.page is not None and reply.game_id is not None:
            # The game's web page: each presser gets their own link, privately.
            actions = (*actions, Action.make(texts.OPEN_BOARD, ActionKind.WEB_BOARD, reply.game_id))
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
            # The picture stays a plain attachment, which Discord shows at the message's full
            # width; inside the embed it would be cut to the embed's width (issue 25: about
            # 400 px, legend and cell labels unreadable). The facts stay in the embed.
            fields["embed"] = board_embed(facts, ratings, image=False)
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
        chat = chat_here(interaction)
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
        if out.card is not None and mode is Mode.PUBLIC and _foreign(interaction):
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
                # The private "thinking" placeholder becomes the answer (see _as_edit).
                await interaction.edit_original_response(**_as_edit(fields))
            else:
                await interaction.response.send_message(**fields, ephemeral=True)
            more = markdown(texts.rest_attached())
            await self.followups.sections(interaction, out.rest, more, ephemeral=True)
            await self._say_unreachable(interaction)
            return
        signing_up = (
            reply.subject_of(ActionKind.TOURNAMENT_JOIN)
            if mode is Mode.PUBLIC and pressed is None
            else None
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
        async with self.manager.answering(owner, live, chat):
            if mode is Mode.EDIT and await self._accept_into_thread(
                interaction, reply, out, deferred, pressed
            ):
                pass  # the card stays in the channel; the board went into the game's thread
            elif mode is Mode.EDIT and await self._accept_from_dm(
                interaction, reply, out, deferred, pressed
            ):
                pass  # the channel's card became the board; the pressed DM card points to it
            elif mode is Mode.EDIT:
                edit = _as_board_edit(fields)
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
                    sent = await interaction.edit_original_response(**_as_edit(fields))
                else:
                    response = await interaction.response.send_message(**fields)
                    resource = response.resource
                    if isinstance(resource, discord.InteractionMessage):
                        sent = resource
                if sent is not None:
                    await self._remember(interaction, out, sent.id)
                if sent is not None and signing_up is not None:
                    await self.manager.remember_post(
                        PLATFORM, str(interaction.channel_id or 0), str(sent.id),
                        PostKind.CARD, tournament_id=signing_up,
                    )  # fmt: skip
        more = markdown(texts.rest_attached())
        await self.followups.sections(interaction, out.rest, more, allowed_mentions=mentions_only())
        await self._tell_channel(interaction, reply, pressed)
        await self._say_unreachable(interaction)

    async def _update_sign_up(
        self, interaction: discord.Interaction, reply: Reply, tournament_id: int
    ) -> bool:
        """Edit the channel's sign-up card of ``tournament_id`` to ``reply`` (a typed join or
        leave: the new list, its count right); ``False`` when none is known here or it is
        gone (then the answer is a new card)."""
        channel = interaction.channel_id
        if channel is None:
            return False
        cards = await self.manager.posts_for(
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

    async def _say_unreachable(self, interaction: discord.Interaction) -> None:
        """Where the bot cannot post by itself (only answer interactions), name once the
        players whom notices reached neither there nor privately (see
        :mod:`bot.adapters.discord.reach`)."""
        channel = interaction.channel_id
        if channel is not None and _foreign(interaction):
            # Known now: no refused request to learn it (a DM between users for good).
            self.reach.refused(channel, for_good=bool(interaction.context.private_channel))
        missed = self.reach.take_unreachable(channel) if channel is not None else []
        if missed and channel is not None:
            line = markdown(texts.unreachable(missed))[:TEXT_LIMIT]
            if self.followups.left(interaction) == 0:
                for mention in missed:  # no followup left: said at the next interaction
                    self.reach.unreachable(channel, mention)
            else:
                await self.followups.send(interaction, line, allowed_mentions=mentions_only())

    async def _accept_into_thread(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        out: _Outgoing,
        deferred: bool,
        pressed: ActionKind | None,
    ) -> bool:
        """An accepted challenge whose game can have its own thread: the card, closed, stays
        in the channel and says so; the thread is started from it and the board posted there
        (see :mod:`bot.adapters.discord.threads`).  When Discord refuses the thread the card
        becomes the board after all.  ``False`` (nothing done) where threads are not
        possible."""
        message, facts, game = interaction.message, reply.facts, out.board
        if pressed is not ActionKind.ACCEPT or message is None or facts is None or game is None:
            return False
        if not can_thread(interaction):
            return False
        note = markdown(texts.game_in_thread(game))
        closed: dict[str, Any] = {
            "content": f"{out.fields.get('content', '')}\n{note}".strip()[:TEXT_LIMIT],
            "embed": None,
            "attachments": [],
            "view": None,
            "allowed_mentions": mentions_only(),
        }
        if deferred:
            await interaction.edit_original_response(**closed)
        else:
            await interaction.response.edit_message(**closed)
        if not await self._into_thread(message, facts, out):
            # No thread after all (Discord refused): the card becomes the board.
            out = await self._compose(reply, user_of(interaction.user))
            await interaction.edit_original_response(**_as_board_edit(out.fields))
            await self._remember(interaction, out, message.id)
        if reply.challenge_id is not None:
            await self._close_cards(reply, message)
        return True

    async def _into_thread(
        self, message: discord.Message, facts: GameFacts, out: _Outgoing
    ) -> bool:
        """Start the game's thread from its challenge card ``message`` and post the board
        there; ``False`` when Discord refused."""
        try:
            thread = await message.create_thread(
                name=thread_name_of(facts), auto_archive_duration=ARCHIVE_AFTER
            )
        except (discord.HTTPException, ValueError) as exc:
            log.info("no thread for game %s: %s", out.board, exc)
            return False
        # The thread itself, first: the outbox's notices about the game go there too.
        await self.manager.remember_post(
            PLATFORM, str(thread.id), str(message.id), PostKind.THREAD, game_id=out.board
        )
        try:
            sent = await thread.send(**out.fields)
        except (discord.HTTPException, ValueError) as exc:
            log.info("no board in the thread of game %s: %s", out.board, exc)
            return False
        await self.manager.remember_post(
            PLATFORM, str(thread.id), str(sent.id), PostKind.BOARD, game_id=out.board
        )
        return True

    async def _tell_channel(
        self, interaction: discord.Interaction, reply: Reply, pressed: ActionKind | None
    ) -> None:
        """A game played in its own thread just ended there: its channel is told the result
        (one line, pinging nobody)."""
        parent = parent_of(interaction)
        facts = reply.facts
        command = interaction.command.name if interaction.command is not None else None
        ending = pressed in _ENDING or command in _ENDING_COMMANDS
        if parent is None or not ending or not reply.ok or facts is None:
            return
        if facts.result is None or not reply.offers(ActionKind.REMATCH):
            return
        line = texts.thread_result(thread_name_of(facts), facts.result)
        try:
            await self.get_partial_messageable(parent).send(
                markdown(line)[:TEXT_LIMIT], allowed_mentions=mentions_only()
            )
        except discord.HTTPException as exc:
            log.info("could not tell channel %s the result of #%s: %s", parent, facts.game_id, exc)

    async def _remember(
        self, interaction: discord.Interaction, out: _Outgoing, message_id: int
    ) -> None:
        """Remember a public message that shows a board or a card (in the store, so it is
        known after a restart); a game's older boards lose their buttons."""
        if out.board is None and out.card is None:
            return
        channel = str(interaction.channel_id or 0)
        now = self._token_time()
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

    async def _close_cards(
        self, reply: Reply, pressed: discord.Message | None, *, board: Post | None = None
    ) -> None:
        """A challenge was answered on one of its cards (``pressed``, edited by the caller;
        ``board``: the copy that became the game's board): every other copy says the answer
        too (an expired challenge's are edited by the outbox's sender), and none of them is
        a live card any more."""
        if reply.challenge_id is None:
            return
        cards = await self.manager.posts_for(
            PLATFORM, challenge_id=reply.challenge_id, kind=PostKind.CARD
        )
        fields = copy_fields(reply)
        done = {str(pressed.id) if pressed else "", board.message_id if board else ""}
        for card in cards:
            if card.message_id not in done:
                await self.edit_post(card, **fields)
        await self.manager.retire_posts(cards)

    async def _accept_from_dm(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        out: _Outgoing,
        deferred: bool,
        pressed: ActionKind | None,
    ) -> bool:
        """Accepted on the opponent's private card (their DM with the bot) while the
        challenge has a card elsewhere: the game belongs to the chat the challenge was made
        in, so its card there becomes the game's board (seen by both players, with Move) and
        the pressed card says the game has begun; when Discord refuses that edit (a channel
        out of the bot's reach, the card deleted) the pressed card becomes the board after
        all.  ``False`` (nothing done) when there is no such card."""
        message, game, challenge = interaction.message, out.board, reply.challenge_id
        if pressed is not ActionKind.ACCEPT or message is None or game is None:
            return False
        if challenge is None or not chat_here(interaction).direct:
            return False
        cards = await self.manager.posts_for(PLATFORM, challenge_id=challenge, kind=PostKind.CARD)
        home = next((c for c in cards if c.chat_id != str(message.channel.id)), None)
        if home is None:
            return False
        if not deferred:
            # Discord's 3 s run while the other card is edited: the pressed one waits.  A
            # component's deferred update (type 6) is edited later as the original response,
            # which "will edit the message the component is on" (discord.py's defer notes,
            # gist cibere/7e1356575780e716d2e3a23ea2bcf6da; JDA's deferEdit alike).
            await interaction.response.defer()
        if await self.edit_post(home, **_as_board_edit(out.fields)):
            older = await self.manager.remember_post(
                PLATFORM, home.chat_id, home.message_id, PostKind.BOARD, game_id=game
            )
            for post in older:  # only the latest board of a game keeps live buttons
                await self.edit_post(post, view=None)
            await interaction.edit_original_response(**copy_fields(reply))
            await self._close_cards(reply, message, board=home)
        else:
            await interaction.edit_original_response(**_as_board_edit(out.fields))
            await self._remember(interaction, out, message.id)
            await self._close_cards(reply, message)
        return True

    async def _close_stale_card(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        deferred: bool,
        pressed: ActionKind | None,
    ) -> bool:
        """A card's Accept / Decline pressed after its challenge expired, was declined or
        cancelled (a card no edit could reach: in a chat the bot is not in, its token long
        expired): the press's own response edits that card to the answer, buttons gone, for
        everyone (a component's "update message" response edits the message it is on,
        whoever's).  ``False`` for any other refusal (not the presser's challenge; already
        accepted), answered privately."""
        custom_id = interaction.data.get("custom_id") if interaction.data else None
        if pressed is None or not pressed.on_card or not isinstance(custom_id, str):
            return False
        challenge = Action("", custom_id).subject
        if challenge is None:
            return False
        # Never an accepted one: its pressed card may be the game's board by now (a second
        # press of Accept racing the first), which the board must stay.
        closing = (texts.challenge_closed(challenge, status) for status in _CLOSED)
        if reply.body not in (texts.challenge_expired(challenge), *closing):
            return False
        closed = closed_fields(reply)
        if deferred:
            await interaction.edit_original_response(**closed)
        else:
            await interaction.response.edit_message(**closed)
        return True

    def _token_time(self) -> float:
        """Seconds on the manager's clock, which times the interaction tokens' lifetime (the
        real clock in production; a test's clock moves the tokens' age with the games')."""
        return self.manager.now().timestamp()

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
        if fresh is not None and self._token_time() - fresh[1] < TOKEN_LIFETIME:
            try:
                await fresh[0].followup.edit_message(message_id, **fields)
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
        self, interaction: discord.Interaction, command: Command, args: Args
    ) -> None:
        """A slash command of the registry: its manager call with the options as typed values,
        answered privately where the command says so."""
        manager = self.manager

        async def call(user: User, chat: Chat) -> Reply:
            return await command.run(manager, user, chat, args)

        mode = Mode.PRIVATE if command.private(args) else Mode.PUBLIC
        name = f"hexhall-{args.game_id or 'game'}.txt" if command.record else None
        await self._run(interaction, call, mode, file_name=name, board=command.board_card)

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
            if (kind is not None and (kind.on_card or kind.updates_card)) or browsing
            else Mode.PRIVATE
            if kind in _PRIVATE
            else Mode.SETTLE
            if kind is not None and kind.plays
            else Mode.PUBLIC
        )

        async def press(user: User, chat: Chat) -> Reply:
            return await manager.press(user, chat, action_id)

        await self._run(interaction, press, mode, pressed=kind, board=kind is not ActionKind.BROWSE)

    # -- the move picker (see bot.adapters.discord.picker) --------------------------------

    async def _soon(
        self, interaction: discord.Interaction, work: Awaitable[Any], *, new: bool
    ) -> tuple[Any, bool]:
        """``work``'s result, deferring the interaction first when it is slow (Discord's 3 s);
        ``new``: the answer is a new private message, else the pressed message edited."""
        task = asyncio.ensure_future(work)
        waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        budget = self.defer_after - min(max(waited, 0.0), self.defer_after)
        if budget > 0 and (await asyncio.wait({task}, timeout=budget))[0]:
            return task.result(), False
        if new:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
        return await task, True

    async def _private_line(
        self, interaction: discord.Interaction, reply: Reply, deferred: bool, *, new: bool
    ) -> None:
        """A refusal, privately to the presser (the pressed message is left as it was)."""
        text = markdown(reply.body)[:TEXT_LIMIT]
        if deferred and new:
            await interaction.edit_original_response(content=text, allowed_mentions=mentions_only())
        elif deferred:
            await self.followups.send(
                interaction, text, ephemeral=True, allowed_mentions=mentions_only()
            )
        else:
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=mentions_only()
            )

    async def _pick(self, interaction: discord.Interaction, action_id: str, *, new: bool) -> None:
        """A picker step: from a board's Move button a new private message (``new``), from
        the picker itself the same message, edited; a whole move goes to its preview."""
        user, chat = user_of(interaction.user), chat_here(interaction)
        manager = self.manager

        async def step_or_preview() -> Picker | Reply:
            step = await manager.pick(user, chat, action_id)
            if isinstance(step, Picker) and step.prefix and not step.parts and not new:
                # Nothing can follow: the move is whole, show what it does.
                return await manager.preview(user, chat, step.prefix, step.game_id)
            return step

        step, deferred = await self._soon(interaction, step_or_preview(), new=new)
        if isinstance(step, Reply) and step.ok:
            await self._show_preview(interaction, step, deferred)
            return
        if isinstance(step, Reply):
            await self._private_line(interaction, step, deferred, new=new)
            return
        assert isinstance(step, Picker)
        fields: dict[str, Any] = {
            "content": discord.utils.escape_markdown(step.text),
            "view": picker_view(step, ActionButton),
            "allowed_mentions": mentions_only(),
        }
        if new and not deferred:
            await interaction.response.send_message(**fields, ephemeral=True)
        elif new:
            await interaction.edit_original_response(**fields)
        elif deferred:
            await interaction.edit_original_response(**fields, embed=None, attachments=[])
        else:
            await interaction.response.edit_message(**fields, embed=None, attachments=[])

    async def on_preview(
        self, interaction: discord.Interaction, game_id: int, ply: int, move: str
    ) -> None:
        """The picker's preview button: the board after ``move`` in place of the picker,
        with Play it / Cancel, if the game is still at ``ply`` and the presser to move."""
        user, chat = user_of(interaction.user), chat_here(interaction)

        async def check_and_preview() -> Reply:
            try:
                step_id = Action.make("", ActionKind.PICK_STEP, game_id, ply, 0, PREFIX_MARK + move)
            except ValueError:
                return Reply.refuse(texts.NOT_MY_BUTTON)
            step = await self.manager.pick(user, chat, step_id.id)
            if isinstance(step, Reply):
                return step
            return await self.manager.preview(user, chat, move, game_id)

        reply, deferred = await self._soon(interaction, check_and_preview(), new=False)
        await self._show_preview(interaction, reply, deferred)

    async def _show_preview(
        self, interaction: discord.Interaction, reply: Reply, deferred: bool
    ) -> None:
        """A preview in place of the (private) picker; a refusal privately beside it."""
        if not reply.ok:
            await self._private_line(interaction, reply, deferred, new=False)
            return
        out = await self._compose(reply, user_of(interaction.user))
        edit = dict(out.fields)
        edit["attachments"] = [edit.pop("file")] if "file" in edit else []
        edit.setdefault("content", "")
        edit.setdefault("embed", None)
        edit.setdefault("view", None)
        if deferred:
            await interaction.edit_original_response(**edit)
        else:
            await interaction.response.edit_message(**edit)
