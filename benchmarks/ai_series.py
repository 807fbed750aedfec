"""Computer player series that accumulate across sessions (issue 49): per board size and
opening, and ``hard`` against a Padfoot-like player searching one ply deeper than its web
default.  Every finished game appends one line to a results file, and ``--report`` prints the
tables from everything recorded so far.

Run: ``nice -n 19 .venv/bin/python benchmarks/ai_series.py padfoot3 inphexion9 --games 4
--no-wall-cap`` (or ``benchmarks/ai.py --series padfoot3,inphexion9 ...``) plays the next 4
games of each match-up of those series, one worker, and appends them to
``benchmarks/results/ai_series.jsonl``; ``--report`` prints the tables.  A run goes on from
the highest game number already recorded for each series and match-up (``--first N`` to start
elsewhere), so a later session adds games instead of repeating them; ``--matchups
hard-normal`` plays only those match-ups of the series.  ``--list`` names the series.

The series (:data:`SERIES`): ``padfoot3`` (Iso-Path h4, ``hard`` against the Padfoot-like
reference at depth 3, one ply deeper than the jes/isopath web default of depth 2), and per
size ``inphexion9``, ``maphex16``, ``isopath5``, ``pathagon-standard`` (no random plies),
``pathagon`` (the first two plies random) and ``inphexion5``, and the default sizes
``maphex9``, ``inphexion7``, ``fixation`` and ``isopath4``, each with ``normal`` against
``easy``, ``hard`` against ``normal`` and ``hard`` against the game's reference (the
alpha-beta of ``benchmarks/ai.py`` in the connection games, searching ``--ref-nodes``
evaluations a move; the depth-2 Padfoot-like player in Iso-Path h5; none in Iso-Path h4,
whose reference series is ``padfoot3``, nor in Lines of Fixation); ``pathagon-standard``
also plays ``hard`` against ``abtie``, that alpha-beta playing, of the root moves it finds
equal, one chosen by the game's seed (from one fixed opening the levels and ``ab`` choose
alike every game, so only ``abtie``'s games differ).  A series' trials are match-ups of an
experiment, played only when ``--matchups`` names them: ``hardx3`` is ``hard`` at three times
its budget, ``hardx2`` at twice (:func:`level_of`).  A level searches the budget the bot gives
it on the series' board (:func:`engines.ai.budget_of`: Iso-Path's ``hard`` twice its
iterations), and its games count as its own only at that budget (:func:`current`).  Seats
alternate (game ``n``: the first-named player takes seat ``n % 2``); both games of a pair
share their random first plies.  The levels search their whole iterations
(``--no-wall-cap``: no wall-time cap, so a busy machine does not change their strength; the
time figures are processor seconds).

Every game ends with a result: by the rules, or by the bot's no-progress rules
(:mod:`engines.ai.draws`): after :data:`~engines.ai.draws.OFFER_AFTER` plies without progress
the side that just moved offers a draw, accepted by a level when :func:`engines.ai.draws.held`
says the game is held for it and by a reference when its own evaluation does not give it more
than one half plus :data:`~engines.ai.draws.HELD_MARGIN`; after
:data:`~engines.ai.draws.CLAIM_AFTER` plies without progress the draw is claimed.  A game
still going after ``--cap`` plies (a safety net, not a rule) is recorded as not finished.

A game stopped before its end (the run killed: a session's time is up) is not lost: after
every ply the game so far is written to a file of its own in ``ai_series_unfinished/``
beside the results file (:func:`save_unfinished`, replaced whole, so a kill leaves the last
ply's), and the next run of that game (``--first N --games 1``, or the next game in turn)
goes on from there rather than from its start (:func:`play_game`); the players keep nothing
between moves but what the positions and the seed give them, so the game goes on as it
would have.  Its record lists the plies it went on from (``resumed``); ``--report`` names
the games in progress.  The file says the build that played it last (``commit``, ``date``):
a game begun by its game's earlier computer player (:data:`PLAYER_CHANGES`) is not gone on
with at a later build but played afresh, as no half of it would count.

Series played side by side in other checkouts (worktrees, one build each) come together
with ``--merge THEIRS.jsonl ...``: each game recorded there and not here is added, in the
order played (:func:`merge`; running it again adds nothing).

A line of the results file: the date, the commit, the series, game, options, opening,
match-up, game number and the first-named player's seat, its score (1, 0, one half; ``null``
when not finished) and how the game ended, the plies, and for each side its processor seconds
and peak resident memory (MB) of every move, the budgets used and the machine's load average
at the end.  The peak of a move is the
process's resident high-water mark (``VmHWM``) after the move, reset before it; one game runs
in a fresh process, so a move's peak includes the interpreter and what both players' earlier
moves left resident (Python keeps freed memory), recorded as the move's base (``VmRSS`` at its
start): the peak less the base is what the move itself added.  Each move's player gets the
game's positions replayed afresh, as the bot's search worker does (before 2026-12-03 evening
the series kept every position, with the legal turns a move had listed on it: an Iso-Path h5
game's base grew to 359 MB so).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import functools
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.append(str(HERE))  # the scripts beside this one, after the repository
sys.path.insert(0, str(HERE.parent))

import engines
from engines.ai import Level, alphabeta, budget_of, isopath_plan, think
from engines.ai.draws import CLAIM_AFTER, HELD_MARGIN, OFFER_AFTER, held
from engines.ai.hooks import player_of

#: The results file every series appends to.
RESULTS = HERE / "results" / "ai_series.jsonl"
#: Depth of the Padfoot-like reference in the web default, and one ply deeper.
PADFOOT_DEPTH = 2
PADFOOT_DEEPER = PADFOOT_DEPTH + 1
#: Evaluations a move of the alpha-beta reference (connection games), unless ``--ref-nodes``.
REF_NODES = 50_000
#: Evaluations the Padfoot-like reference may use: enough to always finish its depth.
PADFOOT_NODES = 10**7


@dataclass(frozen=True)
class Change:
    """A game's computer player changed at ``commit``, on ``date`` (ISO, UTC)."""

    date: str
    commit: str


