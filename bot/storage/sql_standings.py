"""Ratings in SQL: :class:`SqlStandings` (the rating methods of
:class:`~bot.storage.sql.SqlStore`) and :func:`write_rated_end`, which the store's game-ending
transactions call.

Ratings count games of their own community only (issue 27): ``ratings`` has one row per
player, community (platform and id: a group, a server, a direct chat, the console) and pool,
with the shown value copied in for the leaderboard index; ``rating_changes`` the before and
after per seat of each rated game, with the game's community.  A rated game reads and writes
its two players' rows of its own community, nothing else.  Every number is computed by
:mod:`bot.ratings`; SQL only stores and orders them.
"""

from __future__ import annotations

import json
import logging
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot import level_ratings
from bot.core.status import GameResult, GameStatus
from bot.ratings import (
    FinishedGame,
    Origin,
    PlayerId,
    Pool,
    Rating,
    RatingChange,
    RatingPoint,
    Rebuild,
    Result,
    bot_result,
    pool_of,
    rate_level,
    rebuild,
)
from bot.storage.dbapi import Conn, Row, from_ts, to_ts
from bot.storage.errors import BadRow, StoreError
from bot.storage.sql_base import SqlBase
from bot.storage.standings import (
    BotRatedEnd,
    Community,
    RatingEnd,
    RatingsMoved,
    RebuildSummary,
    Standing,
)
from engines.levels import Level

__all__ = ["SqlStandings", "write_rated_end"]

log = logging.getLogger(__name__)

#: The most lines a leaderboard may ask for.
MAX_LIMIT = 100
#: Lines a leaderboard reads beyond those asked, to stand in for damaged ones left out.
_SPARE = 5
#: How many rows per line asked the leaderboard of every community reads (a player rated in
#: several communities has a row in each; their best one is their line).
_EVERYWHERE = 4


def _rating(values: Sequence[object], table: str, row_id: object) -> Rating:
    """``(mu, sigma, games)`` as stored, as a :class:`Rating`; :class:`BadRow` naming
    ``table`` and ``row_id`` if they are not one (text, not a number, a negative count)."""
    mu, sigma, games = values[0], values[1], values[2]
    try:
        if isinstance(games, bool) or not isinstance(games, int):
            raise ValueError(f"games is not a count: {games!r}")
        return Rating(_number(mu), _number(sigma), games)
    except ValueError as exc:
        raise BadRow(table, row_id, "mu, sigma, games", str(exc)) from None


def _number(value: object) -> float:
    """A stored REAL as a float (``ValueError`` for text, a blob or a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"not a number: {value!r}")
    return float(value)


def _rating_id(player: PlayerId, pool: Pool | str, where: Community | None = None) -> str:
    """How a ``ratings`` row is named in a log line: its key (player, community, pool)."""
    place = "" if where is None else f", {where.platform} {where.id}"
    return f"(player {player}{place}, {pool.key if isinstance(pool, Pool) else pool})"


def _community_of(game: Row) -> Community:
    """The community a stored game counts in (its ``community``, or its chat)."""
    return Community(str(game["platform"]), str(game["community"] or game["chat_id"]))


async def _stored_rating(conn: Conn, player: int, pool: Pool, where: Community) -> Rating:
    row = await conn.fetchrow(
        "SELECT mu, sigma, games FROM ratings WHERE player = ? AND platform = ? "
        "AND community = ? AND pool = ?",
        (player, where.platform, where.id, pool.key),
    )
    return (
        Rating() if row is None else _rating(tuple(row), "ratings", _rating_id(player, pool, where))
    )


_PUT_RATING = (
    "INSERT INTO ratings (platform, community, pool, player, mu, sigma, games, value, "
    "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _rating_values(
    where: Community, pool: Pool, player: int, rating: Rating, at: datetime
) -> tuple[object, ...]:
    return (
        where.platform,
        where.id,
        pool.key,
        player,
        rating.mu,
        rating.sigma,
        rating.games,
        rating.value,
        to_ts(at),
    )


async def _put_rating(
    conn: Conn, player: int, pool: Pool, rating: Rating, at: datetime, where: Community
) -> None:
    """Store ``player``'s new rating in ``pool`` of community ``where``."""
    await conn.execute(
        f"{_PUT_RATING} ON CONFLICT (player, platform, community, pool) DO UPDATE SET "
        "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
        "value = excluded.value, updated_at = excluded.updated_at",
        _rating_values(where, pool, player, rating, at),
    )


