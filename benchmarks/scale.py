"""Hexhall at scale: moves per second with several bot processes, and commands on a big database.

Run: ``.venv/bin/python benchmarks/scale.py`` (the issue's size: 1 000 000 finished and 100 000
active games); ``--quick`` for a smoke run (20 000 / 2 000 games, fewer moves, under a minute);
``--finished N --active N`` for another size.  PostgreSQL is a throwaway server started from
Debian's ``postgresql`` package (``tests/postgres.py``: fsync off, default memory settings).

One run prints one table:

1. Throughput: 1, 2 and 4 OS processes (``multiprocessing``, spawn) on one fresh PostgreSQL
   database, and 1 on a fresh SQLite file.  Each process opens its own store and
   :class:`~bot.sessions.manager.SessionManager` (no pictures) and sets up its own games (the
   five games in turn) before a start barrier; then every game's pair of players moves as
   fast as the manager answers.  Persisted moves per second = rows in ``moves`` counted in the
   database afterwards / wall time from the barrier to the last process's finish.
2. At scale, on both backends: the database is bulk-loaded (raw SQL, not through the manager:
   one transaction of 10 000-row ``executemany`` batches for SQLite, ``COPY`` for PostgreSQL,
   secondary indexes built after the rows) with real positions of the engines' games (random
   legal play), their move rows and snapshots, ~20 000 players in 500 communities, deadlines
   spread over the next week, and ratings.  Then, through the manager: a move (on random
   active games, each first read from the database), a player's game list, leaderboards (a
   server's, everyone's), ``away``, ``rematch``, and one clock sweep with ``--due`` games past
   their deadline (p50/p99 of each; the sweep is one run).
3. The SQLite query plans of the commands of part 2: a step reading a whole table (``SCAN``)
   or a whole status is printed as a finding.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import multiprocessing
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import traceback
from collections.abc import Awaitable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg

import engines
from benchmarks.sessions import play, sequence, start
from bot.deadlines import alarm_at, reminder_at
from bot.messages import Chat, Reply, User
from bot.ratings import Pool, Rating, pool_of
from bot.sessions.clock import FakeClock, SystemClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore, open_store
from bot.storage.dbapi import to_ts
from tests.postgres import PostgresServer

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
PLATFORM = "bench"
PLAYERS = 20_000
COMMUNITIES = 500
#: Rows per executemany / COPY batch while loading.
BATCH = 10_000
#: (game, options, share of the games): what a mixed bot might hold.
VARIANTS: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("maphex", {"size": 9}, 30),
    ("maphex", {"size": 16}, 5),
    ("pathagon", {}, 15),
    ("isopath", {"size": 4}, 15),
    ("isopath", {"size": 5}, 5),
    ("fixation", {}, 15),
    ("inphexion", {}, 15),
)
#: Longest game script played out for the load (plies).
MAX_PLIES = 60
#: Days per move of the loaded active games, and how often each is used.
TIME_CONTROLS = ((1, 20), (3, 40), (7, 40))

GAME_COLUMNS = (
    "id", "game", "options", "seat0", "seat1", "platform", "chat_id", "status", "ply", "version",
    "to_move", "snapshot", "winner", "result", "reason", "created_at", "updated_at",
    "finished_at", "time_per_move", "deadline_at", "reminder_sent_for_ply", "community",
    "alarm_at",
)  # fmt: skip
MOVE_COLUMNS = ("game_id", "ply", "move", "seat", "played_at")
PLAYER_COLUMNS = ("id", "platform", "user_id", "name", "created_at")
RATING_COLUMNS = (
    "player", "platform", "community", "pool", "mu", "sigma", "games", "value", "updated_at",
)  # fmt: skip
LOADED_TABLES = ("players", "games", "moves", "ratings")


def dumps(value: Any) -> str:
    """JSON text exactly as the store writes it (a snapshot must compare equal on replay)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


@functools.cache
def minute(offset: int) -> str:
    """The stored time ``offset`` minutes after :data:`T0` (cached: move rows share them)."""
    return to_ts(T0 + timedelta(minutes=offset))


# -- the data: real positions of real games -------------------------------------------------


