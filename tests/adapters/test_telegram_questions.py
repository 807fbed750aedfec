"""Questions belong to the presser, on Telegram (issue 45), through the real
python-telegram-bot against the fake Bot API.

"Really resign?" and "this move loses: play it anyway?" are asked of the presser alone: in
their private chat with the bot when Telegram lets the bot write there, else as a message of
its own in the group, naming them, whose buttons only their tap can use.  The press is
answered by a callback notification naming them (``answerCallbackQuery``, 0-200 characters:
core.telegram.org/bots/api#answercallbackquery).  No shared message changes its buttons
because of one person's tap, and nobody answers someone else's question.
"""

from __future__ import annotations

from pathlib import Path

import telegram

from bot.adapters.telegram.taps import Taps
from bot.core.status import GameStatus
from bot.sessions import texts
from bot.sessions.picker import part_label, split_parts
from tests.adapters.telegram_kit import Bot, running


async def _game(bot: Bot) -> tuple[telegram.User, telegram.User, telegram.Chat, telegram.Message]:
    fake = bot.fake
    alice, bob = fake.user(81, "Alice", "alice"), fake.user(82, "Bob", "bob")
    group = fake.group(-800, "Hex club")
    board, _ = await bot.accepted(group, alice, bob, "pathagon")
    return alice, bob, group, board


def _callbacks(bot: Bot, message: telegram.Message) -> list[str]:
    """The callback data of a message's buttons as they are now (link buttons left out)."""
    return [
        b.callback_data
        for row in bot.fake.keyboard(message)
        for b in row
        if isinstance(b.callback_data, str)
    ]


async def _status(bot: Bot, gid: int) -> GameStatus:
    row = await bot.manager.store.get_game(gid)
    assert row is not None
    return row.status


