"""``hexhall run`` with DISCORD_TOKEN set, as a real process against the fake Discord: it logs
in through the URL settings, plays, survives a SIGKILL (started again, the game goes on to its
end with nothing lost and nothing sent twice), and never shows the token."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import random
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

import telegram

import engines
from tests.adapters.discord_kit import ALICE, BOB, DEADLINE, button, fake_discord, labels
from tests.adapters.process_kit import BotProcess, bot_env
from tests.fakes.discord_fake import FakeDiscord, StoredMessage
from tests.fakes.telegram import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]
#: Moves played (across the kill) before the player to move resigns: random Pathagon games
#: can run to hundreds of moves.
MOVES = 14


async def start_bot(fake: FakeDiscord, db: Path, log: Path, **settings: str) -> BotProcess:
    """``python -m bot run`` against the fake (with more ``settings``); returns once it has
    identified."""
    env = bot_env(
        HEXHALL_DB=str(db),
        DISCORD_TOKEN=fake.token,
        DISCORD_API_URL=fake.api_base,
        DISCORD_GATEWAY_URL=str(fake.gateway_url),
        **settings,
    )
    bot = BotProcess(env, log)
    sessions = len(fake.calls_to("gateway IDENTIFY"))
    await bot.launch()
    await bot.racing(
        fake.wait_until(
            lambda: len(fake.calls_to("gateway IDENTIFY")) > sessions and bool(fake.sessions),
            timeout=DEADLINE,
        )
    )
    return bot


async def answer(fake: FakeDiscord, user: int, command: str, options: dict[str, Any]) -> Any:
    record = await fake.slash(user, 1_001, command, options)
    await fake.response(record, timeout=DEADLINE)
    return await fake.original(record, timeout=DEADLINE)


async def test_sigkill_and_restart_lose_nothing_and_send_nothing_twice(tmp_path: Path) -> None:
    db, log = tmp_path / "hexhall.db", tmp_path / "bot.log"
    rng = random.Random(5)
    async with fake_discord() as fake:
        bot = await start_bot(fake, db, log)
        try:
            await fake.wait_until(lambda: len(fake.commands()) >= 10, timeout=DEADLINE)
            card = await answer(fake, ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
            click = await fake.click(BOB, card, button(card, "Accept"))
            await fake.response(click, timeout=DEADLINE)
            # Under load the bot defers the Accept and edits the card afterwards: wait for the edit.
            await fake.wait_until(lambda: "Board" in labels(card), timeout=DEADLINE)
            gid = int(button(card, "Board").split(":")[1])
            position = engines.new("pathagon")
            # Pathagon: the challenger (Alice) or Bob moves first at random; follow the embed.
            boards: list[StoredMessage] = [card]
            killed = False
            while position.outcome is None and position.ply < MOVES:
                to_move = to_move_of(boards[-1])
                move = position.random_move(rng)
                board = await answer(fake, to_move, "move", {"game": str(gid), "move": move})
                assert not board.ephemeral, board.content
                position = position.play(move)
                boards.append(board)
                if position.ply == 6 and not killed:
                    await bot.kill()
                    killed = True
                    await fake.wait_until(lambda: not fake.sessions, timeout=DEADLINE)
                    bot = await start_bot(fake, db, log)
            assert killed
            # The board after the restart knows every move: the count matches the engine's.
            fields = {f["name"]: f["value"] for f in boards[-1].embeds[0]["fields"]}
            assert fields["Moves played"] == str(position.ply)
            if position.outcome is None:
                loser = to_move_of(boards[-1])
                asked = await answer(fake, loser, "resign", {"game": str(gid)})
                done = await fake.click(loser, asked, button(asked, "Yes, resign"))
                await fake.response(done, timeout=DEADLINE)
                over = await fake.original(done, timeout=DEADLINE)
                assert "resign" in over.content and not over.ephemeral
            # The final board answered the resignation in the channel (the winner's notice: direct
            # messages are opt-in); the recap follows it there, once.
            await fake.wait_message(
                lambda m: m.interaction_id is None and any(n.endswith(".gif") for n in m.files),
                timeout=DEADLINE,
            )
            assert await bot.stop() == 0
            # Nothing sent twice: every notification the bot posted is there once.
            sent = [m.content for m in fake.messages.values() if m.interaction_id is None]
            twice = [m for m, n in collections.Counter(sent).items() if n > 1]
            assert sent and not twice, twice
        finally:
            if bot.running:
                await bot.kill()  # a failed test leaves no bot behind
    text = log.read_text(encoding="utf-8", errors="replace")
    assert fake.token not in text


def to_move_of(board: StoredMessage) -> int:
    """The player to move on a board message, read from its card (an edited card keeps the
    pings it was sent with, so its pinged users are not the player to move)."""
    fields = {f["name"]: f["value"] for f in board.embeds[0]["fields"]}
    return int(fields["To move"].split(">")[0].removeprefix("<@"))


async def test_run_without_a_reachable_discord_is_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TELEGRAM_TOKEN"}
    env.update(
        PYTHONPATH=str(ROOT),
        HEXHALL_DB=str(tmp_path / "h.db"),
        DISCORD_TOKEN="abc.def-secret",
        # Nothing listens on port 9 of 127.0.0.1.
        DISCORD_API_URL="http://127.0.0.1:9/api/v10",
        DISCORD_GATEWAY_URL="ws://127.0.0.1:9/",
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), DEADLINE)
    assert process.returncode == 3
    assert err.decode().splitlines()[-1] == (
        "hexhall: cannot connect to Discord at http://127.0.0.1:9/api/v10"
    )
    assert b"secret" not in out + err


async def test_discord_beside_telegram_in_one_process(tmp_path: Path) -> None:
    """Both tokens set: ``hexhall run`` serves Telegram and Discord from one process and one
    database; a game on each platform, a move in each, and a clean stop."""
    db, log = tmp_path / "hexhall.db", tmp_path / "bot.log"
    async with fake_discord() as fake, FakeTelegram() as tg:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TELEGRAM_"))}
        env.update(
            PYTHONPATH=str(ROOT),
            HEXHALL_DB=str(db),
            DISCORD_TOKEN=fake.token,
            DISCORD_API_URL=fake.api_base,
            DISCORD_GATEWAY_URL=str(fake.gateway_url),
            TELEGRAM_TOKEN=tg.token,
            TELEGRAM_API_URL=tg.base_url,
            TELEGRAM_FILE_URL=tg.base_file_url,
            NO_PROXY="127.0.0.1,localhost",
            no_proxy="127.0.0.1,localhost",
        )
        with log.open("ab") as out:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env,
                stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=out,
            )  # fmt: skip
        try:
            await fake.wait_until(lambda: bool(fake.sessions), timeout=DEADLINE)
            await tg.wait_until(lambda: bool(tg.calls_to("getUpdates")), timeout=DEADLINE)
            # Discord: a challenge, accepted on its card, and a move.
            card = await answer(fake, ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
            click = await fake.click(BOB, card, button(card, "Accept"))
            await fake.response(click, timeout=DEADLINE)
            await fake.wait_until(lambda: "Board" in labels(card), timeout=DEADLINE)
            gid = int(button(card, "Board").split(":")[1])
            mover = to_move_of(card)
            board = await answer(fake, mover, "move", {"game": str(gid), "move": "a1"})
            assert not board.ephemeral and "played `a1`" in board.content
            # Telegram, meanwhile in the same process: the same, in a group.
            alice, bob = tg.user(31, "Alice", "alice"), tg.user(32, "Bob", "bob")
            group = tg.group(-500, "Hex club")
            await tg.send_text(bob, group, "hi")
            before = tg.last_message_id(group)
            await tg.send_text(alice, group, "/challenge pathagon first=me", reply_to=(group.id, 1))
            tg_card = await _telegram_answer(tg, group, before)
            accept = next(
                b.callback_data for row in tg.keyboard(tg_card) for b in row if b.text == "Accept"
            )
            assert isinstance(accept, str)
            before = tg.last_message_id(group)
            await tg.press(bob, tg_card, accept)
            await _telegram_answer(tg, group, before)
            before = tg.last_message_id(group)
            await tg.send_text(alice, group, "/move a1")
            await tg.wait_until(
                lambda: any(
                    m.photo and "played a1" in (m.caption or "")
                    for m in tg.sent_after(group, before)
                ),
                timeout=DEADLINE,
            )
            with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
                rows = conn.execute(
                    "SELECT p.platform, g.ply FROM games g JOIN players p ON p.id = g.seat0 "
                    "ORDER BY p.platform"
                ).fetchall()
            assert rows == [("discord", 1), ("telegram", 1)]
            process.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(process.wait(), DEADLINE) == 0
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGKILL)
                await process.wait()
    text = log.read_text(encoding="utf-8", errors="replace")
    assert fake.token not in text and tg.token not in text


async def _telegram_answer(tg: FakeTelegram, chat: telegram.Chat, after: int) -> telegram.Message:
    """The first bot message in ``chat`` after message ``after``."""
    await tg.wait_until(lambda: bool(tg.sent_after(chat, after)), timeout=DEADLINE)
    return tg.sent_after(chat, after)[0]
