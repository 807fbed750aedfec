"""One bot process serving the web board, for :mod:`tests.bot.test_web_kill`: a session
manager on the database at ``argv[1]`` with the real clock, its web board on
``127.0.0.1:argv[2]`` (signed in as the tests' Telegram bot, its rate limits raised: one
client plays a whole game quickly), printing ``ready`` once it listens; it serves until killed.

    python -m tests.bot.web_worker URL PORT
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.sessions.clock import SystemClock
from bot.sessions.manager import SessionManager
from bot.storage import open_store
from bot.webboard import WebBoard, serve_web
from tests.web.kit import BOT_TOKEN, LINK_SECRET

#: Rate limits no test client reaches.
PLENTY = (1000.0, 1000)


async def main(url: str, port: int) -> None:
    """Serve until killed."""
    store = await open_store(url)
    manager = SessionManager(store, SystemClock(), pictures=False, rng=random.Random())
    board = WebBoard(
        manager,
        f"http://127.0.0.1:{port}",
        telegram_token=BOT_TOKEN,
        link_secret=LINK_SECRET,
        player_rate=PLENTY,
        address_rate=PLENTY,
    )
    await serve_web(board, "127.0.0.1", port)
    manager.web_pages = board
    print("ready", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
