"""How often the move a searching player chose at the root is among the moves its plan's
search looks at below the root (issue 49).

At the root the alpha-beta levels (``normal`` and ``hard``) and the alpha-beta reference search
every legal move; below it a plan with ``candidates`` looks at those alone.  A move the players
choose at the root that the candidates leave out is a reply the deeper plies never see: the
search then believes lines its opponent answers.  Over the games recorded by
``benchmarks/ai_series.py`` this prints, per game and size, the positions where such a player
moved, the share of its moves among the candidates there and the candidates' mean number.
Of the alpha-beta plans Pathagon's prunes below the root by its candidates, and Iso-Path's own
search by its one look (:func:`engines.ai.isopath_search.below_root`: the best few of its
candidate turns by the evaluation after each, and the threatening steps); inpHeXion's and Lines
of Fixation's look at every move.

Run: ``.venv/bin/python benchmarks/ai_candidates.py`` (``--results FILE``, ``--games
pathagon,isopath``).  The moves are the recorded players', so the figure says how well the
candidates cover what those players prefer, not what is best.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent))  # the scripts beside this one, after
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository

import ai_series  # the script beside this one: the results file and its reader

import engines
from engines.ai import isopath_search
from engines.ai.alphabeta import Plan
from engines.ai.hooks import plan_of
from engines.base import Position

#: The recorded players that search every legal move at the root.
FULL_WIDTH = frozenset({"normal", "hard", "ab"})


#: The games whose own search prunes below the root otherwise than by its plan's candidates.
OWN_BELOW_ROOT: dict[str, Callable[[Position], list[str]]] = {
    "isopath": isopath_search.below_root,
}


def below_root(game: str, plan: Plan | None) -> Callable[[Position], list[str]] | None:
    """What ``game``'s search looks at below the root, when it prunes there."""
    if game in OWN_BELOW_ROOT:
        return OWN_BELOW_ROOT[game]
    if plan is None or plan.candidates is None or plan.own_search or plan.root_candidates:
        return None
    return plan.candidates


def coverage(records: list[dict[str, Any]], games: set[str] | None = None) -> dict[str, list[int]]:
    """Per series label, ``[positions, moves among the candidates, candidates in all]`` over
    the moves of :data:`FULL_WIDTH` players after each game's random opening, in the games whose
    search prunes below the root (``games``: only those)."""
    found: dict[str, list[int]] = {}
    for r in records:
        if games is not None and r["game"] not in games:
            continue
        below = below_root(r["game"], plan_of(r["game"]))
        if below is None:
            continue
        names = r["matchup"].split("-", 1)
        counts = found.setdefault(r["label"], [0, 0, 0])
        positions = engines.replay(r["game"], r["moves"][:-1], **r["options"])
        for ply, pos in enumerate(positions):
            who = names[0] if pos.to_move == r["seat"] else names[1]
            if ply < r["opening"] or who not in FULL_WIDTH:
                continue
            candidates = below(pos)
            counts[0] += 1
            counts[1] += r["moves"][ply] in candidates
            counts[2] += len(candidates)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--results", type=Path, default=ai_series.RESULTS, help="the series' results"
    )
    parser.add_argument("--games", default="", help="only these games (comma-separated)")
    ns = parser.parse_args(argv)
    records = ai_series.read(ns.results)
    games = {g for g in ns.games.split(",") if g} or None
    print(f"{'size':<15}{'positions':>10}{'among the candidates':>22}{'candidates mean':>17}")
    for label, (positions, among, total) in coverage(records, games).items():
        if positions:
            share = f"{among} ({100 * among / positions:.0f} %)"
            print(f"{label:<15}{positions:>10}{share:>22}{total / positions:>17.1f}")


if __name__ == "__main__":
    main()
