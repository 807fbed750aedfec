"""Telegram's people and places as the session manager's: a Telegram user as a
:class:`~bot.messages.User`, a chat (or a forum topic in it) as a :class:`~bot.messages.Chat`."""

from __future__ import annotations

from telegram import Message
from telegram import User as TgUser
from telegram.constants import ChatType

from bot.adapters.telegram import topics
from bot.adapters.telegram.format import PLATFORM
from bot.messages import Chat, User

__all__ = ["chat_of", "tg_chat", "tg_user"]


def tg_user(user: TgUser) -> User:
    """The manager's user for a Telegram user (with their @username, if they have one)."""
    return User(PLATFORM, str(user.id), user.full_name or str(user.id), user.username)


def tg_chat(chat_id: int, kind: str | None = None, thread: int | None = None) -> Chat:
    """The manager's chat for a Telegram chat id, or a forum topic in it (see
    :mod:`~bot.adapters.telegram.topics`); ``kind`` is the chat's type (Bot API
    ``Chat.type``: ``"private"`` is a person's one-to-one chat with the bot)."""
    return topics.chat(chat_id, thread, direct=kind == ChatType.PRIVATE)


def chat_of(message: object) -> Chat:
    """The manager's chat of a message: its chat, its type and its forum topic."""
    assert isinstance(message, Message)
    return tg_chat(message.chat_id, message.chat.type, topics.topic_of(message))