#: When each game's computer player last changed: that game's records played at an earlier
#: build were played by its predecessor, and the report and the ratings keep them apart
#: (:func:`current`).
PLAYER_CHANGES = {
    # Pathagon's candidates below the root by both sides' shortest paths.
    "pathagon": Change("2026-12-04T14:45:56+00:00", "7084ed1"),
    # Iso-Path: the root searches different steps deeper (a turn with the step and the
    # score of a better one goes after the others; before, since c57f14b on 2026-12-06 02:15,
    # a node's few turns held different steps, the root not yet).
    "isopath": Change("2026-12-06T05:09:13+00:00", "3e4896f"),
}
#: The levels' names (the other players are references).
LEVELS = frozenset(lv.value for lv in Level)
#: Plies after which a game is recorded as not finished (a safety net).
CAP = 1000
#: The folder, beside a results file, of the games in progress (one file each).
UNFINISHED = "ai_series_unfinished"


@dataclass(frozen=True)
class Series:
    """A series: a game at a size, its random first plies and its match-ups
    (``first-second``, each a level or a reference name)."""

    label: str
    game: str
    options: dict[str, int]
    opening: int
    matchups: tuple[str, ...]
    #: match-ups of an experiment, played only when ``--matchups`` names them
    trials: tuple[str, ...] = ()

    @property
    def playable(self) -> tuple[str, ...]:
        """The series' match-ups, then its trials: a match-up's place here seeds its players."""
        return (*self.matchups, *self.trials)


LEVEL_PAIRS = ("normal-easy", "hard-normal")
SERIES: dict[str, Series] = {
    "padfoot3": Series(
        "isopath h4",
        "isopath",
        {"size": 4},
        2,
        (f"hard-padfoot{PADFOOT_DEEPER}",),
        (f"hardx3-padfoot{PADFOOT_DEEPER}", f"hardx2-padfoot{PADFOOT_DEEPER}"),
    ),
    "inphexion9": Series("inphexion 9x9", "inphexion", {"size": 9}, 2, (*LEVEL_PAIRS, "hard-ab")),
    "maphex16": Series("maphex 16x16", "maphex", {"size": 16}, 2, (*LEVEL_PAIRS, "hard-ab")),
    "isopath5": Series(
        "isopath h5",
        "isopath",
        {"size": 5},
        2,
        (*LEVEL_PAIRS, f"hard-padfoot{PADFOOT_DEPTH}"),
        ("hardx3-normal", "hardx2-normal", f"hardx2-padfoot{PADFOOT_DEPTH}"),
    ),
    # From the standard opening the levels and ``ab`` choose alike whatever the seed, so
    # their games repeat; ``abtie`` plays a different one of its equal moves each game.
    "pathagon-standard": Series(
        "pathagon", "pathagon", {}, 0, (*LEVEL_PAIRS, "hard-ab", "hard-abtie")
    ),
    "inphexion5": Series("inphexion 5x5", "inphexion", {"size": 5}, 2, (*LEVEL_PAIRS, "hard-ab")),
    "pathagon": Series("pathagon", "pathagon", {}, 2, (*LEVEL_PAIRS, "hard-ab")),
    # The default sizes, so their level ratings rest on games at the levels' full budgets
    # (their pools' round-robins of 2026-12-02 ran at shortened times).
    "maphex9": Series("maphex 9x9", "maphex", {"size": 9}, 2, (*LEVEL_PAIRS, "hard-ab")),
    "inphexion7": Series("inphexion 7x7", "inphexion", {}, 2, (*LEVEL_PAIRS, "hard-ab")),
    "fixation": Series("fixation", "fixation", {}, 2, LEVEL_PAIRS),
    "isopath4": Series("isopath h4", "isopath", {"size": 4}, 2, LEVEL_PAIRS),
}


