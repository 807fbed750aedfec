"""Computer player strength and speed: win rates and time per move for every game.

Run: ``.venv/bin/python benchmarks/ai.py`` (``--games 10 --only maphex,pathagon --workers 2``
for a reduced run; ``--help`` for every flag).  ``--draws`` prints the bot's draws on replayed
held positions instead (:mod:`benchmarks.ai_draws`, issue 49); ``--times`` the median wall and
processor seconds a move of ``hard`` in every game and board size, from middle-game positions
(:mod:`benchmarks.ai_time`: ``--times --positions 3 --levels normal,hard --no-wall-cap``);
``--ratings`` the level ratings table: a round-robin between the levels and the references in
every rating pool, rated by the bot's openskill model (:mod:`benchmarks.ai_ratings`; the flags
after ``--ratings`` are its own, ``--ratings --table`` prints the stored table, ``--write``
stores it for the bot).
``--series padfoot3,inphexion9 --games 2 --no-wall-cap --workers 1`` plays the next games of
those accumulating series and appends them to ``benchmarks/results/ai_series.jsonl``;
``--report`` prints the tables of every game recorded there (:mod:`benchmarks.ai_series`).
``--candidates`` how often the moves the searching players chose at the root in those games
are among the moves the search looks at below it (:mod:`benchmarks.ai_candidates`).
``--memory`` prints the peak resident memory of a move per game and board size, each in a
fresh process (:mod:`benchmarks.ai_memory`: ``--memory --levels hard,padfoot3 --only isopath``;
issue 49's bound is 300 MB).

For each game it plays the ``normal`` level against a uniformly random player, against a greedy
player (takes a win when it has one, avoids a move that lets the opponent win at once,
otherwise random) and ``hard`` against ``normal``.  The reference match-ups give both players
the same wall time per move (``--seconds``): ``ref-greedy`` (the one-ply greedy player),
``ref-uct`` (plain UCT with random playouts to the end), ``ref-ab`` (connection games:
iterative-deepening alpha-beta to depth 4 over every legal move, ordered by a connection
evaluation: two-distance on the hexagonal boards, plain distance on Pathagon's squares),
``ref-padfoot`` (Iso-Path: built like the jes/isopath Padfoot player, depth-2 negamax over the
best three tile moves of each kind combined with every piece move, by path costs, material and
threats: :data:`engines.ai.isopath_plan.REFERENCE`) -- each against the AI searching by time
alone.  ``normal-easy`` and ``hard-normal`` play the levels with their wall-time caps
multiplied by ``--time-scale`` and their iterations as they are (the real caps, 20 s for
``hard``, are too long for a shared machine: the scaled caps bind and keep the levels' ratios).
``easy-random`` and ``easy-greedy`` play ``easy`` with its own budget against the random and
the greedy player: a beginner's fair game is one where ``easy`` beats the random player (95 %
or more) and the greedy one (75 % or more), so that its moves have a plan beyond the one-move
tactics it shares with the greedy player.  The first two plies of every game are random (seeded
by game number) so that deterministic players meet in different games.  The AI players get
the game's earlier positions, as the bot gives them (Iso-Path's player steers away from
positions it has seen when it is ahead); the reference players do not.  Every match-up has both
seats played equally (games are dealt out game number by game number across the match-ups, so a
run stopped early, or read through ``--table-every``, has figures for all of them).  A game
still going after ``--cap`` plies is scored by the AI's evaluation (the game's
:class:`~engines.ai.knowledge.Knowledge`) and counted in the "capped" column; ``--progress``
prints that evaluation's chance for the first-named player and, against the Padfoot-like
reference, the chance by the reference's own evaluation beside it; "won" and "lost" count
the games the first-named player won or lost on the board (an outcome reached, not scored at
the cap).  The figures: win rate of the first-named player, iterations per processor second
of its search, and its median and longest time per move, in processor seconds (what one core
spends, whatever else the machine runs) and in wall seconds, and the other player's median
processor time per move.
With ``--ai-level`` (e.g. ``hard``) the reference match-ups play that level's budget instead
of ``--seconds`` (give the reference the level's wall-time cap, 20 s for ``hard``: then
both may use the same time, and the Padfoot-like reference, which stops at depth 2, uses
what it needs).
With ``--no-wall-cap`` the levels search their iterations without the wall-time cap, in
every match-up (``normal-easy`` and ``hard-normal`` too, whatever ``--time-scale``), so that
a machine busy with other work does not cut the search short.
With ``--progress --moves`` every finished game's line is followed by its moves in the
game's own notation, comma-separated, from the first ply (the random opening included), so
that a game can be replayed and studied.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines
from engines.ai import Level, alphabeta, budget_of, isopath_plan, safe_moves, think, winning_move
from engines.ai.distance import potentials
from engines.ai.hooks import knowledge_of
from engines.ai.knowledge import Knowledge
from engines.ai.mcts import search as mcts_search
from engines.inphexion import InphexionPosition
from engines.maphex import MaphexPosition
from engines.pathagon import PathagonPosition

# (label, game, options)
GAMES: list[tuple[str, str, dict[str, Any]]] = [
    ("maphex 9x9", "maphex", {"size": 9}),
    ("inphexion 7x7", "inphexion", {"size": 7}),
    ("pathagon", "pathagon", {}),
    ("fixation", "fixation", {}),
    ("isopath h4", "isopath", {"size": 4}),
]
MATCHUPS = (
    "random",
    "greedy",
    "hard",
    "ref-greedy",
    "ref-uct",
    "ref-ab",
    "ref-padfoot",
    "normal-easy",
    "hard-normal",
    "easy-random",
    "easy-greedy",
)
#: Random plies at the start of the reference and level match-ups.
OPENING = 2


@dataclass
class GameResult:
    """One game from the first-named player's side."""

    score: float  # 1 win, 0 loss, 0.5 draw
    capped: bool
    ai_times: list[float] = field(default_factory=list)  # processor seconds per AI move
    ai_walls: list[float] = field(default_factory=list)  # wall seconds per AI move
    other_times: list[float] = field(default_factory=list)  # processor s per opponent move
    ai_iterations: int = 0
    ai_seconds: float = 0.0
    game: int = 0  # the game's number (its opening and seat)
    plies: int = 0
    judged: float | None = None  # at the cap: the AI's evaluation, its chance of winning
    reference_judged: float | None = None  # at the cap: the same by the Padfoot-like reference
    moves: list[str] = field(default_factory=list)  # every ply's move, from the first


