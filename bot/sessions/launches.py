"""Which game a person last opened in Discord's Activity (the board inside Discord): Discord's
``LAUNCH_ACTIVITY`` answer to "Open board" carries no game, so the adapter remembers the game
here and the Activity's page, once the person is signed in, opens that game first.

Kept in this process only, for :data:`KEEP` (the page asks within seconds of the launch); a
page served by another process, or asked later, opens the person's games in their usual order.

>>> from datetime import UTC, datetime, timedelta
>>> from bot.messages import User
>>> now = datetime(2026, 1, 1, tzinfo=UTC)
>>> launches = Launches()
>>> launches.remember(User("discord", "7", "Ada"), 12, now)
>>> launches.last(User("discord", "7", "Ada"), now + timedelta(minutes=1))
12
>>> launches.last(User("discord", "7", "Ada"), now + KEEP) is None
True
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.core.lru import Lru
from bot.messages import User

__all__ = ["KEEP", "Launches"]

#: How long a launch is remembered.
KEEP = timedelta(minutes=10)


class Launches:
    """The latest launch of each person (at most ``size`` people, the oldest forgotten first)."""

    def __init__(self, size: int = 10_000) -> None:
        self._last: Lru[tuple[str, str], tuple[int, datetime]] = Lru(size)

    def remember(self, user: User, game_id: int, now: datetime) -> None:
        """``user`` opened game ``game_id`` in the Activity at ``now``."""
        self._last[(user.platform, user.user_id)] = (game_id, now)

    def last(self, user: User, now: datetime) -> int | None:
        """The game ``user`` last opened, if they did within :data:`KEEP` of ``now``."""
        kept = self._last.get((user.platform, user.user_id))
        if kept is None or now - kept[1] >= KEEP:
            return None
        return kept[0]
