"""A SIGKILL between the opponent's move and the prepared reply loses neither (issue 46): a
real process storing Bob's move into Alice's prepared line is killed after Bob's move was
written and before the reply was, inside the one transaction that holds both.  Nothing of it
is kept, Alice's line is still there, and Bob's move sent again (a new process) plays both,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.messages import Chat
from bot.sessions.clock import FakeClock
from tests.bot.session_kit import ALICE, BOB, ROOM, session, start_game

ROOT = Path(__file__).resolve().parents[3]
# Only a guard against a hung child; the test waits for the child to end, never on the clock.
TIMEOUT = 120.0

#: The child: Bob moves into Alice's line, and the process kills itself when the store builds
#: the second statement of the transaction (the reply's), after the first one (Bob's move and
#: its moves row) ran.
CHILD = """
import asyncio, os, signal, sys
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import open_store
from bot.storage.sql_games import SqlGames
from tests.bot.session_kit import BOB, ROOM

original = SqlGames.move_statement
calls = []

def dying(*args, **kwargs):
    calls.append(args[1])
    if len(calls) == 2:
        print("killed between", *calls, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    return original(*args, **kwargs)

SqlGames.move_statement = staticmethod(dying)

async def main(url, game_id):
    store = await open_store(url)
    manager = SessionManager(store, FakeClock(), pictures=False)
    await manager.games.move(BOB, ROOM, "b1", game_id)
    print("never reached", flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


async def test_a_kill_between_the_move_and_the_prepared_reply_loses_neither(
    store_url: str, tmp_path: Path
) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as m:
        gid, _ = await start_game(m, "pathagon")
        assert (await m.games.move(ALICE, ROOM, "a1", gid)).ok
        said = await m.games.premove(ALICE, Chat("test", "dm"), gid, "b1 => c1; b2 => c2")
        assert said.ok, said.text

    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")}
    env["PYTHONPATH"] = str(ROOT)
    child = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, str(script), store_url, str(gid)],
        capture_output=True,
        cwd=tmp_path,
        env=env,
        timeout=TIMEOUT,
        check=False,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr.decode(errors="replace")
    assert child.stdout.decode() == "killed between b1 c1\n"

    async with session(store_url, clock) as m:
        row = await m.store.get_game(gid)
        assert row is not None and row.ply == 1 and row.to_move == 1  # neither move kept
        assert [mv.move for mv in await m.store.moves(gid)] == ["a1"]
        alice = await m.players.player(ALICE)
        lines = await m.store.premoves_of(gid, alice.id)
        assert [line.moves for line in lines] == [("b1", "c1", "b2", "c2")]
        # Bob sends his move again (a new process): his move and Alice's reply, together.
        answer = await m.games.move(BOB, ROOM, "b1", gid)
        assert answer.ok and "replied c1 (prepared)" in answer.text, answer.text
        assert [mv.move for mv in await m.store.moves(gid)] == ["a1", "b1", "c1"]
