"""A search cut short by its wall-time cap (issue 49: under load the cap ended 31 % of
``hard``'s searches) keeps its best move so far at full quality: the last finished
iteration's move, or a move of the unfinished one that beat it there, never a move judged on
part of its reply.  The clock is a fake one that runs out after a set number of looks, so
that the cap falls at every point of an iteration."""

from __future__ import annotations

import dataclasses
import itertools
import types

import pytest

import engines
from engines.ai import alphabeta
from engines.ai.hooks import plan_of
from engines.base import Position


def _fake_clock(monkeypatch: pytest.MonkeyPatch, module: types.ModuleType, ticks: int) -> float:
    """A clock for ``module`` that moves one second a look; its deadline after ``ticks``."""
    count = itertools.count()
    monkeypatch.setattr(module, "time", types.SimpleNamespace(perf_counter=lambda: next(count)))
    return float(ticks)


def _deeper(position: Position, plan: alphabeta.Plan, move: str, depth: int) -> float:
    """``move``'s exact score for the mover, searched ``depth`` plies in all (full window)."""
    state = alphabeta._Search(plan, None, None)
    return -state.negamax(position.play(move), depth - 1, -2 * alphabeta.WIN, 2 * alphabeta.WIN)


@pytest.mark.parametrize("game", ["pathagon", "inphexion"])
def test_alpha_beta_cut_short_keeps_a_move_as_good_as_its_last_iteration(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = engines.position_after(game, ["d4", "c3", "e4", "d3"] if game == "pathagon" else [])
    plan = plan_of(game)
    assert plan is not None
    plan = dataclasses.replace(plan, max_depth=3)
    moves = p.legal_moves()
    cut = 0
    for ticks in range(1, 60, 4):
        deadline = _fake_clock(monkeypatch, alphabeta, ticks)
        found = alphabeta.search(p, moves, plan, deadline=deadline)
        monkeypatch.undo()
        finished = alphabeta.search(
            p, moves, dataclasses.replace(plan, max_depth=found.depth), nodes=10**9
        )
        if found.depth == plan.max_depth:
            continue
        cut += 1
        if found.move != finished.move:
            # The unfinished iteration changed the answer: only for a move that beat the
            # last finished iteration's move at the unfinished depth.
            depth = found.depth + 1
            assert _deeper(p, plan, found.move, depth) >= _deeper(p, plan, finished.move, depth)
    assert cut >= 8  # the cap fell inside an iteration, at depth 2 and at depth 3
