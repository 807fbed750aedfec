"""Peak memory of the computer player's own moves per game and board size (issue 49: at most
300 MB a move at every level and size).

Run: ``nice -n 19 .venv/bin/python benchmarks/ai_memory.py`` (``--players hard --moves 4
--only isopath,maphex``), or ``benchmarks/ai.py --memory`` (``--levels`` and ``--only`` pass
through).  ``--players`` takes levels and the series' references (``padfoot3``: the
Padfoot-like player at depth 3, Iso-Path only; ``ab``: the connection games' alpha-beta), as
:func:`benchmarks.ai_series.player` names them.

Each game, size and player is measured in a fresh process (so nothing of another game is
resident): from a middle-game position (:func:`benchmarks.ai_time.positions`) the player
plays both sides for ``--moves`` moves, a level with its whole iterations (no wall cap), the
game's earlier positions given as the bot gives them.  Before each move the process's resident
high-water mark is reset (``/proc/self/clear_refs``, Linux) and its resident memory read (the move's
base: the interpreter, the engines and whatever earlier moves left resident, caches kept
across moves among them); after it the high-water mark (``VmHWM``) is the move's peak.
Printed per game and size: the resident memory before the first move, the largest base and
peak, and the most one move added (peak less base), in MB, with the processor seconds.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.append(str(HERE))  # the scripts beside this one, after the repository
sys.path.insert(0, str(HERE.parent))

import engines

#: The issue's bound on a move's peak resident memory, MB.
LIMIT_MB = 300.0
#: The games the alpha-beta reference does not play (it is for the connection games).
NO_AB = frozenset({"isopath", "fixation"})


def measure(game: str, options: dict[str, Any], name: str, moves: int) -> dict[str, Any]:
    """``name`` (a level or a reference) playing ``moves`` moves of ``game`` from a
    middle-game position, in this process: per move the base and peak resident MB and the
    processor seconds."""
    import ai_series  # the script beside this one: the players, the high-water mark readers
    import ai_time

    start = ai_series._peak_mb("VmRSS")
    pos = ai_time.positions(game, options, 1)[0]
    history: list[engines.Position] = []
    play = ai_series.player(name, 0, False, ai_series.REF_NODES, game, options)
    base, peak, cpu = [], [], []
    for _ in range(moves):
        if pos.outcome is not None:
            break
        ai_series._reset_peak()
        base.append(ai_series._peak_mb("VmRSS"))
        t = time.process_time()
        move = play(pos, history)
        cpu.append(time.process_time() - t)
        peak.append(ai_series._peak_mb())
        history.append(pos)
        pos = pos.play(move)
    return {"start": start, "base": base, "peak": peak, "cpu": cpu}


def _job(args: tuple[str, dict[str, Any], str, int]) -> dict[str, Any]:
    return measure(*args)


def main(argv: list[str] | None = None) -> None:
    import ai_time  # the script beside this one: the games and sizes

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--players", default="hard", help="comma-separated levels and references (padfoot3, ab)"
    )
    parser.add_argument("--moves", type=int, default=4, help="moves per game and size")
    parser.add_argument("--only", default="", help="comma-separated games (default: all)")
    ns = parser.parse_args(argv)
    wanted = {w for w in ns.only.split(",") if w}
    print(
        f"{'game':<15}{'player':<9}{'moves':>6}{'start MB':>9}{'base max':>9}{'peak max':>9}"
        f"{'added max':>10}{'cpu s med':>10}{'max':>7}"
    )
    over = []
    for game, options in ai_time.GAMES:
        if wanted and game not in wanted:
            continue
        label = f"{game} {options['size']}" if "size" in options else game
        for name in ns.players.split(","):
            if (name.startswith("padfoot") and game != "isopath") or (
                name == "ab" and game in NO_AB
            ):
                continue  # the reference plays other games
            # A fresh process per game, size and level: nothing else resident.
            with multiprocessing.get_context("spawn").Pool(1) as pool:
                r = pool.apply(_job, ((game, options, name, ns.moves),))
            added = max(p - b for p, b in zip(r["peak"], r["base"], strict=True))
            print(
                f"{label:<15}{name:<9}{len(r['peak']):>6}{r['start']:>9.0f}{max(r['base']):>9.0f}"
                f"{max(r['peak']):>9.0f}{added:>10.0f}{statistics.median(r['cpu']):>10.2f}"
                f"{max(r['cpu']):>7.2f}",
                flush=True,
            )
            if max(r["peak"]) > LIMIT_MB:
                over.append(f"{label} {name}")
    print(f"over {LIMIT_MB:.0f} MB: {', '.join(over) if over else 'none'}")


if __name__ == "__main__":
    main()
