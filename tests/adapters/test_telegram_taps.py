"""One effect per tap, on Telegram (issue 45), through the real python-telegram-bot against the
fake Bot API: a double tap (two callback queries for the same button of the same message by
the same person, handled side by side) does what one tap does; the second is answered with
no notification (every callback query is answered: core.telegram.org/bots/api#
answercallbackquery)."""

from __future__ import annotations

from pathlib import Path

import telegram

from bot.adapters.telegram.format import PLATFORM
from bot.adapters.telegram.taps import Taps
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


def _under(bot: Bot, group: telegram.Chat, board: telegram.Message) -> list[telegram.Message]:
    return [
        m
        for m in bot.fake.sent(group)
        if m.reply_to_message is not None and m.reply_to_message.message_id == board.message_id
    ]


async def test_a_double_tap_on_move_opens_one_picker(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        alice, bob, group, board = await _game(bot)
        gid = bot.game_id(board)
        mover = await bot.to_move(gid, alice, bob)
        await _double_tap(bot, mover, board, "Move")
        await bot.fake.wait_until(lambda: len(_under(bot, group, board)) >= 1)
        assert len(_under(bot, group, board)) == 1
        live = await bot.manager.posts_for(PLATFORM, game_id=gid, kind=PostKind.PICKER, live=True)
        assert len(live) == 1
        pickers = [  # every picker ever sent under the board, deleted ones too
            c
            for c in bot.fake.calls_to("sendMessage")
            if (c.data.get("reply_parameters") or {}).get("message_id") == board.message_id
        ]
        assert len(pickers) == 1


async def test_move_taps_racing_past_the_window_still_leave_one_live_picker(
    tmp_path: Path,
) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        bot.adapter.taps = Taps(window=0.0)  # no double-tap memory: only the picker's lock
        alice, bob, group, board = await _game(bot)
        gid = bot.game_id(board)
        mover = await bot.to_move(gid, alice, bob)
        data = bot.button(board, "Move")
        queries = [await bot.fake.press(mover, board, data) for _ in range(3)]
        for query in queries:
            await bot.fake.wait_for_answer(query)
        live = await bot.manager.posts_for(PLATFORM, game_id=gid, kind=PostKind.PICKER, live=True)
        assert len(live) == 1
        await bot.fake.wait_until(lambda: len(_under(bot, group, board)) == 1)


async def test_a_double_tap_on_history_posts_one_move_list(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        alice, _bob, group, board = await _game(bot)
        before = bot.fake.last_message_id(group)
        await _double_tap(bot, alice, board, "History")
        await bot.fake.wait_until(lambda: len(bot.fake.sent_after(group, before)) >= 1)
        assert len(bot.fake.sent_after(group, before)) == 1
