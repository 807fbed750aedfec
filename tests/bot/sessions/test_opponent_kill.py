"""The bot's search workers die with the bot, and a new process makes the move the killed one
was thinking about (issue 17): a real ``hexhall run`` console is killed with SIGKILL while
the bot thinks; its output pipes end and its workers are gone at once; a new process's sweep
makes the bot's move and the console shows it with the board."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.bot.delivery.test_recap import alive, children

ROOT = Path(__file__).resolve().parents[3]
# Only guards against a hung child; the test waits on output and on processes, never on time.
TIMEOUT = 120.0


def workers_of(pid: int) -> set[int]:
    """The search workers among ``pid``'s children (multiprocessing's spawned processes)."""
    found = set()
    for child in children(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
        except OSError:
            continue
    return found


class Bot:
    """A ``hexhall run`` process (console) with both output pipes read as they come."""

    def __init__(self, tmp_path: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")}
        env.update(PYTHONPATH=str(ROOT), HEXHALL_DB=str(tmp_path / "h.db"))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            env=env,
        )
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)
        self.selector.register(self.proc.stderr, selectors.EVENT_READ)
        self.output = {self.proc.stdout.fileno(): b"", self.proc.stderr.fileno(): b""}
        self.deadline = time.monotonic() + TIMEOUT

    @property
    def stdout(self) -> bytes:
        assert self.proc.stdout is not None
        return self.output[self.proc.stdout.fileno()]

    @property
    def stderr(self) -> bytes:
        assert self.proc.stderr is not None
        return self.output[self.proc.stderr.fileno()]

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(f"{line}\n" for line in lines).encode())
        self.proc.stdin.flush()

    def read(self) -> bool:
        """Read what has arrived on either pipe; ``False`` once both have ended."""
        if not self.selector.get_map():
            return False
        assert time.monotonic() < self.deadline, self.output
        for key, _ in self.selector.select(self.deadline - time.monotonic()):
            chunk = os.read(key.fd, 65536)
            if chunk:
                self.output[key.fd] += chunk
            else:
                self.selector.unregister(key.fileobj)
        return True

    def wait_for(self, text: bytes, start: int = 0) -> int:
        """Read until ``text`` is in the standard output after ``start``; where it ends."""
        while text not in self.stdout[start:]:
            assert self.read(), f"never saw {text!r}: {self.output}"
        return self.stdout.index(text, start) + len(text)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


def test_a_killed_bot_leaves_no_worker_and_the_next_one_makes_the_move(tmp_path: Path) -> None:
    first = Bot(tmp_path)
    try:
        first.send("as ada", "challenge bot maphex size=9 first=them level=hard days=none")
        first.wait_for(b"Hexhall bot is thinking: its move comes as a message.")
        while not workers_of(first.proc.pid):  # the search has a worker
            assert time.monotonic() < first.deadline and first.proc.poll() is None
            time.sleep(0.005)
        before = children(first.proc.pid)
        first.proc.send_signal(signal.SIGKILL)
        assert first.proc.wait(timeout=TIMEOUT) == -signal.SIGKILL
        while first.read():  # both pipes end: nothing else holds them open
            pass
        while any(alive(pid) for pid in before):
            assert time.monotonic() < first.deadline, f"children survived: {before}"
            time.sleep(0.01)
        assert b"Hexhall bot played" not in first.stdout  # killed before its move
    finally:
        first.close()

    second = Bot(tmp_path)
    try:
        second.send("as ada")
        # The start-up sweep finds the game where the bot is to move; the outbox shows it.
        end = second.wait_for(b"\xc2\xbb to ada: Your turn in #1 Maphex: Hexhall bot played ")
        second.wait_for(b"#1 Maphex: ada (Red) vs Hexhall bot (Blue), move 2.", end)
        second.send("board")
        second.wait_for(b"ada (Red) to move.", end)
        second.send("quit")
        assert second.proc.wait(timeout=TIMEOUT) == 0
        assert b"Traceback" not in second.stderr
    finally:
        second.close()
