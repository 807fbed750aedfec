"""Races to the home row (issue 49): Iso-Path's search counts the races of one or two steps
that the other side cannot stop (:mod:`engines.ai.isopath_race`), so that a lost
race is seen before it is forced and a won one is kept."""

from __future__ import annotations

import pytest

from engines.ai import isopath_race as races
from engines.ai import isopath_search as iso
from engines.isopath import IsopathPosition
from engines.isopath import setup as isopath_setup

#: The known loss of the series against the Padfoot-like player (notes, 2026-12-02): Black
#: (the bot), a piece up twice over and rated ahead, with White's piece walking to Black's
#: home row, where Black may never move a tile: the way there is three spaces wide, so one
#: tile a turn cannot spoil it, and no two of Black's pieces reach it in time for a capture.
#: The search without the race count rated it +677 at 12 000 evaluations (depth 3) and
#: -9 618 at 96 000 (``hard``'s budget, still depth 3); it proved the loss at 400 000
#: evaluations only (depth 5, 21 s).
LOST = isopath_setup(
    white=["d4", "a2"],
    black=["d1", "e1", "d7", "f5"],
    heights={c: 1 for c in ("e3", "e4", "f2", "f3", "f4")},
    to_move=1,
)


def _race(p: IsopathPosition, side: int) -> int:
    lay = iso._layout(p)
    h, pieces = list(p.heights), list(p.pieces)
    other = races.fastest(lay, pieces, 1 - side, races.ways(lay, h, pieces, 1 - side))
    ways = races.ways(lay, h, pieces, side)
    return races.race(lay, pieces, side, ways, side == p.to_move, other)


def test_the_known_lost_race_is_seen_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # At one look Black is ahead: White's piece is three steps off the goal row.
    assert iso.evaluate(LOST) > 0
    # With the race count, normal's budget already sees the loss (two plies on, White's
    # race is one the count knows: two steps, first to move, nothing of Black's near).
    found = iso.search(LOST, nodes=4800)
    assert found.score < -iso.SURE / 2
    # Without it the same search, with more than twice the budget, rates Black ahead.
    monkeypatch.setattr(races, "race", lambda *args: 0)
    assert iso.search(LOST, nodes=12000).score > 0


def test_two_plies_on_the_lost_race_is_seen_at_one_look() -> None:
    # Any Black turn, then White's step onto e3 with a tile on g2: two turns to go, and
    # Black's one tile a turn cannot touch its own home row.
    after = LOST.play("d6>b3 d7-d6").play("b4>g2 d4-e3")
    assert isinstance(after, IsopathPosition) and after.outcome is None
    assert _race(after, 0) == 2
    assert iso.evaluate(after) < -iso.SURE / 2


def test_a_won_race_is_taken() -> None:
    # White to move: a tile on g2 and a step onto f2, then the second tile and the step in.
    won = isopath_setup(
        white=["e3", "a2"], black=["d1", "e1", "d7", "c6"], heights={"f2": 1, "f3": 1}
    )
    assert _race(won, 0) == 2
    assert iso.evaluate(won) > iso.SURE / 2
    found = iso.search(won, nodes=2000)
    assert found.score > iso.WIN / 2
    assert won.play(found.move).outcome is None  # two turns: not won yet, but won for sure


def test_a_piece_next_to_the_goal_row_races_in_as_many_turns_as_tiles() -> None:
    # One step into g2 (two tiles off): two turns, first to move or not.
    p = isopath_setup(white=["f2", "a2"], black=["c1", "c6"], to_move=0)
    assert _race(p, 0) == 2
    assert _race(isopath_setup(white=["f2", "a2"], black=["c1", "c6"], to_move=1), 0) == 2
    # Alone, it must step every turn: it cannot wait next to g2 for the second tile.
    assert _race(isopath_setup(white=["f2"], black=["c1", "c6"], to_move=0), 0) == 0
    # A tile on it already: one turn (the search's win at once, not a race).
    assert _race(isopath_setup(white=["f2", "a2"], black=["c1", "c6"], heights={"g2": 0}), 0)


def test_a_race_the_other_side_can_stop_is_not_counted() -> None:
    # Black to move and next to g1 and g2 at its own height: it steps onto the goal space.
    blocked = isopath_setup(white=["f2", "a2"], black=["g1", "g3", "c6"], to_move=1)
    assert _race(blocked, 0) == 0
    # One of Black's pieces next to the runner and one a step from it: captured.
    caught = isopath_setup(white=["f2", "a2"], black=["e2", "d3", "c6"], to_move=1)
    assert _race(caught, 0) == 0
    # Both a step from it: Black has one step before White's second tile and the step in.
    late = isopath_setup(white=["f2", "a2"], black=["d2", "d3", "c6"], to_move=1)
    assert _race(late, 0) == 2
    # Two steps with one first space (f3 two tiles off), Black to move: one tile spoils it.
    narrow = isopath_setup(
        white=["e3", "a2"], black=["c1", "c6"], heights={"f2": 1, "f3": -1}, to_move=1
    )
    assert _race(narrow, 0) == 0
    # Two first spaces: Black spoils one, White takes the other.
    wide = isopath_setup(
        white=["e3", "a2"], black=["c1", "c6"], heights={"f2": 1, "f3": 1}, to_move=1
    )
    assert _race(wide, 0) == 2
    # One of them a tile off: Black spoils the other and White needs a turn more (three,
    # against Black's four at least from rows e and g; from row c Black's three win first).
    half = isopath_setup(white=["e3", "a2"], black=["e6", "g4"], heights={"f2": 1}, to_move=1)
    assert _race(half, 0) == 3
    assert _race(isopath_setup(white=["e3", "a2"], black=["c1", "c6"], heights={"f2": 1}), 0)
    near = isopath_setup(white=["e3", "a2"], black=["c1", "c6"], heights={"f2": 1}, to_move=1)
    assert _race(near, 0) == 0
    # Black to move and one turn from winning itself: White's race is not sure.
    faster = isopath_setup(white=["f2", "a3"], black=["b1", "c6"], heights={"a1": 0}, to_move=1)
    assert _race(faster, 0) == 0
