"""The bot's storage: the :class:`Store` protocol, typed rows, and the SQLite and PostgreSQL
implementations (one body of SQL, :mod:`bot.storage.sql`).

Open a database with ``await open_store(url)``; everything else is typed against
:class:`Store`.
"""

from pathlib import Path

from bot.storage.errors import BadRow, StoreBusy, StoreError
from bot.storage.postgres import PostgresStore, is_postgres_url, redact_url
from bot.storage.posts import Post, PostKind
from bot.storage.protocol import Store
from bot.storage.rows import ChallengeRow, First, GameRow, MoveRow, NewGame, PlayerRow
from bot.storage.sqlite import SqliteStore
from bot.storage.standings import RatedEnd, RatingsMoved, RebuildSummary, Standing

__all__ = [
    "BadRow",
    "ChallengeRow",
    "First",
    "GameRow",
    "MoveRow",
    "NewGame",
    "PlayerRow",
    "Post",
    "PostKind",
    "PostgresStore",
    "RatedEnd",
    "RatingsMoved",
    "RebuildSummary",
    "SqliteStore",
    "Standing",
    "Store",
    "StoreBusy",
    "StoreError",
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
