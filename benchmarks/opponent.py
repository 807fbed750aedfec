"""The bot as an opponent: what its searches cost the other games.

Run: ``.venv/bin/python benchmarks/opponent.py`` (``--quick`` for a short run).

``--bots`` games against the bot at ``--level`` (Lines of Fixation, the slowest search) keep
the bot thinking all the time, in the worker pool (one process per CPU); meanwhile two people
play Pathagon through the same manager.  Printed: p50 / p99 of one ``manager.games.move`` in the
people's game with the bot idle and while it thinks, the bot's moves made, and the median time
from a player's move to the bot's answer being stored.  No pictures; a real SQLite file.
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
from bot.sessions.thinker import Thinker
from bot.storage import SqliteStore
from bot.workers import cpu_count

ROOM = Chat("bench", "room")


async def people_moves(manager: SessionManager, count: int, rng: random.Random) -> list[float]:
    """Seconds per ``manager.games.move`` over ``count`` moves of people's Pathagon games."""
    a, b = User("bench", "a", "ann"), User("bench", "b", "ben")
    took: list[float] = []
    while len(took) < count:
        made = await manager.challenges.challenge(a, ROOM, "pathagon", b, {}, "me", None, "no")
        assert made.challenge_id is not None
        game_id = (await manager.challenges.accept(b, ROOM, made.challenge_id)).game_id
        assert game_id is not None
        position = engines.new("pathagon")
        while position.outcome is None and len(took) < count:
            move = rng.choice(position.legal_moves())
            start = time.perf_counter()
            reply = await manager.games.move(
                (a, b)[position.to_move], ROOM, move, game_id, confirm=True
            )
            took.append(time.perf_counter() - start)
            assert reply.ok, reply.text
            position = position.play(move)
        if position.outcome is None:
            await manager.games.resign(a, ROOM, game_id, confirm=True)
    return took


async def keep_the_bot_busy(
    manager: SessionManager, bots: int, level: str, stop: asyncio.Event, answers: list[float]
) -> int:
    """Players against the bot who answer at once: the bot always has searches to run."""

    async def player(number: int) -> int:
        user = User("bench", f"p{number}", f"player{number}")
        made = 0
        rng = random.Random(number)
        while not stop.is_set():
            reply = await manager.challenges.challenge_bot(
                user, ROOM, "fixation", level, {}, "me", None
            )
            game_id = reply.game_id
            assert game_id is not None, reply.text
            while not stop.is_set():
                row = await manager.store.get_game(game_id)
                assert row is not None
                if row.status != "active":
                    break
                if row.to_move == row.bot_seat:
                    await asyncio.sleep(0.01)  # the benchmark's own polling, not a test
                    continue
                moves = [m.move for m in await manager.store.moves(game_id)]
                position = engines.position_after("fixation", moves)
                start = time.perf_counter()
                await manager.games.move(
                    user, ROOM, rng.choice(position.legal_moves()), game_id, confirm=True
                )
                while not stop.is_set():
                    again = await manager.store.get_game(game_id)
                    if again is None or again.to_move != again.bot_seat or again.status != "active":
                        break
                    await asyncio.sleep(0.01)
                answers.append(time.perf_counter() - start)
                made += 1
        return made

    return sum(await asyncio.gather(*(player(i) for i in range(bots))))


def quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"


async def main(quick: bool, bots: int, level: str) -> None:
    count = 100 if quick else 400
    with tempfile.TemporaryDirectory() as folder:
        store = await SqliteStore.open(Path(folder) / "bench.db")
        manager = SessionManager(store, SystemClock(), pictures=False, thinker=Thinker())
        try:
            idle = await people_moves(manager, count, random.Random(1))
            stop, answers = asyncio.Event(), []
            busy_task = asyncio.create_task(keep_the_bot_busy(manager, bots, level, stop, answers))
            while not answers:  # the bot is searching before the timing starts
                await asyncio.sleep(0.01)
            busy = await people_moves(manager, count, random.Random(2))
            stop.set()
            made = await busy_task
        finally:
            await manager.close()
            await store.close()
    print(f"worker processes: {cpu_count()}; bot games at once: {bots} ({level})")
    print(f"people's move, bot idle:     {quantiles(idle)}")
    print(f"people's move, bot thinking: {quantiles(busy)}")
    print(
        f"bot moves made meanwhile: {made}; player's move to bot's answer stored: "
        f"median {statistics.median(answers):.2f} s"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--level", default="normal")
    args = parser.parse_args()
    asyncio.run(main(args.quick, args.bots, args.level))