@dataclass
class Side:
    """What one side spent: processor seconds and peak resident MB of each of its moves."""

    cpu: list[float] = dataclasses.field(default_factory=list)
    peak_mb: list[float] = dataclasses.field(default_factory=list)
    #: resident MB at the start of each move (what earlier moves of both sides left)
    base_mb: list[float] = dataclasses.field(default_factory=list)


Player = Callable[[engines.Position, list[engines.Position]], str]


def _reset_peak() -> bool:
    """Reset the process's resident high-water mark (Linux); whether it could."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return True


def _peak_mb(field: str = "VmHWM") -> float:
    """The process's resident high-water mark in MB (``VmHWM``; else the lifetime peak), or
    with ``field="VmRSS"`` its resident memory now."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _level(iterations: int, seconds: float | None, seed: int) -> Player:
    def play(pos: engines.Position, history: list[engines.Position]) -> str:
        choice = think(
            pos,
            iterations=iterations,
            seconds=seconds,
            seed=seed * 1000 + pos.ply,
            history=history,
        )
        return choice.move

    return play


def _alphabeta(nodes: int, ties: int | None = None) -> Player:
    """The alpha-beta reference; with ``ties``, a seed, its root moves are shuffled by that
    seed and the ply before each search, so of moves it finds equal it plays one by the seed
    (the search keeps the given order among equals) rather than always the first listed."""
    import ai  # the script beside this one: the reference's connection evaluation

    plan = alphabeta.Plan(ai._connection_value, max_depth=4)

    def play(pos: engines.Position, history: list[engines.Position]) -> str:
        moves = pos.legal_moves()
        if ties is not None:
            moves = list(moves)
            random.Random(ties * 1000 + pos.ply).shuffle(moves)
        return alphabeta.search(pos, moves, plan, nodes=nodes).move

    return play


def _padfoot(depth: int) -> Player:
    plan = dataclasses.replace(isopath_plan.REFERENCE, max_depth=depth)

    def play(pos: engines.Position, history: list[engines.Position]) -> str:
        roots = isopath_plan.reference_candidates(pos)
        return alphabeta.search(pos, roots, plan, nodes=PADFOOT_NODES).move

    return play


def level_of(name: str) -> tuple[Level, int] | None:
    """The level a player's name names and the multiple of its budget it searches: a
    level's own name (``hard``: once), or for a trial a level at a multiple of its budget
    (``hardx3``: ``hard`` searching three times its iterations and, with the wall cap, its
    seconds; it offers and judges draws as the level); ``None`` for a reference."""
    if name in LEVELS:
        return Level(name), 1
    level, x, times = name.partition("x")
    if level in LEVELS and x and times.isdigit() and int(times) > 1:
        return Level(level), int(times)
    return None


def player(
    name: str, seed: int, wall_cap: bool, ref_nodes: int, game: str, options: Mapping[str, Any]
) -> Player:
    """The player named ``name`` in ``game`` with ``options``: a level (or a multiple of its
    budget: :func:`level_of`), ``ab``, ``abtie`` (``ab`` breaking ties by ``seed``) or
    ``padfootN`` (depth ``N``)."""
    if level_of(name):
        searched = budget(name, wall_cap, ref_nodes, game, options)
        return _level(searched["iterations"], searched["seconds"], seed)
    if name == "ab":
        return _alphabeta(ref_nodes)
    if name == "abtie":
        return _alphabeta(ref_nodes, ties=seed)
    if name.startswith("padfoot"):
        return _padfoot(int(name.removeprefix("padfoot")))
    raise ValueError(f"no player {name!r}")


def budget(
    name: str, wall_cap: bool, ref_nodes: int, game: str, options: Mapping[str, Any]
) -> dict[str, Any]:
    """The budget ``name`` plays with in ``game`` with ``options``, as recorded (a level's
    as the bot gives it there: :func:`engines.ai.budget_of`)."""
    if searched := level_of(name):
        level, times = searched
        b = budget_of(level, game, options)
        seconds = b["seconds"] * times if wall_cap else None
        return {"iterations": b["iterations"] * times, "seconds": seconds}
    if name == "ab":
        return {"nodes": ref_nodes, "depth": 4}
    if name == "abtie":
        return {"nodes": ref_nodes, "depth": 4, "ties": "seeded"}
    return {"nodes": PADFOOT_NODES, "depth": int(name.removeprefix("padfoot"))}


def _replayed(spec: Series, moves: Sequence[str]) -> list[engines.Position]:
    """The positions of ``spec``'s game after each of ``moves``, the start first."""
    return list(engines.replay(spec.game, moves, **spec.options))


def _judge(name: str, positions: list[engines.Position], seat: int) -> bool:
    """Whether ``name`` at ``seat`` accepts a draw offered in the game ``positions``: a level
    by the bot's own rule, a reference when its evaluation gives it no more than
    ``0.5 + HELD_MARGIN``."""
    pos = positions[-1]
    if level_of(name):
        return held(positions, seat)
    if name.startswith("padfoot"):
        value = isopath_plan.reference_evaluate(pos)
    else:
        import ai

        value = ai._connection_value(pos)
    mine = value if seat == 0 else 1 - value
    return mine <= 0.5 + HELD_MARGIN


