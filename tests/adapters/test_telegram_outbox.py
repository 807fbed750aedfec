"""Notifications end to end on Telegram: moves through the real adapter, the real outbox on a
real SQLite file and the adapter's sender, against the fake Bot API (issue 24).  The board is
the notification: each move makes one new message in the group, naming the player to move;
only players who turned direct messages on are told privately too; a direct message Telegram
refuses is not tried again (and not repeated in the group); nothing is sent twice."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import telegram

import engines
from bot.adapters.telegram.sender import TelegramSender
from tests.adapters.telegram_kit import DEADLINE, Bot, running


def _notice_for(message: telegram.Message, user: telegram.User) -> bool:
    """A notice the sender put in a group for ``user``: it opens with their text mention."""
    if not message.text or not message.entities:
        return False
    first = message.entities[0]
    return (
        first.offset == 0
        and first.url == f"tg://user?id={user.id}"
        and message.text.startswith(f"{user.first_name}: ")
    )


def _refused_dms(bot: Bot, user: telegram.User) -> int:
    return sum(
        1
        for c in bot.fake.calls_to("sendMessage")
        if c.data.get("chat_id") == str(user.id) and c.response.get("error_code") == 403
    )


async def test_the_board_is_the_notice_and_direct_messages_are_opt_in(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", None)
        group = fake.group(-400, "Hex club")
        await fake.start_private(bob)  # Bob started the bot and asks for direct messages
        bob_dm = fake.private(bob)
        await fake.wait_for_message(bob_dm, timeout=DEADLINE)  # the answer to /start
        on = await bot.say(bob, bob_dm, "/settings dm on")
        assert on.text is not None and "direct messages on" in on.text
        await fake.send_text(bob, group, "hi")
        card = await bot.say(alice, group, "/challenge pathagon first=me", reply_to=(group.id, 1))
        invite = await fake.wait_for_message(
            bob_dm, lambda m: "challenges you" in (m.text or ""), timeout=DEADLINE
        )
        assert "Accept" in bot.labels(invite)  # the challenge reached Bob privately
        before = fake.last_message_id(group)
        group_calls = _group_calls(bot, group)
        await bot.press(bob, card, bot.button(card, "Accept"))
        board = await bot.next_message(group, before)
        game_id = bot.game_id(board)
        await _outbox_idle(bot)
        # Accepting: the card's buttons taken away and the first board, nothing more.
        assert [m.message_id for m in fake.sent_after(group, before)] == [board.message_id]
        assert _group_calls(bot, group)[len(group_calls) :] == [
            "editMessageReplyMarkup",
            "sendMessage",
        ]
        position = engines.new("pathagon")
        for _ in range(2):  # Alice, then Bob
            mover = await bot.to_move(game_id, alice, bob)
            move = position.legal_moves()[0]
            position = position.play(move)
            before = fake.last_message_id(group)
            answer = await bot.say(mover, group, f"/move {move}")
            assert answer.text is not None and f"played {move}" in answer.text
            if mover is alice:  # Bob asked to be told privately too
                await fake.wait_for_message(
                    bob_dm, lambda m, mv=move: f"played {mv}" in (m.text or ""), timeout=DEADLINE
                )
            await _outbox_idle(bot)
            # One new message in the group per move: the board, naming the player to move.
            assert [m.message_id for m in fake.sent_after(group, before)] == [answer.message_id]
            to_move = await bot.to_move(game_id, alice, bob)
            assert f"tg://user?id={to_move.id}" in [e.url for e in answer.entities or ()]
        # Alice (who never started the bot) turns direct messages on: her next turn notice is
        # refused once, remembered, and never tried again nor repeated in the group.
        assert (await bot.manager.players.settings(bot.as_user(alice), "dm", "on")).ok
        for _ in range(2):
            move = position.legal_moves()[0]
            position = position.play(move)
            before = fake.last_message_id(group)
            mover = await bot.to_move(game_id, alice, bob)
            answer = await bot.say(mover, group, f"/move {move}")
            await _outbox_idle(bot)
            assert [m.message_id for m in fake.sent_after(group, before)] == [answer.message_id]
        assert _refused_dms(bot, alice) == 1
        # Nothing is left to deliver: another round sends nothing.
        assert bot.outbox is not None
        calls = len(fake.calls)
        sender = TelegramSender(bot.adapter.application.bot)
        assert await bot.outbox.deliver_due("telegram", sender) == 0
        assert len(fake.calls) == calls
    assert not any(_notice_for(m, who) for m in fake.sent(group) for who in (alice, bob))
    assert _refused_dms(bot, bob) == 0
    texts = [m.text or "" for m in fake.sent(bob_dm)]
    # (the challenge's private copy was closed when Bob accepted: it says so now)
    notices = [t for t in texts if "accepted challenge" in t or "played" in t]
    assert len(notices) == 3 and "accepted challenge" in notices[0], texts
    assert all(n == 1 for n in Counter(m.text for m in fake.sent(group)).values())


def _group_calls(bot: Bot, group: telegram.Chat) -> list[str]:
    """The methods of the accepted requests that wrote to ``group``, in order."""
    return [
        c.method
        for c in bot.fake.calls
        if isinstance(c.data, dict)
        and c.data.get("chat_id") == str(group.id)
        and (c.response or {}).get("ok")
    ]


async def _outbox_idle(bot: Bot) -> None:
    """Wait until nothing due is left undelivered (what a move queued has gone out)."""
    store: Any = bot.manager.store

    async def idle() -> bool:
        return await store.due_notifications("telegram", bot.manager.now()) == []

    await bot.eventually(idle)
