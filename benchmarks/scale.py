"""Commands at scale: a database of 100 000 finished and 10 000 active games.

Run: ``.venv/bin/python benchmarks/scale.py`` (``--finished``/``--active`` to change the size,
the issue-8 store was measured with ``--store old`` before it was deleted).

The database is filled with bulk inserts in one transaction (not through the manager), then a
few players with real games play through :class:`~bot.sessions.manager.SessionManager` and the
median time of each command is printed: a move without a game id (the chat path), a player's
game list, ``rematch``, ``away``, and a sweep per due item.  Every statement those commands run
is captured and its ``EXPLAIN QUERY PLAN`` checked: a line ``SCAN <table>`` (reading every row)
is printed as a finding; index lookups (``SEARCH``) are what the commands should do.
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
from bot.messages import Chat, Reply, User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
PLAYERS = 20_000


def ts(when: datetime) -> str:
    """The stored form of a time (both stores use it)."""
    return when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def fill(path: Path, finished: int, active: int, rng: random.Random) -> None:
    """Bulk-insert players and games (columns both schemas have) in one transaction."""
    snapshot = json.dumps(engines.new("maphex").to_dict(), separators=(",", ":"), sort_keys=True)
    t = ts(T0 - timedelta(days=30))
    far = ts(T0 + timedelta(days=3))
    with sqlite3.connect(path, isolation_level=None) as raw:
        raw.execute("BEGIN")
        raw.executemany(
            "INSERT INTO players (platform, user_id, name, created_at) VALUES (?, ?, ?, ?)",
            [("bench", f"u{i}", f"user{i}", t) for i in range(PLAYERS)],
        )
        rows = []
        for n in range(finished + active):
            a, b = rng.sample(range(1, PLAYERS + 1), 2)
            over = n < finished
            rows.append(
                (
                    "maphex",
                    "{}",
                    a,
                    b,
                    "bench",
                    f"room{n % 500}",
                    "finished" if over else "active",
                    None if over else 0,
                    snapshot,
                    0 if over else None,
                    "win" if over else None,
                    "resignation" if over else None,
                    t,
                    t,
                    t if over else None,
                    None if over else 3,
                    None if over else far,
                )
            )
        raw.executemany(
            "INSERT INTO games (game, options, seat0, seat1, platform, chat_id, status, "
            "to_move, snapshot, winner, result, reason, created_at, updated_at, finished_at, "
            "time_per_move, deadline_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        raw.execute("COMMIT")


def challenge_of(reply: Reply) -> int:
    """The id of the challenge ``reply`` is about (it must be one)."""
    assert reply.challenge_id is not None, reply.text
    return reply.challenge_id


def bench_user(i: int) -> User:
    """A player of the filled database (they already have games)."""
    return User("bench", f"u{i}", f"user{i}")


async def timed(times: list[float], call: Awaitable[Any]) -> Any:
    """Await ``call``, adding its duration to ``times``."""
    t = time.perf_counter()
    result = await call
    times.append(time.perf_counter() - t)
    return result


async def measure(args: argparse.Namespace, folder: Path) -> None:
    """Fill, then time each command and collect the SQL it ran."""
    path = folder / "scale.db"
    opener, trace = stores(args.store)
    store = await opener(path)
    await store.close()
    t = time.perf_counter()
    fill(path, args.finished, args.active, random.Random(1))
    print(f"filled {args.finished} finished and {args.active} active games in "
          f"{time.perf_counter() - t:.1f} s ({args.store} store)")  # fmt: skip
    store = await opener(path)
    clock = FakeClock(T0)
    manager = SessionManager(store, clock, pictures=False, rng=random.Random(2))
    statements: dict[str, set[str]] = {}
    current: list[str] = ["setup"]
    await trace(store, lambda sql: statements.setdefault(current[0], set()).add(sql))
    try:
        figures = await commands(manager, clock, current, args.reps)
    finally:
        await trace(store, None)
        await store.close()
    for name, values in figures.items():
        print(f"{name}: median {statistics.median(values) * 1000:.2f} ms ({len(values)} runs)")
    explain(path, statements)


async def commands(
    manager: SessionManager, clock: FakeClock, current: list[str], reps: int
) -> dict[str, list[float]]:
    """Time the commands of the issue; ``current[0]`` names the one running (for the SQL)."""
    figures: dict[str, list[float]] = {}
    rng = random.Random(3)
    a, b = bench_user(1), bench_user(2)
    chat = Chat("bench", "room1")
    # A real game in a chat of their own; players 1 and 2 also sit in the filled games.
    made = await manager.challenge(a, chat, "maphex", b, {}, "me", 3)
    challenge_id = made.challenge_id
    assert challenge_id is not None, made.text
    accepted = await manager.accept(b, chat, challenge_id)
    assert accepted.ok and accepted.game_id is not None, accepted.text
    position = engines.new("maphex")
    current[0] = "move (chat path)"
    times = figures.setdefault(current[0], [])
    for _ in range(min(reps, 60)):
        move = rng.choice(position.legal_moves())
        after = position.play(move)
        if after.outcome is not None:
            break
        user = a if position.to_move == 0 else b
        reply = await timed(times, manager.move(user, chat, move))
        assert reply.ok, reply.text
        position = after
    current[0] = "games list"
    times = figures.setdefault(current[0], [])
    for _ in range(reps):
        await timed(times, manager.games(a))
    # A finished game of players 3 and 4 in their chat: rematch, cancel, again.
    c, d = bench_user(3), bench_user(4)
    room = Chat("bench", "room3")
    made = await manager.challenge(c, room, "maphex", d, {}, "me", 3)
    accepted = await manager.accept(d, room, challenge_of(made))
    assert accepted.game_id is not None
    assert (await manager.resign(c, room, accepted.game_id)).ok
    current[0] = "rematch"
    times = figures.setdefault(current[0], [])
    for _ in range(reps):
        asked = await timed(times, manager.rematch(c, room))
        assert asked.ok, asked.text
        await manager.cancel(c, room, challenge_of(asked))
    current[0] = "away"
    times = figures.setdefault(current[0], [])
    for _ in range(reps):
        away = await timed(times, manager.away(a, 1))
        assert away.ok, away.text
        await manager.back(a)
    # Due clock work: games whose deadline passes, swept at once.
    games = []
    for i in range(reps):
        x, y = bench_user(100 + 2 * i), bench_user(101 + 2 * i)
        where = Chat("bench", f"sweep{i}")
        made = await manager.challenge(x, where, "maphex", y, {}, "me", 1)
        accepted = await manager.accept(y, where, challenge_of(made))
        games.append(accepted.game_id)
    clock.advance(days=2)
    manager.sweep_gap = timedelta(microseconds=1)
    current[0] = "sweep"
    t = time.perf_counter()
    done = await manager.sweep()
    elapsed = time.perf_counter() - t
    assert done == len(games), (done, len(games))
    figures["sweep per due item"] = [elapsed / done]
    return figures


def explain(path: Path, statements: dict[str, set[str]]) -> None:
    """Print, per command, the distinct query-plan steps of the statements it ran; a step
    that reads a whole table (``SCAN``) or walks every row of one status (an index searched
    on ``status=?`` alone) is marked ``<-- reads too much``."""
    with sqlite3.connect(path) as raw:
        for command, sqls in statements.items():
            if command == "setup":
                continue
            steps: dict[str, str] = {}
            for sql in sorted(sqls):
                head = sql.lstrip().split(None, 1)[0].upper()
                if head not in ("SELECT", "UPDATE", "DELETE", "INSERT", "WITH"):
                    continue
                try:
                    plan = raw.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
                except sqlite3.Error:
                    continue
                for row in plan:
                    steps.setdefault(row[-1], " ".join(sql.split())[:110])
            bad = [s for s in steps if too_much(s)]
            verdict = "every step an index lookup" if not bad else f"{len(bad)} steps read too much"
            print(f"plan of {command}: {len(sqls)} statements, {verdict}")
            for step, sql in sorted(steps.items()):
                mark = "  <-- reads too much" if too_much(step) else ""
                print(f"    {step}{mark}")
                if mark:
                    print(f"        in: {sql}")


def too_much(step: str) -> bool:
    """Whether a plan step reads a whole table, or a whole status of one."""
    if step.startswith("SCAN ") and "CONSTANT ROW" not in step and "SUBQUERY" not in step:
        return not step.startswith("SCAN json_each")
    return step.endswith("(status=?)")


Opener = Callable[[Path], Awaitable[Any]]
Tracer = Callable[[Any, Callable[[str], None] | None], Awaitable[None]]


def stores(which: str) -> tuple[Opener, Tracer]:
    """How to open the store and watch the SQL it runs.  (``old`` was the issue-8 store,
    ``bot/store.py``, measured before it was deleted: see the issue-12 report.)"""
    if which != "new":
        raise SystemExit("only the current store (bot.storage) is left to measure")
    from bot.storage import SqliteStore

    async def open_new(path: Path) -> Any:
        return await SqliteStore.open(path)

    async def trace_new(store: Any, fn: Callable[[str], None] | None) -> None:
        store._conn.set_trace_callback(fn)

    return open_new, trace_new


def main() -> None:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, default=100_000)
    parser.add_argument("--active", type=int, default=10_000)
    parser.add_argument("--reps", type=int, default=30, help="runs of each command")
    parser.add_argument("--store", choices=("new",), default="new")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure(args, Path(folder)))


if __name__ == "__main__":
    main()