def _quiet(
    mark: Callable[[engines.Position], Hashable] | None, seen: set[Hashable], pos: engines.Position
) -> bool:
    """Whether ``pos`` makes no progress (its mark seen before); records the mark."""
    if mark is None:
        return False
    m = mark(pos)
    if m in seen:
        return True
    seen.add(m)
    return False


def which(game: dict[str, Any]) -> tuple[str, str, int]:
    """Which game a record or a game in progress is: its series, match-up as it counts
    (:func:`matchup_of`) and game number."""
    return game["series"], matchup_of(game), game["game_no"]


def matchup_of(game: dict[str, Any]) -> str:
    """The match-up a record counts under: as recorded, but a trial's level at a multiple of
    its budget whose recorded iterations are what the level itself searches on that board now
    (the bot has since given the level that budget there: ``hardx2`` in Iso-Path) is the
    level, since a level is its code and its budget (a game in progress, without its budgets:
    as recorded).

    >>> trial = {"game": "isopath", "options": {"size": 4}, "matchup": "hardx2-padfoot3",
    ...          "budgets": [{"iterations": 24000}, {"nodes": 10**7, "depth": 3}]}
    >>> matchup_of(trial), matchup_of({**trial, "budgets": [{"iterations": 48000}, {}]})
    ('hard-padfoot3', 'hardx2-padfoot3')
    """
    if "budgets" not in game:
        return str(game["matchup"])
    names = game["matchup"].split("-", 1)
    for i, (name, searched) in enumerate(zip(names, game["budgets"], strict=True)):
        found = level_of(name)
        if found is not None and found[1] > 1 and _searched_now(found[0].value, searched, game):
            names[i] = found[0].value
    return "-".join(names)


def _searched_now(name: str, searched: dict[str, Any], game: dict[str, Any]) -> bool:
    """Whether the level or trial ``name`` searches now, on ``game``'s board, the iterations
    ``searched`` records."""
    now = budget(name, False, REF_NODES, game["game"], game["options"])
    return bool(searched.get("iterations") == now["iterations"])


def unfinished_path(folder: Path, series: str, matchup: str, game_no: int) -> Path:
    """The file of game ``game_no`` of ``series``' ``matchup`` while it is in progress."""
    return folder / f"{series}_{matchup}_{game_no}.json"


def save_unfinished(path: Path, game: dict[str, Any]) -> None:
    """Write the game in progress ``game`` to ``path``, replacing the file whole (a process
    killed while writing leaves the previous ply's file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(game, separators=(",", ":")))
    os.replace(part, path)


def load_unfinished(
    path: Path | None,
    series: str,
    matchup: str,
    game_no: int,
    budgets: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The game in progress at ``path`` (empty when there is none, or when its game's
    computer player has changed since the build that played it, as :func:`current` says, or
    when its players searched other ``budgets`` than this run's: a level's budget on that
    board changed, or the wall cap; a file from before builds, or budgets, were written in it
    goes on); refused when the file is another game's."""
    if path is None or not path.exists():
        return {}
    game: dict[str, Any] = json.loads(path.read_text())
    if (game["series"], game["matchup"], game["game_no"]) != (series, matchup, game_no):
        raise ValueError(f"{path} holds another game: {game['series']} {game['matchup']} "
                         f"game {game['game_no']}")  # fmt: skip
    if budgets is not None and game.get("budgets", budgets) != list(budgets):
        print(f"    {series} {matchup} game {game_no}: begun with budgets {game['budgets']}, "
              f"now {list(budgets)}; played afresh", flush=True)  # fmt: skip
        return {}
    if "commit" in game and not current({"game": SERIES[series].game, **game}):
        print(f"    {series} {matchup} game {game_no}: begun at {game['commit']}, before its "
              "computer player changed; played afresh", flush=True)  # fmt: skip
        return {}
    return game


def in_progress(folder: Path) -> list[dict[str, Any]]:
    """The games in progress in ``folder``, by series, match-up and game number."""
    games = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    return sorted(games, key=which)


