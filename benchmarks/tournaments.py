"""Tournaments at their largest: 50 players (five groups of ten, 225 games), on SQLite.

Run: ``.venv/bin/python benchmarks/tournaments.py`` (``--players`` for another size).

Through the manager on a fresh SQLite file: the start (every game created in one
transaction) and the chat messages it queued (one start message, each game's first board),
then half the games ended by resignation, then the median time of the
standings (text only, and with the table picture) and of a clock sweep with the tournament
running and nothing due (what every 30-second sweep costs it).  Prints the figures; asserts
nothing about them.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.messages import Chat, User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore

ROOM = Chat("bench", "club")


async def _median(runs: int, call: Callable[[], Awaitable[object]]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def main(players: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(Path(tmp) / "t.db")
        clock = FakeClock()
        text = SessionManager(store, clock, pictures=False, rng=random.Random(1))
        pictured = SessionManager(store, clock, pictures=True, rng=random.Random(1))
        users = [User("bench", str(i), f"player{i}") for i in range(players)]
        opened = await text.tournaments.tournament_new(
            users[0], ROOM, "maphex", {}, 3.0, 1, True, players
        )
        tid = opened.actions[0].subject
        for user in users[1:-1]:
            await text.tournaments.tournament_join(user, ROOM, tid)
        start = time.perf_counter()
        await text.tournaments.tournament_join(users[-1], ROOM, tid)  # full: it starts
        started = (time.perf_counter() - start) * 1000
        rows = [row for _, row in await store.tournament_game_rows(tid)]
        far = clock.now() + timedelta(days=1)
        queued = await store.due_notifications("bench", far, 10 * len(rows) + 10)
        kinds = Counter(str(n.kind) for n in queued if n.chat is not None)
        ids = {(await text.players.player(u)).id: u for u in users}
        for row in rows[::2]:
            await text.games.resign(ids[row.seat1], ROOM, row.id, confirm=True)
        standings = await _median(
            20, lambda: text.tournaments.tournament_standings(users[0], ROOM, tid)
        )
        picture = await _median(
            10, lambda: pictured.tournaments.tournament_standings(users[0], ROOM, tid)
        )
        sweep = await _median(20, text.sweep)
        print(f"{players} players, {len(rows)} games ({len(rows[::2])} ended)")
        print(f"start (joining the last player creates every game): {started:.0f} ms")
        boards = kinds.get("board", 0)
        print(
            f"chat messages the start queued: {dict(kinds)}; at Telegram's 20 a minute per "
            f"group they take {boards / 20:.1f} min, at Discord's 5 per 5 s {boards:.0f} s"
        )
        print(f"standings, text: {standings:.1f} ms median")
        print(f"standings with the table picture: {picture:.1f} ms median")
        print(f"clock sweep, the tournament running, nothing due: {sweep:.1f} ms median")
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=50)
    asyncio.run(main(parser.parse_args().players))
