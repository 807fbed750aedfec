"""A Telegram send whose answer never came (issue 48): Telegram may have posted the message.
A direct notice, which goes at most once on Telegram, is then given up rather than sent again;
a notice in a chat, which must arrive, is sent again (at least once); a request that never
reached Telegram (no connection) is tried again, direct or not.  The real outbox and the
adapter's sender against the fake Bot API, which carries the call out and holds its answer
(:meth:`~tests.fakes.telegram.FakeTelegram.lose_answers`) past the bot's read time-out; on
SQLite and PostgreSQL."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from typing import TypeVar

import httpx
import telegram
from telegram.error import BadRequest, NetworkError, TimedOut
from telegram.request import HTTPXRequest

from bot.adapters.telegram.sender import TelegramSender, maybe_delivered
from bot.core.notification import Kind, Notification, Recipient
from bot.core.settings import Settings
from bot.delivery.outbox import MAYBE_SENT, Outbox
from bot.messages import Chat, Text
from bot.sessions.clock import SystemClock
from bot.storage import NewGame
from bot.storage.sql import SqlStore
from tests.bot.storage.raw import raw
from tests.fakes.telegram import FakeTelegram

E = TypeVar("E", bound=Exception)

GROUP = -500
#: The bot's read time-out here: how long a lost answer keeps a send waiting.
READ_TIMEOUT = 0.5


def _bot(base_url: str, token: str) -> telegram.Bot:
    request = HTTPXRequest(read_timeout=READ_TIMEOUT, connect_timeout=READ_TIMEOUT)
    return telegram.Bot(token, base_url=base_url, request=request)


async def _seed(store: SqlStore, *, direct: bool) -> int:
    """A game in the fake's group and a due "your turn" for Bob about it, by direct message
    (``direct``) or in the group; the notice's id."""
    now = datetime.now(UTC)
    alice = await store.player("telegram", "31", "Alice", now)
    bob = await store.player("telegram", "32", "Bob", now)
    await store.set_settings(bob.id, Settings(direct=direct))
    game = await store.create_game(
        NewGame("maphex", {}, alice.id, bob.id, "telegram", str(GROUP), 1, {}), now
    )
    who = Recipient(bob.platform, bob.user_id, bob.name, bob.id)
    note = Notification(
        kind=Kind.YOUR_TURN,
        recipient=who,
        text=Text.of(who.mention(), ": your turn"),
        deliver_after=now - timedelta(seconds=1),
        chat=Chat("telegram", str(GROUP)),
        game_id=game.id,
        direct=direct,
    )
    assert await store.update_game(game, now, [note]) is not None
    [(note_id,)] = await raw(store, "SELECT id FROM notifications")
    return int(note_id)


async def _world(fake: FakeTelegram) -> tuple[telegram.Chat, telegram.Chat]:
    """Bob's private chat (he started the bot) and the group."""
    bob = fake.user(32, "Bob", "bob")
    fake.user(31, "Alice", "alice")
    await fake.start_private(bob, send_start=False)
    return fake.private(bob), fake.group(GROUP, "Hex club")


async def test_a_direct_notice_whose_answer_was_lost_is_not_sent_again(store: SqlStore) -> None:
    async with FakeTelegram() as fake:
        dm, _ = await _world(fake)
        await _seed(store, direct=True)
        fake.lose_answers("sendMessage", chat_id=dm.id)
        sender = TelegramSender(_bot(fake.base_url, fake.token))
        outbox = Outbox(store, SystemClock(), owner="w", backoff=timedelta(0))
        assert await outbox.deliver_due("telegram", sender) == 0
        assert [m.text for m in fake.sent(dm)] == ["Bob: your turn"]  # Telegram posted it
        rows = await raw(store, "SELECT outcome, last_error FROM notifications")
        assert rows[0][0] == "failed" and rows[0][1].startswith(MAYBE_SENT)
        assert "TimedOut" in rows[0][1]
        # Nothing is due any more: the outbox going on sends nothing twice.
        assert await outbox.deliver_due("telegram", sender) == 0
        assert len(fake.sent(dm)) == 1


async def test_a_chat_notice_whose_answer_was_lost_is_sent_again(store: SqlStore) -> None:
    """In a chat a notice is at least once: its lost answer means one more try."""
    async with FakeTelegram() as fake:
        _, group = await _world(fake)
        await _seed(store, direct=False)
        fake.lose_answers("sendMessage", chat_id=group.id)
        sender = TelegramSender(_bot(fake.base_url, fake.token))
        outbox = Outbox(store, SystemClock(), owner="w", backoff=timedelta(0))
        assert await outbox.deliver_due("telegram", sender) == 0
        rows = await raw(store, "SELECT outcome, attempts FROM notifications")
        assert rows == [(None, 1)]  # due again, one failed attempt counted
        assert await outbox.deliver_due("telegram", sender) == 1
        assert [m.text for m in fake.sent(group)] == ["Bob: your turn"] * 2
        assert await raw(store, "SELECT outcome FROM notifications") == [("sent",)]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_direct_notice_that_never_reached_telegram_is_tried_again(
    store: SqlStore,
) -> None:
    """No connection: Telegram got nothing, so the direct notice is due again, then sent."""
    async with FakeTelegram() as fake:
        dm, _ = await _world(fake)
        await _seed(store, direct=True)
        nowhere = TelegramSender(_bot(f"http://127.0.0.1:{_closed_port()}/bot", fake.token))
        outbox = Outbox(store, SystemClock(), owner="w", backoff=timedelta(0))
        assert await outbox.deliver_due("telegram", nowhere) == 0
        rows = await raw(store, "SELECT outcome, attempts, last_error FROM notifications")
        assert rows[0][:2] == (None, 1) and "ConnectError" in rows[0][2]
        sender = TelegramSender(_bot(fake.base_url, fake.token))
        assert await outbox.deliver_due("telegram", sender) == 1
        assert [m.text for m in fake.sent(dm)] == ["Bob: your turn"]


def _raised(error: E, cause: BaseException) -> E:
    """``error`` as the library raises it, from ``cause``."""
    error.__cause__ = cause
    return error


def test_what_may_have_reached_telegram() -> None:
    """Time-outs while waiting for the answer, lost connections and server errors may have
    been carried out; a refusal or a connection never made was not."""
    assert maybe_delivered(_raised(TimedOut(), httpx.ReadTimeout("read")))
    assert maybe_delivered(_raised(TimedOut(), httpx.WriteTimeout("write")))
    assert maybe_delivered(_raised(NetworkError("gone"), httpx.RemoteProtocolError("gone")))
    assert maybe_delivered(NetworkError("Bad Gateway"))  # a 502 answered
    assert not maybe_delivered(_raised(TimedOut(), httpx.ConnectTimeout("connect")))
    assert not maybe_delivered(_raised(TimedOut("Pool timeout"), httpx.PoolTimeout("pool")))
    assert not maybe_delivered(_raised(NetworkError("refused"), httpx.ConnectError("refused")))
    assert not maybe_delivered(BadRequest("Chat not found"))
