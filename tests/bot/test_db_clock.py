"""Times one process writes for another to compare are the database's clock's (issue 48):
two sessions on one database, each with its own store and a process clock 150 s off the
machine's in opposite directions, double no board and delay none beyond the answer's grace;
deadlines are stored on the database's clock and the sweep calls time by it.  Before, a mover
whose clock ran 150 s behind stamped its board due at once for the other process's outbox
(posted twice: once by it, once by the answer), and one running 150 s ahead held back the
fallback for a lost answer by 160 s.  On both databases."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.notification import Kind, Notification
from bot.core.status import GameStatus
from bot.delivery.outbox import Outbox, answering
from bot.sessions import policy
from bot.sessions.manager import SessionManager
from bot.storage import open_store
from bot.storage.dbapi import from_ts
from bot.storage.sql_base import MAX_SKEW
from tests.bot.session_kit import ALICE, ROOM, eventually, start_game
from tests.bot.storage.raw import raw

#: The answer's grace in these tests (the real one is 10 s; what counts is the same).
GRACE = timedelta(seconds=1)
#: How far the two process clocks are off the machine's, in opposite directions.
SKEW = 150.0


class Skewed:
    """The machine's clock ``seconds`` ahead (behind, if negative): a host whose clock is off."""

    def __init__(self, seconds: float) -> None:
        self.ahead = timedelta(seconds=seconds)

    def now(self) -> datetime:
        """The time this process believes it is."""
        return datetime.now(UTC) + self.ahead


class Boards:
    """A sender that records what it is given."""

    def __init__(self) -> None:
        self.sent: list[Notification] = []

    async def send(self, notification: Notification) -> None:
        """Record ``notification``."""
        self.sent.append(notification)

    def of(self, game_id: int) -> list[Notification]:
        """The boards of ``game_id`` sent."""
        return [n for n in self.sent if n.kind is Kind.BOARD and n.game_id == game_id]


@pytest.fixture(autouse=True)
def short_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-second answer's grace, so the tests wait a second, not ten."""
    monkeypatch.setattr(policy, "ANSWER_GRACE", GRACE)


@asynccontextmanager
async def two(url: str, mover: float, other: float) -> AsyncIterator[
    tuple[SessionManager, SessionManager]
]:  # fmt: skip
    """Two managers on the database ``url``, each with its own store (its own connections)
    and a clock ``mover`` / ``other`` seconds off the machine's."""
    first = await open_store(url)
    second = await open_store(url)
    try:
        yield (
            SessionManager(first, Skewed(mover), pictures=False, rng=random.Random(1)),
            SessionManager(second, Skewed(other), pictures=False, rng=random.Random(2)),
        )
    finally:
        await first.close()
        await second.close()


async def _stored_board(m: SessionManager, game_id: int) -> tuple[datetime, datetime]:
    ((after, created),) = await raw(
        m.store,
        "SELECT deliver_after, created_at FROM notifications WHERE game_id = ? AND kind = ?",
        game_id,
        str(Kind.BOARD),
    )
    return from_ts(after), from_ts(created)


@pytest.mark.parametrize(("mover", "other"), [(-SKEW, SKEW), (SKEW, -SKEW)])
async def test_a_board_answered_in_its_chat_is_posted_once(
    store_url: str, mover: float, other: float
) -> None:
    async with two(store_url, mover, other) as (a, b):
        gid, _ = await start_game(a, "pathagon")
        before = await a.store.db_now()
        assert (await a.games.move(ALICE, ROOM, "a2", gid)).ok
        after = await a.store.db_now()
        # Due the grace after the move by the database's clock, whatever the mover's clock.
        due, created = await _stored_board(a, gid)
        assert before + GRACE <= due <= after + GRACE
        assert before <= created <= after
        # The other process's outbox, whatever its clock, leaves it to the answer...
        outbox, sender = Outbox(b.store, b.clock, owner="other"), Boards()
        await outbox.deliver_due("test", sender)
        assert sender.of(gid) == []
        # ...which claims it and posts it.
        async with answering(a.store, a.clock, "mover", gid, ROOM.chat_id):
            pass
        await outbox.deliver_due("test", sender)
        assert sender.of(gid) == []
        assert await raw(
            a.store, "SELECT outcome, lease_owner FROM notifications WHERE game_id = ? "
            "AND kind = ?", gid, str(Kind.BOARD),
        ) == [("sent", None)]  # fmt: skip