async def _put_change(
    conn: Conn,
    game_id: int,
    seat: int,
    player: int,
    pool: Pool,
    change: RatingChange,
    at: datetime,
    where: Community,
) -> None:
    before, after = change.before, change.after
    await conn.execute(
        "INSERT INTO rating_changes (game_id, seat, player, platform, community, pool, "
        "mu_before, sigma_before, games_before, mu, sigma, games, at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game_id,
            seat,
            player,
            where.platform,
            where.id,
            pool.key,
            before.mu,
            before.sigma,
            before.games,
            after.mu,
            after.sigma,
            after.games,
            to_ts(at),
        ),
    )


def _finished(row: Row) -> FinishedGame:
    """What :mod:`bot.ratings` needs of a stored game that ended (``ValueError`` if a value
    cannot be read)."""
    options = json.loads(row["options"])
    if not isinstance(options, dict):
        raise ValueError("options are not a JSON object")
    result = None
    if row["status"] == GameStatus.FINISHED and row["result"] in (GameResult.WIN, GameResult.DRAW):
        result = Result.from_winner(row["winner"] if row["result"] == GameResult.WIN else None)
    return FinishedGame(
        id=int(row["id"]),
        pool=pool_of(str(row["game"]), options),
        players=(int(row["seat0"]), int(row["seat1"])),
        result=result,
        finished_at=from_ts(row["finished_at"] or row["updated_at"]),
        rated=bool(row["rated"]),
        # A game against the bot (issue 17 marks it with the seat the bot plays) never counts.
        origin=Origin.BOT if row["bot_seat"] is not None else Origin(row["origin"]),
    )


_FINISHED_COLUMNS = (
    "id, game, options, seat0, seat1, status, result, winner, finished_at, updated_at, rated, "
    "origin, platform, chat_id, community, bot_seat, bot_level"
)


async def write_rated_end(conn: Conn, game: Row, rating: RatingEnd) -> None:
    """Inside the transaction that ends ``game`` (its row as just updated): check that each
    seat's stored rating in the game's community is still the change's ``before``
    (:class:`RatingsMoved` if not), then store the new ratings and the changes there.

    Refuses (``StoreError``) a game that does not count for ratings: the rule is
    :attr:`bot.ratings.FinishedGame.counts`, asked here again so no path can rate a casual,
    bot or imported game."""
    if isinstance(rating, BotRatedEnd):
        await _write_bot_end(conn, game, rating)
        return
    try:
        finished = _finished(game)
    except (ValueError, TypeError, KeyError) as exc:
        raise StoreError(f"game #{game['id']} cannot be rated: {exc}") from None
    if not finished.counts or finished.pool is not rating.pool:
        raise StoreError(f"game #{game['id']} does not count for ratings in {rating.pool.key}")
    where = _community_of(game)
    at = finished.finished_at
    for seat, (player, change) in enumerate(zip(finished.players, rating.changes, strict=True)):
        if await _stored_rating(conn, player, rating.pool, where) != change.before:
            raise RatingsMoved()
        await _put_rating(conn, player, rating.pool, change.after, at, where)
        await _put_change(conn, finished.id, seat, player, rating.pool, change, at, where)


async def _write_bot_end(conn: Conn, game: Row, end: BotRatedEnd) -> None:
    """The bot's level's rating moved by a game against it (see :class:`BotRatedEnd`): the
    row is taken (made from ``end.start`` if there is none, then locked by the write, so a
    game ending at the same time in another process waits), read, moved and stored.  The
    player's rating is not touched."""
    if game["bot_seat"] is None or str(game["bot_level"]) != end.level.value:
        raise StoreError(f"game #{game['id']} is not a game against the bot at {end.level.value}")
    at = to_ts(from_ts(game["finished_at"] or game["updated_at"]))
    key = (end.pool.key, end.level.value)
    first = end.start
    await conn.execute(
        "INSERT INTO bot_ratings (pool, level, mu, sigma, games, value, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (pool, level) DO UPDATE SET games = bot_ratings.games",
        (*key, first.mu, first.sigma, first.games, first.value, at),
    )
    row = await conn.fetchrow(
        "SELECT mu, sigma, games FROM bot_ratings WHERE pool = ? AND level = ?", key
    )
    assert row is not None  # written just above, in this transaction
    try:
        before = _rating(tuple(row), "bot_ratings", key)
    except BadRow as exc:  # the game still ends; the level's rating starts again, as measured
        log.error("%s; the level's rating starts again from its measured one", exc)
        before = end.start
    after = rate_level(before, end.player, end.result)
    await conn.execute(
        "UPDATE bot_ratings SET mu = ?, sigma = ?, games = ?, value = ?, updated_at = ? "
        "WHERE pool = ? AND level = ?",
        (after.mu, after.sigma, after.games, after.value, at, *key),
    )


