"""One live card per challenge and per offer on Telegram (issue 26), through the real
python-telegram-bot, the real outbox and the fake Bot API.

A direct message to someone who never started the bot is refused with 403 ("Forbidden: bot
can't initiate conversation with a user": TelegramBotAPI/errors#2, lnp2pBot/bot#159), so
the outbox posts the notice in the game's chat: there it mentions the opponent and carries no
buttons, as the card in that chat already does.  When the opponent did start the bot, the
card shows in two places; answering either closes both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import telegram

import engines
from tests.adapters.telegram_kit import DEADLINE, Bot, running


async def _outbox_idle(bot: Bot) -> None:
    """Wait until nothing due is left undelivered."""
    store: Any = bot.manager.store

    async def idle() -> bool:
        return await store.due_notifications("telegram", bot.manager.now()) == []

    await bot.eventually(idle)


def _with(bot: Bot, chat: telegram.Chat, label: str) -> list[telegram.Message]:
    return [m for m in bot.fake.sent(chat) if label in bot.labels(m)]


async def _challenge(bot: Bot, *, bob_started: bool) -> tuple[
    telegram.User, telegram.User, telegram.Chat, telegram.Message
]:  # fmt: skip
    fake = bot.fake
    alice, bob = fake.user(81, "Alice", "alice"), fake.user(82, "Bob", "bob")
    group = fake.group(-800, "Hex club")
    if bob_started:  # and asked for direct messages
        await fake.start_private(bob)
        await fake.wait_for_message(fake.private(bob), timeout=DEADLINE)  # /start answered
        await bot.say(bob, fake.private(bob), "/settings dm on")
    await fake.send_text(bob, group, "hi")
    card = await bot.say(alice, group, "/challenge pathagon first=me", reply_to=(group.id, 1))
    return alice, bob, group, card


async def test_a_refused_dm_posts_no_second_accept(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        _alice, bob, group, card = await _challenge(bot, bob_started=False)
        # The refused direct message puts no second card with Accept in the group.
        await _outbox_idle(bot)
        assert [m.message_id for m in _with(bot, group, "Accept")] == [card.message_id]
        await bot.press(bob, card, bot.button(card, "Accept"))
        await fake.wait_until(lambda: not _with(bot, group, "Accept"), timeout=DEADLINE)


async def test_accepting_privately_closes_the_groups_card(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        _alice, bob, group, card = await _challenge(bot, bob_started=True)
        dm = fake.private(bob)
        invite = await fake.wait_for_message(
            dm, lambda m: "Accept" in bot.labels(m), timeout=DEADLINE
        )
        fake.last_message_id(group)
        await bot.press(bob, invite, bot.button(invite, "Accept"))
        await fake.wait_until(lambda: fake.keyboard(card) == (), timeout=DEADLINE)
        await fake.wait_until(lambda: fake.keyboard(invite) == (), timeout=DEADLINE)
        assert not _with(bot, group, "Accept") and not _with(bot, dm, "Accept")


async def test_declining_in_the_group_closes_the_private_card(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        _alice, bob, _group, card = await _challenge(bot, bob_started=True)
        dm = fake.private(bob)
        invite = await fake.wait_for_message(
            dm, lambda m: "Accept" in bot.labels(m), timeout=DEADLINE
        )

        async def remembered() -> bool:
            return len(await bot.manager.posts.posts_for("telegram", kind=None, live=True)) >= 2

        await bot.eventually(remembered)  # the private copy is known to the store
        await bot.press(bob, card, bot.button(card, "Decline"))
        await fake.wait_until(lambda: fake.keyboard(invite) == (), timeout=DEADLINE)
        closed = fake.message(dm, invite.message_id)
        assert closed.text is not None and "declined" in closed.text


async def test_a_draw_offer_has_one_live_answer(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        alice, bob, group, card = await _challenge(bot, bob_started=True)
        before = fake.last_message_id(group)
        await bot.press(bob, card, bot.button(card, "Accept"))
        board = await bot.next_message(group, before)
        before = fake.last_message_id(group)
        await bot.press(alice, board, bot.button(board, "Offer draw"))
        offer = await bot.next_message(group, before)
        assert "Accept draw" in bot.labels(offer)
        dm = fake.private(bob)
        private = await fake.wait_for_message(
            dm, lambda m: "Accept draw" in bot.labels(m), timeout=DEADLINE
        )
        await bot.press(bob, private, bot.button(private, "Decline draw"))
        await fake.wait_until(lambda: fake.keyboard(offer) == (), timeout=DEADLINE)
        await fake.wait_until(lambda: not _with(bot, dm, "Accept draw"), timeout=DEADLINE)


async def test_a_draw_offer_to_someone_unreachable_has_one_answer(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        alice, bob, group, card = await _challenge(bot, bob_started=False)
        before = fake.last_message_id(group)
        await bot.press(bob, card, bot.button(card, "Accept"))
        board = await bot.next_message(group, before)
        before = fake.last_message_id(group)
        await bot.press(alice, board, bot.button(board, "Offer draw"))
        await fake.wait_for_message(
            group, lambda m: m.message_id > before and "Accept draw" in bot.labels(m),
            timeout=DEADLINE,
        )  # fmt: skip
        await _outbox_idle(bot)  # Bob's refused notice puts no second answer in the group
        assert len(_with(bot, group, "Accept draw")) == 1


async def test_a_draw_offer_declined_by_typing_loses_every_button(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        alice, bob, group, card = await _challenge(bot, bob_started=True)
        dm = fake.private(bob)
        before = fake.last_message_id(group)
        await bot.press(bob, card, bot.button(card, "Accept"))
        board = await fake.wait_for_message(
            group, lambda m: m.message_id > before and "Move" in bot.labels(m), timeout=DEADLINE
        )
        before = fake.last_message_id(group)
        await bot.press(alice, board, bot.button(board, "Offer draw"))
        offer = await fake.wait_for_message(
            group, lambda m: m.message_id > before and "Accept draw" in bot.labels(m),
            timeout=DEADLINE,
        )  # fmt: skip
        private = await fake.wait_for_message(
            dm, lambda m: "Accept draw" in bot.labels(m), timeout=DEADLINE
        )
        await bot.say(bob, dm, f"/draw #{bot.game_id(board)} decline")
        await fake.wait_until(
            lambda: fake.keyboard(offer) == () and fake.keyboard(private) == (), timeout=DEADLINE
        )


async def test_a_draw_offer_lapsed_by_the_opponents_move_loses_every_button(
    tmp_path: Path,
) -> None:
    """A draw offer "stands until" the other player moves: once he has, its copies (the
    group's and his private one) lose their answer buttons, which could only be answered
    "There is no draw offer" now."""
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        alice, bob, group, card = await _challenge(bot, bob_started=True)
        dm = fake.private(bob)
        before = fake.last_message_id(group)
        await bot.press(bob, card, bot.button(card, "Accept"))
        board = await fake.wait_for_message(
            group, lambda m: m.message_id > before and "Move" in bot.labels(m), timeout=DEADLINE
        )
        before = fake.last_message_id(group)
        await bot.press(alice, board, bot.button(board, "Offer draw"))
        offer = await fake.wait_for_message(
            group, lambda m: m.message_id > before and "Accept draw" in bot.labels(m),
            timeout=DEADLINE,
        )  # fmt: skip
        private = await fake.wait_for_message(
            dm, lambda m: "Accept draw" in bot.labels(m), timeout=DEADLINE
        )
        first = engines.new("pathagon").legal_moves()[0]
        await bot.say(alice, group, f"/move {first}")  # her own move: the offer stands
        assert "Accept draw" in bot.labels(fake.message(group, offer.message_id))
        reply = engines.new("pathagon").play(first).legal_moves()[0]
        await bot.say(bob, group, f"/move {reply}")
        await fake.wait_until(
            lambda: fake.keyboard(offer) == () and fake.keyboard(private) == (), timeout=DEADLINE
        )
