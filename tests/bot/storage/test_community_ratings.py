"""Ratings per community (issue 27), in the store: a database of the previous schema (11, one
rating per player and pool across the bot) upgrades in place on SQLite and on PostgreSQL, each
former rating going to every community its player played rated games in; a rebuild then rates
each community from its own games only; a chat that changes its id takes its ratings along."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import pytest

import engines
from bot.ratings import Pool, Rating, RatingChange, Result, rate
from bot.storage import Community, SqlStore, open_store
from bot.storage.dbapi import to_ts
from bot.storage.schema import MIGRATIONS, SCHEMA_VERSION
from tests.bot.storage.raw import raw

#: The schema before ratings were per community (the version its migration starts from).
BEFORE = next(i for i, step in enumerate(MIGRATIONS) if "ratings_global" in step.sqlite)
START = datetime(2026, 1, 1, tzinfo=UTC)
A = Community("test", "server-a")
B = Community("test", "server-b")
ROOM = Community("test", "room")  # a Telegram group: its community is the chat itself
ADA, BOB, CY = 1, 2, 3


def _figures(rating: Rating) -> tuple[float, float, int]:
    return rating.mu, rating.sigma, rating.games


def _old_rows() -> tuple[list[tuple[str, tuple[Any, ...]]], dict[str, Any]]:
    """The statements that fill a schema-11 database as that bot left it: Ada beats Bob in
    server A, then again in server B, then Cy beats Bob in a group whose community is the
    group (its ``community`` is ``NULL``, as a group's game may have it); ratings across the
    bot, their changes and who played where (``rating_members``).  Also the expected figures."""
    snapshot = json.dumps(engines.new("pathagon").to_dict())
    games = [  # id, winner seat 0 player, loser, platform, chat, community
        (1, ADA, BOB, "a-general", "server-a"),
        (2, ADA, BOB, "b-general", "server-b"),
        (3, CY, BOB, "room", None),
    ]
    global_: dict[int, Rating] = {}
    changes: dict[int, tuple[RatingChange, RatingChange]] = {}
    statements: list[tuple[str, tuple[Any, ...]]] = [
        (
            "INSERT INTO players (id, platform, user_id, name, created_at) VALUES (?, ?, ?, ?, ?)",
            (pid, "test", str(pid), name, to_ts(START)),
        )
        for pid, name in ((ADA, "ada"), (BOB, "bob"), (CY, "cy"))
    ]
    members = []
    for gid, winner, loser, chat, community in games:
        at = START + timedelta(hours=gid)
        statements.append(
            (
                "INSERT INTO games (id, game, options, seat0, seat1, platform, chat_id, status, "
                "ply, to_move, snapshot, created_at, updated_at, finished_at, result, winner, "
                "reason, challenge_id, rated, origin, community) VALUES (?, 'pathagon', '{}', "
                "?, ?, 'test', ?, 'finished', 0, 0, ?, ?, ?, ?, 'win', 0, 'resignation', NULL, "
                "1, 'challenge', ?)",
                (gid, winner, loser, chat, snapshot, to_ts(at), to_ts(at), to_ts(at), community),
            )
        )
        made = rate(global_.get(winner, Rating()), global_.get(loser, Rating()), Result.A_WINS)
        changes[gid] = made
        for seat, (pid, change) in enumerate(zip((winner, loser), made, strict=True)):
            global_[pid] = change.after
            before, after = change.before, change.after
            statements.append(
                (
                    "INSERT INTO rating_changes (game_id, seat, player, pool, mu_before, "
                    "sigma_before, games_before, mu, sigma, games, at) "
                    "VALUES (?, ?, ?, 'pathagon', ?, ?, ?, ?, ?, ?, ?)",
                    (gid, seat, pid, *_figures(before), *_figures(after), to_ts(at)),
                )
            )
            members.append((community or chat, pid))
    for pid, rating in global_.items():
        statements.append(
            (
                "INSERT INTO ratings (player, pool, mu, sigma, games, value, updated_at) "
                "VALUES (?, 'pathagon', ?, ?, ?, ?, ?)",
                (pid, rating.mu, rating.sigma, rating.games, rating.value, to_ts(START)),
            )
        )
    for community, pid in dict.fromkeys(members):
        rating = global_[pid]
        statements.append(
            (
                "INSERT INTO rating_members (platform, community, pool, player, value, games) "
                "VALUES ('test', ?, 'pathagon', ?, ?, ?)",
                (community, pid, rating.value, rating.games),
            )
        )
    return statements, {"global": global_, "changes": changes}


def _old_sqlite(path: str, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> None:
    conn = sqlite3.connect(path)
    try:
        for number in range(BEFORE):
            conn.executescript(
                f"BEGIN;\n{MIGRATIONS[number].sqlite}\nPRAGMA user_version = {number + 1};\nCOMMIT;"
            )
        for sql, args in statements:
            conn.execute(sql, args)
        conn.commit()
    finally:
        conn.close()


async def _old_postgres(url: str, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> None:
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            for number in range(BEFORE):
                if MIGRATIONS[number].postgres.strip():
                    await conn.execute(MIGRATIONS[number].postgres)
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", BEFORE)
            for sql, args in statements:
                numbered = sql
                for index in range(1, sql.count("?") + 1):
                    numbered = numbered.replace("?", f"${index}", 1)
                await conn.execute(numbered, *args)
    finally:
        await conn.close()


async def _old_database(store_url: str) -> tuple[SqlStore, dict[str, Any]]:
    statements, expected = _old_rows()
    if store_url.startswith("postgresql"):
        await _old_postgres(store_url, statements)
    else:
        _old_sqlite(store_url, statements)
    return await open_store(store_url), expected


@pytest.mark.empty_database
async def test_a_database_of_global_ratings_upgrades_to_ratings_per_community(
    store_url: str,
) -> None:
    """(On SQLite and on PostgreSQL.)"""
    store, expected = await _old_database(store_url)
    try:
        assert BEFORE == 11 and await store.schema_version() == SCHEMA_VERSION
        global_, changes = expected["global"], expected["changes"]
        # Each former rating is now the player's in every community they played rated games
        # in (the numbers players were shown stay), and nowhere else.
        for where, pid in ((A, ADA), (B, ADA), (A, BOB), (B, BOB), (ROOM, BOB), (ROOM, CY)):
            assert await store.rating(pid, Pool("pathagon"), where) == global_[pid]
        assert await store.rating(CY, Pool("pathagon"), A) == Rating()
        assert await store.ratings_of(ADA, ROOM) == {}
        assert await store.rated_communities(BOB) == 3
        board = await store.leaderboard(Pool("pathagon"), platform="test", community="room")
        assert [line.player_id for line in board] == [CY, BOB]
        board = await store.leaderboard(Pool("pathagon"), platform="test", community="server-a")
        assert [line.player_id for line in board] == [ADA, BOB]
        # Each rating change belongs to its game's community (the group's: its chat).
        assert await store.rating_changes(2) == changes[2]
        history = [p.game_id for p in await store.rating_history(BOB, Pool("pathagon"), B)]
        assert history == [2]
        history = [p.game_id for p in await store.rating_history(BOB, Pool("pathagon"), ROOM)]
        assert history == [3]
        # ``hexhall ratings rebuild``: every community from its own games only.  Ada's one
        # win in server B is now a first game there, from a new rating.
        summary = await store.rebuild_ratings()
        assert (summary.rated, summary.ratings) == (3, 6)
        first = rate(Rating(), Rating(), Result.A_WINS)
        for where in (A, B):
            assert await store.rating(ADA, Pool("pathagon"), where) == first[0].after
            assert await store.rating(BOB, Pool("pathagon"), where) == first[1].after
        assert await store.rating_changes(2) == first
        assert await store.rating(BOB, Pool("pathagon"), ROOM) == first[1].after
    finally:
        await store.close()


@pytest.mark.empty_database
async def test_a_chat_that_changes_its_id_takes_its_ratings(store_url: str) -> None:
    """A Telegram group that becomes a supergroup is its own community: its ratings, their
    history and its leaderboard move to the new id; a server's stay.  (Both databases.)"""
    store, expected = await _old_database(store_url)
    try:
        await store.move_chat("test", "room", "super-room")
        moved = Community("test", "super-room")
        assert await store.rating(CY, Pool("pathagon"), moved) == expected["global"][CY]
        assert await store.rating(CY, Pool("pathagon"), ROOM) == Rating()
        history = await store.rating_history(BOB, Pool("pathagon"), moved)
        assert [p.game_id for p in history] == [3]
        board = await store.leaderboard(Pool("pathagon"), platform="test", community="super-room")
        assert [line.player_id for line in board] == [CY, BOB]
        rows = await raw(store, "SELECT COUNT(*) FROM ratings WHERE community = 'server-a'")
        assert rows == [(2,)]
    finally:
        await store.close()