async def _bot_ratings(conn: Conn) -> dict[tuple[Pool, Level], Rating]:
    rows = await conn.fetch("SELECT pool, level, mu, sigma, games FROM bot_ratings")
    found: dict[tuple[Pool, Level], Rating] = {}
    for row in rows:
        name = (row["pool"], row["level"])
        try:
            found[(Pool(row["pool"]), Level(row["level"]))] = _rating(row[2:5], "bot_ratings", name)
        except (ValueError, TypeError) as exc:
            log.error("bot_ratings %s left out: %s", name, exc)
    return found


def _leaderboard_sql(community: bool) -> str:
    if community:
        return (
            "SELECT r.player, p.name, r.mu, r.sigma, r.games FROM ratings r "
            "JOIN players p ON p.id = r.player "
            "WHERE r.platform = ? AND r.community = ? AND r.pool = ? "
            "ORDER BY r.value DESC, r.games DESC, r.player LIMIT ?"
        )
    # Every community's ratings of the pool, best first: a player rated in several
    # communities is on it once per community (the caller keeps their best line).
    return (
        "SELECT r.player, p.name, r.mu, r.sigma, r.games FROM ratings r "
        "JOIN players p ON p.id = r.player WHERE r.pool = ? "
        "ORDER BY r.value DESC, r.games DESC, r.player LIMIT ?"
    )


def leaderboard_query(
    pool: Pool, platform: str | None, community: str | None, limit: int
) -> tuple[str, tuple[object, ...]]:
    """The SQL and arguments of a leaderboard (the benchmark prints its query plan)."""
    limit = max(1, min(MAX_LIMIT * _EVERYWHERE + _SPARE, int(limit)))
    if platform is not None and community is not None:
        return _leaderboard_sql(True), (platform, community, pool.key, limit)
    return _leaderboard_sql(False), (pool.key, limit)


