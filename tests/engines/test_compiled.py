"""The computer player's busiest modules run compiled (mypyc, ``engines/ai/compiled.py``), find
what their sources find, and give way to their sources once those change."""

from __future__ import annotations

import doctest
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engines
from engines.ai import (
    bitboard,
    compiled,
    distance,
    inphexion_plan,
    isopath_race,
    isopath_search,
    pathagon_player,
)
from engines.base import Position
from engines.pathagon import PathagonPosition

#: What setup.py compiles, each after those it imports.
COMPILED = ["isopath_race", "isopath_search", "bitboard", "distance", "pathagon_player"]


def test_the_modules_run_compiled() -> None:
    # The README's install compiles them; a failure here means the build skipped them (no C
    # compiler) or a source changed since (pip install -e . compiles them again).
    assert list(compiled.built()) == COMPILED
    assert compiled.stale() == []
    modules = (isopath_race, isopath_search, bitboard, distance, pathagon_player)
    assert all(compiled.is_compiled(m) for m in modules)
    assert isopath_search.races is isopath_race
    assert not compiled.is_compiled(inphexion_plan)  # a user of two of them, not compiled


def _random_positions(
    game: str, count: int, **options: int
) -> list[tuple[Position, list[Position]]]:
    """``count`` positions of random games of ``game`` still going, each with the game before
    it."""
    rng = random.Random(f"{game} {options}")
    out: list[tuple[Position, list[Position]]] = []
    while len(out) < count:
        position = engines.new(game, **options)
        history = []
        for _ in range(rng.randrange(2, 40)):
            moves = position.legal_moves()
            if position.outcome is not None or not moves:
                break
            history.append(position)
            position = position.play(rng.choice(moves))
        if position.outcome is None:
            out.append((position, history))
    return out


@pytest.mark.parametrize("size", [4, 5])
def test_the_compiled_search_finds_what_its_source_finds(size: int) -> None:
    source = compiled.sources("isopath_race", "isopath_search")["isopath_search"]
    assert not compiled.is_compiled(source) and source.races is not isopath_race
    for position, history in _random_positions("isopath", 5, size=size):
        assert isopath_search.evaluate(position) == source.evaluate(position)
        assert isopath_search.below_root(position) == source.below_root(position)
        ours = isopath_search.search(position, nodes=1500, history=history)
        theirs = source.search(position, nodes=1500, history=history)
        assert (ours.move, ours.score, ours.depth, ours.nodes) == (
            theirs.move,
            theirs.score,
            theirs.depth,
            theirs.nodes,
        )


def test_pathagon_and_inphexion_are_judged_as_by_the_sources() -> None:
    source = compiled.sources("bitboard", "distance", "pathagon_player", "inphexion_plan")
    assert not any(compiled.is_compiled(m) for m in source.values())
    plain = source["pathagon_player"]
    for position, _ in _random_positions("pathagon", 12):
        assert isinstance(position, PathagonPosition)
        assert pathagon_player.pathagon_evaluate(position) == plain.pathagon_evaluate(position)
        assert pathagon_player.pathagon_candidates(position) == plain.pathagon_candidates(position)
        for side in (0, 1):
            assert pathagon_player.traps(position, side) == plain.traps(position, side)
    for size in (5, 9):
        for position, _ in _random_positions("inphexion", 6, size=size):
            assert inphexion_plan.evaluate(position) == source["inphexion_plan"].evaluate(position)


def test_the_sources_doctests_pass() -> None:
    # pytest's doctest collection would import the compiled modules (see conftest.py).
    for name, module in compiled.sources(*COMPILED).items():
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.attempted > 0 and result.failed == 0, name


def test_a_source_changed_since_the_build_runs_instead(tmp_path: Path) -> None:
    # A copy of the package with its compiled modules, one source then edited: importing the
    # search imports both sources (the compiled search would call its compiled race count).
    shutil.copytree(
        Path(engines.__file__).parent,
        tmp_path / "engines",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    here = tmp_path / "engines" / "ai"
    script = "import engines.ai.isopath_search as s; print(s.__file__); print(s.races.__file__)"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(tmp_path)}
    ran = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
        timeout=120, check=True,
    )  # fmt: skip
    # (mypyc names a compiled module's file after its group's: only the ending counts.)
    assert [Path(f).suffix for f in ran.stdout.split()] == [".so", ".so"]
    assert "changed since compiled" not in ran.stderr
    with (here / "isopath_race.py").open("a", encoding="utf-8") as source:
        source.write("\n# changed\n")
    ran = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
        timeout=120, check=True,
    )  # fmt: skip
    assert ran.stdout.split() == [str(here / "isopath_search.py"), str(here / "isopath_race.py")]
    assert "isopath_race changed since compiled: running the sources" in ran.stderr
