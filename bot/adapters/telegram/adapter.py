"""The Telegram adapter: python-telegram-bot handlers that turn each update into one session
manager call and the manager's reply into Telegram messages.

No game rules and no sentences about games live here: the manager decides and words
everything; this module only chooses Telegram's form (a photo with a caption and buttons, an
edited challenge card, a keyboard for the move picker, an alert for a refused button).  Errors
of any handler are answered and logged in one place (:meth:`TelegramAdapter.on_error`), with
the update id and never the token.

The inline buttons' handling is :mod:`~bot.adapters.telegram.buttons` (a part of the adapter
class); showing a reply in a chat, :mod:`~bot.adapters.telegram.posting` (another part of
it); the command menu and ``/help`` text, :mod:`~bot.adapters.telegram.menu`; Telegram's
users and chats as the manager's, :mod:`~bot.adapters.telegram.identity`.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import Sequence
from typing import Any

from telegram import (
    BotCommand,
    Message,
    Update,
)
from telegram import User as TgUser
from telegram.constants import ChatType
from telegram.error import ChatMigrated, Forbidden, RetryAfter, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.adapters.commands import REGISTRY, Command, Surface, menu, run_words, split_id
from bot.adapters.redact import REDACTOR, TokenRedactor, hide
from bot.adapters.telegram import languages, offers, removal, topics, watch
from bot.adapters.telegram.buttons import ButtonHandlers
from bot.adapters.telegram.format import (
    ALLOWED_UPDATES,
    PLATFORM,
)
from bot.adapters.telegram.identity import chat_of, tg_chat, tg_user
from bot.adapters.telegram.menu import COMMANDS, help_of, menu_of
from bot.adapters.telegram.pacing import ChatPacer, answer_flood, retry_seconds
from bot.adapters.telegram.posting import DM_START, Posting
from bot.adapters.telegram.questions import Questions, asks
from bot.adapters.telegram.reading import (
    RefusedMoves,
    game_choice_markup,
    reads_like_move,
    replied_person,
)
from bot.adapters.telegram.taps import Taps
from bot.adapters.telegram.toasts import marked, toast
from bot.adapters.typed import command_word, unknown
from bot.core.i18n import N_, gettext
from bot.core.lru import Lru
from bot.delivery.outbox import Outbox
from bot.messages import Action, Reply, ReplyKind, User
from bot.sessions.manager import SessionManager
from bot.workers import worker_name

__all__ = [
    "ALLOWED_UPDATES",
    "COMMANDS",
    "DEFAULT_API_URL",
    "DEFAULT_FILE_URL",
    "TelegramAdapter",
    "TelegramUnavailable",
    "TokenRedactor",
    "tg_chat",
    "tg_user",
]

log = logging.getLogger(__name__)

App = Application[Any, Any, Any, Any, Any, Any]
Context = ContextTypes.DEFAULT_TYPE

#: Telegram's Bot API (the library appends the token).
DEFAULT_API_URL = "https://api.telegram.org/bot"
DEFAULT_FILE_URL = "https://api.telegram.org/file/bot"
#: Games whose latest board caption this process remembers (least recently used first out).
CACHED_CAPTIONS = 2000
#: Telegram users this process remembers by @username (least recently seen first out).
CACHED_USERNAMES = 10_000


_ERROR_TEXT = N_("Sorry, something went wrong on my side. Please try again.")
_WHICH_GAME = N_("Which game? Tap one, or /challenge <game> [@username].")
_MIGRATED_TEXT = N_("This group became a supergroup: its games go on there (use the boards there).")
_REMOVED_TEXT = N_("Done, but I can no longer post in that group: I was removed from it.")
_BOT_WORD = "bot"


class TelegramUnavailable(RuntimeError):
    """The bot cannot connect to Telegram (a wrong token, the Bot API unreachable)."""


class TelegramAdapter(Posting, ButtonHandlers):
    """The handlers of one bot on one :class:`SessionManager` (see the module docstring).

    Build it with :meth:`build`; :attr:`application` is the python-telegram-bot application
    (tests drive it with ``start()`` and ``updater.start_polling()``; :meth:`run` does both).
    """

    def __init__(
        self,
        manager: SessionManager,
        application: App,
        token: str,
        registry: Sequence[Command] = REGISTRY,
    ) -> None:
        self.manager = manager
        self.application = application
        self._token = token
        #: the short name of the web board's Mini App (BotFather's /newapp; "" when none)
        self.web_app = ""
        # The caption of each game's latest board this process sent (a double press that
        # gets the same answer again is not shown twice); which message that board is lives
        # in the store (bot.sessions.posts), so its buttons can be taken away after a restart.
        self._captions: Lru[int, str] = Lru(CACHED_CAPTIONS)
        # Telegram has no look-up by @username: remember the people this process has seen
        # (the most recently seen ones: the map is bounded like every cache).
        self._known: Lru[str, User] = Lru(CACHED_USERNAMES)
        # The messages whose move was refused: an edit of one is handled as the new move.
        self._refused = RefusedMoves()
        # Questions asked of one presser (resign? a move that loses?), never on shared boards.
        self.questions = Questions(manager)
        #: Taps being handled or handled a moment ago: a double tap has one effect.
        self.taps = Taps()
        app = application
        offered = menu(Surface.TELEGRAM, registry)
        #: The commands this bot offers, by their name on Telegram.
        self.commands = {command.slash: command for command in offered}
        self.menu = menu_of(registry)
        self.help = help_of(registry)
        self.registry = registry
        # Before every update's handlers: whose language its answers are said in (issue 43).
        app.add_handler(TypeHandler(Update, self._speak), group=-1)
        app.add_handler(CommandHandler(("start", "help"), self.on_start))
        app.add_handler(CommandHandler("challenge", self.on_challenge))
        app.add_handler(CommandHandler("stats", self.on_stats))
        others = tuple(name for name in self.commands if name not in ("challenge", "stats"))
        app.add_handler(CommandHandler(others, self.on_command))
        app.add_handler(CallbackQueryHandler(self.on_button))
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.on_migrate))
        app.add_handler(removal.member_handler(manager))
        app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, self.on_text))
        app.add_handler(
            MessageHandler(filters.COMMAND & filters.ChatType.PRIVATE, self.on_unknown_command)
        )
        app.add_error_handler(self.on_error)
        # After every update's handler (group 0): what it queued is delivered at once.
        app.add_handler(TypeHandler(Update, self._wake_outbox), group=1)
        #: The outbox delivering this platform's notifications (woken after each update).
        self.outbox: Outbox | None = None
        # Who claims a move's committed board while answering it, without an outbox.
        self._owner = worker_name()

    @classmethod
    def build(
        cls,
        manager: SessionManager,
        token: str,
        *,
        api_url: str = DEFAULT_API_URL,
        file_url: str = DEFAULT_FILE_URL,
        rate_limiter: BaseRateLimiter[Any] | None = None,
        registry: Sequence[Command] = REGISTRY,
    ) -> TelegramAdapter:
        """The adapter with an application for ``token`` at ``api_url`` / ``file_url``.

        ``rate_limiter`` defaults to :class:`~bot.adapters.telegram.pacing.ChatPacer` with
        Telegram's limits, per chat (a 429 in one chat never holds another up), retrying
        flood-control answers (``RetryAfter``) a few times.
        """
        # httpx logs every request URL at INFO, and the URL holds the token.
        logging.getLogger("httpx").setLevel(logging.WARNING)
        logging.getLogger("httpcore").setLevel(logging.WARNING)
        hide(token)
        builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] = (
            ApplicationBuilder()
            .token(token)
            .base_url(api_url)
            .base_file_url(file_url)
            .rate_limiter(rate_limiter or ChatPacer())
            .concurrent_updates(True)
        )
        return cls(manager, builder.build(), token, registry)

    async def connect(self) -> None:
        """Connect (``getMe``), register the command menu and start the application: ready
        for updates from long polling (:meth:`start`) or a webhook
        (:mod:`bot.adapters.telegram.webhook`)."""
        app = self.application
        try:
            await app.initialize()
        except TelegramError as exc:
            # The library's message names the problem, never the token.
            raise TelegramUnavailable(
                REDACTOR.redact(f"cannot connect to Telegram: {type(exc).__name__}: {exc}")
            ) from None
        try:
            await app.bot.set_my_commands([BotCommand(n, d) for n, d in self.menu])
        except TelegramError as exc:  # the menu is a convenience: play on without it
            log.warning("could not register the command menu: %s", type(exc).__name__)
        await languages.register(app.bot, self.registry)
        await app.start()

    async def start(self, *, poll_timeout: int = 30) -> None:
        """:meth:`connect` and start long polling (which deletes a webhook, if one is set)."""
        await self.connect()
        app = self.application
        assert app.updater is not None
        await app.updater.start_polling(
            poll_interval=0, timeout=poll_timeout, allowed_updates=list(ALLOWED_UPDATES)
        )

    async def stop(self) -> None:
        """Stop polling (confirming what was handled) and close the connection."""
        await self.questions.close()
        app = self.application
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
        await app.shutdown()

    async def run(self, stop: asyncio.Event, *, poll_timeout: int = 30) -> None:
        """Poll Telegram and handle updates until ``stop`` is set."""
        await self.start(poll_timeout=poll_timeout)
        try:
            await stop.wait()
        finally:
            await self.stop()

    async def _speak(self, update: Update, context: Context) -> None:
        await languages.speak(self.manager, self.application.bot, update)

    async def _wake_outbox(self, update: Update, context: Context) -> None:
        if self.outbox is not None:
            self.outbox.wake()

    # ------------------------------------------------------------------ people

    def _remember(self, user: TgUser | None) -> None:
        if user is not None and user.username and not user.is_bot:
            self._known[user.username.lower()] = tg_user(user)

    # ------------------------------------------------------------------ commands

    async def on_start(self, update: Update, context: Context) -> None:
        """``/start`` and ``/help``: how to play; ``/start dm`` (the card's link) also turns
        direct messages on."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or update.edited_message is not None:
            return
        self._remember(user)
        # The user opened the bot: direct messages Telegram refused before may reach them now.
        await watch.reachable(self.manager, tg_user(user))
        picking = watch.started_picker(list(context.args or []))
        if picking is not None and message.chat.type == ChatType.PRIVATE:
            await self._start_picker(message, tg_user(user), picking)
            return
        if context.args == [DM_START]:
            reply = await self.manager.players.settings(tg_user(user), "dm", "on")
            await self._send_text(
                message.chat_id,
                f"{reply.text}\n\n{help_of(self.registry)}",
                thread=topics.topic_of(message),
            )
            return
        await self._send_text(
            message.chat_id, help_of(self.registry), thread=topics.topic_of(message)
        )

    async def _start_picker(self, message: Message, user: User, game_id: int) -> None:
        """``/start pk<game>`` (the link a Move tap in a group answered with): the game's
        move picker here, in our private chat; a refusal (not their turn any more) in one
        line."""
        step = await self.manager.games.pick(user, chat_of(message), f"pk:{game_id}")
        if isinstance(step, Reply):
            await self._send_text(message.chat_id, step.text)
            return
        await watch.private_picker(self.manager, self.application.bot, message.chat_id, step)

    async def on_challenge(self, update: Update, context: Context) -> None:
        """``/challenge <game> [@username|bot] [option=value ...]`` (or as a reply to the
        invited person's message).  A username this process has not seen is invited by name:
        Telegram has no look-up by username, so the manager matches it when they accept."""
        message, sender = update.effective_message, update.effective_user
        if message is None or sender is None or update.edited_message is not None:
            return
        self._remember(sender)
        words = list(context.args or [])
        named = [w for w in words if w.startswith("@")]
        against_bot = any(w.lower() == _BOT_WORD for w in words)
        rest = [w for w in words if not w.startswith("@") and w.lower() != _BOT_WORD]
        # Never the opening message of a forum topic: every message there replies to it.
        replied = replied_person(message)
        chosen: User | None = None
        if against_bot:
            who = _BOT_WORD
        elif named:
            who = named[0]
            chosen = self._known.get(who[1:].lower())  # by id once known
        elif replied is not None:
            self._remember(replied)
            who, chosen = "them", tg_user(replied)
        else:
            who = "open"
        if not rest and not named and not against_bot and replied is None:
            # A bare /challenge (as the command menu sends it): the games as buttons.
            await self._send_text(
                message.chat_id,
                gettext(_WHICH_GAME),
                game_choice_markup(sender.id),
                thread=topics.topic_of(message),
            )
            return
        if not rest:
            await self._send_text(
                message.chat_id, gettext(_WHICH_GAME), thread=topics.topic_of(message)
            )
            return

        def named_user(_: str) -> User | None:
            return chosen  # None for an unknown @username: invited by name

        chat = chat_of(message)
        reply = await run_words(
            self.manager, tg_user(sender), chat, "challenge", [who, *rest], named_user
        )
        await self.send(message.chat_id, reply, thread=topics.topic_of(message))

    async def on_stats(self, update: Update, context: Context) -> None:
        """``/stats [@username]`` (or as a reply to the player's message): ratings, results and
        the rating chart as a photo."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or update.edited_message is not None:
            return
        self._remember(user)
        args = list(context.args or [])
        replied = replied_person(message)
        player: User | None = None
        if args:
            player = self._known.get(args[0].removeprefix("@").lower())
        elif replied is not None:
            self._remember(replied)
            player = tg_user(replied)
        words = args if args or player is None else ["them"]

        def named_user(_: str) -> User | None:
            return player

        reply = await run_words(
            self.manager,
            tg_user(user),
            chat_of(message),
            "stats",
            words,
            named_user,
        )
        await self.send(message.chat_id, reply, thread=topics.topic_of(message))

    async def on_command(self, update: Update, context: Context) -> None:
        """A command of the registry (``/move``, ``/board`` ...): its words, as Telegram split
        them, read by the command's typed parser, then one manager call."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not message.text:
            return
        self._remember(user)
        name = message.text.split()[0][1:].split("@")[0].lower()
        command = self.commands.get(name)
        if command is None or not self._fresh_or_retry(update, message, command.name == "move"):
            return
        chat = chat_of(message)
        words = list(context.args or [])
        by_name = {command.name: command}
        if command.name == "tournament" and _leaving(words) and message.chat_id < 0:
            # Leaving is asked of the leaver alone first (issue 45), never for all to see.
            number = words[1].lstrip("#") if len(words) > 1 else ""
            tid = int(number) if number.isdigit() and len(number) < 12 else None
            reply = await self.manager.tournaments.tournament_leave_question(
                tg_user(user), chat, tid
            )
        else:
            reply = await run_words(
                self.manager, tg_user(user), chat, command.name, words, _no_one, commands=by_name
            )
        if reply.kind is ReplyKind.RECORD and reply.ok:
            name = f"hexhall-{reply.game_id or 'game'}.txt"
            await self.application.bot.send_document(
                message.chat_id, reply.text.encode(), filename=name,
                message_thread_id=topics.topic_of(message),
            )  # fmt: skip
            return
        if asks(reply) and message.chat.type != ChatType.PRIVATE:
            # A question (a typed /resign) is its asker's alone: privately, never for all.
            await self.questions.ask_typed(message, tg_user(user), reply)
            return
        await offers.after_typed(self.application.bot, self.manager, command.name, reply)
        if command.name == "move":
            self._note_move(message, reply)
        await self.send(
            message.chat_id,
            reply,
            dedupe=command.name == "move",
            thread=topics.topic_of(message),
            asker=tg_user(user),
        )

    def _fresh_or_retry(self, update: Update, message: Message, is_move: bool) -> bool:
        """Whether to handle ``message``: a new one, or an edit of a move that was refused
        (an edit of anything else changes nothing here)."""
        if update.edited_message is None:
            return True
        return is_move and self._refused.take((message.chat_id, message.message_id))

    def _note_move(self, message: Message, reply: Reply) -> None:
        """Remember a refused move's message (an edit of it retries the move)."""
        if not reply.ok:
            self._refused.add((message.chat_id, message.message_id))

    async def on_unknown_command(self, update: Update, context: Context) -> None:
        """A command this bot does not have, in a private chat (in a group it may be another
        bot's): the one-line answer, with the nearest command when there is one."""
        message = update.effective_message
        if message is None or not message.text or update.edited_message is not None:
            return
        word = command_word(message.text)
        if word in ("start", "help") or word in self.commands:
            return
        await self._send_text(
            message.chat_id,
            unknown(f"/{word}", tuple(self.commands)),
            thread=topics.topic_of(message),
        )

    async def on_text(self, update: Update, context: Context) -> None:
        """A move without the command: a reply to the bot's board, or any text in a private
        chat with the bot (``#42 e5`` names the game)."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not message.text:
            return
        self._remember(user)
        replied = message.reply_to_message
        author = replied.from_user if replied is not None else None
        to_bot = author is not None and author.id == self.application.bot.id
        private = message.chat.type == ChatType.PRIVATE
        if not private and not to_bot:
            return
        if not self._fresh_or_retry(update, message, True):
            return
        game_id, words = split_id(message.text.split(), digits=False)
        if not private and not reads_like_move(words):
            return  # talk under a board ("nice move!"): no answer
        if game_id is None and replied is not None and to_bot:
            game_id = _game_of(replied)
        reply = await self.manager.games.move(
            tg_user(user),
            chat_of(message),
            " ".join(words),
            game_id,
        )
        self._note_move(message, reply)
        if asks(reply) and not private:  # a move that loses: asked of its player alone
            await self.questions.ask_typed(message, tg_user(user), reply)
            return
        await self.send(
            message.chat_id,
            reply,
            dedupe=True,
            thread=topics.topic_of(message),
            asker=tg_user(user),
        )

    async def on_migrate(self, update: Update, context: Context) -> None:
        """A group became a supergroup (a new chat id): its games, challenges and posts move
        to the new id.  Telegram sends this in both chats; the second finds nothing left."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id is not None:
            old, new = message.chat_id, message.migrate_to_chat_id
        elif message.migrate_from_chat_id is not None:
            old, new = message.migrate_from_chat_id, message.chat_id
        else:
            return
        moved = await self.manager.posts.move_chat(PLATFORM, str(old), str(new))
        log.info("chat %s became %s: %d rows moved", old, new, moved)

    # ------------------------------------------------------------------ errors

    async def on_error(self, update: object, context: Context) -> None:
        """Every handler error: logged with the update id (token redacted), answered briefly.
        A group that became a supergroup, or that removed the bot, is said as such: what the
        manager did before the bot posted is stored, so "try again" would be wrong."""
        error = context.error
        update_id = update.update_id if isinstance(update, Update) else None
        answer = _ERROR_TEXT
        if isinstance(error, RetryAfter):
            # Flood control in that chat, past the pacer's retries: whatever the update
            # changed is stored, and a board it made is with the outbox (released by
            # answering()), posted when the chat may have it.  Never "try again" for that.
            log.info("update %s: flood control, %gs", update_id, retry_seconds(error))
            await answer_flood(update.callback_query if isinstance(update, Update) else None)
            return
        if isinstance(error, ChatMigrated):
            answer = _MIGRATED_TEXT
            log.info("update %s: a group moved to %s", update_id, error.new_chat_id)
        elif isinstance(error, Forbidden):
            answer = _REMOVED_TEXT
            log.info("update %s: a chat refused the bot: %s", update_id, error.message)
        else:
            detail = "".join(traceback.format_exception(error)) if error else "no exception"
            detail = REDACTOR.redact(detail)
            log.error("update %s failed: %s", update_id, detail)
        if not isinstance(update, Update):
            return
        try:
            if update.callback_query is not None:
                await toast(update.callback_query, marked(answer), alert=True)
            elif update.effective_chat is not None:
                await self.application.bot.send_message(
                    update.effective_chat.id, gettext(answer),
                    message_thread_id=topics.topic_of(update.effective_message),
                )  # fmt: skip
        except TelegramError as exc:
            log.warning("update %s: could not say so: %s", update_id, type(exc).__name__)


def _leaving(words: list[str]) -> bool:
    """Whether ``/tournament`` words ask to leave one (``leave [id]``)."""
    return bool(words) and words[0].lower() == "leave"


def _no_one(name: str) -> User:
    # Typed commands other than /challenge never name a player.
    return User(PLATFORM, name, name)


def _game_of(message: Message) -> int | None:
    """The game a bot message is about, read from its buttons' ids (survives a restart)."""
    markup = message.reply_markup
    if markup is None:
        return None
    for row in markup.inline_keyboard:
        for button in row:
            data = button.callback_data if isinstance(button.callback_data, str) else None
            action = Action("", data) if data else None
            # A challenge's or a tournament's card names the challenge or tournament.
            kind = None if action is None else action.kind
            if action is None or kind is None or kind.on_card or kind.updates_card:
                continue
            if action.subject is not None:
                return action.subject
    return None
