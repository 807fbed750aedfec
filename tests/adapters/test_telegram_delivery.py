"""Notifications on Telegram: the sender the outbox uses, against the fake Bot API."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.adapters.telegram.sender import TelegramSender
from bot.core.notification import Kind, Notification, Recipient
from bot.delivery.outbox import DirectRefused
from bot.messages import Chat, Text
from tests.adapters.telegram_kit import running


def _note(user_id: int, chat_id: int, direct: bool) -> Notification:
    bob = Recipient("telegram", str(user_id), "Bob <3", player_id=2)
    return Notification(
        kind=Kind.YOUR_TURN,
        recipient=bob,
        text=Text.of(bob.mention(), ", it is your turn in #3."),
        deliver_after=datetime(2026, 1, 5, tzinfo=UTC),
        chat=Chat("telegram", str(chat_id)),
        game_id=3,
        ply=4,
        direct=direct,
    )


async def test_a_refused_direct_message_and_the_chat_mention(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        bob = fake.user(32, "Bob", None)  # no username: the mention must work by id
        group = fake.group(-300, "Hex club")
        sender = TelegramSender(bot.adapter.application.bot)
        with pytest.raises(DirectRefused):
            await sender.send(_note(bob.id, group.id, direct=True))  # never started the bot
        await sender.send(_note(bob.id, group.id, direct=False))
        [message] = fake.sent(group)
        assert message.text == "Bob <3, it is your turn in #3."
        [entity] = message.entities
        assert entity.type == "text_mention" or entity.url == f"tg://user?id={bob.id}"
        await fake.start_private(bob, send_start=False)
        await sender.send(_note(bob.id, group.id, direct=True))
        assert [m.text for m in fake.sent(fake.private(bob))] == [message.text]


async def test_flood_control_is_honoured(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        group = fake.group(-300, "Hex club")
        fake.flood("sendMessage", retry_after=1)
        await TelegramSender(bot.adapter.application.bot).send(_note(5, group.id, direct=False))
        calls = fake.calls_to("sendMessage")
        assert [c.response["ok"] for c in calls] == [False, True]
        assert len(fake.sent(group)) == 1
