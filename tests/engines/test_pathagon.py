"""Pathagon, one test per numbered point of shared/rules/pathagon.md."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

import engines
from engines import IllegalMove
from engines.connection import connects
from engines.pathagon import PathagonPosition
from tests.engines.properties import GameProperties


class TestProperties(GameProperties):
    # Random games rarely end during placement, and in the moving phase a random mover almost
    # never builds a path on purpose: playouts ran 30 to 3,500+ plies (median about 1,000)
    # when measured.  The playouts are therefore capped; they still cover placement, traps,
    # re-entries and a few hundred plies of moving.
    game, option_sets = "pathagon", ({},)
    max_plies = 300


def play(*moves: str) -> PathagonPosition:
    """The start position after ``moves``."""
    p = engines.new("pathagon")
    for m in moves:
        p = p.play(m)
    assert isinstance(p, PathagonPosition)
    return p


def names(p: PathagonPosition, cells: Iterable[int]) -> list[str]:
    """Square names of ``cells`` in the order given."""
    return [p.board.name(c) for c in cells]


def at(p: PathagonPosition, name: str) -> int:
    """What stands on square ``name``: -1 empty, 0 Light, 1 Dark."""
    return p.cells[p.board.parse(name)]


# Both sides have all 14 pieces on the board and neither is connected: the moving phase.
# Light's a7-d4 traps c4 and e4 (b4 and f4 close the traps).
FULL = """
    L D . L D . L
    . . L . . D L
    D . L . . . D
    . L D . D L .
    D D . . . . D
    L . D L D . L
    L D . L . D L
