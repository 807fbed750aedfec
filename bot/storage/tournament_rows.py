"""Tournament rows as the store hands them out (see :mod:`bot.storage.sql_tournaments`):
the tournament, who signed up, which games are its own."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.core.notification import Notification
from bot.storage.rows import NewGame

__all__ = [
    "EntrantRow",
    "NewTournament",
    "TournamentGameRow",
    "TournamentNewGame",
    "TournamentRow",
    "TournamentStatus",
]


class TournamentStatus(enum.StrEnum):
    """Where a tournament is: open for sign-up, running, finished, or cancelled."""

    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def live(self) -> bool:
        """Whether it is open or running."""
        return self in (TournamentStatus.OPEN, TournamentStatus.RUNNING)


@dataclass(frozen=True)
class NewTournament:
    """A tournament to open: where, who opens it (and joins it), the game with its options,
    days per move (``None``: no clock), ``rounds`` (1 or 2), ``rated``, ``max_players``."""

    platform: str
    chat_id: str
    community: str
    creator: int
    game: str
    options: Mapping[str, Any]
    time_per_move: float | None
    rounds: int
    rated: bool
    max_players: int


@dataclass(frozen=True)
class TournamentRow:
    """A stored tournament (see :class:`NewTournament`); ``starts_by`` is when it starts by
    itself (or is cancelled), ``standings_at`` when its last standings update was posted,
    ``swept`` the fingerprint of its games when the sweep last read them all."""

    id: int
    platform: str
    chat_id: str
    community: str
    creator: int
    game: str
    options: Mapping[str, Any]
    time_per_move: float | None
    rounds: int
    rated: bool
    max_players: int
    status: TournamentStatus
    created_at: datetime
    starts_by: datetime
    started_at: datetime | None
    finished_at: datetime | None
    standings_at: datetime | None
    swept: int | None = None


@dataclass(frozen=True)
class EntrantRow:
    """A player signed up for a tournament: when, their rating and group once it started,
    when and why they were withdrawn, their final place once it finished."""

    player_id: int
    joined_at: datetime
    rating: int = 0
    group: int | None = None
    withdrawn_at: datetime | None = None
    withdrawn_why: str | None = None
    place: int | None = None


@dataclass(frozen=True)
class TournamentGameRow:
    """A game of a tournament: its group, its leg (0, or 1 for the return game of
    ``rounds=2``) and the aborted game it replays, if it is a replay."""

    game_id: int
    group: int
    leg: int
    replay_of: int | None = None


@dataclass(frozen=True)
class TournamentNewGame:
    """A game to create for a tournament, with its group, leg, the game it replays and the
    notifications about it (``{game}`` in them becomes its id)."""

    game: NewGame
    group: int
    leg: int
    replay_of: int | None = None
    notes: Sequence[Notification] = field(default_factory=tuple)
