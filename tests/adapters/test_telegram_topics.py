"""A game in a forum topic lives in that topic (issue 26), through the real python-telegram-bot,
the real outbox and the fake Bot API.

A message sent with ``message_thread_id`` goes to that topic of a forum supergroup; one sent
without goes to the forum's General topic (core.telegram.org/bots/api#sendmessage,
``message_thread_id``: "Unique identifier for the target message thread (topic) of the forum;
for forum supergroups only").  The fake answers 400 "message thread not found" for a thread
that is no topic, and gives every message in a topic ``message_thread_id`` and
``is_topic_message``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import telegram

from bot.adapters.telegram.topics import chat, key, place
from tests.adapters.telegram_kit import DEADLINE, running
from tests.bot.session_kit import finishing_moves


def _careful(message: telegram.Message) -> bool:
    return "Careful" in (message.text or "")


async def test_a_game_in_a_topic_from_challenge_to_result_stays_in_it(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=True, deliver=True) as bot:
        fake = bot.fake
        alice, bob = fake.user(61, "Alice", "alice"), fake.user(62, "Bob", "bob")
        forum = fake.forum(-1_000_000_000_600, "Hex club")
        topic = await fake.topic(forum, "inpHeXion evenings", alice)
        other = await fake.topic(forum, "Chat", bob)
        await fake.send_text(bob, forum, "/games", topic=topic)  # the bot knows @bob now
        await bot.next_message(forum, fake.last_message_id(forum))
        await fake.send_text(alice, forum, "/challenge inphexion @bob first=me", topic=topic)
        card = await bot.next_message(forum, fake.last_message_id(forum))
        before = fake.last_message_id(forum)
        await bot.press(bob, card, bot.button(card, "Accept"))
        board = await fake.wait_for_message(
            forum, lambda m: m.message_id > before and "Move" in bot.labels(m), timeout=DEADLINE
        )
        game_id = bot.game_id(board)
        row = await bot.manager.store.get_game(game_id)
        assert row is not None and row.chat_id == key(forum.id, topic)
        for number, move in enumerate(finishing_moves("inphexion")):
            mover = await bot.to_move(game_id, alice, bob)
            before = fake.last_message_id(forum)
            asked_after = fake.last_message_id(fake.private(mover))
            if number % 3 == 2:  # now and then with the picker (privately: the board in the topic)
                latest = [m for m in fake.sent(forum) if "Move" in bot.labels(m)][-1]
                picker = await bot.open_picker(mover, latest)
                assert picker.chat.id == mover.id
                before = fake.last_message_id(forum)
                asked_after = fake.last_message_id(picker.chat)
                if move in bot.labels(picker):
                    await bot.press(mover, picker, bot.button(picker, move))
                else:  # on another page: closed, and typed instead
                    await bot.step(mover, picker, "Cancel")
                    await fake.send_text(mover, forum, f"/move {move}!", topic=topic)
            else:
                await fake.send_text(mover, forum, f"/move {move}!", topic=topic)
            found: list[telegram.Message] = []

            def answered(
                b: int = before, a: int = asked_after, who: Any = mover, f: list[Any] = found
            ) -> bool:
                asked = [m for m in fake.sent_after(fake.private(who), a) if _careful(m)]
                boards = [m for m in fake.sent_after(forum, b) if m.photo or _careful(m)]
                f[:] = (asked or boards)[:1]
                return bool(f)

            # The new board (notices may come first), or the question, privately.
            await fake.wait_until(answered, timeout=DEADLINE)
            answer = found[0]
            if _careful(answer):  # a move that loses, chosen with the picker: confirmed
                before = fake.last_message_id(forum)
                await bot.press(mover, answer, bot.button(answer, "Play it anyway"))
                answer = await fake.wait_for_message(
                    forum, lambda m, b=before: m.message_id > b and bool(m.photo)
                )
            assert f"played {move}" in (answer.caption or ""), answer.caption
        assert await bot.manager.games.player_to_move(game_id) is None
        # The players' notices and the recap come through the outbox, in the topic as well.
        assert bot.outbox is not None
        bot.outbox.wake()
        await fake.wait_until(lambda: any(m.animation for m in fake.sent(forum)), timeout=DEADLINE)
        # /history and the board's buttons answer in the topic; another topic gets its own.
        before = fake.last_message_id(forum)
        await fake.send_text(alice, forum, f"/history {game_id}", topic=topic)
        await fake.wait_for_message(  # its last piece ends with the result
            forum, lambda m: m.message_id > before and "wins" in (m.text or ""), timeout=DEADLINE
        )
        before = fake.last_message_id(forum)
        await fake.send_text(bob, forum, "/games", topic=other)
        elsewhere = await fake.wait_for_message(
            forum, lambda m: m.message_id > before, timeout=DEADLINE
        )
        assert elsewhere.message_thread_id == other and elsewhere.is_topic_message
        mine = [m for m in fake.sent(forum) if m.message_id != elsewhere.message_id]
        assert len(mine) > 10
        assert [m.message_id for m in mine if m.message_thread_id != topic] == []
        assert all(m.is_topic_message for m in mine)
        assert not any(m.message_thread_id is None for m in mine)


def test_a_topic_is_part_of_the_chat_and_old_chats_read_as_before() -> None:
    assert place("-100123") == (-100123, None)  # a chat stored before topics were known
    assert place(key(-100123, 9)) == (-100123, 9)
    in_topic = chat(-100123, 9)
    assert in_topic.chat_id == "-100123/9" and in_topic.community_id == "-100123"
    assert chat(-100123) != in_topic and chat(-100123).chat_id == "-100123"
