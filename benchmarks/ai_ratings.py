"""The computer player's levels rated: a round-robin between the levels and the references in
every rating pool, rated by the bot's own openskill model (issue 49).

Run: ``nice -n 10 .venv/bin/python benchmarks/ai_ratings.py`` (or ``benchmarks/ai.py
--ratings``); ``--only maphex9,isopath4`` for some pools, ``--minutes`` the processor minutes
of the cheap round-robin per pool, ``--hard-games`` the games of ``hard`` per pool,
``--write`` to store the result in ``bot/level_ratings.json`` (the file the bot reads: each
level's measured rating is where its rating starts in that pool).  ``--table`` prints the
stored table without playing.

Players in each pool (the pool's own options; inpHeXion's one pool at its default 7×7):
``random`` (uniform), ``greedy`` (takes a win, avoids a move that lets the opponent win at
once), ``easy``, ``normal`` and ``hard`` with their iterations and no wall-time cap (a busy
machine does not change their strength), and a stronger reference where the benchmarks have
one: ``alphabeta`` (Maphex, inpHeXion, Pathagon: iterative-deepening alpha-beta to depth 4 over
every move by connection distance, :data:`REFERENCE_NODES` evaluations a move) and
``padfoot`` (Iso-Path: the Padfoot-like depth-2 search of :mod:`benchmarks.ai`).  The first two
plies of a game are random (seeded by the round) so deterministic players meet in different
games; seats alternate round by round.  A game still going at ``--cap`` plies is scored by the
levels' evaluation, as in :mod:`benchmarks.ai`, and counted as capped.

Rounds of every pair but ``hard`` are played until the pool's ``--minutes`` of processor time
are spent (a game begun is finished); then ``hard`` plays ``--hard-games`` games, against
``normal`` and the reference (or ``easy``) in turn, seats alternating: its real budget takes
seconds a move (15 s in inpHeXion 7×7), too slow for a full round-robin on a shared machine.
Every game, in the order played, goes through :func:`bot.ratings.update` from new ratings, as
players' rated games do; the table prints mu, sigma, the shown number and the games of each.
With ``--write`` the games are stored too, and a later run with ``--write`` adds its games
after the stored ones (new openings, the rounds going on) and rates them all again in order.

``--series`` rates, after the pool's own games, the games :mod:`benchmarks.ai_series` recorded
on the pool's board between two of its players (the levels, and in Iso-Path the Padfoot-like
reference at depth 2, ``padfoot2`` there; not the series' alpha-beta, which searches
50,000 evaluations a move against this one's 4,000), leaving out those a game's earlier
computer player played (:func:`ai_series.current`): the series play the levels at
their whole budgets from random openings too, many more games of ``hard`` than a round-robin
has time for.  ``--minutes 0 --hard-games 0 --series --write`` rates them without playing.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "benchmarks"))

import ai  # the script beside this one: its reference players
import ai_series  # the script beside this one: the series' recorded games

import engines
from bot.ratings import Pool, Rating, Result, update
from engines.ai import Level, alphabeta, budget_of, isopath_plan, think
from engines.ai.hooks import knowledge_of

DATA = ROOT / "bot" / "level_ratings.json"
#: Evaluations a move of the alpha-beta reference (a fixed count: load does not change it).
REFERENCE_NODES = 4000
#: The Padfoot-like reference searches its depth 2 to the end (this count is never reached).
PADFOOT_NODES = 10**7
OPENING = 2

Player = Callable[[engines.Position, random.Random, Sequence[engines.Position]], str]


def _level(level: Level, game: str, options: dict[str, Any]) -> Player:
    iterations = budget_of(level, game, options)["iterations"]

    def play(pos: engines.Position, rng: random.Random, history: Sequence[engines.Position]) -> str:
        return think(pos, iterations=iterations, seed=rng.randrange(2**31), history=history).move

    return play


def _random(pos: engines.Position, rng: random.Random, _: Sequence[engines.Position]) -> str:
    return ai._random(pos, rng)


def _greedy(pos: engines.Position, rng: random.Random, _: Sequence[engines.Position]) -> str:
    return ai._greedy(pos, rng)


def _alphabeta(pos: engines.Position, rng: random.Random, _: Sequence[engines.Position]) -> str:
    plan = alphabeta.Plan(ai._connection_value, max_depth=4)
    return alphabeta.search(pos, pos.legal_moves(), plan, nodes=REFERENCE_NODES).move


def _padfoot(pos: engines.Position, rng: random.Random, _: Sequence[engines.Position]) -> str:
    roots = isopath_plan.reference_candidates(pos)
    return alphabeta.search(pos, roots, isopath_plan.REFERENCE, nodes=PADFOOT_NODES).move


def players_of(game: str, options: dict[str, Any]) -> dict[str, Player]:
    """The players rated in ``game``'s pool of ``options``, weakest first by design."""
    found: dict[str, Player] = {"random": _random, "greedy": _greedy}
    found.update({level.value: _level(level, game, options) for level in Level})
    if game in ("maphex", "inphexion", "pathagon"):
        found["alphabeta"] = _alphabeta
    elif game == "isopath":
        found["padfoot"] = _padfoot
    return found


