"""Direct notices on a platform with no key to recognise a resend (Telegram) are delivered at
most once across a crash (issue 48: 8 "your turn" direct messages were doubled in 100 kills).
The outbox marks such a notice as being sent before handing it over; a worker that dies while
sending leaves it marked, and the worker that takes its claims over gives it up instead of
sending it a second time (the game's chat shows the same on its board).  A chat notice, which
the outbox may not drop, is still sent again (at least once).  On SQLite and PostgreSQL.

The death: the worker's delivery task is cancelled while its sender holds the notices (the
platform has them), its claims left as they were, with a lease that then runs out."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.core.notification import Kind, Notification, Recipient
from bot.core.settings import Settings
from bot.delivery.outbox import DirectRefused, Outbox
from bot.messages import Chat, Text
from bot.sessions.clock import SystemClock
from bot.storage import NewGame
from bot.storage.sql import SqlStore
from bot.storage.sql_outbox import UNSURE
from tests.bot.session_kit import eventually
from tests.bot.storage.raw import raw

#: A claim that runs out quickly once its worker stops renewing it.
LEASE = timedelta(seconds=0.5)


async def _seed(store: SqlStore) -> tuple[int, int]:
    """A game, a direct "your turn" and a chat notice about it, both due; their ids."""
    now = datetime.now(UTC)
    alice = await store.player("test", "1", "alice", now)
    bob = await store.player("test", "2", "bob", now)
    await store.set_settings(bob.id, Settings(direct=True))  # he asked for direct messages
    game = await store.create_game(
        NewGame("maphex", {}, alice.id, bob.id, "test", "room", 0, {}), now
    )
    who = Recipient(bob.platform, bob.user_id, bob.name, bob.id)
    notes = [
        Notification(
            kind=Kind.OPPONENT_AWAY,
            recipient=who,
            text=Text.of(who.mention(), f": {what}"),
            deliver_after=now - timedelta(seconds=1),
            chat=None if direct else Chat("test", "room"),
            game_id=game.id,
            direct=direct,
        )
        for what, direct in (("direct", True), ("in the chat", False))
    ]
    assert await store.update_game(game, now, notes, reminder_sent_for_ply=0) is not None
    rows = await raw(store, "SELECT id, direct FROM notifications ORDER BY id")
    ids = {bool(d): int(i) for i, d in rows}
    return ids[True], ids[False]


class Once:
    """A sender for a platform with no resend key (``at_most_once``): records what it is
    handed; while ``hang`` is set it then never returns (the process dies meanwhile)."""

    at_most_once = True

    def __init__(self, *, hang: bool = False, refuse_direct: bool = False) -> None:
        self.hang = hang
        self.refuse_direct = refuse_direct
        self.sent: list[int] = []

    async def send(self, notification: Notification) -> None:
        """Hand ``notification`` over (and hang, or refuse a direct message)."""
        assert notification.id is not None
        if self.refuse_direct and notification.direct:
            raise DirectRefused("Forbidden: bot was blocked by the user")
        self.sent.append(notification.id)
        if self.hang:
            await asyncio.Event().wait()


async def _die_while_sending(store: SqlStore) -> Once:
    """Worker ``dead`` claims every due notice and dies with the platform holding them."""
    hanging = Once(hang=True)
    dead = Outbox(store, SystemClock(), owner="dead", lease=LEASE)
    task = asyncio.create_task(dead.deliver_due("test", hanging))
    await eventually(lambda: len(hanging.sent) == 2, "both notices handed over")
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    return hanging


async def test_a_direct_notice_is_not_sent_again_after_its_sender_died(store: SqlStore) -> None:
    direct, chat = await _seed(store)
    hanging = await _die_while_sending(store)
    assert sorted(hanging.sent) == sorted([direct, chat])
    # The worker that takes over once the dead one's claims run out.
    alive, sender = Outbox(store, SystemClock(), owner="alive", lease=LEASE), Once()

    async def delivered() -> bool:
        await alive.deliver_due("test", sender)
        return chat in sender.sent

    await eventually(delivered, "the chat notice sent again")
    await alive.deliver_due("test", sender)
    assert sender.sent == [chat]  # the direct one never again
    rows = await raw(store, "SELECT outcome, last_error FROM notifications WHERE id = ?", direct)
    assert rows == [("failed", UNSURE)]
    assert await store.due_notifications("test", datetime.now(UTC) + timedelta(days=1)) == []


async def test_a_direct_notice_taken_over_from_a_gone_worker_is_not_sent_again(
    store: SqlStore,
) -> None:
    """The same when the dead worker's claims are freed at once (it is known to be gone)
    rather than left to run out."""
    direct, chat = await _seed(store)
    await _die_while_sending(store)
    assert await store.release_claims("test", "dead") == 2
    sender = Once()
    await Outbox(store, SystemClock(), owner="alive").deliver_due("test", sender)
    assert sender.sent == [chat]
    assert await raw(store, "SELECT outcome FROM notifications WHERE id = ?", direct) == [
        ("failed",)
    ]


async def test_a_direct_notice_is_sent_once_and_recorded_as_sent(store: SqlStore) -> None:
    direct, chat = await _seed(store)
    sender = Once()
    outbox = Outbox(store, SystemClock(), owner="w")
    assert await outbox.deliver_due("test", sender) == 2
    assert sorted(sender.sent) == sorted([direct, chat])
    assert await raw(store, "SELECT DISTINCT outcome FROM notifications") == [("sent",)]


async def test_a_refused_direct_notice_still_goes_to_the_chat(store: SqlStore) -> None:
    """Telegram refusing a direct message (a 403) is no crash: the notice is released from
    being sent and, having no chat, given up as before; nothing is left marked."""
    direct, chat = await _seed(store)
    sender = Once(refuse_direct=True)
    await Outbox(store, SystemClock(), owner="w").deliver_due("test", sender)
    assert sender.sent == [chat]
    rows = await raw(store, "SELECT outcome, last_error FROM notifications WHERE id = ?", direct)
    assert rows == [("failed", "refused: Forbidden: bot was blocked by the user")]
    assert await raw(store, "SELECT COUNT(*) FROM notifications WHERE outcome = 'sending'") == [
        (0,)
    ]
