"""Several bot processes on one database sweep the clocks once between them (issue 19): the
process holding the sweep's lease does the rounds, another takes over when it stops.  Run on
SQLite and on PostgreSQL (``store_url``)."""

from __future__ import annotations

import asyncio
import socket
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from bot.sessions import leases
from bot.sessions.clock import FakeClock
from bot.sessions.clocks import SWEEP_LEASE
from bot.sessions.manager import SessionManager
from bot.storage.sql_leases import GONE_AFTER
from tests.bot.session_kit import ALICE, BOB, ROOM, eventually, session
from tests.bot.storage.raw import raw


async def timed_game(m: SessionManager) -> int:
    """A Maphex game with a day per move where Alice is to move."""
    made = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, {}, "me", 1)
    assert made.ok and made.challenge_id is not None, made.text
    accepted = await m.challenges.accept(BOB, ROOM, made.challenge_id)
    assert accepted.game_id is not None
    assert (await m.games.move(BOB, ROOM, "5", accepted.game_id)).ok
    return accepted.game_id


async def status(m: SessionManager, game_id: int) -> str:
    row = await m.store.get_game(game_id)
    assert row is not None
    return str(row.status)


async def finished(m: SessionManager, game_id: int) -> bool:
    return await status(m, game_id) == "finished"


async def test_one_process_sweeps_and_another_takes_over_when_it_stops(store_url: str) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as first, session(store_url, clock) as second:
        early = await timed_game(first)
        clock.advance(days=1, minutes=1)
        stop_first, stop_second = asyncio.Event(), asyncio.Event()
        sweeping = asyncio.create_task(first.run_clocks(stop_first, every=3600.0))
        await eventually(lambda: finished(first, early), "the first process swept")

        # The second process looks every 50 ms but finds the lease held: nothing it sweeps.
        claims: list[bool] = []
        claim: Callable[..., Awaitable[bool]] = second.store.claim_lease

        async def counted(name: str, owner: str, now: datetime, lease: timedelta) -> bool:
            claims.append(await claim(name, owner, now, lease))
            return claims[-1]

        second.store.claim_lease = counted
        late = await timed_game(second)
        clock.advance(days=1, minutes=1)
        waiting = asyncio.create_task(second.run_clocks(stop_second, every=0.05))
        await eventually(lambda: len(claims) >= 3, "three rounds of the second")
        assert not any(claims) and await status(second, late) == "active"

        # The first stops (and gives the lease up): the second sweeps from its next round.
        stop_first.set()
        await sweeping
        await eventually(lambda: finished(second, late), "the second took over")
        assert claims[-1] is True
        held = await first.store.claim_lease(
            SWEEP_LEASE, "other", datetime.now(UTC), timedelta(seconds=1)
        )
        assert not held  # the second holds it now
        stop_second.set()
        await waiting


async def test_a_lease_of_a_process_that_died_on_this_host_is_taken_over_at_once(
    store_url: str,
) -> None:
    """Workers are judged by their heartbeat, never by host name and process id: a worker
    whose process ended in this very pid namespace is gone at once; one that beat from another
    container with the same host name (its process id means nothing here) is alive while it
    beats, and gone once its heartbeat is older than GONE_AFTER (by the database's clock)."""
    dead = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    assert await dead.wait() == 0
    pid = dead.pid
    host = socket.gethostname()
    ghost, twin = f"{host}:{pid}:0000", f"{host}:{pid}:1111"
    async with session(store_url) as m:
        ctx = m._ctx
        hour = timedelta(hours=1)
        await m.store.beat(ghost, host, pid)  # it beat here, then its process ended
        assert await m.store.claim_lease("a chore", ghost, datetime.now(UTC), hour)
        assert await leases.claim(ctx, "a chore", hour)
        assert await m.store.lease_holder("a chore") == ctx.worker
        # Another container: same host name, a process id that is no process here.
        await m.store.beat(twin, host, pid)
        await raw(m.store, "UPDATE workers SET ns = 'another container' WHERE id = ?", twin)
        assert await m.store.claim_lease("another", twin, datetime.now(UTC), hour)
        assert not await leases.claim(ctx, "another", hour)
        assert await m.store.lease_holder("another") == twin
        # Its heartbeat stops: gone once GONE_AFTER has passed by the database's clock.
        await raw(
            m.store,
            f"UPDATE workers SET seen_at = {m.store.db_time(-GONE_AFTER - timedelta(seconds=1))}",
        )
        assert await leases.claim(ctx, "another", hour)
        # A worker with no heartbeat on record is trusted until its lease ends.
        assert await m.store.claim_lease("third", "elsewhere:1:2", datetime.now(UTC), hour)
        assert not await leases.claim(ctx, "third", hour)
        await leases.release(ctx, "a chore")
        assert await m.store.lease_holder("a chore") is None
