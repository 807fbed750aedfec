"""Whole games through the Telegram adapter and the fake Bot API, driven by the engines' own
legal moves: typed with /move, by replying to the board, and entirely with the move picker."""

from __future__ import annotations

from pathlib import Path

import pytest
import telegram

import engines
from bot.sessions.picker import split_parts
from tests.adapters.telegram_kit import Bot, running
from tests.bot.session_kit import finishing_moves


async def _start(bot: Bot, game: str) -> tuple[telegram.User, telegram.User, telegram.Chat, int]:
    fake = bot.fake
    alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", "bob")
    group = fake.group(-200, "Hex club")
    await fake.send_text(bob, group, "hello")
    card = await bot.say(alice, group, f"/challenge {game}", reply_to=fake.message(group, 1))
    before = fake.last_message_id(group)
    await bot.press(bob, card, bot.button(card, "Accept"))
    board = await bot.next_message(group, before)
    return alice, bob, group, bot.game_id(board)


async def _latest_board(bot: Bot, group: telegram.Chat) -> telegram.Message:
    """The newest bot message that has a Move button (only the latest board keeps one)."""
    newest = bot.fake.last_message_id(group)
    for message_id in range(newest, max(newest - 10, 0), -1):
        message = bot.fake.message(group, message_id)
        if message.from_user and message.from_user.is_bot and "Move" in bot.labels(message):
            return message
    raise AssertionError("no live board among the newest messages")


@pytest.mark.parametrize("game", ["isopath", "pathagon", "fixation", "maphex"])
async def test_a_whole_game_typed_and_by_reply(tmp_path: Path, game: str) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, bob, group, game_id = await _start(bot, game)
        moves = finishing_moves(game)
        for number, move in enumerate(moves):
            mover = await bot.to_move(game_id, alice, bob)
            before = fake.last_message_id(group)
            if number % 2:
                board = await _latest_board(bot, group)
                await fake.send_text(mover, group, move, reply_to=board)
            else:
                await fake.send_text(mover, group, f"/move {move}")
            answer = await bot.next_message(group, before)
            assert answer.text is not None and f"played {move}" in answer.text, answer.text
        assert await bot.manager.player_to_move(game_id) is None
        assert "Rematch" in bot.labels(fake.sent(group)[-1])


async def test_a_whole_game_with_the_move_picker_alone(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, bob, group, game_id = await _start(bot, "inphexion")
        for move in finishing_moves("inphexion"):
            mover = await bot.to_move(game_id, alice, bob)
            board = await _latest_board(bot, group)
            await bot.press(mover, board, bot.button(board, "Move"))
            prefix = ""
            for part in split_parts(move):
                label = part.strip()
                if label not in bot.labels(board):  # on a later page
                    await bot.press(mover, board, bot.button(board, "▶"))
                _, text, alert = await bot.press(mover, board, bot.button(board, label))
                assert not alert, text
                prefix += part
                assert text is not None and prefix in text
            before = fake.last_message_id(group)
            _, text, alert = await bot.press(mover, board, bot.button(board, f"Play {move}"))
            assert not alert, text
            answer = await bot.next_message(group, before)
            if answer.text and answer.text.startswith("Careful"):  # a move that loses
                before = fake.last_message_id(group)
                await bot.press(mover, answer, bot.button(answer, "Play it anyway"))
                answer = await bot.next_message(group, before)
            assert answer.text is not None and f"played {move}" in answer.text
        assert await bot.manager.player_to_move(game_id) is None


async def test_picker_pages_back_and_cancel(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        alice, bob, group, game_id = await _start(bot, "pathagon")
        mover = await bot.to_move(game_id, alice, bob)
        board = await _latest_board(bot, group)
        await bot.press(mover, board, bot.button(board, "Move"))
        cells = engines.new("pathagon").legal_moves()
        first_page = [label for label in bot.labels(board) if label in cells]
        assert 0 < len(first_page) < len(cells) and "▶" in bot.labels(board)
        _, text, _ = await bot.press(mover, board, bot.button(board, "▶"))
        second_page = [label for label in bot.labels(board) if label in cells]
        assert sorted(first_page + second_page) == sorted(cells)
        assert text is not None and "page 2" in text
        await bot.press(mover, board, bot.button(board, second_page[0]))
        assert f"Play {second_page[0]}" in bot.labels(board)
        await bot.press(mover, board, bot.button(board, "Back"))
        assert f"Play {second_page[0]}" not in bot.labels(board)
        await bot.press(mover, board, bot.button(board, "Cancel"))
        assert {"Move", "Resign", "Offer draw"} <= set(bot.labels(board))
