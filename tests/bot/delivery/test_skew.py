"""Two worker processes on one PostgreSQL database, one whose clock runs 150 s ahead,
deliver every notification once (issue 24: before, the process ahead judged every claim of the
other ended and sent 60 of 60 again).  Their claims are timed by the database's clock, and a
batch that takes longer than the lease is kept by renewing it while sending (each worker's
lease is shorter than its batch: :mod:`tests.bot.delivery.skewed_worker`)."""

from __future__ import annotations

import asyncio
import collections
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.core.notification import Kind, Notification, Recipient
from bot.messages import Chat, Text
from bot.storage import NewGame, open_store
from tests.bot.fork_kit import ForkServer
from tests.bot.storage.raw import raw

COUNT = 40


async def _seed(url: str) -> None:
    store = await open_store(url)
    try:
        now = datetime.now(UTC)
        alice = await store.player("test", "1", "alice", now)
        bob = await store.player("test", "2", "bob", now)
        game = await store.create_game(
            NewGame("maphex", {}, alice.id, bob.id, "test", "room", 0, {}), now
        )
        who = Recipient(bob.platform, bob.user_id, bob.name, bob.id)
        notes = [
            Notification(
                kind=Kind.OPPONENT_AWAY,
                recipient=who,
                text=Text.of(who.mention(), f": note {i}"),
                deliver_after=now - timedelta(seconds=1),
                chat=Chat("test", "room"),
                game_id=game.id,
            )
            for i in range(COUNT)
        ]
        assert await store.update_game(game, now, notes, reminder_sent_for_ply=0) is not None
    finally:
        await store.close()


async def test_a_process_whose_clock_runs_ahead_doubles_nothing(
    postgres_url: str, tmp_path: Path
) -> None:
    await _seed(postgres_url)
    out = tmp_path / "delivered.txt"
    async with ForkServer.start() as forks:
        workers = [
            await forks.spawn(
                "tests.bot.delivery.skewed_worker", postgres_url, str(ahead), str(out)
            )
            for ahead in (0.0, 150.0)
        ]
        codes = await asyncio.wait_for(asyncio.gather(*(w.wait() for w in workers)), timeout=120)
    assert codes == [0, 0]
    lines = [line.split() for line in out.read_text().splitlines()]
    counts = collections.Counter(note_id for note_id, _ in lines)
    assert len(counts) == COUNT and set(counts.values()) == {1}, counts
    assert len({pid for _, pid in lines}) == 2  # both took part
    store = await open_store(postgres_url)
    try:
        outcomes = await raw(store, "SELECT outcome, COUNT(*) FROM notifications GROUP BY outcome")
        assert outcomes == [("sent", COUNT)]
    finally:
        await store.close()