class SqlStandings(SqlBase):
    """The rating methods of the store."""

    async def rating(self, player_id: PlayerId, pool: Pool, where: Community) -> Rating:
        """A player's rating in ``pool`` of community ``where`` (a new player's ``Rating()``
        if they have none there)."""
        return await self._read(lambda c: _stored_rating(c, player_id, pool, where))

    async def bot_ratings(self) -> dict[tuple[Pool, Level], Rating]:
        """The bot's rating of each level in each pool that games against it have moved (a
        level and pool without games against players has none here: see
        :mod:`bot.level_ratings` for its measured one)."""
        return await self._read(_bot_ratings)

    async def ratings_of(self, player_id: PlayerId, where: Community) -> dict[Pool, Rating]:
        """Every rating a player has in community ``where``, in :class:`Pool` order."""
        rows = await self._read(
            lambda c: c.fetch(
                "SELECT pool, mu, sigma, games FROM ratings WHERE player = ? AND platform = ? "
                "AND community = ?",
                (player_id, where.platform, where.id),
            )
        )
        found = {}
        for row in rows:
            name = _rating_id(player_id, str(row["pool"]), where)
            try:
                found[Pool(row["pool"])] = _rating(row[1:4], "ratings", name)
            except (ValueError, TypeError) as exc:
                log.error("ratings %s left out: %s", name, exc)
        return {pool: found[pool] for pool in Pool if pool in found}

    async def rated_communities(self, player_id: PlayerId) -> int:
        """In how many communities a player has a rating (in any pool)."""
        rows = await self._read(
            lambda c: c.fetch(
                "SELECT DISTINCT platform, community FROM ratings WHERE player = ?",
                (player_id,),
            )
        )
        return len(rows)

    async def leaderboard(
        self,
        pool: Pool,
        *,
        platform: str | None = None,
        community: str | None = None,
        limit: int = 10,
    ) -> list[Standing]:
        """The ``limit`` highest ratings in ``pool`` of ``community`` on ``platform`` when
        both are given (one index range, never a scan of the games); otherwise each player's
        best rating in any community, best first."""
        wanted = max(1, min(MAX_LIMIT, int(limit)))
        everywhere = platform is None or community is None
        # A few lines more than asked, so a damaged rating left out still leaves ``limit``
        # (and, everywhere, so a player's other communities' rows leave enough players).
        read = (wanted * _EVERYWHERE if everywhere else wanted) + _SPARE
        sql, args = leaderboard_query(pool, platform, community, read)
        rows = await self._read(lambda c: c.fetch(sql, args))
        where = None if everywhere else Community(str(platform), str(community))
        standings: list[Standing] = []
        seen: set[int] = set()
        for row in rows:
            if int(row[0]) in seen:  # a lower rating of theirs in another community
                continue
            try:
                rating = _rating(row[2:5], "ratings", _rating_id(row[0], pool, where))
            except BadRow as exc:
                log.error("%s; left out of the leaderboard", exc)
                continue
            seen.add(int(row[0]))
            standings.append(Standing(len(standings) + 1, int(row[0]), str(row[1]), rating))
        return standings[:wanted]

    async def rating_history(
        self, player_id: PlayerId, pool: Pool, where: Community
    ) -> list[RatingPoint]:
        """A player's rating after each of their rated games in ``pool`` of community
        ``where``, oldest first."""
        rows = await self._read(
            lambda c: c.fetch(
                "SELECT game_id, at, mu, sigma, games FROM rating_changes "
                "WHERE player = ? AND platform = ? AND community = ? AND pool = ? "
                "ORDER BY at, game_id",
                (player_id, where.platform, where.id, pool.key),
            )
        )
        points = []
        for r in rows:
            name = f"(game {r['game_id']}, player {player_id})"
            try:
                rating = _rating(r[2:5], "rating_changes", name)
                points.append(RatingPoint(int(r["game_id"]), from_ts(r["at"]), rating))
            except ValueError as exc:
                log.error("rating_changes %s left out of the history: %s", name, exc)
        return points

    async def rating_changes(self, game_id: int) -> tuple[RatingChange, RatingChange] | None:
        """The rating changes a game made, by seat (``None``: it was not rated)."""
        rows = await self._read(
            lambda c: c.fetch(
                "SELECT seat, mu_before, sigma_before, games_before, mu, sigma, games "
                "FROM rating_changes WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
        )
        if len(rows) != 2:
            return None
        where = f"(game {game_id})"
        try:
            a, b = (
                RatingChange(
                    _rating(r[1:4], "rating_changes", where),
                    _rating(r[4:7], "rating_changes", where),
                )
                for r in rows
            )
        except BadRow as exc:
            log.error("%s; read as not rated", exc)
            return None
        return a, b

    async def finished_games(self, player_id: PlayerId) -> list[FinishedGame]:
        """Every game of a player that has ended (finished or aborted), in finish order, as
        :mod:`bot.ratings` reads them (rows that cannot be read are left out with a log
        line)."""
        rows = await self._read(
            lambda c: c.fetch(
                f"SELECT {_FINISHED_COLUMNS} FROM games WHERE seat0 = ? "
                "AND status IN ('finished', 'aborted') "
                f"UNION ALL SELECT {_FINISHED_COLUMNS} FROM games WHERE seat1 = ? AND seat0 <> ? "
                "AND status IN ('finished', 'aborted')",
                (player_id, player_id, player_id),
            )
        )
        return sorted(_readable(rows), key=lambda g: g.order)

    async def rebuild_ratings(self) -> RebuildSummary:
        """Recompute every rating and rating change from the stored games in order (finish
        time, then id), each community's from its own games only, and the bot's level ratings
        from the games against it, in one transaction (:class:`BadRow`, nothing written, for
        a game against the bot or a ``bot_ratings`` row naming a level it cannot rate)."""
        return await self._write(_rebuild)


def _readable(rows: Iterable[Row]) -> list[FinishedGame]:
    games = []
    for row in rows:
        try:
            games.append(_finished(row))
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            log.error("game #%s left out of ratings: %s", row["id"], exc)
    return games


@dataclass(frozen=True)
class _BotGame:
    """A finished game against the bot with a result, as the rebuild rates its level."""

    game: FinishedGame
    level: Level
    bot_seat: int

    @property
    def player(self) -> PlayerId:
        return self.game.players[1 - self.bot_seat]


def _against_bot(rows: Iterable[Row], games: Iterable[FinishedGame]) -> list[_BotGame]:
    """The games among ``games`` (read from ``rows``) that move a level of the bot, as the
    live path rates them when they end (:func:`bot.sessions.standings.settle`): against the
    bot, with a result and a level.  A seat or a level this version cannot rate is a
    :class:`BadRow`: the rebuild stops before it writes anything."""
    by_id = {int(row["id"]): row for row in rows}
    found = []
    for game in games:
        row = by_id[game.id]
        if row["bot_seat"] is None or game.result is None or row["bot_level"] is None:
            continue
        seat = row["bot_seat"]
        if isinstance(seat, bool) or seat not in (0, 1):
            raise BadRow("games", game.id, "bot_seat", f"the bot plays seat 0 or 1, not {seat!r}")
        try:
            level = Level(row["bot_level"])
        except ValueError:
            raise BadRow(
                "games", game.id, "bot_level", f"not a level of the bot: {row['bot_level']!r}"
            ) from None
        found.append(_BotGame(game, level, int(seat)))
    return sorted(found, key=lambda g: g.game.order)


async def _check_level_rows(conn: Conn) -> None:
    """:class:`BadRow` for a ``bot_ratings`` row naming a pool or level this version does not
    know (its numbers are rebuilt, whatever they hold; such a row would be lost)."""
    for row in await conn.fetch("SELECT pool, level FROM bot_ratings ORDER BY pool, level"):
        name = (row["pool"], row["level"])
        try:
            Pool(row["pool"])
            Level(row["level"])
        except (ValueError, TypeError) as exc:
            raise BadRow("bot_ratings", name, "pool, level", str(exc)) from None


def _rating_then(done: Rebuild | None, player: PlayerId, game: FinishedGame) -> Rating:
    """``player``'s rating in ``game``'s pool just before ``game`` ended, from ``done`` (the
    rebuilt ratings of the game's community): after their last rated game ending before it."""
    points = () if done is None else done.history.get((player, game.pool), ())
    index = bisect_left([(p.at, p.game_id) for p in points], game.order)
    return points[index - 1].rating if index else Rating()


async def _rebuild_levels(
    conn: Conn, played: list[_BotGame], done: dict[Community, Rebuild], places: dict[int, Community]
) -> int:
    """The bot's level ratings from its games in the order they ended, each from the level's
    measured rating (:func:`bot.level_ratings.start`) and moved as the game ending moved it:
    against the player's rating in the game's community at that moment."""
    levels: dict[tuple[Pool, Level], Rating] = {}
    last: dict[tuple[Pool, Level], datetime] = {}
    for bot in played:
        game = bot.game
        assert game.result is not None  # _against_bot keeps games with a result only
        key = (game.pool, bot.level)
        before = levels.get(key) or level_ratings.start(*key)
        theirs = _rating_then(done.get(places[game.id]), bot.player, game)
        result = bot_result(game.result.winner, bot.bot_seat)
        levels[key] = rate_level(before, theirs, result)
        last[key] = game.finished_at
    if not levels:
        return 0
    await conn.executemany(
        "INSERT INTO bot_ratings (pool, level, mu, sigma, games, value, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (pool.key, level.value, r.mu, r.sigma, r.games, r.value, to_ts(last[(pool, level)]))
            for (pool, level), r in levels.items()
        ],
    )
    return len(levels)


