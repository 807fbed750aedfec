"""Opening a new SQLite store, and reading a stored time.

Run: ``.venv/bin/python benchmarks/store_open.py`` (``--opens 30``).

Printed: the median processor time of opening (and closing) a new store, made from the
new-database image (``bot.storage.sqlite._new_database_image``), and of opening one whose empty
file is already there, so every migration is applied to it (as before the image); then the
median time of reading a stored time by ``from_ts`` and by the ``strptime`` it replaced.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage.dbapi import from_ts, to_ts
from bot.storage.sqlite import SqliteStore, _new_database_image


async def _open_ms(folder: Path, opens: int, *, file_there: bool) -> float:
    """The median processor milliseconds of opening and closing a new store ``opens`` times."""
    times = []
    for i in range(opens):
        path = folder / f"{'migrated' if file_there else 'imaged'}-{i}.db"
        if file_there:
            path.touch()
        start = time.process_time()
        store = await SqliteStore.open(path)
        await store.close()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def _read_us(reader: Callable[[str], datetime], text: str) -> float:
    """The median microseconds of one read of ``text`` by ``reader`` (5 rounds of 20,000)."""
    rounds = timeit.repeat(lambda: reader(text), number=20_000, repeat=5)
    return statistics.median(rounds) / 20_000 * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--opens", type=int, default=30)
    args = parser.parse_args()
    start = time.process_time()
    _new_database_image()
    print(f"new-database image, once a process: {(time.process_time() - start) * 1000:.1f} ms")
    with tempfile.TemporaryDirectory() as folder:
        imaged = asyncio.run(_open_ms(Path(folder), args.opens, file_there=False))
        migrated = asyncio.run(_open_ms(Path(folder), args.opens, file_there=True))
    print(f"open and close a new store, median of {args.opens}:")
    print(f"  from the image          {imaged:6.1f} ms")
    print(f"  every migration applied {migrated:6.1f} ms  ({migrated / imaged:.1f}x)")
    text = to_ts(datetime(2026, 12, 3, 10, 0, 0, 123456, tzinfo=UTC))

    def by_strptime(stored: str) -> datetime:
        return datetime.strptime(stored, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)

    fast, slow = _read_us(from_ts, text), _read_us(by_strptime, text)
    print("read a stored time, median of 5 rounds of 20,000:")
    print(f"  from_ts  {fast:5.2f} us")
    print(f"  strptime {slow:5.2f} us  ({slow / fast:.1f}x)")


if __name__ == "__main__":
    main()
