"""The bot's storage: typed rows, and the SQLite and PostgreSQL stores, one body of SQL
(:class:`~bot.storage.sql.SqlStore`, made of one part per concern: games, challenges, players,
the outbox, leases, ratings, posts).

Open a database with ``await open_store(url)``.  The sessions are typed against
:class:`SqlStore`; a consumer that needs little of it (the outbox, the recap, the HTTP
endpoint) declares the few methods it calls as its own protocol.  Every method is one
transaction: a change and the notifications it causes commit together, and a change of a game
also cancels the undelivered notifications it makes obsolete.  Failures raise
:class:`StoreError`: :class:`StoreBusy` when the database cannot take the change now (nothing
changed; try again), :class:`BadRow` for a stored value that cannot be read where nothing can be
returned in its place (a game that cannot be read is set aside and returned with status
``corrupt``; each method says which).
"""

from pathlib import Path

from bot.core.errors import BadRow, StoreBusy, StoreError, StoreFull, StoreUnavailable
from bot.core.posts import Post, PostKind
from bot.storage.postgres import PostgresStore, is_postgres_url, redact_url
from bot.storage.rows import ChallengeRow, First, GameRow, MoveRow, NewGame, PlayerRow
from bot.storage.sql import SqlStore
from bot.storage.sql_languages import LanguageKind
from bot.storage.sqlite import SqliteStore
from bot.storage.standings import (
    BotRatedEnd,
    Community,
    RatedEnd,
    RatingEnd,
    RatingsMoved,
    RebuildSummary,
    Standing,
)

__all__ = [
    "BadRow",
    "BotRatedEnd",
    "ChallengeRow",
    "Community",
    "First",
    "GameRow",
    "LanguageKind",
    "MoveRow",
    "NewGame",
    "PlayerRow",
    "Post",
    "PostKind",
    "PostgresStore",
    "RatedEnd",
    "RatingEnd",
    "RatingsMoved",
    "RebuildSummary",
    "SqlStore",
    "SqliteStore",
    "Standing",
    "StoreBusy",
    "StoreError",
    "StoreFull",
    "StoreUnavailable",
    "open_store",
    "redact_url",
    "sqlite_path",
]


def sqlite_path(url: str) -> str | None:
    """The file an SQLite URL or plain path names; ``None`` for a PostgreSQL URL.  As in
    SQLAlchemy's URLs, ``sqlite:///data/hexhall.db`` is relative, ``sqlite:////var/hexhall.db``
    absolute.

    >>> sqlite_path("sqlite:////var/lib/hexhall.db"), sqlite_path("sqlite:///hexhall.db")
    ('/var/lib/hexhall.db', 'hexhall.db')
    >>> sqlite_path("sqlite:///:memory:"), sqlite_path("postgresql://db/hexhall") is None
    (':memory:', True)
    """
    if is_postgres_url(url):
        return None
    if url.startswith("sqlite:///"):
        return url[len("sqlite:///") :]
    if url.startswith("sqlite://"):
        return url[len("sqlite://") :]
    return url


async def open_store(url: str | Path) -> SqliteStore | PostgresStore:
    """Open (creating or migrating as needed) the database ``url`` names: a PostgreSQL URL
    (``postgresql://user:password@host/db``) or an SQLite file (a path or ``sqlite:///path``).
    Raises :class:`StoreError` with a one-line message (never the password)."""
    text = str(url).strip()
    path = sqlite_path(text)
    if path is None:
        return await PostgresStore.open(text)
    return await SqliteStore.open(path)
