"""An ended game's boards lose their Move, Resign and Offer draw on Telegram (issue 45),
through the real python-telegram-bot against the fake Bot API: the last live board loses its
buttons when the final board is posted (one edit); an older board, whose buttons were left
to save an edit per move, loses them when one of them is pressed after the end."""

from __future__ import annotations

from pathlib import Path

import pytest
import telegram

from tests.adapters.telegram_kit import Bot, running


async def _board_after(bot: Bot, user: telegram.User, chat: telegram.Chat, line: str) -> int:
    before = bot.fake.last_message_id(chat)
    await bot.fake.send_text(user, chat, line)
    found = await bot.fake.wait_for_message(
        chat, lambda m: m.message_id > before and "Move" in bot.labels(m)
    )
    return found.message_id


@pytest.mark.parametrize("pictures", [True, False])
async def test_an_ended_games_boards_lose_their_buttons(tmp_path: Path, pictures: bool) -> None:
    async with running(tmp_path / "t.db", pictures=pictures) as bot:
        fake = bot.fake
        alice, bob = fake.user(61, "Alice", "alice"), fake.user(62, "Bob", "bob")
        group = fake.group(-600, "Hex club")
        first, gid = await bot.accepted(group, alice, bob, "maphex")
        mover = await bot.to_move(gid, alice, bob)
        last = await _board_after(bot, mover, group, f"/move #{gid} 5")
        assert "Move" in bot.labels(fake.message(group, last))
        loser = await bot.to_move(gid, alice, bob)
        before = fake.last_message_id(group)
        await fake.send_text(loser, group, f"/resign #{gid} !")
        await fake.wait_for_message(
            group, lambda m: m.message_id > before and "resign" in (m.caption or m.text or "")
        )
        # The last live board lost its buttons when the game ended ...
        await fake.wait_until(lambda: bot.labels(fake.message(group, last)) == [])
        # ... an older one kept them, until its Move is pressed: refused, and gone.
        old = fake.message(group, first.message_id)
        assert "Move" in bot.labels(old)
        _, said, alert = await bot.press(alice, old, bot.button(old, "Move"))
        assert alert and said is not None
        await fake.wait_until(lambda: bot.labels(fake.message(group, first.message_id)) == [])
