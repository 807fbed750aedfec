"""The tournaments' sweep under SIGKILL, two processes on PostgreSQL (issue 48): two bot
processes sweep the same database side by side (no lease between them: both race every
start and every result), one of them is killed with SIGKILL again and again at random moments
and started again, while tournaments fall due to start and then, their games all resigned, to
end.  Nothing is lost (every tournament starts with each of its pairings and ends with its
result) and nothing is doubled (no pairing has two games, no chat message is queued twice).

Few kills, no fixed waits: each kill comes a random moment after the process reported a
sweep; every wait is for an outcome in the database."""

from __future__ import annotations

import asyncio
import collections
import random
from datetime import UTC, datetime, timedelta

from bot.core.notification import Kind
from bot.messages import Chat, User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage.tournament_rows import TournamentStatus
from tests.bot.fork_kit import Child, ForkServer
from tests.bot.session_kit import eventually, session
from tests.bot.storage.raw import raw

#: Players in each tournament (each pairing one game: 6 games).
PLAYERS = 4
#: SIGKILLs per phase (the starts, then the ends), and the tournaments due before each.
KILLS, EACH = 3, 2
TOURNAMENTS = KILLS * EACH
#: How long the test waits for the workers to get everything done.
WAIT = 90.0


class Worker:
    """A sweeping bot process (:mod:`tests.bot.tournaments.sweep_worker`, forked by
    ``forks``, which imported it once)."""

    def __init__(self, forks: ForkServer, url: str) -> None:
        self.forks, self.url = forks, url
        self.proc: Child | None = None
        self.swept = 0
        self._reading: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start the process."""
        self.proc = await self.forks.spawn(
            "tests.bot.tournaments.sweep_worker", self.url, stdout=True
        )
        self._reading = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for _ in self.proc.stdout:
            self.swept += 1

    async def kill(self) -> None:
        """SIGKILL it and reap it."""
        assert self.proc is not None
        await self.proc.kill()
        if self._reading is not None:
            await self._reading


async def _kill_one(workers: list[Worker], rng: random.Random) -> None:
    """Kill a random worker (once it is at work: it reported a sweep) a random moment after
    new work fell due, and start it again."""
    victim = rng.choice(workers)
    seen = victim.swept
    await eventually(lambda: victim.swept > seen, "a sweep", timeout=WAIT)
    await asyncio.sleep(rng.uniform(0.0, 0.1))  # where in its work it dies
    await victim.kill()
    await victim.start()


async def _open(m: SessionManager, t: int) -> int:
    """Tournament ``t`` in a chat of its own, its sign-up then ended: due to start at the
    workers' next sweep."""
    chat = Chat("test", f"club{t}")
    users = [User("test", f"{t}-{p}", f"p{t}x{p}") for p in range(PLAYERS)]
    opened = await m.tournaments.tournament_new(users[0], chat, "pathagon", {}, 1.0, 1, True, 10)
    assert opened.ok, opened.text
    tid = opened.actions[0].subject
    assert tid is not None
    for user in users[1:]:
        assert (await m.tournaments.tournament_join(user, chat, tid)).ok
    # Its sign-up ends now (by the database's clock, which the workers judge by).
    ended = (await m.store.db_now() - timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    await raw(m.store, "UPDATE tournaments SET starts_by = ? WHERE id = ?", ended, tid)
    return tid


async def _resign_all(m: SessionManager, t: int, tid: int) -> None:
    """Every game of tournament ``t`` resigned by its player to move."""
    chat = Chat("test", f"club{t}")
    for g in await m.store.tournament_games(tid):
        row = await m.store.get_game(g.game_id)
        assert row is not None and row.to_move is not None
        loser = await m.store.get_player(row.seats[row.to_move])
        assert loser is not None
        who = User("test", loser.user_id, loser.name)
        assert (await m.games.resign(who, chat, row.id, confirm=True)).ok


async def _status(m: SessionManager, tid: int) -> TournamentStatus:
    row = await m.store.get_tournament(tid)
    assert row is not None
    return row.status


async def test_two_sweeping_processes_killed_lose_and_double_nothing(postgres_url: str) -> None:
    rng = random.Random(48)
    async with (
        session(postgres_url, FakeClock(datetime.now(UTC))) as m,
        ForkServer.start() as forks,
    ):
        workers = [Worker(forks, postgres_url), Worker(forks, postgres_url)]
        for w in workers:
            await w.start()
        tids: list[int] = []
        try:
            # Phase 1: tournaments fall due a few at a time, a process killed each time.
            for kill in range(KILLS):
                for t in range(kill * EACH, (kill + 1) * EACH):
                    tids.append(await _open(m, t))
                await _kill_one(workers, rng)

            async def started() -> bool:
                return all([await _status(m, t) is TournamentStatus.RUNNING for t in tids])

            await eventually(started, "every tournament started", timeout=WAIT)
            # Every pairing has exactly one game.
            for tid in tids:
                pairs: collections.Counter[frozenset[int]] = collections.Counter()
                for g in await m.store.tournament_games(tid):
                    row = await m.store.get_game(g.game_id)
                    assert row is not None
                    pairs[frozenset((row.seat0, row.seat1))] += 1
                assert len(pairs) == PLAYERS * (PLAYERS - 1) // 2
                assert set(pairs.values()) == {1}, pairs
            # Phase 2: the games of a few tournaments resigned at a time, so they end, a
            # process killed each time.
            m.clock.set(datetime.now(UTC))
            for kill in range(KILLS):
                for t in range(kill * EACH, (kill + 1) * EACH):
                    await _resign_all(m, t, tids[t])
                await _kill_one(workers, rng)

            async def ended() -> bool:
                return all([await _status(m, t) is TournamentStatus.FINISHED for t in tids])

            await eventually(ended, "every tournament ended", timeout=WAIT)
        finally:
            for w in workers:
                await w.kill()
        # Nothing queued twice: no chat message of a tournament's chat said twice.
        far = datetime.now(UTC) + timedelta(days=400)
        notes = await m.store.due_notifications("test", far, 10_000)
        said = collections.Counter(
            (n.chat.chat_id, str(n.text))
            for n in notes
            if n.chat is not None and n.kind in (Kind.TOURNAMENT, Kind.BOARD)
        )
        assert said and max(said.values()) == 1, [k for k, v in said.items() if v > 1]
        for t in range(TOURNAMENTS):
            boards = [n for n in notes if n.chat == Chat("test", f"club{t}")]
            kinds = collections.Counter(n.kind for n in boards)
            assert kinds[Kind.BOARD] == PLAYERS * (PLAYERS - 1) // 2  # each game's first
            assert kinds[Kind.TOURNAMENT] >= 2  # the start and the result, at least
