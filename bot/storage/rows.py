"""Rows as the store hands them out: real types at the interface.

Times are aware UTC datetimes, statuses and kinds are enum members, options and snapshots are
dicts, a player's notification settings are a :class:`~bot.core.settings.Settings`.  Nothing
outside the store parses a stored text.  A stored value that cannot be read is a
:class:`~bot.storage.errors.BadRow` (naming table, id and column) to the store's readers
(:mod:`bot.storage.sql_rows`); each store method says whether it then sets the row aside or
raises.

Statuses and results are the enums of :mod:`bot.core.status`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.core.ending import Termination
from bot.core.settings import Settings
from bot.core.status import ChallengeStatus, GameResult, GameStatus
from bot.ratings import Origin
from engines import Outcome
from engines.levels import Level

#: A finished game's ending when the store names none (never expected): a draw or a win.
_UNNAMED = {True: Termination.DRAW, False: Termination.WIN}

__all__ = [
    "Backlog",
    "ChallengeRow",
    "First",
    "GameRow",
    "MoveRow",
    "NewGame",
    "Origin",
    "PlayerRow",
]


class First(enum.StrEnum):
    """Who takes seat 0 (the side the rules call first) when a challenge is accepted."""

    ME = "me"  # the challenger
    THEM = "them"  # the accepting player
    RANDOM = "random"


@dataclass(frozen=True)
class PlayerRow:
    """A stored player: who they are on their platform and their notification settings.

    ``away_until`` is the end of the vacation they are on (``None`` when not away, or it may
    lie in the past: compare with the current time).
    """

    id: int
    platform: str
    user_id: str
    name: str
    created_at: datetime
    settings: Settings = field(default_factory=Settings)
    away_until: datetime | None = None

    @property
    def dm_enabled(self) -> bool:
        """Whether this player wants notifications as direct messages."""
        return self.settings.direct


@dataclass(frozen=True)
class GameRow:
    """A stored game (the position itself is rebuilt from its moves by the sessions)."""

    id: int
    game: str
    options: Mapping[str, Any]
    seat0: int
    seat1: int
    platform: str
    chat_id: str
    status: GameStatus
    ply: int
    version: int
    #: seat to move, ``None`` once over
    to_move: int | None
    #: ``Position.to_dict()`` after the last move
    snapshot: Mapping[str, Any]
    #: seat of the winner, ``None`` for a draw or no result
    winner: int | None
    result: GameResult | None
    #: how it ended (``None`` while it goes on)
    reason: Termination | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    #: days per move, ``None`` = no clock
    time_per_move: float | None
    deadline_at: datetime | None
    reminder_sent_for_ply: int | None
    draw_offer_by: int | None
    takeback_by: int | None
    rematch_of: int | None
    challenge_id: int | None
    corrupt_reason: str | None
    #: whether the game counts for ratings when it ends (``rated=no`` makes it casual)
    rated: bool = True
    #: where the game came from: only games from a challenge between people are rated
    origin: Origin = Origin.CHALLENGE
    #: the community (group, server) it is played in, for its leaderboard (``None``: its chat)
    community: str | None = None
    #: the seat Hexhall itself plays in a game against the bot (``None``: between people)
    bot_seat: int | None = None
    #: the bot's level in a game against it
    bot_level: Level | None = None
    #: how many conditional-move lines the game keeps (issue 46): none, and a move neither
    #: reads nor drops any.  Left out of the row's printed form (logs, views built from it):
    #: that a player prepared lines is theirs alone to know.
    premove_lines: int = field(default=0, repr=False)

    @property
    def seats(self) -> tuple[int, int]:
        """Player ids of seat 0 and seat 1."""
        return (self.seat0, self.seat1)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, as pictures show it (``None`` while it goes on).

        A game that ended by the rules has the same outcome as its position; a resignation, a
        draw by agreement, a loss on time or an abort exists only in the store, so a picture
        of the final position (a board, the recap's last frame) must be told.
        """
        if self.status == GameStatus.ABORTED:
            return Outcome(None, Termination.ABORTED)
        if self.status != GameStatus.FINISHED:
            return None
        return Outcome(self.winner, self.reason or _UNNAMED[self.winner is None])

    @property
    def against_bot(self) -> bool:
        """Whether Hexhall itself plays one seat (such a game never counts for ratings)."""
        return self.bot_seat is not None


@dataclass(frozen=True)
class Backlog:
    """The outbox of one platform at a moment: ``due`` notifications waiting to be delivered,
    the oldest of them for ``oldest_wait`` seconds."""

    platform: str
    due: int
    oldest_wait: float


@dataclass(frozen=True)
class MoveRow:
    """One stored move: ``ply`` is the ply of the position it was played in."""

    game_id: int
    ply: int
    move: str
    seat: int
    played_at: datetime


@dataclass(frozen=True)
class ChallengeRow:
    """A stored challenge (``target`` ``None``: an open challenge, anyone in the chat)."""

    id: int
    challenger: int
    target: int | None
    platform: str
    chat_id: str
    game: str
    options: Mapping[str, Any]
    first: First
    time_per_move: float | None
    status: ChallengeStatus
    created_at: datetime
    expires_at: datetime
    closed_at: datetime | None
    game_id: int | None
    rematch_of: int | None
    #: ``rated=no`` makes a casual game
    rated: bool = True
    #: the community (group, server) it was made in (``None``: its chat)
    community: str | None = None
    #: the invited player's platform username, lower case, while ``target`` is unknown (a
    #: Telegram @username): only that person may accept, which binds ``target``
    target_name: str | None = None


@dataclass(frozen=True)
class NewGame:
    """What the store needs to create a game."""

    game: str
    options: Mapping[str, Any]
    seat0: int
    seat1: int
    platform: str
    chat_id: str
    to_move: int
    snapshot: Mapping[str, Any]
    time_per_move: float | None = None
    deadline_at: datetime | None = None
    rematch_of: int | None = None
    challenge_id: int | None = None
    rated: bool = True
    origin: Origin = Origin.CHALLENGE
    community: str | None = None
    #: see :attr:`GameRow.bot_seat`
    bot_seat: int | None = None
    bot_level: Level | None = None