def play_game(
    series: str,
    matchup: str,
    game_no: int,
    wall_cap: bool,
    ref_nodes: int,
    cap: int = CAP,
    replay: Sequence[str] = (),
    heartbeat: int = 0,
    unfinished: Path | None = None,
    build: str = "",
) -> dict[str, Any]:
    """One game of ``matchup`` in ``series``; the line to record (without date and commit).
    ``replay``: moves played first, in place of the random opening (a recorded line, e.g. a
    shuffle, whose plies count towards the no-progress rules like any others); ``heartbeat``:
    print the ply and the plies without progress every that many plies (0: never);
    ``unfinished``: the game's file while in progress (:func:`unfinished_path`), written after
    every ply, removed when the game ends; when it holds the game stopped earlier, the
    game goes on from its last ply (its moves played again, not searched); ``build``: the
    commit written in that file (default: the checkout's, :func:`commit`)."""
    spec = SERIES[series]
    names = matchup.split("-", 1)
    budgets = [budget(n, wall_cap, ref_nodes, spec.game, spec.options) for n in names]
    earlier = load_unfinished(unfinished, series, matchup, game_no, budgets)
    build = build or (commit() if unfinished is not None else "")
    before: list[str] = earlier.get("moves", [])
    seat = game_no % 2
    rng_seed = game_no * 7919 + spec.playable.index(matchup) * 100_003
    players = [
        player(names[0], rng_seed, wall_cap, ref_nodes, spec.game, spec.options),
        player(names[1], rng_seed + 1, wall_cap, ref_nodes, spec.game, spec.options),
    ]
    sides = [Side(**side) for side in earlier["sides"]] if earlier else [Side(), Side()]
    resumed: list[int] = [*earlier["resumed"], len(before)] if earlier else []
    pos = engines.new(spec.game, **spec.options)
    opener = random.Random(game_no // 2 * 31 + 7)  # both seats of a pair share the opening
    mark = player_of(spec.game).progress
    seen: set[Hashable] = set()
    _quiet(mark, seen, pos)
    moves: list[str] = []
    quiet = 0
    end = "not finished"
    exact_peaks = _reset_peak()
    while pos.outcome is None and pos.ply < cap:
        mover = pos.to_move
        who = 0 if mover == seat else 1  # 0: the first-named player
        if pos.ply < len(replay):
            move = replay[pos.ply]
        elif not replay and pos.ply < spec.opening:
            move = opener.choice(pos.legal_moves())
        elif pos.ply < len(before):
            move = before[pos.ply]  # played before the game was stopped
        else:
            # The positions replayed afresh for each move, as the bot's search worker does
            # (:func:`bot.sessions.thinker.search_move`): none keeps what an earlier move
            # listed on it (an Iso-Path h5 position's legal turns are some 1 MB).
            *history, now = _replayed(spec, moves)
            _reset_peak()
            sides[who].base_mb.append(round(_peak_mb("VmRSS"), 1))
            start = time.process_time()
            move = players[who](now, history)
            sides[who].cpu.append(round(time.process_time() - start, 3))
            sides[who].peak_mb.append(round(_peak_mb(), 1))
        moves.append(move)
        pos = pos.play(move)
        if unfinished is not None and pos.ply > len(before):
            sofar = [dataclasses.asdict(side) for side in sides]
            save_unfinished(
                unfinished,
                {
                    "series": series,
                    "matchup": matchup,
                    "game_no": game_no,
                    "game": spec.game,
                    "options": spec.options,
                    "budgets": budgets,
                    "moves": moves,
                    "sides": sofar,
                    "resumed": resumed,
                    "commit": build,
                    "date": _now(),
                },
            )
        quiet = quiet + 1 if _quiet(mark, seen, pos) else 0
        if heartbeat and pos.ply % heartbeat == 0:
            print(
                f"    {series} {matchup} game {game_no}: ply {pos.ply}, {quiet} quiet", flush=True
            )
        if pos.outcome is not None:
            break
        if quiet >= CLAIM_AFTER:
            end = "draw claimed"
            break
        # The bot (the side that just moved) offers a draw; the other side answers.
        offers = OFFER_AFTER <= quiet < OFFER_AFTER + 2 and level_of(names[who]) is not None
        if offers and _judge(names[1 - who], _replayed(spec, moves), pos.to_move):
            end = "draw agreed"
            break
    score: float | None
    if pos.outcome is not None:
        winner = pos.outcome.winner
        score = 0.5 if winner is None else 1.0 if winner == seat else 0.0
        end = {1.0: "won", 0.0: "lost", 0.5: "drawn"}[score]
    elif end.startswith("draw"):
        score = 0.5
    else:
        score = None
    if unfinished is not None:
        unfinished.unlink(missing_ok=True)
    return {
        "series": series,
        "label": spec.label,
        "game": spec.game,
        "options": spec.options,
        "opening": 0 if replay else spec.opening,
        "replayed": len(replay),
        "resumed": resumed,
        "matchup": matchup,
        "game_no": game_no,
        "seat": seat,
        "score": score,
        "end": end,
        "termination": pos.outcome.termination if pos.outcome is not None else None,
        "plies": pos.ply,
        "quiet": quiet,
        "wall_cap": wall_cap,
        "budgets": budgets,
        "cpu": [sides[0].cpu, sides[1].cpu],
        "peak_mb": [sides[0].peak_mb, sides[1].peak_mb],
        "base_mb": [sides[0].base_mb, sides[1].base_mb],
        "peak_per_move": exact_peaks,
        "load": round(os.getloadavg()[0], 1),  # the machine's load average at the end
        "moves": moves,
    }


def _job(
    args: tuple[str, str, int, bool, int, int, Sequence[str], int, Path | None, str],
) -> dict[str, Any]:
    return play_game(*args)


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def commit() -> str:
    """The checked-out commit, ``+`` when the engines or benchmarks have changes."""
    root = HERE.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "engines", "benchmarks/ai_series.py"],
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return (head or "unknown") + ("+" if dirty else "")


