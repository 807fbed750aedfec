"""One effect per tap, on Telegram (issue 45), through the real python-telegram-bot against the
fake Bot API: a double tap (two callback queries for the same button of the same message by
the same person, handled side by side) does what one tap does; the second is answered with
no notification (every callback query is answered: core.telegram.org/bots/api#
answercallbackquery)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import telegram

from bot.adapters.telegram.format import PLATFORM
from bot.adapters.telegram.taps import Taps
from bot.sessions import texts
from bot.storage import PostKind
from tests.adapters.telegram_kit import Bot, running


async def _game(bot: Bot) -> tuple[telegram.User, telegram.User, telegram.Chat, telegram.Message]:
    fake = bot.fake
    alice, bob = fake.user(91, "Alice", "alice"), fake.user(92, "Bob", "bob")
    group = fake.group(-900, "Hex club")
    board, _ = await bot.accepted(group, alice, bob, "maphex")
    return alice, bob, group, board


async def _double_tap(bot: Bot, user: telegram.User, message: telegram.Message, label: str) -> None:
    data = bot.button(message, label)
    queries = [await bot.fake.press(user, message, data) for _ in range(2)]
    for query in queries:
        await bot.fake.wait_for_answer(query)


def _pickers_sent(bot: Bot, user: telegram.User) -> list[Any]:
    """Every picker ever sent to ``user``'s private chat (deleted ones too)."""
    return [
        c
        for c in bot.fake.calls_to("sendMessage")
        if c.data.get("chat_id") == str(user.id)
        and (c.response or {}).get("ok") is True
        and "pc:" in json.dumps(c.data.get("reply_markup") or {})
    ]


async def test_a_double_tap_on_move_opens_one_picker(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        alice, bob, group, board = await _game(bot)
        gid = bot.game_id(board)
        mover = await bot.to_move(gid, alice, bob)
        await bot.fake.start_private(mover, send_start=False)
        before = bot.fake.last_message_id(group)
        await _double_tap(bot, mover, board, "Move")
        await bot.fake.wait_until(lambda: len(_pickers_sent(bot, mover)) >= 1)
        live = await bot.manager.posts.posts_for(
            PLATFORM, game_id=gid, kind=PostKind.PICKER, live=True
        )
        assert [p.chat_id for p in live] == [str(mover.id)]
        assert len(_pickers_sent(bot, mover)) == 1
        assert bot.fake.sent_after(group, before) == []  # the group saw nothing


async def test_move_taps_racing_past_the_window_still_leave_one_live_picker(
    tmp_path: Path,
) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        bot.adapter.taps = Taps(window=0.0)  # no double-tap memory: only the picker's lock
        alice, bob, _group, board = await _game(bot)
        gid = bot.game_id(board)
        mover = await bot.to_move(gid, alice, bob)
        await bot.fake.start_private(mover, send_start=False)
        data = bot.button(board, "Move")
        queries = [await bot.fake.press(mover, board, data) for _ in range(3)]
        for query in queries:
            await bot.fake.wait_for_answer(query)
        live = await bot.manager.posts.posts_for(
            PLATFORM, game_id=gid, kind=PostKind.PICKER, live=True
        )
        assert len(live) == 1
        assert len(_pickers_sent(bot, mover)) == 1


async def test_a_presser_who_never_opened_the_bot_is_sent_to_start_it(tmp_path: Path) -> None:
    """The bot may not write first: the Move tap is answered with our chat's start link
    (the only link a callback answer may open), and Start there brings the picker; the
    group sees nothing of it."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        alice, bob, group, board = await _game(bot)
        gid = bot.game_id(board)
        mover = await bot.to_move(gid, alice, bob)
        before = bot.fake.last_message_id(group)
        query, text, alert = await bot.press(mover, board, bot.button(board, "Move"))
        answer = await bot.fake.wait_for_answer(query)
        assert not alert and text == texts.PICKER_START
        assert answer.url == f"https://t.me/hexhall_bot?start=pk{gid}"
        await bot.fake.start_private(mover, send_start=False)
        await bot.fake.send_text(mover, bot.fake.private(mover), f"/start pk{gid}")
        await bot.fake.wait_until(lambda: len(_pickers_sent(bot, mover)) >= 1)

        async def remembered() -> bool:
            live = await bot.manager.posts.posts_for(
                PLATFORM, game_id=gid, kind=PostKind.PICKER, live=True
            )
            return [p.chat_id for p in live] == [str(mover.id)]

        await bot.eventually(remembered)
        assert bot.fake.sent_after(group, before) == []


async def test_a_double_tap_on_history_posts_one_move_list(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        alice, _bob, group, board = await _game(bot)
        before = bot.fake.last_message_id(group)
        await _double_tap(bot, alice, board, "History")
        await bot.fake.wait_until(lambda: len(bot.fake.sent_after(group, before)) >= 1)
        assert len(bot.fake.sent_after(group, before)) == 1
