"""Rating speed: one rating update (what ending a rated game adds), a full rebuild from 100 000
rated games, and the ``stats`` chart picture.

Run: ``.venv/bin/python benchmarks/ratings.py`` (``--quick`` for a short run).
Targets: an update under 0.2 ms; a rebuild of 100 000 games under 20 s (a rare admin command);
a chart under 50 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ratings import FinishedGame, Pool, Rating, Result, rebuild, update
from render.chart import rating_chart_png


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median seconds of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    quick = "--quick" in sys.argv
    rng = random.Random(18)
    a, b = Rating(mu=27.0, sigma=3.0, games=20), Rating()
    per_update = timed(lambda: update(a, b, Result.A_WINS), 200 if quick else 2000)
    print(f"update: {per_update * 1e6:.0f} µs per rated game ({1 / per_update:,.0f} per second)")

    count = 10_000 if quick else 100_000
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    pools = list(Pool)
    games = []
    for gid in range(1, count + 1):
        # 2000 players, each in about a hundred games over every pool.
        first, second = rng.sample(range(1, 2001), 2)
        games.append(
            FinishedGame(
                gid,
                rng.choice(pools),
                (first, second),
                rng.choice(list(Result)),
                t0 + timedelta(minutes=gid),
            )
        )
    start = time.perf_counter()
    out = rebuild(games)
    took = time.perf_counter() - start
    print(f"rebuild: {count:,} rated games in {took:.1f} s ({len(out.ratings):,} ratings)")

    points = [(t0 + timedelta(days=3 * i), 1500 + 60 * rng.random()) for i in range(60)]
    per_chart = timed(lambda: rating_chart_png(points, title="Maphex 9×9"), 5 if quick else 30)
    print(f"chart: {per_chart * 1000:.1f} ms per 60-point rating chart (PNG)")


if __name__ == "__main__":
    main()
