"""What this process keeps in memory for Telegram, in one object per session manager: the
locks a game's boards and pickers are posted under, the groups that removed the bot, the
people whose direct messages Telegram refuses, and the games whose offer copies were posted
here.  The adapter and the outbox's sender both hold the manager, so both find the same
:class:`TelegramState` through it (:func:`state_of`; each test's manager has its own).

Every part is bounded (:class:`~bot.core.lru.Lru`, the least recently used first out; a lock
someone holds or waits for stays), so the process stays small however many games pass
through (issue 48); a forgotten entry is learned again (from the store, or Telegram's next
answer).
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field

from bot.core.lru import Lru
from bot.sessions.manager import SessionManager

__all__ = [
    "BOARD_LOCKS",
    "OFFERS_POSTED",
    "PICKER_LOCKS",
    "REMEMBERED_REFUSALS",
    "REMOVED_CHATS",
    "RemovedChats",
    "TelegramState",
    "state_of",
]

#: Games whose board lock this process keeps.
BOARD_LOCKS = 2000
#: Games whose picker lock this process keeps.
PICKER_LOCKS = 2000
#: People whose refused direct messages this process remembers.
REMEMBERED_REFUSALS = 10_000
#: Groups this process remembers as having removed the bot.
REMOVED_CHATS = 10_000
#: Games whose offer copies this process remembers posting.
OFFERS_POSTED = 10_000


def _locked(lock: asyncio.Lock) -> bool:
    return lock.locked()


class Locks:
    """One :class:`asyncio.Lock` per game, at most ``size`` kept (a held one stays)."""

    def __init__(self, size: int) -> None:
        self._locks: Lru[int, asyncio.Lock] = Lru(size, keep=_locked)

    def __call__(self, game_id: int) -> asyncio.Lock:
        """The lock of ``game_id``."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def __len__(self) -> int:
        return len(self._locks)


class RemovedChats:
    """The groups this process knows removed the bot, each with whether its players were told
    (at most ``limit``, oldest forgotten first: a forgotten one is learned again from
    Telegram's next 403 there)."""

    def __init__(self, limit: int = REMOVED_CHATS) -> None:
        self.limit = limit
        self._chats: Lru[int, bool] = Lru(limit)

    def add(self, chat_id: int, *, told: bool = False) -> bool:
        """Remember that ``chat_id`` removed the bot (and, ``told``, that its players were
        told); whether this is news (``told``: whether they had not been told yet)."""
        before = self._chats.get(chat_id)
        self._chats[chat_id] = bool(before) or told
        return not before if told else before is None

    def discard(self, chat_id: int) -> None:
        """The bot is back in ``chat_id``."""
        self._chats.pop(chat_id, None)

    def removed(self, chat_id: int) -> bool:
        """Whether ``chat_id`` is known to have removed the bot."""
        return chat_id in self._chats


@dataclass
class TelegramState:
    """Everything this process keeps for Telegram (see the module docstring)."""

    #: a game's boards are sent and remembered under its lock, so the board remembered last is
    #: the newest message, even when the bot's move is delivered while the player's is answered
    board_lock: Locks = field(default_factory=lambda: Locks(BOARD_LOCKS))
    #: a game's picker is opened under its lock: one picker at a time, however many taps race
    picker_lock: Locks = field(default_factory=lambda: Locks(PICKER_LOCKS))
    #: the groups that removed the bot
    removed: RemovedChats = field(default_factory=RemovedChats)
    #: the people Telegram refuses direct messages to (until they open the bot)
    refused: Lru[int, bool] = field(default_factory=lambda: Lru(REMEMBERED_REFUSALS))
    #: the games whose offer copies this process posted: only theirs are looked up after a
    #: move, so a move costs no read for offers
    offers_posted: Lru[int, None] = field(default_factory=lambda: Lru(OFFERS_POSTED))


_STATES: weakref.WeakKeyDictionary[SessionManager, TelegramState] = weakref.WeakKeyDictionary()


def state_of(manager: SessionManager) -> TelegramState:
    """The Telegram state of ``manager``'s process (made the first time)."""
    state = _STATES.get(manager)
    if state is None:
        state = _STATES[manager] = TelegramState()
    return state