def current(record: dict[str, Any]) -> bool:
    """Whether ``record`` was played by its game's current computer player: its levels at the
    budgets they search there now (:func:`budget`: a level is its code and its budget), at
    the commit of the player's last change (:data:`PLAYER_CHANGES`) or a later one, as this
    repository's history says (series at two builds run side by side in worktrees: a game of
    the earlier player may end after the change was made); for a commit the history does not
    hold, when it was recorded after the change's date.

    >>> game = {"game": "isopath", "options": {"size": 4}, "matchup": "hard-padfoot3",
    ...         "date": "2026-12-31", "commit": "", "budgets": [{"iterations": 12000}, {}]}
    >>> current(game), current({**game, "budgets": [{"iterations": 24000}, {}]})
    (False, True)
    """
    if not _budgets_now(record):
        return False
    change = PLAYER_CHANGES.get(record["game"])
    if change is None:
        return True
    played_at = str(record.get("commit", "")).rstrip("+")
    since, known = _history(change.commit, HERE.parent)
    if played_at and since and any(c.startswith(played_at) for c in since):
        return True
    # (a prefix shorter than git's shortest abbreviation, such as a test's "test", names none)
    if played_at and len(played_at) >= 7 and any(c.startswith(played_at) for c in known):
        return False
    return bool(record["date"] >= change.date)


def _budgets_now(record: dict[str, Any]) -> bool:
    """Whether each level of ``record``'s match-up searched the iterations it searches there
    now (a record without its budgets: yes)."""
    if "budgets" not in record:
        return True
    names = matchup_of(record).split("-", 1)
    return all(
        _searched_now(name, searched, record)
        for name, searched in zip(names, record["budgets"], strict=True)
        if level_of(name)
    )


@functools.cache
def _history(change: str, root: Path) -> tuple[frozenset[str], frozenset[str]]:
    """Of the repository at ``root``: the commits from ``change`` on (it and those after it up
    to the checkout's), and every commit it holds; both empty without git or when it does not
    hold ``change``."""

    def git(*args: str) -> list[str]:
        done = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
        )
        return done.stdout.split()

    try:
        since = git("rev-parse", "--verify", f"{change}^{{commit}}")
        since += git("rev-list", "--ancestry-path", f"{change}..HEAD")
        known = git("rev-list", "--all")
    except (OSError, subprocess.CalledProcessError):
        return frozenset(), frozenset()
    return frozenset(since), frozenset(known)


def counted(records: Sequence[dict[str, Any]]) -> list[bool]:
    """Per record, whether it counts in the figures: played by its game's current computer
    player (:func:`current`) and not played again since (a match-up's game number recorded
    twice, its game played again at a later build, counts as recorded last).

    >>> game = lambda no, date: {"game": "maphex", "series": "s", "matchup": "m", "game_no": no,
    ...                          "date": date}
    >>> counted([game(0, "2026-12-01"), game(1, "2026-12-01"), game(0, "2026-12-06")])
    [False, True, True]
    """
    last = {which(r): i for i, r in enumerate(records)}
    return [current(r) and last[which(r)] == i for i, r in enumerate(records)]


def read(path: Path) -> list[dict[str, Any]]:
    """Every recorded game of the results file (none when it does not exist)."""
    if not path.exists():
        return []
    with path.open() as f:
        return [json.loads(line) for line in f if line.strip()]


