"""Hexagonal Iso-Path, one test (or more) per numbered point of shared/rules/isopath.md."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

import engines
from engines import IllegalMove, Outcome
from engines.isopath import IsopathPosition, new, setup
from tests.engines.properties import GameProperties


class TestProperties(GameProperties):
    game, option_sets = "isopath", ({}, {"size": 5})
    # Random playouts seldom end soon, and a position can have thousands of turns: keep the
    # harness to a few capped games and a sample of each position's turns.
    max_plies = 80
    examples = 10
    moves_checked = 60


@pytest.mark.parametrize("size", [4, 5])
def test_a_random_turn_is_the_random_choice_among_the_listed_turns(size: int) -> None:
    """``random_move(rng)`` is ``rng.choice(legal_moves())`` by the same draw, and the pieces it
    reads (``_Turn.chunks``) hold the listed turns in order, each piece as many as it counts,
    on positions of random games (captures, steps into the goal row and first tile moves)."""
    for seed in range(3):
        rng = random.Random(seed)
        pos = new(size)
        while pos.outcome is None and pos.ply < 150:
            if pos.ply % 10 == 0:  # listing every ply's thousands of turns is too slow
                legal = pos.legal_moves()
                pieces = [(count, listed()) for count, listed in pos._turn.chunks()]
                assert [len(turns) for _, turns in pieces] == [count for count, _ in pieces]
                assert [t for _, turns in pieces for t in turns] == legal
                state = rng.getstate()
                turn = pos.random_move(rng)
                rng.setstate(state)
                assert turn == rng.choice(legal)
            else:
                turn = pos.random_move(rng)
            pos = pos.play(turn)
    # A finished game has no turn to draw, as rng.choice([]) of its listed ones.
    before = setup(white=["f2", "a1", "a2"], black=["g4", "g3"], heights={"g1": 1})
    won = before.play(next(t for t in before.legal_moves() if before.play(t).outcome))
    assert won.outcome is not None and won.legal_moves() == []
    with pytest.raises(IndexError):
        won.random_move(random.Random(1))


def cells(pos: IsopathPosition, *names: str) -> list[int]:
    return [pos.board.parse(n) for n in names]


def height(pos: IsopathPosition, name: str) -> int:
    return pos.heights[pos.board.parse(name)]


def piece(pos: IsopathPosition, name: str) -> int:
    return pos.pieces[pos.board.parse(name)]


# -- point 1: board ----------------------------------------------------------------------------


def test_point1_board_h4_has_37_spaces_h5_61() -> None:
    assert len(new().board) == 37 and new().size == 4
    assert len(new(5).board) == 61
    assert engines.new("isopath").size == 4
    assert engines.new("isopath", size=5).size == 5
    with pytest.raises(ValueError, match="size"):
        engines.new("isopath", size=6)


def test_point1_sheet_numbers_row_by_row_on_h4_only() -> None:
    p = new()
    expected = {"a1": 1, "a4": 4, "b1": 5, "b5": 9, "c1": 10, "d1": 16, "d4": 19, "d7": 22}
    expected |= {"e1": 23, "f1": 29, "g1": 34, "g4": 37}
    for name, number in expected.items():
        assert p.space_number(p.board.parse(name)) == number
    assert [p.space_number(c) for c in p.board.cells] == list(range(1, 38))
    assert new(5).space_number(0) is None


def test_point1_numbers_are_accepted_as_input_and_shown_as_letters() -> None:
    p = new()
    assert p.play("19>7 2-7") == p.play("d4>b3 a2-b3")
    assert p.play("19>7 2-7").last_move == "d4>b3 a2-b3"
    assert p.play("D4 > 7  A2 - B3").last_move == "d4>b3 a2-b3"
    with pytest.raises(IllegalMove, match="numbered 1 to 37"):
        p.play("38>7 2-7")
    with pytest.raises(IllegalMove, match="only used on the h4 board"):
        new(5).play("19>7 2-7")
    with pytest.raises(IllegalMove, match="not a space of the h4 board"):
        p.play("h1>b3 a2-b3")


# -- point 2: tiles and heights ----------------------------------------------------------------


def test_point2_start_heights_and_tiles_never_leave_the_board() -> None:
    for size, tiles in ((4, 37), (5, 61)):
        p = new(size)
        white_home, black_home = p.home_rows
        for c in p.board.cells:
            want = 1 if c in white_home else -1 if c in black_home else 0
            assert p.heights[c] == want
        assert sum(h + 1 for h in p.heights) == tiles
        rng = random.Random(size)
        for _ in range(20):
            p = p.play(rng.choice(p.legal_moves()))
            assert sum(h + 1 for h in p.heights) == tiles
            assert set(p.heights) <= {-1, 0, 1}


def test_point2_home_rows_are_white_top_black_bottom() -> None:
    p = new()
    assert p.home_rows[0] == frozenset(cells(p, "a1", "a2", "a3", "a4"))
    assert p.home_rows[1] == frozenset(cells(p, "g1", "g2", "g3", "g4"))


# -- point 3: pieces ---------------------------------------------------------------------------


def test_point3_white_climbs_black_digs_and_start_on_home_rows() -> None:
    for size in (4, 5):
        p = new(size)
        white = [c for c in p.board.cells if p.pieces[c] == 0]
        black = [c for c in p.board.cells if p.pieces[c] == 1]
        assert len(white) == len(black) == size
        assert set(white) == p.home_rows[0] and set(black) == p.home_rows[1]
        assert all(p.heights[c] == 1 for c in white)
        assert all(p.heights[c] == -1 for c in black)


def test_point3_a_climber_stays_on_two_tiles_and_a_digger_on_the_bare_board() -> None:
    p = new()
    with pytest.raises(IllegalMove, match="a climber may only stand on two tiles"):
        p.play("a1-b1 c1>c2")
    with pytest.raises(IllegalMove, match="a climber may only stand on two tiles"):
        p.play("c1>b2 a1-b1")
    q = p.play("b1>b2 a1-b2")
    with pytest.raises(IllegalMove, match="a digger may only stand on the bare board"):
        q.play("g1-f1 c1>c2")
    # Black digs f1 first: now the digger may step onto it.
    r = q.play("f1>c2 g1-f1")
    assert height(r, "f1") == -1 and piece(r, "f1") == 1


# -- point 4: who starts -----------------------------------------------------------------------


def test_point4_white_starts() -> None:
    p = new()
    assert p.to_move == 0 and p.seat_sides == ("White", "Black")
    assert engines.GAMES["isopath"].sides == ("White", "Black")
    assert p.play(p.legal_moves()[0]).to_move == 1


# -- point 5: the turn -------------------------------------------------------------------------


def test_point5_tile_move_and_piece_move_in_either_order() -> None:
    p = setup(white=["c3"], black=["g1"], heights={"c4": 1})
    legal = p.legal_moves()
    assert "c3-c4 e1>e2" in legal and "e1>e2 c3-c4" in legal
    a, b = p.play("c3-c4 e1>e2"), p.play("e1>e2 c3-c4")
    assert (a.heights, a.pieces) == (b.heights, b.pieces)
    assert a.last_move == "c3-c4 e1>e2" and b.last_move == "e1>e2 c3-c4"


def test_point5_both_actions_are_compulsory() -> None:
    p = setup(white=["c3"], black=["g1"], heights={"c4": 1})
    with pytest.raises(IllegalMove, match=r"a turn is two actions: after e1>e2 add a piece move"):
        p.play("e1>e2")
    with pytest.raises(IllegalMove, match=r"a turn is two actions: after c3-c4 add a tile move"):
        p.play("c3-c4")
    with pytest.raises(IllegalMove, match="not two tile moves"):
        p.play("e1>e2 e3>e4")
    with pytest.raises(IllegalMove, match="not two piece moves"):
        p.play("c3-c4 c4-c3")
    with pytest.raises(IllegalMove, match="at most two actions"):
        p.play("e1>e2 c3-c4 e3>e4")
    assert all(" " in m for m in p.legal_moves())


def test_point5_a_capture_is_always_the_first_action() -> None:
    p = setup(white=["b2", "b3", "a1"], black=["c3", "g1"])
    assert "xc3 e1>e2" in p.legal_moves()
    with pytest.raises(IllegalMove, match="a capture can only be the first action"):
        p.play("e1>e2 xc3")
    with pytest.raises(IllegalMove, match="a turn is two actions: after xc3 add a tile move or"):
        p.play("xc3")


def test_point5_a_turn_whose_second_action_would_be_impossible_is_illegal() -> None:
    # White's only piece can only step onto c4; taking a tile from c4 leaves no piece move.
    p = setup(white=["c3"], black=["g1"], heights={"c4": 1})
    assert p.second_actions("c4>f3") == []
    assert not any(m.startswith("c4>f3") for m in p.legal_moves())
    with pytest.raises(IllegalMove, match="no second action is possible after this one"):
        p.play("c4>f3")
    with pytest.raises(IllegalMove, match="no second action is possible after this one"):
        p.play("c4>f3 c3-c4")
    # Putting the tile next to the piece instead opens a step.
    assert p.second_actions("c4>d4") == ["c3-d4"]


def test_point5_a_first_action_that_wins_ends_the_turn() -> None:
    p = setup(white=["f2"], black=["d4"], heights={"g2": 1})
    with pytest.raises(IllegalMove, match="f2-g2 already wins: the turn ends there"):
        p.play("f2-g2 c1>c2")
    assert p.second_actions("f2-g2") == []
    assert "f2-g2" in p.legal_moves()


# -- point 6: tile moves -----------------------------------------------------------------------


def test_point6_a_tile_moves_anywhere_from_a_tile_to_room_for_one() -> None:
    p = new()
    q = p.play("c1>b2 a1-b2")  # from the far left of row c to row b
    assert height(q, "c1") == -1 and height(q, "b2") == 1
    q = p.play("f5>b2 a1-b2")
    assert height(q, "f5") == -1
    r = setup(white=["c3"], black=["g1"], heights={"c4": 1, "e1": -1, "e2": 1})
    with pytest.raises(IllegalMove, match="e1 has no tile to take"):
        r.play("e1>e3 c3-c4")
    with pytest.raises(IllegalMove, match="e2 already has two tiles"):
        r.play("e3>e2 c3-c4")
    with pytest.raises(IllegalMove, match="moves nothing"):
        r.play("e3>e3 c3-c4")


def test_point6_tiles_under_or_onto_pieces_cannot_move() -> None:
    p = setup(white=["c3", "a1"], black=["e5", "g1"], heights={"c4": 1})
    with pytest.raises(IllegalMove, match="e5 holds a piece: tiles under pieces cannot move"):
        p.play("e5>d4 c3-c4")
    with pytest.raises(IllegalMove, match="c3 holds a piece: tiles under pieces cannot move"):
        p.play("c3>d4 c3-c4")
    with pytest.raises(IllegalMove, match="e5 holds a piece: no tile can be put under a piece"):
        p.play("d4>e5 c3-c4")


def test_point6_home_row_rule_for_taking_tiles() -> None:
    # White's home row is empty of pieces but still White's own: White may not take from it.
    p = setup(white=["c3"], black=["g1"], heights={"c4": 1})
    with pytest.raises(IllegalMove, match=r"a2 is on your own home row \(home-row rule\)"):
        p.play("a2>d4 c3-d4")
    assert not any(m.startswith("a") and ">" in m.split(" ")[0] for m in p.legal_moves())
    # Black may take from White's empty home row.
    q = p.play("e1>e2 c3-c4")
    r = q.play("a2>e1 g1-g2")
    assert height(r, "a2") == 0 and height(r, "e1") == 0  # e1 was dug by White


def test_point6_home_row_rule_for_placing_tiles() -> None:
    p = setup(white=["c3"], black=["g1"], heights={"c4": 1})
    q = p.play("e1>e2 c3-c4")  # Black to move
    with pytest.raises(IllegalMove, match=r"g2 is on your own home row \(home-row rule\)"):
        q.play("e3>g2 g1-f1")
    # White may build on Black's home row where no piece stands...
    r = q.play("f1>e3 g1-f1")
    s = r.play("c1>g3 c4-c3")
    assert height(s, "g3") == 0
    # ...but not where one does.
    with pytest.raises(IllegalMove, match="f1 holds a piece"):
        r.play("c1>f1 c4-c3")


def test_point6_building_on_a_space_emptied_earlier_in_the_same_turn() -> None:
    # White leaves c3 (two tiles) and takes a tile from it in the same turn.
    p = setup(white=["c3"], black=["g1"], heights={"c4": 1})
    with pytest.raises(IllegalMove, match="c3 holds a piece"):
        p.play("c3>e1 c3-c4")
    q = p.play("c3-c4 c3>e1")
    assert height(q, "c3") == 0 and height(q, "e1") == 1 and piece(q, "c4") == 0
    # Black leaves e3 (bare board) and puts a tile on it in the same turn.
    r = setup(white=["a1"], black=["e3"], heights={"e4": -1}, to_move=1)
    s = r.play("e3-e4 c1>e3")
    assert height(s, "e3") == 0 and piece(s, "e4") == 1
    # A space emptied by a capture is free too.
    t = setup(white=["b2", "b3", "a1"], black=["c3", "g1"])
    u = t.play("xc3 d1>c3")
    assert height(u, "c3") == 0 and piece(u, "c3") == -1


# -- point 7: piece moves and teleports --------------------------------------------------------


def test_point7_a_piece_moves_one_space_to_an_empty_space_at_its_height() -> None:
    p = setup(white=["c3", "c4"], black=["g1"], heights={"d4": 1, "e5": 1})
    with pytest.raises(IllegalMove, match="e5 is not next to c3"):
        p.play("c3-e5 e1>e2")
    with pytest.raises(IllegalMove, match="c4 is taken"):
        p.play("c3-c4 e1>e2")
    with pytest.raises(IllegalMove, match="g1 holds no White piece"):
        p.play("g1-g2 e1>e2")
    with pytest.raises(IllegalMove, match="e1 holds no White piece"):
        p.play("e1-e2 c1>c2")
    assert "c3-d4 e1>e2" in p.legal_moves() and "c4-d4 e1>e2" in p.legal_moves()


H4_PAIRS = (("a1", "a4"), ("d1", "d7"), ("g1", "g4"))
H5_PAIRS = (("a1", "a5"), ("e1", "e9"), ("i1", "i5"))


def test_point7_teleport_pairs_are_the_ends_of_the_top_middle_and_bottom_rows() -> None:
    for size, pairs in ((4, H4_PAIRS), (5, H5_PAIRS)):
        p = new(size)
        assert p.teleports == tuple(tuple(cells(p, a, b)) for a, b in pairs)
        for a, b in pairs:
            x, y = cells(p, a, b)
            assert y in p.adjacent[x] and x in p.adjacent[y]
            assert y not in p.board.neighbours[x]
    # Sheet numbers of the h4 pairs: 1-4, 16-22, 34-37; h5: 1-5, 27-35, 57-61.
    assert [(a + 1, b + 1) for a, b in new().teleports] == [(1, 4), (16, 22), (34, 37)]
    assert [(a + 1, b + 1) for a, b in new(5).teleports] == [(1, 5), (27, 35), (57, 61)]


@pytest.mark.parametrize("size,pairs", [(4, H4_PAIRS), (5, H5_PAIRS)])
def test_point7_every_teleport_pair_works_for_moving_both_ways(
    size: int, pairs: tuple[tuple[str, str], ...]
) -> None:
    top, middle, bottom = pairs
    far = "b3"  # a tile to move that touches none of the pairs
    for a, b in (top, top[::-1]):
        # White along its own home row (Black can never stand there without having won).
        p = setup(white=[a], black=["d3"], size=size)
        q = p.play(f"{a}-{b} {far}>c2")
        assert piece(q, b) == 0 and piece(q, a) == -1
    for a, b in (middle, middle[::-1]):
        p = setup(white=[a], black=["f3"], heights={b: 1}, size=size)
        assert piece(p.play(f"{a}-{b} {far}>c2"), b) == 0
        q = setup(white=["a2"], black=[a], heights={b: -1}, to_move=1, size=size)
        assert piece(q.play(f"{a}-{b} {far}>c2"), b) == 1
    for a, b in (bottom, bottom[::-1]):
        # Black along its own home row.
        p = setup(white=["d3"], black=[a], to_move=1, size=size)
        assert piece(p.play(f"{a}-{b} {far}>c2"), b) == 1


@pytest.mark.parametrize("size,pairs", [(4, H4_PAIRS), (5, H5_PAIRS)])
def test_point7_teleport_pairs_count_for_threats(
    size: int, pairs: tuple[tuple[str, str], ...]
) -> None:
    for a, b in pairs:
        p = new(size)
        x, y = cells(p, a, b)
        other = next(c for c in p.board.neighbours[x] if c != y)
        on_x = p.board.name(x)
        # Black threatens White's piece on one end from the other end plus a neighbour.
        q = setup(white=[on_x], black=[b, p.board.name(other)], to_move=1, size=size)
        if q.outcome is not None:
            # On the top and bottom rows one of the three pieces stands on its opponent's
            # home row, which ends a real game; check the threat on the board as drawn.
            q = dataclasses.replace(q, outcome=None)
        assert q.threatened == frozenset([x])
        lone = setup(white=[on_x], black=[b], to_move=1, size=size)
        lone = dataclasses.replace(lone, outcome=None)
        assert lone.threatened == frozenset()  # one attacker is not enough


# -- point 8: threat and capture ---------------------------------------------------------------


def test_point8_sheet_example_white_on_7_with_black_on_12_and_13() -> None:
    p = setup(white=[7, 1], black=[12, 13], to_move=1)
    assert p.threatened == frozenset(cells(p, "b3"))
    q = p.play("x7 e1>e2")
    assert piece(q, "b3") == -1 and q.last_capture == p.board.parse("b3")


def test_point8_sheet_example_white_on_16_with_black_on_22_and_23() -> None:
    p = setup(white=[16, 1], black=[22, 23], to_move=1)
    assert p.threatened == frozenset(cells(p, "d1"))  # 22 counts through the teleport
    q = setup(white=[16, 1], black=[22], to_move=1)
    assert q.threatened == frozenset()


def test_point8_capture_then_a_tile_move_or_a_piece_move() -> None:
    p = setup(white=["b2", "b3", "a1"], black=["c3", "g1"], heights={"b1": 1})
    tile = p.play("xc3 e1>e2")
    assert piece(tile, "c3") == -1 and height(tile, "e2") == 1 and tile.outcome is None
    assert tile.last_capture == p.board.parse("c3") and tile.last_step is None
    step = p.play("xc3 b2-b1")
    assert piece(step, "b1") == 0 and step.last_step == tuple(cells(p, "b2", "b1"))
    assert step.last_tile is None


def test_point8_only_threatened_pieces_can_be_captured() -> None:
    p = setup(white=["b2", "b3", "a1"], black=["c3", "c4", "g1"])
    assert p.threatened == frozenset(cells(p, "c3"))
    with pytest.raises(
        IllegalMove,
        match="c4 is not threatened: a capture needs two of your pieces next to it at the "
        "start of your turn",
    ):
        p.play("xc4 e1>e2")
    with pytest.raises(IllegalMove, match="d4 holds no Black piece"):
        p.play("xd4 e1>e2")
    with pytest.raises(IllegalMove, match="a capture can only be the first action"):
        p.play("xc3 xc3")


def test_point8_a_threat_is_cashed_on_the_next_turn_not_the_same_one() -> None:
    # b3 already touches Black's c4; White steps a3-b4 to make it two.
    p = setup(white=["b3", "a3"], black=["c4", "g1"], heights={"b4": 1})
    assert p.threatened == frozenset()
    assert not any("xc4" in m for m in p.legal_moves())
    with pytest.raises(IllegalMove, match="a capture can only be the first action"):
        p.play("a3-b4 xc4")
    q = p.play("a3-b4 e1>e2")
    r = q.play("f1>e3 g1-f1")  # Black does not evade
    assert r.threatened == frozenset(cells(r, "c4"))
    s = r.play("xc4 d1>d2")
    assert piece(s, "c4") == -1 and s.outcome is None
    # Had Black stepped away, the threat would be gone.
    assert q.play("d4>e3 c4-d4").threatened == frozenset()


def test_point8_a_piece_walking_into_a_threat_can_be_taken_at_once() -> None:
    # Black steps onto c3, between White's b2 and b3: White captures on the very next turn.
    p = setup(white=["b2", "b3", "a1"], black=["d4", "g1"], heights={"c3": -1}, to_move=1)
    q = p.play("d4-c3 e1>e2")
    assert q.threatened == frozenset(cells(q, "c3"))
    assert "xc3 d1>d2" in q.legal_moves()


# -- point 9: winning --------------------------------------------------------------------------


def test_point9_entering_the_home_row_as_the_first_action_wins() -> None:
    p = setup(white=["f2"], black=["d4"], heights={"g2": 1})
    q = p.play("f2-g2")
    assert q.outcome == Outcome(0, "home row") and q.last_move == "f2-g2"
    assert q.legal_moves() == [] and q.last_step == tuple(cells(p, "f2", "g2"))
    with pytest.raises(IllegalMove, match="over"):
        q.play("c1>c2 d4-d5")


def test_point9_entering_the_home_row_as_the_second_action_wins() -> None:
    # Black digs a2 (White's empty home row) and steps in.
    p = setup(white=["d4"], black=["b2"], heights={"a2": 0}, to_move=1)
    q = p.play("a2>c1 b2-a2")
    assert q.outcome == Outcome(1, "home row")


def test_point9_capturing_the_last_piece_wins() -> None:
    p = setup(white=["b2", "b3"], black=["c3"])
    assert "xc3" in p.legal_moves()
    assert not any(m.startswith("xc3 ") for m in p.legal_moves())
    q = p.play("xc3")
    assert q.outcome == Outcome(0, "last piece captured")
    with pytest.raises(IllegalMove, match="xc3 already wins: the turn ends there"):
        p.play("xc3 e1>e2")


# -- point 10: no legal turn -------------------------------------------------------------------


def test_point10_a_player_with_no_legal_turn_loses() -> None:
    # Black's only piece sits in a pit ringed by two-tile spaces: no tile move can open a
    # step for it and one digger cannot capture.
    ring = {n: 1 for n in ("c3", "c4", "d3", "d5", "e3", "e4")}
    p = setup(white=["a1", "a2", "a3", "a4"], black=["d4"], heights=ring)
    assert p.outcome is None
    q = p.play("c1>b2 a1-b2")
    assert q.outcome == Outcome(0, "no legal turn")
    assert q.legal_moves() == []
    direct = setup(white=["a1"], black=["d4"], heights=ring, to_move=1)
    assert direct.outcome == Outcome(0, "no legal turn")


# -- point 11: no draw rule --------------------------------------------------------------------


def test_point11_tiles_may_be_moved_straight_back() -> None:
    p = setup(white=["c3"], black=["g1"], heights={"c4": 1})
    q = p.play("c3-c4 e1>e2")
    r = q.play("e2>e1 g1-g2")  # Black puts White's tile back
    s = r.play("e1>e2 c4-c3")  # and White moves it again
    assert s.outcome is None and height(s, "e2") == 1 and height(s, "e1") == -1


# -- the bot-facing helpers --------------------------------------------------------------------


def test_completions_match_the_filtered_legal_moves() -> None:
    rng = random.Random(7)
    p = new()
    for _ in range(10):
        p = p.play(rng.choice(p.legal_moves()))
    legal = p.legal_moves()
    move = rng.choice(legal)
    for k in range(len(move) + 1):
        prefix = move[:k]
        want = [m for m in legal if m.startswith(prefix.strip())][:25]
        assert p.completions(prefix) == want
    assert p.completions("", limit=3) == legal[:3]
    assert p.completions("zz") == []


def test_completions_read_sheet_numbers() -> None:
    p = new()
    assert p.completions("19>7 ") == ["d4>b3 a2-b3", "d4>b3 a3-b3"]
    assert p.completions("19>7 2-") == ["d4>b3 a2-b3"]
    assert all(m.startswith("d4>") for m in p.completions("19>"))
    # "3" may still become 30..37: all of them are offered.
    firsts = {m.split(">")[0] for m in p.completions("3", limit=1000)}
    # 3 and 34..37 are home rows (White's own; Black's under pieces), 29 is f1.
    assert firsts == {"f2", "f3", "f4", "f5"}


def test_second_actions() -> None:
    p = new()
    assert p.second_actions("b1>b2") == ["a1-b2", "a2-b2"]
    assert p.second_actions("5>6") == ["a1-b2", "a2-b2"]
    assert p.second_actions("c1>c2") == []
    with pytest.raises(IllegalMove, match="home-row rule"):
        p.second_actions("a1>b2")
    with pytest.raises(IllegalMove, match="just one action"):
        p.second_actions("b1>b2 a1-b2")


def test_last_turn_attributes() -> None:
    p = new()
    assert (p.last_tile, p.last_step, p.last_capture) == (None, None, None)
    q = p.play("b1>b2 a1-b2")
    assert q.last_tile == tuple(cells(p, "b1", "b2"))
    assert q.last_step == tuple(cells(p, "a1", "b2"))
    assert q.last_capture is None


def test_hand_made_positions_round_trip_through_to_dict() -> None:
    p = setup(white=["b2", "b3", "a1"], black=["c3", "g1"], heights={"b1": 1, "e1": -1})
    data = json.loads(json.dumps(p.to_dict()))
    assert data["rows"][0] == "w+++" and data["rows"][4] == "-....."
    back = engines.from_dict(data)
    assert back == p and back.legal_moves() == p.legal_moves()
    for bad in (
        {**data, "size": 6},
        {**data, "rows": data["rows"][:-1]},
        {**data, "rows": ["wwww", "wwwww", *data["rows"][2:]]},
        {**data, "to_move": 2},
        {**data, "last_move": "zz"},
    ):
        with pytest.raises(ValueError):
            engines.from_dict(bad)
    with pytest.raises(ValueError):
        setup(white=["a1"], black=["a1"])


def test_messages_are_one_line_and_name_the_problem() -> None:
    p = new()
    for move, words in (
        ("", "empty"),
        ("b1>", "not an Iso-Path action"),
        ("b1>b2 a1-b2 c1>c2", "at most two"),
        ("x", "not an Iso-Path action"),
    ):
        with pytest.raises(IllegalMove, match=words) as info:
            p.play(move)
        assert "\n" not in str(info.value)
    q = setup(white=["b2", "b3", "a1"], black=["c3", "g1"])
    assert q.play("X C3  E1 > E2").last_move == "xc3 e1>e2"


# -- render-facing: what won ---------------------------------------------------------------------


def test_winning_cells_are_the_piece_on_the_home_row() -> None:
    p = setup(white=["f2"], black=["d4"], heights={"g2": 1})
    assert p.winning_cells == frozenset()
    won = p.play("f2-g2")
    assert won.outcome == Outcome(0, "home row")
    assert won.winning_cells == frozenset(cells(won, "g2"))
    # Taking the last piece wins too, with no piece on the home row to show.
    last = setup(white=["c3", "c5"], black=["c4"])
    taken = last.play("xc4")
    assert taken.outcome == Outcome(0, "last piece captured")
    assert taken.winning_cells == frozenset()