@dataclass
class Played:
    """One game: the players by seat, the winning seat (``None``: a draw), plies, capped."""

    seats: tuple[str, str]
    winner: int | None
    plies: int
    capped: bool
    cpu: float

    def row(self) -> list[Any]:
        return [*self.seats, self.winner, self.plies, self.capped, round(self.cpu, 2)]

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> Played:
        """The game a stored :meth:`row` records."""
        first, second, winner, plies, capped, cpu = row
        return cls((str(first), str(second)), winner, int(plies), bool(capped), float(cpu))


def _options(pool: Pool) -> dict[str, Any]:
    """The game options of ``pool``'s board."""
    return dict(next(p for p in engines.GAMES[pool.game].pools if p.key == pool.key).options)


def play(pool: Pool, seats: tuple[str, str], number: int, cap: int) -> Played:
    """Game ``number`` of ``pool`` between the players named by seat."""
    options = _options(pool)
    players = players_of(pool.game, options)
    rng = random.Random(number * 7919 + 17)
    opener = random.Random(number // 2 * 31 + 7)
    pos = engines.new(pool.game, **options)
    history: list[engines.Position] = []
    start = time.process_time()
    while pos.outcome is None and pos.ply < cap:
        if pos.ply < OPENING:
            move = opener.choice(pos.legal_moves())
        else:
            move = players[seats[pos.to_move]](pos, rng, history)
        history.append(pos)
        pos = pos.play(move)
    cpu = time.process_time() - start
    if pos.outcome is not None:
        return Played(seats, pos.outcome.winner, pos.ply, False, cpu)
    v0 = knowledge_of(pos).evaluate(pos)
    winner = 0 if v0 > 0.5 else 1 if v0 < 0.5 else None
    return Played(seats, winner, pos.ply, True, cpu)


def _played(
    pool: Pool, key: str, seats: tuple[str, str], number: int, ns: argparse.Namespace
) -> Played:
    """:func:`play` one game, said when ``--progress`` asks."""
    game = play(pool, seats, number, ns.cap)
    if ns.progress:
        print(
            f"  {key} {seats[0]}-{seats[1]}: {game.winner} ({game.plies} plies, {game.cpu:.1f} s)",
            flush=True,
        )
    return game


#: The series' names of the players rated here by other names.
SERIES_NAMES = {"padfoot2": "padfoot"}


def series_games(pool: Pool, records: Sequence[dict[str, Any]]) -> list[Played]:
    """The recorded series games (:func:`ai_series.read`) of ``pool`` between two of its
    players, by their current computer player and as last played (:func:`ai_series.counted`),
    in the order recorded; a game not finished is left out."""
    options = _options(pool)
    names = set(players_of(pool.game, options))
    found = []
    for r, counts in zip(records, ai_series.counted(records), strict=True):
        if r["game"] != pool.game or r["options"] != options or r["score"] is None:
            continue
        if not counts:
            continue
        first, second = (SERIES_NAMES.get(n, n) for n in ai_series.matchup_of(r).split("-", 1))
        if first not in names or second not in names:
            continue
        seats = (first, second) if r["seat"] == 0 else (second, first)
        winner = None if r["score"] == 0.5 else r["seat"] if r["score"] == 1.0 else 1 - r["seat"]
        cpu = sum(sum(side) for side in r["cpu"])
        found.append(Played(seats, winner, r["plies"], False, cpu))
    return found


def rate_games(names: Sequence[str], games: Sequence[Played]) -> dict[str, Rating]:
    """Every player's rating after ``games`` in order, each from a new rating."""
    ratings = {name: Rating() for name in names}
    for game in games:
        a, b = game.seats
        ratings[a], ratings[b] = update(ratings[a], ratings[b], Result.from_winner(game.winner))
    return ratings


#: The players whose moves cost the most (the references' searches; greedy's one-move
#: look-ahead over Iso-Path's thousands of turns): a round plays their games last.
COSTLY = ("greedy", "alphabeta", "padfoot")


def schedule(names: Sequence[str], round_no: int) -> list[tuple[str, str]]:
    """Round ``round_no``'s games of every pair but ``hard``, seats alternating by round; the
    pairs with fewer costly players first (a round cut short by the budget still has them)."""
    cheap = [n for n in names if n != "hard"]
    pairs = [(a, b) for i, a in enumerate(cheap) for b in cheap[i + 1 :]]
    seated = [(b, a) if (round_no + k) % 2 else (a, b) for k, (a, b) in enumerate(pairs)]
    return sorted(seated, key=lambda pair: sum(name in COSTLY for name in pair))


def hard_schedule(names: Sequence[str], count: int) -> list[tuple[str, str]]:
    """``hard``'s games: against ``normal`` and the strongest other player in turn, seats
    alternating (each opponent met from both seats)."""
    others = ["normal", next((n for n in ("alphabeta", "padfoot") if n in names), "easy")]
    out = []
    for k in range(count):
        opponent = others[(k // 2) % 2]
        out.append(("hard", opponent) if k % 2 == 0 else (opponent, "hard"))
    return out


def print_table(data: dict[str, Any], pools: Sequence[str]) -> None:
    print(
        f"{'pool':<11}{'player':<11}{'mu':>7}{'sigma':>7}{'shown':>7}{'games':>7}"
        f"{'won':>5}{'lost':>5}{'drawn':>6}"
    )
    for key in pools:
        entry = data["pools"].get(key)
        if entry is None:
            continue
        games = [Played.from_row(g) for g in entry["games"] + entry.get("series", [])]
        for name, rating in entry["ratings"].items():
            won = sum(1 for g in games if name in g.seats and g.winner == g.seats.index(name))
            drawn = sum(1 for g in games if name in g.seats and g.winner is None)
            lost = rating["games"] - won - drawn
            print(
                f"{key:<11}{name:<11}{rating['mu']:>7.2f}{rating['sigma']:>7.2f}"
                f"{rating['shown']:>7}{rating['games']:>7}{won:>5}{lost:>5}{drawn:>6}"
            )
        capped = sum(1 for g in games if g.capped)
        cpu = sum(g.cpu for g in games)
        recorded = len(entry.get("series", []))
        print(
            f"{key:<11}{len(games)} games ({capped} capped; {recorded} of the series), "
            f"{cpu:.0f} processor s"
        )
        if "command" in entry:
            print(f"{'':<11}{entry['command']} ({entry['date']})")


def _series_records() -> list[dict[str, Any]]:
    return ai_series.read(ai_series.RESULTS)


def load() -> dict[str, Any]:
    if DATA.exists():
        loaded: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
        return loaded
    return {"pools": {}}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--only", default="", help="comma-separated pool keys (default: all)")
    parser.add_argument(
        "--minutes", type=float, default=3.0, help="processor minutes of the round-robin a pool"
    )
    parser.add_argument("--hard-games", type=int, default=2, help="games of hard a pool")
    parser.add_argument("--cap", type=int, default=200, help="plies before a game is scored")
    parser.add_argument("--write", action="store_true", help=f"store the result in {DATA.name}")
    parser.add_argument("--table", action="store_true", help="print the stored table only")
    parser.add_argument("--progress", action="store_true", help="print every finished game")
    parser.add_argument(
        "--series", action="store_true", help="rate the recorded series games of the pool too"
    )
    ns = parser.parse_args(argv)
    wanted = [w for w in ns.only.split(",") if w] or [p.key for p in Pool]
    data = load()
    if ns.table:
        print_table(data, wanted)
        return
    for key in wanted:
        pool = Pool(key)
        names = list(players_of(pool.game, _options(pool)))
        kept = data["pools"].get(key, {}).get("games", []) if ns.write else []
        games = [Played.from_row(g) for g in kept]
        number = len(games)
        spent = 0.0
        round_no = sum(1 for g in games if "hard" not in g.seats) // len(schedule(names, 0))
        while spent < ns.minutes * 60:
            for seats in schedule(names, round_no):
                game = _played(pool, key, seats, number, ns)
                number += 1
                spent += game.cpu
                games.append(game)
                if spent >= ns.minutes * 60:
                    break
            round_no += 1
        had = sum(1 for g in games if "hard" in g.seats)
        for seats in hard_schedule(names, had + ns.hard_games)[had:]:
            games.append(_played(pool, key, seats, number, ns))
            number += 1
        recorded = series_games(pool, _series_records()) if ns.series else []
        ratings = rate_games(names, games + recorded)
        command = "nice -n 10 .venv/bin/python benchmarks/ai.py --ratings " + " ".join(
            sys.argv[1:] if argv is None else argv
        )
        data["pools"][key] = {
            "title": pool.title,
            "command": command,
            "date": datetime.now(UTC).date().isoformat(),
            "ratings": {
                name: {"mu": r.mu, "sigma": r.sigma, "shown": r.value, "games": r.games}
                for name, r in ratings.items()
            },
            "games": [g.row() for g in games],
            "series": [g.row() for g in recorded],
        }
        print_table(data, [key])
        if ns.write:
            data["model"] = "openskill PlackettLuce, the library's defaults (bot.ratings)"
            data["note"] = (
                "Each pool's games in the order played (seat 0, seat 1, winning seat or null, "
                "plies, capped at the ply limit and scored by evaluation, processor seconds), "
                "rated from new ratings; levels by their iterations, no wall-time cap; then, "
                "with --series, the recorded series games between the pool's players "
                "(benchmarks/ai_series.py: same fields, listed as series)."
            )
            DATA.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
