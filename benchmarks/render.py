"""Picture speed: median time to produce the PNG of a mid-game position, per game, next to the
median time to encode the finished picture alone (the floor no renderer can beat), their
ratio, and the time of a 60-ply GIF recap.

Run: ``.venv/bin/python benchmarks/render.py`` (``--quick`` for a short run).
Targets: under 8 ms per board, within 3x of the encode-only floor, GIF of 60 plies under 1.5 s,
and at least 10x faster than python-chess's SVG board rasterised by cairosvg (the usual way a
Python bot makes a board picture), timed here at the same pixel count when both packages are
installed (``pip install chess cairosvg``; cairosvg needs the system's libcairo2): they are
not the project's dependencies, and the line says so when they are missing.

``--texts`` instead prints, per game, the smallest text of its pictures as a phone shows them
(330 dp wide in Telegram, 400 px wide in a Discord embed), over the cases of
``tests/render/phone_cases.py``.

``--gallery`` instead writes the README's pictures, ``docs/img/<game>.png``: each game at the
end of a seeded random game (the shortest of a few that ends with something to mark as won),
with the players Ada and Grace, so the pictures can be made again after any drawing change.
"""

from __future__ import annotations

import math
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


def texts() -> None:
    """Print the smallest text of each game's pictures, as each view shows it."""
    from tests.render.phone_cases import VIEWS, cases, smallest

    least: dict[tuple[str, str], tuple[float, str, str]] = {}
    for case in cases():
        game = case.label.split(" ")[0]
        for view in VIEWS:
            size, mark = smallest(case, view)
            key = (game, view[0])
            if key not in least or size < least[key][0]:
                least[key] = (size, mark.text, case.label)
    print(f"{'game':<22}{'view':<22}{'smallest':>9}  text (case)")
    for (game, view_name), (size, text, label) in sorted(least.items()):
        unit = next(v[2] for v in VIEWS if v[0] == view_name)
        print(f"{game:<22}{view_name:<22}{size:>6.2f} {unit:<2}  {text!r} ({label})")


def chess_svg(side: int) -> Callable[[], bytes] | None:
    """python-chess's SVG board of a mid-game position with its last move, rasterised to PNG
    by cairosvg, ``side`` px square (a Hexhall picture's pixel count); ``None`` when either
    package (or libcairo2) is missing."""
    try:
        import cairosvg  # benchmark-only, not a dependency
        import chess  # benchmark-only, not a dependency
        import chess.svg
    except (ImportError, OSError):  # OSError: cairocffi finds no libcairo2
        return None
    board = chess.Board()
    for move in ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"):
        board.push_san(move)
    last = board.peek()

    def draw() -> bytes:
        svg = chess.svg.board(board, lastmove=last, size=side, coordinates=True)
        return bytes(cairosvg.svg2png(bytestring=svg.encode()))

    draw()
    return draw


def main() -> None:
    if "--gallery" in sys.argv:
        gallery()
        return
    if "--texts" in sys.argv:
        texts()
        return
    quick = "--quick" in sys.argv
    repeat = 20 if quick else 200
    rng = random.Random(1)
    chess_ms: dict[int, float] = {}
    missing = chess_svg(100) is None
    print(f"{'game':<16}{'png ms':>9}{'encode ms':>11}{'ratio':>8}{'kB':>7}{'x chess':>9}")
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
        # python-chess + cairosvg at the same pixel count: how many times slower it is.
        side = round(math.sqrt(image.width * image.height))
        chess = chess_svg(side)
        if chess is not None and side not in chess_ms:
            chess_ms[side] = median_ms(chess, max(5, repeat // 10))
        versus = f"{chess_ms[side] / total:>9.1f}" if side in chess_ms else f"{'-':>9}"
        print(f"{label:<16}{total:>9.2f}{floor:>11.2f}{total / floor:>8.2f}{size:>7.0f}{versus}")
    if missing:
        print(
            "x chess: NOT MEASURED, python-chess or cairosvg (or libcairo2) is not installed"
            " (pip install chess cairosvg; apt-get install libcairo2)"
        )
    else:
        for side, ms in sorted(chess_ms.items()):
            print(f"python-chess SVG + cairosvg, {side}x{side} px: {ms:.2f} ms per board")
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
