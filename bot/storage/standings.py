"""What the store keeps of ratings: the values it takes and hands out, and the methods of
:class:`~bot.storage.protocol.Store` that read and rebuild ratings (:class:`StandingsStore`).

The ratings maths is :mod:`bot.ratings`'; the store only reads and writes its numbers.  A rated
game's changes are written inside the transaction that ends the game (``rating=`` of
``apply_move`` and ``finish_game``), checked against the ratings stored at that moment: if one
changed since the changes were computed (another game of the same player ended in between),
:class:`RatingsMoved` is raised and nothing is written, so the caller computes them again.

>>> str(RatingsMoved())
'the database is busy, try again'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.ratings import FinishedGame, PlayerId, Pool, Rating, RatingChange, RatingPoint
from bot.storage.errors import StoreBusy

__all__ = ["RatedEnd", "RatingsMoved", "RebuildSummary", "Standing", "StandingsStore"]


class RatingsMoved(StoreBusy):
    """A player's stored rating is no longer the ``before`` of the changes handed in (another
    rated game of theirs ended meanwhile).  Nothing was written: compute and try again."""


@dataclass(frozen=True)
class RatedEnd:
    """The rating changes of a rated game that ends, by seat (0, 1), in ``pool``."""

    pool: Pool
    changes: tuple[RatingChange, RatingChange]


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard: ``rank`` (from 1), the player and their rating."""

    rank: int
    player_id: PlayerId
    name: str
    rating: Rating


@dataclass(frozen=True)
class RebuildSummary:
    """What a rebuild did: finished games read, games rated, ratings stored."""

    games: int
    rated: int
    ratings: int


class StandingsStore(Protocol):
    """The rating methods of the store (part of :class:`~bot.storage.protocol.Store`)."""

    async def rating(self, player_id: PlayerId, pool: Pool) -> Rating:
        """A player's rating in ``pool`` (a new player's ``Rating()`` if they have none)."""
        ...

    async def ratings_of(self, player_id: PlayerId) -> dict[Pool, Rating]:
        """Every rating a player has, in :class:`Pool` order."""
        ...

    async def leaderboard(
        self,
        pool: Pool,
        *,
        platform: str | None = None,
        community: str | None = None,
        limit: int = 10,
    ) -> list[Standing]:
        """The ``limit`` highest ratings in ``pool``: of the players who played a rated game
        in ``community`` on ``platform`` when both are given, of everyone otherwise.  One
        index range in either case (never a scan of the games)."""
        ...

    async def rating_history(self, player_id: PlayerId, pool: Pool) -> list[RatingPoint]:
        """A player's rating after each of their rated games in ``pool``, oldest first."""
        ...

    async def rating_changes(self, game_id: int) -> tuple[RatingChange, RatingChange] | None:
        """The rating changes a game made, by seat (``None``: it was not rated)."""
        ...

    async def finished_games(self, player_id: PlayerId) -> list[FinishedGame]:
        """Every game of a player that has ended (finished or aborted), in finish order, as
        :mod:`bot.ratings` reads them (rows that cannot be read are left out with a log
        line)."""
        ...

    async def rebuild_ratings(self) -> RebuildSummary:
        """Recompute every rating, rating change and leaderboard membership from the stored
        games in order (finish time, then id), in one transaction."""
        ...
