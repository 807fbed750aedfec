"""Repeats are quiet on Telegram (issue 24): a move sent again after the store applied it
posts nothing new in the group (the repeater is answered privately, or with a plain line
that mentions no one when they never opened the bot), and a board asked for by someone not
playing goes to them privately, or comes as such a line.

A private chat with the bot exists only once the user started it (Bot API sendMessage
answers 403 "bot can't initiate conversation with a user" otherwise, which the fake does);
plain text carries no ``text_mention`` entity, so it notifies no one (Bot API MessageEntity).
"""

from __future__ import annotations

from pathlib import Path

import telegram

import engines
from tests.adapters.telegram_kit import DEADLINE, Bot, running


async def _start(bot: Bot, group: telegram.Chat, one: telegram.User, two: telegram.User) -> int:
    fake = bot.fake
    await fake.send_text(two, group, "hello")
    hello = fake.message(group, fake.last_message_id(group))
    card = await bot.say(one, group, "/challenge pathagon first=me", reply_to=hello)
    before = fake.last_message_id(group)
    await bot.press(two, card, bot.button(card, "Accept"))
    return bot.game_id(await bot.next_message(group, before))


async def _quiet_line(bot: Bot, group: telegram.Chat, after: int) -> telegram.Message:
    """The one bot message in ``group`` after ``after``: plain text, mentioning no one."""
    line = await bot.next_message(group, after)
    assert not line.entities and not line.photo and line.reply_markup is None
    assert [m.message_id for m in bot.fake.sent_after(group, after)] == [line.message_id]
    return line


async def test_a_repeated_move_and_a_spectators_board_post_nothing_for_everyone(
    tmp_path: Path,
) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", None)
        carol, dave = fake.user(23, "Carol", "carol"), fake.user(24, "Dave", None)
        club = fake.group(-700, "Hex club")
        for user in (bob, carol):  # these two opened the bot; Alice and Dave never did
            await fake.start_private(user)
            await fake.wait_for_message(fake.private(user), timeout=DEADLINE)
        game_id = await _start(bot, club, alice, bob)
        position = engines.new("pathagon")

        # Alice moves, then sends the same move again: the group gets one board.
        move = position.legal_moves()[0]
        position = position.play(move)
        board = await bot.say(alice, club, f"/move {move}")
        assert board.text is not None and f"played {move}" in board.text
        after = fake.last_message_id(club)
        await fake.send_text(alice, club, f"/move {move}")
        line = await _quiet_line(bot, club, fake.last_message_id(club))
        assert line.text == f"#{game_id} Pathagon, move 1: you already played {move}."
        assert len([m for m in fake.sent_after(club, after - 1) if m.from_user.is_bot]) == 2

        # Bob moves twice the same: the second answer reaches him privately, not the group.
        reply = position.legal_moves()[0]
        bob_dm = fake.private(bob)
        known = fake.last_message_id(bob_dm)
        await bot.say(bob, club, f"/move {reply}")
        quiet_from = fake.last_message_id(club)
        await fake.send_text(bob, club, f"/move {reply}")
        private = await fake.wait_for_message(
            bob_dm, lambda m: "you already played" in (m.text or ""), timeout=DEADLINE
        )
        assert private.message_id > known
        # Carol (not playing, opened the bot) asks for the board: privately.
        carol_dm = fake.private(carol)
        await fake.send_text(carol, club, f"/board {game_id}")
        looked = await fake.wait_for_message(
            carol_dm, lambda m: f"#{game_id}" in (m.text or ""), timeout=DEADLINE
        )
        assert looked.reply_markup is None
        # Dave (not playing, never opened the bot): a plain line in the group.
        await fake.send_text(dave, club, f"/board {game_id}")
        dave_asked = fake.last_message_id(club)
        await _quiet_line(bot, club, dave_asked)
        # Nothing else reached the group: Bob's repeat and Carol's look posted nothing there.
        bot_posts = [m for m in fake.sent_after(club, quiet_from) if m.from_user.is_bot]
        assert len(bot_posts) == 1
        # Dave asks again: Telegram's refusal is remembered, so he is not tried privately
        # again (issue 45), only answered by the plain line.
        await fake.send_text(dave, club, f"/board {game_id}")
        await _quiet_line(bot, club, fake.last_message_id(club))
        to_dave = [c for c in fake.calls if str(c.data.get("chat_id")) == str(dave.id)]
        assert len(to_dave) == 1