Player = Callable[[engines.Position, random.Random], str]


def _thinker(
    iterations: int | None,
    seconds: float | None,
    seed_base: int,
    out: GameResult | None,
    history: list[engines.Position],
) -> Player:
    """The AI by :func:`think` within ``iterations`` and/or ``seconds`` of wall time, its
    times and iterations recorded in ``out``."""

    def play(pos: engines.Position, rng: random.Random) -> str:
        t = time.process_time()
        wall = time.perf_counter()
        seed = rng.randrange(2**31) + seed_base
        choice = think(pos, iterations=iterations, seconds=seconds, seed=seed, history=history)
        dt = time.process_time() - t
        if out is not None:
            out.ai_times.append(dt)
            out.ai_walls.append(time.perf_counter() - wall)
            if choice.iterations:
                out.ai_iterations += choice.iterations
                out.ai_seconds += dt
        return choice.move

    return play


def _ai(
    level: Level,
    seed_base: int,
    out: GameResult | None,
    wall_cap: bool,
    history: list[engines.Position],
    share: float = 1.0,
    scale: float = 1.0,
    *,
    game: str,
    options: dict[str, Any],
) -> Player:
    """A level with ``share`` of its iterations in ``game`` with ``options`` (as the bot
    gives them there: :func:`engines.ai.budget_of`), with its wall-time cap multiplied by
    ``scale`` or (``wall_cap`` false) without one."""
    budget = budget_of(level, game, options)
    iterations = max(1, round(budget["iterations"] * share))
    seconds = budget["seconds"] * scale if wall_cap else None
    return _thinker(iterations, seconds, seed_base, out, history)


def _timed_ai(
    seconds: float, seed_base: int, out: GameResult | None, history: list[engines.Position]
) -> Player:
    """The AI searching by wall time alone (the reference match-ups)."""
    return _thinker(None, seconds, seed_base, out, history)


