"""The outbox (issue 12): leases, two workers on one database, retries with backoff, the
direct-message fallback, and obsolete notifications never sent."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import subprocess
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import pytest

from bot.core.notification import Kind, Notification, Recipient
from bot.core.settings import Settings
from bot.delivery.outbox import LEASE, DeliveryRefused, DirectRefused, Outbox, answering
from bot.messages import Chat, Text
from bot.storage import GameRow, NewGame, PlayerRow, open_store
from bot.storage.errors import StoreUnavailable
from bot.storage.sql import SqlStore
from tests.bot.session_kit import eventually
from tests.bot.storage.raw import raw

START = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, check=True
    )
    return int(child.stdout)


ROOM = Chat("test", "room")


class Clock:
    """A clock the test sets."""

    def __init__(self) -> None:
        self.at = START

    def now(self) -> datetime:
        return self.at


class Recorder:
    """A sender that records what it was given and fails as told: ``fail`` maps a
    notification id to the exception to raise (every time it is tried)."""

    def __init__(self, name: str = "sender") -> None:
        self.name = name
        self.sent: list[tuple[str, Notification]] = []
        self.tries = 0
        self.fail: dict[int, Exception] = {}
        self.refuse_direct = False

    async def send(self, notification: Notification) -> None:
        self.tries += 1
        await asyncio.sleep(0)  # let another worker run in between, as a network call would
        if self.refuse_direct and notification.direct:
            raise DirectRefused("the user has not started the bot")
        error = self.fail.get(notification.id or 0)
        if error is not None:
            raise error
        self.sent.append((self.name, notification))


class Meeting(Recorder):
    """A sender whose first delivery waits until ``other`` has started one too (or a deadline
    has passed): two workers then both surely take part, whatever the machine's load makes of
    which one claims first (each holds only its own batch, so the other can claim meanwhile)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.other: Meeting | None = None
        self.started = asyncio.Event()

    async def send(self, notification: Notification) -> None:
        if not self.started.is_set():
            self.started.set()
            if self.other is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.other.started.wait(), timeout=20)
        await super().send(notification)


async def setup(store: SqlStore) -> tuple[PlayerRow, GameRow]:
    alice = await store.player("test", "1", "alice", START)
    bob = await store.player("test", "2", "bob", START)
    await store.set_settings(bob.id, Settings(direct=True))  # Bob asked for direct messages
    game = await store.create_game(
        NewGame("maphex", {}, alice.id, bob.id, "test", "room", 0, {}), START
    )
    return bob, game


def notes(
    player: PlayerRow,
    game: GameRow,
    count: int,
    kind: Kind = Kind.OPPONENT_AWAY,
    ply: int | None = None,
) -> list[Notification]:
    who = Recipient(player.platform, player.user_id, player.name, player.id)
    return [
        Notification(
            kind=kind,
            recipient=who,
            text=Text.of(who.mention(), f": note {i}"),
            deliver_after=START,
            chat=ROOM,
            game_id=game.id,
            ply=ply,
        )
        for i in range(count)
    ]


async def queue(store: SqlStore, game: GameRow, items: list[Notification]) -> GameRow:
    updated = await store.update_game(game, START, items, reminder_sent_for_ply=game.ply)
    assert updated is not None
    return updated


async def test_two_workers_on_one_database_send_each_notification_once(store_url: str) -> None:
    first, second = await open_store(store_url), await open_store(store_url)
    try:
        bob, game = await setup(first)
        await queue(first, game, notes(bob, game, 120))
        clock = Clock()
        a, b = Meeting("a"), Meeting("b")
        a.other, b.other = b, a
        one = Outbox(first, clock, owner="a", batch=5)
        two = Outbox(second, clock, owner="b", batch=5)
        counts = await asyncio.gather(one.deliver_due("test", a), two.deliver_due("test", b))
        ids = [n.id for _, n in a.sent + b.sent]
        assert len(ids) == len(set(ids)) == 120 == sum(counts)
        assert a.sent and b.sent  # both took part
        assert await first.due_notifications("test", clock.now()) == []
    finally:
        await first.close()
        await second.close()


class Flaky:
    """The store, unreachable for its first ``down`` claims."""

    def __init__(self, store: SqlStore, down: int) -> None:
        self.store, self.down = store, down

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def claim_due(self, *args: Any, **kwargs: Any) -> list[Notification]:
        if self.down > 0:
            self.down -= 1
            raise StoreUnavailable("connection refused")
        return await self.store.claim_due(*args, **kwargs)


