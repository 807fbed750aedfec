"""Fair use of the computer player (issue 27): a limit on a player's unfinished games against
the bot (named in the refusal), searches queued fairly by player, and a bot move's lease that
a dead process lets run out in seconds rather than minutes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.core.status import GameStatus
from bot.sessions import opponent
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.sessions.thinker import FairQueue, Thinker
from bot.sessions.views import PAGE
from bot.storage import open_store
from engines.ai import Budget
from engines.levels import Level
from tests.bot.session_kit import ALICE, BOB, ROOM, session, start_game

TINY = {level: Budget(iterations=5, seconds=60.0) for level in Level}


async def test_one_players_burst_leaves_a_worker_for_another() -> None:
    queue = FairQueue(2)
    order: list[str] = []
    gates = {name: asyncio.Event() for name in ("a1", "a2", "a3", "b1", "c1")}

    async def search(owner: str, name: str) -> None:
        async with queue.turn(owner):
            order.append(name)
            await gates[name].wait()

    tasks = [asyncio.create_task(search("a", f"a{n}")) for n in (1, 2, 3)]
    await asyncio.sleep(0)
    assert order == ["a1"]  # one worker at most for one player: the other stays free
    tasks.append(asyncio.create_task(search("b", "b1")))
    await asyncio.sleep(0)
    assert order == ["a1", "b1"]  # at once, however many of Alice's wait
    tasks.append(asyncio.create_task(search("c", "c1")))
    await asyncio.sleep(0)
    gates["a1"].set()
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert order == ["a1", "b1", "c1"]  # Carol's turn comes before Alice's second search
    for gate in gates.values():
        gate.set()
    await asyncio.gather(*tasks)
    assert order == ["a1", "b1", "c1", "a2", "a3"] and queue.busy == 0


async def test_a_cancelled_wait_gives_its_turn_to_the_next() -> None:
    queue = FairQueue(1)
    held = asyncio.Event()

    async def hold() -> None:
        async with queue.turn("a"):
            await held.wait()

    holder = asyncio.create_task(hold())
    await asyncio.sleep(0)
    waiting = asyncio.create_task(queue._acquire("b"))
    after = asyncio.create_task(queue._acquire("c"))
    await asyncio.sleep(0)
    waiting.cancel()
    held.set()
    await holder
    await after
    assert queue.busy == 1  # Carol's, not the cancelled one's
    queue._release("c")
    assert queue.busy == 0


async def test_a_players_unfinished_bot_games_are_limited(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "h.db")
    thinker = Thinker(budgets=TINY, workers=1)
    m = SessionManager(store, FakeClock(), pictures=False, thinker=thinker)
    try:
        limit = m._ctx.max_bot_games
        started = await asyncio.gather(
            *(
                m.challenges.challenge_bot(ALICE, ROOM, "pathagon", "hard", first="me")
                for _ in range(12)
            )
        )
        assert sum(r.ok for r in started) == limit
        refused = [r for r in started if not r.ok]
        assert all(f"{limit} unfinished games against the bot" in r.text for r in refused)
        # Another player is not held by Alice's limit.
        assert (await m.challenges.challenge_bot(BOB, ROOM, "pathagon", "easy")).ok
        # A finished game makes room again.
        first = next(r.game_id for r in started if r.ok)
        assert first is not None
        assert (await m.games.resign(ALICE, ROOM, first, True)).ok
        row = await store.get_game(first)
        assert row is not None and row.status is GameStatus.FINISHED
        assert (await m.challenges.challenge_bot(ALICE, ROOM, "pathagon", "easy", first="me")).ok
        await m.bot_idle()
    finally:
        await m.close()
        await store.close()


def test_a_bot_moves_lease_runs_out_in_seconds() -> None:
    assert opponent.THINK_LEASE.total_seconds() <= 60


async def test_games_answers_one_page_however_many_games(tmp_path: Path) -> None:
    """Many games (here 23 active with Bob, 4 finished): ``games`` answers one message of
    :data:`~bot.sessions.views.PAGE` games, and says how to ask for the next page."""
    async with session(tmp_path / "h.db") as m:
        ids = [(await start_game(m, "pathagon"))[0] for _ in range(27)]
        for gid in ids[:4]:
            assert (await m.games.resign(ALICE, ROOM, gid, True)).ok
        seen: list[str] = []
        for page in (1, 2, 3):
            reply = await m.games.games(ALICE, page)
            assert reply.ok, reply.text
            lines = [line for line in reply.text.splitlines() if line.startswith("#")]
            assert len(lines) == (PAGE if page < 3 else 27 - 2 * PAGE), reply.text
            assert f"Page {page} of 3." in reply.text
            assert ("games 4" not in reply.text) and (("games 3" in reply.text) == (page == 2))
            seen += [line.split()[0] for line in lines]
        assert sorted(seen) == sorted(f"#{gid}" for gid in ids)
        assert not (await m.games.games(ALICE, 4)).ok