async def test_alice_asks_to_resign_and_bob_presses_everything_he_sees(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db") as bot:
        fake = bot.fake
        alice, bob, group, board = await _game(bot)
        gid = bot.game_id(board)
        buttons = fake.keyboard(board)
        before = fake.last_message_id(group)
        _, said, alert = await bot.press(alice, board, bot.button(board, "Resign"))
        # Alice never opened the bot: her question is posted for her, named, pinging nobody.
        assert (said, alert) == (texts.asked_here("Alice"), False)
        question = await bot.next_message(group, before)
        assert question.text is not None and question.text.startswith("Alice: Really resign")
        assert not any(
            e.type == "text_mention" or (e.url or "").startswith("tg://user")
            for e in question.entities
        )
        assert bot.labels(question) == [texts.YES_RESIGN, texts.NOT_NOW]
        assert fake.keyboard(board) == buttons  # the shared board did not change
        # Bob presses every button he can see, on the board and on Alice's question (his
        # own Resign asks him a question of his own, which he leaves alone).
        for message in (question, board):
            for data in _callbacks(bot, message):
                await bot.press(bob, fake.message(group, message.message_id), data)
        assert await _status(bot, gid) is GameStatus.ACTIVE  # the game goes on
        assert fake.keyboard(board) == buttons
        # ... and Alice's question is still hers to answer.
        question = fake.message(group, question.message_id)
        before = fake.last_message_id(group)
        _, said, alert = await bot.press(alice, question, bot.button(question, texts.YES_RESIGN))
        assert not alert, said
        over = await fake.wait_for_message(
            group, lambda m: m.message_id > before and "resign" in (m.caption or m.text or "")
        )
        assert "Move" not in bot.labels(over)
        assert await _status(bot, gid) is GameStatus.FINISHED
        await fake.wait_until(
            lambda: question.message_id not in [m.message_id for m in fake.sent(group)]
        )


async def test_bob_cannot_confirm_or_put_away_alices_question(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db") as bot:
        fake = bot.fake
        alice, bob, group, board = await _game(bot)
        gid = bot.game_id(board)
        before = fake.last_message_id(group)
        await bot.press(alice, board, bot.button(board, "Resign"))
        question = await bot.next_message(group, before)
        _, said, alert = await bot.press(bob, question, bot.button(question, texts.YES_RESIGN))
        assert alert and said == str(texts.not_your_question("Alice"))
        _, said, alert = await bot.press(bob, question, bot.button(question, texts.NOT_NOW))
        assert alert and said == str(texts.not_your_question("Alice"))
        assert fake.message(group, question.message_id).reply_markup is not None
        # Alice puts it away: gone, the game goes on.
        _, said, alert = await bot.press(alice, question, bot.button(question, texts.NOT_NOW))
        assert not alert
        await fake.wait_until(
            lambda: question.message_id not in [m.message_id for m in fake.sent(group)]
        )
        assert await _status(bot, gid) is GameStatus.ACTIVE


async def test_a_double_tap_on_resign_asks_once(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db") as bot:
        fake = bot.fake
        alice, _bob, group, board = await _game(bot)
        before = fake.last_message_id(group)
        data = bot.button(board, "Resign")
        first, second = await fake.press(alice, board, data), await fake.press(alice, board, data)
        answers = [(await fake.wait_for_answer(q)).text for q in (first, second)]
        assert texts.asked_here("Alice") in answers
        # Asked again later, past the double-tap window (once the first tap is handled: the
        # press is answered first): the question is out already.
        handling = bot.adapter.taps

        async def handled() -> bool:
            return not handling.busy()

        await bot.eventually(handled)
        bot.adapter.taps = Taps(window=0.0)
        _, said, _ = await bot.press(alice, board, data)
        assert said == texts.asked_here("Alice")
        questions = [m for m in fake.sent_after(group, before) if m.text and "Really" in m.text]
        assert len(questions) == 1


async def test_the_question_goes_privately_to_a_presser_who_opened_the_bot(
    tmp_path: Path,
) -> None:
    async with running(tmp_path / "t.db") as bot:
        fake = bot.fake
        alice, bob, group, board = await _game(bot)
        gid = bot.game_id(board)
        await fake.start_private(alice, send_start=False)
        dm = fake.private(alice)
        in_group, in_dm = fake.last_message_id(group), fake.last_message_id(dm)
        _, said, alert = await bot.press(alice, board, bot.button(board, "Resign"))
        assert (said, alert) == (texts.asked_privately("Alice"), False)
        question = await bot.next_message(dm, in_dm)
        assert bot.labels(question) == [texts.YES_RESIGN, texts.NOT_NOW]
        assert fake.sent_after(group, in_group) == []  # nothing in the group
        for data in _callbacks(bot, board):  # Bob presses what he sees: the game goes on
            await bot.press(bob, board, data)
        assert await _status(bot, gid) is GameStatus.ACTIVE
        # Alice confirms in private: the result is shown in the game's group.
        await bot.press(alice, question, bot.button(question, texts.YES_RESIGN))
        over = await fake.wait_for_message(
            group, lambda m: m.message_id > in_group and "resign" in (m.caption or "")
        )
        assert "Move" not in bot.labels(over)
        assert await _status(bot, gid) is GameStatus.FINISHED
        await fake.wait_until(lambda: fake.sent_after(dm, in_dm) == [])


# inpHeXion 5x5 without pie: after these moves Bob (Black) can push a White disc into the gap
# that completes White's connection, a legal move that loses (as in tests/bot/test_manager.py).
SELF_LOSS = (
    "c3, c3-d2, c3-b3, d2-d3, b3-b4, d3-e2, b4-a4, b3-c2, a4-a3, c3-c4, b3-b2, e2-e3, b2-c1, "
    "e3-e4, d2-d1, d2-e1 e1>b1, e2-e1"
).split(", ")


async def test_a_move_that_loses_is_asked_of_its_player_alone(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, bob = fake.user(83, "Alice", "alice"), fake.user(84, "Bob", "bob")
        group = fake.group(-801, "Hex club")
        await bot.say(bob, group, "/games")
        card = await bot.say(alice, group, "/challenge inphexion @bob size=5 pie=no first=me")
        before = fake.last_message_id(group)
        await bot.press(bob, card, bot.button(card, "Accept"))
        board = await fake.wait_for_message(
            group, lambda m: m.message_id > before and "Move" in bot.labels(m)
        )
        gid = bot.game_id(board)
        for move in SELF_LOSS:
            mover = await bot.to_move(gid, alice, bob)
            board_id = await _played(bot, mover, group, f"/move #{gid} {move}")
        board = fake.message(group, board_id)
        assert await bot.to_move(gid, alice, bob) == bob
        buttons = fake.keyboard(board)
        picker = await bot.open_picker(bob, board)
        assert picker.chat.id == bob.id  # the picker is his, in our private chat
        before = fake.last_message_id(picker.chat)
        for part in split_parts("a4-a5"):
            label = part_label(part)
            if label in bot.labels(fake.message(picker.chat, picker.message_id)):
                await bot.step(bob, fake.message(picker.chat, picker.message_id), label)
        question = await fake.wait_for_message(
            picker.chat, lambda m: m.message_id > before and "Careful" in (m.text or "")
        )
        assert bot.labels(question) == ["Play it anyway", texts.NOT_NOW]
        assert fake.keyboard(board) == buttons  # the shared board did not change
        assert await _status(bot, gid) is GameStatus.ACTIVE
        before = fake.last_message_id(group)
        await bot.press(bob, question, bot.button(question, "Play it anyway"))
        await bot.eventually(lambda: _over(bot, gid))
        await bot.next_message(group, before)  # the final board, in the game's chat


async def _over(bot: Bot, gid: int) -> bool:
    return await _status(bot, gid) is GameStatus.FINISHED


async def _played(bot: Bot, user: telegram.User, chat: telegram.Chat, line: str) -> int:
    """``user`` types ``line`` (a move); the id of the board posted for it."""
    before = bot.fake.last_message_id(chat)
    await bot.fake.send_text(user, chat, line)
    found = await bot.fake.wait_for_message(
        chat, lambda m: m.message_id > before and "Move" in bot.labels(m)
    )
    return found.message_id


async def test_in_a_private_game_the_question_comes_in_the_same_chat(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db") as bot:
        fake = bot.fake
        alice = fake.user(85, "Alice", "alice")
        await fake.start_private(alice)
        dm = fake.private(alice)
        await fake.wait_for_message(dm)  # the answer to /start
        before = fake.last_message_id(dm)
        await fake.send_text(alice, dm, "/challenge pathagon bot")
        board = await fake.wait_for_message(
            dm, lambda m: m.message_id > before and "Resign" in bot.labels(m)
        )
        gid = int(bot.button(board, "Resign").split(":")[1])
        before = fake.last_message_id(dm)
        _, said, alert = await bot.press(alice, board, bot.button(board, "Resign"))
        assert (said, alert) == (texts.asked_privately("Alice"), False)
        question = await bot.next_message(dm, before)
        assert (question.text or "").startswith("Really resign")
        await bot.press(alice, question, bot.button(question, texts.YES_RESIGN))
        await fake.wait_for_message(
            dm, lambda m: m.message_id > question.message_id and "resign" in (m.caption or "")
        )
        assert await _status(bot, gid) is GameStatus.FINISHED
