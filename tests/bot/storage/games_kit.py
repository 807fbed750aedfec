"""A new game's row for the storage tests: Pathagon in the console's chat, against the bot or
between two players."""

from __future__ import annotations

import engines
from bot.ratings import Origin
from bot.storage import NewGame
from engines.levels import Level


def pathagon_game(
    seat0: int, seat1: int, bot_seat: int | None = None, level: Level | None = None
) -> NewGame:
    """A Pathagon game of ``seat0`` and ``seat1``; against the bot (casual) when ``bot_seat``
    says which seat is the bot's, else a rated challenge."""
    position = engines.new("pathagon")
    return NewGame(
        game="pathagon",
        options={},
        seat0=seat0,
        seat1=seat1,
        platform="console",
        chat_id="local",
        to_move=position.to_move,
        snapshot=position.to_dict(),
        rated=bot_seat is None,
        origin=Origin.CHALLENGE if bot_seat is None else Origin.BOT,
        bot_seat=bot_seat,
        bot_level=level,
    )
