"""Session speed: many concurrent games played by simulated players through the manager.

Run: ``.venv/bin/python benchmarks/sessions.py`` (``--quick`` for a short run).

1. Throughput: ``--games`` games (default 200, the games of ``engines.GAMES`` in turn) played
   at once, every player answering at once, without pictures: persisted moves per second.
2. Latency with pictures: the same number of games, each player thinking a random time (mean
   ``--games / --rate`` seconds, so about ``--rate`` moves arrive per second in all) before
   moving; p50 / p99 of one ``manager.games.move`` call including the board PNG and its description.

Everything goes to a real SQLite file in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines
from bot.messages import Chat, User
from bot.sessions.clock import SystemClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore


async def start(manager: SessionManager, number: int, game: str) -> tuple[int, User, User, Chat]:
    """Create game ``number`` between two fresh players; return its id, players and chat."""
    a = User("bench", f"{number}a", f"player{number}a")
    b = User("bench", f"{number}b", f"player{number}b")
    chat = Chat("bench", f"room{number}")
    made = await manager.challenges.challenge(a, chat, game, b, {}, "me", None)
    challenge_id = made.challenge_id
    assert challenge_id is not None, made.text
    accepted = await manager.challenges.accept(b, chat, challenge_id)
    assert accepted.ok and accepted.game_id is not None, accepted.text
    return accepted.game_id, a, b, chat


def sequence(game: str, max_moves: int, rng: random.Random) -> list[tuple[int, str]]:
    """The (seat, move) pairs one simulated pair of players will play: a random legal game,
    worked out before the clock starts so the players' own thinking is not counted."""
    position = engines.new(game)
    moves: list[tuple[int, str]] = []
    while position.outcome is None and len(moves) < max_moves:
        move = rng.choice(position.legal_moves())
        moves.append((position.to_move, move))
        position = position.play(move)
    return moves


async def play(
    manager: SessionManager,
    seated: tuple[int, User, User, Chat],
    moves: list[tuple[int, str]],
    think: float,
    latencies: list[float],
    rng: random.Random,
) -> int:
    """One simulated pair of players submitting ``moves`` in turn through the manager."""
    game_id, a, b, chat = seated
    for seat, move in moves:
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        user = a if seat == 0 else b
        t = time.perf_counter()
        # Simulated players confirm a move that loses, as a real player would after the warning.
        reply = await manager.games.move(user, chat, move, game_id, confirm=True)
        latencies.append(time.perf_counter() - t)
        if not reply.ok:
            raise RuntimeError(f"game {game_id}: {reply.text}")
    return len(moves)


async def run(
    games: int,
    max_moves: int,
    think: float,
    pictures: bool,
    seed: int,
    names: list[str] | None = None,
) -> tuple[int, float, list[float]]:
    """Play ``games`` games at once; return moves played, seconds taken and move latencies
    (game set-up and the players' choice of moves are not timed)."""
    names = names or list(engines.GAMES)
    rngs = [random.Random(seed + n) for n in range(games)]
    plans = [sequence(names[n % len(names)], max_moves, rngs[n]) for n in range(games)]
    with tempfile.TemporaryDirectory() as folder:
        store = await SqliteStore.open(Path(folder) / "bench.db")
        try:
            manager = SessionManager(store, SystemClock(), pictures=pictures)
            seated = [await start(manager, n, names[n % len(names)]) for n in range(games)]
            latencies: list[float] = []
            t = time.perf_counter()
            counts = await asyncio.gather(
                *(
                    play(
                        manager,
                        seated[n],
                        plans[n],
                        think,
                        latencies,
                        rngs[n],
                    )
                    for n in range(games)
                )
            )
            elapsed = time.perf_counter() - t
        finally:
            await store.close()
    return sum(counts), elapsed, latencies


def main() -> None:
    """Run both measurements and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=40, help="moves per game at most")
    parser.add_argument("--rate", type=float, default=100.0, help="moves/s offered in part 2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--quick", action="store_true", help="20 games, 10 moves each")
    args = parser.parse_args()
    games, moves = (20, 10) if args.quick else (args.games, args.moves)

    total, elapsed, _ = asyncio.run(run(games, moves, 0.0, False, args.seed, args.game))
    print(
        f"throughput, no pictures: {games} concurrent games, {total} persisted moves in "
        f"{elapsed:.2f} s = {total / elapsed:.0f} moves/s"
    )

    think = games / args.rate
    total, elapsed, latencies = asyncio.run(
        run(games, moves, think, True, args.seed + 10_000, args.game)
    )
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    print(
        f"latency with pictures: {games} concurrent games, ~{args.rate:g} moves/s offered, "
        f"{total} moves: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {latencies[-1] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
