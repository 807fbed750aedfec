"""A double tap has one effect across processes (issue 45): two bot processes on one database
behind one webhook (the fake's pushes go to them in turn, two at a time, as a load balancer
would send them), so the two presses of a double tap are handled side by side by different
processes.  Each process's own memory of taps cannot see the other's: the store's claim
(:func:`bot.sessions.leases.claim_tap`) decides, and the second press is answered with no
effect.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import telegram

from tests.adapters.telegram_kit import DEADLINE, Bot
from tests.adapters.test_telegram_webhook import local_url, webhook_bot
from tests.fakes.telegram import WEBHOOK_PUSH, FakeTelegram


async def _double_tap(bot: Bot, user: telegram.User, message: telegram.Message, label: str) -> None:
    """``user`` taps ``label`` twice in a row; both presses answered and handled to the end
    (a process acknowledges a pushed update once it has handled it)."""
    data = bot.button(message, label)
    queries = [await bot.fake.press(user, message, data) for _ in range(2)]
    for query in queries:
        await bot.fake.wait_for_answer(query, timeout=DEADLINE)
    await bot.fake.wait_until(lambda: bot.fake.pending_updates() == [], timeout=DEADLINE)


def _targets(fake: FakeTelegram, first: int) -> set[str]:
    """The processes the pushes from call ``first`` on went to."""
    return {str(c.data["url"]) for c in fake.calls[first:] if c.method == WEBHOOK_PUSH}


async def test_a_double_tap_split_between_two_processes_has_one_effect(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    async with contextlib.AsyncExitStack() as stack:
        fake = await stack.enter_async_context(FakeTelegram(webhook_connections=2))
        one, first = await stack.enter_async_context(webhook_bot(db, fake))
        _two, second = await stack.enter_async_context(webhook_bot(db, fake))
        fake.webhook_targets = [local_url(first), local_url(second)]
        alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", "bob")
        group = fake.group(-200, "Hex club")
        board, gid = await one.accepted(group, alice, bob, "pathagon")
        mover = await one.to_move(gid, alice, bob)
        board = await one.say(mover, group, f"/move #{gid} d4")
        # History: one move list, though each process got one of the two presses.
        mark, before = len(fake.calls), fake.last_message_id(group)
        await _double_tap(one, alice, board, "History")
        assert _targets(fake, mark) == set(fake.webhook_targets)
        assert len([m for m in fake.sent_after(group, before) if "d4" in (m.text or "")]) == 1
        # Resign: one question (Alice never opened the bot: it is posted under the board).
        mark, before = len(fake.calls), fake.last_message_id(group)
        await _double_tap(one, alice, board, "Resign")
        assert _targets(fake, mark) == set(fake.webhook_targets)
        asked = [m for m in fake.sent_after(group, before) if "Really" in (m.text or "")]
        assert len(asked) == 1
