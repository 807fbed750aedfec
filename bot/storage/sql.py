"""The store's SQL, shared by both databases: :class:`SqlStore`, over
:class:`~bot.storage.dbapi.Conn`, made of one part per concern: players
(:mod:`~bot.storage.sql_players`), challenges (:mod:`~bot.storage.sql_challenges`), games and
moves (:mod:`~bot.storage.sql_games`), the outbox (:mod:`~bot.storage.sql_outbox`), leases
(:mod:`~bot.storage.sql_leases`), ratings (:mod:`~bot.storage.sql_standings`), posts
(:mod:`~bot.storage.sql_posts`), tournaments (:mod:`~bot.storage.sql_tournaments`) and web
links (:mod:`~bot.storage.sql_web`), each on :class:`~bot.storage.sql_base.SqlBase`; stored
rows are read by :mod:`~bot.storage.sql_rows`.

Every method is an ``async`` function of a connection, run by the concrete store in one call
with the connection it lends: :class:`~bot.storage.sqlite.SqliteStore` an aiosqlite one (one
call at a time), :class:`~bot.storage.postgres.PostgresStore` an asyncpg one from its pool.
The SQL is what both accept as it is: ``?`` placeholders (translated for PostgreSQL),
``INSERT ... ON CONFLICT (...) DO NOTHING``, ``UPDATE ... RETURNING``; times are text
(:mod:`~bot.storage.dbapi`), options, snapshots and texts JSON text.

What differs between several processes and one is settled here too: a move, or any change of a
game, checks the game's ``version`` in its ``UPDATE`` (a racing change finds nothing and is
told the game moved on); a claim of notifications is a conditional ``UPDATE`` (with ``FOR
UPDATE SKIP LOCKED`` in PostgreSQL); a count that guards an insert first locks the row it
counts for (:meth:`SqlStore.create_challenge`).
"""

from __future__ import annotations

from bot.storage.sql_challenges import SqlChallenges
from bot.storage.sql_digests import SqlDigests
from bot.storage.sql_games import SqlGames
from bot.storage.sql_languages import SqlLanguages
from bot.storage.sql_leases import SqlLeases
from bot.storage.sql_outbox import SqlOutbox
from bot.storage.sql_players import SqlPlayers
from bot.storage.sql_posts import SqlPosts
from bot.storage.sql_premoves import SqlPremoves
from bot.storage.sql_standings import SqlStandings
from bot.storage.sql_tournaments import SqlTournaments
from bot.storage.sql_web import SqlWeb

__all__ = ["SqlStore"]


class SqlStore(
    SqlPlayers,
    SqlChallenges,
    SqlGames,
    SqlOutbox,
    SqlLeases,
    SqlStandings,
    SqlPosts,
    SqlTournaments,
    SqlWeb,
    SqlPremoves,
    SqlDigests,
    SqlLanguages,
):
    """The store's methods over SQL, one part per concern; a concrete store provides
    :meth:`~bot.storage.sql_base.SqlBase._lend` (and opening, closing and
    :meth:`~bot.storage.sql_base.SqlBase.schema_version`)."""
