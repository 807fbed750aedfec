"""Taps in a busy Telegram forum (issue 45): two topics, each a Pathagon game played by taps
alone (Move, then the picker's buttons in the mover's private chat) at full speed, through the
real python-telegram-bot with the adapter's rate limiter against the fake enforcing Telegram's
flood limits as they are (1 new message a second per chat, 20 messages and edits a minute per
group: the forum is one group, so the boards of both games share its 20 a minute and wait).

Printed: the moves, the forum's new messages, edits and deletes per move, 429s, how long the
taps waited for their answers (press to the fake receiving ``answerCallbackQuery``, p50/p99/
max) and how long the tap that played a move waited for its board in the forum (p50/p99/max).
One player (Dave) never opened the bot: his first Move is answered with the bot's Start link,
followed as a client does.

    .venv/bin/python benchmarks/busy_taps.py [--moves 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# This script's folder first on the path would make "telegram"/"discord" these files.
sys.path[:] = [str(ROOT), *(p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks")]
os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")

import engines
from benchmarks.chat_load import EDITS, SENDS, percentile
from bot.adapters.telegram.pacing import ChatPacer
from bot.sessions.picker import part_label
from tests.adapters.telegram_kit import Bot, running
from tests.fakes.telegram import FakeTelegram, TelegramLimits

PATIENCE = 300.0


async def _tap(bot: Bot, user: Any, message: Any, data: str, waits: list[float]) -> None:
    fake = bot.fake
    pressed = time.monotonic()
    query = await fake.press(user, message, data)
    answer = await fake.wait_for_answer(query, timeout=PATIENCE)
    answered = next(
        c.at
        for c in reversed(fake.calls)
        if c.method == "answerCallbackQuery" and c.data.get("callback_query_id") == query
    )
    waits.append(answered - pressed)
    if answer.url is not None:  # the client opens the bot's chat; Start sends the parameter
        await fake.start_private(user, send_start=False)
        await fake.send_text(user, fake.private(user), "/start " + answer.url.split("=", 1)[1])


async def _play(
    bot: Bot, forum: Any, topic: int, players: tuple[Any, Any], game_id: int, moves: int,
    seed: int, waits: list[float], boards: list[float],
) -> int:  # fmt: skip
    """Play up to ``moves`` moves by taps in ``topic``; how many were played."""
    fake = bot.fake
    rng, position = random.Random(seed), engines.new("pathagon")
    board = [m for m in fake.sent(forum) if m.message_thread_id == topic and m.photo][-1]
    played = 0
    while played < moves and position.outcome is None:
        move = rng.choice(position.legal_moves())
        mover = await bot.to_move(game_id, *players)
        dm = fake.private(mover)
        mark = fake.last_message_id(dm)
        await _tap(bot, mover, board, bot.button(board, "Move"), waits)
        picker = await fake.wait_for_message(
            dm, lambda m, a=mark: m.message_id > a and "Cancel" in bot.labels(m), timeout=PATIENCE
        )
        label = part_label(move)
        while label not in bot.labels(picker):  # a later page
            shown = fake.keyboard(picker)
            await _tap(bot, mover, picker, bot.button(picker, "▶"), waits)
            await fake.wait_until(lambda s=shown, p=picker: fake.keyboard(p) != s)
        before = fake.last_message_id(forum)
        start = time.monotonic()
        await _tap(bot, mover, picker, bot.button(picker, label), waits)
        board = await fake.wait_for_message(
            forum,
            lambda m, b=before: m.message_id > b and m.message_thread_id == topic and bool(m.photo),
            timeout=PATIENCE,
        )
        boards.append(time.monotonic() - start)
        position = position.play(move)
        played += 1
    return played


async def _accept(bot: Bot, forum: Any, topic: int, one: Any, two: Any) -> int:
    fake = bot.fake
    await fake.send_text(two, forum, "/games", topic=topic)
    await bot.next_message(forum, fake.last_message_id(forum))
    await fake.send_text(one, forum, f"/challenge pathagon @{two.username}", topic=topic)
    card = await bot.next_message(forum, fake.last_message_id(forum))
    before = fake.last_message_id(forum)
    await bot.press(two, card, bot.button(card, "Accept"))
    board = await fake.wait_for_message(
        forum, lambda m: m.message_id > before and "Move" in bot.labels(m), timeout=PATIENCE
    )
    return bot.game_id(board)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=20, help="moves per game")
    args = parser.parse_args()
    waits: list[float] = []
    boards: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        db, pacer = Path(folder) / "t.db", ChatPacer()
        async with (
            FakeTelegram(limits=TelegramLimits()) as fake,
            running(db, fake=fake, rate_limiter=pacer, deliver=True) as bot,
        ):
            forum = fake.forum(-1_000_000_000_450, "Hex club")
            alice, bob = fake.user(41, "Alice", "alice"), fake.user(42, "Bob", "bob")
            carol, dave = fake.user(43, "Carol", "carol"), fake.user(44, "Dave", "dave")
            for person in (alice, bob, carol):
                await fake.start_private(person, send_start=False)
            tables = []
            for name, one, two in (("Game 1", alice, bob), ("Game 2", carol, dave)):
                topic = await fake.topic(forum, name, one)
                tables.append((topic, (one, two), await _accept(bot, forum, topic, one, two)))
            mark = len(fake.calls)
            played = await asyncio.gather(
                *(
                    _play(bot, forum, topic, people, gid, args.moves, i, waits, boards)
                    for i, (topic, people, gid) in enumerate(tables)
                )
            )
            calls = fake.calls[mark:]

            def counted(methods: frozenset[str] | tuple[str, ...]) -> int:
                return sum(
                    c.method in methods
                    and str(c.data.get("chat_id")) == str(forum.id)
                    and bool((c.response or {}).get("ok"))
                    for c in calls
                )

            moves = sum(played)
            floods = sum((c.response or {}).get("error_code") == 429 for c in fake.calls)
            messages, edits = counted(SENDS), counted(EDITS)
            deletes = counted(("deleteMessage",))
    ms = [w * 1000 for w in waits]
    bd = [b * 1000 for b in boards]
    print(f"2 forum topics, {moves} moves by taps at full speed, Telegram's limits enforced")
    print(
        f"per move: {messages / moves:.2f} msg, {edits / moves:.2f} edit, "
        f"{deletes / moves:.2f} delete in the forum; 429s: {floods}"
    )
    print(
        f"tap answers ({len(ms)}): p50 {percentile(ms, 50):.0f} ms, p99 {percentile(ms, 99):.0f}"
        f" ms, max {max(ms):.0f} ms"
    )
    print(
        f"tap -> board: p50 {percentile(bd, 50):.0f} ms, p99 {percentile(bd, 99):.0f} ms, "
        f"max {max(bd):.0f} ms"
    )


if __name__ == "__main__":
    asyncio.run(main())