"""


def test_point1_board_7x7_fourteen_pieces_each_orthogonal_only() -> None:
    p = play()
    assert p.board.kind == "square" and len(p.cells) == 49 and p.size == 7
    assert p.in_hand == (14, 14) and p.returned == (0, 0)
    assert engines.GAMES["pathagon"].sides == ("Light", "Dark")
    assert sorted(names(p, p.board.neighbours[p.board.parse("d4")])) == ["c4", "d3", "d5", "e4"]
    # Diagonal contact never traps: Dark on c3 sits diagonally between b2 and d4.
    diag = PathagonPosition.from_diagram(
        """
        .......
        .......
        .......
        .......
        ..D....
        .L.....
        .......
        """
    )
    after = diag.play("d4")
    assert after.trapped == () and at(after, "c3") == 1
    full = PathagonPosition.from_diagram(FULL)
    assert full.in_hand == (0, 0)


def test_point2_light_joins_rows_1_and_7_dark_columns_a_and_g() -> None:
    p = play()
    light, dark = p.edges
    assert sorted(names(p, light[0])) == [f"{c}1" for c in "abcdefg"]
    assert sorted(names(p, light[1])) == [f"{c}7" for c in "abcdefg"]
    assert sorted(names(p, dark[0])) == [f"a{r}" for r in range(1, 8)]
    assert sorted(names(p, dark[1])) == [f"g{r}" for r in range(1, 8)]
    # A corner counts for both lines: a1 is on Light's bottom row and Dark's column a.
    a1 = p.board.parse("a1")
    assert a1 in light[0] and a1 in dark[0]


def test_point2_corner_squares_complete_paths_for_both_sides() -> None:
    # Dark along row 1, corner to corner; Light up column a would use the same corner a1.
    p = PathagonPosition.from_diagram(
        """
        .......
        .......
        .......
        .......
        .......
        .......
        DDDDDD.
        """,
        to_move=1,
        in_hand=(14, 8),
    )
    done = p.play("g1")
    assert done.outcome == engines.Outcome(1, "connection")
    q = PathagonPosition.from_diagram(
        """
        L......
        L......
        L......
        L......
        L......
        L......
        .......
        """
    )
    assert q.play("a1").outcome == engines.Outcome(0, "connection")


def test_point3_light_moves_first() -> None:
    p = play()
    assert p.to_move == 0 and p.seat_sides == ("Light", "Dark")
    q = p.play("d4")
    assert at(q, "d4") == 0 and q.to_move == 1 and q.in_hand == (13, 14)


def test_point4_place_while_you_have_pieces_in_hand() -> None:
    p = play("d4")
    assert len(p.legal_moves()) == 48 and all("-" not in m for m in p.legal_moves())
    with pytest.raises(IllegalMove, match=r"you still have pieces in hand: place one \(f6\)"):
        p.play("d4-f6")
    with pytest.raises(IllegalMove, match="d4 is not empty"):
        p.play("d4")
    with pytest.raises(IllegalMove, match="not a square"):
        p.play("h1")
    with pytest.raises(IllegalMove, match="not a square"):
        p.play("pass")  # there is no pass


def test_point4_move_anywhere_once_your_hand_is_empty() -> None:
    p = PathagonPosition.from_diagram(FULL)
    moves = p.legal_moves()
    assert len(moves) == 14 * 21  # every piece to every empty square
    assert all("-" in m for m in moves)
    with pytest.raises(IllegalMove, match="you have no pieces in hand: move one"):
        p.play("c1")
    # Any empty square, not only a neighbouring one: a1 jumps to f5.
    far = p.play("a1-f5")
    assert at(far, "a1") == -1 and at(far, "f5") == 0 and far.in_hand == (0, 0)
    assert far.last_from == p.board.parse("a1") and far.last_to == p.board.parse("f5")
    with pytest.raises(IllegalMove, match="a move must change square"):
        p.play("a1-a1")
    with pytest.raises(IllegalMove, match="b1 is not your piece"):
        p.play("b1-c1")
    with pytest.raises(IllegalMove, match="there is no piece on c1"):
        p.play("c1-e1")
    with pytest.raises(IllegalMove, match="b1 is not empty"):
        p.play("a1-b1")


def test_point4_placing_and_moving_are_per_player() -> None:
    # Light has all its pieces down and moves; Dark still has pieces in hand and places.
    p = PathagonPosition.from_diagram(
        """
        L.L.L.L
        .......
        L.L.L.L
        ...D...
        L.L.L.L
        .D...D.
        .L.L...
        """,
    )
    assert p.in_hand == (0, 11)
    light = p.play("a7-b7")
    assert light.legal_moves() and all("-" not in m for m in light.legal_moves())
    dark = light.play("e4")
    assert dark.to_move == 0 and all("-" in m for m in dark.legal_moves())


def test_point5_single_trap() -> None:
    p = play("d4", "d5", "d6")
    assert names(p, p.trapped) == ["d5"] and at(p, "d5") == -1
    assert p.in_hand == (12, 14) and p.returned == (0, 1)


def test_point5_two_in_a_row_are_not_trapped() -> None:
    # A-B-B-A: Light d3, Dark d4 and d5, Light places d6.
    p = play("d3", "d4", "a1", "d5", "d6")
    assert p.trapped == () and at(p, "d4") == 1 and at(p, "d5") == 1


def test_point5_four_traps_by_one_placement() -> None:
    p = PathagonPosition.from_diagram(
        """
        .......
        ...L...
        ...D...
        .LD.DL.
        ...D...
        ...L...
        .......
        """
    )
    q = p.play("d4")
    assert sorted(names(q, q.trapped)) == ["c4", "d3", "d5", "e4"]
    assert all(at(q, sq) == -1 for sq in ("c4", "d3", "d5", "e4"))
    assert q.in_hand == (p.in_hand[0] - 1, 14) and q.returned == (0, 4)


def test_point5_trap_by_a_move() -> None:
    p = PathagonPosition.from_diagram(FULL)
    q = p.play("a7-d4")
    assert names(q, q.trapped) == ["c4", "e4"]
    assert q.in_hand == (0, 2) and q.returned == (0, 2)


def test_point5_trap_by_a_re_entry() -> None:
    p = PathagonPosition.from_diagram(
        """
        .......
        .......
        .DL....
        .......
        .......
        .......
        .......
        """,
        to_move=1,
        in_hand=(13, 13),
        returned=(0, 1),
    )
    q = p.play("d5")
    assert names(q, q.trapped) == ["c5"] and q.returned == (1, 0) and q.in_hand == (14, 12)


def test_point5_placing_between_two_enemy_pieces_is_safe() -> None:
    p = play("c4", "a1", "e4", "d4")  # Dark places between Light's c4 and e4
    assert at(p, "d4") == 1 and p.trapped == ()
    p = p.play("g7")  # and stays there on the next turns
    assert at(p, "d4") == 1 and p.in_hand == (11, 12)


# Dark has all 14 pieces down; d5 lies between Light's d4 and d6; a piece moved to d5
# completes Dark's row 5.
ROW5 = """
    D . D . D . D
    . . . L . . .
    D D D . D D D
    . . . L . . .
    D . D . . . .
    . . . . . . .
    D . D . . . .
