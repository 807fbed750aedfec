"""Iso-Path's search runs compiled (mypyc, ``engines/ai/compiled.py``), finds what its source
finds, and gives way to its source once that changes."""

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
from engines.ai import compiled, isopath_race, isopath_search
from engines.isopath import IsopathPosition


def test_the_search_runs_compiled() -> None:
    # The README's install compiles it; a failure here means the build skipped it (no C
    # compiler) or a source changed since (pip install -e . compiles it again).
    assert list(compiled.built()) == ["isopath_race", "isopath_search"]
    assert compiled.stale() == []
    assert compiled.is_compiled(isopath_search) and compiled.is_compiled(isopath_race)
    assert isopath_search.races is isopath_race


def _positions(size: int, count: int) -> list[tuple[IsopathPosition, list[IsopathPosition]]]:
    """``count`` positions of random games on board ``size``, each with the game before it."""
    rng = random.Random(size)
    out = []
    for _ in range(count):
        position = engines.new("isopath", size=size)
        history = []
        for _ in range(rng.randrange(4, 40)):
            if position.outcome is not None:
                break
            history.append(position)
            position = position.play(rng.choice(position.legal_moves()))
        if position.outcome is None:
            assert isinstance(position, IsopathPosition)
            out.append((position, history))
    return out


@pytest.mark.parametrize("size", [4, 5])
def test_the_compiled_search_finds_what_its_source_finds(size: int) -> None:
    source = compiled.sources("isopath_race", "isopath_search")["isopath_search"]
    assert not compiled.is_compiled(source) and source.races is not isopath_race
    for position, history in _positions(size, 5):
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


def test_the_sources_doctests_pass() -> None:
    # pytest's doctest collection would import the compiled modules (see conftest.py).
    for name, module in compiled.sources("isopath_race", "isopath_search").items():
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
