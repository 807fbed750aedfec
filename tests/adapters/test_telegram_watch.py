"""Spectators look quietly and the move picker belongs to its player, on Telegram (issue 26),
through the real python-telegram-bot against the fake Bot API.

A spectator's Board, History, Describe and browser taps post nothing in the group: the answer
goes to them privately, or, when they never opened the bot (``sendMessage`` to them answers
403), to an alert on the button -- ``answerCallbackQuery`` with ``show_alert`` and at most 200
characters (core.telegram.org/bots/api#answercallbackquery).  The picker is its own message, a
reply to the board (``reply_parameters``), deleted once used (core.telegram.org/bots/api#
deletemessage: a bot deletes its own recent messages in groups).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import telegram

import engines
from bot.adapters.telegram.taps import Taps
from bot.sessions import texts
from tests.adapters.telegram_kit import Bot, running


async def _game(
    bot: Bot, game: str
) -> tuple[telegram.User, telegram.User, telegram.Chat, telegram.Message]:
    fake = bot.fake
    alice, bob = fake.user(71, "Alice", "alice"), fake.user(72, "Bob", "bob")
    group = fake.group(-700, "Hex club")
    await fake.send_text(bob, group, "hi")
    card = await bot.say(alice, group, f"/challenge {game} first=me", reply_to=(group.id, 1))
    before = fake.last_message_id(group)
    await bot.press(bob, card, bot.button(card, "Accept"))
    board = await bot.next_message(group, before)
    return alice, bob, group, board


def _ids(bot: Bot, chat: telegram.Chat) -> list[int]:
    return [m.message_id for m in bot.fake.sent(chat)]


async def test_a_spectator_who_opened_the_bot_gets_looks_privately(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db") as bot:
        fake = bot.fake
        _alice, _bob, group, board = await _game(bot, "pathagon")
        carol = fake.user(73, "Carol", "carol")
        await fake.start_private(carol, send_start=False)
        dm = fake.private(carol)
        in_group = _ids(bot, group)
        for label in ("Board", "History", "Describe"):
            before = fake.last_message_id(dm)
            _, text, alert = await bot.press(carol, board, bot.button(board, label))
            assert (text, alert) == (texts.SENT_PRIVATELY, False)
            private = await bot.next_message(dm, before)
            if label == "Board":  # the picture, without buttons to play with
                assert private.photo and "Move" not in bot.labels(private)
            else:  # a look, without buttons (the game is shown in its own chat only)
                assert private.text and bot.labels(private) == []
        assert _ids(bot, group) == in_group  # nothing posted for everyone


async def test_a_spectator_who_never_opened_the_bot_gets_an_alert(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db") as bot:
        fake = bot.fake
        alice, bob, group, board = await _game(bot, "maphex")
        dave = fake.user(74, "Dave", "dave")
        in_group = _ids(bot, group)
        for label in ("Board", "History", "Describe"):
            _, text, alert = await bot.press(dave, board, bot.button(board, label))
            assert alert and text is not None and len(text) <= 200
            assert text.endswith(texts.WATCH_PRIVATELY)
            if label == "Board":  # the board's own first line, in the alert
                assert "#" in text
        assert _ids(bot, group) == in_group
        # A player's Board and History are still posted in the group ...
        before = fake.last_message_id(group)
        await bot.press(alice, board, bot.button(board, "Board"))
        assert (await bot.next_message(group, before)).photo
        mover = await bot.to_move(bot.game_id(board), alice, bob)
        board = await bot.say(mover, group, "/move 5")
        before = fake.last_message_id(group)
        await bot.press(mover, board, bot.button(board, "History"))
        history = await bot.next_message(group, before)
        # ... and a spectator stepping through that history posts nothing.
        in_group = _ids(bot, group)
        _, text, alert = await bot.press(dave, history, bot.button(history, texts.STEP_THROUGH))
        assert alert and text is not None and text.endswith(texts.WATCH_PRIVATELY)
        assert _ids(bot, group) == in_group


async def test_only_the_player_to_move_uses_or_cancels_the_picker(tmp_path: Path) -> None:
    """The picker of a group's game is its player's alone, in our private chat: the group
    sees nothing of it; anyone else's Move is refused on the button."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, bob, group, board = await _game(bot, "pathagon")
        in_group = _ids(bot, group)
        picker = await bot.open_picker(alice, board)
        assert picker.chat.id == alice.id and _ids(bot, group) == in_group
        assert "Move" in bot.labels(board)  # the board kept its buttons
        carol = fake.user(73, "Carol", "carol")
        for someone in (bob, carol):
            _, text, alert = await bot.press(someone, board, bot.button(board, "Move"))
            assert alert and text
        assert _ids(bot, group) == in_group
        _, _, alert = await bot.press(alice, picker, bot.button(picker, "Cancel"))
        assert not alert
        await fake.wait_until(lambda: picker.message_id not in _ids(bot, picker.chat))


