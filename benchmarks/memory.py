"""Resident memory of a bot process: 10 000 active games, then 1 000 and 10 000 moves across them.

Run: ``nice -n 15 .venv/bin/python benchmarks/memory.py`` (``--games``, ``--moves``, ``--plies``
to change the size).

The games are bulk-inserted into a fresh SQLite file (raw SQL, not through the manager): Pathagon
and Maphex 9×9 games between two players each, in 500 chats, each already ``--plies`` moves in
(real positions from random legal play, their move rows and snapshots).  Then one process (this
one) opens the store and a :class:`~bot.sessions.manager.SessionManager` (no pictures), as
``hexhall run`` does, and plays one legal move in game after game through ``manager.move``: the
first 1 000 moves in 1 000 games, 10 000 moves across all 10 000 games in all.  Printed: the
resident set size (``VmRSS`` of ``/proc/self/status``) after opening, after 1 000 and after
10 000 moves, and the mean time of a move.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sqlite3
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines
from bot.messages import Chat, User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from bot.storage.dbapi import to_ts

T0 = datetime(2026, 1, 1, tzinfo=UTC)
PLATFORM = "bench"
KINDS = (("pathagon", {}), ("maphex", {"size": 9}))
#: Distinct openings per game kind (games reuse them: the positions differ little in size).
OPENINGS = 40


def rss_mib() -> float:
    """This process's resident set size in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def openings(plies: int, seed: int = 5) -> list[tuple[str, dict[str, int], list[str], str, str]]:
    """Random legal openings of ``plies`` moves: (game, options, moves, snapshot, next move)."""
    rng = random.Random(seed)
    found = []
    for name, options in KINDS:
        made = 0
        while made < OPENINGS:
            pos = engines.new(name, **options)
            moves = []
            while len(moves) < plies and pos.outcome is None:
                pos = pos.play(rng.choice(pos.legal_moves()))
                moves.append(pos.last_move or "")
            if pos.outcome is not None:
                continue
            nxt = rng.choice(pos.legal_moves())
            found.append((name, dict(options), moves, json.dumps(pos.to_dict()), nxt))
            made += 1
    return found


def fill(path: Path, games: int, plies: int) -> list[tuple[int, User, str]]:
    """Bulk-insert ``games`` active games; for each, (game id, user to move, a legal move)."""
    conn = sqlite3.connect(path)
    table = openings(plies)
    todo = []
    with conn:
        conn.executemany(
            "INSERT INTO players (id, platform, user_id, name, created_at) VALUES (?, ?, ?, ?, ?)",
            [(i, PLATFORM, str(i), f"player{i}", to_ts(T0)) for i in range(1, 2 * games + 1)],
        )
        rows, moves = [], []
        for number in range(1, games + 1):
            name, options, opening, snapshot, nxt = table[number % len(table)]
            a, b = 2 * number - 1, 2 * number
            to_move = json.loads(snapshot)["to_move"]
            at = to_ts(T0)
            rows.append(
                (number, name, json.dumps(options), a, b, PLATFORM, f"chat{number % 500}",
                 len(opening), len(opening), to_move, snapshot, at, at, number)
            )  # fmt: skip
            moves += [(number, ply, move, ply % 2, at) for ply, move in enumerate(opening)]
            user = a if to_move == 0 else b
            todo.append((number, User(PLATFORM, str(user), f"player{user}"), nxt))
        conn.executemany(
            "INSERT INTO games (id, game, options, seat0, seat1, platform, chat_id, status, ply, "
            "version, to_move, snapshot, created_at, updated_at, challenge_id, rated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, 0)",
            rows,
        )
        conn.executemany(
            "INSERT INTO moves (game_id, ply, move, seat, played_at) VALUES (?, ?, ?, ?, ?)",
            moves,
        )
    conn.execute("ANALYZE")
    conn.close()
    return todo


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=10_000)
    parser.add_argument("--plies", type=int, default=16)
    args = parser.parse_args()
    if args.moves > args.games:
        parser.error("--moves is at most --games (one move in each game)")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memory.db"
        await (await SqliteStore.open(path)).close()  # created and migrated, then filled
        todo = fill(path, args.games, args.plies)
        gc.collect()
        store = await SqliteStore.open(path)
        try:
            manager = SessionManager(store, FakeClock(T0), pictures=False)
            print(f"{args.games} active games of {args.plies} moves each; one process")
            print(f"opened: {rss_mib():.1f} MiB resident")
            started = time.perf_counter()
            refused = 0
            for index in range(args.moves):
                game_id, user, move = todo[index % len(todo)]
                chat = Chat(PLATFORM, f"chat{game_id % 500}")
                reply = await manager.move(user, chat, move, game_id)
                refused += not reply.ok
                if index + 1 in (1_000, args.moves):
                    gc.collect()
                    per = (time.perf_counter() - started) / (index + 1) * 1000
                    print(
                        f"after {index + 1:>6} moves: {rss_mib():.1f} MiB resident "
                        f"({per:.2f} ms a move, {refused} refused)"
                    )
            await manager.close()
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
