"""Races to the home row (issue 49): Iso-Path's search counts the races of one or two steps
and the free runs of any length that the other side cannot stop
(:mod:`engines.ai.isopath_race`), so that a lost race is seen before it is forced and a won
one is kept."""

from __future__ import annotations

import pytest

from engines.ai import compiled
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


def _catchers(p: IsopathPosition, side: int) -> races.Catchers:
    """The pieces of the side other than ``side``, as they may come to capture its runner."""
    theirs = [c for c, x in enumerate(p.pieces) if x == 1 - side]
    return races.Catchers(iso._layout(p), list(p.heights), theirs, 1 - side)


def _race(p: IsopathPosition, side: int) -> int:
    lay = iso._layout(p)
    h, pieces = list(p.heights), list(p.pieces)
    other = races.fastest(lay, pieces, 1 - side, races.ways(lay, h, pieces, 1 - side))
    ways = races.ways(lay, h, pieces, side)
    return races.race(lay, pieces, side, ways, side == p.to_move, other, _catchers(p, side))


def test_the_known_lost_race_is_seen_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # At one look Black is ahead: White's piece is three steps off the goal row.
    assert iso.evaluate(LOST) > 0
    # With the race count, normal's budget already sees the loss (two plies on, White's
    # race is one the count knows: two steps, first to move, nothing of Black's near).
    found = iso.search(LOST, nodes=4800)
    assert found.score < -iso.SURE / 2
    # Without it the same search, with more than twice the budget, rates Black ahead.
    # (Changed in copies run from the sources: the compiled search calls its own count.)
    source = compiled.sources("isopath_race", "isopath_search")
    monkeypatch.setattr(source["isopath_race"], "race", lambda *args: 0)
    assert source["isopath_search"].search(LOST, nodes=12000).score > 0


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
    # e3 next to it and d2 a step off: caught, d2's way needing one tile (e2 or d3).  With
    # e2 and d3 at White's height every space next to f2 that d2 could reach needs two tiles
    # of Black's, more than its one turn: the race is sure.
    reach = isopath_setup(white=["f2", "a2"], black=["e3", "d2", "c6"], to_move=1)
    assert _race(reach, 0) == 0
    high = isopath_setup(
        white=["f2", "a2"], black=["e3", "d2", "c6"], heights={"e2": 1, "d3": 1}, to_move=1
    )
    assert _race(high, 0) == 2
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


def _run(p: IsopathPosition, side: int) -> int:
    lay = iso._layout(p)
    h, pieces = list(p.heights), list(p.pieces)
    cost = iso._costs(lay, h, pieces, side)
    dist = iso._from_goal(lay, cost, side)
    other = races.fastest(lay, pieces, 1 - side, races.ways(lay, h, pieces, 1 - side))
    starts = [c for c, x in enumerate(pieces) if x == side]
    first = side == p.to_move
    return races.run(lay, side, starts, cost, dist, first, other, _catchers(p, side))


#: White's way from c1 to Black's home row: d1, e1 and f1 at White's height, g1 a tile off.
WAY = {"d1": 1, "e1": 1, "f1": 1, "g1": 0}


def test_a_free_run_goes_a_row_a_turn_whatever_its_length() -> None:
    # Four steps, Black's pieces far off: White wins in four turns, first to move or not
    # (Black's own race needs five rows at least).
    for to_move in (0, 1):
        p = isopath_setup(white=["c1", "a2"], black=["g3", "f4"], heights=WAY, to_move=to_move)
        assert _race(p, 0) == 0  # beyond the count of one or two steps
        assert _run(p, 0) == 4
        assert iso.evaluate(p) * (1 if to_move == 0 else -1) > iso.SURE / 2
    # Searched, White keeps it: after its turn the run still stands, a turn shorter.
    p = isopath_setup(white=["c1", "a2"], black=["g3", "f4"], heights=WAY)
    after = p.play(iso.search(p, nodes=2000).move)
    assert isinstance(after, IsopathPosition) and _run(after, 0) == 3


def test_a_run_with_a_tile_to_move_is_not_free() -> None:
    # e1 a tile off: Black takes a tile off the next space each turn as fast as White mends.
    p = isopath_setup(white=["c1", "a2"], black=["g3", "f4"], heights={**WAY, "e1": 0})
    assert _run(p, 0) == 0
    # Nor with the goal space two tiles off (it needs two of White's tile moves).
    two_off = isopath_setup(white=["c1", "a2"], black=["g3", "f4"], heights=WAY | {"g1": -1})
    assert _run(two_off, 0) == 0


def test_a_free_run_two_pieces_can_reach_in_time_is_not_counted() -> None:
    # e2 next to e1 and f1, f3 a step from f2: two of Black's pieces next to f1 in time.
    assert _run(isopath_setup(white=["c1", "a2"], black=["e2", "f3"], heights=WAY), 0) == 0
    # e3 and f3 are a step each from e2 and f2, spaces a tile off: Black's two turns before
    # the runner reaches f1 are two steps and two tiles, and it is caught there.
    low = isopath_setup(white=["c1", "a2"], black=["e3", "f3"], heights=WAY)
    assert _run(low, 0) == 0
    # With e2 and f2 at White's height each needs two tiles: four tile moves, two turns.
    high = isopath_setup(white=["c1", "a2"], black=["e3", "f3"], heights=WAY | {"e2": 1, "f2": 1})
    assert _run(high, 0) == 4
    # (By steps alone, as the count of one or two steps reckons, it would be caught.)
    lay = iso._layout(high)
    black = [c for c, x in enumerate(high.pieces) if x == 1]
    assert races.caught(lay.far[high.board.names.index("f1")], black, 3)


#: The series' game 7 against the Padfoot-like player at depth 3 (2026-12-05), after ply 48,
#: White to move: White's piece on d7 has three spaces at its height to g4 (e6, f5, g4), and
#: Black's pieces on e5 and d1 can neither stand on them nor bring a second piece next to
#: the runner in time (f4 and the way round need White's height).  White won at ply 53.
GAME_7 = isopath_setup(
    white=["a1", "a4", "d4", "d7"],
    black=["c2", "d1", "e5", "f3"],
    heights={
        "a2": 0, "b1": 0, "b2": 1, "b3": -1, "b4": -1, "b5": 0, "c1": -1, "c3": 1,
        "c4": 1, "c5": 1, "c6": 1, "d2": -1, "d3": -1, "d5": -1, "d6": -1, "e1": 0,
        "e2": -1, "e3": -1, "e4": 1, "e6": 1, "f1": 1, "f2": 0, "f4": 1, "f5": 1, "g4": 1,
    },
)  # fmt: skip


def test_the_series_lost_run_is_seen_at_one_look() -> None:
    assert _race(GAME_7, 0) == 0
    assert _run(GAME_7, 0) == 3
    assert iso.evaluate(GAME_7) > iso.SURE / 2