async def test_a_maphex_cell_is_one_tap_after_move(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, bob, group, board = await _game(bot, "maphex")
        game_id = bot.game_id(board)
        position = engines.new("maphex")
        for _ in range(3):  # the sub-board choice, then cells of the forced sub-board
            mover = await bot.to_move(game_id, alice, bob)
            board = fake.sent(group)[-1]
            picker = await bot.open_picker(mover, board)
            move = position.legal_moves()[0]
            assert sorted(bot.labels(picker)) == sorted([*position.legal_moves(), "Cancel"])
            before = fake.last_message_id(group)
            await bot.press(mover, picker, bot.button(picker, move))
            answer = await bot.next_message(group, before)
            assert answer.text is not None and f"played {move}" in answer.text
            position = position.play(move)


async def test_iso_path_labels_are_cells(tmp_path: Path) -> None:
    """Iso-Path's picker shows cells on a board-shaped keyboard, never notation fragments
    (``>b2``, ``-b2``); the turn ends in its preview (see test_telegram_picker.py)."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        alice, _bob, group, board = await _game(bot, "isopath")
        picker = await bot.open_picker(alice, board)
        move = engines.new("isopath").legal_moves()[0]  # b1>b2 a1-b2
        await bot.step(alice, picker, "b1")
        labels = bot.labels(picker)
        assert "b2" in labels and not any(label[:1] in (">", "-") for label in labels)
        await bot.step(alice, picker, "b2")
        before = bot.fake.last_message_id(picker.chat)
        await bot.press(alice, picker, bot.button(picker, "a1"))  # its step is forced: b2
        preview = await bot.next_message(picker.chat, before)
        await bot.remembered_picker(bot.game_id(board), preview)
        before = bot.fake.last_message_id(group)
        await bot.press(alice, preview, bot.button(preview, "Play it"))
        answer = await bot.next_message(group, before)
        assert answer.text is not None and f"played {move}" in answer.text


async def test_a_refused_spectator_is_not_tried_on_every_look(tmp_path: Path) -> None:
    """Issue 45: Telegram's refusal of a direct message to a spectator (403: they never opened
    the bot) is remembered like a player's: later looks go to the alert without trying again,
    until they open the bot."""
    async with running(tmp_path / "t.db") as bot:
        fake = bot.fake
        _alice, _bob, _group, board = await _game(bot, "maphex")
        dave = fake.user(75, "Dave", "dave")

        def tries() -> int:  # every attempt to write to Dave privately, refused ones too
            methods = ("sendMessage", "sendPhoto")
            return sum(
                1
                for c in fake.calls
                if c.method in methods and str(c.data.get("chat_id")) == str(dave.id)
            )

        for label in ("Board", "History", "Describe", "Board"):
            bot.adapter.taps = Taps(window=0.0)  # each a tap of its own, not a double tap
            _, text, alert = await bot.press(dave, board, bot.button(board, label))
            assert alert and text is not None and text.endswith(texts.WATCH_PRIVATELY)
        assert tries() == 1
        with sqlite3.connect(tmp_path / "t.db") as db:  # remembered in the store as well
            query = "SELECT dm_refused_at FROM players WHERE platform = 'telegram' AND user_id = ?"
            ((refused_at,),) = db.execute(query, (str(dave.id),)).fetchall()
        assert refused_at is not None
        # Dave opens the bot: his next look is sent to him privately.
        await fake.start_private(dave)
        dm = fake.private(dave)
        await fake.wait_for_message(dm)  # the answer to /start
        before = fake.last_message_id(dm)
        _, text, alert = await bot.press(dave, board, bot.button(board, "History"))
        assert (text, alert) == (texts.SENT_PRIVATELY, False)
        assert (await bot.next_message(dm, before)).text
