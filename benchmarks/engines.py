"""Rule-engine speed: random playouts per second and median ``legal_moves()`` time per game.

Run: ``.venv/bin/python benchmarks/engines.py`` (``--quick`` for a short run).
Each game adds itself with one entry in ``CASES``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines

# (label, game, options, playout cap, mid-game ply)
CASES: list[tuple[str, str, dict[str, Any], int, int]] = [
    ("maphex 9x9", "maphex", {"size": 9}, 10_000, 40),
    ("maphex 16x16", "maphex", {"size": 16}, 10_000, 120),
    ("inphexion 7x7", "inphexion", {"size": 7}, 10_000, 20),
    ("pathagon", "pathagon", {}, 400, 40),
    ("fixation", "fixation", {}, 400, 30),
    ("isopath h4", "isopath", {"size": 4}, 400, 20),
    ("isopath h5", "isopath", {"size": 5}, 400, 20),
]


def playout(game: str, options: dict[str, Any], rng: random.Random, cap: int) -> int:
    """Play one random game from the start; return its length in plies."""
    pos = engines.new(game, **options)
    while pos.outcome is None and pos.ply < cap:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos.ply


def mid_game(game: str, options: dict[str, Any], rng: random.Random, ply: int) -> engines.Position:
    """A random position around ``ply`` that is still going on."""
    while True:
        pos = engines.new(game, **options)
        while pos.outcome is None and pos.ply < ply:
            pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.outcome is None:
            return pos


def median_legal_moves_ms(positions: list[engines.Position]) -> float:
    """Median time of ``legal_moves()`` on fresh copies (so no cache helps)."""
    times = []
    for pos in positions:
        fresh = engines.from_dict(pos.to_dict())
        t = time.perf_counter()
        fresh.legal_moves()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> None:
    quick = "--quick" in sys.argv
    seconds = 0.5 if quick else 3.0
    rng = random.Random(1)
    print(f"{'game':<22}{'playouts/s':>12}{'plies/playout':>15}{'legal_moves ms':>16}")
    for label, game, options, cap, ply in CASES:
        if game not in engines.GAMES:
            continue
        count = plies = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            plies += playout(game, options, rng, cap)
            count += 1
        rate = count / (time.perf_counter() - start)
        positions = [mid_game(game, options, rng, ply) for _ in range(20 if quick else 200)]
        lm = median_legal_moves_ms(positions)
        print(f"{label:<22}{rate:>12.0f}{plies / count:>15.1f}{lm:>16.3f}")

    # --- Iso-Path: completing a partly typed turn (a turn list can hold thousands) ---
    if "isopath" in engines.GAMES:
        print(f"\n{'isopath completions':<22}{'typed':>16}{'median ms':>12}{'max ms':>12}")
        for size in (4, 5):
            positions = [
                mid_game("isopath", {"size": size}, rng, 20) for _ in range(20 if quick else 200)
            ]
            timings: dict[str, list[float]] = {"first action": [], "first + 1 char": []}
            for pos in positions:
                turn = rng.choice(pos.legal_moves())
                first, _, second = turn.partition(" ")
                for kind, prefix in (
                    ("first action", first[:3]),
                    ("first + 1 char", f"{first} {second[:1]}"),
                ):
                    fresh = engines.from_dict(pos.to_dict())  # no cached turn list
                    t = time.perf_counter()
                    fresh.completions(prefix)
                    timings[kind].append(time.perf_counter() - t)
            for kind, times in timings.items():
                med, top = statistics.median(times) * 1000, max(times) * 1000
                print(f"{'isopath h' + str(size):<22}{kind:>16}{med:>12.3f}{top:>12.3f}")


if __name__ == "__main__":
    main()
