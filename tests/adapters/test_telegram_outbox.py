"""Notifications end to end on Telegram: moves through the real adapter, the real outbox on a
real SQLite file and the adapter's sender, against the fake Bot API.  The player whose turn it
is gets a direct message when they started the bot and want them, else a text mention (by id)
in the game's chat; a refused direct message falls back to the chat exactly once, and nothing
is sent twice."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import telegram

import engines
from bot.adapters.telegram.sender import TelegramSender
from tests.adapters.telegram_kit import DEADLINE, Bot, running


def _notice_for(message: telegram.Message, user: telegram.User) -> bool:
    """A notice the sender put in a group for ``user``: it opens with their text mention."""
    if not message.text or not message.entities:
        return False
    first = message.entities[0]
    return (
        first.offset == 0
        and first.url == f"tg://user?id={user.id}"
        and message.text.startswith(f"{user.first_name}: ")
    )


def _refused_dms(bot: Bot, user: telegram.User) -> int:
    return sum(
        1
        for c in bot.fake.calls_to("sendMessage")
        if c.data.get("chat_id") == str(user.id) and c.response.get("error_code") == 403
    )


async def test_turns_reach_players_once_by_dm_or_chat_mention(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", None)
        group = fake.group(-400, "Hex club")
        await fake.start_private(bob)  # Bob started the bot: he can get direct messages
        bob_dm = fake.private(bob)
        await fake.wait_for_message(bob_dm, timeout=DEADLINE)  # the answer to /start
        await fake.send_text(bob, group, "hi")
        card = await bot.say(alice, group, "/challenge pathagon first=me", reply_to=(group.id, 1))
        invite = await fake.wait_for_message(
            bob_dm, lambda m: "challenges you" in (m.text or ""), timeout=DEADLINE
        )
        assert "Accept" in bot.labels(invite)  # the challenge reached Bob privately
        before = fake.last_message_id(group)
        await bot.press(bob, card, bot.button(card, "Accept"))
        board = await bot.next_message(group, before)
        game_id = bot.game_id(board)
        # Alice never started the bot: her notices (accepted, her first turn) are refused as
        # direct messages and mention her in the group instead.
        await fake.wait_until(
            lambda: sum(_notice_for(m, alice) for m in fake.sent(group)) == 2, timeout=DEADLINE
        )
        position = engines.new("pathagon")
        for _ in range(2):  # Alice, then Bob
            mover = await bot.to_move(game_id, alice, bob)
            move = position.legal_moves()[0]
            position = position.play(move)
            answer = await bot.say(mover, group, f"/move {move}")
            assert answer.text is not None and f"played {move}" in answer.text
            if mover is alice:  # Bob is told privately
                await fake.wait_for_message(
                    bob_dm, lambda m, mv=move: f"played {mv}" in (m.text or ""), timeout=DEADLINE
                )
            else:  # Alice in the group
                await fake.wait_until(
                    lambda mv=move: any(
                        _notice_for(m, alice) and f"played {mv}" in (m.text or "")
                        for m in fake.sent(group)
                    ),
                    timeout=DEADLINE,
                )
        # Bob turns direct messages off: his next turn is a mention in the group.
        off = await bot.say(bob, bob_dm, "/settings dm off")
        assert off.text is not None
        move = position.legal_moves()[0]
        await bot.say(alice, group, f"/move {move}")
        await fake.wait_until(
            lambda: any(
                _notice_for(m, bob) and f"played {move}" in (m.text or "") for m in fake.sent(group)
            ),
            timeout=DEADLINE,
        )
        # Nothing is left to deliver: another round sends nothing.
        assert bot.outbox is not None
        calls = len(fake.calls)
        sender = TelegramSender(bot.adapter.application.bot)
        assert await bot.outbox.deliver_due("telegram", sender) == 0
        assert len(fake.calls) == calls
    # Each of Alice's three notices was refused once as a direct message and shown once in
    # the group; Bob got two privately (the challenge, Alice's move) and one in the group.
    assert sum(_notice_for(m, alice) for m in fake.sent(group)) == 3
    assert _refused_dms(bot, alice) == 3
    assert sum(_notice_for(m, bob) for m in fake.sent(group)) == 1
    assert _refused_dms(bot, bob) == 0
    texts = [m.text or "" for m in fake.sent(bob_dm)]
    # (the challenge's private copy was closed when Bob accepted: it says so now)
    notices = [t for t in texts if "accepted challenge" in t or "Your turn" in t]
    assert len(notices) == 2 and "accepted challenge" in notices[0], texts
    assert all(n == 1 for n in Counter(m.text for m in fake.sent(group)).values())
