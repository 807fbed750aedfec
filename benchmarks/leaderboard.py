"""Leaderboards at scale: 100 000 rated games, then ``leaderboard`` timed and its plan shown.

Run: ``.venv/bin/python benchmarks/leaderboard.py`` (``--games``, ``--players``,
``--communities`` to change the size).

The games are bulk-inserted as finished, rated games between random players of random
communities (platform "bench", one Discord-like server each) in one transaction, not through the
manager; ``rebuild_ratings`` then rates them all in order (timed: it is what ``hexhall ratings
rebuild`` does).  After that the manager's ``leaderboard`` command runs for one community and for
everyone, and the median time of each is printed with the ``EXPLAIN QUERY PLAN`` of its query:
an index walk (``SEARCH ... USING INDEX ratings_board`` for a community, whose ratings are its
own since issue 27 / ``SCAN ... USING INDEX ratings_pool`` for everyone) with no ``TEMP B-TREE``
sort and no ``games`` table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines
from bot.messages import Chat, User
from bot.ratings import Pool
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from bot.storage.dbapi import to_ts
from bot.storage.sql_standings import leaderboard_query

T0 = datetime(2025, 1, 1, tzinfo=UTC)
PLATFORM = "bench"
GAMES = [
    ("maphex", {"size": 9}),
    ("pathagon", {}),
    ("isopath", {"size": 4}),
    ("maphex", {"size": 16}),
]


def fill(path: Path, games: int, players: int, communities: int, seed: int = 7) -> None:
    """Bulk-insert ``players`` players and ``games`` finished rated games among them."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path)
    snapshots = {
        (name, json.dumps(options)): json.dumps(engines.new(name, **options).to_dict())
        for name, options in GAMES
    }
    with conn:
        conn.executemany(
            "INSERT INTO players (id, platform, user_id, name, created_at) VALUES (?, ?, ?, ?, ?)",
            [(i, PLATFORM, str(i), f"player{i}", to_ts(T0)) for i in range(1, players + 1)],
        )
        # Each player belongs to one community; games are mostly within it.
        home = {i: rng.randrange(communities) for i in range(1, players + 1)}
        members: dict[int, list[int]] = {}
        for player, community in home.items():
            members.setdefault(community, []).append(player)
        rows = []
        for number in range(1, games + 1):
            community = rng.randrange(communities)
            pool = members[community] if len(members.get(community, [])) > 1 else None
            a, b = rng.sample(pool, 2) if pool else rng.sample(range(1, players + 1), 2)
            name, options = GAMES[rng.randrange(len(GAMES))]
            at = to_ts(T0 + timedelta(minutes=number))
            winner = rng.choice((0, 1, 0, 1, None))
            rows.append(
                (
                    number,
                    name,
                    json.dumps(options),
                    a,
                    b,
                    PLATFORM,
                    f"channel{community}",
                    snapshots[(name, json.dumps(options))],
                    winner,
                    "draw" if winner is None else "win",
                    at,
                    at,
                    at,
                    number,
                    f"server{community}",
                )
            )
        conn.executemany(
            "INSERT INTO games (id, game, options, seat0, seat1, platform, chat_id, status, "
            "snapshot, winner, result, reason, created_at, updated_at, finished_at, "
            "challenge_id, community) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 'finished', ?, ?, ?, 'connection', ?, ?, ?, ?, ?)",
            rows,
        )
    conn.execute("ANALYZE")
    conn.close()


async def median_ms(call: Callable[[], Awaitable[Any]], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def plan(path: Path, community: str | None) -> list[str]:
    sql, args = leaderboard_query(Pool("maphex9"), PLATFORM if community else None, community, 10)
    conn = sqlite3.connect(path)
    try:
        return [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", args)]
    finally:
        conn.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--communities", type=int, default=500)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        store = await SqliteStore.open(path)
        await store.close()
        start = time.perf_counter()
        fill(path, args.games, args.players, args.communities)
        print(
            f"filled {args.games} rated games, {args.players} players "
            f"in {time.perf_counter() - start:.1f} s"
        )
        store = await SqliteStore.open(path)
        try:
            start = time.perf_counter()
            summary = await store.rebuild_ratings()
            print(
                f"rebuild_ratings: {summary.rated} games rated, {summary.ratings} ratings "
                f"in {time.perf_counter() - start:.1f} s"
            )
            manager = SessionManager(store, FakeClock(), pictures=False)
            user = User(PLATFORM, "1", "player1")
            server = Chat(PLATFORM, "channel3", community="server3")
            here = await manager.players.leaderboard(user, server, "maphex")
            everywhere = await manager.players.leaderboard(user, server, "maphex", True)
            assert here.ok and everywhere.ok, (here.text, everywhere.text)
            print("\n" + here.text.splitlines()[1] + "  (first line, server3)")
            print(everywhere.text.splitlines()[1] + "  (first line, everyone)\n")
            for label, community, call in (
                ("leaderboard maphex (one server)", "server3",
                 lambda: manager.players.leaderboard(user, server, "maphex")),
                ("leaderboard maphex all", None,
                 lambda: manager.players.leaderboard(user, server, "maphex", True)),
            ):  # fmt: skip
                ms = await median_ms(call, args.runs)
                print(f"{label}: median {ms:.3f} ms over {args.runs} runs")
                for line in plan(path, community):
                    print(f"    plan: {line}")
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
