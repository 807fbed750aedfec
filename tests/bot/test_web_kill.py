"""Moves posted from the web board under SIGKILL (issue 48): a real bot process serves the web
board (:mod:`tests.bot.web_worker`) and one client plays a whole game through its API
(``POST /api/games/<slug>/moves``, as the Mini App does), while the process is killed with
SIGKILL a few times, each a random moment after a move was posted, and started again.  A
post whose answer never came is posted again as is (the same move at the same ply: answered
as the move already made).  Nothing is lost (every move answered ``ok`` is stored, and
announced by its board in the game's chat) and nothing is doubled (each ply stored once,
each board queued once).  On SQLite and PostgreSQL.

No fixed waits: each kill comes a random moment (under 30 ms) after a post; every other wait
is for an answer or the restarted process's ``ready``."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime

import aiohttp

import engines
from bot.core.notification import Kind
from bot.messages import User
from bot.sessions.clock import FakeClock
from bot.webboard import WebBoard
from tests.bot.fork_kit import Child, ForkServer
from tests.bot.session_kit import session
from tests.bot.storage.raw import raw
from tests.fakes.base import free_port
from tests.web.kit import ADA, BO, BOT_TOKEN, LINK_SECRET, TG_GROUP, init_data, new_game

#: Moves played, and the kills among them.
MOVES, KILLS = 24, 4
#: A guard against a hung process (the test waits on answers, never on the clock).
TIMEOUT = 60.0


class Server:
    """The web board's process, started again after each kill on the same port (forked by
    ``forks``, which imported the worker once)."""

    def __init__(self, forks: ForkServer, url: str, port: int) -> None:
        self.forks, self.url, self.port = forks, url, port
        self.proc: Child | None = None

    async def start(self) -> None:
        """Start it and wait until it listens."""
        self.proc = await self.forks.spawn(
            "tests.bot.web_worker", self.url, str(self.port), BOT_TOKEN, LINK_SECRET, stdout=True
        )
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), TIMEOUT)
        assert line.strip() == b"ready", line

    async def kill(self) -> None:
        """SIGKILL it and reap it."""
        assert self.proc is not None
        await self.proc.kill()


async def _post(http: aiohttp.ClientSession, url: str, move: str, ply: int, user: User) -> dict:
    headers = {"Authorization": "tma " + init_data(user, FakeClock(datetime.now(UTC)))}
    body = json.dumps({"move": move, "ply": ply})
    async with http.post(url, data=body, headers=headers) as answer:
        assert answer.status == 200, await answer.text()
        result: dict = json.loads(await answer.read())
        return result


async def test_web_moves_survive_kills(store_url: str) -> None:
    rng = random.Random(48)
    kill_at = set(rng.sample(range(MOVES), KILLS))
    async with session(store_url, FakeClock(datetime.now(UTC))) as m:
        gid = await new_game(m, "maphex", ADA, BO, TG_GROUP)
        board = WebBoard(m, "http://127.0.0.1", telegram_token=BOT_TOKEN, link_secret=LINK_SECRET)
        slug = (await board.link(gid)).rsplit("/", 1)[1]
        position, acked, killed = engines.new("maphex"), list[str](), 0
        async with ForkServer.start() as forks:
            server = Server(forks, store_url, free_port())
            await server.start()
            url = f"http://127.0.0.1:{server.port}/api/games/{slug}/moves"
            async with aiohttp.ClientSession() as http:
                for ply in range(MOVES):
                    move = position.random_move(rng)
                    player = (ADA, BO)[position.to_move]
                    posting = asyncio.ensure_future(_post(http, url, move, ply, player))
                    if ply in kill_at:
                        await asyncio.sleep(rng.uniform(0.0, 0.03))  # where the post dies
                        await server.kill()
                        killed += 1
                        await asyncio.gather(posting, return_exceptions=True)
                        await server.start()
                        # Unanswered, or answered: posted again as is, it is the same move.
                        posting = asyncio.ensure_future(_post(http, url, move, ply, player))
                    answer = await asyncio.wait_for(posting, TIMEOUT)
                    assert answer["ok"], answer
                    acked.append(move)
                    position = position.play(move)
            await server.kill()
        assert killed == KILLS
        # Nothing lost, nothing doubled: the stored moves are the answered ones, once each.
        stored = await m.store.moves(gid)
        assert [s.ply for s in stored] == list(range(MOVES))
        replayed, expected = engines.new("maphex"), []
        for move in acked:
            replayed = replayed.play(move)
            expected.append(replayed.last_move or move)
        assert [s.move for s in stored] == expected
        row = await m.store.get_game(gid)
        assert row is not None and row.ply == MOVES
        # Each move's board queued for the game's chat once (each but the last dropped as
        # obsolete by the next move, undelivered: no outbox runs here).
        rows = await raw(
            m.store,
            "SELECT ply, COUNT(*) FROM notifications WHERE game_id = ? AND kind = ? "
            "GROUP BY ply ORDER BY ply",
            gid,
            str(Kind.BOARD),
        )
        assert rows == [(ply, 1) for ply in range(1, MOVES + 1)], rows
