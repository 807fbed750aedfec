"""The Discord Activity's page: its weight and the time from Discord opening it to the board
drawn and playable.

Run: ``nice -n 15 .venv/bin/python benchmarks/web_activity.py`` (``--runs 10`` by default).

A bot on a fresh SQLite file serves its web board with the Activity on 127.0.0.1, signing in
against the fake OAuth2 token endpoint of the tests (``tests/fakes/discord_oauth.py``) on
127.0.0.1; Debian's headless chromium opens the Activity's page as Discord would (at ``/`` with
the channel in the launch parameters), with the SDK's own mock standing in for the Discord
client.  Printed:

- **weight**: the bytes of the page and everything it loads before the board (the Activity's
  HTML, its script and style, the SDK bundle, then the game's page and the board's script), as
  sent (compressed where the server compresses) and uncompressed;
- **to board**: from the navigation's start to the board drawn with Play offered (the SDK
  ready, ``authorize``, the code exchanged and the identity read, the game's page fetched and
  board.js drawing it), p50 and max.
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

import aiohttp
from playwright.async_api import async_playwright

from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import open_store
from bot.webboard import WebBoard, assets, serve_web
from bot.webboard.activity import ActivityConfig
from tests.fakes.discord_oauth import FakeDiscordOAuth, OAuthUser
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.kit import CY, DC_CHANNEL, DI, PHONE, new_game


async def _weight(url: str, slug_path: str) -> tuple[int, int]:
    """Bytes as sent (gzip accepted) and uncompressed, of everything loaded before the board."""
    paths = ["/", slug_path] + [assets.url(name) for name in assets.ASSETS if name != "board.css"]
    paths.append(assets.url("board.css"))
    sent = raw = 0
    async with aiohttp.ClientSession(auto_decompress=False) as http:
        for path in paths:
            async with http.get(url + path, headers={"Accept-Encoding": "gzip"}) as answer:
                body = await answer.read()
                sent += len(body)
            async with http.get(url + path, headers={"Accept-Encoding": "identity"}) as answer:
                raw += len(await answer.read())
    return sent, raw


async def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(str(Path(tmp) / "b.db"))
        manager = SessionManager(store, FakeClock(), pictures=False, rng=random.Random(1))
        async with FakeDiscordOAuth() as oauth:
            config = ActivityConfig(
                oauth.client_id, oauth.client_secret, oauth.api_base, True, (100.0, 100)
            )
            board = WebBoard(manager, "http://127.0.0.1", link_secret="b", activity=config)
            endpoint = await serve_web(board, "127.0.0.1", 0)
            board.public_url = url = f"http://127.0.0.1:{endpoint.port}"
            manager.web_pages = board
            gid = await new_game(manager, "maphex", CY, DI, DC_CHANNEL)
            to_move = await manager.games.player_to_move(gid)
            mover = CY if to_move is not None and to_move.user_id == CY.user_id else DI
            sent, raw = await _weight(url, "/g/" + (await board.link(gid)).rsplit("/", 1)[1])
            print(f"weight: {sent / 1024:.1f} KiB as sent, {raw / 1024:.1f} KiB uncompressed")
            times: list[float] = []
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=CHROMIUM, args=CHROMIUM_ARGS
                )
                for _ in range(runs):
                    manager.web.launched(mover, gid)
                    oauth.issue(OAuthUser(int(mover.user_id), "mover"), "mock_code")
                    context = await browser.new_context(viewport=PHONE, is_mobile=True)
                    page = await context.new_page()
                    start = time.perf_counter()
                    await page.goto(f"{url}/?channel_id={DC_CHANNEL.chat_id}")
                    await page.locator("#play").wait_for(state="visible")
                    await page.locator("[data-cell]").first.wait_for(state="visible")
                    times.append((time.perf_counter() - start) * 1000)
                    await context.close()
                await browser.close()
            print(
                f"to board: p50 {statistics.median(times):.0f} ms, max {max(times):.0f} ms "
                f"({runs} runs, Maphex 9x9, phone 390x844)"
            )
            await endpoint.close()
        await manager.close()
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    asyncio.run(main(parser.parse_args().runs))
