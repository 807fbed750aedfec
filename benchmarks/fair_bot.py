"""One player's burst of hard games against the bot, and another player's easy move meanwhile.

Run: ``nice -n 15 .venv/bin/python benchmarks/fair_bot.py`` (``--burst`` to change the number
of hard games, ``--give-up`` the longest wait measured).

One process, as ``hexhall run`` has it: a manager on a fresh SQLite file with the real
:class:`~bot.sessions.thinker.Thinker` (the real search budgets, one worker process per CPU).
Alice asks for ``--burst`` hard Maphex 9×9 games against the bot at once (seat 0 for her, so
the bot plays Blue, which moves first:
every accepted game starts a search); then Bob starts one easy game, the bot moving first.
Printed: how many of Alice's games were started and refused, and how long Bob waited from his
request until the bot's move was stored in his game (the issue's bound: under 2 s).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.messages import Chat, User
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from bot.workers import cpu_count

ALICE = User("bench", "1", "alice")
BOB = User("bench", "2", "bob")
ROOM = Chat("bench", "room")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=40)
    parser.add_argument("--give-up", type=float, default=120.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = await SqliteStore.open(Path(folder) / "fair.db")
        manager = SessionManager(store, pictures=False)
        try:
            started = time.perf_counter()
            burst = await asyncio.gather(
                *(
                    manager.challenges.challenge_bot(
                        ALICE, ROOM, "maphex", "hard", {"size": 9}, "me"
                    )
                    for _ in range(args.burst)
                )
            )
            opened = sum(reply.ok for reply in burst)
            took = time.perf_counter() - started
            refusal = next((reply.text for reply in burst if not reply.ok), "none")
            print(f"{cpu_count()} worker processes")
            print(f"alice: {args.burst} hard games asked in {took:.2f} s: {opened} started")
            print(f"  refusal: {refusal}")
            await asyncio.sleep(0.5)  # the searches are under way
            asked = time.perf_counter()
            bob = await manager.challenges.challenge_bot(
                BOB, ROOM, "maphex", "easy", {"size": 9}, "me"
            )
            assert bob.ok and bob.game_id is not None, bob.text
            waited = None
            while time.perf_counter() - asked < args.give_up:
                row = await store.get_game(bob.game_id)
                if row is not None and row.ply >= 1:
                    waited = time.perf_counter() - asked
                    break
                await asyncio.sleep(0.02)
            shown = f"{waited:.2f} s" if waited is not None else f"more than {args.give_up:.0f} s"
            print(f"bob's easy game: the bot's move stored after {shown}")
        finally:
            await manager.close()
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
