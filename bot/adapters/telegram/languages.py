"""Whose language a Telegram update is answered in, and the bot's menu and description in
every language that ships (issue 43).

Before any handler of an update (handler group -1, in the update's own task), :func:`speak`
looks up the sender's language (their ``settings language``, else Telegram's
``User.language_code``) and the chat's (its ``settings chat-language``, else English): a
private chat reads its player's, a group its own.  ``settings chat-language`` in a group is
for its administrators: Telegram says who they are (``getChatMember``), asked only then.

At start, :func:`register` sets the command menu (``setMyCommands``) and the description
(``setMyDescription``) for each language's two-letter code (Bot API: "A two-letter ISO 639-1
language code"; Brazilian Portuguese is ``pt``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from telegram import Bot, BotCommand, Update
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot.adapters.commands import Command
from bot.adapters.telegram.identity import chat_of, tg_user
from bot.adapters.telegram.menu import description, menu_of
from bot.adapters.telegram.toasts import PRESSER
from bot.core import i18n
from bot.sessions import languages
from bot.sessions.manager import SessionManager

__all__ = ["register", "speak", "telegram_code"]

log = logging.getLogger(__name__)

_MANAGERS = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


def telegram_code(code: str) -> str:
    """The two-letter code Telegram takes for a catalog (``pt_BR`` is ``pt``).

    >>> telegram_code("pt_BR"), telegram_code("ja")
    ('pt', 'ja')
    """
    return code.split("_", 1)[0].lower()


async def speak(manager: SessionManager, bot: Bot, update: Update) -> None:
    """Say this update's answers in the chat's language (a private chat's is its player's)."""
    user, message = update.effective_user, update.effective_message
    if user is None or message is None:
        return
    chat = chat_of(message)
    said = await manager.players.speakers(tg_user(user), chat, user.language_code)
    i18n.adopt(said.chat)
    if update.callback_query is not None:  # the tap's answer is the presser's alone
        PRESSER.set(said.player)
    text = message.text or ""
    if "chat-language" in text and not chat.direct and update.callback_query is None:
        try:
            member = await bot.get_chat_member(message.chat_id, user.id)
        except TelegramError as exc:  # unknown: the setting is refused, nothing else
            log.warning("could not ask who manages chat %s: %s", message.chat_id, exc)
            return
        languages.MANAGES.set(member.status in _MANAGERS)


async def register(bot: Bot, registry: Sequence[Command]) -> None:
    """The command menu and the description in every language that ships (English is the
    default for everyone else); a refusal is logged and the bot plays on."""
    for code in i18n.LANGUAGES:
        with i18n.use(code):
            commands = [BotCommand(n, d) for n, d in menu_of(registry)]
            words = description()
        tg = "" if code == i18n.SOURCE else telegram_code(code)
        try:
            await bot.set_my_commands(commands, language_code=tg or None)
            await bot.set_my_description(words, language_code=tg or None)
        except TelegramError as exc:  # a menu is a convenience
            log.warning("could not register the %s menu: %s", code, type(exc).__name__)