async def test_a_database_outage_is_one_log_line(
    store: SqlStore, caplog: pytest.LogCaptureFixture
) -> None:
    """Ten rounds in a row find the database unreachable: one line when it starts, one when
    it ends, no traceback; then what was due is delivered."""
    caplog.set_level(logging.INFO, "bot.delivery.outbox")
    bob, game = await setup(store)
    await queue(store, game, notes(bob, game, 2))
    sender, stop = Recorder(), asyncio.Event()
    flaky = Flaky(store, down=10)
    outbox = Outbox(cast(SqlStore, flaky), Clock(), poll=0.01)
    running = asyncio.create_task(outbox.run("test", sender, stop=stop))
    give_up = time.monotonic() + 20
    while len(sender.sent) < 2:
        assert time.monotonic() < give_up, "nothing delivered after the outage"
        await asyncio.sleep(0.01)
    stop.set()
    await running
    assert flaky.down == 0
    lines = [r for r in caplog.records if r.name == "bot.delivery.outbox"]
    outage = [r.getMessage() for r in lines if r.levelno >= logging.WARNING]
    assert outage == [
        "outbox for test: the database is unavailable: connection refused; "
        "trying again every 0.01s (said once)"
    ]
    assert not any(r.exc_info for r in lines)
    assert "outbox for test: the database is back" in [r.getMessage() for r in lines]


async def test_running_workers_deliver_until_stopped(store_url: str) -> None:
    first, second = await open_store(store_url), await open_store(store_url)
    try:
        bob, game = await setup(first)
        clock = Clock()
        a, b = Recorder("a"), Recorder("b")
        outboxes = [Outbox(first, clock, batch=3, poll=0.05), Outbox(second, clock, batch=3)]
        stop = asyncio.Event()
        tasks = [
            asyncio.create_task(o.run("test", s, stop=stop))
            for o, s in zip(outboxes, (a, b), strict=True)
        ]
        await queue(first, game, notes(bob, game, 30))
        outboxes[1].wake()
        try:
            await eventually(lambda: len(a.sent) + len(b.sent) >= 30, "30 sent", timeout=30)
        finally:
            stop.set()
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=30)
        ids = [n.id for _, n in a.sent + b.sent]
        assert len(ids) == len(set(ids)) == 30
    finally:
        await first.close()
        await second.close()


async def test_a_dead_workers_claim_is_delivered_when_its_lease_ends(store: SqlStore) -> None:
    bob, game = await setup(store)
    await queue(store, game, notes(bob, game, 2))
    clock = Clock()
    # A worker claims both for a short lease (by the database's clock), then dies without
    # sending.  This process's clock standing still changes nothing: the lease ends by the
    # database's.
    claimed = await store.claim_due("test", "dead", clock.now(), timedelta(seconds=0.5))
    assert len(claimed) == 2
    sender = Recorder()
    outbox = Outbox(store, clock, owner="alive", lease=timedelta(minutes=2))
    assert await outbox.deliver_due("test", sender) == 0
    give_up = time.monotonic() + 10
    while not await outbox.deliver_due("test", sender):  # until the lease has ended
        assert time.monotonic() < give_up, "the dead worker's lease never ended"
        await asyncio.sleep(0.05)
    assert len(sender.sent) == 2
    assert sorted(n.id or 0 for _, n in sender.sent) == sorted(n.id or 0 for n in claimed)
    # The dead worker, were it to wake up, no longer holds them.
    assert not await store.mark_sent(claimed[0].id or 0, "dead", clock.now())


async def test_the_claims_of_a_process_that_died_on_this_host_are_taken_over_at_once(
    store: SqlStore,
) -> None:
    bob, game = await setup(store)
    await queue(store, game, notes(bob, game, 3))
    clock = Clock()
    pid = dead_pid()
    dead = f"{socket.gethostname()}:{pid}:1"
    await store.beat(dead, socket.gethostname(), pid)  # it beat here, then its process ended
    far = f"elsewhere:{pid}:1"  # no heartbeat on record: trusted until its lease ends
    taken = await store.claim_due("test", dead, clock.now(), timedelta(minutes=2), limit=2)
    held = await store.claim_due("test", far, clock.now(), timedelta(minutes=2), limit=1)
    assert len(taken) == 2 and len(held) == 1
    assert await store.claim_owners("test", clock.now()) == sorted([dead, far])
    sender = Recorder()
    outbox = Outbox(store, clock, owner="alive", lease=timedelta(minutes=2))
    assert await outbox.deliver_due("test", sender) == 2  # no waiting for the dead one's lease
    assert sorted(n.id or 0 for _, n in sender.sent) == sorted(n.id or 0 for n in taken)
    assert await store.claim_owners("test", clock.now()) == [far]


