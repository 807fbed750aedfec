"""Where the bot cannot post: channels that refused it (403, code 50001 "Missing Access": a DM
or group DM between friends, a server without the bot, where only the user-installed app
works through interactions), and the players a notice could reach neither there nor by
direct message.

Discord bans an IP for a while after 10 000 invalid (401, 403, 429) requests in 10 minutes
("Invalid Request Limit", Discord's rate-limit docs), so a channel that refused the bot is
remembered: its notices go straight to the players' DMs and no edit is tried there through
the channel (only through a still fresh interaction token), for :data:`FORGET_AFTER` (the
bot may be added meanwhile; a DM or group DM between users, which no bot can join, for as
long as the memory holds it).  A player who could not be told at all is named once in that
channel at the next interaction there (the only way in).

Kept in memory, bounded (:data:`LIMIT` channels each): after a restart, or in another process,
one refused request per channel teaches it again.
"""

from __future__ import annotations

import math
import time
from typing import Final

from bot.core.lru import Lru
from bot.messages import Mention

__all__ = ["FORGET_AFTER", "LIMIT", "MISSING_ACCESS", "Reach"]

#: Discord's error code "Missing Access" (the bot is not a member of the channel).
MISSING_ACCESS: Final = 50001

#: How long a refusing channel is remembered (seconds).
FORGET_AFTER: Final = 3600.0
#: How many channels each memory holds at most (the oldest are forgotten first).
LIMIT: Final = 10_000


class Reach:
    """What the bot learnt about where it cannot post (see the module docstring)."""

    def __init__(self, *, forget_after: float = FORGET_AFTER, limit: int = LIMIT) -> None:
        self.forget_after = forget_after
        self.limit = limit
        self._refused: Lru[int, float] = Lru(limit)
        self._unreachable: Lru[int, list[Mention]] = Lru(limit)

    def refused(self, channel_id: int, *, for_good: bool = False) -> None:
        """The bot may not post or edit in ``channel_id`` (it is not a member there);
        ``for_good``: a DM or group DM between users, which a bot can never join (remembered
        until the memory is full), else for :attr:`forget_after` (the bot may be added)."""
        self._refused[channel_id] = math.inf if for_good else time.monotonic() + self.forget_after

    def out_of_reach(self, channel_id: int) -> bool:
        """Whether ``channel_id`` refused the bot recently (no request is tried there)."""
        until = self._refused.get(channel_id)
        if until is None:
            return False
        if time.monotonic() >= until:
            self._refused.pop(channel_id)
            return False
        return True

    def unreachable(self, channel_id: int, mention: Mention) -> None:
        """A notice for ``mention`` about a game in ``channel_id`` could
        be delivered neither there nor by direct message."""
        names = self._unreachable.get(channel_id)
        if names is None:
            names = self._unreachable[channel_id] = []
        if mention not in names:
            names.append(mention)

    def take_unreachable(self, channel_id: int) -> list[Mention]:
        """The players not reached about ``channel_id``'s games since last asked (once)."""
        return self._unreachable.pop(channel_id) or []
