"""The recap is drawn by workers that die with the bot (issue 12): a real ``hexhall run``
process that has drawn a recap is killed with SIGKILL, and its output pipes end at once."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
# Only guards against a hung child; the test waits on output and on processes, never on time.
TIMEOUT = 120.0


def children(pid: int) -> set[int]:
    """Every process whose parent is ``pid`` (Linux ``/proc``)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so split after its last ')'
        if int(stat.rpartition(")")[2].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running (not zombie) process."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_killed_bot_leaves_no_recap_worker_holding_its_output(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")}
    env.update(PYTHONPATH=str(ROOT), HEXHALL_DB=str(tmp_path / "h.db"))
    bot = subprocess.Popen(
        [sys.executable, "-m", "bot", "run"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=env,
    )
    assert bot.stdin is not None and bot.stdout is not None and bot.stderr is not None
    try:
        lines = "as alice\nchallenge bob maphex first=me\nas bob\naccept\nas alice\nresign !\n"
        bot.stdin.write(lines.encode())
        bot.stdin.flush()
        selector = selectors.DefaultSelector()
        selector.register(bot.stdout, selectors.EVENT_READ)
        selector.register(bot.stderr, selectors.EVENT_READ)
        output = {bot.stdout.fileno(): b"", bot.stderr.fileno(): b""}
        deadline = time.monotonic() + TIMEOUT
        # Until the recap has been drawn and saved.
        while b"recap: " not in output[bot.stdout.fileno()]:
            assert time.monotonic() < deadline and bot.poll() is None, output
            for key, _ in selector.select(deadline - time.monotonic()):
                chunk = os.read(key.fd, 65536)
                assert chunk, output  # the bot ended before drawing the recap
                output[key.fd] += chunk
        gif = output[bot.stdout.fileno()].split(b"recap: ")[1].split(b"\n")[0]
        assert Path(gif.decode()).read_bytes()[:3] == b"GIF"
        before = children(bot.pid)
        bot.send_signal(signal.SIGKILL)
        assert bot.wait(timeout=TIMEOUT) == -signal.SIGKILL
        # Both pipes reach their end: nothing else holds the bot's stdout or stderr open.
        open_fds = {bot.stdout.fileno(), bot.stderr.fileno()}
        while open_fds:
            assert time.monotonic() < deadline, f"pipes still open: {open_fds}"
            for key, _ in selector.select(deadline - time.monotonic()):
                if not os.read(key.fd, 65536):
                    selector.unregister(key.fileobj)
                    open_fds.discard(key.fd)
        while any(alive(pid) for pid in before):
            assert time.monotonic() < deadline, f"children survived: {before}"
            time.sleep(0.01)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        for stream in (bot.stdin, bot.stdout, bot.stderr):
            if stream is not None:
                stream.close()