def _uct(seconds: float) -> Player:
    """Plain UCT: random playouts to the end, no game knowledge, no tactics."""
    plain = Knowledge()

    def play(pos: engines.Position, rng: random.Random) -> str:
        deadline = time.perf_counter() + seconds
        move, _ = mcts_search(
            pos, pos.legal_moves(), plain, rng, iterations=None, deadline=deadline
        )
        return move

    return play


def _connection_value(pos: engines.Position) -> float:
    """Seat 0's chance by connection distance: two-distance on hexagonal boards, plain
    distance on Pathagon's squares (where the two-distance is infinite)."""
    assert isinstance(pos, (MaphexPosition, InphexionPosition, PathagonPosition))
    cells, nbrs, edges = pos.cells, pos.board.neighbours, pos.edges
    sides = pos.colours if isinstance(pos, InphexionPosition) else (0, 1)
    kth = 1 if pos.game == "pathagon" else 2
    p0, p1 = potentials(cells, nbrs, (edges[sides[0]], edges[sides[1]]), sides, kth=kth)
    lead = min(p1.value, 16) - min(p0.value, 16) + (0.5 if pos.to_move == 0 else -0.5)
    return 1.0 / (1.0 + 2.718281828 ** (-0.6 * lead))


def _alphabeta_reference(seconds: float) -> Player:
    """Iterative-deepening alpha-beta to depth 4 over every legal move, connection value."""
    plan = alphabeta.Plan(_connection_value, max_depth=4)

    def play(pos: engines.Position, rng: random.Random) -> str:
        deadline = time.perf_counter() + seconds
        return alphabeta.search(pos, pos.legal_moves(), plan, deadline=deadline).move

    return play


def _padfoot_reference(seconds: float) -> Player:
    """Iso-Path like the jes/isopath Padfoot player: depth-2 negamax over few candidate turns
    (the best three tile moves of each kind with every piece move), path-cost evaluation."""

    def play(pos: engines.Position, rng: random.Random) -> str:
        deadline = time.perf_counter() + seconds
        roots = isopath_plan.reference_candidates(pos)
        return alphabeta.search(pos, roots, isopath_plan.REFERENCE, deadline=deadline).move

    return play


def _random(pos: engines.Position, rng: random.Random) -> str:
    return rng.choice(pos.legal_moves())


def _greedy(pos: engines.Position, rng: random.Random) -> str:
    win = winning_move(pos)
    return win if win is not None else rng.choice(safe_moves(pos))


def _timed(player: Player, times: list[float]) -> Player:
    """``player``, its processor time per move appended to ``times``."""

    def play(pos: engines.Position, rng: random.Random) -> str:
        t = time.process_time()
        move = player(pos, rng)
        times.append(time.process_time() - t)
        return move

    return play


