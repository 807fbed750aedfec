"""Confirmations belong to the asker in a busy group (issue 45), against the fake enforcing
Telegram's flood limits (one message a second per chat, 20 a minute per group: 429 past them; here
ten times faster, the pacer told the same) with the adapter's own rate limiter.

A typed ``/resign`` in a group is asked privately (in the asker's private chat with the bot
when Telegram lets the bot write there; else under their message, naming them, for their tap
alone), never as a shared question; whatever anyone else presses, the game goes on.
"""

from __future__ import annotations

from pathlib import Path

import telegram

from bot.adapters.telegram.pacing import ChatPacer
from bot.core.status import GameStatus
from bot.sessions import texts
from tests.adapters.telegram_kit import DEADLINE, Bot, running
from tests.fakes.telegram import FakeTelegram, TelegramLimits


async def _status(bot: Bot, gid: int) -> GameStatus:
    row = await bot.manager.store.get_game(gid)
    assert row is not None
    return row.status


def _callbacks(bot: Bot, message: telegram.Message) -> list[str]:
    return [
        b.callback_data
        for row in bot.fake.keyboard(message)
        for b in row
        if isinstance(b.callback_data, str)
    ]


#: Telegram's limits (one message a second per chat, 20 a minute per group) at ten times the
#: speed (a 0.1 s pause between a chat's messages), the fake and the adapter's pacer told the
#: same: the same pacing, a shorter test.
SCALE = 10
LIMITS = TelegramLimits(chat_period=1.0 / SCALE, group_period=60.0 / SCALE)


def pacer() -> ChatPacer:
    """The adapter's rate limiter on :data:`LIMITS`."""
    return ChatPacer(chat_period=LIMITS.chat_period, group_period=LIMITS.group_period)


def _floods(fake: FakeTelegram) -> list[str]:
    return [c.method for c in fake.calls if (c.response or {}).get("error_code") == 429]


async def test_a_typed_resign_is_asked_privately_and_bob_cannot_answer_it(
    tmp_path: Path,
) -> None:
    async with (
        FakeTelegram(limits=LIMITS) as fake,
        running(tmp_path / "t.db", fake=fake, rate_limiter=pacer()) as bot,
    ):
        alice, bob = fake.user(31, "Alice", "alice"), fake.user(32, "Bob", "bob")
        await fake.start_private(alice, send_start=False)
        group = fake.group(-310, "Hex club")
        board, gid = await bot.accepted(group, alice, bob, "pathagon")
        buttons = fake.keyboard(board)
        dm = fake.private(alice)
        before, before_dm = fake.last_message_id(group), fake.last_message_id(dm)
        await fake.send_text(alice, group, f"/resign #{gid}")
        question = await bot.next_message(dm, before_dm)
        assert question.text is not None and "Really resign" in question.text
        assert bot.labels(question) == [texts.YES_RESIGN, texts.NOT_NOW]
        # Bob presses every button he can see in the group (the question is not there).
        assert fake.sent_after(group, before) == []
        for data in _callbacks(bot, board):
            query = await fake.press(bob, fake.message(group, board.message_id), data)
            await fake.wait_for_answer(query, timeout=DEADLINE)
        assert await _status(bot, gid) is GameStatus.ACTIVE  # the game goes on
        assert fake.keyboard(board) == buttons  # the shared board did not change
        # Alice's question is still hers: her Yes ends the game, the result in the group.
        before = fake.last_message_id(group)
        _, said, alert = await bot.press(alice, question, bot.button(question, texts.YES_RESIGN))
        assert not alert, said
        over = await fake.wait_for_message(
            group,
            lambda m: m.message_id > before and "resign" in (m.caption or m.text or ""),
            timeout=DEADLINE,
        )
        assert "Move" not in bot.labels(over)
        assert await _status(bot, gid) is GameStatus.FINISHED
        assert _floods(fake) == []


async def test_a_typed_resign_by_someone_the_bot_cannot_write_to(tmp_path: Path) -> None:
    """They never opened the bot: the question comes under their message, naming them
    (plain text: it pings nobody), and only their tap answers it."""
    async with (
        FakeTelegram(limits=LIMITS) as fake,
        running(tmp_path / "t.db", fake=fake, rate_limiter=pacer()) as bot,
    ):
        alice, bob = fake.user(33, "Alice", "alice"), fake.user(34, "Bob", "bob")
        group = fake.group(-330, "Hex club")
        _board, gid = await bot.accepted(group, alice, bob, "pathagon")
        question = await bot.say(alice, group, f"/resign #{gid}")
        assert question.text is not None and question.text.startswith("Alice: Really resign")
        assert not any(e.type == "text_mention" for e in question.entities)
        for data in _callbacks(bot, question):
            _, said, alert = await bot.press(bob, question, data)
            assert alert and said == str(texts.not_your_question("Alice"))
        assert await _status(bot, gid) is GameStatus.ACTIVE
        assert _floods(fake) == []


async def test_leave_on_a_sign_up_card_is_asked_privately(tmp_path: Path) -> None:
    """The card's Leave asks the presser alone, in our private chat (the card is unchanged,
    nothing is posted for all); their yes there takes them off the list, the card edited."""
    async with (
        FakeTelegram(limits=LIMITS) as fake,
        running(tmp_path / "t.db", fake=fake, rate_limiter=pacer()) as bot,
    ):
        ada, bo = fake.user(35, "Ada", "ada"), fake.user(36, "Bo", "bo")
        await fake.start_private(bo, send_start=False)
        group = fake.group(-350, "Hex club")
        card = await bot.say(ada, group, "/tournament new pathagon days=1")
        _, said, alert = await bot.press(bo, card, bot.button(card, "Join"))
        assert not alert, said
        await fake.wait_until(
            lambda: "Bo joined" in (fake.message(group, card.message_id).text or "")
        )
        shown = fake.message(group, card.message_id).text
        before, dm = fake.last_message_id(group), fake.private(bo)
        mark = fake.last_message_id(dm)
        _, said, alert = await bot.press(bo, card, bot.button(card, "Leave"))
        assert (said, alert) == (texts.asked_privately("Bo"), False)
        question = await bot.next_message(dm, mark)
        assert "Really leave" in (question.text or "")
        assert bot.labels(question) == [texts.YES_LEAVE, texts.NOT_NOW]
        assert fake.sent_after(group, before) == []
        assert fake.message(group, card.message_id).text == shown  # nothing changed yet
        _, said, alert = await bot.press(bo, question, bot.button(question, texts.YES_LEAVE))
        assert not alert, said
        await fake.wait_until(
            lambda: "Bo left" in (fake.message(group, card.message_id).text or ""),
            timeout=DEADLINE,
        )
        assert _floods(fake) == []
