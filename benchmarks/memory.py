"""Resident memory of a whole ``hexhall run`` process as moves go on, and of the session
manager alone under 10 000 active games.

Run: ``nice -n 15 .venv/bin/python benchmarks/memory.py`` (the console process, 10 000 moves:
about ten minutes on a quiet machine); ``--moves 3000 --at 1000,3000`` for a quick run;
``--root DIR`` runs the ``hexhall`` of another source tree (a ``git archive`` of an older
commit, to compare); ``--manager`` measures the manager alone (below); ``--platform
telegram`` measures a Telegram process against the fake Bot API instead of the console
(:mod:`benchmarks.memory_telegram`, ``--lanes`` groups at once), ``--platform discord`` a
Discord process against the fake Discord (:mod:`benchmarks.memory_discord`).

**The process** (default): a real ``hexhall run`` (``python -m bot run``, the console adapter,
pictures on: a board PNG written after every move) on a fresh SQLite file, driven through a
pipe as a person at the keyboard would drive it.  Games follow one another, each between two
new players, each of the five games in turn, played with random legal moves (``move #<game>
<move> !``: played at once even when the bot warns that it loses) to the end or until the
player to move resigns after ``--longest`` (100) moves (random play makes Pathagon games of a
thousand moves).  After the moves counted at each
``--at`` mark, the script waits for the console to have answered everything typed (a marker
line echoed back) and prints ``VmRSS`` of ``/proc/<pid>/status`` for the process (and for its
child processes, if any) and how many lines were refused (0: every move was played).

**The manager alone** (``--manager``): 10 000 active games are bulk-inserted into a fresh
SQLite file (raw SQL, not through the manager): Pathagon and Maphex 9×9 games between two
players each, in 500 chats, each already ``--plies`` moves in (real positions from random legal
play, their move rows and snapshots).  Then this process opens the store and a
:class:`~bot.sessions.manager.SessionManager` (no pictures) and plays one legal move in game
after game through ``manager.games.move``: 10 000 moves across all 10 000 games.  Printed: the
resident set size after opening, after 1 000 and after ``--moves`` moves, and the mean time of
a move.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import selectors
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
# This script's folder first on the path would make "telegram" benchmarks/telegram.py.
sys.path[:] = [
    str(_ROOT),
    *(p for p in sys.path if Path(p or ".").resolve() != _ROOT / "benchmarks"),
]

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


ROOT = Path(__file__).resolve().parent.parent
#: The games the console process plays in turn (default options).
CONSOLE_GAMES = ("maphex", "inphexion", "pathagon", "isopath", "fixation")
#: Longest wait for the console to answer (a guard against a hung child, not a measure).
TIMEOUT = 600.0


def rss_mib(pid: int | str = "self") -> float:
    """The resident set size of process ``pid`` (this one by default) in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS in /proc/{pid}/status")


def children_mib(pid: int) -> float:
    """The resident set size of the child processes of ``pid`` (worker pools), in MiB."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            with contextlib.suppress(OSError, RuntimeError):  # it ended meanwhile
                total += rss_mib(child)
    return total


class ConsoleProcess:
    """A ``hexhall run`` console process of the source tree ``root`` on the database ``db``,
    driven through its standard input."""

    def __init__(self, root: Path, folder: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")}
        env.update(
            PYTHONPATH=str(root), HEXHALL_DB=str(folder / "hexhall.db"), PYTHONDONTWRITEBYTECODE="1"
        )
        self.errors = (folder / "stderr.txt").open("w+b")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            cwd=folder,
            env=env,
        )
        self._pending = b""
        self._marks = 0
        #: answers that refused what was typed (a move misread would show here), the first ones
        self.refused = 0
        self.refusals: list[str] = []

    def send(self, *lines: str) -> None:
        """Type lines into the console."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(f"{line}\n" for line in lines).encode())
        self.proc.stdin.flush()

    def _lines(self) -> Iterator[str]:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        selector = selectors.DefaultSelector()
        selector.register(fd, selectors.EVENT_READ)
        while True:
            while b"\n" in self._pending:
                line, self._pending = self._pending.split(b"\n", 1)
                yield line.decode(errors="replace")
            if not selector.select(TIMEOUT):
                return
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return
            self._pending += chunk

    def wait_for(self, text: str) -> str:
        """Read output lines until one contains ``text``; return it."""
        for line in self._lines():
            if line.startswith("! "):
                self.refused += 1
                if len(self.refusals) < 5:
                    self.refusals.append(line)
            if text in line:
                return line
        self.errors.seek(0)
        raise RuntimeError(f"never saw {text!r}: {self.errors.read().decode(errors='replace')}")

    def settle(self, player: str) -> None:
        """Wait until everything typed so far is answered, then go on as ``player``."""
        self._marks += 1
        self.send(f"as mark{self._marks}")
        self.wait_for(f"(now playing as mark{self._marks})")
        self.send(f"as {player}")

    def close(self) -> None:
        """Quit (or kill) the process and close its pipes."""
        if self.proc.poll() is None:
            self.send("quit")
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()
        self.errors.close()


