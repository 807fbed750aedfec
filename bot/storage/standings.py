"""What the store keeps of ratings: the values it takes and hands out (the methods that read
and rebuild ratings are :class:`~bot.storage.sql_standings.SqlStandings`).

The ratings maths is :mod:`bot.ratings`'; the store only reads and writes its numbers, each in
its :class:`Community` (a player has a rating per community and pool).  A rated
game's changes are written inside the transaction that ends the game (``rating=`` of
``apply_move`` and ``finish_game``), checked against the ratings stored at that moment: if one
changed since the changes were computed (another game of the same player ended in between),
:class:`RatingsMoved` is raised and nothing is written, so the caller computes them again.

>>> str(RatingsMoved())
'the database is busy, try again'
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ratings import PlayerId, Pool, Rating, RatingChange, Result
from bot.storage.errors import StoreBusy
from engines.levels import Level

__all__ = [
    "BotRatedEnd",
    "Community",
    "RatedEnd",
    "RatingEnd",
    "RatingsMoved",
    "RebuildSummary",
    "Standing",
]


@dataclass(frozen=True)
class Community:
    """Where ratings count: one community of a platform (a Telegram group, a Discord server, a
    direct chat with the bot, the console).  A player has a rating per community and pool; a
    rated game changes its players' ratings in its own community only.

    >>> Community("discord", "42")
    Community(platform='discord', id='42')
    """

    platform: str
    #: the community's id (:attr:`bot.messages.Chat.community_id`; a game's ``community``)
    id: str


class RatingsMoved(StoreBusy):
    """A player's stored rating is no longer the ``before`` of the changes handed in (another
    rated game of theirs ended meanwhile).  Nothing was written: compute and try again."""


@dataclass(frozen=True)
class RatedEnd:
    """The rating changes of a rated game that ends, by seat (0, 1), in ``pool``."""

    pool: Pool
    changes: tuple[RatingChange, RatingChange]


@dataclass(frozen=True)
class BotRatedEnd:
    """A game against the bot that ends with a result: the rating of the bot's ``level`` in
    ``pool`` moves by ``result`` (seat ``a`` is the bot) against ``player``, the player's
    rating there, which stays as it is (issue 49).  The store reads the level's rating in the
    transaction that ends the game (``start`` when it has none yet: the measured one), so
    games against the bot ending at once each move it in turn, none refused."""

    pool: Pool
    level: Level
    player: Rating
    result: Result
    start: Rating


#: What the transaction ending a game writes of ratings: the players' changes of a rated game,
#: or the bot's level's of a game against it.
RatingEnd = RatedEnd | BotRatedEnd


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard: ``rank`` (from 1), the player and their rating."""

    rank: int
    player_id: PlayerId
    name: str
    rating: Rating


@dataclass(frozen=True)
class RebuildSummary:
    """What a rebuild did: finished games read, games rated, ratings stored; games against the
    bot that moved its levels, and level ratings stored."""

    games: int
    rated: int
    ratings: int
    bot_games: int = 0
    levels: int = 0
