"""Memory a move (issue 49: at most 300 MB): Iso-Path's candidate turns are picked from every
legal turn without keeping that list on the position.  A search's transposition table keeps
its positions, and the list is some 300 kB a position: the Padfoot-like reference at depth 3
peaked at 353 MB with it, 30 MB without (``benchmarks/ai_memory.py``)."""

from __future__ import annotations

from typing import Any

import pytest

import engines
from engines.ai import alphabeta, isopath_plan
from engines.isopath import IsopathPosition
from tests.engines.ai.test_progress import SERIES_GAME


def test_candidates_leave_no_list_of_every_turn_on_the_position() -> None:
    p = engines.position_after("isopath", SERIES_GAME[:39])
    assert isinstance(p, IsopathPosition)
    picked = [isopath_plan.reference_candidates(p), isopath_plan.candidates(p)]
    assert "_legal" not in vars(p)
    legal = p.legal_moves()  # built now, for the check only
    for moves in picked:
        # Legal, each once.
        assert moves and set(moves) <= set(legal) and len(set(moves)) == len(moves)


def searches(monkeypatch: pytest.MonkeyPatch) -> list[alphabeta._Search]:
    """Every alpha-beta search started from now on, with its state (its table) as it ends."""
    kept: list[alphabeta._Search] = []
    start = alphabeta._Search.__init__

    def spy(self: alphabeta._Search, *args: Any) -> None:
        start(self, *args)
        kept.append(self)

    monkeypatch.setattr(alphabeta._Search, "__init__", spy)
    return kept


def test_a_reference_search_keeps_no_list_of_every_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    p = engines.position_after("isopath", SERIES_GAME[:39])
    kept = searches(monkeypatch)
    found = alphabeta.search(
        p, isopath_plan.reference_candidates(p), isopath_plan.REFERENCE, nodes=3000
    )
    assert found.move in p.legal_moves()
    (state,) = kept
    # The table keeps each position's content, not the position (nor what it cached).
    assert state.table and not any(isinstance(k, engines.Position) for k in state.table)
    assert p.play(found.move).content() in state.table
