"""Where a game or a challenge stands, and a game's result: enums whose values are the texts
the store keeps.

The enums are ``StrEnum``: a member equals its stored text.

>>> GameStatus("active") is GameStatus.ACTIVE, GameStatus.ACTIVE == "active"
(True, True)
>>> GameStatus.FINISHED.over, GameStatus.ACTIVE.over
(True, False)
"""

from __future__ import annotations

import enum

__all__ = ["ChallengeStatus", "GameResult", "GameStatus"]


class GameStatus(enum.StrEnum):
    """Where a game stands."""

    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"
    #: set aside because its stored rows cannot be read (kept as they are for inspection)
    CORRUPT = "corrupt"

    @property
    def over(self) -> bool:
        """Whether no more moves can be played."""
        return self is not GameStatus.ACTIVE


class GameResult(enum.StrEnum):
    """How a game that is over ended."""

    WIN = "win"
    DRAW = "draw"
    #: aborted: no result
    NONE = "none"


class ChallengeStatus(enum.StrEnum):
    """Where a challenge stands."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"
    #: its stored options cannot be read; set aside
    CORRUPT = "corrupt"