@dataclass(frozen=True)
class Script:
    """One random legal game of a variant: its moves and the stored snapshot after each."""

    game: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    snapshots: tuple[str, ...]
    seats: tuple[int, ...]  # who played each move
    to_move: tuple[int, ...]  # the seat to move after each ply (index 0: the start)
    winner: int | None  # the outcome at the end, when the game ended within MAX_PLIES
    reason: str | None
    ended: bool

    @functools.cached_property
    def options_text(self) -> str:
        """The options as stored."""
        return dumps(self.options)

    @functools.cached_property
    def pool(self) -> str:
        """The rating pool's key."""
        return pool_of(self.game, self.options).key

    def position(self, ply: int) -> engines.Position:
        """The position after ``ply`` moves."""
        return engines.position_after(self.game, self.moves[:ply], **self.options)


def scripts(per_variant: int, rng: random.Random) -> list[tuple[Script, int]]:
    """``per_variant`` random games of each variant, with each variant's share."""
    found = []
    for name, options, share in VARIANTS:
        resolved = engines.GAMES[name].resolve_options(**options)
        for _ in range(per_variant):
            position = engines.new(name, **resolved)
            moves: list[str] = []
            snapshots = [dumps(position.to_dict())]
            seats: list[int] = []
            to_move = [position.to_move]
            while position.outcome is None and len(moves) < MAX_PLIES:
                move = rng.choice(position.legal_moves())
                seats.append(position.to_move)
                position = position.play(move)
                moves.append(move)
                to_move.append(position.to_move)
                snapshots.append(dumps(position.to_dict()))
            out = position.outcome
            found.append(
                (
                    Script(
                        name,
                        resolved,
                        tuple(moves),
                        tuple(snapshots),
                        tuple(seats),
                        tuple(to_move),
                        None if out is None else out.winner,
                        None if out is None else str(out.termination),
                        out is not None,
                    ),
                    share,
                )
            )
    return found


@dataclass(frozen=True)
class ActiveGame:
    """What the benchmark needs to know of a loaded active game to move in it."""

    id: int
    script: Script
    ply: int
    seats: tuple[int, int]
    chat_id: str