def play_one(
    args: tuple[str, str, dict[str, Any], int, int, bool, float, float, float, str],
) -> tuple[str, str, GameResult]:
    """One game of match-up ``matchup``; the first-named player takes seat ``game_no % 2``."""
    label, matchup, options, game_no, cap, wall_cap, seconds, scale, hard_share, level = args
    game = next(g for lab, g, _ in GAMES if lab == label)
    ai = functools.partial(_ai, game=game, options=options)
    rng = random.Random(game_no * 7919 + MATCHUPS.index(matchup) * 100_003)
    res = GameResult(0.5, False, game=game_no)
    history: list[engines.Position] = []  # the game's earlier positions (the AI's history)
    first: Player
    opening = OPENING if "-" in matchup or matchup == "hard" else 0
    if matchup.startswith("ref-"):
        # By wall time alone, or as ``level`` (its budget; the reference gets ``seconds``).
        if level:
            first = ai(Level(level), game_no, res, wall_cap, history)
        else:
            first = _timed_ai(seconds, game_no, res, history)
    if matchup == "ref-greedy":
        second = _greedy
    elif matchup == "ref-uct":
        second = _uct(seconds)
    elif matchup == "ref-ab":
        second = _alphabeta_reference(seconds)
    elif matchup == "ref-padfoot":
        second = _padfoot_reference(seconds)
    elif matchup == "normal-easy":
        first = ai(Level.NORMAL, game_no, res, wall_cap, history, scale=scale)
        second = ai(Level.EASY, game_no + 1, None, wall_cap, history, scale=scale)
    elif matchup == "hard-normal":
        first = ai(Level.HARD, game_no, res, wall_cap, history, scale=scale)
        second = ai(Level.NORMAL, game_no + 1, None, wall_cap, history, scale=scale)
    elif matchup in ("easy-random", "easy-greedy"):
        first = ai(Level.EASY, game_no, res, wall_cap, history)
        second = _random if matchup == "easy-random" else _greedy
    elif matchup == "hard":
        first = ai(Level.HARD, game_no, res, wall_cap, history, hard_share)
        second = ai(Level.NORMAL, game_no + 1, None, wall_cap, history)
    else:
        first = ai(Level.NORMAL, game_no, res, wall_cap, history)
        second = _random if matchup == "random" else _greedy
    second = _timed(second, res.other_times)
    seat = game_no % 2
    pos = engines.new(game, **options)
    opener = random.Random(game_no // 2 * 31 + 7)  # both seats of a pair share the opening
    while pos.outcome is None and pos.ply < cap:
        if pos.ply < opening:
            move = opener.choice(pos.legal_moves())
        else:
            move = (first if pos.to_move == seat else second)(pos, rng)
        history.append(pos)
        res.moves.append(move)
        pos = pos.play(move)
    res.plies = pos.ply
    if pos.outcome is None:
        res.capped = True
        v0 = knowledge_of(pos).evaluate(pos)
        value = v0 if seat == 0 else 1 - v0
        res.score = 1.0 if value > 0.5 else 0.0 if value < 0.5 else 0.5
        res.judged = value
        if matchup == "ref-padfoot":
            # A second opinion: the reference's own evaluation (seat 0's chance).
            r0 = isopath_plan.reference_evaluate(pos)
            res.reference_judged = r0 if seat == 0 else 1 - r0
    else:
        winner = pos.outcome.winner
        res.score = 0.5 if winner is None else (1.0 if winner == seat else 0.0)
    return label, matchup, res


def _cap_note(res: GameResult) -> str:
    """How a capped game was judged: the AI's chance by its evaluation and, against the
    Padfoot-like reference, its chance by the reference's own evaluation."""
    if not res.capped:
        return ""
    note = f", capped: the AI's evaluation {res.judged:.2f}"
    if res.reference_judged is not None:
        note += f", the reference's {res.reference_judged:.2f}"
    return note


def fits(game: str, matchup: str) -> bool:
    """Whether ``matchup`` is played in ``game`` (the alpha-beta reference in the connection
    games, the Padfoot-like one in Iso-Path)."""
    if matchup == "ref-ab":
        return game in ("maphex", "inphexion", "pathagon")
    if matchup == "ref-padfoot":
        return game == "isopath"
    return True


def main() -> None:
    if "--ratings" in sys.argv[1:]:
        import ai_ratings  # the script beside this one

        ai_ratings.main([a for a in sys.argv[1:] if a != "--ratings"])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=50, help="games per match-up (even)")
    parser.add_argument(
        "--hard-games", type=int, default=None, help="games of hard vs normal (default --games)"
    )
    parser.add_argument(
        "--no-wall-cap",
        action="store_true",
        help="search the levels' iterations without their wall-time cap (on a machine shared "
        "with other work the cap would cut the search short; the time columns are processor "
        "time either way)",
    )
    parser.add_argument(
        "--hard-share",
        type=float,
        default=1.0,
        help="share of hard's iterations in the hard match-up (with --no-wall-cap: a hard "
        "that beats normal with a quarter of its budget is a lower bound for the real one)",
    )
    parser.add_argument(
        "--only", default="", help="comma-separated games, e.g. maphex,isopath (default: all)"
    )
    parser.add_argument(
        "--matchups", default=",".join(MATCHUPS), help="comma-separated: random,greedy,hard"
    )
    parser.add_argument(
        "--first",
        type=int,
        default=None,
        help="the first game number (a later run with --first N adds games, not repeats;"
        " default 0, and with --series after the series' last game)",
    )
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--seconds", type=float, default=0.25, help="wall seconds per move, reference match-ups"
    )
    parser.add_argument(
        "--ai-level",
        choices=[lv.value for lv in Level],
        default="",
        help="reference match-ups: the AI plays this level's budget (with --no-wall-cap its "
        "evaluations or iterations alone) instead of --seconds; the reference keeps --seconds",
    )
    parser.add_argument(
        "--time-scale",
        type=float,
        default=0.05,
        help="wall-time cap factor of the level match-ups",
    )
    parser.add_argument("--cap", type=int, default=300, help="plies before a game is scored")
    parser.add_argument("--progress", action="store_true", help="print every finished game")
    parser.add_argument(
        "--moves", action="store_true", help="with --progress: print every finished game's moves"
    )
    parser.add_argument(
        "--table-every", type=int, default=0, help="also print the table every N finished games"
    )
    parser.add_argument(
        "--draws", action="store_true", help="the bot's draws on replayed held positions"
    )
    parser.add_argument(
        "--ratings",
        action="store_true",
        help="the level ratings table (benchmarks/ai_ratings.py; its flags follow)",
    )
    parser.add_argument(
        "--times",
        action="store_true",
        help="seconds a move per game and size (benchmarks/ai_time.py; --positions N, "
        "--levels L, --no-wall-cap pass through)",
    )
    parser.add_argument("--positions", type=int, default=3, help="--times: positions per game")
    parser.add_argument("--levels", default="hard", help="--times: comma-separated levels")
    parser.add_argument(
        "--series-plies",
        default="",
        help="--times: the positions of a recorded series game at these plies (e.g. 20,60)",
    )
    parser.add_argument(
        "--series",
        default="",
        help="comma-separated accumulating series (benchmarks/ai_series.py --list; --games, "
        "--first, --no-wall-cap and --workers pass through; the games are recorded)",
    )
    parser.add_argument(
        "--report", action="store_true", help="the tables of the recorded series games"
    )
    parser.add_argument(
        "--candidates",
        action="store_true",
        help="how often the recorded series' searching players chose a move among the "
        "candidates below the root (benchmarks/ai_candidates.py; --only passes through)",
    )
    parser.add_argument(
        "--memory",
        action="store_true",
        help="peak memory a move per game and size (benchmarks/ai_memory.py; --levels, which "
        "may name a reference such as padfoot3, and --only pass through)",
    )
    ns = parser.parse_args()
    if ns.memory:
        import ai_memory  # the script beside this one

        only = ["--only", ns.only] if ns.only else []
        ai_memory.main(["--players", ns.levels, *only])
        return
    if ns.candidates:
        import ai_candidates  # the script beside this one

        ai_candidates.main(["--games", ns.only] if ns.only else [])
        return
    if ns.series or ns.report:
        import ai_series  # the script beside this one

        chosen = [s for s in ns.series.split(",") if s]
        extra = ["--no-wall-cap"] if ns.no_wall_cap else []
        extra += ["--first", str(ns.first)] if ns.first is not None else []
        extra += ["--report"] if ns.report else []
        ai_series.main([*chosen, "--games", str(ns.games), "--workers", str(ns.workers), *extra])
        return
    if ns.times:
        import ai_time  # the script beside this one

        extra = ["--no-wall-cap"] if ns.no_wall_cap else []
        only = ["--only", ns.only] if ns.only else []
        extra += ["--series-plies", ns.series_plies] if ns.series_plies else []
        ai_time.main(["--positions", str(ns.positions), "--levels", ns.levels, *only, *extra])
        return
    if ns.draws:
        import ai_draws  # the script beside this one

        ai_draws.main([])
        return
    wanted = {w for w in ns.only.split(",") if w}
    matchups = [m for m in ns.matchups.split(",") if m]
    # Game by game number across every match-up, so that a run stopped early (or read
    # through --table-every) has figures for all of them.
    hard_games = ns.games if ns.hard_games is None else ns.hard_games
    first = ns.first or 0
    jobs = [
        (
            label,
            matchup,
            options,
            n,
            ns.cap,
            not ns.no_wall_cap,
            ns.seconds,
            ns.time_scale,
            ns.hard_share,
            ns.ai_level,
        )
        for n in range(first, first + max(ns.games, hard_games))
        for label, game, options in GAMES
        if not wanted or game in wanted
        for matchup in matchups
        if n - first < (hard_games if matchup == "hard" else ns.games) and fits(game, matchup)
    ]
    print(f"budgets: {', '.join(f'{lv.value} {budget_of(lv)}' for lv in Level)}")
    print(
        f"{len(jobs)} games on {ns.workers} worker(s), cap {ns.cap} plies, "
        f"wall-time cap {'off' if ns.no_wall_cap else 'on'}, hard's share {ns.hard_share}",
        flush=True,
    )
    start = time.perf_counter()
    results: dict[tuple[str, str], list[GameResult]] = {}
    with multiprocessing.Pool(ns.workers) as pool:
        for done, (label, matchup, res) in enumerate(pool.imap_unordered(play_one, jobs), 1):
            results.setdefault((label, matchup), []).append(res)
            if ns.progress:
                print(
                    f"  {label} {matchup} game {res.game}: {res.score} "
                    f"({len(res.ai_times)} AI moves, {res.plies} plies{_cap_note(res)})",
                    flush=True,
                )
                if ns.moves:
                    print(f"    moves: {', '.join(res.moves)}", flush=True)
            if ns.table_every and done % ns.table_every == 0 and done < len(jobs):
                print(f"after {done} games, {time.perf_counter() - start:.0f} s:")
                print_table(results, matchups)
    print_table(results, matchups)
    print(f"total {time.perf_counter() - start:.0f} s")


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a win rate of ``wins`` in ``games``."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * ((p * (1 - p) + z * z / (4 * games)) / games) ** 0.5
    denominator = 1 + z * z / games
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


