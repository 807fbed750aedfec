"""Shared pieces of the session tests: players, a manager on a real database, and move
sequences that finish a game (found with the engines' own legal moves)."""

from __future__ import annotations

import asyncio
import atexit
import functools
import random
import shutil
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

import engines
from bot.messages import Chat, Reply, User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import open_store

ALICE = User("test", "1", "alice")
BOB = User("test", "2", "bob")
CAROL = User("test", "3", "carol")
ROOM = Chat("test", "room")


#: How long a test waits for something that happens in the background.
DEADLINE = 20.0


async def eventually(
    condition: Callable[[], bool | Awaitable[bool]], what: str = "", *, timeout: float = DEADLINE
) -> None:
    """Wait, without blocking the loop, until ``condition()`` (plain or awaitable) holds;
    fail after ``timeout`` seconds naming ``what``."""
    give_up = time.monotonic() + timeout
    while True:
        result = condition()
        if isinstance(result, Awaitable):
            result = await result
        if result:
            return
        assert time.monotonic() < give_up, f"never happened: {what or condition}"
        await asyncio.sleep(0.005)


def migrate(url: str) -> None:
    """Open and close the database ``url`` (an SQLite path or any URL
    :func:`~bot.storage.open_store` takes), which applies every migration; callable from plain
    code and from inside a running loop (it runs on a thread of its own)."""

    async def opened_and_closed() -> None:
        await (await open_store(url)).close()

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, opened_and_closed()).result()


@functools.cache
def _process_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="hexhall-tests-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def process_file(name: str) -> Path:
    """The path ``name`` in a folder of this process's own, deleted at exit: for a database
    built once per process and copied by each test."""
    return _process_folder() / name


@functools.cache
def sqlite_template() -> Path:
    """An SQLite file with every migration applied by the migrations themselves, made once per
    process (:func:`process_file`); tests copy it rather than migrate each new file (~45 ms of
    CPU a file, against ~1 ms for the copy)."""
    path = process_file("template.db")
    migrate(str(path))
    return path


def migrated(path: Path | str) -> Path | str:
    """``path``, made a copy of :func:`sqlite_template` first when it is an SQLite file that
    does not exist yet (a URL or an existing file is left as it is): opening it then finds
    every migration applied, as opening a new file would after applying them."""
    if isinstance(path, str) and ("://" in path or path == ":memory:"):
        return path
    if not Path(path).exists():
        shutil.copyfile(sqlite_template(), path)
    return path


@asynccontextmanager
async def session(
    path: Path | str, clock: FakeClock | None = None, seed: int = 1
) -> AsyncIterator[SessionManager]:
    """A manager (no pictures) on the database ``path`` (an SQLite file, or any URL
    :func:`~bot.storage.open_store` takes), closed afterwards.  A new SQLite file starts as a
    copy of the migrated template (:func:`migrated`)."""
    store = await open_store(migrated(path))
    try:
        yield SessionManager(store, clock or FakeClock(), pictures=False, rng=random.Random(seed))
    finally:
        await store.close()


@functools.cache
def finishing_moves(game: str, cap: int = 300, first_seed: int = 0) -> tuple[str, ...]:
    """A legal move sequence that ends ``game`` (default options): random legal moves, taking
    a winning move whenever one is in a short list; the first seed from ``first_seed`` on
    that finishes within ``cap`` plies."""
    for seed in range(first_seed, first_seed + 50):
        rng = random.Random(seed)
        pos = engines.new(game)
        moves: list[str] = []
        while pos.outcome is None and len(moves) < cap:
            legal = pos.legal_moves()
            win = None
            if len(legal) <= 300:
                win = next((m for m in legal if pos.play(m).outcome is not None), None)
            move = win or rng.choice(legal)
            pos = pos.play(move)
            moves.append(pos.last_move or move)
        if pos.outcome is not None:
            return tuple(moves)
    raise AssertionError(f"no random {game} game finished within {cap} plies")


#: a cap and the seed to start from that give a game a short finished game with
#: :func:`finishing_moves` (found once: searching from seed 0 would cost seconds)
_SHORT = {"isopath": (100, 28), "pathagon": (60, 10), "fixation": (60, 1)}


def short_finishing_moves(game: str) -> tuple[str, ...]:
    """:func:`finishing_moves` of a game of at most about a hundred moves (99 for Iso-Path,
    not 221; 29 for Pathagon, not 145), for tests that play a whole game through a chat."""
    cap, first_seed = _SHORT.get(game, (300, 0))
    return finishing_moves(game, cap, first_seed)


async def start_game(
    manager: SessionManager, game: str, first: str = "me", **options: str
) -> tuple[int, Reply]:
    """Alice challenges Bob to ``game``; Bob accepts.  Returns the game id and Bob's reply."""
    made = await manager.challenges.challenge(ALICE, ROOM, game, BOB, options, first)
    assert made.ok, made.text
    assert made.challenge_id is not None
    challenge_id = made.challenge_id
    accepted = await manager.challenges.accept(BOB, ROOM, challenge_id)
    assert accepted.ok, accepted.text
    assert accepted.game_id is not None
    return accepted.game_id, accepted


async def mover(manager: SessionManager, game_id: int) -> User:
    """The test user whose turn it is (Alice sits in seat 0 when she chose first=me)."""
    row = await manager.store.get_game(game_id)
    assert row is not None and row.to_move is not None
    player = await manager.store.get_player(row.seats[row.to_move])
    assert player is not None
    return ALICE if player.user_id == ALICE.user_id else BOB