@dataclass
class Dataset:
    """A database's worth of rows, made the same way for both backends (one seed)."""

    finished: int
    active: int
    players: int
    seed: int = 11
    library: list[Script] = field(default_factory=list)
    weights: list[int] = field(default_factory=list)
    home: list[int] = field(default_factory=list)  # community of player i (index i - 1)
    members: dict[int, list[int]] = field(default_factory=dict)
    actives: list[ActiveGame] = field(default_factory=list)
    move_rows: int = 0

    def prepare(self, per_variant: int) -> None:
        """Play the scripts and seat the players in their communities."""
        rng = random.Random(self.seed)
        made = scripts(per_variant, rng)
        self.library = [s for s, _ in made]
        self.weights = [w for _, w in made]
        communities = min(COMMUNITIES, max(2, self.players // 40))
        self.home = [rng.randrange(communities) for _ in range(self.players)]
        for player, community in enumerate(self.home, 1):
            self.members.setdefault(community, []).append(player)

    def player_rows(self) -> list[tuple[Any, ...]]:
        """Rows of ``players``."""
        return [
            (i, PLATFORM, f"u{i}", f"user{i}", minute(-400 * 24 * 60 + i))
            for i in range(1, self.players + 1)
        ]

    def rating_rows(self) -> list[tuple[Any, ...]]:
        """Rows of ``ratings`` (one to four pools a player, in the player's home community:
        ratings are per community), sorted by primary key."""
        rng = random.Random(self.seed + 1)
        pools = [p.key for p in Pool]
        ratings = []
        for player in range(1, self.players + 1):
            home = f"server{self.home[player - 1]}"
            for pool in sorted(rng.sample(pools, rng.randint(1, 4))):
                games = rng.randint(1, 150)
                rating = Rating(rng.gauss(25.0, 3.0), max(1.0, 8.333 / (1 + games / 10)), games)
                when = minute(-rng.randrange(60 * 24 * 60))
                figures = (rating.mu, rating.sigma, games, rating.value, when)
                ratings.append((player, PLATFORM, home, pool, *figures))
        return ratings

    def _seats(self, rng: random.Random) -> tuple[int, int, int]:
        community = self.home[rng.randrange(self.players)]
        members = self.members[community]
        if len(members) < 2:
            a, b = rng.sample(range(1, self.players + 1), 2)
        else:
            a, b = rng.sample(members, 2)
        return a, b, community

    def batches(self) -> Iterator[tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]]:
        """(game rows, move rows) by :data:`BATCH` games, finished ones first (older ids);
        fills :attr:`actives` and :attr:`move_rows` as it goes."""
        rng = random.Random(self.seed + 2)
        self.actives = []
        self.move_rows = 0
        total = self.finished + self.active
        for first in range(1, total + 1, BATCH):
            chosen = rng.choices(self.library, self.weights, k=min(BATCH, total - first + 1))
            games: list[tuple[Any, ...]] = []
            moves: list[tuple[Any, ...]] = []
            for gid, script in enumerate(chosen, first):
                a, b, community = self._seats(rng)
                if gid <= self.finished:
                    row, began, step = self._finished(gid, script, a, b, community, rng)
                else:
                    row, began, step = self._active(gid, script, a, b, community, rng)
                games.append(row)
                ply = row[8]
                moves.extend(
                    (gid, k, script.moves[k], script.seats[k], minute(began + (k + 1) * step))
                    for k in range(ply)
                )
            self.move_rows += len(moves)
            yield games, moves

    def _finished(
        self, gid: int, script: Script, a: int, b: int, community: int, rng: random.Random
    ) -> tuple[tuple[Any, ...], int, int]:
        length = len(script.moves)
        if script.ended and rng.random() < 0.5:
            ply, winner, reason = length, script.winner, script.reason
        else:
            ply = rng.randint(min(6, length), length)
            winner = rng.choice((0, 1))
            reason = "timeout" if rng.random() < 0.1 else "resignation"
        result = "draw" if winner is None else "win"
        step = rng.randrange(5, 12 * 60)  # minutes between moves
        ended = -rng.randrange(60, 365 * 24 * 60)
        began = ended - ply * step
        row = (
            gid, script.game, script.options_text, a, b, PLATFORM, f"chan{community}",
            "finished", ply, ply + 1, None, script.snapshots[ply], winner, result, reason,
            minute(began), minute(ended), minute(ended), float(rng.choice((1, 3, 7))), None,
            None, f"server{community}", None,
        )  # fmt: skip
        return row, began, step

    def _active(
        self, gid: int, script: Script, a: int, b: int, community: int, rng: random.Random
    ) -> tuple[tuple[Any, ...], int, int]:
        length = len(script.moves)
        ply = rng.randint(0, length - 1 if script.ended else length)
        days = rng.choices([d for d, _ in TIME_CONTROLS], [w for _, w in TIME_CONTROLS])[0]
        deadline = T0 + timedelta(seconds=rng.randrange(days * 86_400))
        last = deadline - timedelta(days=days)
        step = rng.randrange(5, 12 * 60)
        began = int((last - T0).total_seconds() // 60) - ply * step
        # Reminders due before T0 were sent then (the bot ran until T0).
        reminded = ply if reminder_at(deadline, days) <= T0 else None
        to_move = script.to_move[ply]
        row = (
            gid, script.game, script.options_text, a, b, PLATFORM, f"chan{community}",
            "active", ply, ply, to_move, script.snapshots[ply], None, None, None,
            minute(began), to_ts(last), None, float(days), to_ts(deadline), reminded,
            f"server{community}", to_ts(alarm_at(deadline, days, reminded=reminded is not None)),
        )  # fmt: skip
        self.actives.append(ActiveGame(gid, script, ply, (a, b), f"chan{community}"))
        return row, began, step


# -- loading ---------------------------------------------------------------------------------


def insert_sql(table: str, columns: tuple[str, ...]) -> str:
    """``INSERT INTO table (...) VALUES (?, ...)``."""
    marks = ", ".join("?" for _ in columns)
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"


class SqliteLoader:
    """Bulk-loads an SQLite file made by the store: one transaction, indexes built after."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode = DELETE")
        self.conn.execute("PRAGMA synchronous = OFF")
        self.conn.execute("PRAGMA cache_size = -400000")
        names = ", ".join(f"'{t}'" for t in LOADED_TABLES)
        self.indexes = self.conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
            f"AND tbl_name IN ({names})"
        ).fetchall()
        for name, _ in self.indexes:
            self.conn.execute(f"DROP INDEX {name}")
        self.conn.execute("BEGIN")

    def rows(self, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
        """Insert ``rows``."""
        self.conn.executemany(insert_sql(table, columns), rows)

    def finish(self) -> None:
        """Commit, build the indexes, gather statistics, back to WAL."""
        self.conn.execute("COMMIT")
        for _, sql in self.indexes:
            self.conn.execute(sql)
        self.conn.execute("ANALYZE")
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.close()


class PostgresLoader:
    """Bulk-loads a PostgreSQL database made by the store with ``COPY``; foreign-key triggers
    off meanwhile (as ``pg_restore --disable-triggers``), secondary indexes built after."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self.indexes: list[tuple[str, str]] = []

    @classmethod
    async def open(cls, url: str) -> PostgresLoader:
        """Connect and drop the secondary indexes of the loaded tables."""
        loader = cls(await asyncpg.connect(url))
        await loader.conn.execute("SET session_replication_role = replica")
        await loader.conn.execute("SET maintenance_work_mem = '512MB'")
        found = await loader.conn.fetch(
            "SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS sql "
            "FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid "
            "WHERE t.relname = ANY($1::text[]) AND NOT i.indisprimary AND NOT i.indisunique",
            list(LOADED_TABLES),
        )
        loader.indexes = [(r["name"], r["sql"]) for r in found]
        for name, _ in loader.indexes:
            await loader.conn.execute(f"DROP INDEX {name}")
        return loader

    async def rows(self, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
        """COPY ``rows`` in."""
        await self.conn.copy_records_to_table(table, records=rows, columns=list(columns))

    async def finish(self) -> None:
        """Build the indexes, move the id sequences past the loaded ids, vacuum and analyse
        (so autovacuum does not start on the new rows in the middle of the measurements)."""
        for _, sql in self.indexes:
            await self.conn.execute(sql)
        for table in ("players", "games"):
            await self.conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT max(id) FROM {table}))"
            )
        await self.conn.execute("VACUUM ANALYZE")
        await self.conn.close()


