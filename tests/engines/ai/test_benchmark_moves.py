"""The AI benchmark's ``--moves`` record is the game it played: replayed from the start, the
moves reach the same ply and the same outcome (``benchmarks/ai.py`` is a plain script, loaded
here from its file)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import engines

BENCHMARK = Path(__file__).resolve().parents[3] / "benchmarks" / "ai.py"


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("benchmark_ai", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


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
