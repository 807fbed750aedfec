"""``hexhall import`` refuses a file bigger than a record can be before reading it (issue 27):
a 200 MB file is refused at once, and the process never holds it in memory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.limits import TEXT_LIMIT

ROOT = Path(__file__).resolve().parents[2]

#: A wrapper that runs ``hexhall import <file>`` and prints the child's exit status and peak
#: resident memory (KiB), measured by the kernel (``ru_maxrss`` of the waited-for child).
_MEASURE = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run([sys.executable, '-m', 'bot', 'import', sys.argv[1]],"
    " capture_output=True)\n"
    "sys.stderr.buffer.write(done.stderr)\n"
    "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def _import(tmp_path: Path, record: Path) -> tuple[int, int, str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")}
    environ.update(PYTHONPATH=str(ROOT), HEXHALL_DB=str(tmp_path / "h.db"))
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(record)],
        capture_output=True,
        cwd=tmp_path,
        env=environ,
        timeout=120,
        check=True,
    )
    status, peak = done.stdout.split()
    return int(status), int(peak), done.stderr.decode()


def test_an_oversized_record_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as file:
        file.write(b"[Game: Maphex]\n" + b"1. e5 " * 1_000_000)
        file.truncate(200 * 1024 * 1024)  # sparse: 200 MB without writing them
    status, peak_kib, err = _import(tmp_path, big)
    assert status != 0 and f"at most {TEXT_LIMIT} characters" in err, err
    assert "Traceback" not in err
    assert peak_kib < 100 * 1024, peak_kib  # half the file's size: it was never read whole


def test_a_record_just_over_the_limit_is_refused_in_characters(tmp_path: Path) -> None:
    over = tmp_path / "over.txt"
    over.write_text("x" * (TEXT_LIMIT + 1), encoding="utf-8")
    status, _, err = _import(tmp_path, over)
    assert status != 0 and f"at most {TEXT_LIMIT} characters" in err, err