async def load(data: Dataset, sqlite_path: Path, pg_url: str) -> float:
    """Load ``data`` into both databases at once (the SQLite inserts run in a thread while
    PostgreSQL copies); returns the seconds taken."""
    t = time.perf_counter()
    for opened in (await open_store(sqlite_path), await open_store(pg_url)):
        await opened.close()
    lite = SqliteLoader(sqlite_path)
    pg = await PostgresLoader.open(pg_url)
    thread = ThreadPoolExecutor(1)
    loop = asyncio.get_running_loop()

    async def both(table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
        await asyncio.gather(
            loop.run_in_executor(thread, lite.rows, table, columns, rows),
            pg.rows(table, columns, rows),
        )

    await both("players", PLAYER_COLUMNS, data.player_rows())
    await both("ratings", RATING_COLUMNS, data.rating_rows())
    done = 0
    for games, moves in data.batches():
        await both("games", GAME_COLUMNS, games)
        await both("moves", MOVE_COLUMNS, moves)
        done += len(games)
        if done % 100_000 < BATCH:
            took = time.perf_counter() - t
            print(f"  loaded {done} games, {data.move_rows} moves ({took:.0f} s)", flush=True)
    await asyncio.gather(loop.run_in_executor(thread, lite.finish), pg.finish())
    thread.shutdown()
    return time.perf_counter() - t


# -- part 1: persisted moves per second with several processes -------------------------------


def throughput_child(
    url: str, index: int, games: int, moves: int, ready: Any, go: Any, done: Any
) -> None:
    """One bot process: its own store and manager, ``games`` games of its own set up, then
    (after ``go``) all played at once, ``moves`` moves each; reports its finish time."""
    try:
        asyncio.run(_throughput_child(url, index, games, moves, ready, go, done))
    except BaseException:
        done.put((index, 0.0, 0, traceback.format_exc()))


async def _throughput_child(
    url: str, index: int, games: int, moves: int, ready: Any, go: Any, done: Any
) -> None:
    store = await open_store(url)
    try:
        manager = SessionManager(store, SystemClock(), pictures=False)
        names = list(engines.GAMES)
        rngs = [random.Random(index * 100_000 + n) for n in range(games)]
        plans = [sequence(names[n % len(names)], moves, rngs[n]) for n in range(games)]
        seated = [
            await start(manager, index * 100_000 + n, names[n % len(names)]) for n in range(games)
        ]
        ready.put(index)
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        latencies: list[float] = []
        counts = await asyncio.gather(
            *(play(manager, seated[n], plans[n], 0.0, latencies, rngs[n]) for n in range(games))
        )
        done.put((index, time.monotonic(), sum(counts), None))
    finally:
        await store.close()


@dataclass(frozen=True)
class Throughput:
    """One throughput run."""

    backend: str
    processes: int
    moves: int
    seconds: float
    load_before: float

    @property
    def rate(self) -> float:
        """Persisted moves per second."""
        return self.moves / self.seconds


async def count_moves(url: str) -> int:
    """Rows in ``moves``."""
    store = await open_store(url)
    try:
        (count,) = await store._row("SELECT count(*) FROM moves")
        return int(count)
    finally:
        await store.close()


def throughput(
    backend: str, url: str, processes: int, games: int, moves: int, load_before: float
) -> Throughput:
    """Run ``processes`` bot processes on the (fresh) database ``url``."""
    asyncio.run(count_moves(url))  # creates the schema before the processes race to
    spawn = multiprocessing.get_context("spawn")
    ready, done, go = spawn.Queue(), spawn.Queue(), spawn.Event()
    children = [
        spawn.Process(target=throughput_child, args=(url, i, games, moves, ready, go, done))
        for i in range(processes)
    ]
    for child in children:
        child.start()
    reports = []
    for _ in children:
        # A child that failed during set-up reports to ``done`` instead.
        while True:
            with contextlib.suppress(Exception):
                ready.get(timeout=0.5)
                break
            if not done.empty():
                raise SystemExit(f"a bot process failed:\n{done.get()[3]}")
    began = time.monotonic()
    go.set()
    reports = [done.get(timeout=3600) for _ in children]
    for child in children:
        child.join()
    failed = [r[3] for r in reports if r[3]]
    if failed:
        raise SystemExit(f"a bot process failed:\n{failed[0]}")
    seconds = max(r[1] for r in reports) - began
    stored = asyncio.run(count_moves(url))
    played = sum(r[2] for r in reports)
    if stored != played:
        raise SystemExit(f"{played} moves answered but {stored} rows in moves")
    return Throughput(backend, processes, stored, seconds, load_before)


# -- part 2: commands on a big database ------------------------------------------------------


@dataclass
class Figures:
    """Durations (seconds) of each measured command of one backend, and notes about them."""

    times: dict[str, list[float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    async def timed(self, name: str, call: Awaitable[Any]) -> Any:
        """Await ``call``, adding its duration to ``name``."""
        t = time.perf_counter()
        result = await call
        self.times.setdefault(name, []).append(time.perf_counter() - t)
        return result


def ok(reply: Reply) -> Reply:
    """``reply``, which must not be a refusal."""
    if not reply.ok:
        raise SystemExit(f"refused: {reply.text}")
    return reply


def user(player: int) -> User:
    """The chat user of loaded player ``player``."""
    return User(PLATFORM, f"u{player}", f"user{player}")


async def commands(
    manager: SessionManager,
    clock: FakeClock,
    data: Dataset,
    args: argparse.Namespace,
    current: list[str],
) -> Figures:
    """Time the commands of part 2; ``current[0]`` names the one running (for the SQL)."""
    figures = Figures()
    rng = random.Random(5)
    store: Any = manager.store
    current[0] = "move"
    for game in rng.sample(data.actives, min(args.samples, len(data.actives))):
        position = game.script.position(game.ply)
        mover = game.seats[position.to_move]
        reply = await figures.timed(
            current[0],
            manager.games.move(
                user(mover),
                Chat(PLATFORM, game.chat_id),
                rng.choice(position.legal_moves()),
                game.id,
                confirm=True,
            ),
        )
        ok(reply)
    current[0] = "games list"
    for _ in range(args.samples):
        ok(await figures.timed(current[0], manager.games.games(user(rng.randint(1, data.players)))))
    names = list(engines.GAMES)
    for everywhere, label in ((False, "leaderboard, a server"), (True, "leaderboard, everyone")):
        current[0] = label
        for _ in range(args.samples):
            player = rng.randint(1, data.players)
            community = data.home[player - 1]
            chat = Chat(PLATFORM, f"chan{community}", community=f"server{community}")
            call = manager.players.leaderboard(user(player), chat, rng.choice(names), everywhere)
            ok(await figures.timed(label, call))
    current[0] = "away"
    for player in rng.sample(range(1, data.players + 1), min(args.samples // 4, data.players)):
        ok(await figures.timed(current[0], manager.players.away(user(player), 1)))
        current[0] = "setup"
        ok(await manager.players.back(user(player)))
        current[0] = "away"
    # A finished game of two loaded players in a chat of their own: rematch, cancel, again.
    current[0] = "setup"
    a, b = user(1), user(2)
    room = Chat(PLATFORM, "rematch-room")
    made = ok(await manager.challenges.challenge(a, room, "maphex", b, {}, "me", 3))
    assert made.challenge_id is not None
    accepted = ok(await manager.challenges.accept(b, room, made.challenge_id))
    ok(await manager.games.resign(a, room, accepted.game_id))
    for _ in range(args.samples // 4):
        current[0] = "rematch"
        asked = ok(await figures.timed(current[0], manager.games.rematch(a, room)))
        current[0] = "setup"
        assert asked.challenge_id is not None
        ok(await manager.challenges.cancel(a, room, asked.challenge_id))
    # One sweep when ``--due`` deadlines have passed (reminders fall due meanwhile too).
    current[0] = "setup"
    due = min(args.due, max(1, data.active // 20))
    (deadline,) = await store._row(
        "SELECT deadline_at FROM games WHERE status = 'active' "
        "ORDER BY deadline_at LIMIT 1 OFFSET ?",
        (due - 1,),
    )
    clock.set(datetime.strptime(deadline, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC))
    now = clock.now()
    overdue, window = await store._row(
        "SELECT sum(CASE WHEN deadline_at <= ? THEN 1 ELSE 0 END), count(*) FROM games "
        "WHERE status = 'active' AND alarm_at <= ?",
        (to_ts(now), to_ts(now)),
    )
    manager.sweep_gap = timedelta(microseconds=1)
    current[0] = "clock sweep"
    done = await figures.timed(current[0], manager.sweep())
    # The next round (every 30 s in a running bot) finds nothing to do but reads as much.
    current[0] = "clock sweep, nothing due"
    again = await figures.timed(current[0], manager.sweep())
    figures.notes.append(
        f"sweep: {overdue} games past their deadline, {done - overdue} reminders, "
        f"{window} games with work due read (their alarm passed); the next sweep did {again}"
    )
    current[0] = "setup"
    return figures


async def at_scale(
    backend: str, url: str, data: Dataset, args: argparse.Namespace
) -> tuple[Figures, dict[str, set[str]]]:
    """Open the loaded database and time the commands (SQLite: with its SQL captured)."""
    store = await open_store(url)
    clock = FakeClock(T0 + timedelta(minutes=1))
    manager = SessionManager(store, clock, pictures=False, rng=random.Random(2))
    statements: dict[str, set[str]] = {}
    current = ["setup"]
    if isinstance(store, SqliteStore):
        # Called on the connections' threads, after the event loop set ``current``.
        await store.trace_statements(lambda sql: statements.setdefault(current[0], set()).add(sql))
    try:
        figures = await commands(manager, clock, data, args, current)
    finally:
        if isinstance(store, SqliteStore):
            await store.trace_statements(None)
        await store.close()
    return figures, statements


# -- part 3: SQLite query plans --------------------------------------------------------------


def explain(path: Path, statements: dict[str, set[str]]) -> list[str]:
    """Per command, the distinct query-plan steps of the statements it ran; a step that reads a
    whole table (``SCAN``) or walks every row of one status (an index searched on
    ``status=?`` alone) is marked ``<-- reads too much``."""
    lines = []
    with contextlib.closing(sqlite3.connect(path)) as raw:
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
                    steps.setdefault(row[-1], shown_sql(sql))
            bad = [s for s in steps if too_much(s)]
            verdict = "every step an index lookup" if not bad else f"{len(bad)} steps read too much"
            lines.append(f"plan of {command}: {len(sqls)} statements, {verdict}")
            for step in bad:
                lines.append(f"    {step}  <-- reads too much\n        in: {steps[step]}")
    return lines


def shown_sql(sql: str) -> str:
    """A statement shortened for a finding: its start and, when long, its WHERE part."""
    text = " ".join(sql.split())
    if len(text) <= 150:
        return text
    where = text.find(" WHERE ")
    if where < 0:
        return text[:150]
    return f"{text[:40]} ...{text[where : where + 150]}"


#: Partial indexes that hold exactly the rows their query wants: scanning one reads no more.
EXACT_INDEXES = ("games_bot_turn",)


def too_much(step: str) -> bool:
    """Whether a plan step reads a whole table, or a whole status of one."""
    if any(step.endswith(f"USING INDEX {name}") for name in EXACT_INDEXES):
        return False
    if step.startswith("SCAN ") and "CONSTANT ROW" not in step and "SUBQUERY" not in step:
        return not step.startswith("SCAN json_each")
    return step.endswith("(status=?)")


# -- the run ---------------------------------------------------------------------------------


def ms(values: list[float], share: float) -> str:
    """The ``share`` quantile of ``values`` (seconds) in milliseconds."""
    ordered = sorted(values)
    if share == 0.5:
        return f"{statistics.median(ordered) * 1000:.1f}"
    return f"{ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000:.1f}"


def machine() -> str:
    """Cores and load average now."""
    one, five, fifteen = os.getloadavg()
    return f"{os.cpu_count()} cores, load average {one:.2f} {five:.2f} {fifteen:.2f}"


def size_of(path: Path) -> str:
    """A file's size in GB or MB."""
    size = path.stat().st_size
    return f"{size / 1e9:.2f} GB" if size >= 1e9 else f"{size / 1e6:.0f} MB"


async def pg_size(url: str) -> str:
    """The database's size as PostgreSQL reports it."""
    conn = await asyncpg.connect(url)
    try:
        return str(
            await conn.fetchval("SELECT pg_size_pretty(pg_database_size(current_database()))")
        )
    finally:
        await conn.close()


@dataclass(frozen=True)
class AtScale:
    """The figures of part 2 and 3."""

    data: Dataset
    loaded: float
    sizes: tuple[str, str]
    lite: Figures
    pg: Figures
    plans: list[str]


def run_throughput(
    args: argparse.Namespace, server: PostgresServer, folder: Path
) -> list[Throughput]:
    """Part 1, each configuration on a fresh database."""
    runs = []
    for backend, processes in (("PostgreSQL", 1), ("PostgreSQL", 2), ("PostgreSQL", 4),
                               ("SQLite", 1)):  # fmt: skip
        if backend == "SQLite":
            url = str(folder / f"throughput{processes}.db")
        else:
            url = server.create_database(f"throughput{processes}")
        load_before = os.getloadavg()[0]
        result = throughput(backend, url, processes, args.games, args.moves, load_before)
        print(f"  {backend} x{processes}: {result.moves} moves in {result.seconds:.2f} s",
              flush=True)  # fmt: skip
        runs.append(result)
    return runs


def run_scale(args: argparse.Namespace, server: PostgresServer, folder: Path) -> AtScale:
    """Parts 2 and 3."""
    players = min(PLAYERS, max(100, (args.finished + args.active) // 55))
    data = Dataset(args.finished, args.active, players)
    t = time.perf_counter()
    data.prepare(3 if args.quick else 12)
    print(f"  {len(data.library)} game scripts played in {time.perf_counter() - t:.1f} s",
          flush=True)  # fmt: skip
    sqlite_path = folder / "scale.db"
    pg_url = server.create_database("scale")
    loaded = asyncio.run(load(data, sqlite_path, pg_url))
    sizes = (size_of(sqlite_path), asyncio.run(pg_size(pg_url)))
    print(f"  loaded both in {loaded:.0f} s", flush=True)
    lite, statements = asyncio.run(at_scale("SQLite", str(sqlite_path), data, args))
    print("  SQLite measured", flush=True)
    pg, _ = asyncio.run(at_scale("PostgreSQL", pg_url, data, args))
    print("  PostgreSQL measured", flush=True)
    return AtScale(data, loaded, sizes, lite, pg, explain(sqlite_path, statements))


def print_throughput(args: argparse.Namespace, runs: list[Throughput]) -> None:
    """The table of part 1."""
    print(f"Persisted moves per second: each process plays {args.games} games at once, up to "
          f"{args.moves} moves each, no pictures; moves counted in the database")  # fmt: skip
    print()
    print("| database | processes | moves | seconds | moves/s | load average before |")
    print("|---|--:|--:|--:|--:|--:|")
    for r in runs:
        print(f"| {r.backend} | {r.processes} | {r.moves} | {r.seconds:.2f} | {r.rate:.0f} | "
              f"{r.load_before:.2f} |")  # fmt: skip
    print()


def print_scale(args: argparse.Namespace, found: AtScale) -> None:
    """The table of part 2 and the findings of part 3."""
    data = found.data
    print(f"At scale: {args.finished:,} finished + {args.active:,} active games, "
          f"{data.players:,} players, {data.move_rows:,} move rows; loaded in "
          f"{found.loaded:.0f} s; SQLite file {found.sizes[0]}, PostgreSQL database "
          f"{found.sizes[1]}")  # fmt: skip
    print()
    print(
        "| command (runs) | SQLite p50 ms | SQLite p99 ms | PostgreSQL p50 ms | PostgreSQL p99 ms |"
    )
    print("|---|--:|--:|--:|--:|")
    for name, values in found.lite.times.items():
        other = found.pg.times[name]
        if len(values) == 1:
            print(f"| {name} (one run) | {ms(values, 0.5)} | | {ms(other, 0.5)} | |")
        else:
            print(f"| {name} ({len(values)}) | {ms(values, 0.5)} | {ms(values, 0.99)} | "
                  f"{ms(other, 0.5)} | {ms(other, 0.99)} |")  # fmt: skip
    print()
    for label, figures in (("SQLite", found.lite), ("PostgreSQL", found.pg)):
        for note in figures.notes:
            print(f"{label} {note}")
    print()
    for line in found.plans:
        print(line)


def run(args: argparse.Namespace, folder: Path) -> None:
    """The parts asked for, then the tables."""
    print(f"machine: {machine()} (at start)", flush=True)
    server = PostgresServer.start(folder)
    try:
        runs = run_throughput(args, server, folder) if args.part != "scale" else []
        found = run_scale(args, server, folder) if args.part != "throughput" else None
        versions = (server.bin_dir.parent.name, sqlite3.sqlite_version)
    finally:
        server.stop()
    print()
    print(f"Hexhall scale benchmark ({'--quick' if args.quick else 'full'}): {machine()} (at end)")
    print(f"PostgreSQL {versions[0]} (throwaway server, fsync off, default memory settings); "
          f"SQLite {versions[1]} (WAL, synchronous NORMAL)")  # fmt: skip
    print()
    if runs:
        print_throughput(args, runs)
    if found is not None:
        print_scale(args, found)


def main() -> None:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, help="finished games (default 1 000 000)")
    parser.add_argument("--active", type=int, help="active games (default 100 000)")
    parser.add_argument("--games", type=int, help="games per process in part 1 (default 50)")
    parser.add_argument("--moves", type=int, help="moves per game in part 1 (default 30)")
    parser.add_argument("--samples", type=int, help="runs of each command (default 200)")
    parser.add_argument("--due", type=int, default=1000, help="games due in the sweep")
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument(
        "--part", choices=("all", "throughput", "scale"), default="all", help="what to measure"
    )
    args = parser.parse_args()
    small = args.quick
    defaults = {
        "finished": 20_000 if small else 1_000_000,
        "active": 2_000 if small else 100_000,
        "games": 20 if small else 50,
        "moves": 10 if small else 30,
        "samples": 30 if small else 200,
    }
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    with tempfile.TemporaryDirectory() as folder:
        run(args, Path(folder))


if __name__ == "__main__":
    main()