def console_run(root: Path, moves: int, marks: set[int], longest: int, seed: int) -> None:
    """Play ``moves`` moves through a ``hexhall run`` console, games of at most ``longest``
    moves (then the player to move resigns); print its memory at ``marks``."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        hexhall = ConsoleProcess(root, Path(folder))
        try:
            hexhall.wait_for("Hexhall console")
            pid = hexhall.proc.pid
            print(f"hexhall run (console, pictures on) of {root}, pid {pid}")
            print(f"started: {rss_mib(pid):.1f} MiB resident")
            started, played, game = time.perf_counter(), 0, 0
            while played < moves:
                game += 1
                name = CONSOLE_GAMES[(game - 1) % len(CONSOLE_GAMES)]
                one, two = f"a{game}", f"b{game}"
                # The challenger moves first: the seat to move at the start is theirs.
                hexhall.send(f"as {one}", f"challenge {two} {name} first=me", f"as {two}")
                hexhall.send("accept")
                hexhall.wait_for(f"game #{game} ")
                pos = engines.new(name)
                first = pos.to_move
                made = 0
                while pos.outcome is None and played < moves and made < longest:
                    made += 1
                    move = rng.choice(pos.legal_moves())
                    pos = pos.play(move)
                    hexhall.send(
                        f"move #{game} {move} !"
                    )  # "!": a losing move is played, not asked
                    played += 1
                    if played in marks:
                        hexhall.settle(one if pos.to_move == first else two)
                        took = time.perf_counter() - started
                        print(
                            f"after {played:>6} moves ({game} games): {rss_mib(pid):.1f} MiB "
                            f"resident, children {children_mib(pid):.1f} MiB "
                            f"({took / played * 1000:.1f} ms a move, {hexhall.refused} refused)",
                            flush=True,
                        )
                if pos.outcome is None and played < moves:
                    hexhall.send(f"resign #{game} !")  # by the player to move (followed)
                hexhall.settle(one)
            for line in hexhall.refusals:
                print(f"refused: {line}")
        finally:
            hexhall.close()


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=10_000)
    parser.add_argument(
        "--at", default="1000,3000,10000", help="moves after which memory is printed (commas)"
    )
    parser.add_argument("--root", type=Path, default=ROOT, help="the source tree to run")
    parser.add_argument(
        "--longest", type=int, default=100, help="moves of a game before a player resigns"
    )
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument(
        "--platform",
        choices=("console", "telegram", "discord"),
        default="console",
        help="the process measured: the console, or Telegram or Discord against its fake",
    )
    parser.add_argument(
        "--lanes", type=int, default=100, help="groups (Telegram) or channels (Discord) at once"
    )
    parser.add_argument("--manager", action="store_true", help="the session manager alone")
    parser.add_argument("--games", type=int, default=10_000, help="with --manager")
    parser.add_argument("--plies", type=int, default=16, help="with --manager")
    args = parser.parse_args()
    if not args.manager:
        marks = {int(word) for word in args.at.split(",") if word.strip()} | {args.moves}
        if args.platform == "telegram":
            from benchmarks.memory_telegram import telegram_run

            kept = {m for m in marks if m <= args.moves}
            asyncio.run(telegram_run(args.moves, kept, args.longest, args.seed, args.lanes))
            return
        if args.platform == "discord":
            from benchmarks.memory_discord import discord_run

            kept = {m for m in marks if m <= args.moves}
            asyncio.run(discord_run(args.moves, kept, args.longest, args.seed, args.lanes))
            return
        console_run(
            args.root.resolve(),
            args.moves,
            {m for m in marks if m <= args.moves},
            args.longest,
            args.seed,
        )
        return
    if args.moves > args.games:
        parser.error("--moves is at most --games (one move in each game)")
    asyncio.run(manager_run(args))


async def manager_run(args: argparse.Namespace) -> None:
    """The session manager alone (``--manager``, see the module)."""
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
                reply = await manager.games.move(user, chat, move, game_id)
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
    main()
