"""One bot process's clock sweep for :mod:`tests.bot.tournaments.test_sweep_kill`: a session
manager on the database at ``argv[1]`` with the real clock, sweeping again and again (the
tournaments' starts, results and standings among the rest) until it is killed; it prints
``swept`` after each round, so the test knows it is at work.

    python -m tests.bot.tournaments.sweep_worker URL
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.sessions.clock import SystemClock
from bot.sessions.manager import SessionManager
from bot.storage import open_store


async def main(url: str) -> None:
    """Sweep until killed."""
    store = await open_store(url)
    manager = SessionManager(store, SystemClock(), pictures=False, rng=random.Random())
    while True:
        await manager.sweep()
        print("swept", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