async def test_a_notification_being_sent_is_not_cancelled_under_the_sender(
    store: SqlStore,
) -> None:
    """A move that makes a "your turn" obsolete while a worker is sending it leaves it be: it
    is recorded as sent, which it was."""
    bob, game = await setup(store)
    game = await queue(store, game, notes(bob, game, 1, Kind.YOUR_TURN, ply=0))
    clock = Clock()
    (sending,) = await store.claim_due("test", "w", clock.now(), timedelta(minutes=2))
    moved = await store.apply_move(game, "5", 0, {"ply": 1}, 1, clock.now())
    assert moved is not None
    assert sending.id is not None and await store.mark_sent(sending.id, "w", clock.now())
    assert await raw(store, "SELECT outcome FROM notifications") == [("sent",)]


async def test_failures_are_retried_with_backoff_then_given_up(
    store: SqlStore, caplog: pytest.LogCaptureFixture
) -> None:
    bob, game = await setup(store)
    await queue(store, game, notes(bob, game, 2))
    clock = Clock()
    sender = Recorder()
    (flaky, fine) = await store.due_notifications("test", clock.now())
    sender.fail[flaky.id or 0] = ConnectionError("network down")
    outbox = Outbox(store, clock, backoff=timedelta(seconds=30), max_attempts=3)
    assert await outbox.deliver_due("test", sender) == 1
    assert [n.id for _, n in sender.sent] == [fine.id]
    tries = []
    for wait in (29, 1, 59, 1, 119, 1, 1000):  # due again after 30 s, then 60 s; 3 tries in all
        clock.at += timedelta(seconds=wait)
        before = sender.tries
        await outbox.deliver_due("test", sender)
        tries.append(sender.tries - before)
    assert tries == [0, 1, 0, 1, 0, 0, 0]
    assert f"giving up notification {flaky.id}" in caplog.text and "network down" in caplog.text
    (row,) = await raw(
        store, "SELECT outcome, attempts, last_error FROM notifications WHERE id = ?", flaky.id
    )
    assert row[0] == "failed" and "ConnectionError: network down" in row[2]


async def test_a_refused_direct_message_goes_to_the_chat_once(store: SqlStore) -> None:
    bob, game = await setup(store)
    game = await queue(store, game, notes(bob, game, 1))
    no_chat = notes(bob, game, 1)[0]
    game = await queue(store, game, [replace(no_chat, chat=None)])
    sender = Recorder()
    sender.refuse_direct = True
    outbox = Outbox(store, Clock())
    assert await outbox.deliver_due("test", sender) == 1
    ((_, delivered),) = sender.sent
    assert delivered.direct is False and delivered.chat == ROOM
    assert await outbox.deliver_due("test", sender) == 0
    # A refusal of the chat message too is final.
    await queue(store, game, notes(bob, game, 1))
    refused = await store.due_notifications("test", START)
    for n in refused:
        sender.fail[n.id or 0] = DeliveryRefused("bot removed")
    assert await outbox.deliver_due("test", sender) == 0
    assert await store.due_notifications("test", START) == []
    assert len(sender.sent) == 1


async def test_a_refusal_is_remembered_until_direct_messages_are_asked_for_again(
    store: SqlStore,
) -> None:
    """Issue 24: once the platform refused a direct message to Bob, none is tried again (his
    notifications read as not direct: a private one is dropped, one with a chat goes there)
    until he turns direct messages on again or starts the bot."""
    bob, game = await setup(store)
    sender = Recorder()
    sender.refuse_direct = True
    outbox = Outbox(store, Clock())
    game = await queue(store, game, [replace(notes(bob, game, 1)[0], chat=None)])
    assert await outbox.deliver_due("test", sender) == 0
    assert sender.tries == 1  # refused: remembered, and the private notice dropped
    assert await store.due_notifications("test", START) == []
    game = await queue(store, game, notes(bob, game, 1))
    game = await queue(store, game, [replace(notes(bob, game, 1)[0], chat=None)])
    assert [n.direct for n in await store.due_notifications("test", START)] == [False, False]
    assert await outbox.deliver_due("test", sender) == 1  # the chat one, in the chat
    assert sender.tries == 2 and sender.sent[0][1].chat == ROOM
    # Asking for direct messages again (settings dm on, or /start) tries them again.
    await store.set_settings(bob.id, Settings(direct=True))
    game = await queue(store, game, [replace(notes(bob, game, 1)[0], chat=None)])
    assert [n.direct for n in await store.due_notifications("test", START)] == [True]
    sender.refuse_direct = False
    assert await outbox.deliver_due("test", sender) == 1
    sender.refuse_direct = True
    game = await queue(store, game, [replace(notes(bob, game, 1)[0], chat=None)])
    assert await outbox.deliver_due("test", sender) == 0
    assert await store.direct_reachable("test", bob.user_id) is True
    assert await store.direct_reachable("test", bob.user_id) is False  # nothing left to forget
    await queue(store, game, [replace(notes(bob, game, 1)[0], chat=None)])
    assert [n.direct for n in await store.due_notifications("test", START)] == [True]


