"""The console adapter: the chat commands at one keyboard, describe + PNG after every move."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.adapters.console import CHAT, Console
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.sessions.thinker import Thinker
from bot.storage import SqliteStore
from tests.bot.session_kit import migrated
from tests.bot.sessions.test_opponent import (
    GATE,
    TINY,
    open_gate,
    search_started,
    waiting_search,
)


def feeder(lines: list[bytes]) -> Callable[[], Awaitable[bytes]]:
    """A read_line that returns ``lines`` and then the end of input."""
    queue = list(lines)

    async def read() -> bytes:
        return queue.pop(0) if queue else b""

    return read


async def run_console(tmp_path: Path, lines: list[bytes]) -> tuple[int, str, str]:
    store = await SqliteStore.open(migrated(tmp_path / "h.db"))
    out, err = io.StringIO(), io.StringIO()
    try:
        manager = SessionManager(store, FakeClock())
        console = Console(manager, tmp_path / "boards", out=out, err=err, read_line=feeder(lines))
        code = await console.run()
    finally:
        await store.close()
    return code, out.getvalue(), err.getvalue()


async def test_console_plays_with_the_chat_commands(tmp_path: Path) -> None:
    script = [
        b"as alice\n",
        # first=them: bob makes the first move (Maphex: Blue opens), alice plays Red.
        b"challenge bob maphex size=9 first=them days=none\n",
        b"as bob\n",
        b"accept\n",
        b"5\n",  # a bare line is a move; the console then switches to alice by itself
        b"move e5\n",
        b"move e5\n",  # bob to move now: e5 is taken
        b"board\n",
        b"history\n",
        b"games\n",
        b"rules maphex\n",
        b"resign !\n",
        b"quit\n",
        b"never read\n",
    ]
    code, out, _ = await run_console(tmp_path, script)
    assert code == 0
    assert "challenge 1" in out.lower()
    assert "#1 Maphex, move 1: bob (Blue) played 5. alice (Red) to move." in out
    assert "(now playing as alice)" in out and "(now playing as bob)" in out
    assert "! Illegal move in #1: e5 is already taken" in out
    assert "\n1. 5 e5\n" in out
    # The rules page, without Markdown marks.
    assert "\nMaphex\n\nA game by Néstor Romeral Andrés." in out
    assert "\nThe board\n" in out and "**" not in out and "`" not in out
    assert "bob resigned #1: alice (Red) wins (resignation)." in out
    # render.describe after every move, and the board PNG written where it says.
    assert "Last: Red e5" in out
    png_lines = [line for line in out.splitlines() if line.startswith("board: ")]
    assert png_lines
    path = Path(png_lines[-1].removeprefix("board: "))
    assert path.read_bytes().startswith(b"\x89PNG")
    assert "never read" not in out


async def test_console_refuses_unknown_commands_as_moves_and_bad_names(tmp_path: Path) -> None:
    code, out, _ = await run_console(
        tmp_path, [b"frobnicate\n", b"as\n", b"challenge\n", b"accept #9\n"]
    )
    assert code == 0
    assert "! Unknown command 'frobnicate'; help lists them." in out
    assert "! Usage: as <name>" in out
    assert "! Usage: challenge" in out
    assert "! There is no challenge 9." in out


async def test_console_stops_on_input_that_is_not_text(tmp_path: Path) -> None:
    code, _, err = await run_console(tmp_path, [b"help\n", b"\xff\xfe move\n"])
    assert code == 2
    assert "not UTF-8" in err


async def test_console_accepts_typed_button_ids(tmp_path: Path) -> None:
    code, out, _ = await run_console(
        tmp_path, [b"as alice\n", b"challenge open maphex\n", b"as bob\n", b"acc:1\n"]
    )
    assert code == 0
    assert "bob accepted challenge 1: game #1 Maphex." in out


COMMAND_WORDS = st.sampled_from(
    [
        *("challenge", "accept", "decline", "cancel", "move", "board", "history", "resign"),
        *("games", "rules", "help", "open", "bob", "maphex", "#1", "#0", "1", "5", "e5"),
        *("size=16", "first=x", "days=7", "days=nan", "=", "#99999999999999999999", "acc:1"),
        *("mv:1:0:5", "\x00", "é", "quit"),
    ]
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.lists(COMMAND_WORDS | st.text(max_size=8), max_size=5), max_size=6))
def test_every_typed_line_is_answered(tmp_path: Path, script: list[list[str]]) -> None:
    """Whatever is typed, every line that is not blank gets an answer (at least one printed
    line of its own) and the loop goes on until ``quit`` or the end of input."""
    typed = [" ".join(words).replace("\n", " ").encode() + b"\n" for words in script]
    lines = [b"as alice\n", *typed, b"as bob\n", *typed]
    db = tmp_path / "fuzz"
    db.mkdir(exist_ok=True)
    out, err = io.StringIO(), io.StringIO()
    # Where the output stood each time the console asked for its next line.
    marks: list[int] = []
    queue = list(lines)

    async def read() -> bytes:
        marks.append(len(out.getvalue()))
        return queue.pop(0) if queue else b""

    async def play() -> int:
        store = await SqliteStore.open(migrated(db / "h.db"))
        try:
            manager = SessionManager(store, FakeClock())
            return await Console(manager, db / "boards", out=out, err=err, read_line=read).run()
        finally:
            await store.close()

    assert asyncio.run(play()) == 0 and err.getvalue() == ""
    handled = lines[: len(marks) - 1]
    for number, line in enumerate(handled):
        words = line.decode().split()
        if words and words[0].lower() in ("quit", "exit"):
            assert number == len(handled) - 1  # nothing is read after quit
        elif words:
            answer = out.getvalue()[marks[number] : marks[number + 1]]
            assert answer.endswith("\n") and answer.strip(), (line, answer)
    if not any(line.decode().lower().split()[:1] in (["quit"], ["exit"]) for line in lines):
        assert len(handled) == len(lines)  # every line was read
    for old in db.glob("h.db*"):
        old.unlink()


async def test_the_stats_chart_is_saved_like_a_board(tmp_path: Path) -> None:
    """A picture about no game (the rating chart of ``stats``) is written and its path shown."""
    script = [
        b"as alice\n",
        b"challenge bob pathagon first=me\n",
        b"as bob\n",
        b"accept\n",
        b"as alice\n",
        b"resign !\n",
        b"stats\n",
        b"quit\n",
    ]
    code, out, _ = await run_console(tmp_path, script)
    assert code == 0
    (line,) = [line for line in out.splitlines() if line.startswith("picture: ")]
    assert Path(line.removeprefix("picture: ")).read_bytes().startswith(b"\x89PNG")


async def test_playing_the_bot_keeps_the_person_at_the_keyboard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bot's search waits at a gate while the next line is typed (issue 42: that line
    # went to the bot's seat, after "(now playing as Hexhall bot)").
    monkeypatch.setenv(GATE, str(tmp_path))
    thinker = Thinker(budgets=TINY, workers=1, search=waiting_search)
    store = await SqliteStore.open(migrated(tmp_path / "h.db"))
    out = io.StringIO()
    manager = SessionManager(store, FakeClock(), pictures=False, thinker=thinker)
    lines = [b"as ada\n", b"challenge bot pathagon first=me days=none\n", b"b2\n"]
    meanwhile = [b"resign\n"]  # typed while the bot thinks: Ada's own question comes back

    async def read() -> bytes:
        if lines:
            return lines.pop(0)
        if meanwhile:
            await search_started(tmp_path, 1)  # the bot thinks about its reply to b2
            out.write("(thinking)\n")
            return meanwhile.pop()
        open_gate(tmp_path, 1)
        await manager.bot_idle()
        return b""

    try:
        console = Console(manager, tmp_path / "boards", out=out, read_line=read, prompt=True)
        assert await console.run() == 0
        await console.show(await manager.games.board(console.user, CHAT, 1))  # the bot's move is in
    finally:
        await manager.bot_idle()
        await store.close()
        thinker.close(wait=True)
    said = out.getvalue()
    assert "now playing as" not in said.replace("(now playing as ada)", "")
    # The prompt named Ada, and the line typed meanwhile was answered as hers.
    prompted, answered = said.split("(thinking)\n", 1)
    assert prompted.endswith("ada> "), prompted
    assert answered.startswith("Really resign #1?"), answered
    assert console.user.user_id == "ada"
