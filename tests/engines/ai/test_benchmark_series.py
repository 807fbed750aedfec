"""The accumulating AI series (``benchmarks/ai_series.py``, issue 49): each finished game is
appended to the results file, a later run goes on from the last recorded game number, the
report reads the file back, and a game ended by the bot's no-progress rules is recorded with
its result (a draw).  Tiny series at the ``easy`` level and the Padfoot-like reference, so the
games are short; the series' real figures come from the benchmark."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

import engines
from engines.ai import budget_of
from engines.ai.draws import CLAIM_AFTER, OFFER_AFTER
from engines.isopath import IsopathPosition
from tests.engines.ai.test_draws import SHUFFLE
from tests.scripts import load_script


@cache
def _series() -> ModuleType:
    return load_script("benchmarks/ai_series.py")


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The series module with two tiny series added: inpHeXion 5x5 and Iso-Path h4."""
    mod = _series()
    monkeypatch.setitem(
        mod.SERIES, "tiny", mod.Series("inphexion 5x5", "inphexion", {"size": 5}, 2, ("easy-easy",))
    )
    monkeypatch.setitem(
        mod.SERIES,
        "tiny-isopath",
        mod.Series("isopath h4", "isopath", {"size": 4}, 0, ("padfoot2-padfoot2", "easy-easy")),
    )
    return mod


