"""The review on a game's page: how long a player waits for it, and for it again.

Run: ``nice -n 15 .venv/bin/python benchmarks/web_review.py`` (``--workers 1`` by default).

A bot on a fresh SQLite file serves its web board on 127.0.0.1 with the production review
budget (:data:`bot.sessions.thinker.REVIEW_NODES` evaluations per position); for each of the
scripted finished games of ``tests/web/scripted.py`` (one of each kind, 14 to 80 moves) an
aiohttp client asks ``GET /api/games/<slug>/review``:

- **first**: the wall time of the first request (the computation in the worker pool, the worker
  already started);
- **kept**: p50 of 20 more requests (the kept answer read back).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp

from bot.core.status import GameStatus
from bot.sessions.thinker import REVIEW_NODES, Thinker
from tests.web.kit import ADA, BO, TG_GROUP, new_game, site
from tests.web.scripted import SCRIPTED


async def _timed(http: aiohttp.ClientSession, url: str) -> float:
    start = time.perf_counter()
    async with http.get(url) as answer:
        assert answer.status == 200, await answer.text()
        await answer.read()
    return time.perf_counter() - start


async def main(workers: int) -> None:
    """Print the figures (see the module docstring)."""
    with tempfile.TemporaryDirectory() as folder:
        thinker = Thinker(workers=workers)
        # One client asks for five fresh reviews: no limit per address here.
        limits = {"review_rate": (1000.0, 1000)}
        async with site(str(Path(folder) / "h.db"), thinker=thinker, **limits) as web:
            await thinker.review("pathagon", {}, ["d1"], 1)  # the workers start
            print(f"review budget: {REVIEW_NODES} evaluations per position, {workers} worker(s)")
            async with aiohttp.ClientSession() as http:
                for name, scripted in SCRIPTED.items():
                    gid = await new_game(
                        web.manager, name, ADA, BO, TG_GROUP, scripted.moves, scripted.options
                    )
                    row = await web.manager.store.get_game(gid)
                    assert row is not None
                    if row.status is GameStatus.ACTIVE and row.to_move is not None:
                        await web.manager.games.resign((ADA, BO)[row.to_move], TG_GROUP, gid)
                    url = (await web.board.link(gid)).replace("/g/", "/api/games/") + "/review"
                    first = await _timed(http, url)
                    kept = [await _timed(http, url) for _ in range(20)]
                    print(
                        f"{name:10} {len(scripted.moves):3} moves: first {first:6.2f} s, "
                        f"kept p50 {1000 * statistics.median(kept):5.1f} ms"
                    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1)
    asyncio.run(main(parser.parse_args().workers))
