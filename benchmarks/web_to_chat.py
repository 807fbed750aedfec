"""A move made on the web board → its board in the game's chat (issue 42).

Run: ``nice -n 15 .venv/bin/python benchmarks/web_to_chat.py`` (``--moves 20`` by default).

The real Telegram adapter and its outbox (as ``hexhall run`` builds it: the production poll of
2 s, the manager's bell) against the fake Bot API on 127.0.0.1, with the web board on the same
manager.  A Maphex game between two Telegram players in a group is played from the web board
alone (the Mini App's ``POST /api/games/<slug>/moves``, signed with initData); each move is
timed from the request until the fake has the board naming it in the group.  Before the fix
the board waited out the 10 s grace kept for an adapter's answer (measured: 10.1 s).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# This script's folder first on the path would make "telegram" benchmarks/telegram.py.
sys.path[:] = [str(ROOT), *(p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks")]
os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")

import aiohttp

from bot.webboard import WebBoard, serve_web
from bot.webboard.auth import sign_init_data
from tests.adapters.telegram_kit import running

#: The outbox's poll in production (:class:`bot.delivery.outbox.Outbox`'s default).
PRODUCTION_POLL = 2.0


async def main(moves: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with running(
            Path(folder) / "bench.db", pictures=True, deliver=True, poll=PRODUCTION_POLL
        ) as bot:
            fake = bot.fake
            ada, bo = fake.user(51, "Ada", "ada"), fake.user(52, "Bo", "bo")
            group = fake.group(-700, "Hex club")
            _, gid = await bot.accepted(group, ada, bo, "maphex")
            fast = (1000.0, 1000)  # the rate limits raised: people move far slower
            web = WebBoard(
                bot.manager,
                "http://127.0.0.1",
                telegram_token=fake.token,
                player_rate=fast,
                address_rate=fast,
            )
            endpoint = await serve_web(web, "127.0.0.1", 0)
            url = f"http://127.0.0.1:{endpoint.port}"
            slug = (await web.link(gid)).rsplit("/", 1)[1]
            samples: list[float] = []
            try:
                async with aiohttp.ClientSession() as http:
                    for _ in range(moves):
                        view = await bot.manager.web.web_view(gid)
                        assert view is not None
                        legal = view.position.legal_moves()
                        going = [m for m in legal if view.position.play(m).outcome is None]
                        move = going[len(samples) * 7 % len(going)]
                        mover = await bot.to_move(gid, ada, bo)
                        tma = sign_init_data(
                            {"id": mover.id, "first_name": mover.first_name},
                            fake.token,
                            bot.manager.now(),
                        )
                        before = fake.last_message_id(group)
                        start = time.perf_counter()
                        async with http.post(
                            f"{url}/api/games/{slug}/moves",
                            json={"move": move, "ply": view.row.ply},
                            headers={"Authorization": f"tma {tma}"},
                        ) as answer:
                            assert answer.status == 200, await answer.text()
                        await fake.wait_for_message(
                            group,
                            lambda m, mv=move, b=before: (
                                m.message_id > b and mv in (m.text or m.caption or "")
                            ),
                            timeout=30.0,
                        )
                        samples.append(time.perf_counter() - start)
            finally:
                await endpoint.close()
    ms = sorted(s * 1000 for s in samples)
    print(
        f"web move -> board in the Telegram group (outbox poll {PRODUCTION_POLL:g} s): "
        f"n={len(ms)}  p50 {statistics.median(ms):.0f} ms  "
        f"p90 {ms[round(0.9 * (len(ms) - 1))]:.0f} ms  max {ms[-1]:.0f} ms"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    asyncio.run(main(parser.parse_args().moves))
