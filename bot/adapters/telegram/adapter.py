"""The Telegram adapter: python-telegram-bot handlers that turn each update into one session
manager call and the manager's reply into Telegram messages.

No game rules and no sentences about games live here: the manager decides and words
everything; this module only chooses Telegram's form (a photo with a caption and buttons, an
edited challenge card, a keyboard for the move picker, an alert for a refused button).  Errors
of any handler are answered and logged in one place (:meth:`TelegramAdapter.on_error`), with
the update id and never the token.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from telegram import (
    BotCommand,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)
from telegram import User as TgUser
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest, TelegramError
from telegram.ext import (
    AIORateLimiter,
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

import engines
from bot.adapters.commands import execute, split_id
from bot.adapters.telegram.format import (
    CAPTION_LIMIT,
    PLATFORM,
    TEXT_LIMIT,
    html_text,
    keyboard,
    rows_of,
)
from bot.delivery.outbox import Outbox
from bot.messages import Action, Chat, Reply, Text, User, parse_action, sections
from bot.sessions.manager import SessionManager
from bot.sessions.picker import Picker

__all__ = [
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

#: The command menu registered with ``setMyCommands`` (name, what the menu says).
COMMANDS: tuple[tuple[str, str], ...] = (
    ("start", "Start the bot (and get your turns privately)"),
    ("help", "How to play here"),
    ("games", "The five games"),
    ("rules", "The rules of a game: /rules <game>"),
    ("challenge", "Challenge: /challenge <game> [@user] [option=value]"),
    ("move", "Play a move: /move [#game] <move>"),
    ("board", "Show the board: /board [#game]"),
    ("history", "The moves so far: /history [#game]"),
    ("resign", "Resign: /resign [#game]"),
    ("draw", "Offer or answer a draw: /draw [#game] [accept|decline]"),
    ("undo", "Ask to take back your move: /undo [#game] [accept|decline]"),
    ("rematch", "Ask for a rematch: /rematch [#game]"),
    ("mygames", "Your games"),
    ("settings", "Your notification settings"),
    ("away", "Go on vacation: /away <days>"),
    ("back", "End your vacation"),
    ("export", "The game record as a file: /export [#game]"),
)

HELP = """Play hex games by correspondence with your friends.

