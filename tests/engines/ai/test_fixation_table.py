"""Lines of Fixation's search keeps a bounded transposition table (issue 49): a search on time
alone (no evaluation budget) clears a full table rather than grow it for as long as it runs,
with one bound for every game's table (:data:`engines.ai.alphabeta.TABLE_LIMIT`, which Iso-Path's
own search uses too), and chooses as before while the table stays below it."""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Any

import pytest

import engines
from engines.ai import BUDGETS, NODES_PER_ITERATION, alphabeta, isopath_search
from engines.ai.fixation_player import PLAYER
from engines.base import Position
from engines.levels import Level
from tests.engines.ai.test_isopath_memory import searches

#: A search ends by its depth, not by this far deadline: on time alone, yet the same search
#: on any machine.
FAR = 3600.0


def _middle() -> Position:
    """Ten random plies into a Fixation game (28 legal moves there)."""
    rng = random.Random(0)
    position = engines.new("fixation")
    for _ in range(10):
        position = position.play(position.random_move(rng))
    return position


def _watched(monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], list[int]]:
    """Each table size a search left after a node (first list) and how many entries it stored
    (second list, one number)."""
    sizes: list[int] = []
    stored = [0]
    negamax = alphabeta._Search.negamax

    def spy(self: alphabeta._Search, *args: Any) -> float:
        value = negamax(self, *args)
        sizes.append(len(self.table))
        stored[0] += 1
        return value

    monkeypatch.setattr(alphabeta._Search, "negamax", spy)
    return sizes, stored


def _search_on_time_alone(depth: int) -> alphabeta.Found:
    position = _middle()
    plan = dataclasses.replace(PLAYER.plan, max_depth=depth)
    assert plan.evaluate is PLAYER.plan.evaluate
    return alphabeta.search(
        position, position.legal_moves(), plan, deadline=time.perf_counter() + FAR
    )


def test_a_search_on_time_alone_keeps_its_table_within_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A small bound (the real one is 100 000 entries: a search reaching it takes minutes).
    monkeypatch.setattr(alphabeta, "TABLE_LIMIT", 40)
    sizes, stored = _watched(monkeypatch)
    found = _search_on_time_alone(4)
    assert found.depth == 4 and found.move in _middle().legal_moves()
    # It stored many times the bound's entries, and never held more than the bound.
    assert stored[0] > 10 * 40
    assert max(sizes) == 40


def test_below_the_bound_the_search_chooses_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes, _ = _watched(monkeypatch)
    found = _search_on_time_alone(3)
    assert max(sizes) < alphabeta.TABLE_LIMIT
    # What the search chose before its table had a bound (same move, value, depth and nodes).
    assert (found.move, found.depth, found.nodes) == ("f1-f3", 3, 1239)
    assert found.value == pytest.approx(0.9585128806983042, abs=1e-12)


def test_one_bound_for_every_table_and_no_level_reaches_it() -> None:
    assert isopath_search.TABLE_LIMIT is alphabeta.TABLE_LIMIT
    # A budgeted search stores at most one entry per evaluation.
    assert BUDGETS[Level.HARD].iterations * NODES_PER_ITERATION < alphabeta.TABLE_LIMIT


def test_the_table_keeps_contents_not_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each entry is the position's content (equal exactly when the positions are), not the
    position with the moves it listed: in a recorded series game (Lines of Fixation, ply 9)
    ``hard``'s move peaked at 474 MB with positions kept, 73 MB with contents
    (``benchmarks/ai_memory.py``, the README's "Memory a move")."""
    kept = searches(monkeypatch)
    position = _middle()
    found = _search_on_time_alone(3)
    (state,) = kept
    assert found.move in position.legal_moves()
    assert state.table and not any(isinstance(k, Position) for k in state.table)
    child = position.play(found.move)
    assert child.content() in state.table
    # Equal positions (played again from the start) have equal contents; a position with
    # the same board reached by another last move does not.
    again = _middle()
    assert again is not position and again.content() == position.content()
    assert hash(again.content()) == hash(position.content())
    assert child.content() != position.content()
    assert dataclasses.replace(position, last_move=None).content() != position.content()
