"""Picture speed, per game and size: the median time of the PNG of a mid-game position as the
first picture of a fresh process (cold: every cache cleared first); of the pictures of the (up
to) 20 moves before it in several games shown in turn, as a bot shows them (warm: each
position drawn for the first time, caches built by the moves before and two earlier games),
with the 90th percentile and the median processor time (what the load does not add); the
time to encode the finished picture alone, and its size; python-chess's SVG board rasterised
by cairosvg (the usual way a Python bot makes a board picture) at the same pixel count, timed
in the same loop, and how many times slower it is; the machine's load averages at the start
and end; and the time of a 60-ply GIF recap.  "maphex names" is Maphex 9x9 again with players
named in Japanese and Arabic with an emoji (the bundled Noto fonts, Arabic joined and right to
left): the same target.

Run: ``nice -n 15 .venv/bin/python benchmarks/render.py`` (``--quick`` for a short run).
Targets: warm pictures under 8 ms (4 ms median on a shared, loaded machine), at least 10x
faster than python-chess + cairosvg, GIF of 60 plies under 1.5 s.  python-chess and cairosvg
are not the project's dependencies (``pip install chess cairosvg``; cairosvg needs the
system's libcairo2): the line says NOT MEASURED when they are missing.

``--texts`` instead prints, per game, the smallest text of its pictures as a phone shows them
(330 dp wide in Telegram, 400 px wide in a Discord embed), over the cases of
``tests/render/phone_cases.py``.

``--gallery`` instead writes the README's pictures, ``docs/img/<game>.png``: each game at the
end of a seeded random game (the shortest of a few that ends with something to mark as won),
with the players Ada and Grace, so the pictures can be made again after any drawing change.
"""

from __future__ import annotations

import math
import os
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

#: players with names in scripts DejaVu Sans lacks (drawn in the bundled Noto fonts)
WORLD = ("山田太郎", "محمد 🎲")

# (label, game, options, mid-game ply, players)
CASES: list[tuple[str, str, dict[str, Any], int, tuple[str, str] | None]] = [
    ("maphex 9x9", "maphex", {"size": 9}, 40, None),
    ("maphex names", "maphex", {"size": 9}, 40, WORLD),
    ("maphex 16x16", "maphex", {"size": 16}, 120, None),
    ("inphexion 7x7", "inphexion", {"size": 7}, 20, None),
    ("pathagon", "pathagon", {}, 40, None),
    ("fixation", "fixation", {}, 30, None),
    ("isopath h4", "isopath", {"size": 4}, 12, None),
    ("isopath h5", "isopath", {"size": 5}, 16, None),
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


Names = tuple[str, str] | None


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


def load_text() -> str:
    """The machine's load averages (1, 5 and 15 minutes) and its number of cores."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def cold_ms(position: engines.Position, repeat: int, players: Names = None) -> float:
    """Median time of the first picture in a fresh process: every cache cleared before each."""
    times = []
    for _ in range(repeat):
        _pipeline.clear_caches()
        t = time.perf_counter()
        render.board_png(position, players=players)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def warm_and_chess(
    games: list[list[engines.Position]],
    earlier: list[list[engines.Position]],
    chess: Callable[[], bytes] | None,
    players: Names = None,
) -> tuple[list[float], list[float], list[float]]:
    """Times (ms) of the pictures of the last 20 moves of ``games`` (fewer in short games: the
    first three are drawn before), shown in turn as a bot shows games on one board, each
    position for the first time (caches warm from the moves before and from the ``earlier``
    games, drawn whole first); the processor time of each (ms: what the load does not add);
    and of a python-chess board after every fourth picture, in the same loop so both see the
    same load."""
    timed = min(20, *(len(plies) - 3 for plies in games))
    for plies in earlier:
        for position in plies:
            render.board_png(position, players=players)
    for plies in games:
        for position in plies[:-timed]:
            render.board_png(position, players=players)
    ours: list[float] = []
    cpu: list[float] = []
    theirs: list[float] = []
    for k in range(timed, 0, -1):
        for plies in games:
            c, t = time.process_time(), time.perf_counter()
            render.board_png(plies[-k], players=players)
            ours.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            if chess is not None and len(ours) % 4 == 0:
                t = time.perf_counter()
                chess()
                theirs.append((time.perf_counter() - t) * 1000)
    return ours, cpu, theirs


def main() -> None:
    if "--gallery" in sys.argv:
        gallery()
        return
    if "--texts" in sys.argv:
        texts()
        return
    quick = "--quick" in sys.argv
    n_games, cold_repeat, encode_repeat = (2, 3, 20) if quick else (6, 7, 200)
    rng = random.Random(1)
    print(f"load average at start: {load_text()}")
    cpu0, wall0 = time.process_time(), time.perf_counter()
    missing = chess_svg(100) is None
    print(
        f"{'game':<15}{'cold ms':>9}{'warm ms':>9}{'p90 ms':>8}{'cpu ms':>8}{'encode ms':>11}"
        f"{'kB':>5}"
        f"{'chess ms':>10}{'x chess':>9}"
    )
    for label, game, options, ply, players in CASES:
        if game not in engines.GAMES:
            continue
        games = [game_positions(game, options, rng, ply) for _ in range(n_games)]
        pos = games[0][-1]
        cold = cold_ms(pos, cold_repeat, players)
        image = render.board_image(pos)
        side = round(math.sqrt(image.width * image.height))
        chess = chess_svg(side)
        earlier = [game_positions(game, options, rng, ply) for _ in range(2)]
        ours, cpu, theirs = warm_and_chess(games, earlier, chess, players)
        warm = statistics.median(ours)
        p90 = statistics.quantiles(ours, n=10)[-1]
        floor = median_ms(partial(_pipeline.encode_png, image), encode_repeat)
        size = len(render.board_png(pos)) / 1000
        if theirs:
            versus = f"{statistics.median(theirs):>10.1f}{statistics.median(theirs) / warm:>9.1f}"
        else:
            versus = f"{'-':>10}{'-':>9}"
        mine = f"{cold:>9.0f}{warm:>9.2f}{p90:>8.2f}{statistics.median(cpu):>8.2f}"
        print(f"{label:<15}{mine}{floor:>11.2f}{size:>5.0f}{versus}")
    if missing:
        print(
            "x chess: NOT MEASURED, python-chess or cairosvg (or libcairo2) is not installed"
            " (pip install chess cairosvg; apt-get install libcairo2)"
        )
    else:
        print(
            "chess ms: python-chess SVG + cairosvg at the same pixel count (a square board of"
            " the picture's pixels), timed in the same loop as the warm pictures"
        )
    share = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
    print(f"load average at end: {load_text()}; this process had the CPU {share:.0%} of the time")
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
