"""A group that removes the bot, on Telegram: the bot learns it from a ``my_chat_member`` update
(the fake delivers it as Telegram does: ``tests/fakes/telegram.py`` ``remove_bot``), keeps the
games, tells each player of each live game there privately once (where a direct message can
reach them), never tries that group again for their notices, answers moves made privately
without "try again", and posts in the group again once added back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import telegram

import engines
from bot.adapters.telegram.removal import removed_chats
from tests.adapters.telegram_kit import DEADLINE, Bot, running


def _to(bot: Bot, chat_id: int, after: int = 0) -> list[Any]:
    """The sends to ``chat_id`` (after the ``after``-th call), refused or not."""
    return [
        c
        for c in bot.fake.calls[after:]
        if c.method in ("sendMessage", "sendPhoto") and c.data.get("chat_id") == str(chat_id)
    ]


async def test_removed_players_are_told_once_privately_where_they_can_be(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        hall = fake.group(-931, "Hall", supergroup=True)
        alice, bob = fake.user(61, "Alice", "alice"), fake.user(62, "Bob", "bob")
        carol = fake.user(63, "Carol", "carol")
        _, first = await bot.accepted(hall, alice, bob)
        _, second = await bot.accepted(hall, carol, alice)
        await fake.start_private(alice, send_start=False)
        await fake.start_private(bob, send_start=False)
        # Carol's direct messages were refused before (she never opened the bot): not tried.
        store: Any = bot.manager.store
        row = await store.find_player("telegram", str(carol.id))
        await store.direct_refused(row.id, bot.manager.clock.now())
        mark = len(fake.calls)
        await fake.remove_bot(hall, carol)

        def told(user: telegram.User, gid: int) -> bool:
            return any(
                f"#{gid}" in (m.text or "") and "removed" in (m.text or "")
                for m in fake.sent(fake.private(user))
            )

        await fake.wait_until(lambda: told(alice, first) and told(alice, second))
        await fake.wait_until(lambda: told(bob, first))
        assert _to(bot, carol.id, mark) == []
        assert removed_chats(bot.manager).removed(hall.id)
        # The same update again (Telegram resends an update it thinks unanswered): once only.
        await fake.remove_bot(hall, carol)
        count = len(fake.sent(fake.private(alice)))
        await bot.say(alice, fake.private(alice), "/games")
        assert len(fake.sent(fake.private(alice))) == count + 1
        for gid in (first, second):  # the games are kept
            game = await store.get_game(gid)
            assert game is not None and game.status.value == "active"


async def test_after_removal_a_private_move_is_answered_and_the_group_not_tried(
    tmp_path: Path,
) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        hall = fake.group(-932, "Hall")
        alice, bob = fake.user(64, "Alice", "alice"), fake.user(65, "Bob", "bob")
        _, gid = await bot.accepted(hall, alice, bob)
        mover = await bot.to_move(gid, alice, bob)
        waiting = bob if mover is alice else alice
        for person in (mover, waiting):
            await fake.start_private(person, send_start=False)
        await bot.say(waiting, fake.private(waiting), "/settings dm off")
        await fake.remove_bot(hall, alice)
        await fake.wait_until(lambda: removed_chats(bot.manager).removed(hall.id))
        # The mover's private word of the removal comes first, so it is not the move's answer.
        await fake.wait_for_message(
            fake.private(mover), lambda m: "removed" in (m.text or ""), timeout=DEADLINE
        )
        mark = len(fake.calls)
        move = engines.new("maphex").legal_moves()[3]
        private = fake.private(mover)
        before = fake.last_message_id(private)
        await fake.send_text(mover, private, f"#{gid} {move}")
        answer = await bot.next_message(private, before)
        assert answer.text is not None and f"played {move}" in answer.text
        # The waiting player's notice comes privately, and the group was not even tried.
        await fake.wait_for_message(
            fake.private(waiting),
            lambda m: f"played {move}" in (m.text or ""),
            timeout=DEADLINE,
        )
        said = [m.text or "" for m in fake.sent(private)]
        assert not any("try again" in t for t in said), said
        assert _to(bot, hall.id, mark) == []
        row = await bot.manager.store.get_game(gid)
        assert row is not None and row.ply == 1


async def test_added_back_the_group_gets_the_notices_again(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        hall = fake.group(-933, "Hall", supergroup=True)
        alice, bob = fake.user(66, "Alice", "alice"), fake.user(67, "Bob", "bob")
        _, gid = await bot.accepted(hall, alice, bob)
        await fake.remove_bot(hall, alice)
        await fake.wait_until(lambda: removed_chats(bot.manager).removed(hall.id))
        await fake.add_bot(hall, alice)
        await fake.wait_until(lambda: not removed_chats(bot.manager).removed(hall.id))
        mover = await bot.to_move(gid, alice, bob)
        move = engines.new("maphex").legal_moves()[5]
        before = fake.last_message_id(hall)
        await fake.send_text(mover, hall, f"/move {move}")
        board = await bot.next_message(hall, before)
        assert board.text is not None and f"played {move}" in board.text
