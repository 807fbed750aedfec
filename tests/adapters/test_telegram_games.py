"""Whole games through the Telegram adapter and the fake Bot API, driven by the engines' own
legal moves: typed with /move, by replying to the board, and entirely with the move picker."""

from __future__ import annotations

from pathlib import Path

import pytest
import telegram

import engines
from bot.sessions.picker import part_label, readable, split_parts
from tests.adapters.telegram_kit import Bot, running
from tests.bot.session_kit import finishing_moves, short_finishing_moves
from tests.fakes.telegram import FakeTelegram


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
        moves = short_finishing_moves(game)
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
        assert await bot.manager.games.player_to_move(game_id) is None
        assert "Rematch" in bot.labels(fake.sent(group)[-1])


async def test_a_whole_game_with_the_move_picker_alone(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, bob, group, game_id = await _start(bot, "inphexion")
        for move in finishing_moves("inphexion"):
            mover = await bot.to_move(game_id, alice, bob)
            board = await _latest_board(bot, group)
            picker = await bot.open_picker(mover, board)
            before = fake.last_message_id(group)
            asked_after = fake.last_message_id(picker.chat)
            prefix = ""
            for part in split_parts(move):
                prefix += part
                shown = fake.message(picker.chat, picker.message_id).text or ""
                so_far = shown.split(": ", 1)[-1].split(" so far")[0] if " so far" in shown else ""
                if so_far.startswith(readable(prefix)) and prefix != move:
                    continue  # the only choice: the picker took it
                label = part_label(part)
                if label not in bot.labels(picker) and "▶" in bot.labels(picker):
                    await bot.step(mover, picker, "▶")  # a later page
                if prefix == move:
                    _, text, alert = await bot.press(mover, picker, bot.button(picker, label))
                else:
                    text, alert = await bot.step(mover, picker, label)
                assert not alert, text
                if prefix != move:  # the step says the move so far as the buttons did
                    assert text is not None and readable(prefix) in text
            # The last part played the move (no "Play" tap); the picker is gone.
            found: list[telegram.Message] = []

            def answered(
                p: telegram.Message = picker,
                a: int = asked_after,
                b: int = before,
                f: list[telegram.Message] = found,
            ) -> bool:
                asked = [m for m in fake.sent_after(p.chat, a) if "Careful" in (m.text or "")]
                f[:] = asked or fake.sent_after(group, b)[:1]
                return bool(f)

            await fake.wait_until(answered)
            answer = found[0]
            if answer.text and "Careful" in answer.text:  # a move that loses: asked of its player
                await bot.press(mover, answer, bot.button(answer, "Play it anyway"))
                answer = await bot.next_message(group, before)
            assert answer.text is not None and f"played {move}" in answer.text
            await fake.wait_until(lambda p=picker: p.message_id not in _ids(fake, p.chat))
        assert await bot.manager.games.player_to_move(game_id) is None


def _ids(fake: FakeTelegram, group: telegram.Chat) -> set[int]:
    return {m.message_id for m in fake.sent(group)}


async def test_picker_pages_back_and_cancel(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        alice, bob, group, game_id = await _start(bot, "fixation")
        mover = await bot.to_move(game_id, alice, bob)
        board = await _latest_board(bot, group)
        picker = await bot.open_picker(mover, board)
        # The board keeps its own buttons; the picker is in the mover's private chat.
        assert {"Move", "Resign", "Offer draw"} <= set(bot.labels(board))
        assert picker.chat.id == mover.id
        moves = engines.new("fixation").legal_moves()
        first = moves[0].split("-")[0]
        await bot.step(mover, picker, first)
        ends = {f"→ {m.split('-')[1]}" for m in moves if m.startswith(first + "-")}
        assert ends <= set(bot.labels(picker))  # directions as cells, not "-a4"
        assert not any(label.startswith("-") for label in bot.labels(picker))
        await bot.step(mover, picker, "Back")
        assert first in bot.labels(picker)
        _, alert = await bot.step(mover, picker, "Cancel")
        assert not alert
        await bot.fake.wait_until(lambda: picker.message_id not in _ids(bot.fake, picker.chat))
        assert {"Move", "Resign", "Offer draw"} <= set(bot.labels(board))


async def test_picker_pages(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        alice, bob, group, game_id = await _start(bot, "pathagon")
        mover = await bot.to_move(game_id, alice, bob)
        picker = await bot.open_picker(mover, await _latest_board(bot, group))
        cells = engines.new("pathagon").legal_moves()
        first_page = [label for label in bot.labels(picker) if label in cells]
        assert 0 < len(first_page) < len(cells) and "▶" in bot.labels(picker)
        text, _ = await bot.step(mover, picker, "▶")
        second_page = [label for label in bot.labels(picker) if label in cells]
        assert sorted(first_page + second_page) == sorted(cells)
        assert text is not None and "page 2" in text
