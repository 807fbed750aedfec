"""Fuzz the console dispatch: generated bad (and some good) lines per game, each run through the
function the console runs for a line, with every table compared before and after each refusal.

Run: ``.venv/bin/python benchmarks/fuzz.py`` (``--lines 10000`` per game by default; ``--quick``
for 500).  Prints, per game and in all: lines, refusals, accepted, exceptions, refusals that
changed rows, replies over the limits, and the first failures.  Everything goes to real SQLite
files in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines
from tests.bot.fuzz_kit import FuzzCounts, fuzz_game


def _row(name: str, c: FuzzCounts, seconds: float) -> str:
    return (
        f"{name:<10} {c.lines:>7} {c.refusals:>8} {c.accepted:>8} {c.exceptions:>10} "
        f"{c.changed_refusals:>13} {c.unbounded:>9} {seconds:>8.1f}"
    )


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000, help="generated lines per game")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--quick", action="store_true", help="500 lines per game")
    args = parser.parse_args()
    count = 500 if args.quick else args.lines
    total = FuzzCounts()
    print(
        f"{'game':<10} {'lines':>7} {'refusals':>8} {'accepted':>8} {'exceptions':>10} "
        f"{'changed rows':>13} {'unbounded':>9} {'seconds':>8}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for i, game in enumerate(engines.GAMES):
            start = time.perf_counter()
            counts = await fuzz_game(Path(folder) / f"{game}.db", game, count, args.seed + i)
            print(_row(game, counts, time.perf_counter() - start), flush=True)
            total.add(counts)
    print(_row("all", total, 0.0))
    for failure in total.failures:
        print("  !", failure)
    return 0 if not (total.exceptions or total.changed_refusals or total.unbounded) else 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
