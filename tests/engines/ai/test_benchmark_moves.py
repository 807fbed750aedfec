"""The AI benchmark records what it played: ``--moves``, replayed from the start, reaches the
same ply and the same outcome, and ``--no-wall-cap`` lets every match-up search by iterations
alone (``benchmarks/ai.py`` is a plain script, loaded here from its file)."""

from __future__ import annotations

from functools import cache
from types import ModuleType

import pytest

import engines
from tests.scripts import load_script


@cache
def _benchmark() -> ModuleType:
    return load_script("benchmarks/ai.py")


@pytest.mark.parametrize(("label", "cap"), [("isopath h4", 12), ("pathagon", 300)])
def test_the_recorded_moves_replay_the_game(label: str, cap: int) -> None:
    bench = _benchmark()
    game, options = next((g, o) for lab, g, o in bench.GAMES if lab == label)
    # ``easy`` on its own budget (no wall cap, so the same game on any machine) against the
    # one-ply greedy player, both seats: Iso-Path (two-part turns) stopped at the cap, Pathagon
    # played to its end.
    for game_no in (0, 1):
        args = (label, "ref-greedy", options, game_no, cap, False, 0.05, 1.0, 1.0, "easy")
        _, _, res = bench.play_one(args)
        assert len(res.moves) == res.plies > bench.OPENING
        pos = engines.new(game, **options)
        for move in res.moves:
            pos = pos.play(move)
        assert pos.ply == res.plies
        if res.capped:
            assert pos.outcome is None and pos.ply == cap
        else:
            assert pos.outcome is not None
            seat = game_no % 2
            winner = pos.outcome.winner
            assert res.score == (0.5 if winner is None else float(winner == seat))


def test_without_the_wall_cap_the_level_match_ups_play_by_iterations_alone() -> None:
    """``--no-wall-cap`` holds in ``normal-easy`` too: with a time scale that would leave
    ``normal`` no time at all, it plays the moves its iterations choose."""
    bench = _benchmark()
    options = {"size": 4}
    games = [
        bench.play_one(("isopath h4", "normal-easy", options, 0, 8, False, 0.05, scale, 1.0, ""))
        for scale in (1.0, 1e-9)
    ]
    assert games[0][2].moves == games[1][2].moves
    assert len(games[0][2].moves) == 8
