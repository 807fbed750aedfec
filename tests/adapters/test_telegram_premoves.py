"""Conditional moves on Telegram (issue 46), through the real adapter, the real outbox and the
fake Bot API: a line prepared in a private chat with the bot plays itself as the opponent
plays into it in the group, one board in the group each time; a move off the line drops it
and tells its owner once, privately; the opponent and the group never see a prepared line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import telegram

from tests.adapters.telegram_kit import DEADLINE, Bot, running


async def _outbox_idle(bot: Bot) -> None:
    """Wait until nothing due is left undelivered."""
    store: Any = bot.manager.store

    async def idle() -> bool:
        return bool(await store.due_notifications("telegram", bot.manager.now()) == [])

    await bot.eventually(idle)


def _texts(bot: Bot, chat: telegram.Chat) -> list[str]:
    return [m.text or m.caption or "" for m in bot.fake.sent(chat)]


async def test_a_prepared_line_plays_itself_in_the_group_one_board_each_time(
    tmp_path: Path,
) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        alice, bob = fake.user(31, "Alice", "alice"), fake.user(32, "Bob", "bob")
        group = fake.group(-500, "Hex club")
        _, game_id = await bot.accepted(group, alice, bob, "pathagon")
        # The owner moves first; the lines are prepared during the opponent's turn.
        owner = await bot.to_move(game_id, alice, bob)
        first = bob if owner is alice else alice
        await fake.start_private(owner)
        owner_dm = fake.private(owner)
        await fake.wait_for_message(owner_dm, timeout=DEADLINE)  # the answer to /start
        assert "on" in ((await bot.say(owner, owner_dm, "/settings dm on")).text or "")
        await bot.say(owner, group, "/move a1")
        await _outbox_idle(bot)

        said = await bot.say(owner, owner_dm, f"/premove #{game_id} b1 => c1; b2 => c2")
        assert said.text is not None and "Line 1 prepared" in said.text, said.text
        listed = await bot.say(owner, owner_dm, f"/premove #{game_id}")
        assert listed.text is not None and "1. if b1, then c1; if b2, then c2" in listed.text
        seen = len(_texts(bot, group))

        for theirs, mine in (("b1", "c1"), ("b2", "c2")):
            before = fake.last_message_id(group)
            answer = await bot.say(first, group, f"/move {theirs}")
            assert answer.text is not None
            assert f"played {theirs}" in answer.text and f"replied {mine} (prepared)" in answer.text
            await _outbox_idle(bot)
            # One new message in the group: the board after both moves, naming the opponent.
            assert [m.message_id for m in fake.sent_after(group, before)] == [answer.message_id]
            assert f"tg://user?id={first.id}" in [e.url for e in answer.entities or ()]
            assert await bot.to_move(game_id, alice, bob) is first
        # Nothing in the group spoke of the line before it was played.
        assert not any("prepared" in t for t in _texts(bot, group)[:seen])
        assert not any("if b2" in t for t in _texts(bot, group))
        assert not any("if b" in t for t in _texts(bot, fake.private(first)))

        # A line the opponent steps off: dropped, and its owner told once, privately.
        again = await bot.say(owner, owner_dm, f"/premove #{game_id} d1 => e1")
        assert "Line 1" in (again.text or "")
        told_before = len(_texts(bot, owner_dm))
        await bot.say(first, group, "/move e5")
        await _outbox_idle(bot)
        await bot.say(owner, group, "/move e1")
        await bot.say(first, group, "/move d1")
        await _outbox_idle(bot)
        told = [t for t in _texts(bot, owner_dm)[told_before:] if "were dropped" in t]
        assert len(told) == 1 and "e5" in told[0], _texts(bot, owner_dm)
        assert not any("were dropped" in t for t in _texts(bot, group))