"""


def test_point5_moving_between_two_enemy_pieces_is_safe() -> None:
    p = PathagonPosition.from_diagram(ROW5, to_move=1, in_hand=(12, 0))
    q = p.play("c7-d5")
    assert at(q, "d5") == 1 and q.trapped == ()


def test_point5_the_edge_never_closes_a_trap() -> None:
    # Dark on a4 against the edge: Light on b4 does not trap it.
    p = play("c1", "a4", "b4")
    assert p.trapped == () and at(p, "a4") == 1


def test_point5_the_square_a_piece_left_never_closes_a_trap() -> None:
    # Light d5 jumps to d3 over Dark d4: d5 is empty by the time traps are looked for.
    p = PathagonPosition.from_diagram(
        """
        LLLLLLL
        .......
        ...L...
        ...D...
        .......
        .......
        LLLLLL.
        """,
        in_hand=(0, 13),
    )
    q = p.play("d5-d3")
    assert q.trapped == () and at(q, "d4") == 1


def test_point6_trapped_pieces_return_to_hand_and_must_re_enter_before_moving() -> None:
    p = PathagonPosition.from_diagram(FULL).play("a7-d4")
    assert p.to_move == 1 and p.in_hand[1] == 2
    with pytest.raises(IllegalMove, match="you still have pieces in hand: place one"):
        p.play("a5-a6")
    assert all("-" not in m for m in p.legal_moves())


def test_point6_two_returned_pieces_re_enter_on_consecutive_turns_before_any_move() -> None:
    p = PathagonPosition.from_diagram(FULL).play("a7-d4")
    p = p.play("d5")  # first re-entry
    assert p.in_hand == (0, 1) and p.returned == (0, 1) and p.trapped == ()
    p = p.play("g6-e6")  # Light moves in between
    with pytest.raises(IllegalMove, match="still have pieces in hand"):
        p.play("a5-a6")
    p = p.play("c4")  # second re-entry
    assert p.in_hand == (0, 0) and p.returned == (0, 0)
    p = p.play("a1-a7")
    with pytest.raises(IllegalMove, match="no pieces in hand"):
        p.play("e4")
    assert all("-" in m for m in p.legal_moves())


def test_point7_squares_emptied_by_a_trap_are_forbidden_on_the_next_turn_only() -> None:
    p = play("d4", "d5", "d6")
    d5 = p.board.parse("d5")
    assert p.forbidden == frozenset({d5}) and "d5" not in p.legal_moves()
    with pytest.raises(IllegalMove, match="d5 was emptied by a trap: you may not use it this turn"):
        p.play("d5")
    p = p.play("a1")  # Dark re-enters elsewhere
    assert p.forbidden == frozenset() and "d5" in p.legal_moves()  # free for Light
    p = p.play("g1")
    assert "d5" in p.legal_moves()  # and for Dark from the turn after on
    assert at(p.play("d5"), "d5") == 1


def test_point7_forbidden_squares_of_a_multiple_trap_and_a_move() -> None:
    p = PathagonPosition.from_diagram(FULL).play("a7-d4")
    assert sorted(names(p, p.forbidden)) == ["c4", "e4"]
    with pytest.raises(IllegalMove, match="e4 was emptied by a trap"):
        p.play("e4")
    assert len(p.legal_moves()) == 49 - 26 - 2


def test_point8_the_piece_moved_last_turn_may_not_move() -> None:
    p = PathagonPosition.from_diagram(FULL, to_move=1)
    p = p.play("a5-e5")
    assert p.locked == (None, p.board.parse("e5"))
    p = p.play("g6-e6")
    with pytest.raises(IllegalMove, match="you moved the piece on e5 last turn: move another one"):
        p.play("e5-e3")
    assert not any(m.startswith("e5-") for m in p.legal_moves())
    assert len(p.legal_moves()) == 13 * 21
    p = p.play("a3-a5")  # another piece: the lock moves to it
    assert p.locked[1] == p.board.parse("a5")
    with pytest.raises(IllegalMove, match="you moved the piece on e6 last turn"):
        p.play("e6-g6")  # Light's own lock works the same way
    p = p.play("a1-b6")
    assert at(p.play("e5-e3"), "e3") == 1  # e5 is free again


def test_point8_a_placement_clears_the_lock() -> None:
    p = PathagonPosition.from_diagram(FULL, to_move=1)
    p = p.play("a5-a6")  # Dark moves the piece now on a6
    assert p.locked[1] == p.board.parse("a6")
    p = p.play("a7-d4")  # Light traps c4 and e4
    assert p.locked == (p.board.parse("d4"), p.board.parse("a6"))
    p = p.play("d5")  # Dark's forced re-entry is a placement ...
    assert p.locked[1] is None  # ... which clears Dark's lock
    p = p.play("g6-e6")
    p = p.play("c4")
    p = p.play("b4-b5")
    assert at(p.play("a6-a5"), "a5") == 1


def test_point8_a_locked_piece_that_is_trapped_loses_its_lock() -> None:
    # Light (all 14 pieces down) just moved the piece now on d4; Dark re-enters on d3 and
    # traps it, so Light's lock goes with it.
    p = PathagonPosition.from_diagram(
        """
        LLL.LLL
        .......
        ...D...
        ...L..L
        .......
        .......
        LLL.LLL
        """,
        to_move=1,
        in_hand=(0, 13),
        returned=(0, 1),
        locked=("d4", None),
    )
    assert p.locked[0] == p.board.parse("d4")
    q = p.play("d3")
    assert names(q, q.trapped) == ["d4"] and q.locked == (None, None)


def test_point9_vertical_win_for_light() -> None:
    p = PathagonPosition.from_diagram(
        """
        .......
        ...L...
        ...L...
        ...L...
        ...L...
        ...L...
        ...L...
        """
    )
    assert p.play("c7").outcome is None
    won = p.play("d7")
    assert won.outcome == engines.Outcome(0, "connection")
    assert won.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        won.play("a1")


def test_point9_horizontal_win_for_dark() -> None:
    p = PathagonPosition.from_diagram(
        """
        .......
        .......
        .......
        DDDDDD.
        .......
        .......
        .......
        """,
        to_move=1,
        in_hand=(14, 8),
    )
    assert p.play("g5").outcome is None
    assert p.play("g4").outcome == engines.Outcome(1, "connection")


def test_point9_win_by_a_move() -> None:
    p = PathagonPosition.from_diagram(ROW5, to_move=1, in_hand=(12, 0))
    assert p.play("a7-d3").outcome is None
    won = p.play("a7-d5")
    assert won.outcome == engines.Outcome(1, "connection") and won.last_move == "a7-d5"


def test_point9_diagonal_chains_never_win() -> None:
    p = PathagonPosition.from_diagram(
        """
        ......L
        .....L.
        ....L..
        .......
        ..L....
        .L.....
        L......
        """
    )
    assert p.play("d4").outcome is None
    q = PathagonPosition.from_diagram(
        """
        .L.....
        .L.....
        .L.....
        .......
        L......
        L......
        L......
        """
    )
    assert q.play("b4").outcome is None  # a3-b4 touch only diagonally
    # The same chains joined by a side-by-side square do win.
    joined = q.play("a4").play("g1")
    assert joined.outcome is None
    assert joined.play("b4").outcome == engines.Outcome(0, "connection")


def test_point9_win_checked_after_traps_and_only_for_the_mover() -> None:
    # Light completes column d with a placement that also traps c4.
    p = PathagonPosition.from_diagram(
        """
        ...L...
        ...L...
        ...L...
        .LD....
        ...L...
        ...L...
        ...L...
        """
    )
    won = p.play("d4")
    assert names(won, won.trapped) == ["c4"] and won.outcome == engines.Outcome(0, "connection")
    # In random games the winner is always the side that just moved.
    for seed in range(40):
        rng = random.Random(seed)
        g = play()
        while g.outcome is None and g.ply < 400:
            g = g.play(g.random_move(rng))
        if g.outcome is not None:
            winner, loser = 1 - g.to_move, g.to_move
            assert g.outcome.winner == winner
            a, b = g.edges[winner]
            assert connects(g.cells, winner, g.board.neighbours, a, b)
            a, b = g.edges[loser]
            assert not connects(g.cells, loser, g.board.neighbours, a, b)


def test_point10_no_draw_rule_and_always_a_legal_action() -> None:
    assert engines.GAMES["pathagon"].options == ()
    for seed in range(20):
        rng = random.Random(1000 + seed)
        g = play()
        while g.outcome is None and g.ply < 300:
            moves = g.legal_moves()
            assert moves
            if not g.placing:
                empties = sum(1 for v in g.cells if v == -1)
                lock = 0 if g.locked[g.to_move] is None else 1
                assert len(moves) == (14 - lock) * (empties - len(g.forbidden))
            g = g.play(rng.choice(moves))


def test_position_round_trips_with_locks_and_traps() -> None:
    p = PathagonPosition.from_diagram(FULL).play("a7-d4")
    back = engines.from_dict(p.to_dict())
    assert back == p and back.legal_moves() == p.legal_moves()
    assert p.to_dict()["locked"] == ["d4", None] and p.to_dict()["trapped"] == ["c4", "e4"]
    bad = dict(p.to_dict(), in_hand=[1, 2])
    with pytest.raises(ValueError, match="14 pieces"):
        engines.from_dict(bad)
    with pytest.raises(ValueError, match="7 rows"):
        PathagonPosition.from_diagram("LLL")
    with pytest.raises(ValueError, match="locked"):
        PathagonPosition.from_diagram(FULL, locked=("b1", None))


# -- render-facing: what won ---------------------------------------------------------------------


def test_winning_cells_are_the_winning_path_and_empty_before() -> None:
    from engines import Outcome

    before = PathagonPosition.from_diagram(
        """
        .......
        ...L...
        ...L.D.
        ..LL.D.
        ..L..D.
        ..L....
        ..L....
        """
    )
    assert before.winning_cells == frozenset()
    won = before.play("d7")
    assert won.outcome == Outcome(0, "connection")
    names = sorted(won.board.name(c) for c in won.winning_cells)
    assert names == ["c1", "c2", "c3", "c4", "d4", "d5", "d6", "d7"]
