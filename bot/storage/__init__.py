"""The bot's storage: the :class:`Store` protocol, typed rows, and the SQLite implementation.

Open a database with ``await SqliteStore.open(path)``; everything else is typed against
:class:`Store`.
"""

from bot.storage.errors import BadRow, StoreBusy, StoreError
from bot.storage.posts import Post, PostKind
from bot.storage.protocol import Store
from bot.storage.rows import (
    ChallengeRow,
    ChallengeStatus,
    First,
    GameResult,
    GameRow,
    GameStatus,
    MoveRow,
    NewGame,
    PlayerRow,
)
from bot.storage.sqlite import SqliteStore
from bot.storage.standings import RatedEnd, RatingsMoved, RebuildSummary, Standing

__all__ = [
    "BadRow",
    "ChallengeRow",
    "ChallengeStatus",
    "First",
    "GameResult",
    "GameRow",
    "GameStatus",
    "MoveRow",
    "NewGame",
    "PlayerRow",
    "Post",
    "PostKind",
    "RatedEnd",
    "RatingsMoved",
    "RebuildSummary",
    "SqliteStore",
    "Standing",
    "Store",
    "StoreBusy",
    "StoreError",
]
