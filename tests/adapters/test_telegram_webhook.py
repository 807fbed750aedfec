"""Webhook mode of the Telegram adapter: the real application behind
:class:`~bot.adapters.telegram.webhook.TelegramWebhook`, the fake Bot API pushing updates to it
by HTTP POST (as Telegram does), everything on 127.0.0.1.

The webhook's public URL in these tests is a closed local port (``PUBLIC_URL``): the fake's
``webhook_targets`` stand in for the load balancer and send each POST to the bot's real port.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import telegram

from bot.adapters.telegram import TelegramAdapter, TelegramUnavailable
from bot.adapters.telegram.adapter import ALLOWED_UPDATES
from bot.adapters.telegram.webhook import SECRET_HEADER, TelegramWebhook
from bot.app import _telegram
from bot.config import Address, Secret, Settings
from bot.sessions.leases import Claim
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from tests.adapters.telegram_kit import DEADLINE, Bot, quiet_limiter, running
from tests.bot.session_kit import finishing_moves, short_finishing_moves
from tests.fakes.base import free_port
from tests.fakes.telegram import WEBHOOK_PUSH, FakeTelegram

SECRET = "hexhall_Webhook-secret_0123456789"
PATH = "/tg/hook"
#: What the bot gives ``setWebhook``: nothing listens there (port 9 is "discard", closed).
PUBLIC_URL = f"http://127.0.0.1:9{PATH}"


@contextlib.asynccontextmanager
async def webhook_bot(path: Path, fake: FakeTelegram) -> AsyncIterator[tuple[Bot, TelegramWebhook]]:
    """The adapter on a fresh manager over the SQLite file ``path``, in webhook mode on a free
    port of 127.0.0.1, with the fake pushing there."""
    async with contextlib.AsyncExitStack() as stack:
        store = await SqliteStore.open(path)
        stack.push_async_callback(store.close)
        manager = SessionManager(store, pictures=False, rng=random.Random(7))
        stack.push_async_callback(manager.close)
        adapter = TelegramAdapter.build(
            manager,
            fake.token,
            api_url=fake.base_url,
            file_url=fake.base_file_url,
            rate_limiter=quiet_limiter(),
        )
        webhook = TelegramWebhook(adapter, PUBLIC_URL, SECRET, host="127.0.0.1", port=0)
        await webhook.start()
        stack.push_async_callback(webhook.stop)
        fake.webhook_targets = [local_url(webhook)]
        yield Bot(fake, adapter, manager), webhook


def local_url(webhook: TelegramWebhook, path: str = PATH) -> str:
    """Where the process behind the load balancer listens."""
    return f"http://127.0.0.1:{webhook.port}{path}"


def challenge_update(fake: FakeTelegram, user: telegram.User, chat: telegram.Chat) -> Any:
    """A real ``/challenge`` message update as Telegram would POST it (not queued)."""
    message = telegram.Message(
        message_id=fake.last_message_id(chat) + 1,
        date=datetime.now(UTC),
        chat=chat,
        from_user=user,
        text="/challenge pathagon",
        entities=[telegram.MessageEntity(telegram.MessageEntity.BOT_COMMAND, 0, 10)],
    )
    return telegram.Update(fake.next_update_id(), message=message).to_dict()


async def post(
    url: str, body: bytes, secret: str | None = SECRET, session: aiohttp.ClientSession | None = None
) -> int:
    """POST ``body`` to the bot as Telegram would (``secret`` ``None``: without the header);
    the status."""
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers[SECRET_HEADER] = secret
    async with contextlib.AsyncExitStack() as stack:
        if session is None:
            session = await stack.enter_async_context(aiohttp.ClientSession())
        async with session.post(url, data=body, headers=headers) as response:
            return response.status


async def open_challenges(bot: Bot, chat: telegram.Chat) -> int:
    """How many open challenges the store holds in ``chat``."""
    return len(await bot.manager.store.open_challenges("telegram", str(chat.id), datetime.now(UTC)))


def pushes(fake: FakeTelegram, update_id: int) -> list[int | None]:
    """The statuses the bot answered to the fake's POSTs of ``update_id``, in order."""
    return [c.response for c in fake.calls_to(WEBHOOK_PUSH) if c.data["update_id"] == update_id]


