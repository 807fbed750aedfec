"""The Telegram adapter (python-telegram-bot 22): :class:`TelegramAdapter` in
:mod:`~bot.adapters.telegram.adapter`, Telegram's formatting in
:mod:`~bot.adapters.telegram.format`, the outbox sender in :mod:`~bot.adapters.telegram.sender`,
the webhook in :mod:`~bot.adapters.telegram.webhook`, and running it in the bot process in
:mod:`~bot.adapters.telegram.service` (beside Discord's)."""

from bot.adapters.telegram.adapter import (
    COMMANDS,
    DEFAULT_API_URL,
    DEFAULT_FILE_URL,
    TelegramAdapter,
    TelegramUnavailable,
    TokenRedactor,
)
from bot.adapters.telegram.format import PLATFORM

__all__ = [
    "COMMANDS",
    "DEFAULT_API_URL",
    "DEFAULT_FILE_URL",
    "PLATFORM",
    "TelegramAdapter",
    "TelegramUnavailable",
    "TokenRedactor",
]