/challenge <game> [@username] [option=value ...] [first=me|them|random] [days=none|1|3|7|14]
  (or reply to someone's message with /challenge <game>; with nobody named anyone can accept)
Tap Accept on the challenge card to start the game.
To move: tap Move under the board and choose the parts of your move, or reply to the board
with your move, or /move [#game] <move> (in a private chat with me, just type the move).
/board /history /resign /draw /undo /rematch take an optional #game.
/mygames   /settings [dm on|off | reminders on|off | quiet 22:00-07:00 +01:00|off]
/away <days>   /back   /export [#game]   /games   /rules <game>"""

# Typed commands handed to the shared parser (bot.adapters.commands) under its own words.
_TYPED = {
    "move": "move",
    "board": "board",
    "history": "history",
    "resign": "resign",
    "draw": "draw",
    "undo": "takeback",
    "rematch": "rematch",
    "mygames": "games",
    "settings": "settings",
    "away": "away",
    "back": "back",
    "export": "export",
    "rules": "rules",
}
_ERROR_TEXT = "Sorry, something went wrong on my side. Please try again."
_DM_START = "dm"
# A board whose buttons include resigning is the live board of an active game.
_LIVE_KIND = "rs"


def tg_user(user: TgUser) -> User:
    """The manager's user for a Telegram user."""
    return User(PLATFORM, str(user.id), user.full_name or str(user.id))


def tg_chat(chat_id: int) -> Chat:
    """The manager's chat for a Telegram chat id."""
    return Chat(PLATFORM, str(chat_id))


class TelegramUnavailable(RuntimeError):
    """The bot cannot connect to Telegram (a wrong token, the Bot API unreachable)."""


class TokenRedactor(logging.Filter):
    """Replaces the bot token in a log record's message and traceback with ``***``."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite ``record`` without the token; always keeps it."""
        if not self.token:
            return True
        message = record.getMessage()
        if self.token in message:
            record.msg, record.args = message.replace(self.token, "***"), None
        if record.exc_info and record.exc_info[1] is not None:
            text = "".join(traceback.format_exception(record.exc_info[1]))
            record.exc_text = text.replace(self.token, "***").rstrip("\n")
            record.exc_info = None
        return True


@dataclass
class _Board:
    """The latest board message of a game (only it keeps live buttons)."""

    chat_id: int
    message_id: int
    caption: str


class TelegramAdapter:
    """The handlers of one bot on one :class:`SessionManager` (see the module docstring).

    Build it with :meth:`build`; :attr:`application` is the python-telegram-bot application
    (tests drive it with ``start()`` and ``updater.start_polling()``; :meth:`run` does both).
    """

    def __init__(self, manager: SessionManager, application: App, token: str) -> None:
        self.manager = manager
        self.application = application
        self._token = token
        self._boards: dict[int, _Board] = {}
        self._board_locks: dict[int, asyncio.Lock] = {}
        # Telegram has no look-up by @username: remember the people this process has seen.
        self._known: dict[str, User] = {}
        app = application
        app.add_handler(CommandHandler(("start", "help"), self.on_start))
        app.add_handler(CommandHandler("games", self.on_games))
        app.add_handler(CommandHandler("challenge", self.on_challenge))
        app.add_handler(CommandHandler(tuple(_TYPED), self.on_typed))
        app.add_handler(CallbackQueryHandler(self.on_button))
        app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, self.on_text))
        app.add_error_handler(self.on_error)
        # After every update's handler (group 0): what it queued is delivered at once.
        app.add_handler(TypeHandler(Update, self._wake_outbox), group=1)
        #: The outbox delivering this platform's notifications (woken after each update).
        self.outbox: Outbox | None = None

    @classmethod
    def build(
        cls,
        manager: SessionManager,
        token: str,
        *,
        api_url: str = DEFAULT_API_URL,
        file_url: str = DEFAULT_FILE_URL,
        rate_limiter: BaseRateLimiter[Any] | None = None,
    ) -> TelegramAdapter:
        """The adapter with an application for ``token`` at ``api_url`` / ``file_url``.

        ``rate_limiter`` defaults to the library's :class:`AIORateLimiter` with Telegram's
        limits, retrying flood-control answers (``RetryAfter``) a few times.
        """
        # httpx logs every request URL at INFO, and the URL holds the token.
        logging.getLogger("httpx").setLevel(logging.WARNING)
        logging.getLogger("httpcore").setLevel(logging.WARNING)
        redactor = TokenRedactor(token)
        for handler in logging.getLogger().handlers:
            handler.addFilter(redactor)
        builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] = (
            ApplicationBuilder()
            .token(token)
            .base_url(api_url)
            .base_file_url(file_url)
            .rate_limiter(rate_limiter or AIORateLimiter(max_retries=3))
            .concurrent_updates(True)
        )
        return cls(manager, builder.build(), token)

    async def start(self, *, poll_timeout: int = 30) -> None:
        """Connect (``getMe``), register the command menu and start long polling."""
        app = self.application
        try:
            await app.initialize()
        except TelegramError as exc:
            # The library's message names the problem, never the token.
            raise TelegramUnavailable(
                f"cannot connect to Telegram: {type(exc).__name__}: {exc}".replace(
                    self._token, "***"
                )
            ) from None
        try:
            await app.bot.set_my_commands([BotCommand(n, d) for n, d in COMMANDS])
        except TelegramError as exc:  # the menu is a convenience: play on without it
            log.warning("could not register the command menu: %s", type(exc).__name__)
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=poll_timeout)

    async def stop(self) -> None:
        """Stop polling (confirming what was handled) and close the connection."""
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

    async def _wake_outbox(self, update: Update, context: Context) -> None:
        if self.outbox is not None:
            self.outbox.wake()

    # ------------------------------------------------------------------ sending

    def _remember(self, user: TgUser | None) -> None:
        if user is not None and user.username and not user.is_bot:
            self._known[user.username.lower()] = tg_user(user)

    async def _send_text(
        self, chat_id: int, text: Text | str, markup: InlineKeyboardMarkup | None = None
    ) -> Message:
        body = text if isinstance(text, Text) else Text.of(text)
        pieces = sections(body, TEXT_LIMIT)
        bot = self.application.bot
        sent: Message | None = None
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            sent = await bot.send_message(
                chat_id, html_text(piece), parse_mode=ParseMode.HTML,
                reply_markup=markup if last else None,
            )  # fmt: skip
        assert sent is not None
        return sent

    def _board_markup(self, reply: Reply) -> InlineKeyboardMarkup | None:
        actions = list(reply.actions)
        if reply.game_id is None:
            return keyboard(rows_of(actions))
        gid = reply.game_id
        rows: list[list[Action]] = []
        live = any((parse_action(a.id) or ("",))[0] == _LIVE_KIND for a in actions)
        if live:
            rows.append([Action.make("Move", "pk", gid)])
        rows.extend(rows_of(actions))
        extra = [Action.make("Describe", "ds", gid)] if reply.image is not None else []
        if live:
            extra.insert(0, Action.make("Offer draw", "dro", gid))
        rows.append(extra)
        return keyboard(rows)

    def _card_markup(self, reply: Reply, chat_id: int) -> InlineKeyboardMarkup | None:
        actions = list(reply.actions)
        cid = reply.challenge_id
        cancel = cid is not None and Action.make("Cancel", "can", cid)
        if cancel and cancel not in actions:
            actions.append(cancel)
        extra = []
        username = self.application.bot.username if self.application.bot else None
        if chat_id < 0 and username:
            extra.append(
                InlineKeyboardButton(
                    "Get your turns privately", url=f"https://t.me/{username}?start={_DM_START}"
                )
            )
        return keyboard([actions], extra)

    async def send(self, chat_id: int, reply: Reply, *, dedupe: bool = False) -> Message | None:
        """Show ``reply`` in ``chat_id``: a board as one photo with its caption and buttons
        (older boards of the game lose theirs), a recap as an animation, text otherwise.
        ``dedupe`` skips a board identical to the game's latest one (a double press)."""
        bot = self.application.bot
        if reply.game_id is None or reply.image is None:
            cid = reply.challenge_id
            is_card = cid is not None and any(a.id == f"acc:{cid}" for a in reply.actions)
            markup = self._card_markup(reply, chat_id) if is_card else self._board_markup(reply)
            return await self._send_text(chat_id, reply.body, markup)
        gid = reply.game_id
        caption = reply.text
        lock = self._board_locks.setdefault(gid, asyncio.Lock())
        async with lock:
            previous = self._boards.get(gid)
            if dedupe and previous is not None and previous.caption == caption:
                return None
            markup = self._board_markup(reply)
            fits = len(caption) <= CAPTION_LIMIT
            message: Message = await bot.send_photo(
                chat_id, reply.image,
                caption=html_text(reply.body) if fits else None,
                parse_mode=ParseMode.HTML, reply_markup=markup,
            )  # fmt: skip
            if not fits:
                await self._send_text(chat_id, reply.body)
            self._boards[gid] = _Board(chat_id, message.message_id, caption)
            if previous is not None and previous.message_id != message.message_id:
                await self._drop_buttons(previous.chat_id, previous.message_id)
        if reply.animation is not None:
            await bot.send_animation(chat_id, reply.animation, filename=f"hexhall-{gid}.gif")
        return message

    async def _drop_buttons(self, chat_id: int, message_id: int) -> None:
        # Already without buttons, or deleted: nothing to take away.
        with contextlib.suppress(BadRequest):
            await self.application.bot.edit_message_reply_markup(chat_id, message_id)

    # ------------------------------------------------------------------ commands

    async def on_start(self, update: Update, context: Context) -> None:
        """``/start`` and ``/help``: how to play; ``/start dm`` (the card's link) also turns
        direct messages on."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        self._remember(user)
        if context.args == [_DM_START]:
            reply = await self.manager.settings(tg_user(user), "dm", "on")
            await self._send_text(message.chat_id, f"{reply.text}\n\n{HELP}")
            return
        await self._send_text(message.chat_id, HELP)

    async def on_games(self, update: Update, context: Context) -> None:
        """``/games``: the games there are."""
        message = update.effective_message
        if message is None:
            return
        lines = [f"{spec.name}: {spec.title}" for spec in engines.GAMES.values()]
        lines.append("Rules: /rules <game>. Challenge: /challenge <game> [@username].")
        await self._send_text(message.chat_id, "\n".join(lines))

    async def on_challenge(self, update: Update, context: Context) -> None:
        """``/challenge <game> [@username] [option=value ...]`` (or as a reply to the invited
        person's message)."""
        message, sender = update.effective_message, update.effective_user
        if message is None or sender is None:
            return
        self._remember(sender)
        words = list(context.args or [])
        named = [w for w in words if w.startswith("@")]
        rest = [w for w in words if not w.startswith("@")]
        opponent: User | None = None
        replied = message.reply_to_message
        if named:
            username = named[0][1:].lower()
            opponent = self._known.get(username)
            if opponent is None:
                await self._send_text(
                    message.chat_id,
                    f"I have not met @{username} yet: ask them to send me /start, or reply "
                    "to one of their messages with /challenge <game>.",
                )
                return
        elif replied is not None and replied.from_user and not replied.from_user.is_bot:
            self._remember(replied.from_user)
            opponent = tg_user(replied.from_user)
        if not rest:
            await self._send_text(message.chat_id, "Which game? /challenge <game> [@username]")
            return
        who = "open" if opponent is None else "them"
        line = " ".join(["challenge", who, *rest])
        chosen = opponent

        def named_user(_: str) -> User:
            assert chosen is not None
            return chosen

        reply = await execute(
            self.manager, tg_user(sender), tg_chat(message.chat_id), line, named_user
        )
        await self.send(message.chat_id, reply)

    async def on_typed(self, update: Update, context: Context) -> None:
        """The commands the shared typed-command parser knows (``/move``, ``/board`` ...)."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not message.text:
            return
        self._remember(user)
        command = message.text.split()[0][1:].split("@")[0].lower()
        word = _TYPED.get(command)
        if word is None:
            return
        line = " ".join([word, *(context.args or [])])
        chat = tg_chat(message.chat_id)
        reply = await execute(self.manager, tg_user(user), chat, line, _no_one)
        if word == "export" and reply.ok:
            name = f"hexhall-{reply.game_id or 'game'}.txt"
            await self.application.bot.send_document(
                message.chat_id, reply.text.encode(), filename=name
            )
            return
        await self.send(message.chat_id, reply, dedupe=word == "move")

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
        if message.chat.type != ChatType.PRIVATE and not to_bot:
            return
        game_id, words = split_id(message.text.split(), digits=False)
        if game_id is None and replied is not None and to_bot:
            game_id = _game_of(replied)
        reply = await self.manager.move(
            tg_user(user), tg_chat(message.chat_id), " ".join(words), game_id
        )
        await self.send(message.chat_id, reply, dedupe=True)

    # ------------------------------------------------------------------ buttons

    async def on_button(self, update: Update, context: Context) -> None:
        """An inline button: the picker, a board extra, or a manager action by its id."""
        query = update.callback_query
        if query is None or query.data is None or query.message is None:
            return
        self._remember(query.from_user)
        user, chat_id = tg_user(query.from_user), query.message.chat.id
        chat = tg_chat(chat_id)
        parsed = parse_action(query.data)
        kind = parsed[0] if parsed else ""
        handler = self._buttons.get(kind)
        if handler is not None:
            await handler(self, query, user, chat)
            return
        reply = await self.manager.press(user, chat, query.data)
        if not reply.ok and reply.actions:  # a warning that offers a way on, as buttons
            await self.send(chat_id, reply)
            await query.answer()
            return
        if not reply.ok:
            await query.answer(reply.text[:200], show_alert=True)
            return
        await query.answer()
        message_id = query.message.message_id
        if kind == "acc":
            await self._drop_buttons(chat_id, message_id)
        elif kind in ("dec", "can"):
            await self.application.bot.edit_message_text(
                html_text(reply.body), chat_id, message_id, parse_mode=ParseMode.HTML
            )
            return
        elif kind == "rs":
            await self.application.bot.edit_message_reply_markup(
                chat_id, message_id,
                reply_markup=keyboard([list(reply.actions), [_cancel_picker(reply)]]),
            )  # fmt: skip
            return
        await self.send(chat_id, reply, dedupe=kind in ("mv", "mvy"))

    async def _picker(self, query: CallbackQuery, user: User, chat: Chat) -> None:
        assert query.data is not None and query.message is not None
        step = await self.manager.pick(user, chat, query.data)
        if isinstance(step, Reply):
            await query.answer(step.text[:200], show_alert=True)
            return
        # The keyboard first, then the answer: the presser sees both at once.
        await self._edit_markup(query, _picker_markup(step))
        await query.answer(step.text[:200])

    async def _close_picker(self, query: CallbackQuery, user: User, chat: Chat) -> None:
        assert query.data is not None
        parsed = parse_action(query.data)
        assert parsed is not None
        reply = await self.manager.board(user, chat, int(parsed[1][0]))
        if not reply.ok:
            await query.answer(reply.text[:200], show_alert=True)
            return
        await self._edit_markup(query, self._board_markup(reply))
        await query.answer()

    async def _describe(self, query: CallbackQuery, user: User, chat: Chat) -> None:
        assert query.data is not None and query.message is not None
        parsed = parse_action(query.data)
        assert parsed is not None
        reply = await self.manager.board(user, chat, int(parsed[1][0]))
        if not reply.ok:
            await query.answer(reply.text[:200], show_alert=True)
            return
        await query.answer()
        await self._send_text(query.message.chat.id, reply.alt or reply.text)

    async def _offer_draw(self, query: CallbackQuery, user: User, chat: Chat) -> None:
        assert query.data is not None and query.message is not None
        parsed = parse_action(query.data)
        assert parsed is not None
        reply = await self.manager.draw(user, chat, int(parsed[1][0]), "offer")
        if not reply.ok:
            await query.answer(reply.text[:200], show_alert=True)
            return
        await query.answer()
        await self.send(query.message.chat.id, reply)

    async def _edit_markup(self, query: CallbackQuery, markup: InlineKeyboardMarkup | None) -> None:
        assert query.message is not None
        try:
            await self.application.bot.edit_message_reply_markup(
                query.message.chat.id, query.message.message_id, reply_markup=markup
            )
        except BadRequest as exc:
            if "not modified" not in str(exc):
                raise

    _buttons: ClassVar[
        dict[str, Callable[[TelegramAdapter, CallbackQuery, User, Chat], Awaitable[None]]]
    ] = {
        "pk": _picker,
        "pp": _picker,
        "pc": _close_picker,
        "ds": _describe,
        "dro": _offer_draw,
    }

    # ------------------------------------------------------------------ errors

    async def on_error(self, update: object, context: Context) -> None:
        """Every handler error: logged with the update id (token redacted), answered briefly."""
        error = context.error
        update_id = update.update_id if isinstance(update, Update) else None
        detail = "".join(traceback.format_exception(error)) if error else "no exception"
        if self._token:
            detail = detail.replace(self._token, "***")
        log.error("update %s failed: %s", update_id, detail)
        if not isinstance(update, Update):
            return
        try:
            if update.callback_query is not None:
                await update.callback_query.answer(_ERROR_TEXT, show_alert=True)
            elif update.effective_chat is not None:
                await self.application.bot.send_message(update.effective_chat.id, _ERROR_TEXT)
        except TelegramError as exc:
            log.warning("update %s: could not say so: %s", update_id, type(exc).__name__)


def _no_one(name: str) -> User:
    # Typed commands other than /challenge never name a player.
    return User(PLATFORM, name, name)


def _cancel_picker(reply: Reply) -> Action:
    gid = reply.game_id
    assert gid is not None
    return Action.make("Cancel", "pc", gid)


def _picker_markup(step: Picker) -> InlineKeyboardMarkup | None:
    return keyboard([*rows_of(step.parts), list(step.controls)])


def _game_of(message: Message) -> int | None:
    """The game a bot message is about, read from its buttons' ids (survives a restart)."""
    markup = message.reply_markup
    if markup is None:
        return None
    for row in markup.inline_keyboard:
        for button in row:
            data = button.callback_data if isinstance(button.callback_data, str) else None
            parsed = parse_action(data) if data else None
            if parsed is not None and parsed[1][0].isdigit():
                return int(parsed[1][0])
    return None