async def test_playing_through_the_webhook(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, webhook_bot(tmp_path / "t.db", fake) as (bot, webhook):
        assert fake.webhook_url == PUBLIC_URL and fake.webhook_secret == SECRET
        info = await bot.adapter.application.bot.get_webhook_info()
        assert set(info.allowed_updates or ()) == set(ALLOWED_UPDATES)
        alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", "bob")
        group = fake.group(-200, "Hex club")
        await fake.send_text(bob, group, "hello")
        card = await bot.say(alice, group, "/challenge pathagon", reply_to=fake.message(group, 1))
        before = fake.last_message_id(group)
        await bot.press(bob, card, bot.button(card, "Accept"))
        game_id = bot.game_id(await bot.next_message(group, before))
        for move in finishing_moves("pathagon")[:2]:  # the whole game: two processes, below
            mover = await bot.to_move(game_id, alice, bob)
            answer = await bot.say(mover, group, f"/move {move}")
            assert answer.text is not None and f"played {move}" in answer.text, answer.text
        # Everything came by webhook, each update answered 200 at the first attempt (the
        # answer follows the handling, so the last one may still be on its way).
        await fake.wait_until(lambda: fake.pending_updates() == [], timeout=DEADLINE)
        assert fake.calls_to("getUpdates") == []
        statuses = [c.response for c in fake.calls_to(WEBHOOK_PUSH)]
        assert statuses and set(statuses) == {200}
        await webhook.stop()
        # Stopping one process leaves the webhook to the others.
        assert fake.webhook_url == PUBLIC_URL and fake.calls_to("deleteWebhook") == []


async def test_requests_without_the_secret_are_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with FakeTelegram() as fake, webhook_bot(tmp_path / "t.db", fake) as (bot, webhook):
        alice = fake.user(21, "Alice", "alice")
        group = fake.group(-200, "Hex club")
        body = json.dumps(challenge_update(fake, alice, group)).encode()
        url = local_url(webhook)
        assert await post(url, body, secret=None) == 401
        assert await post(url, body, secret="hexhall_Webhook-secret_0123456788") == 403
        assert await post(url, body, secret="short") == 403
        assert await post(url, body, secret="") == 403
        assert fake.sent(group) == [] and fake.calls_to("sendMessage") == []
        assert await open_challenges(bot, group) == 0
        refusals = [
            r.getMessage()
            for r in caplog.records
            if r.name == "bot.adapters.telegram.webhook" and "refused" in r.getMessage()
        ]
        # Anyone can send these: one line a minute at most, however many (issue 27).
        assert len(refusals) == 1 and "no secret token" in refusals[0]
        for _ in range(50):
            assert await post(url, body, secret=None) == 401
        assert (
            sum(
                r.name == "bot.adapters.telegram.webhook" and "refused" in r.getMessage()
                for r in caplog.records
            )
            == 1
        )
        # The same update with the secret is handled: it was refused for the header alone.
        assert await post(url, body) == 200
        assert "challenges" in (fake.sent(group)[0].text or "")
        # setWebhook went out with the secret (PTB logs its parameters at DEBUG), never logged.
        assert "setWebhook" in caplog.text and SECRET not in caplog.text


async def test_a_body_that_is_no_update_is_a_400(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, webhook_bot(tmp_path / "t.db", fake) as (_, webhook):
        alice = fake.user(21, "Alice", "alice")
        group = fake.group(-200, "Hex club")
        url = local_url(webhook)
        bodies = [
            b"",
            b"{not json",
            b"\xff\xfe\x00",
            b"[1, 2]",
            b'"update"',
            b'{"message": {}}',
            b'{"update_id": "7"}',
            b'{"update_id": true}',
            b'{"update_id": 7, "message": "hello"}',
            b'{"update_id": 7, "message": {"message_id": 1}}',
            b'{"update_id": 7, "callback_query": [1]}',
            b"[" * 200_000,
        ]
        async with aiohttp.ClientSession() as session:
            statuses = [await post(url, body, session=session) for body in bodies]
            assert statuses == [400] * len(bodies)
            assert fake.calls_to("sendMessage") == []
            # The server goes on serving.
            good = json.dumps(challenge_update(fake, alice, group)).encode()
            assert await post(url, good, session=session) == 200
        assert len(fake.sent(group)) == 1


async def test_the_same_update_twice_is_handled_once(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, webhook_bot(tmp_path / "t.db", fake) as (bot, webhook):
        alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", "bob")
        group = fake.group(-200, "Hex club")
        url = local_url(webhook)
        one = json.dumps(challenge_update(fake, alice, group)).encode()
        assert await post(url, one) == 200
        assert await post(url, one) == 200
        assert len(fake.sent(group)) == 1
        # Twice at once (Telegram gave up waiting and sent it again): both wait for the one
        # handling, neither is answered before it is done.
        two = json.dumps(challenge_update(fake, bob, group)).encode()
        assert list(await asyncio.gather(post(url, two), post(url, two))) == [200, 200]
        assert ["challenges" in (m.text or "") for m in fake.sent(group)] == [True, True]
        assert await open_challenges(bot, group) == 2


async def test_an_update_one_process_handled_is_only_acknowledged_by_another(
    tmp_path: Path,
) -> None:
    """After a crash Telegram may send an update again to another process behind the load
    balancer: the processes share a record of the updates handled (and being handled)."""
    db = tmp_path / "t.db"
    async with (
        FakeTelegram() as fake,
        webhook_bot(db, fake) as (first, one),
        webhook_bot(db, fake) as (second, two),
    ):
        alice = fake.user(21, "Alice", "alice")
        group = fake.group(-200, "Hex club")
        update = json.dumps(challenge_update(fake, alice, group)).encode()
        assert await post(local_url(one), update) == 200
        assert await post(local_url(two), update) == 200  # acknowledged, not handled again
        assert len(fake.sent(group)) == 1 and await open_challenges(first, group) == 1
        # While one process is at an update another is asked to wait (Telegram retries).
        other = challenge_update(fake, alice, group)
        manager = first.manager
        assert await manager.posts.claim_update("telegram", other["update_id"]) is Claim.NEW
        assert await post(local_url(two), json.dumps(other).encode()) == 503
        assert await second.manager.posts.claim_update("telegram", other["update_id"]) is Claim.BUSY
        await manager.posts.finish_update("telegram", other["update_id"])
        assert await post(local_url(two), json.dumps(other).encode()) == 200
        assert len(fake.sent(group)) == 1


async def test_a_refused_delivery_is_sent_again_and_handled(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, webhook_bot(tmp_path / "t.db", fake) as (bot, webhook):
        alice = fake.user(21, "Alice", "alice")
        group = fake.group(-200, "Hex club")
        # The first attempt reaches a path nobody serves (404), the next the bot.
        fake.webhook_targets = [local_url(webhook, "/elsewhere"), local_url(webhook)]
        update_id = await fake.send_text(alice, group, "/challenge pathagon")
        assert update_id is not None
        card = await bot.next_message(group, 0)
        assert "challenges" in (card.text or "")
        await fake.wait_confirmed(update_id, timeout=DEADLINE)
        assert pushes(fake, update_id) == [404, 200]
        assert len(fake.sent(group)) == 1
        # Answered only after it was handled: the card went out before the 200 came back.
        answered = [c.method for c in fake.calls if c.method in ("sendMessage", WEBHOOK_PUSH)]
        assert answered == [WEBHOOK_PUSH, "sendMessage", WEBHOOK_PUSH]


async def test_nothing_is_lost_while_no_process_listens(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    async with FakeTelegram() as fake:
        alice = fake.user(21, "Alice", "alice")
        group = fake.group(-200, "Hex club")
        async with webhook_bot(db, fake) as (bot, _):
            await bot.say(alice, group, "/games")
        # The only process is gone; Telegram keeps the webhook and the update, and retries.
        update_id = await fake.send_text(alice, group, "/challenge pathagon")
        sent_at = fake.last_message_id(group)
        assert update_id is not None
        await fake.wait_until(lambda: pushes(fake, update_id)[-2:] == [None, None])
        assert fake.pending_updates() == [update_id]
        async with webhook_bot(db, fake) as (bot, _):
            info = await bot.adapter.application.bot.get_webhook_info()
            assert info.last_error_message == "Connection failed"
            card = await bot.next_message(group, sent_at)
            assert "challenges" in (card.text or "")
            await fake.wait_confirmed(update_id, timeout=DEADLINE)
            assert pushes(fake, update_id)[-1] == 200
            assert await open_challenges(bot, group) == 1


async def test_polling_takes_over_from_a_webhook(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        alice = fake.user(21, "Alice", "alice")
        group = fake.group(-200, "Hex club")
        async with webhook_bot(tmp_path / "t.db", fake):
            pass
        assert fake.webhook_url == PUBLIC_URL
        # Long polling (the default) deletes the webhook first, then gets updates.
        async with running(tmp_path / "t.db", fake=fake, pictures=False) as bot:
            assert fake.webhook_url == ""
            card = await bot.say(alice, group, "/challenge pathagon")
            assert "challenges" in (card.text or "")
        assert fake.calls_to(WEBHOOK_PUSH) == []


async def test_a_webhook_telegram_refuses_is_unavailable(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        store = await SqliteStore.open(tmp_path / "t.db")
        manager = SessionManager(store, pictures=False)
        try:
            adapter = TelegramAdapter.build(
                manager, fake.token, api_url=fake.base_url, file_url=fake.base_file_url
            )
            webhook = TelegramWebhook(
                adapter, "ftp://127.0.0.1/hook", SECRET, host="127.0.0.1", port=0
            )
            with pytest.raises(TelegramUnavailable, match="cannot set the Telegram webhook"):
                await webhook.start()
            assert not adapter.application.running and fake.webhook_url == ""
        finally:
            await manager.close()
            await store.close()


async def test_the_bot_process_serves_the_webhook_when_its_url_is_set(tmp_path: Path) -> None:
    port = free_port()
    async with FakeTelegram(webhook_targets=[f"http://127.0.0.1:{port}{PATH}"]) as fake:
        config = Settings(
            discord_token=Secret(""),
            telegram_token=Secret(fake.token),
            db_path=str(tmp_path / "t.db"),
            telegram_api_url=fake.base_url,
            telegram_file_url=fake.base_file_url,
            telegram_webhook_url=PUBLIC_URL,
            telegram_webhook_secret=Secret(SECRET),
            telegram_webhook_listen=Address("127.0.0.1", port),
        )
        store = await SqliteStore.open(config.db_path)
        manager = SessionManager(store, pictures=False)
        stop = asyncio.Event()
        task = asyncio.create_task(_telegram(config, manager, stop))
        try:
            alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", "bob")
            group = fake.group(-200, "Hex club")
            await fake.wait_until(lambda: fake.webhook_url == PUBLIC_URL, timeout=DEADLINE)
            await fake.start_private(bob)
            await fake.wait_for_message(fake.private(bob), timeout=DEADLINE)  # /start's answer
            # Bob asks for direct messages (opt-in): the invitation will reach him privately.
            await fake.send_text(bob, fake.private(bob), "/settings dm on")
            await fake.wait_for_message(
                fake.private(bob),
                lambda m: "direct messages on" in (m.text or ""),
                timeout=DEADLINE,
            )
            await fake.send_text(bob, group, "hi")
            await fake.send_text(alice, group, "/challenge pathagon", reply_to=(group.id, 1))
            card = await fake.wait_for_message(group, timeout=DEADLINE)
            assert "challenges" in (card.text or "")
            # The invitation reaches Bob privately: the outbox runs in webhook mode too.
            await fake.wait_for_message(
                fake.private(bob), lambda m: "challenges you" in (m.text or ""), timeout=DEADLINE
            )
            assert fake.calls_to("getUpdates") == []
        finally:
            stop.set()
            await task
            await manager.close()
            await store.close()


async def test_the_fake_serves_webhooks_like_telegram() -> None:
    async with FakeTelegram() as fake, fake.application_builder().build() as app:
        bot = app.bot
        alice = fake.user(21, "Alice", "alice")
        with pytest.raises(telegram.error.BadRequest, match="unallowed characters"):
            await bot.set_webhook(PUBLIC_URL, secret_token="not allowed!")
        with pytest.raises(telegram.error.BadRequest, match=r"(?i)https url"):
            await bot.set_webhook("ftp://127.0.0.1/hook")
        # A long poll in progress ends when a webhook is set; later ones are refused.
        poll = asyncio.create_task(bot.get_updates(timeout=5))
        await fake.wait_until(lambda: fake.waiting_polls == 1)
        assert await bot.set_webhook(PUBLIC_URL, secret_token=SECRET, allowed_updates=["message"])
        with pytest.raises(telegram.error.Conflict, match="setWebhook"):
            await poll
        with pytest.raises(telegram.error.Conflict, match="webhook is active"):
            await bot.get_updates()
        update_id = await fake.start_private(alice)
        await fake.wait_until(lambda: len(fake.calls_to(WEBHOOK_PUSH)) >= 2)
        info = await bot.get_webhook_info()
        assert (info.url, info.pending_update_count) == (PUBLIC_URL, 1)
        assert info.allowed_updates == ("message",) and info.last_error_message
        # Deleting the webhook stops the pushes; the update waits for getUpdates.
        assert await bot.delete_webhook()
        assert (await bot.get_webhook_info()).url == ""
        updates = await bot.get_updates(timeout=1)
        assert [u.update_id for u in updates] == [update_id]


async def test_two_processes_behind_one_webhook_share_a_game(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    async with (
        FakeTelegram(webhook_connections=2) as fake,
        webhook_bot(db, fake) as (one, first),
        webhook_bot(db, fake) as (two, second),
    ):
        fake.webhook_targets = [local_url(first), local_url(second)]
        alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", "bob")
        group = fake.group(-200, "Hex club")
        await fake.send_text(bob, group, "hello")
        card = await one.say(alice, group, "/challenge pathagon", reply_to=fake.message(group, 1))
        before = fake.last_message_id(group)
        await one.press(bob, card, one.button(card, "Accept"))
        game_id = one.game_id(await one.next_message(group, before))
        # A whole game to its end (29 moves, not 145: the same turns, fewer of them).
        for move in short_finishing_moves("pathagon"):
            mover = await two.to_move(game_id, alice, bob)
            answer = await two.say(mover, group, f"/move {move}")
            assert answer.text is not None and f"played {move}" in answer.text, answer.text
        assert await one.manager.games.player_to_move(game_id) is None
        await fake.wait_until(lambda: fake.pending_updates() == [], timeout=DEADLINE)
        # The load balancer's turns: both processes took updates, each update once.
        calls = fake.calls_to(WEBHOOK_PUSH)
        assert {c.data["url"] for c in calls} == set(fake.webhook_targets)
        assert [c.response for c in calls] == [200] * len(calls)
        assert len({c.data["update_id"] for c in calls}) == len(calls)