def append(path: Path, record: dict[str, Any]) -> None:
    """Add one game to the results file (one line, written through)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as f:
        f.write(json.dumps(record, separators=(",", ":")) + "\n")
        f.flush()
        os.fsync(f.fileno())


def merge(path: Path, others: Iterable[Path]) -> list[dict[str, Any]]:
    """Append to the results file ``path`` every game recorded in ``others`` and not in it (a
    game: its date, series, match-up and game number), in the order they were played; the
    games added.  Merging the same file again adds nothing."""

    def game(r: dict[str, Any]) -> tuple[str, str, str, int]:
        return r["date"], r["series"], r["matchup"], r["game_no"]

    known = {game(r) for r in read(path)}
    added: dict[tuple[str, str, str, int], dict[str, Any]] = {}
    for other in others:
        for r in read(other):
            key = game(r)
            if key not in known:
                added.setdefault(key, r)
    ordered = sorted(added.values(), key=lambda r: str(r["date"]))
    for r in ordered:
        append(path, r)
    return ordered


def next_game(records: Iterable[dict[str, Any]], series: str, matchup: str) -> int:
    """The first game number not yet recorded for ``series`` and ``matchup`` (after the
    highest one)."""
    numbers = [r["game_no"] for r in records if r["series"] == series and r["matchup"] == matchup]
    return max(numbers) + 1 if numbers else 0


def run(
    series: list[str],
    games: int,
    path: Path,
    *,
    first: int | None = None,
    wall_cap: bool = True,
    ref_nodes: int = REF_NODES,
    workers: int = 1,
    cap: int = CAP,
    progress: bool = True,
    heartbeat: int = 0,
    matchups: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """Play ``games`` more games of every match-up of each named series (in that order,
    game number by game number across a series' match-ups), or of those among ``matchups``
    only, and append each as it ends (with several workers, in the order they end: a game is
    never held back behind a longer one, and a game stopped early goes on from its last ply
    when next run)."""
    known = read(path)
    folder = path.parent / UNFINISHED
    stamp = commit()
    jobs = []
    for name in series:
        spec = SERIES[name]
        chosen = [m for m in spec.playable if m in matchups] if matchups else list(spec.matchups)
        starts = {m: first if first is not None else next_game(known, name, m) for m in chosen}
        for k in range(games):
            for m in chosen:
                n = starts[m] + k
                paused = unfinished_path(folder, name, m, n)
                jobs.append((name, m, n, wall_cap, ref_nodes, cap, (), heartbeat, paused, stamp))
    done: list[dict[str, Any]] = []
    with multiprocessing.get_context("fork").Pool(workers, maxtasksperchild=1) as pool:
        for result in pool.imap_unordered(_job, jobs):
            record = {
                "date": _now(),
                "commit": stamp,
                **result,
            }
            append(path, record)
            done.append(record)
            if progress:
                print(_line(record), flush=True)
    return done


def _line(r: dict[str, Any]) -> str:
    cpu0 = r["cpu"][0] or [0.0]
    return (
        f"  {r['series']} {r['matchup']} game {r['game_no']} (seat {r['seat']}): {r['end']} "
        f"at ply {r['plies']}, first's cpu s/move median {statistics.median(cpu0):.2f}"
    )


def _cpu(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}/{max(values):.1f}" if values else "-"


def pairs(records: list[dict[str, Any]]) -> str:
    """Of a match-up's random openings played from both seats (games ``2k`` and ``2k + 1``
    share one), how many the first-named player won twice, split and lost twice, as
    ``won/split/lost``; ``-`` from a fixed opening.  Many splits with few wins say the
    opening decided rather than the players: the seat it favoured won both games.

    >>> game = lambda no, score: {"game_no": no, "score": score, "opening": 2}
    >>> pairs([game(0, 1.0), game(1, 0.0), game(2, 1.0), game(3, 1.0), game(4, 0.0)])
    '1/1/0'
    """
    if not records or records[0]["opening"] == 0 or records[0].get("replayed"):
        return "-"
    scores: dict[int, list[float]] = {}
    for r in records:
        if r["score"] is not None:
            scores.setdefault(r["game_no"] // 2, []).append(r["score"])
    both = [sum(s) for s in scores.values() if len(s) == 2]
    return f"{both.count(2.0)}/{sum(0 < t < 2 for t in both)}/{both.count(0.0)}"


def report(
    records: list[dict[str, Any]],
    out: Callable[[str], None] = print,
    unfinished: Sequence[dict[str, Any]] = (),
) -> None:
    """The tables of every recorded game: per series and match-up, the first-named player's
    score with its 95 % interval and how many of its games differ (players that choose alike
    from one opening play one game per seat again and again: the interval then overstates
    what is known) and, from random openings, how its pairs of games from one opening ended
    (:func:`pairs`); games played by a game's earlier player (:data:`PLAYER_CHANGES`) or
    played again since (:func:`counted`) apart, their opening marked "before"; per size and
    player, time and peak memory a move; and the games ``unfinished`` (:func:`in_progress`)
    with how to go on with each."""
    import ai  # the Wilson interval

    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r, counts in zip(records, counted(records), strict=True):
        opening = "standard" if r["opening"] == 0 else f"{r['opening']} random plies"
        if r.get("replayed"):
            opening = f"{r['replayed']} replayed"
        if not counts:
            opening += ", before"
        groups.setdefault((r["label"], opening, matchup_of(r)), []).append(r)
    out(f"{len(records)} games recorded; score of the first-named player, not finished ones "
        "left out of the score")  # fmt: skip
    out(
        f"{'size':<15}{'opening':<24}{'match-up':<16}{'games':>6}{'distinct':>9}{'won':>5}"
        f"{'lost':>5}"
        f"{'drawn':>6}{'not fin.':>9}{'pairs w/s/l':>12}{'score %':>8}{'95 % interval':>15}"
        f"{'cpu s/move 1st med/max':>24}{'2nd':>12}{'peak MB 1st':>12}{'2nd':>6}"
    )
    for (label, opening, matchup), rs in groups.items():
        scored = [r for r in rs if r["score"] is not None]
        points = sum(r["score"] for r in scored)
        low, high = ai.wilson(points, len(scored))
        pct = f"{100 * points / len(scored):.0f}" if scored else "-"
        cpu = [[t for r in rs for t in r["cpu"][i]] for i in (0, 1)]
        peak = [max((m for r in rs for m in r["peak_mb"][i]), default=0.0) for i in (0, 1)]
        won, lost, drawn = (sum(r["score"] == s for r in scored) for s in (1.0, 0.0, 0.5))
        distinct = len({tuple(r["moves"]) for r in rs})
        out(
            f"{label:<15}{opening:<24}{matchup:<16}{len(rs):>6}{distinct:>9}{won:>5}{lost:>5}"
            f"{drawn:>6}{len(rs) - len(scored):>9}{pairs(rs):>12}{pct:>8}"
            f"{f'{100 * low:.0f}-{100 * high:.0f}':>15}{_cpu(cpu[0]):>24}{_cpu(cpu[1]):>12}"
            f"{peak[0]:>12.0f}{peak[1]:>6.0f}"
        )
    ends: dict[str, int] = {}
    for r in records:
        ends[r["end"]] = ends.get(r["end"], 0) + 1
    out("how games ended: " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())))
    # Time and memory a move per size and player, whoever it played.
    per: dict[tuple[str, str], tuple[list[float], list[float], list[float]]] = {}
    for r in records:
        for i, name in enumerate(r["matchup"].split("-", 1)):
            cpu, mem, added = per.setdefault((r["label"], name), ([], [], []))
            cpu.extend(r["cpu"][i])
            mem.extend(r["peak_mb"][i])
            bases = r.get("base_mb", [[], []])[i]  # recorded since the second game
            added.extend(peak - base for peak, base in zip(r["peak_mb"][i], bases, strict=False))
    out(
        f"{'size':<15}{'player':<11}{'moves':>7}{'cpu s/move med':>15}{'p90':>7}{'max':>7}"
        f"{'peak MB med':>12}{'max':>6}{'added by the move MB max':>26}"
    )
    for (label, name), (cpu, mem, added) in sorted(per.items()):
        if not cpu:
            continue
        ordered = sorted(cpu)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        out(
            f"{label:<15}{name:<11}{len(cpu):>7}{statistics.median(cpu):>15.2f}{p90:>7.2f}"
            f"{max(cpu):>7.2f}{statistics.median(mem):>12.0f}{max(mem):>6.0f}"
            f"{f'{max(added):.0f}' if added else '-':>26}"
        )
    repeats = len(records) - len({which(r) for r in records})
    if repeats:
        out(f"{repeats} game(s) played again: of a series' match-up and game number the last "
            "record counts, the earlier ones are reported as before")  # fmt: skip
    for g in unfinished:
        out(f"in progress: {g['series']} {g['matchup']} game {g['game_no']} at ply "
            f"{len(g['moves'])} (goes on with: {g['series']} --matchups {g['matchup']} "
            f"--first {g['game_no']} --games 1)")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("series", nargs="*", help=f"series to play: {', '.join(SERIES)}")
    parser.add_argument("--games", type=int, default=2, help="games per match-up (even)")
    parser.add_argument(
        "--first", type=int, default=None, help="first game number (default: after the last)"
    )
    parser.add_argument("--no-wall-cap", action="store_true", help="levels without wall cap")
    parser.add_argument("--ref-nodes", type=int, default=REF_NODES, help="alpha-beta's budget")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cap", type=int, default=CAP, help="plies before 'not finished'")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the results file")
    parser.add_argument("--report", action="store_true", help="print the recorded tables")
    parser.add_argument(
        "--heartbeat", type=int, default=0, help="print each game's ply every N plies"
    )
    parser.add_argument("--list", action="store_true", help="name the series")
    parser.add_argument(
        "--merge",
        type=Path,
        nargs="+",
        default=[],
        metavar="FILE",
        help="add the games recorded in these results files (another checkout's) and not here",
    )
    parser.add_argument(
        "--matchups", default="", help="comma-separated match-ups to play (default: all)"
    )
    ns = parser.parse_args(argv)
    if ns.list:
        for name, spec in SERIES.items():
            trials = f" (trials: {', '.join(spec.trials)})" if spec.trials else ""
            print(
                f"{name}: {spec.label}, {spec.opening} random plies, "
                f"{', '.join(spec.matchups)}{trials}"
            )
        return
    if ns.merge:
        for r in merge(ns.results, ns.merge):
            print(f"added: {_line(r)} ({r['commit']}, {r['date']})")
        return
    unknown = [s for s in ns.series if s not in SERIES]
    if unknown:
        parser.error(f"no series {', '.join(unknown)}; --list names them")
    matchups = [m for m in ns.matchups.split(",") if m]
    offered = {m for name in ns.series for m in SERIES[name].playable}
    if set(matchups) - offered:
        parser.error(f"no match-up {', '.join(sorted(set(matchups) - offered))} in those series")
    if ns.series:
        run(
            ns.series,
            ns.games,
            ns.results,
            first=ns.first,
            wall_cap=not ns.no_wall_cap,
            ref_nodes=ns.ref_nodes,
            workers=ns.workers,
            cap=ns.cap,
            heartbeat=ns.heartbeat,
            matchups=matchups,
        )
    if ns.report or not ns.series:
        report(read(ns.results), unfinished=in_progress(ns.results.parent / UNFINISHED))


if __name__ == "__main__":
    main()
