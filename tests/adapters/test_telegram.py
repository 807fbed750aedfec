"""The Telegram adapter through the real python-telegram-bot against the fake Bot API:
commands, the challenge card, moves by command and by reply, the board photo, the picker's
permissions, double presses and the error handler."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import telegram

import engines
from bot.adapters.telegram import COMMANDS
from tests.adapters.telegram_kit import DEADLINE, Bot, running


async def _game(
    bot: Bot, game: str = "maphex"
) -> tuple[telegram.User, telegram.User, telegram.Chat, telegram.Message, telegram.Message]:
    """Alice challenges Bob (by replying to his message) in a group; Bob accepts."""
    fake = bot.fake
    alice, bob = fake.user(11, "Alice", "alice"), fake.user(12, "Bob <b>", "bob")
    group = fake.group(-100, "Hex club")
    await fake.send_text(bob, group, "hi all")  # not for the bot (privacy mode)
    hello = fake.message(group, 1)
    card = await bot.say(alice, group, f"/challenge {game} first=me", reply_to=hello)
    _, _, alert = await bot.press(bob, card, bot.button(card, "Accept"))
    assert not alert
    board = await fake.wait_for_message(group, lambda m: m.message_id > card.message_id)
    return alice, bob, group, card, board


async def test_commands_are_registered_and_help_answers_in_a_group(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        await fake.wait_for(lambda c: c.method == "setMyCommands")
        assert [c.command for c in fake.commands()] == [name for name, _ in COMMANDS]
        alice = fake.user(11, "Alice", "alice")
        group = fake.group(-100, "Hex club")
        answer = await bot.say(alice, group, "/help@hexhall_bot")
        assert answer.text is not None and "/challenge" in answer.text
        # The five games are named in the help; /games is your games, as on every platform.
        assert all(spec.title in answer.text for spec in engines.GAMES.values())
        games = await bot.say(alice, group, "/games")
        assert games.text is not None and "no games" in games.text.lower()
        rules = await bot.say(alice, group, "/rules isopath")
        assert rules.text is not None and "Iso" in rules.text


async def test_challenge_card_accept_and_moves_by_command_and_reply(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db") as bot:
        fake = bot.fake
        alice, bob, group, card, board = await _game(bot)
        # The card lost its buttons when Bob accepted; the start board is a photo with buttons.
        await fake.wait_until(lambda: fake.keyboard(card) == (), timeout=DEADLINE)
        assert board.photo and board.caption and "Alice" in board.caption
        assert "Bob <b>" in board.caption  # escaped, shown as typed
        assert {"Move", "Resign", "Offer draw", "Describe"} <= set(bot.labels(board))
        game_id = bot.game_id(board)
        one = await bot.to_move(game_id, alice, bob)
        two = bob if one is alice else alice
        first = engines.new("maphex").legal_moves()[4]
        after = await bot.say(one, group, f"/move {first}")
        assert after.photo and after.caption is not None and first in after.caption
        # The older board keeps its buttons (no edit per move: issue 24); they still work.
        assert "Move" in bot.labels(board)
        second = engines.new("maphex").play(first).legal_moves()[0]
        illegal = await bot.say(two, group, "z99", reply_to=after)
        assert illegal.text is not None and illegal.text.startswith("Illegal move")
        third = await bot.say(two, group, second, reply_to=after)
        assert third.photo and third.caption is not None and second in third.caption
        described = await bot.press(alice, third, bot.button(third, "Describe"))
        assert described[2] is False
        words = await fake.wait_for_message(group, lambda m: m.message_id > third.message_id)
        assert words.text and words.text != third.caption


async def test_strangers_get_alerts_and_nothing_changes(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, bob = fake.user(11, "Alice", "alice"), fake.user(12, "Bob", "bob")
        carol = fake.user(13, "Carol", "carol")
        group = fake.group(-100, "Hex club")
        await fake.send_text(bob, group, "hi")
        card = await bot.say(alice, group, "/challenge pathagon", reply_to=fake.message(group, 1))
        assert {"Accept", "Decline", "Cancel"} <= set(bot.labels(card))
        assert any(b.url and "start=dm" in b.url for row in fake.keyboard(card) for b in row)
        _, text, alert = await bot.press(carol, card, bot.button(card, "Accept"))
        assert alert and text and "not for you" in text
        _, text, alert = await bot.press(carol, card, bot.button(card, "Cancel"))
        assert alert
        assert set(bot.labels(card)) >= {"Accept", "Decline"}  # unchanged
        _, _, alert = await bot.press(bob, card, bot.button(card, "Accept"))
        assert not alert
        board = await fake.wait_for_message(group, lambda m: m.message_id > card.message_id)
        _, text, alert = await bot.press(carol, board, bot.button(board, "Move"))
        assert alert and text
        waiting = await bot.to_move(bot.game_id(board), alice, bob)
        waiting = bob if waiting is alice else alice
        _, text, alert = await bot.press(waiting, board, bot.button(board, "Move"))
        assert alert and text and "not your turn" in text
        assert "Move" in bot.labels(board)


async def test_declined_card_is_edited_in_place(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, bob = fake.user(11, "Alice", "alice"), fake.user(12, "Bob", "bob")
        group = fake.group(-100, "Hex club")
        await fake.send_text(bob, group, "hi")
        card = await bot.say(alice, group, "/challenge fixation", reply_to=fake.message(group, 1))
        await bot.press(bob, card, bot.button(card, "Decline"))
        await fake.wait_until(lambda: fake.keyboard(card) == ())
        edited = fake.message(group, card.message_id)
        assert edited.text is not None and "declined" in edited.text


async def test_a_double_press_applies_once(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, bob, group, _, board = await _game(bot, "pathagon")
        mover = await bot.to_move(bot.game_id(board), alice, bob)
        picker = await bot.open_picker(mover, board)
        cell = engines.new("pathagon").legal_moves()[0]
        play = bot.button(picker, cell)  # a cell plays at once in Pathagon
        before = len(fake.sent(group)) - 1  # the picker goes once the move is played
        first = await fake.press(mover, picker, play)
        second = await fake.press(mover, picker, play)  # before the first is handled
        await fake.wait_for_answer(first)
        await fake.wait_for_answer(second)
        await fake.wait_until(
            lambda: any(m.text and cell in m.text for m in fake.sent(group)[before:])
        )
        game_id = int(play.split(":")[1])
        loaded = await bot.manager.games.board(bot.as_user(mover), bot.as_chat(group), game_id)
        assert loaded.ok and "move 2" in loaded.text
        boards = [m for m in fake.sent(group)[before:] if m.text and cell in m.text]
        assert len(boards) == 1


async def test_errors_are_answered_and_logged_without_the_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.DEBUG)
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        token = fake.token

        async def broken(*args: object, **kwargs: object) -> object:
            raise RuntimeError(f"boom while calling {fake.base_url}{token}/sendMessage")

        monkeypatch.setattr(bot.manager.games, "games", broken)
        alice = fake.user(11, "Alice", "alice")
        await fake.start_private(alice, send_start=False)
        chat = fake.private(alice)
        answer = await bot.say(alice, chat, "/games")
        assert answer.text is not None and "went wrong" in answer.text
        # The bot keeps running.
        after = await bot.say(alice, chat, "/help")
        assert after.text is not None and "/challenge" in after.text
    failed = [r for r in caplog.records if "failed" in r.getMessage() and "update" in r.msg]
    assert failed and "boom" in failed[0].getMessage()
    for record in caplog.records:
        assert token not in record.getMessage()
        assert token not in (record.exc_text or "")
    assert token not in caplog.text
