"""Telegram's part of the flow after a post (:mod:`bot.adapters.afterpost`): what is done to
one of the bot's remembered messages.  A game's older boards keep their buttons until it is
over (every button carries its whole meaning, and an edit per move would count toward
Telegram's 20 messages a minute per group: issue 24).  A message deleted meanwhile, or in a
chat that removed the bot or moved (a supergroup now), is left as it is.
"""

from __future__ import annotations

import contextlib

from telegram import Bot
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError

from bot.adapters.afterpost import Place
from bot.adapters.telegram.format import PLATFORM, html_text
from bot.messages import Reply

__all__ = ["TelegramPosts", "delete_or_drop", "drop_buttons"]


async def drop_buttons(bot: Bot, chat_id: int, message_id: int) -> None:
    """Take a message's buttons away (nothing to do when it has none or is gone, or its
    group became a supergroup: the old group takes no edits)."""
    with contextlib.suppress(BadRequest, ChatMigrated):
        await bot.edit_message_reply_markup(chat_id, message_id)


async def delete_or_drop(bot: Bot, chat_id: int, message_id: int) -> None:
    """Delete a message of the bot's (a move picker), or, when it is too old to delete (48
    hours: core.telegram.org/bots/api#deletemessage), take its buttons away."""
    try:
        await bot.delete_message(chat_id, message_id)
    except BadRequest:
        await drop_buttons(bot, chat_id, message_id)


class TelegramPosts:
    """The :class:`~bot.adapters.afterpost.PostSurface` of one Telegram bot."""

    platform = PLATFORM
    retires_each_board = False

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def drop_buttons(self, post: Place) -> None:
        """Take the message's buttons away."""
        with contextlib.suppress(Forbidden, ChatMigrated):
            await drop_buttons(self.bot, int(post.chat_id), int(post.message_id))

    async def close_picker(self, post: Place) -> None:
        """Delete a picker (an old one only loses its buttons)."""
        with contextlib.suppress(Forbidden, ChatMigrated):
            await delete_or_drop(self.bot, int(post.chat_id), int(post.message_id))

    async def close_offer(self, post: Place) -> None:
        """Take an offer's answer buttons away."""
        with contextlib.suppress(TelegramError):
            await self.bot.edit_message_reply_markup(int(post.chat_id), int(post.message_id))

    async def show_answer(self, post: Place, reply: Reply) -> None:
        """Edit a challenge's card to the answer, without buttons."""
        with contextlib.suppress(BadRequest, TelegramError):
            await self.bot.edit_message_text(
                html_text(reply.body), int(post.chat_id), int(post.message_id),
                parse_mode=ParseMode.HTML,
            )  # fmt: skip