def print_table(results: dict[tuple[str, str], list[GameResult]], matchups: list[str]) -> None:
    """The figures of every match-up played so far."""
    names = {
        "random": "normal vs random",
        "greedy": "normal vs greedy",
        "hard": "hard vs normal",
        "ref-greedy": "AI vs greedy",
        "ref-uct": "AI vs UCT",
        "ref-ab": "AI vs alphabeta",
        "ref-padfoot": "AI vs padfoot",
        "normal-easy": "normal vs easy*",
        "hard-normal": "hard vs normal*",
        "easy-random": "easy vs random",
        "easy-greedy": "easy vs greedy",
    }
    print(
        f"{'game':<15}{'match-up':<18}{'games':>6}{'win %':>7}{'95 % interval':>15}{'capped':>7}"
        f"{'won':>5}{'lost':>5}"
        f"{'it/s':>7}{'cpu s/move med':>15}{'max':>7}{'wall s/move med':>16}{'max':>7}"
        f"{'other cpu med':>14}"
    )
    for label, _, _ in GAMES:
        for matchup in matchups:
            rs = results.get((label, matchup))
            if not rs:
                continue
            win = 100 * sum(r.score for r in rs) / len(rs)
            low, high = wilson(sum(r.score for r in rs), len(rs))
            capped = sum(r.capped for r in rs)
            # Games decided on the board (outcome reached, not scored at the cap).
            won = sum(1 for r in rs if not r.capped and r.score == 1.0)
            lost = sum(1 for r in rs if not r.capped and r.score == 0.0)
            times = [t for r in rs for t in r.ai_times]
            walls = [t for r in rs for t in r.ai_walls]
            others = [t for r in rs for t in r.other_times] or [0.0]
            its = sum(r.ai_iterations for r in rs) / max(1e-9, sum(r.ai_seconds for r in rs))
            if not times:
                continue
            print(
                f"{label:<15}{names[matchup]:<18}{len(rs):>6}{win:>7.1f}"
                f"{f'{100 * low:.0f}-{100 * high:.0f}':>15}{capped:>7}{won:>5}{lost:>5}"
                f"{its:>7.0f}{statistics.median(times):>15.3f}{max(times):>7.2f}"
                f"{statistics.median(walls):>16.3f}{max(walls):>7.2f}"
                f"{statistics.median(others):>14.3f}"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
