"""How the Telegram adapter reads what people write in groups: whom a message replies to (never
the opening service message of a forum topic), which replies to the bot are moves, the game
buttons of a bare ``/challenge``, and which refused messages an edit may retry.

Telegram marks every message in a forum topic as a reply to the topic's opening
``forum_topic_created`` service message ("topics with id != 1 are just the message thread of
the service message that created that topic", core.telegram.org/api/forum, quoted in
banteg/takopi#152), so a reply to that message is no reply to a person.

>>> from telegram import Chat, Message, User
>>> from datetime import datetime, UTC
>>> ada = User(1, "Ada", False)
>>> hall = Chat(-5, "supergroup")
>>> opening = Message(7, datetime.now(UTC), hall, from_user=ada, message_thread_id=7)
>>> typed = Message(9, datetime.now(UTC), hall, from_user=User(2, "Bo", False),
...                 reply_to_message=opening, message_thread_id=7, is_topic_message=True)
>>> replied_person(typed) is None
True
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram import User as TgUser

import engines
from bot.core.lru import Lru

__all__ = [
    "GAME_CHOICE_PREFIX",
    "RefusedMoves",
    "game_choice",
    "game_choice_markup",
    "reads_like_move",
    "replied_person",
]

#: Callback data of a game button under a bare ``/challenge``: ``ng:<game>:<user id>`` (no
#: action kind uses the code ``ng``; only the person who asked may press it).
GAME_CHOICE_PREFIX = "ng:"
#: How many refused moves are remembered for an edit that retries them.
REFUSED_KEPT = 512


def replied_person(message: Message) -> TgUser | None:
    """The person ``message`` replies to: ``None`` when it replies to nothing, to a bot, or
    only to its forum topic's opening service message (which every message in a topic does)."""
    replied = message.reply_to_message
    if replied is None or replied.from_user is None or replied.from_user.is_bot:
        return None
    if replied.forum_topic_created is not None:
        return None
    if message.message_thread_id is not None and replied.message_id == message.message_thread_id:
        return None
    return replied.from_user


def reads_like_move(words: list[str]) -> bool:
    """Whether a reply to a board reads like a move of any game (legal or not), rather than
    talk: "nice move!", "hmm, thinking" are talk, and get no answer.

    >>> reads_like_move(["e5"]), reads_like_move(["nice", "move!"]), reads_like_move([])
    (True, False, False)
    """
    text = " ".join(words).strip().removesuffix("!").strip()
    return bool(text) and engines.looks_like_move(text)


def game_choice_markup(user_id: int) -> InlineKeyboardMarkup:
    """One button per game, for ``user_id`` to challenge with (a bare ``/challenge``, as the
    command menu sends it)."""
    buttons = [
        InlineKeyboardButton(spec.title, callback_data=f"{GAME_CHOICE_PREFIX}{name}:{user_id}")
        for name, spec in engines.GAMES.items()
    ]
    return InlineKeyboardMarkup([buttons[i : i + 3] for i in range(0, len(buttons), 3)])


def game_choice(data: str) -> tuple[str, int] | None:
    """The game and the asker's user id of a game button's callback data, or ``None``.

    >>> game_choice("ng:maphex:42"), game_choice("ng:chess:42"), game_choice("bd:3")
    (('maphex', 42), None, None)
    """
    if not data.startswith(GAME_CHOICE_PREFIX):
        return None
    game, _, user = data.removeprefix(GAME_CHOICE_PREFIX).partition(":")
    if game not in engines.GAMES or not user.isdigit():
        return None
    return game, int(user)


class RefusedMoves:
    """The messages whose move was refused, newest kept (at most :data:`REFUSED_KEPT`): an
    edit of one of them is handled as the new move; edits of other messages are ignored.

    >>> refused = RefusedMoves(limit=2)
    >>> for key in ((1, 1), (1, 2), (1, 3)):
    ...     refused.add(key)
    >>> refused.take((1, 1)), refused.take((1, 3)), refused.take((1, 3))
    (False, True, False)
    """

    def __init__(self, limit: int = REFUSED_KEPT) -> None:
        self._limit = limit
        self._keys: Lru[tuple[int, int], None] = Lru(limit)

    def add(self, key: tuple[int, int]) -> None:
        """Remember that the move of message ``key`` (chat id, message id) was refused."""
        self._keys[key] = None

    def take(self, key: tuple[int, int]) -> bool:
        """Whether message ``key``'s move was refused (forgotten now: one retry per refusal,
        and a refused retry is remembered again)."""
        if key not in self._keys:
            return False
        self._keys.pop(key)
        return True