@pytest.mark.parametrize(("mover", "other"), [(SKEW, -SKEW), (-SKEW, SKEW)])
async def test_a_lost_answers_board_is_posted_once_its_grace_has_passed(
    store_url: str, mover: float, other: float
) -> None:
    async with two(store_url, mover, other) as (a, b):
        gid, _ = await start_game(a, "pathagon")
        assert (await a.games.move(ALICE, ROOM, "a2", gid)).ok
        due, _ = await _stored_board(a, gid)
        # The mover died before answering: the other process's outbox posts the board when
        # the grace has passed by the database's clock (its own clock may be 150 s behind:
        # it would have waited 160 s, beyond this wait).
        outbox, sender = Outbox(b.store, b.clock, owner="other"), Boards()

        async def posted() -> bool:
            await outbox.deliver_due("test", sender)
            return bool(sender.of(gid))

        await eventually(posted, "the board posted by the other process")
        assert await b.store.db_now() >= due  # not before its grace
        await outbox.deliver_due("test", sender)
        assert len(sender.of(gid)) == 1


@pytest.mark.parametrize("mover", [-SKEW, SKEW])
async def test_a_deadline_is_stored_on_the_databases_clock(store_url: str, mover: float) -> None:
    async with two(store_url, mover, -mover) as (a, _):
        gid, _ = await start_game(a, "pathagon")
        before = await a.store.db_now()
        assert (await a.games.move(ALICE, ROOM, "a2", gid)).ok
        after = await a.store.db_now()
        row = await a.store.get_game(gid)
        assert row is not None and row.deadline_at is not None
        per_move = timedelta(days=row.time_per_move or 0)
        assert before + per_move <= row.deadline_at <= after + per_move


async def _due_in(m: SessionManager, game_id: int, left: timedelta) -> None:
    """Make game ``game_id``'s deadline (and alarm) ``left`` from the database's now, as if
    its time per move had nearly or just run out."""
    due = await m.store.db_now() + left
    stamp = due.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    await raw(
        m.store,
        "UPDATE games SET deadline_at = ?, alarm_at = ?, reminder_sent_for_ply = ply WHERE id = ?",
        stamp,
        stamp,
        game_id,
    )


async def test_the_sweep_calls_time_by_the_databases_clock(store_url: str) -> None:
    async with two(store_url, SKEW, -SKEW) as (ahead, behind):
        late, _ = await start_game(ahead, "pathagon")
        assert (await ahead.games.move(ALICE, ROOM, "a2", late)).ok
        # Ran out a second ago: the sweep whose clock is 150 s behind calls time now.
        await _due_in(ahead, late, timedelta(seconds=-1))
        assert await behind.sweep() == 1
        row = await behind.store.get_game(late)
        assert row is not None and row.status is GameStatus.FINISHED
        # A minute left: the sweep whose clock is 150 s ahead does not call time early.
        early, _ = await start_game(ahead, "pathagon")
        assert (await ahead.games.move(ALICE, ROOM, "a2", early)).ok
        await _due_in(ahead, early, timedelta(minutes=1))
        assert await ahead.sweep() == 0
        row = await ahead.store.get_game(early)
        assert row is not None and row.status is GameStatus.ACTIVE


async def test_a_clock_far_from_the_databases_keeps_its_own_times(store_url: str) -> None:
    """A clock further off than :data:`MAX_SKEW` is no wall clock (a test's fake clock): its
    times are stored as it gives them and it judges what is due by itself."""
    far = -(MAX_SKEW + timedelta(hours=1)).total_seconds()
    async with two(store_url, far, far) as (a, _):
        gid, _ = await start_game(a, "pathagon")
        assert (await a.games.move(ALICE, ROOM, "a2", gid)).ok
        due, created = await _stored_board(a, gid)
        assert due - created == GRACE
        assert abs(created - a.now()) < timedelta(seconds=30)
        now = a.now()
        assert await a.store.clock_now(now) == now
