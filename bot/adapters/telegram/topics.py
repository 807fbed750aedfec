"""Forum topics: where on Telegram a game lives is a chat and, in a forum, a topic in it.

Every message in a forum topic carries the topic's ``message_thread_id`` and
``is_topic_message``; a message sent with ``message_thread_id`` goes to that topic
(core.telegram.org/bots/api#sendmessage, and alike for sendPhoto, sendAnimation ...: "Unique
identifier for the target message thread (topic) of the forum; for forum supergroups only"),
one sent without it to the forum's General topic.  A reply in General also carries a thread
id (its reply chain's), without ``is_topic_message``: that is no topic.

The manager's chat id of a place in a topic is ``<chat id>/<thread id>``; a chat without a
topic keeps its bare id (so chats stored before topics were known read as they always did).
Its community is the whole forum: the topics of one forum share a leaderboard.

>>> key(-1001, 7), key(-1001, None), place("-1001/7"), place("-1001")
('-1001/7', '-1001', (-1001, 7), (-1001, None))
"""

from __future__ import annotations

from telegram import Message

from bot.adapters.telegram.format import PLATFORM
from bot.messages import Chat

__all__ = ["chat", "key", "place", "topic_of"]

_SEPARATOR = "/"


def key(chat_id: int, thread: int | None) -> str:
    """The manager's chat id of a chat, or of a topic in it."""
    return str(chat_id) if thread is None else f"{chat_id}{_SEPARATOR}{thread}"


def place(chat_key: str) -> tuple[int, int | None]:
    """The Telegram chat id and topic (``None``: none) of a manager's chat id; ``ValueError``
    when it is not one."""
    chat_id, _, thread = chat_key.partition(_SEPARATOR)
    return int(chat_id), (int(thread) if thread else None)


def topic_of(message: object) -> int | None:
    """The forum topic a message is in (``None`` outside topics, in General included)."""
    if not isinstance(message, Message) or not message.is_topic_message:
        return None
    return message.message_thread_id


def chat(chat_id: int, thread: int | None = None, *, direct: bool = False) -> Chat:
    """The manager's chat for a Telegram chat, or a topic in it (its community: the forum);
    ``direct`` for a person's private chat with the bot."""
    if thread is None:
        return Chat(PLATFORM, str(chat_id), direct=direct)
    return Chat(PLATFORM, key(chat_id, thread), community=str(chat_id))