async def _rebuild(conn: Conn) -> RebuildSummary:
    """Every community's ratings from its own rated games, in order; then the bot's level
    ratings from the games against it (see :func:`_rebuild_levels`).  A game against the bot
    or a level row that cannot be rated raises :class:`BadRow` before anything is written."""
    rows = await conn.fetch(
        f"SELECT {_FINISHED_COLUMNS} FROM games WHERE status = 'finished' ORDER BY finished_at, id"
    )
    games = _readable(rows)
    places = {int(r["id"]): _community_of(r) for r in rows}
    against_bot = _against_bot(rows, games)
    await _check_level_rows(conn)
    await conn.execute("DELETE FROM rating_changes")
    await conn.execute("DELETE FROM ratings")
    await conn.execute("DELETE FROM bot_ratings")
    counted = sorted((g for g in games if g.counts), key=lambda g: g.order)
    by_community: dict[Community, list[FinishedGame]] = {}
    for game in counted:
        by_community.setdefault(places[game.id], []).append(game)
    stored = 0
    rebuilt: dict[Community, Rebuild] = {}
    for where, played in by_community.items():
        done = rebuilt[where] = rebuild(played)
        # Each game's "before" is the previous point of the same (player, pool) here.
        seen: dict[tuple[PlayerId, Pool], int] = {}
        last: dict[tuple[PlayerId, Pool], datetime] = {}
        for game in played:
            for seat, player in enumerate(game.players):
                key = (player, game.pool)
                points = done.history[key]
                index = seen.get(key, 0)
                seen[key] = index + 1
                before = points[index - 1].rating if index else Rating()
                change = RatingChange(before, points[index].rating)
                await _put_change(
                    conn, game.id, seat, player, game.pool, change, game.finished_at, where
                )
                last[key] = game.finished_at
        await conn.executemany(
            _PUT_RATING,
            [
                _rating_values(where, pool, player, r, last[(player, pool)])
                for (player, pool), r in done.ratings.items()
            ],
        )
        stored += len(done.ratings)
    levels = await _rebuild_levels(conn, against_bot, rebuilt, places)
    return RebuildSummary(len(games), len(counted), stored, len(against_bot), levels)
