"""The evaluation's timing benchmark (``benchmarks/ai_eval.py``, issue 49): the positions it
times are those of the recorded Iso-Path games, and it prints both figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engines
from tests.scripts import load_script


def _results(tmp_path: Path) -> tuple[Path, list[str]]:
    pos = engines.new("isopath")
    moves = []
    for _ in range(3):
        move = sorted(pos.legal_moves())[0]
        moves.append(move)
        pos = pos.play(move)
    path = tmp_path / "ai_series.jsonl"
    lines = [
        {"game": "isopath", "options": {"size": 4}, "moves": moves},
        {"game": "pathagon", "options": {}, "moves": ["d4"]},  # not Iso-Path: left out
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    return path, moves


def test_the_positions_timed_are_the_recorded_iso_path_games(tmp_path: Path) -> None:
    bench = load_script("benchmarks/ai_eval.py")
    path, moves = _results(tmp_path)
    found = bench.recorded(path)
    assert [p.ply for p in found] == [0, 1, 2, 3]
    assert found == list(engines.replay("isopath", moves, size=4))
    assert len(bench.recorded(path, limit=2)) == 2


def test_it_prints_the_evaluation_and_the_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_script("benchmarks/ai_eval.py")
    path, _ = _results(tmp_path)
    bench.main(
        [
            "--repeat",
            "1",
            "--searches",
            "1",
            "--nodes",
            "200",
            "--size",
            "4",
            "--results",
            str(path),
        ]
    )
    out = capsys.readouterr().out
    assert "evaluation, 4 recorded positions" in out
    assert "search, h4, 1 positions at 200 evaluations" in out


def test_it_compares_the_compiled_search_with_its_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_script("benchmarks/ai_eval.py")
    path, _ = _results(tmp_path)
    args = ["--compare", "--repeat", "2", "--searches", "1", "--nodes", "200", "--size", "4"]
    bench.main([*args, "--results", str(path)])
    out = capsys.readouterr().out
    assert "as installed: compiled True" in out
    assert "evaluation, 4 recorded positions" in out and "search, h4, 1 positions at 200" in out
    assert out.count("from source / as installed: ") == 2
    assert out.count("  as installed µs a position ") == 1
    assert out.count("  from source processor s ") == 1
