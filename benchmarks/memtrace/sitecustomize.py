"""Loaded by a ``hexhall run`` started with this folder on ``PYTHONPATH`` (see
:mod:`benchmarks.memory`, ``--trace``): when ``HEXHALL_TRACEMALLOC`` names a folder, tracing of
Python allocations starts at once and every ``SIGUSR1`` writes a snapshot there
(``snap-<n>.pickle``, then ``snap-<n>.done``), to be diffed with ``benchmarks/memtrace/diff.py``.
"""

from __future__ import annotations

import gc
import os
import signal
import tracemalloc
from pathlib import Path
from types import FrameType

_FOLDER = os.environ.get("HEXHALL_TRACEMALLOC")
_COUNT = [0]


def _dump(signum: int, frame: FrameType | None) -> None:
    assert _FOLDER is not None
    gc.collect()
    _COUNT[0] += 1
    path = Path(_FOLDER) / f"snap-{_COUNT[0]}.pickle"
    tracemalloc.take_snapshot().dump(str(path))
    path.with_suffix(".done").write_text("")


if _FOLDER:
    tracemalloc.start(int(os.environ.get("HEXHALL_TRACEMALLOC_FRAMES", "1")))
    signal.signal(signal.SIGUSR1, _dump)
