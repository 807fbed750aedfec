"""Processor time of Iso-Path's evaluation and search, to compare two versions of the
computer player (issue 49).

It times the evaluation (:func:`engines.ai.isopath_search.evaluate`'s scoring) over every
position of the Iso-Path games recorded by ``benchmarks/ai_series.py``, and the search at a
fixed number of evaluations from :mod:`ai_time`'s middle-game positions of one size.  Each is
run ``--repeat`` times and printed with its median.  The figures depend on the machine and on
what else runs there, so compare two versions on one machine in one sitting, alternating:
check the other version out in a git worktree and run this script from each checkout in turn.

Run: ``.venv/bin/python benchmarks/ai_eval.py`` (``--repeat 5 --size 5 --searches 5 --nodes
24000``; ``--searches 0`` times the evaluation alone).  ``--compare`` times the modules as
installed (compiled by mypyc, :mod:`engines.ai.compiled`) against the same modules run from
their sources, alternating in one process, and prints the ratio of the medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

sys.path.append(str(Path(__file__).resolve().parent))  # the scripts beside this one, after
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository

import ai_series  # the script beside this one: the results file and its reader
import ai_time  # the script beside this one: its middle-game positions

import engines
from engines.ai import compiled, isopath_search
from engines.base import Position
from engines.isopath import IsopathPosition


def recorded(path: Path, limit: int | None = None) -> list[IsopathPosition]:
    """The positions of the recorded Iso-Path games still going (at most ``limit``)."""
    out: list[IsopathPosition] = []
    for r in ai_series.read(path):
        if r["game"] != "isopath":
            continue
        for pos in engines.replay("isopath", r["moves"], **r["options"]):
            if isinstance(pos, IsopathPosition) and pos.outcome is None:
                out.append(pos)
                if limit is not None and len(out) >= limit:
                    return out
    return out


def evaluation_us(positions: list[IsopathPosition], search: ModuleType = isopath_search) -> float:
    """Processor microseconds a position of the evaluation over ``positions`` (by the module
    ``search``: Iso-Path's search as imported, or from its source)."""
    boards = [(search._layout(p), list(p.heights), list(p.pieces), p.to_move) for p in positions]
    start = time.process_time()
    for lay, h, pieces, mover in boards:
        search._score(lay, h, pieces, mover)
    return (time.process_time() - start) / len(boards) * 1e6


def search_s(positions: list[Position], nodes: int, search: ModuleType = isopath_search) -> float:
    """Processor seconds of the search at ``nodes`` evaluations, summed over ``positions``."""
    start = time.process_time()
    for pos in positions:
        search.search(pos, nodes=nodes)
    return time.process_time() - start


def _runs(runs: list[float], digits: int) -> str:
    return (
        f"{' '.join(f'{x:.{digits}f}' for x in runs)}, median {statistics.median(runs):.{digits}f}"
    )


# A figure: what it is, its unit, its digits, and how to take it with a version of the search.
Figure = tuple[str, str, int, Callable[[ModuleType], float]]


def figures(
    boards: list[IsopathPosition], spots: list[Position], size: int, nodes: int
) -> list[Figure]:
    """The evaluation over ``boards`` and the search at ``nodes`` evaluations over ``spots``
    (positions of board ``size``), those not empty."""
    out: list[Figure] = []
    if boards:
        label = f"evaluation, {len(boards)} recorded positions"
        out.append((label, "µs a position", 1, lambda m: evaluation_us(boards, m)))
    if spots:
        label = f"search, h{size}, {len(spots)} positions at {nodes} evaluations"
        out.append((label, "processor s", 2, lambda m: search_s(spots, nodes, m)))
    return out


def compare(found: list[Figure], repeat: int) -> None:
    """Print each figure for the search as imported and from its sources, alternating."""
    source = compiled.sources("isopath_race", "isopath_search")["isopath_search"]
    pairs = (("as installed", isopath_search), ("from source", source))
    print(f"as installed: compiled {compiled.is_compiled(isopath_search)}")
    for label, unit, digits, measure in found:
        runs: dict[str, list[float]] = {name: [] for name, _ in pairs}
        for _ in range(repeat):
            for name, module in pairs:
                runs[name].append(measure(module))
        print(label)
        for name, _ in pairs:
            print(f"  {name} {unit} {_runs(runs[name], digits)}")
        ratio = statistics.median(runs["from source"]) / statistics.median(runs["as installed"])
        print(f"  from source / as installed: {ratio:.2f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each figure")
    parser.add_argument("--size", type=int, default=5, help="the searches' board size")
    parser.add_argument("--searches", type=int, default=5, help="middle-game positions searched")
    parser.add_argument("--nodes", type=int, default=24_000, help="evaluations a search")
    parser.add_argument("--limit", type=int, default=None, help="recorded positions at most")
    parser.add_argument(
        "--results", type=Path, default=ai_series.RESULTS, help="the series' results"
    )
    parser.add_argument(
        "--compare", action="store_true", help="compiled against source, in one process"
    )
    ns = parser.parse_args(argv)
    print(f"code: {Path(isopath_search.__file__).resolve().parents[2]}")
    boards = recorded(ns.results, ns.limit)
    spots = ai_time.positions("isopath", {"size": ns.size}, ns.searches) if ns.searches else []
    found = figures(boards, spots, ns.size, ns.nodes)
    if ns.compare:
        compare(found, ns.repeat)
        return
    for label, unit, digits, measure in found:
        runs = [measure(isopath_search) for _ in range(ns.repeat)]
        print(f"{label}: {unit} {_runs(runs, digits)}")


if __name__ == "__main__":
    main()
