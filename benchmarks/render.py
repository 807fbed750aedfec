"""Picture speed: median time to produce the PNG of a mid-game position, per game, next to the
median time to encode the finished picture alone (the floor no renderer can beat), their
ratio, and the time of a 60-ply GIF recap.

Run: ``.venv/bin/python benchmarks/render.py`` (``--quick`` for a short run).
Targets: under 8 ms per board, within 3x of the encode-only floor, GIF of 60 plies under 1.5 s.

``--gallery`` instead writes the README's pictures, ``docs/img/<game>.png``: each game at the
end of a seeded random game (the shortest of a few that ends with something to mark as won),
with the players Ada and Grace, so the pictures can be made again after any drawing change.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines
import render
from render import _pipeline

# (label, game, options, mid-game ply)
CASES: list[tuple[str, str, dict[str, Any], int]] = [
    ("maphex 9x9", "maphex", {"size": 9}, 40),
    ("maphex 16x16", "maphex", {"size": 16}, 120),
    ("inphexion 7x7", "inphexion", {"size": 7}, 20),
    ("pathagon", "pathagon", {}, 40),
    ("fixation", "fixation", {}, 30),
    ("isopath h4", "isopath", {"size": 4}, 12),
    ("isopath h5", "isopath", {"size": 5}, 16),
]


def game_positions(
    game: str, options: dict[str, Any], rng: random.Random, plies: int
) -> list[engines.Position]:
    """The positions of a random game, restarted until it lasts ``plies`` plies."""
    while True:
        pos = engines.new(game, **options)
        seen = [pos]
        while pos.outcome is None and len(seen) <= plies:
            pos = pos.play(rng.choice(pos.legal_moves()))
            seen.append(pos)
        if len(seen) > plies:
            return seen[: plies + 1]


def median_ms(func: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``func()`` in milliseconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        func()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


#: the README's pictures: game, options, seeds tried (the shortest finished game is drawn)
GALLERY: list[tuple[str, dict[str, Any], range]] = [
    ("maphex", {}, range(8)),
    ("inphexion", {}, range(8)),
    ("pathagon", {}, range(8)),
    ("fixation", {}, range(8)),
    ("isopath", {}, range(8)),
]
DOCS = Path(__file__).resolve().parent.parent / "docs" / "img"


def finished_game(game: str, options: dict[str, Any], seed: int) -> engines.Position:
    """The last position of a random game of ``game`` played with ``seed``."""
    rng = random.Random(seed)
    pos = engines.new(game, **options)
    while pos.outcome is None:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def gallery() -> None:
    """Write ``docs/img/<game>.png``: a finished game of each, its winner marked."""
    for game, options, seeds in GALLERY:
        ends = [finished_game(game, options, seed) for seed in seeds]
        marked = [p for p in ends if getattr(p, "winning_cells", None)]
        final = min(marked or ends, key=lambda p: p.ply)
        path = DOCS / f"{game}.png"
        path.write_bytes(render.board_png(final, players=("Ada", "Grace")))
        print(f"{path.relative_to(DOCS.parent.parent)}: {render.describe(final)[-70:]}")


def main() -> None:
    if "--gallery" in sys.argv:
        gallery()
        return
    quick = "--quick" in sys.argv
    repeat = 20 if quick else 200
    rng = random.Random(1)
    print(f"{'game':<16}{'png ms':>9}{'encode ms':>11}{'ratio':>8}{'kB':>7}")
    for label, game, options, ply in CASES:
        if game not in engines.GAMES:
            continue
        positions = game_positions(game, options, rng, ply)
        pos = positions[-1]
        render.board_png(pos)  # the first picture of a board shape builds its caches
        total = median_ms(partial(render.board_png, pos), repeat)
        image = render.board_image(pos)
        floor = median_ms(partial(_pipeline.encode_png, image), repeat)
        size = len(render.board_png(pos)) / 1000
        print(f"{label:<16}{total:>9.2f}{floor:>11.2f}{total / floor:>8.2f}{size:>7.0f}")
    for game, options in (("maphex", {}), ("pathagon", {}), ("isopath", {"size": 4})):
        if game not in engines.GAMES:
            continue
        positions = game_positions(game, options, rng, 60)
        render.game_gif(positions[:2])
        t = time.perf_counter()
        data = render.game_gif(positions)
        took = time.perf_counter() - t
        print(f"GIF {game}, {len(positions) - 1} plies: {took:.2f} s, {len(data) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