def test_finished_games_are_appended_and_the_report_reads_them_back(
    tiny: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tmp_path / "results" / "series.jsonl"
    first = tiny.run(["tiny"], 1, results, wall_cap=False, progress=False)
    second = tiny.run(["tiny"], 1, results, wall_cap=False, progress=False)
    records = tiny.read(results)
    assert records == first + second
    # The second run went on from the first: game 1, the other seat.
    assert [(r["game_no"], r["seat"]) for r in records] == [(0, 0), (1, 1)]
    for r in records:
        assert r["series"] == "tiny" and r["matchup"] == "easy-easy" and r["commit"]
        # inpHeXion has no draw: every game is won or lost on the board.
        assert r["end"] == {1.0: "won", 0.0: "lost"}[r["score"]]
        pos = engines.new("inphexion", size=5)
        for move in r["moves"]:
            pos = pos.play(move)
        assert pos.outcome is not None and pos.ply == r["plies"] == len(r["moves"])
        assert (pos.outcome.winner == r["seat"]) == (r["score"] == 1.0)
        # Every move after the two random ones is timed and measured, on its side.
        assert len(r["cpu"][0]) + len(r["cpu"][1]) == r["plies"] - 2
        assert all(mb > 0 for side in r["peak_mb"] for mb in side)
        assert [len(side) for side in r["base_mb"]] == [len(side) for side in r["cpu"]]
        assert r["budgets"][0] == {"iterations": 150, "seconds": None}
    lines: list[str] = []
    tiny.report(records, lines.append)
    assert lines[0].startswith("2 games recorded")
    row = next(line.split() for line in lines if "easy-easy" in line)
    won = sum(r["score"] == 1.0 for r in records)
    # size (2 words), opening (3 words), match-up, games, distinct games, won, lost, drawn.
    assert row[:10] == ["inphexion", "5x5", "2", "random", "plies", "easy-easy", "2", "2",
                        str(won), str(2 - won)]  # fmt: skip
    assert any(line.startswith("inphexion 5x5  easy") for line in lines)
    # Games 0 and 1 share their random opening, one from each seat: a pair won twice, split
    # (the seat the opening favoured won both) or lost twice by the first-named player.
    assert row[12] == {2: "1/0/0", 1: "0/1/0", 0: "0/0/1"}[won]
    # A drawn game makes a split too; a game without its pair's other seat is not counted.
    games = [
        {"game_no": no, "score": score, "opening": 2}
        for no, score in enumerate([0.5, 0.5, 0.0, 0.0, 1.0])
    ]
    assert tiny.pairs(games) == "0/1/1"
    assert tiny.pairs([{**g, "opening": 0} for g in games]) == "-"  # one fixed opening
    # A game played again move for move (as players that choose alike from one opening do)
    # is one more game but not one more distinct game.
    tiny.append(results, {**records[0], "game_no": 2})
    lines.clear()
    tiny.report(tiny.read(results), lines.append)
    row = next(line.split() for line in lines if "easy-easy" in line)
    assert row[6:8] == ["3", "2"]
    # Games recorded before the game's computer player last changed are reported apart.
    later = {**records[0], "game_no": 3, "date": "2999-01-01T00:00:00+00:00"}
    tiny.append(results, later)
    monkeypatch.setitem(
        tiny.PLAYER_CHANGES, "inphexion", tiny.Change("2998-01-01T00:00:00+00:00", "test")
    )
    lines.clear()
    tiny.report(tiny.read(results), lines.append)
    rows = [line.split(", before") for line in lines if "easy-easy" in line]
    # The earlier games (their opening marked), then the later one: 3 games, then 1.
    games = [(len(r), r[-1].split("easy-easy")[1].split()[0]) for r in rows]
    assert games == [(2, "3"), (1, "1")]
    # A game played again (its number recorded again, at a later build) counts as recorded
    # last; its earlier record is reported with the games before.
    tiny.append(results, {**later, "date": "2999-01-02T00:00:00+00:00"})
    lines.clear()
    tiny.report(tiny.read(results), lines.append)
    rows = [line.split(", before") for line in lines if "easy-easy" in line]
    games = [(len(r), r[-1].split("easy-easy")[1].split()[0]) for r in rows]
    assert games == [(2, "4"), (1, "1")]
    assert any(line.startswith("1 game(s) played again") for line in lines)


def test_a_run_may_play_some_match_ups_of_a_series_only(
    tiny: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tmp_path / "series.jsonl"
    spec = tiny.Series(
        "inphexion 5x5", "inphexion", {"size": 5}, 2, ("normal-easy", "easy-easy"), ("easyx2-easy",)
    )
    monkeypatch.setitem(tiny.SERIES, "two", spec)
    played = tiny.run(["two"], 2, results, wall_cap=False, progress=False, matchups=["easy-easy"])
    assert [(r["matchup"], r["game_no"]) for r in played] == [("easy-easy", 0), ("easy-easy", 1)]
    assert tiny.read(results) == played
    # A trial's match-up is played only when named: ``easyx2`` is ``easy`` at twice its
    # iterations (and, with the wall cap, its seconds), and is recorded so.
    trial = tiny.run(["two"], 1, results, wall_cap=False, progress=False, matchups=["easyx2-easy"])
    assert [(r["matchup"], r["game_no"]) for r in trial] == [("easyx2-easy", 0)]
    assert trial[0]["budgets"] == [
        {"iterations": 300, "seconds": None},
        tiny.budget("easy", False, 0, "inphexion", {"size": 5}),
    ]
    assert tiny.budget("hardx3", True, 0, "maphex", {"size": 9}) == {
        "iterations": 36000,
        "seconds": 60.0,
    }
    # In a game where the bot gives a level more (Iso-Path's ``hard``: twice its
    # iterations), a trial multiplies that; the wall cap is the level's own, multiplied.
    assert tiny.budget("hardx3", True, 0, "isopath", {"size": 5}) == {
        "iterations": 72000,
        "seconds": 60.0,
    }
    # A run that names no match-up plays the series' own, never its trials.
    monkeypatch.setitem(tiny.SERIES, "one", dataclasses.replace(spec, matchups=("easy-easy",)))
    default = tiny.run(["one"], 1, tmp_path / "one.jsonl", wall_cap=False, progress=False)
    assert [r["matchup"] for r in default] == ["easy-easy"]
    for name in ("hardx1", "hardx", "hardxx3", "mediumx2"):
        with pytest.raises(ValueError):
            tiny.player(name, 0, False, 0, "isopath", {})
    # A match-up the series does not have is refused before anything is played.
    with pytest.raises(SystemExit) as refused:
        tiny.main(["two", "--matchups", "hard-easy", "--results", str(results)])
    assert refused.value.code == 2 and tiny.read(results) == played + trial


def test_a_game_without_progress_ends_with_a_recorded_draw(
    tiny: ModuleType, tmp_path: Path
) -> None:
    shuffle = SHUFFLE * 40  # the opening's four turns that bring the start back, 160 plies
    # Two references offer nothing: the draw is claimed at 150 plies without progress (the
    # first round's 3 plies make progress), before either has had to move.
    claimed = tiny.play_game("tiny-isopath", "padfoot2-padfoot2", 0, False, 1000, replay=shuffle)
    assert claimed["end"] == "draw claimed" and claimed["score"] == 0.5
    assert claimed["quiet"] == CLAIM_AFTER and claimed["plies"] == CLAIM_AFTER + 3
    assert claimed["cpu"] == [[], []]
    # Two levels: the side that just moved offers at 100 plies without progress, and the other
    # accepts, the shuffle being held by its evaluation.
    agreed = tiny.play_game("tiny-isopath", "easy-easy", 1, False, 1000, replay=shuffle)
    assert agreed["end"] == "draw agreed" and agreed["score"] == 0.5
    assert agreed["quiet"] == OFFER_AFTER and agreed["plies"] == OFFER_AFTER + 3
    results = tmp_path / "series.jsonl"
    for record in (claimed, agreed):
        tiny.append(results, {"date": "2026-12-06T12:00:00+00:00", "commit": "test", **record})
    lines: list[str] = []
    tiny.report(tiny.read(results), lines.append)
    assert "how games ended: draw agreed 1, draw claimed 1" in lines
    rows = [line.split() for line in lines if "replayed" in line]
    # Each: one game (one distinct), none won or lost, one drawn, none unfinished.
    assert [row[4:11] for row in rows] == [["padfoot2-padfoot2", "1", "1", "0", "0", "1", "0"],
                                           ["easy-easy", "1", "1", "0", "0", "1", "0"]]  # fmt: skip


def test_each_move_is_searched_from_positions_replayed_afresh(
    tiny: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the bot's search worker does, each move gets the game's positions replayed afresh:
    none carries the legal turns an earlier move listed on it (an Iso-Path h5 position's are
    some 16,000 texts; kept on every position of a 284-ply game they took the process from
    25 to 359 MB)."""
    given: list[tuple[engines.Position, list[engines.Position]]] = []
    real = tiny.player

    def spying(name: str, *args: object) -> object:
        play = real(name, *args)

        def spy(pos: engines.Position, history: list[engines.Position]) -> str:
            assert all("_legal" not in vars(p) for p in [*history, pos])
            given.append((pos, history))
            return play(pos, history)

        return spy

    monkeypatch.setattr(tiny, "player", spying)
    record = tiny.play_game("tiny-isopath", "easy-easy", 0, False, 100, cap=12)
    assert len(given) == 12 == len(record["moves"])
    for ply, (pos, history) in enumerate(given):
        # The position after the moves recorded so far, the earlier ones before it.
        assert [p.ply for p in [*history, pos]] == list(range(ply + 1))
        expected = engines.position_after("isopath", record["moves"][:ply], size=4)
        assert isinstance(pos, IsopathPosition) and isinstance(expected, IsopathPosition)
        assert (pos.heights, pos.pieces) == (expected.heights, expected.pieces)


def test_a_stopped_game_goes_on_from_its_last_ply(
    tiny: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run killed mid-game (a session's time is up) leaves the game's file as of its last
    ply; the next run of that game plays those moves again without searching them and goes on
    as the game would have, and the record says where it went on from."""
    whole = tiny.play_game("tiny-isopath", "easy-easy", 0, False, 100, cap=14)
    results = tmp_path / "series.jsonl"
    folder = results.parent / tiny.UNFINISHED
    paused = tiny.unfinished_path(folder, "tiny-isopath", "easy-easy", 0)
    real = tiny.player
    searched: list[int] = []
    monkeypatch.setattr(tiny, "player", _stopping_at(real, 5, searched))
    with pytest.raises(KeyboardInterrupt):
        tiny.play_game(
            "tiny-isopath", "easy-easy", 0, False, 100, cap=14, unfinished=paused, build="abc1234"
        )
    game = json.loads(paused.read_text())
    assert game["moves"] == whole["moves"][:5] and game["resumed"] == []
    assert game["commit"] == "abc1234"  # the build that played it
    # Its five moves' timings kept on their sides (no random plies in this series): three of
    # the first-named player's, two of the other's, each with its peak and base memory.
    assert [[len(side[k]) for k in ("cpu", "peak_mb", "base_mb")] for side in game["sides"]] == [
        [3, 3, 3],
        [2, 2, 2],
    ]
    # The report names it, with the command that goes on with it.
    lines: list[str] = []
    tiny.report([], lines.append, unfinished=tiny.in_progress(folder))
    assert lines[-1] == ("in progress: tiny-isopath easy-easy game 0 at ply 5 (goes on with: "
                         "tiny-isopath --matchups easy-easy --first 0 --games 1)")  # fmt: skip
    # Stopped again at ply 9, then run to its end: the moves are the uninterrupted game's.
    searched.clear()
    monkeypatch.setattr(tiny, "player", _stopping_at(real, 9, searched))
    with pytest.raises(KeyboardInterrupt):
        tiny.play_game("tiny-isopath", "easy-easy", 0, False, 100, cap=14, unfinished=paused)
    assert searched == [5, 6, 7, 8]  # the five plies before were played again, not searched
    monkeypatch.setattr(tiny, "player", real)
    monkeypatch.setattr(tiny, "commit", lambda: "test")
    (record,) = tiny.run(
        ["tiny-isopath"], 1, results, first=0, wall_cap=False, cap=14, progress=False,
        matchups=["easy-easy"],
    )  # fmt: skip
    assert record["moves"] == whole["moves"] and record["resumed"] == [5, 9]
    assert [len(side) for side in record["cpu"]] == [len(side) for side in whole["cpu"]]
    assert record["cpu"][0][:2] == game["sides"][0]["cpu"][:2]  # the earlier runs' timings kept
    assert not paused.exists() and tiny.in_progress(folder) == []
    # Another game's file in its place is refused, not played on.
    tiny.save_unfinished(paused, {**game, "game_no": 3})
    with pytest.raises(ValueError, match="holds another game"):
        tiny.play_game("tiny-isopath", "easy-easy", 0, False, 100, cap=14, unfinished=paused)


#: A series player: the move for a position and the game's positions before it.
_Player = Callable[[engines.Position, list[engines.Position]], str]


def _stopping_at(
    real: Callable[..., _Player], ply: int, searched: list[int]
) -> Callable[..., _Player]:
    """The series' ``player`` (``real``) with its players stopped at ``ply`` as a process killed
    mid-search; the plies searched before are added to ``searched``."""

    def make(name: str, *args: object) -> _Player:
        play = real(name, *args)

        def spy(pos: engines.Position, history: list[engines.Position]) -> str:
            if pos.ply == ply:
                raise KeyboardInterrupt
            searched.append(pos.ply)
            return play(pos, history)

        return spy

    return make


def test_the_timing_benchmark_reads_positions_of_a_recorded_hard_game(tmp_path: Path) -> None:
    """``benchmarks/ai_time.py --series-plies`` times positions of a real recorded game: those
    of the first game of the size in which ``hard`` played, at the plies asked that it
    reached."""
    timing = load_script("benchmarks/ai_time.py")
    game, moves = engines.new("inphexion", size=5), []
    while game.outcome is None and len(moves) < 12:
        legal = sorted(game.legal_moves())
        moves.append(legal[len(moves) % len(legal)])
        game = game.play(moves[-1])
    fields = {"game": "inphexion", "moves": moves}
    records = [
        {**fields, "options": {"size": 5}, "matchup": "normal-easy"},  # no hard: passed over
        {**fields, "options": {"size": 7}, "matchup": "hard-normal"},  # another size
        {**fields, "options": {"size": 5}, "matchup": "normal-hard"},
    ]
    results = tmp_path / "series.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    replayed = list(engines.replay("inphexion", moves, size=5))
    found = timing.series_positions("inphexion", {"size": 5}, [2, 5, 400], results)
    assert found == [replayed[2], replayed[5]]
    assert timing.series_positions("maphex", {"size": 9}, [2], results) == []
    assert timing.series_positions("inphexion", {"size": 5}, [2], tmp_path / "none.jsonl") == []


def test_the_timing_benchmark_times_a_trial_at_its_multiple_of_the_budget(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``benchmarks/ai_time.py --levels easy,easyx2`` times a level and a trial of it: the
    trial searches twice the level's iterations (the series' budget, one definition); a name
    that is neither a level nor a trial is refused before anything is timed."""
    timing = load_script("benchmarks/ai_time.py")
    timing.main(
        ["--only", "maphex", "--positions", "1", "--levels", "easy,easyx2", "--no-wall-cap"]
    )
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    searched = {(row[0], row[1], row[2]): int(row[-1]) for row in rows}
    easy = budget_of("easy")["iterations"]
    for size in ("9", "16"):
        assert searched[("maphex", size, "easy")] == easy
        assert searched[("maphex", size, "easyx2")] == 2 * easy
    with pytest.raises(SystemExit):
        timing.main(["--levels", "hard,mediumx2"])
    assert "no level 'mediumx2'" in capsys.readouterr().err


def test_every_rating_pool_has_a_series_of_the_level_pairs_on_its_board() -> None:
    """Each game's rating pools (the boards the bot's levels are rated on) have a series on
    that board with ``normal`` against ``easy`` and ``hard`` against ``normal``, so the level
    ratings (``benchmarks/ai.py --ratings --series``) can rest on games at full budgets."""
    mod = _series()
    for key, spec in engines.GAMES.items():
        for pool in spec.pools:
            played = {
                m
                for s in mod.SERIES.values()
                if s.game == key and s.options == dict(pool.options)
                for m in s.matchups
            }
            assert set(mod.LEVEL_PAIRS) <= played, pool.key


def test_from_the_standard_opening_abtie_plays_one_of_its_equal_moves_by_the_seed() -> None:
    """From Pathagon's standard opening the alpha-beta reference plays the same first move
    whatever the seed; ``abtie`` plays one of the moves it finds equal, the same for one seed
    and not the same for every seed, so the series' games from that opening differ."""
    mod = _series()
    start = engines.new("pathagon")

    def play(name: str, seed: int) -> str:
        move: str = mod.player(name, seed, False, 400, "pathagon", {})(start, [])
        return move

    first = {play("ab", seed) for seed in range(6)}
    tied = [play("abtie", seed) for seed in range(6)]
    assert len(first) == 1 and len(set(tied)) > 1
    assert tied == [play("abtie", seed) for seed in range(6)]
    assert "hard-abtie" in mod.SERIES["pathagon-standard"].matchups
    assert mod.budget("abtie", False, 400, "pathagon", {}) == {
        "nodes": 400,
        "depth": 4,
        "ties": "seeded",
    }


def test_the_ai_benchmark_hands_the_series_its_first_game_number_game_0_too(
    tiny: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = load_script("benchmarks/ai.py")
    monkeypatch.setitem(sys.modules, "ai_series", tiny)  # what its ``import ai_series`` finds
    monkeypatch.setattr(tiny, "RESULTS", tmp_path / "series.jsonl")
    options = ["--series", "tiny", "--no-wall-cap", "--workers", "1"]
    monkeypatch.setattr(sys, "argv", ["ai.py", *options, "--games", "2"])
    bench.main()
    # Without ``--first`` the series goes on after its last game; ``--first 0`` plays game 0
    # again, move for move, rather than game 2.
    monkeypatch.setattr(sys, "argv", ["ai.py", *options, "--games", "1", "--first", "0"])
    bench.main()
    records = tiny.read(tmp_path / "series.jsonl")
    assert [r["game_no"] for r in records] == [0, 1, 0]
    assert records[2]["moves"] == records[0]["moves"]


def _history_repo(tmp_path: Path) -> tuple[Path, str, str, str, str]:
    """A scratch repository: commits ``before``, ``change`` and ``after`` on main, and ``side``
    (the earlier player, on another worktree) branched from ``before``."""
    repo = tmp_path / "repo"
    repo.mkdir()

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.strip()

    git("init", "-q", "-b", "main")
    for name in ("before", "change", "after"):
        git("commit", "-q", "--allow-empty", "-m", name)
    before, change, after = git("rev-list", "--reverse", "HEAD").split()
    git("checkout", "-q", "-b", "side", before)
    git("commit", "-q", "--allow-empty", "-m", "the earlier player, on another worktree")
    side = git("rev-parse", "HEAD")
    git("checkout", "-q", "main")
    return repo, before, change, after, side


def test_a_game_counts_as_the_current_players_by_its_commit_in_the_history(
    tiny: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Series at two builds run side by side in worktrees, so a game of the earlier player may
    end after the change: its commit, not its date, says which player played it."""
    repo, before, change, after, side = _history_repo(tmp_path)
    since, known = tiny._history(change[:7], repo)
    assert since == {change, after}
    assert known == {before, change, after, side}
    assert tiny._history("0000000", repo) == (frozenset(), frozenset())

    monkeypatch.setattr(tiny, "HERE", repo / "benchmarks")
    monkeypatch.setitem(
        tiny.PLAYER_CHANGES, "maphex", tiny.Change("2026-12-06T02:00:00+00:00", change[:7])
    )

    def game(commit: str, date: str) -> dict[str, object]:
        return {"game": "maphex", "commit": commit, "date": date}

    late, early = "2026-12-06T03:00:00+00:00", "2026-12-06T01:00:00+00:00"
    assert tiny.current(game(change[:7], late)) and tiny.current(game(after[:7] + "+", late))
    # The earlier player's game that ended after the change: by its commit, not current.
    assert not tiny.current(game(side[:7], late)) and not tiny.current(game(before[:7], late))
    # A commit the history does not hold (a test's, a lost branch's): by its date.
    assert tiny.current(game("test", late)) and not tiny.current(game("test", early))
    # A game without a change recorded for it.
    assert tiny.current({"game": "fixation", "commit": "test", "date": early})


def test_a_levels_game_counts_only_at_the_budget_it_searches_there_now(
    tiny: ModuleType,
) -> None:
    """A level is its code and its budget: when the bot gives a level more in one game
    (Iso-Path's ``hard``, twice its iterations), that level's games recorded at its earlier
    budget there are the earlier player's, in that game only; a trial's recorded multiple is
    judged as the multiple of today's budget; the references have no level budget."""
    fields = {"game": "isopath", "commit": "test", "date": "2026-12-31T00:00:00+00:00"}
    hard, twice = {"iterations": 12000, "seconds": None}, {"iterations": 24000, "seconds": None}
    padfoot = {"nodes": 10**7, "depth": 3}

    def game(size: int, matchup: str, *budgets: dict[str, object]) -> dict[str, object]:
        return {**fields, "options": {"size": size}, "matchup": matchup, "budgets": list(budgets)}

    assert not tiny.current(game(4, "hard-padfoot3", hard, padfoot))
    assert tiny.current(game(4, "hard-padfoot3", twice, padfoot))
    assert tiny.current(game(5, "hard-padfoot2", twice, padfoot))
    assert not tiny.current(game(5, "hard-padfoot2", hard, padfoot))
    maphex = {**fields, "game": "maphex", "options": {"size": 9}, "matchup": "hard-ab"}
    assert tiny.current({**maphex, "budgets": [hard, {"nodes": 10**6}]})
    assert not tiny.current({**maphex, "budgets": [twice, {"nodes": 10**6}]})
    # ``normal`` and ``easy`` search their budgets on h4 as before.
    small = [{"iterations": 600, "seconds": None}, {"iterations": 150, "seconds": None}]
    assert tiny.current(game(4, "normal-easy", *small))
    assert not tiny.current(game(4, "hard-normal", hard, small[0]))
    # A trial at twice ``hard``'s budget on h4 is now 48 000 iterations; one recorded at
    # 24 000, what ``hard`` searches there now, is ``hard``'s game (``matchup_of``).
    assert tiny.current(game(4, "hardx2-padfoot3", {"iterations": 48000}, padfoot))
    assert not tiny.current(game(4, "hardx2-padfoot3", {"iterations": 36000}, padfoot))
    assert tiny.current(game(4, "hardx2-padfoot3", twice, padfoot))


def test_a_trial_at_what_is_now_its_levels_budget_counts_as_the_level(
    tiny: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """``hardx2`` on Iso-Path h4 searched 24 000 iterations, which ``hard`` now searches there:
    its games are ``hard``'s (a level is its code and its budget), reported and rated under
    ``hard-padfoot3``, one game number counted once (the last recorded); a trial at today's
    multiple stays a trial."""
    fields = {"series": "padfoot3", "label": "isopath h4", "game": "isopath", "opening": 2}
    padfoot = {"nodes": 10**7, "depth": 3}

    def game(matchup: str, no: int, iterations: int, score: float) -> dict[str, object]:
        return {
            **fields,
            "options": {"size": 4},
            "commit": "test",
            "date": f"2026-12-31T00:00:0{no}+00:00",
            "matchup": matchup,
            "game_no": no,
            "seat": no % 2,
            "score": score,
            "end": "won" if score == 1.0 else "lost",
            "plies": 40,
            "budgets": [{"iterations": iterations, "seconds": None}, padfoot],
            "cpu": [[1.0], [1.0]],
            "peak_mb": [[50.0], [50.0]],
            "moves": [f"m{no}{matchup}"],
        }

    records = [
        game("hardx2-padfoot3", 0, 24000, 1.0),
        game("hardx2-padfoot3", 1, 24000, 1.0),
        game("hard-padfoot3", 1, 24000, 0.0),  # game 1 played again by hard: it counts
        game("hard-padfoot3", 2, 12000, 1.0),  # hard at its earlier budget: before
        game("hardx2-padfoot3", 3, 48000, 1.0),  # twice today's budget: still a trial
    ]
    assert [tiny.matchup_of(r) for r in records] == [
        "hard-padfoot3",
        "hard-padfoot3",
        "hard-padfoot3",
        "hard-padfoot3",
        "hardx2-padfoot3",
    ]
    assert tiny.counted(records) == [True, False, True, False, True]
    tiny.report(records)
    # the table's columns: size 15 wide, opening 24, match-up 16, then games, distinct, won, lost
    rows = {
        (line[15:39].strip(), line[39:55].strip()): line[55:].split()[:4]
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("isopath h4") and "padfoot3" in line
    }
    # hard's two games counted now; its earlier ones (played again, another budget) before
    assert rows[("2 random plies", "hard-padfoot3")] == ["2", "2", "1", "1"]
    assert rows[("2 random plies, before", "hard-padfoot3")] == ["2", "2", "2", "0"]
    assert rows[("2 random plies", "hardx2-padfoot3")] == ["1", "1", "1", "0"]


def test_a_game_kept_at_a_levels_earlier_budget_is_played_afresh(
    tiny: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A kept game says the budgets its players searched: when a level's budget on that board
    has changed since (the bot gives it more there now), going on would mix two players in
    one game, so the next run plays it from its start."""
    whole = tiny.play_game("tiny-isopath", "easy-easy", 0, False, 100, cap=10)
    paused = tiny.unfinished_path(tmp_path / tiny.UNFINISHED, "tiny-isopath", "easy-easy", 0)
    real = tiny.player
    monkeypatch.setattr(tiny, "player", _stopping_at(real, 5, []))
    with pytest.raises(KeyboardInterrupt):
        tiny.play_game("tiny-isopath", "easy-easy", 0, False, 100, cap=10, unfinished=paused)
    kept = json.loads(paused.read_text())
    assert kept["budgets"] == [{"iterations": 150, "seconds": None}] * 2
    kept["budgets"][0] = {"iterations": 75, "seconds": None}  # as if easy had searched less
    tiny.save_unfinished(paused, kept)
    monkeypatch.setattr(tiny, "player", real)
    capsys.readouterr()
    record = tiny.play_game("tiny-isopath", "easy-easy", 0, False, 100, cap=10, unfinished=paused)
    assert record["moves"] == whole["moves"] and record["resumed"] == []
    assert "begun with budgets" in capsys.readouterr().out


def test_merge_adds_another_checkouts_games_once_in_the_order_played(
    tiny: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Series played in worktrees come together with ``--merge``: each game recorded there
    and not here is appended, in the order played; merging again adds nothing."""
    ours, theirs, third = tmp_path / "ours.jsonl", tmp_path / "theirs.jsonl", tmp_path / "3.jsonl"
    scratch = tiny.run(["tiny"], 3, tmp_path / "scratch.jsonl", wall_cap=False, progress=False)
    played = [{**r, "date": f"2026-12-0{n + 1}T00:00:00+00:00"} for n, r in enumerate(scratch)]
    for r in played:
        tiny.append(theirs, r)
    tiny.append(ours, played[0])  # one game both files have
    # A game only the third file has, played between the second and the third.
    between = {**played[1], "date": "2026-12-02T12:00:00+00:00", "game_no": 7}
    tiny.append(third, between)
    tiny.append(third, played[1])
    tiny.main(["--merge", str(theirs), str(third), "--results", str(ours)])
    assert tiny.read(ours) == [played[0], played[1], between, played[2]]
    assert capsys.readouterr().out.count("added: ") == 3
    tiny.main(["--merge", str(theirs), str(third), "--results", str(ours)])
    assert capsys.readouterr().out == ""
    assert tiny.read(ours) == [played[0], played[1], between, played[2]]


def test_a_game_begun_by_the_earlier_player_is_played_afresh_not_gone_on_with(
    tiny: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A game stopped at a build before its game's player changed would be half one player's,
    half the other's: the next run plays it from its start, and says so; one stopped at the
    change or after goes on, as does a file from before builds were written in it."""
    repo, before, change, after, side = _history_repo(tmp_path)
    monkeypatch.setattr(tiny, "HERE", repo / "benchmarks")
    monkeypatch.setitem(
        tiny.PLAYER_CHANGES, "isopath", tiny.Change("2026-12-06T02:00:00+00:00", change[:7])
    )
    whole = tiny.play_game("tiny-isopath", "easy-easy", 0, False, 100, cap=10)
    paused = tiny.unfinished_path(tmp_path / tiny.UNFINISHED, "tiny-isopath", "easy-easy", 0)
    real = tiny.player
    for build, goes_on in ((side[:7], False), (before[:7], False), (after[:7], True), ("", True)):
        monkeypatch.setattr(tiny, "player", _stopping_at(real, 5, []))
        with pytest.raises(KeyboardInterrupt):
            tiny.play_game(
                "tiny-isopath", "easy-easy", 0, False, 100, cap=10, unfinished=paused, build=build
            )
        if not build:  # as a file written before the build was
            game = json.loads(paused.read_text())
            del game["commit"], game["date"]
            tiny.save_unfinished(paused, game)
        monkeypatch.setattr(tiny, "player", real)
        capsys.readouterr()
        record = tiny.play_game(
            "tiny-isopath", "easy-easy", 0, False, 100, cap=10, unfinished=paused
        )
        assert record["moves"] == whole["moves"] and not paused.exists()
        assert record["resumed"] == ([5] if goes_on else [])
        said = capsys.readouterr().out
        assert ("played afresh" in said) is not goes_on
        if not goes_on:
            assert f"begun at {build}" in said
