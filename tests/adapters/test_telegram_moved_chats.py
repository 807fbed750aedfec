"""Chats that change under the bot, on Telegram (issue 26), through the real
python-telegram-bot, the real outbox and the fake Bot API.

A group that becomes a supergroup gets a new id and numbers its messages afresh (the bot gets
``migrate_to_chat_id`` / ``migrate_from_chat_id`` service messages: core.telegram.org/bots/api
#message), so the old group's message ids are never used in the new chat.  A bot removed from
a group gets 403 "bot was kicked" there (core.telegram.org/bots/api#making-requests: an
unsuccessful request's error_code); the game is kept and its players are told privately.
"""

from __future__ import annotations

from pathlib import Path

import telegram

import engines
from tests.adapters.telegram_kit import DEADLINE, running


async def test_a_migration_mid_game_keeps_both_games_buttons_right(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        hall = fake.group(-901, "Hall")
        alice, bob = fake.user(91, "Alice", "alice"), fake.user(92, "Bob", "bob")
        carol = fake.user(93, "Carol", "carol")
        _, first = await bot.accepted(hall, alice, bob)
        _, second = await bot.accepted(hall, alice, carol)
        supergroup = await fake.migrate(hall, alice)

        async def moved() -> bool:
            row = await bot.manager.store.get_game(second)
            return row is not None and row.chat_id == str(supergroup.id)

        await bot.eventually(moved)
        position = engines.new("maphex")
        boards: dict[int, telegram.Message] = {}
        for game, other in ((first, bob), (second, carol), (first, bob)):
            mover = await bot.to_move(game, alice, other)
            move = position.legal_moves()[0] if game == first else "5"
            boards[game] = await bot.say(mover, supergroup, f"/move #{game} {move}")
            assert boards[game].text is not None and "played" in boards[game].text
            if game == first:
                position = position.play(move)

        async def settled() -> bool:  # the latest board of each game is remembered
            live = await bot.manager.posts.posts_for("telegram", live=True)
            return {p.game_id for p in live} == {first, second}

        await bot.eventually(settled)
        # Each game's latest board in the supergroup keeps its buttons ...
        for game in (first, second):
            assert "Move" in bot.labels(boards[game]), game
        # ... and no buttons were taken from a message of the supergroup that was not one of
        # its own older boards (an old group's message id names another message here).
        taken = {
            int(c.data["message_id"])
            for c in fake.calls_to("editMessageReplyMarkup")
            if c.data.get("chat_id") == str(supergroup.id)
        }
        mine = {m.message_id for m in fake.sent(supergroup) if "played" in (m.text or "")}
        assert taken <= mine, (taken, mine)


async def test_removed_from_the_group_the_opponent_is_told_privately(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        hall = fake.group(-902, "Hall")
        alice, bob = fake.user(94, "Alice", "alice"), fake.user(95, "Bob", "bob")
        _, gid = await bot.accepted(hall, alice, bob)
        mover = await bot.to_move(gid, alice, bob)
        waiting = bob if mover is alice else alice
        for person in (mover, waiting):  # both opened the bot
            await fake.start_private(person, send_start=False)
        # The waiting player wants turns in the group, not privately.
        await bot.say(waiting, fake.private(waiting), "/settings dm off")
        fake.kick_bot(hall)
        move = engines.new("maphex").legal_moves()[2]
        private = fake.private(mover)
        before = fake.last_message_id(private)
        await fake.send_text(mover, private, f"#{gid} {move}")
        answer = await bot.next_message(private, before)
        assert answer.text is not None and f"played {move}" in answer.text
        # The waiting player's turn notice could not go to the group: it comes privately.
        told = await fake.wait_for_message(
            fake.private(waiting),
            lambda m: "removed" in (m.text or "") and f"played {move}" in (m.text or ""),
            timeout=DEADLINE,
        )
        assert told.text is not None and f"#{gid} <move>" in told.text
        said = [m.text or "" for m in fake.sent(private)]
        assert not any("try again" in t for t in said), said
        row = await bot.manager.store.get_game(gid)
        assert row is not None and row.ply == 1  # the game is kept, the move stored
