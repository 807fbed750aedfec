"""The bot's own messages remembered in the store (bot.sessions.posts) on Telegram: a
challenge card edited in place when the challenge expires, only the latest board of a game
keeping live buttons across a restart, and a group that became a supergroup keeping its
games."""

from __future__ import annotations

import datetime as dtm
from datetime import timedelta
from pathlib import Path

import telegram

import engines
from bot.storage import PostKind
from tests.adapters.telegram_kit import DEADLINE, Bot, running
from tests.fakes.telegram import FakeTelegram


async def _game(bot: Bot, group: telegram.Chat) -> tuple[telegram.User, telegram.User, int]:
    fake = bot.fake
    alice, bob = fake.user(41, "Alice", "alice"), fake.user(42, "Bob", "bob")
    await fake.send_text(bob, group, "hi")
    card = await bot.say(alice, group, "/challenge pathagon first=me", reply_to=(group.id, 1))
    before = fake.last_message_id(group)
    await bot.press(bob, card, bot.button(card, "Accept"))
    board = await bot.next_message(group, before)
    return alice, bob, bot.game_id(board)


async def test_an_expired_challenge_card_is_edited_in_place(tmp_path: Path) -> None:
    async with running(
        tmp_path / "t.db", pictures=False, deliver=True, challenge_ttl=timedelta(0)
    ) as bot:
        fake = bot.fake
        alice, bob = fake.user(41, "Alice", "alice"), fake.user(42, "Bob", "bob")
        group = fake.group(-600, "Hex club")
        await fake.send_text(bob, group, "hi")
        card = await bot.say(alice, group, "/challenge fixation", reply_to=(group.id, 1))
        assert "Accept" in bot.labels(card)

        async def card_known() -> bool:
            return bool(await bot.manager.posts.posts_for("telegram", kind=PostKind.CARD))

        await bot.eventually(card_known)
        [post] = await bot.manager.posts.posts_for("telegram", kind=PostKind.CARD)
        assert (post.chat_id, post.message_id) == (str(group.id), str(card.message_id))
        # The sweeper finds it expired (a challenge_ttl of 0); the outbox edits the card.
        [expired] = await bot.manager.challenges.expire_challenges()
        assert expired.id == post.challenge_id
        assert bot.outbox is not None
        bot.outbox.wake()
        await fake.wait_until(lambda: fake.keyboard(card) == (), timeout=DEADLINE)
        edited = fake.message(group, card.message_id)
        assert edited.text is not None and "expired" in edited.text, edited.text
        # Edited, not posted anew: no other bot message says so.
        assert [m.message_id for m in fake.sent(group) if "expired" in (m.text or "")] == [
            card.message_id
        ]

        async def card_retired() -> bool:
            return not await bot.manager.posts.posts_for("telegram", kind=PostKind.CARD, live=True)

        await bot.eventually(card_retired)


async def test_older_boards_keep_their_buttons_the_store_knows_the_latest(tmp_path: Path) -> None:
    """Issue 24: a move is one message in the group, no edit of the older board (its buttons
    carry their whole meaning); the store still knows which board is the latest, also after a
    restart."""
    db = tmp_path / "t.db"
    async with FakeTelegram() as fake:
        group = fake.group(-601, "Hex club")
        position = engines.new("pathagon")
        async with running(db, pictures=False, fake=fake) as bot:
            alice, bob, game_id = await _game(bot, group)
            move = position.legal_moves()[0]
            position = position.play(move)
            first = await bot.say(await bot.to_move(game_id, alice, bob), group, f"/move {move}")
            assert "Move" in bot.labels(first)
        edits = len(fake.calls_to("editMessageReplyMarkup"))
        async with running(db, pictures=False, fake=fake) as bot:  # a new process
            move = position.legal_moves()[0]
            second = await bot.say(await bot.to_move(game_id, alice, bob), group, f"/move {move}")
            assert "Move" in bot.labels(second)

            async def one_live() -> bool:
                return len(await bot.manager.posts.posts_for("telegram", live=True)) == 1

            await bot.eventually(one_live)
            live = await bot.manager.posts.posts_for("telegram", game_id=game_id, live=True)
            assert [p.message_id for p in live] == [str(second.message_id)]
            assert "Move" in bot.labels(first)  # not edited: no request spent on it
            assert len(fake.calls_to("editMessageReplyMarkup")) == edits


async def test_a_group_that_became_a_supergroup_keeps_its_games(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        group = fake.group(-602, "Hex club")
        alice, bob, game_id = await _game(bot, group)
        supergroup = fake.group(-1_000_000_000_602, "Hex club", supergroup=True)
        # Telegram's service message in the old group: it moved to the supergroup.
        moved = telegram.Message(
            message_id=fake.last_message_id(group) + 1,
            date=dtm.datetime.now(dtm.UTC),
            chat=group,
            from_user=alice,
            migrate_to_chat_id=supergroup.id,
        )
        update = await fake.queue_update(telegram.Update(fake.next_update_id(), message=moved))
        await fake.wait_confirmed(update, timeout=DEADLINE)
        mover = await bot.to_move(game_id, alice, bob)
        move = engines.new("pathagon").legal_moves()[0]

        async def game_in_supergroup() -> bool:
            board = await bot.manager.games.board(bot.as_user(mover), bot.as_chat(supergroup))
            return board.ok and board.game_id == game_id

        # The migration is handled when its update is (concurrently with the next poll).
        await bot.eventually(game_in_supergroup)
        # Without naming the game, a move in the supergroup finds it.
        answer = await bot.say(mover, supergroup, f"/move {move}")
        assert answer.text is not None and f"played {move}" in answer.text, answer.text

        async def board_remembered() -> bool:  # (right after it was sent)
            return bool(await bot.manager.posts.posts_for("telegram", game_id=game_id, live=True))

        await bot.eventually(board_remembered)
        # Only the new board is live; the old group's board is retired where it was.
        [post] = await bot.manager.posts.posts_for("telegram", game_id=game_id, live=True)
        assert post.chat_id == str(supergroup.id)
        old = await bot.manager.posts.posts_for("telegram", game_id=game_id, live=False)
        assert old and all(p.chat_id == str(group.id) for p in old)
