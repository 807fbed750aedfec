"""``hexhall run`` with DISCORD_TOKEN set, as a real process against the fake Discord: it logs
in through the URL settings, plays, survives a SIGKILL (started again, the game goes on to its
end with nothing lost and nothing sent twice), and never shows the token."""

from __future__ import annotations

import asyncio
import collections
import os
import random
import signal
import sys
from pathlib import Path
from typing import Any

import engines
from tests.adapters.discord_kit import ALICE, BOB, DEADLINE, button, fake_discord
from tests.fakes.discord_fake import FakeDiscord, StoredMessage

ROOT = Path(__file__).resolve().parents[2]
#: Moves played (across the kill) before the player to move resigns: random Pathagon games
#: can run to hundreds of moves.
MOVES = 14


async def start_bot(fake: FakeDiscord, db: Path, log: Path) -> asyncio.subprocess.Process:
    """``python -m bot run`` against the fake; returns once it has identified."""
    env = {k: v for k, v in os.environ.items() if k not in ("TELEGRAM_TOKEN", "DISCORD_GUILD_ID")}
    env.update(
        PYTHONPATH=str(ROOT),
        HEXHALL_DB=str(db),
        DISCORD_TOKEN=fake.token,
        DISCORD_API_URL=fake.api_base,
        DISCORD_GATEWAY_URL=str(fake.gateway_url),
    )
    sessions = len(fake.calls_to("gateway IDENTIFY"))
    with log.open("ab") as out:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=db.parent, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=out,
        )  # fmt: skip
    await fake.wait_until(
        lambda: len(fake.calls_to("gateway IDENTIFY")) > sessions and bool(fake.sessions),
        timeout=DEADLINE,
    )
    return process


async def answer(fake: FakeDiscord, user: int, command: str, options: dict[str, Any]) -> Any:
    record = await fake.slash(user, 1_001, command, options)
    await fake.response(record, timeout=DEADLINE)
    return await fake.original(record, timeout=DEADLINE)


async def test_sigkill_and_restart_lose_nothing_and_send_nothing_twice(tmp_path: Path) -> None:
    db, log = tmp_path / "hexhall.db", tmp_path / "bot.log"
    rng = random.Random(5)
    async with fake_discord() as fake:
        bot = await start_bot(fake, db, log)
        await fake.wait_until(lambda: len(fake.commands()) >= 10, timeout=DEADLINE)
        card = await answer(fake, ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
        click = await fake.click(BOB, card, button(card, "Accept"))
        await fake.response(click, timeout=DEADLINE)
        gid = int(button(card, "Board").split(":")[1])
        position = engines.new("pathagon")
        # Pathagon: the challenger (Alice) or Bob moves first at random; follow the embed.
        boards: list[StoredMessage] = [card]
        killed = False
        while position.outcome is None and position.ply < MOVES:
            to_move = _to_move(boards[-1])
            move = rng.choice(position.legal_moves())
            board = await answer(fake, to_move, "move", {"game": str(gid), "move": move})
            assert not board.ephemeral, board.content
            position = position.play(move)
            boards.append(board)
            if position.ply == 6 and not killed:
                bot.send_signal(signal.SIGKILL)
                await bot.wait()
                killed = True
                await fake.wait_until(lambda: not fake.sessions, timeout=DEADLINE)
                bot = await start_bot(fake, db, log)
        assert killed
        # The board after the restart knows every move: the count matches the engine's.
        fields = {f["name"]: f["value"] for f in boards[-1].embeds[0]["fields"]}
        assert fields["Moves played"] == str(position.ply)
        if position.outcome is None:
            loser = _to_move(boards[-1])
            asked = await answer(fake, loser, "resign", {"game": str(gid)})
            done = await fake.click(loser, asked, button(asked, "Yes, resign"))
            await fake.response(done, timeout=DEADLINE)
            over = await fake.original(done, timeout=DEADLINE)
            assert "resign" in over.content and not over.ephemeral
        # The game-over notes reach the winner (a direct message) once.
        await fake.wait_message(lambda m: "resigned" in m.content and m.interaction_id is None)
        bot.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(bot.wait(), DEADLINE) == 0
        # Nothing sent twice: every notification the bot posted is there once.
        sent = [m.content for m in fake.messages.values() if m.interaction_id is None]
        twice = [m for m, n in collections.Counter(sent).items() if n > 1]
        assert sent and not twice, twice
    text = log.read_text(encoding="utf-8", errors="replace")
    assert fake.token not in text


def _to_move(board: StoredMessage) -> int:
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
