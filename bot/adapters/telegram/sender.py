"""Delivering the outbox's notifications on Telegram (the outbox's sender for this platform).

The player to move is mentioned in the game's chat with a text mention (it works without a
username; the recipient is named first when the text does not name them); a player who wants
direct messages gets one instead, and a direct message Telegram refuses (403: the user never
started the bot or blocked it) is reported as :class:`~bot.delivery.outbox.DirectRefused`, so
the outbox sends it to the chat once.  A recap is an animation (the GIF drawn when it is
delivered).  Flood control is the application's rate limiter's business (it honours
``RetryAfter``); a chat migrated to a supergroup is followed (``ChatMigrated``) and its games
moved along by ``on_migrated``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import Bot, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden

from bot.adapters.telegram.format import CAPTION_LIMIT, TEXT_LIMIT, html_text, keyboard, rows_of
from bot.delivery.notification import Notification
from bot.delivery.notify import Kind
from bot.delivery.outbox import DeliveryRefused, DirectRefused
from bot.delivery.recap import Recaps
from bot.messages import Text

__all__ = ["TelegramSender"]

#: Called with (old chat id, new chat id) when Telegram says a group became a supergroup.
Migrated = Callable[[int, int], Awaitable[None]]


def _chat_id(value: str, what: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise DeliveryRefused(f"{what} {value!r} is not a Telegram id") from None


class TelegramSender:
    """Sends notifications with ``bot`` (the application's bot, so its rate limiter applies);
    ``recaps`` draws recap GIFs (no recaps without it); ``on_migrated`` is told when a chat
    turned out to have become a supergroup."""

    def __init__(
        self, bot: Bot, recaps: Recaps | None = None, on_migrated: Migrated | None = None
    ) -> None:
        self.bot = bot
        self.recaps = recaps
        self.on_migrated = on_migrated

    async def send(self, notification: Notification) -> None:
        """Deliver ``notification`` as a direct message when it asks for one, else in its
        game's chat; raise :class:`DirectRefused` / :class:`DeliveryRefused` when Telegram
        refuses for good."""
        if notification.direct:
            target = _chat_id(notification.recipient.user_id, "user")
            try:
                await self._deliver(target, notification, notification.text)
            except Forbidden as exc:
                raise DirectRefused(str(exc)) from None
            return
        if notification.chat is None:
            raise DeliveryRefused("the notification has no chat")
        target = _chat_id(notification.chat.chat_id, "chat")
        text = notification.text
        recipient = notification.recipient.mention()
        if recipient not in text.mentions():
            # In a group the recipient is named first, so the mention reaches them.
            text = Text.of(recipient, ": ", text)
        try:
            try:
                await self._deliver(target, notification, text)
            except ChatMigrated as moved:
                if self.on_migrated is not None:
                    await self.on_migrated(target, moved.new_chat_id)
                await self._deliver(moved.new_chat_id, notification, text)
        except Forbidden as exc:
            raise DeliveryRefused(str(exc)) from None
        except BadRequest as exc:
            if "chat not found" in str(exc).lower():
                raise DeliveryRefused(str(exc)) from None
            raise

    async def _deliver(self, chat_id: int, note: Notification, text: Text) -> None:
        markup: InlineKeyboardMarkup | None = keyboard(rows_of(note.actions))
        if note.kind is Kind.RECAP:
            gif = None
            if self.recaps is not None and note.game_id is not None:
                gif = await self.recaps.gif(note.game_id)
            if gif is None:
                return  # nothing to show: the recap could not be drawn
            caption = html_text(text) if len(str(text)) <= CAPTION_LIMIT else None
            await self.bot.send_animation(
                chat_id, gif, caption=caption, parse_mode=ParseMode.HTML,
                filename=f"hexhall-{note.game_id}.gif", reply_markup=markup,
            )  # fmt: skip
            return
        body = html_text(text) if len(str(text)) <= TEXT_LIMIT else html_text(str(text)[:TEXT_LIMIT])
        await self.bot.send_message(chat_id, body, parse_mode=ParseMode.HTML, reply_markup=markup)
