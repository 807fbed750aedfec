"""The web board's speed: page load on the server and move → page update latency.

Run: ``nice -n 15 .venv/bin/python benchmarks/web.py`` (``--loads 300 --moves 30`` by default;
``--browser`` also times a spectator page in Debian's headless chromium).

A bot on a fresh SQLite file serves its web board on 127.0.0.1; a Maphex game 30 moves long
(and a fresh one per move series) is looked at by an aiohttp client on the same machine.

- **page load**: the wall time of ``GET /g/<slug>`` (the HTML) and ``GET /api/games/<slug>``
  (the state the page's script draws: every position of the step-through), p50 and p99, as the
  server answers them over loopback: *cold* right after a move (the view is built from the
  store), *warm* (cached for that version).
- **move → update**: from a move until an open page's event stream says the game changed and
  the page has fetched the new state (what the page does before it redraws): a move made from
  a page and one made in the chat of the same process (both wake the game's poller at once),
  and one made by another process on the same database (seen by the poll, every 0.5 s).  With
  ``--browser``: until a spectator page in chromium shows a chat move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp

import engines
from bot.sessions.manager import SessionManager
from bot.storage import open_store
from tests.web.kit import ADA, BO, TG_GROUP, Site, init_data, new_game, site


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _line(what: str, samples: list[float]) -> str:
    ms = [s * 1000 for s in samples]
    return (
        f"{what:<42} n={len(ms):<4} p50 {statistics.median(ms):7.1f} ms   "
        f"p99 {_pct(ms, 0.99):7.1f} ms"
    )


def _moves(count: int) -> list[str]:
    position = engines.new("maphex")
    played = []
    for _ in range(count):
        legal = position.legal_moves()
        going = [m for m in legal if position.play(m).outcome is None]
        assert going, "the benchmark's game cannot go on without ending"
        move = going[len(played) * 7 % len(going)]
        position = position.play(move)
        played.append(position.last_move or move)
    return played


async def _loads(http: aiohttp.ClientSession, url: str, n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        async with http.get(url) as answer:
            await answer.read()
            assert answer.status == 200
        out.append(time.perf_counter() - start)
    return out


async def main(loads: int, moves: int, browser: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        # The POST rate limits raised: the benchmark plays far faster than people do.
        fast = (1000.0, 1000)
        async with site(
            str(Path(folder) / "bench.db"), poll_every=0.5, player_rate=fast, address_rate=fast
        ) as web:
            m = web.manager
            history = _moves(60)
            gid = await new_game(m, "maphex", ADA, BO, TG_GROUP, history[:30])
            link = await web.board.link(gid)
            slug = link.rsplit("/", 1)[1]
            api = f"{web.url}/api/games/{slug}"
            async with aiohttp.ClientSession() as http:
                print("page load, server side over loopback (Maphex 9x9, 30 moves):")
                print(_line("GET /g/<slug> warm", await _loads(http, link, loads)))
                print(_line("GET /api/games/<slug> warm", await _loads(http, api, loads)))
                cold_page, cold_api = [], []
                ply = 30
                for _ in range(30):
                    # A move (from the chat) makes both cold again.
                    row = await m.store.get_game(gid)
                    assert row is not None and row.to_move is not None
                    await m.games.move((ADA, BO)[row.to_move], TG_GROUP, history[ply], gid, ply)
                    ply += 1
                    cold_page += await _loads(http, link, 1)
                    cold_api += await _loads(http, api, 1)
                print(_line("GET /g/<slug> cold (after a move)", cold_page))
                print(_line("GET /api/games/<slug> cold (after a move)", cold_api))

                print("move -> page update (event received and new state fetched):")
                # Another process on the same database: its own store and manager, no pages.
                other_store = await open_store(str(Path(folder) / "bench.db"))
                other = SessionManager(other_store, web.clock, pictures=False)
                sources = ("page POST", "chat move, this process", "move by another process")
                for source in sources:
                    gid2 = await new_game(m, "maphex", ADA, BO, TG_GROUP, history[:2])
                    slug2 = (await web.board.link(gid2)).rsplit("/", 1)[1]
                    api2 = f"{web.url}/api/games/{slug2}"
                    samples = []
                    async with http.get(f"{api2}/events") as events:
                        await events.content.readuntil(b"\n\n")
                        for ply2 in range(2, 2 + moves):
                            row = await m.store.get_game(gid2)
                            assert row is not None and row.to_move is not None
                            user = (ADA, BO)[row.to_move]
                            start = time.perf_counter()
                            if source == "page POST":
                                auth = {"Authorization": "tma " + init_data(user, web.clock)}
                                body = json.dumps({"move": history[ply2], "ply": ply2})
                                async with http.post(f"{api2}/moves", data=body, headers=auth) as a:
                                    assert a.status == 200, await a.text()
                            else:
                                mover = m if source == "chat move, this process" else other
                                reply = await mover.games.move(
                                    user, TG_GROUP, history[ply2], gid2, ply2
                                )
                                assert reply.ok, reply.text
                            await events.content.readuntil(b"\n\n")
                            async with http.get(api2) as answer:
                                state = await answer.json()
                            assert state["ply"] == ply2 + 1
                            samples.append(time.perf_counter() - start)
                            # Between moves, as players do: the next poll starts fresh.
                            await asyncio.sleep(0.05)
                    print(_line(source, samples))
                await other_store.close()
                if browser:
                    await _browser(web, history, moves)


async def _browser(web: Site, history: list[str], moves: int) -> None:
    from playwright.async_api import async_playwright, expect

    from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS

    m = web.manager
    gid = await new_game(m, "maphex", ADA, BO, TG_GROUP, history[:2])
    link = await web.board.link(gid)
    samples = []
    async with async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = await chromium.new_page(viewport={"width": 390, "height": 844})
        await page.goto(link)
        await page.wait_for_selector("#moves li")
        for ply in range(2, 2 + min(moves, 20)):
            row = await m.store.get_game(gid)
            assert row is not None and row.to_move is not None
            start = time.perf_counter()
            await m.games.move((ADA, BO)[row.to_move], TG_GROUP, history[ply], gid, ply)
            await expect(page.locator("#moves li")).to_have_count(ply + 1)
            samples.append(time.perf_counter() - start)
        await chromium.close()
    print(_line("chat move -> spectator page in chromium", samples))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=300)
    parser.add_argument("--moves", type=int, default=30, help="at most 55")
    parser.add_argument("--browser", action="store_true")
    args = parser.parse_args()
    asyncio.run(main(args.loads, args.moves, args.browser))
