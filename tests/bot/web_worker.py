"""One bot process serving the web board, for :mod:`tests.bot.test_web_kill`: a session
manager on the database at ``argv[1]`` with the real clock, its web board on
``127.0.0.1:argv[2]`` (signed in as the Telegram bot whose token is ``argv[3]``, its links
signed with ``argv[4]``, its rate limits raised: one client plays a whole game quickly),
printing ``ready`` once it listens; it serves until killed.  The secrets come as arguments,
not from :mod:`tests.web.kit`, which would import the browser's library into every worker.

    python -m tests.bot.web_worker URL PORT BOT_TOKEN LINK_SECRET
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.sessions.clock import SystemClock
from bot.sessions.manager import SessionManager
from bot.storage import open_store
from bot.webboard import WebBoard, serve_web

#: Rate limits no test client reaches.
PLENTY = (1000.0, 1000)


async def main(url: str, port: int, bot_token: str, link_secret: str) -> None:
    """Serve until killed."""
    store = await open_store(url)
    manager = SessionManager(store, SystemClock(), pictures=False, rng=random.Random())
    board = WebBoard(
        manager,
        f"http://127.0.0.1:{port}",
        telegram_token=bot_token,
        link_secret=link_secret,
        player_rate=PLENTY,
        address_rate=PLENTY,
    )
    await serve_web(board, "127.0.0.1", port)
    manager.web_pages = board
    print("ready", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]))
