"""Time the computer player actually uses per move at each level, with the real budgets.

Run: ``.venv/bin/python benchmarks/ai_time.py`` (``--positions 2 --levels normal,hard``; a
series trial's name such as ``hardx3`` times a level at a multiple of its budget), or
``.venv/bin/python benchmarks/ai.py --times`` (``hard`` in every game and size, the figures of
issue 49: its full search should take at most 10 s a move on a quiet 2-core machine).

For every game and board size it reaches a few middle-game positions (random legal moves
from the start, seeded) and lets each level choose a move there with its own budget
(:func:`budget_of`, or with ``--no-wall-cap`` its iterations alone: the full search),
printing the median and longest wall and processor seconds per move and the search's
figure (tree-search iterations or alpha-beta evaluations).  The wall time is capped by the
level (``hard`` 20 s, ``normal`` 3 s); the processor time is what one core spent.
``--series-plies 20,60`` times the positions of a game recorded by ``benchmarks/ai_series.py``
at those plies instead (real games, later than the random positions reach).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent))  # the scripts beside this one, after
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository

import ai_series  # the script beside this one: the players' names and their budgets

import engines
from engines.ai import think

GAMES: list[tuple[str, dict[str, object]]] = [
    ("maphex", {"size": 9}),
    ("maphex", {"size": 16}),
    ("inphexion", {"size": 5}),
    ("inphexion", {"size": 7}),
    ("inphexion", {"size": 9}),
    ("pathagon", {}),
    ("fixation", {}),
    ("isopath", {"size": 4}),
    ("isopath", {"size": 5}),
]


def positions(game: str, options: dict[str, object], count: int) -> list[engines.Position]:
    """``count`` positions of ``game`` after 8 to 20 random plies (seeded, still going)."""
    out: list[engines.Position] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        seed += 1
        pos = engines.new(game, **options)
        for _ in range(rng.randrange(8, 21)):
            if pos.outcome is not None:
                break
            pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.outcome is None:
            out.append(pos)
    return out


#: The games recorded by ``benchmarks/ai_series.py`` (its ``RESULTS``).
SERIES = Path(__file__).resolve().parent / "results" / "ai_series.jsonl"


def series_positions(
    game: str, options: dict[str, object], plies: list[int], results: Path = SERIES
) -> list[engines.Position]:
    """The positions at ``plies`` (those the game reached) of the first recorded series game
    of ``game`` at this size in which ``hard`` played: positions of real games, later than
    :func:`positions` reaches; none when no such game is recorded."""
    if not results.exists():
        return []
    with results.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if (
                record["game"] == game
                and record["options"] == options
                and "hard" in record["matchup"].split("-")
            ):
                seen = list(engines.replay(game, record["moves"], **options))
                return [seen[p] for p in plies if p < len(seen) and seen[p].outcome is None]
    return []


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=2, help="positions per game")
    parser.add_argument(
        "--levels",
        default="easy,normal,hard",
        help="comma-separated levels, or trials of a level at a multiple of its budget (hardx3)",
    )
    parser.add_argument("--only", default="", help="comma-separated games (default: all)")
    parser.add_argument(
        "--no-wall-cap",
        action="store_true",
        help="search the levels' iterations without their wall-time cap (the full search)",
    )
    parser.add_argument(
        "--series-plies",
        default="",
        help="comma-separated plies: time the positions of a recorded series game at these "
        "plies (benchmarks/results/ai_series.jsonl) instead of random ones; sizes without "
        "one are left out",
    )
    ns = parser.parse_args(argv)
    names = ns.levels.split(",")
    for name in names:
        if ai_series.level_of(name) is None:
            parser.error(f"no level {name!r}")
    series_plies = [int(p) for p in ns.series_plies.split(",") if p]
    wanted = {w for w in ns.only.split(",") if w}
    print(
        f"{'game':<15}{'level':<8}{'wall s med':>11}{'max':>7}{'cpu s med':>10}{'max':>7}"
        f"{'searched':>10}"
    )
    for game, options in GAMES:
        if wanted and game not in wanted:
            continue
        if series_plies:
            spots = series_positions(game, options, series_plies)
            if not spots:
                continue
        else:
            spots = positions(game, options, ns.positions)
        label = f"{game} {options['size']}" if "size" in options else game
        for name in names:
            budget = ai_series.budget(name, not ns.no_wall_cap, ai_series.REF_NODES, game, options)
            walls, cpus, done = [], [], []
            for i, pos in enumerate(spots):
                wall, cpu = time.perf_counter(), time.process_time()
                choice = think(
                    pos, iterations=budget["iterations"], seconds=budget["seconds"], seed=i
                )
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
                done.append(choice.iterations)
            print(
                f"{label:<15}{name:<8}{statistics.median(walls):>11.2f}{max(walls):>7.2f}"
                f"{statistics.median(cpus):>10.2f}{max(cpus):>7.2f}"
                f"{statistics.median(done):>10.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