async def test_obsolete_notifications_are_dropped_when_claimed(store: SqlStore) -> None:
    """A "your turn" for a ply that another writer moved past (without cancelling it) and a
    draw offer of a game that ended are not sent; the game-over note is."""
    bob, game = await setup(store)
    turn = notes(bob, game, 1, Kind.YOUR_TURN, ply=0)
    offer = notes(bob, game, 1, Kind.DRAW_OFFERED)
    over = notes(bob, game, 1, Kind.GAME_OVER)
    game = await queue(store, game, turn + offer + over)
    await raw(store, "UPDATE games SET ply = 1, draw_offer_by = 0 WHERE id = ?", game.id)
    sender = Recorder()
    assert await Outbox(store, Clock()).deliver_due("test", sender) == 2
    assert sorted(n.kind for _, n in sender.sent) == [Kind.DRAW_OFFERED, Kind.GAME_OVER]
    offer_again = notes(bob, game, 1, Kind.DRAW_OFFERED)
    game = await queue(store, game, offer_again)
    await raw(store, "UPDATE games SET status = 'finished' WHERE id = ?", game.id)
    assert await Outbox(store, Clock()).deliver_due("test", sender) == 0
    outcomes = await raw(store, "SELECT kind, outcome FROM notifications ORDER BY id")
    assert outcomes == [
        ("your_turn", "obsolete"),
        ("draw_offered", "sent"),
        ("game_over", "sent"),
        ("draw_offered", "obsolete"),
    ]


async def test_an_answer_claims_its_committed_board_and_releases_it_if_posting_fails(
    store: SqlStore,
) -> None:
    """Issue 24: the adapter answering a move in the game's chat claims the move's committed
    board and marks it sent once posted; if posting fails the board is released to the
    outbox at once (the stored move is not left unannounced); an answer in another chat
    claims nothing."""
    bob, game = await setup(store)
    clock = Clock()
    board = replace(notes(bob, game, 1, Kind.BOARD, ply=0)[0], direct=False, dedupe="board:x:0")
    await queue(store, game, [replace(board, deliver_after=START + timedelta(seconds=10))])
    assert await store.claim_boards(game.id, "somewhere else", "w", START, LEASE) == []
    with pytest.raises(RuntimeError):
        async with answering(store, clock, "w", game.id, ROOM.chat_id):
            raise RuntimeError("429 for good")
    # Released: due at once, for any outbox.
    (due,) = await store.due_notifications("test", START)
    assert due.kind is Kind.BOARD and due.attempts == 0
    async with answering(store, clock, "w", game.id, ROOM.chat_id):
        pass  # the board went out
    assert await store.due_notifications("test", START + timedelta(minutes=5)) == []
    assert [n.kind for n in await store.notifications_for(bob.id)] == [Kind.BOARD]  # sent


class HeldBack:
    """A sender whose posts to the game's room wait until ``release`` is set (a chat the
    platform holds back: discord.py waits out a channel's 429 inside the call)."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.sent: list[Notification] = []

    async def send(self, notification: Notification) -> None:
        if notification.chat == ROOM:
            await self.release.wait()
        self.sent.append(notification)


async def test_a_chat_held_back_holds_no_other_chat_up(store: SqlStore) -> None:
    """One claim takes notifications for two chats; the first chat's are held back (its
    posts wait), and the other chat's go out meanwhile; the first chat's keep their order."""
    bob, game = await setup(store)
    other = Chat("test", "other room")
    mixed = [replace(n, direct=False) for n in notes(bob, game, 4)]  # chat messages
    mixed[2] = replace(mixed[2], chat=other)
    await queue(store, game, mixed)
    sender = HeldBack()
    outbox = Outbox(store, Clock(), owner="w", batch=10)
    delivering = asyncio.create_task(outbox.deliver_due("test", sender))
    give_up = time.monotonic() + 10
    while not sender.sent:
        assert time.monotonic() < give_up, "the other chat waited for the held one"
        await asyncio.sleep(0.01)
    assert [n.chat for n in sender.sent] == [other]
    sender.release.set()
    assert await delivering == 4
    held = [str(n.text) for n in sender.sent if n.chat == ROOM]
    assert held == ["bob: note 0", "bob: note 1", "bob: note 3"]
