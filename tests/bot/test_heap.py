"""``hexhall run`` gives back the memory of its pictures' large buffers (issue 48): with the
mmap threshold fixed (:mod:`bot.heap`), a large block allocated after a larger one was freed is
still mapped on its own (so freeing it unmaps it), where plain glibc would have raised its
threshold and put the block in the heap, which it cannot shrink past a live object.

Checked through glibc's own count of mapped blocks (``mallinfo2().hblks``) in a fresh
interpreter each time: structure, not the machine-dependent resident size
(``benchmarks/memory.py`` measures that).
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.scripts import ROOT

PROBE = """
import ctypes, sys
from bot.heap import keep_large_blocks_mapped

class MallInfo(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]

libc = ctypes.CDLL(None)
libc.mallinfo2.restype = MallInfo
fixed = keep_large_blocks_mapped() if sys.argv[1] == "fixed" else None
picture = bytearray(4 << 20)  # a large buffer, freed: plain glibc raises its threshold here
del picture
before = libc.mallinfo2().hblks
layer = bytearray(1 << 20)
print(fixed, libc.mallinfo2().hblks - before)
"""


def _run(script: str, mode: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``script`` in a fresh interpreter with ``mode`` as its argument, glibc's ``MALLOC_``
    settings of this process left out and ``env`` added."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    return subprocess.run(
        [sys.executable, "-c", script, mode],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        timeout=60,
    )


def _probe(mode: str, **env: str) -> str:
    return _run(PROBE, mode, **env).stdout.strip()


def test_a_large_block_stays_mapped_after_a_larger_one_was_freed() -> None:
    assert _probe("fixed") == "True 1"


def test_without_it_glibc_puts_the_block_in_the_heap() -> None:
    """The mechanism the fix is for: the threshold rose, the block went to the heap."""
    assert _probe("plain") == "None 0"


def test_an_operators_own_threshold_is_left_as_set() -> None:
    assert _probe("fixed", MALLOC_MMAP_THRESHOLD_="4194304").startswith("False ")


GIVE_BACK = """
import asyncio
from pathlib import Path
from bot.heap import give_back_every

def rss():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024

blocks = [bytes(1000) + bytes([i % 256]) for i in range(100_000)]  # ~100 MiB of heap blocks
kept = blocks[::64]  # one live block every 64 KiB: no free run reaches the heap's top
del blocks
held = rss()

async def main():
    stop = asyncio.Event()
    task = asyncio.create_task(give_back_every(stop, every=0.01))
    await asyncio.sleep(0.2)
    stop.set()
    await task

asyncio.run(main())
print(held - rss())
"""


def test_free_heap_pages_below_a_live_block_are_given_back() -> None:
    """The bot's periodic hand-back (``malloc_trim``) returns freed heap pages that ``free``
    alone keeps: ~100 MiB freed between live blocks leave the resident set."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    done = subprocess.run(
        [sys.executable, "-c", GIVE_BACK],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**clean, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert int(done.stdout) > 50, done.stdout  # MiB given back


ARENAS = """
import ctypes, sys, threading
from bot.heap import few_arenas

shared = few_arenas() if sys.argv[1] == "few" else None
ready = threading.Barrier(7)
kept = []

def work():
    kept.append(bytearray(10_000))  # a malloc from this thread: it gets an arena
    ready.wait()  # all six alive at once, none handing its arena back
    ready.wait()

threads = [threading.Thread(target=work) for _ in range(6)]
for t in threads:
    t.start()
ready.wait()
sys.stderr.flush()
ctypes.CDLL(None).malloc_stats()  # one "Arena <n>:" paragraph per arena, on stderr
ready.wait()
for t in threads:
    t.join()
print(shared)
"""


def _arenas(mode: str, **env: str) -> tuple[str, int]:
    done = _run(ARENAS, mode, **env)
    arenas = sum(line.startswith("Arena ") for line in done.stderr.splitlines())
    return done.stdout.strip(), arenas


def test_threads_share_few_arenas() -> None:
    """Six threads allocating at once share the bot's two arenas, where plain glibc gives
    each its own (up to eight per core)."""
    assert _arenas("few") == ("True", 2)
    shared, plain = _arenas("plain")
    assert shared == "None" and plain > 2


def test_an_operators_own_arena_count_is_left_as_set() -> None:
    assert _arenas("few", MALLOC_ARENA_MAX="4") == ("False", 4)
