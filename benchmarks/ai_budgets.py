"""Computer player A/B at deterministic budgets: the same moves on any machine, however busy.

Run: ``.venv/bin/python benchmarks/ai_budgets.py levels inphexion normal easy --games 6``
(a level pair at the levels' iteration budgets, without their wall-time caps) or
``.venv/bin/python benchmarks/ai_budgets.py padfoot --nodes 1500 --games 4`` (Iso-Path h4: the
hard plan, :data:`engines.ai.isopath_plan.HARD`, searching ``--nodes`` evaluations a move
against the Padfoot-like reference, :data:`engines.ai.isopath_plan.REFERENCE`, which always
finishes its depth-2 search).  ``--first N`` starts at game number ``N`` (to extend a run
without replaying it).

Seats alternate (game ``n``: the first-named player takes seat ``n % 2``); the first two plies
are random, seeded by the pair of games.  A game still going after ``--cap`` plies is printed
as capped with both evaluations of the position (the knowledge's, which
``benchmarks/ai.py`` scores capped games by, and the hard plan's) and counts half; the last
turns of each game are printed, to see who shuffles.  Use it for comparing changes; the
closing figures are at equal wall time (``benchmarks/ai.py``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines
from engines.ai import Level, alphabeta, budget_of, isopath_plan, isopath_search, think
from engines.ai.hooks import knowledge_of

Player = Callable[[engines.Position], str]

OPTIONS: dict[str, dict[str, int]] = {"maphex": {"size": 9}, "inphexion": {"size": 7}}


def level_player(level: Level, seed: int, game: str) -> Player:
    """``level`` searching its iterations in ``game`` (on its board here: :data:`OPTIONS`),
    no wall-time cap (seeded by game and ply)."""
    iterations = budget_of(level, game, OPTIONS.get(game, {}))["iterations"]
    return lambda pos: think(pos, iterations=iterations, seed=seed * 1000 + pos.ply).move


def isopath_player(plan: alphabeta.Plan, nodes: int) -> Player:
    """An Iso-Path plan's alpha-beta over its candidate turns, ``nodes`` evaluations a move."""

    def play(pos: engines.Position) -> str:
        if plan.own_search is not None:
            return plan.own_search(pos, nodes, None)[0]
        roots = plan.candidates(pos) if plan.candidates is not None else pos.legal_moves()
        first = pos.play(roots[0]).outcome
        if first is not None and first.winner == pos.to_move:
            return roots[0]
        return alphabeta.search(pos, roots, plan, nodes=nodes).move

    return play


def play(game: str, first: Player, second: Player, n: int, cap: int) -> tuple[float, str]:
    """Game ``n`` from the first player's side: its score and a line describing it."""
    seat = n % 2
    pos = engines.new(game, **OPTIONS.get(game, {}))
    opener = random.Random(n // 2 * 31 + 7)
    while pos.outcome is None and pos.ply < 2:
        pos = pos.play(opener.choice(pos.legal_moves()))
    turns: list[str] = []
    while pos.outcome is None and pos.ply < cap:
        move = (first if pos.to_move == seat else second)(pos)
        turns.append(move)
        pos = pos.play(move)
    tail = " | ".join(turns[-6:])
    if pos.outcome is None:
        known = knowledge_of(pos).evaluate(pos)
        line = f"capped, knowledge {known if seat == 0 else 1 - known:.2f}"
        if game == "isopath":
            plan = isopath_plan.evaluate(pos)
            line += f", hard plan {plan if seat == 0 else 1 - plan:.2f}"
            own = isopath_search.evaluate(pos) * (1 if pos.to_move == seat else -1)
            line += f", hard search {own:.0f}"
        return 0.5, f"{line}; last: {tail}"
    winner = pos.outcome.winner
    score = 0.5 if winner is None else 1.0 if winner == seat else 0.0
    return score, f"{score} at ply {pos.ply} ({pos.outcome.termination}); last: {tail}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("matchup", choices=("levels", "padfoot"))
    parser.add_argument("game", nargs="?", default="isopath", help="levels: the game")
    parser.add_argument("higher", nargs="?", default="normal", help="levels: the higher level")
    parser.add_argument("lower", nargs="?", default="easy", help="levels: the lower level")
    parser.add_argument("--nodes", type=int, default=1500, help="padfoot: hard's evaluations")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--first", type=int, default=0, help="the first game number")
    parser.add_argument("--cap", type=int, default=150, help="plies before a game is capped")
    ns = parser.parse_args()
    total = 0.0
    for n in range(ns.first, ns.first + ns.games):
        start = time.process_time()
        if ns.matchup == "levels":
            label = f"{ns.game} {ns.higher} vs {ns.lower}"
            first = level_player(Level(ns.higher), n, ns.game)
            second = level_player(Level(ns.lower), n + 1, ns.game)
            score, line = play(ns.game, first, second, n, ns.cap)
        else:
            label = f"isopath hard plan at {ns.nodes} evaluations vs padfoot-like"
            first = isopath_player(isopath_plan.HARD, ns.nodes)
            second = isopath_player(isopath_plan.REFERENCE, 10**6)
            score, line = play("isopath", first, second, n, ns.cap)
        total += score
        cpu = time.process_time() - start
        print(f"{label}, game {n} seat {n % 2}: {line} ({cpu:.0f} cpu s)", flush=True)
    print(f"{label}: {total:g} of {ns.games}")


if __name__ == "__main__":
    main()
