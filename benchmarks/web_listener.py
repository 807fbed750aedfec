"""The web board's listener under one greedy address (issue 44): event streams, downloads.

Run: ``nice -n 15 .venv/bin/python benchmarks/web_listener.py`` (``--streams 300
--downloads 32`` by default).

A bot on a fresh SQLite file serves its web board on 127.0.0.1; an aiohttp client on the same
machine, all from one address:

- **streams**: opens ``--streams`` event streams of one game at once and holds them; prints
  how many were let in and refused, and the wall time of the game's page and its API state
  while they are held (the first, cold, then p50 and max of 20 more).
- **downloads**: asks ``--downloads`` times at once for the animation of a Maphex game 40
  moves long that was never rendered; prints the renderings made, the wall time until the last
  answer, and this process's resident memory (``VmRSS``) before and after.
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

from benchmarks.web import _moves
from tests.web.kit import ADA, BO, TG_GROUP, new_game, site


def _memory(field: str) -> float:
    """This process's ``field`` of ``/proc/self/status`` (like ``VmRSS``), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise LookupError(field)


async def main(streams: int, downloads: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with site(str(Path(folder) / "bench.db"), poll_every=0.5) as web:
            gid = await new_game(web.manager, "maphex", ADA, BO, TG_GROUP, _moves(40))
            link = await web.board.link(gid)
            slug = link.rsplit("/", 1)[1]
            connector = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(connector=connector) as http:
                answers = await asyncio.gather(
                    *(http.get(f"{web.url}/api/games/{slug}/events") for _ in range(streams))
                )
                statuses = [a.status for a in answers]
                print(
                    f"{streams} event streams from one address: {statuses.count(200)} open, "
                    f"{statuses.count(429)} refused (429); the process holds "
                    f"{web.board.streams.total}"
                )
                for what, url in (("page", link), ("api state", f"{web.url}/api/games/{slug}")):
                    took = []
                    for _ in range(21):
                        start = time.perf_counter()
                        async with http.get(url) as answer:
                            await answer.read()
                            assert answer.status == 200
                        took.append((time.perf_counter() - start) * 1000)
                    first, took = took[0], took[1:]  # the first builds the view (cold)
                    print(
                        f"  {what} while they are held: first {first:.1f} ms, then "
                        f"p50 {statistics.median(took):.1f} ms, max {max(took):.1f} ms"
                    )
                for answer in answers:
                    answer.close()

                gif = f"{link}/game.gif"
                rss = _memory("VmRSS")
                start = time.perf_counter()

                async def one() -> int:
                    async with http.get(gif) as answer:
                        assert answer.status == 200
                        return len(await answer.read())

                sizes = await asyncio.gather(*(one() for _ in range(downloads)))
                took = time.perf_counter() - start
                print(
                    f"{downloads} concurrent downloads of one uncached game.gif ({sizes[0]} bytes, "
                    f"40 moves): {web.board.renderings.made} rendering(s), {took:.2f} s"
                )
                print(
                    f"  resident memory: {rss:.0f} MB before, {_memory('VmRSS'):.0f} MB after "
                    f"(+{_memory('VmRSS') - rss:.0f} MB)"
                )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=300)
    parser.add_argument("--downloads", type=int, default=32)
    args = parser.parse_args()
    asyncio.run(main(args.streams, args.downloads))
