"""Nothing that matters lives only in memory: a real ``hexhall run`` process is killed with
SIGKILL mid-game and a new process continues the same game (issue 8, "Storage")."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Only a guard against a hung child; the test waits on output lines, never on the clock.
TIMEOUT = 120.0


class Hexhall:
    """A ``hexhall run`` process (console adapter) driven through its standard input."""

    def __init__(self, tmp_path: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")}
        env.update(PYTHONPATH=str(ROOT), HEXHALL_DB=str(tmp_path / "h.db"))
        # stderr goes to a file: a pipe nobody reads could fill up and stall the child.
        self.errors = (tmp_path / "stderr.txt").open("w+b")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            cwd=tmp_path,
            env=env,
        )
        self.seen: list[str] = []
        self._pending = b""

    def send(self, *lines: str) -> None:
        """Type lines into the console."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(f"{line}\n" for line in lines).encode())
        self.proc.stdin.flush()

    def _lines(self) -> Iterator[str]:
        """Output lines as they arrive.  Reads the raw pipe (no buffered reader), so a line
        that has arrived is never hidden from select() in a Python buffer."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        selector = selectors.DefaultSelector()
        selector.register(fd, selectors.EVENT_READ)
        deadline = time.monotonic() + TIMEOUT
        while True:
            while b"\n" in self._pending:
                line, self._pending = self._pending.split(b"\n", 1)
                yield line.decode(errors="replace") + "\n"
            left = deadline - time.monotonic()
            if left <= 0 or not selector.select(left):
                return
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            self._pending += chunk

    def wait_for(self, text: str) -> str:
        """Read output lines until one contains ``text``; return it."""
        for line in self._lines():
            self.seen.append(line)
            if text in line:
                return line
        status = self.proc.poll()
        self.errors.seek(0)
        err = self.errors.read()
        raise AssertionError(
            f"never saw {text!r} (exit status {status}); output was:\n{''.join(self.seen)}"
            f"\nerrors:\n{err.decode(errors='replace')}"
        )

    def close(self) -> None:
        """Kill the process if it still runs and close its pipes."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()
        self.errors.close()


def test_sigkill_mid_game_then_a_new_process_continues(tmp_path: Path) -> None:
    first = Hexhall(tmp_path)
    try:
        run_both(tmp_path, first)
    finally:
        first.close()


def run_both(tmp_path: Path, first: Hexhall) -> None:
    """Play, kill, restart and continue."""
    # first=them: bob moves first (Maphex: Blue opens), alice plays Red.
    first.send("as alice", "challenge bob maphex first=them", "as bob", "accept")
    first.wait_for("bob accepted challenge 1: game #1 Maphex")
    first.send("5", "e5")
    first.wait_for("move 2: alice (Red) played e5. bob (Blue) to move.")
    # A challenge still pending at the kill must survive too.
    first.send("as carol", "challenge alice pathagon")
    first.wait_for("carol challenges alice to Pathagon")
    first.proc.send_signal(signal.SIGKILL)
    assert first.proc.wait() == -signal.SIGKILL

    second = Hexhall(tmp_path)
    try:
        continue_after_kill(second)
    finally:
        second.close()


def continue_after_kill(second: Hexhall) -> None:
    """The new process finds the game, the players and the pending challenge."""
    second.send("as bob", "board")
    second.wait_for("#1 Maphex: alice (Red) vs bob (Blue), move 3. bob (Blue) to move.")
    second.send("d4")
    second.wait_for("move 3: bob (Blue) played d4. alice (Red) to move.")
    second.send("history")
    second.wait_for("1. 5 e5  2. d4")
    second.send("as alice", "accept 2")
    second.wait_for("alice accepted challenge 2: game #2 Pathagon")
    second.send("quit")
    assert second.proc.wait(timeout=TIMEOUT) == 0
