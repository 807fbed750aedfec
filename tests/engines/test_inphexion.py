"""inpHeXion, one test (or more) per numbered point of shared/rules/inphexion.md.

Hand-made positions are drawn with ``InphexionPosition.from_diagram``: one line per row, top
to bottom, ``w`` White, ``b`` Black, ``.`` empty, each row drawn half a cell further right.
"""

from __future__ import annotations

import math
import random

import pytest

import engines
from engines import IllegalMove, Outcome
from engines.connection import connects
from engines.inphexion import BLACK, EMPTY, WHITE, InphexionPosition
from tests.engines.properties import GameProperties


class TestProperties(GameProperties):
    game, option_sets = "inphexion", ({}, {"size": 5, "pie": False}, {"size": 9})
    # A turn that surrounds two or three discs has thousands of spellings; sample them.
    moves_checked = 150


def start(size: int = 7, pie: bool = True) -> InphexionPosition:
    pos = engines.new("inphexion", size=size, pie=pie)
    assert isinstance(pos, InphexionPosition)
    return pos


def diagram(text: str, to_move: int) -> InphexionPosition:
    pos = InphexionPosition.from_diagram(text, to_move)
    assert pos.outcome is None
    return pos


def relocated(pos: InphexionPosition, head: str) -> set[tuple[str, ...]]:
    """The sets of relocated discs (their from cells) over every legal move starting ``head``."""
    out = set()
    for move in pos.legal_moves():
        push, *parts = move.split(" ")
        if push == head:
            out.add(tuple(p.split(">")[0] for p in parts))
    return out


def at(pos: InphexionPosition, name: str) -> int:
    return pos.cells[pos.board.parse(name)]


def random_positions(size: int, games: int, seed: int = 0) -> list[InphexionPosition]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = start(size)
        while pos.outcome is None:
            out.append(pos)
            nxt = pos.play(pos.random_move(rng))
            assert isinstance(nxt, InphexionPosition)
            pos = nxt
    return out


# -- 1. Board ----------------------------------------------------------------------------------


def test_point1_board_sizes_5_to_9_default_7() -> None:
    assert start().size == 7 and len(start().cells) == 49
    for n in range(5, 10):
        p = start(n)
        assert p.board.describe() == f"{n}x{n} rhombus"
        assert set(p.cells) == {EMPTY}
        assert len(p.legal_moves()) == n * n
    for bad in (4, 10):
        with pytest.raises(ValueError, match="size"):
            engines.new("inphexion", size=bad)


def test_point1_disc_supply_never_runs_out() -> None:
    # White holds ceil(N²/2) discs, Black floor(N²/2): colours place alternately, so the board
    # never holds more of a colour than its supply.
    for n in (5, 6, 7):
        for pos in random_positions(n, 4, seed=n):
            white, black = pos.cells.count(WHITE), pos.cells.count(BLACK)
            assert white - black in (0, 1)
            assert white <= math.ceil(n * n / 2) and black <= n * n // 2


# -- 2. Sides ----------------------------------------------------------------------------------


def test_point2_white_connects_top_bottom_black_left_right() -> None:
    assert engines.GAMES["inphexion"].sides == ("White", "Black")
    p = start()
    assert p.edges[WHITE] == (p.board.top, p.board.bottom)
    assert p.edges[BLACK] == (p.board.left, p.board.right)
    pos = diagram(
        """
        w . . . .
         w . . . .
          b . . . .
           w . . . .
            w . . . .
        """,
        WHITE,
    )
    won = pos.play("a3-b3")
    assert won.outcome == Outcome(0, "connection")
    assert won.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        won.play("b3-c3")


# -- 3. First move -----------------------------------------------------------------------------


def test_point3_white_opens_by_placing_anywhere() -> None:
    p = start()
    assert p.to_move == 0 and p.seat_sides == ("White", "Black") and p.colours == (0, 1)
    with pytest.raises(IllegalMove, match="White opens by placing one disc"):
        p.play("c3-c4")
    q = p.play("A1")
    assert isinstance(q, InphexionPosition)
    assert at(q, "a1") == WHITE and q.cells.count(EMPTY) == 48
    assert q.to_move == 1 and q.last_placed == q.board.parse("a1") and q.last_from is None
    # Black answers by pushing that disc (or swapping): a1 has two empty neighbours.
    assert q.legal_moves() == ["swap", "a1-b1", "a1-a2"]
    with pytest.raises(IllegalMove, match="push an opponent's disc"):
        q.play("d4")


# -- 4. Pie rule -------------------------------------------------------------------------------


def test_point4_swap_exchanges_colours_and_the_new_black_moves() -> None:
    p = start().play("d4")
    assert p.legal_moves()[0] == "swap"
    s = p.play("swap")
    assert isinstance(s, InphexionPosition)
    assert s.swapped and s.colours == (BLACK, WHITE)
    assert s.seat_sides == ("Black", "White")
    assert s.to_move == 0 and s.cells == p.cells  # seat 0, now Black, moves next
    assert s.last_move == "swap" and s.last_placed is None and s.relocations == ()
    assert "swap" not in s.legal_moves()
    assert all(m.startswith("d4-") for m in s.legal_moves())
    t = s.play("d4-d3")
    assert at(t, "d4") == BLACK and at(t, "d3") == WHITE and t.to_move == 1
    with pytest.raises(IllegalMove, match="only allowed as the answer to the first disc"):
        t.play("swap")


def test_point4_pie_is_an_option() -> None:
    p = start(pie=False).play("d4")
    assert "swap" not in p.legal_moves()
    with pytest.raises(IllegalMove, match="pie rule is off"):
        p.play("swap")
    assert engines.new("inphexion", pie="no") == start(pie=False)


def test_point4_winner_is_a_seat_after_a_swap() -> None:
    pos = diagram(
        """
        w . . . .
         w . . . .
          b . . . .
           w . . . .
            w . . . .
        """,
        WHITE,
    )
    data = pos.to_dict()
    data["colours"], data["to_move"] = [BLACK, WHITE], 1  # seat 1 plays White
    swapped = engines.from_dict(data)
    assert isinstance(swapped, InphexionPosition) and swapped.swapped
    won = swapped.play("a3-b3")
    assert won.outcome == Outcome(1, "connection")
    assert swapped.seat_sides[1] == "White"


# -- 5. Regular turn ---------------------------------------------------------------------------

CORNER = """
    b b . . .
     w . . . .
      . . . . .
       . . . . .
        . . . . .
"""


def test_point5_push_an_opponent_disc_then_place_on_its_cell() -> None:
    pos = diagram(
        """
        . . . . .
         . . b . .
          . . . w .
           . . . . .
            . . . . .
        """,
        WHITE,
    )
    assert sorted(pos.legal_moves()) == sorted(
        ["c2-b2", "c2-d2", "c2-c1", "c2-d1", "c2-b3", "c2-c3"]
    )
    q = pos.play("c2-c3")
    assert at(q, "c2") == WHITE and at(q, "c3") == BLACK and q.to_move == 1
    assert (q.last_from, q.last_to) == (q.board.parse("c2"), q.board.parse("c3"))
    assert q.last_placed == q.last_from
    # Black now pushes a White disc.
    assert all(m.split("-")[0] in ("c2", "d3") for m in q.legal_moves())
    for move, rule in [
        ("d3-d4", "your own disc"),
        ("a1-a2", "a1 is empty"),
        ("c2-e2", "not next to c2"),
        ("c2-c2", "not next to c2"),
        ("c2-z9", "not a cell of the 5x5 board"),
        ("pass", "push an opponent's disc"),
    ]:
        with pytest.raises(IllegalMove, match=rule):
            pos.play(move)


def test_point5_a_disc_without_empty_neighbour_cannot_be_moved() -> None:
    pos = diagram(CORNER, WHITE)  # a1 touches only b1 (Black) and a2 (White)
    assert not any(m.startswith("a1-") for m in pos.legal_moves())
    with pytest.raises(IllegalMove, match="b1 is not empty"):
        pos.play("a1-b1")


# -- 6. Surrounded -----------------------------------------------------------------------------


def test_point6_acute_corner_with_two_neighbours() -> None:
    pos = diagram(CORNER, WHITE)
    assert len(pos.board.neighbours[pos.board.parse("a1")]) == 2
    assert relocated(pos, "b1-c1") == {("a1",)}
    assert relocated(pos, "b1-b2") == {("a1",)}


def test_point6_obtuse_corner_with_three_neighbours() -> None:
    pos = diagram(
        """
        . . . w b
         . . . b w
          . . . . .
           . . . . .
            . . . . .
        """,
        WHITE,
    )
    assert len(pos.board.neighbours[pos.board.parse("e1")]) == 3
    assert relocated(pos, "d2-d3") == {("e1",)}


def test_point6_edge_cell_with_four_neighbours() -> None:
    pos = diagram(
        """
        . w b w .
         . w b . .
          . . . . .
           . . . . .
            . . . . .
        """,
        WHITE,
    )
    assert len(pos.board.neighbours[pos.board.parse("c1")]) == 4
    assert relocated(pos, "c2-c3") == {("c1",)}


INTERIOR = """
    . . . . .
     . . w w .
      . w b w .
       . w b . .
        . . . . .
"""


def test_point6_interior_cell_with_six_neighbours() -> None:
    pos = diagram(INTERIOR, WHITE)
    assert len(pos.board.neighbours[pos.board.parse("c3")]) == 6
    assert relocated(pos, "c4-c5") == {("c3",)}
    assert relocated(pos, "c4-d4") == {("c3",)}


def test_point6_one_free_neighbour_is_not_surrounded() -> None:
    pos = diagram(INTERIOR.replace("w w .\n", "w . .\n", 1), WHITE)  # d2 left empty
    assert relocated(pos, "c4-c5") == {()}
    assert pos.play("c4-c5").last_move == "c4-c5"


def test_point6_an_enclosed_group_of_two_is_never_moved() -> None:
    pos = diagram(
        """
        b b b . .
         w w . . .
          . . . . .
           . . . . .
            . . . . .
        """,
        WHITE,
    )
    assert relocated(pos, "c1-d1") == {()}
    q = pos.play("c1-d1")
    assert at(q, "a1") == BLACK and at(q, "b1") == BLACK and q.relocations == ()
    with pytest.raises(IllegalMove, match="c1-d1 surrounds nothing"):
        pos.play("c1-d1 a1>e5")


# -- 7. Relocation -----------------------------------------------------------------------------


def test_point7_surrounded_disc_must_go_to_an_empty_cell_of_your_choice() -> None:
    pos = diagram(CORNER, WHITE)
    with_choice = [m for m in pos.legal_moves() if m.startswith("b1-c1 ")]
    empties_after = pos.cells.count(EMPTY) - 1
    assert len(with_choice) == empties_after
    assert "b1-c1" not in pos.legal_moves()
    with pytest.raises(IllegalMove, match=r"a1 is now surrounded: add where it goes, e\.g\. b1-c1"):
        pos.play("b1-c1")
    q = pos.play("b1-c1 a1>e5")
    assert isinstance(q, InphexionPosition)
    assert at(q, "a1") == EMPTY and at(q, "e5") == BLACK and at(q, "b1") == WHITE
    assert q.relocations == ((0, q.board.parse("e5")),) and q.outcome is None
    with pytest.raises(IllegalMove, match="c1 is not empty"):
        pos.play("b1-c1 a1>c1")  # the pushed disc's new cell
    with pytest.raises(IllegalMove, match="b1 is not empty"):
        pos.play("b1-c1 a1>b1")  # where the mover just placed


def test_point7_the_pushed_disc_counts_when_it_lands_surrounded() -> None:
    pos = diagram(
        """
        . b . . .
         w . . . .
          . . . . .
           . . . . .
            . . . . .
        """,
        WHITE,
    )
    assert relocated(pos, "b1-a1") == {("a1",)}
    with pytest.raises(IllegalMove, match="a1 is being vacated"):
        pos.play("b1-a1 a1>a1")
    q = pos.play("b1-a1 a1>e5")
    assert q.last_to == q.board.parse("a1") and at(q, "a1") == EMPTY and at(q, "e5") == BLACK


def test_point7_own_discs_never_move_and_a_disc_your_own_move_surrounded_stays() -> None:
    pos = diagram(
        """
        b w . . .
         . . . . .
          w . . . .
           . . . . .
            . . . . .
        """,
        BLACK,
    )
    # Black pushes a3 to a2: White's disc now closes Black's own corner a1 in.
    assert relocated(pos, "a3-a2") == {()}
    q = pos.play("a3-a2")
    assert isinstance(q, InphexionPosition)
    a1 = q.board.parse("a1")
    assert all(q.cells[nb] == WHITE for nb in q.board.neighbours[a1])
    with pytest.raises(IllegalMove, match="a1 is not relocated: your own discs"):
        pos.play("a3-a2 a1>e5")
    # White's next turn: a1 was already surrounded before it, so no move relocates it.
    assert q.to_move == 0
    assert not any(" a1>" in m for m in q.legal_moves())
    with pytest.raises(IllegalMove, match="a3-a4 surrounds nothing, so nothing is relocated"):
        q.play("a3-a4 a1>e5")
    r = q.play("a3-a4")
    assert at(r, "a1") == BLACK and r.relocations == ()


TWO_AT_ONCE = """
    . . . . .
     . w w . .
      w b b w .
       w w b w .
        . w w . .
"""


def test_point7_two_discs_surrounded_at_once_go_to_distinct_cells() -> None:
    pos = diagram(TWO_AT_ONCE, WHITE)
    moves = [m for m in pos.legal_moves() if m.startswith("c3-d2 ")]
    spare = pos.cells.count(EMPTY) - 1
    assert len(moves) == spare * (spare - 1)  # every ordered choice of two distinct cells
    for move in moves:
        _, first, second = move.split(" ")
        assert first.startswith("b3>") and second.startswith("c4>")  # reading order of from
        assert first[3:] != second[3:] and first[3:] not in ("b3", "c4", "c3", "d2")
    with pytest.raises(IllegalMove, match="b3 and c4 are now surrounded: add where each goes"):
        pos.play("c3-d2")
    with pytest.raises(IllegalMove, match="c4 is now surrounded: add where it goes"):
        pos.play("c3-d2 b3>a1")
    with pytest.raises(IllegalMove, match="two discs cannot both go to a1"):
        pos.play("c3-d2 b3>a1 c4>a1")
    with pytest.raises(IllegalMove, match="c4 is being vacated"):
        pos.play("c3-d2 b3>c4 c4>a1")
    with pytest.raises(IllegalMove, match="b3 is relocated twice"):
        pos.play("c3-d2 b3>a1 b3>e5")
    # Parts in any order, any case and spacing; the position records the canonical text.
    q = pos.play("  C4>E5   c3-d2  b3 > a1")
    assert q.last_move == "c3-d2 b3>a1 c4>e5"
    assert q == pos.play("c3-d2 b3>a1 c4>e5")
    assert at(q, "b3") == EMPTY and at(q, "c4") == EMPTY
    assert at(q, "a1") == BLACK and at(q, "e5") == BLACK and at(q, "d2") == BLACK


def test_point7_three_discs_at_once_the_pushed_one_and_two_beside_the_vacated_cell() -> None:
    pos = diagram(
        """
        . . . . . . .
         . . . . w w .
          . . w w . w .
           . w b b w . .
            . w w b w . .
             . . w w . . .
              . . . . . . .
        """,
        WHITE,
    )
    assert relocated(pos, "d4-e3") == {("e3", "c4", "d5")}
    spare = pos.cells.count(EMPTY) - 1
    assert sum(m.startswith("d4-e3 ") for m in pos.legal_moves()) == spare * (spare - 1) * (
        spare - 2
    )
    q = pos.play("d4-e3 d5>a1 e3>g7 c4>a7")
    assert q.last_move == "d4-e3 e3>g7 c4>a7 d5>a1"
    assert [q.board.name(c) for pair in q.relocations for c in pair] == [
        "e3", "g7", "c4", "a7", "d5", "a1",
    ]  # fmt: skip


def test_point7_no_cascade_a_disc_relocated_into_a_surrounded_spot_stays() -> None:
    pos = diagram(
        """
        b b . w .
         w . . w w
          . . . . .
           . . . . .
            . . . . .
        """,
        WHITE,
    )
    q = pos.play("b1-c1 a1>e1")  # e1 is closed in by d1, d2 and e2
    assert isinstance(q, InphexionPosition)
    assert at(q, "e1") == BLACK and q.outcome is None and q.to_move == 1
    r = q.play("a2-a3")  # Black's turn leaves e1 alone
    assert isinstance(r, InphexionPosition) and r.to_move == 0
    e1 = r.board.parse("e1")
    assert all(r.cells[nb] == WHITE for nb in r.board.neighbours[e1])
    assert not any(" e1>" in m for m in r.legal_moves())


def test_point7_a_disc_surrounded_before_the_turn_is_not_relocated() -> None:
    # As TWO_AT_ONCE, plus a Black disc on e5 already closed in by d5 and e4.
    pos = diagram(
        """
        . . . . .
         . w w . .
          w b b w .
           w w b w w
            . w w w b
        """,
        WHITE,
    )
    assert relocated(pos, "c3-d2") == {("b3", "c4")}
    with pytest.raises(IllegalMove, match="e5 is not relocated: only discs this move newly"):
        pos.play("c3-d2 e5>a5 b3>e1 c4>a1")
    assert at(pos.play("c3-d2 b3>e1 c4>a1"), "e5") == BLACK


# -- 8. End of turn ----------------------------------------------------------------------------


def test_point8a_your_connection_wins_before_any_relocation() -> None:
    pos = diagram(
        """
        w . . . .
         w w . . .
          b b . . .
           w . . . .
            w . . . .
        """,
        WHITE,
    )
    # Pushing b3 joins a2-b2 to a4 through b3 and also closes a3 in: the win comes first.
    assert relocated(pos, "b3-c3") == {()}
    won = pos.play("b3-c3")
    assert won.outcome == Outcome(0, "connection") and won.last_move == "b3-c3"
    assert at(won, "a3") == BLACK
    with pytest.raises(IllegalMove, match=r"ends the game .* write b3-c3 alone"):
        pos.play("b3-c3 a3>e5")


OPPONENT_ROW = """
    . . . . .
     . . . . .
      b b b b .
       . . . . b
        . . . w b
"""


def test_point8a_completing_your_opponents_connection_loses() -> None:
    pos = diagram(OPPONENT_ROW, WHITE)
    assert "e4-e3" in pos.legal_moves()  # legal: it just ends the game
    assert relocated(pos, "e4-e3") == {()}  # e5 is closed in, but Black has already won
    lost = pos.play("e4-e3")
    assert lost.outcome == Outcome(1, "connection")
    with pytest.raises(IllegalMove, match="completes Black's connection"):
        pos.play("e4-e3 e5>a1")
    # The other push of e4 surrounds e5 the same way and needs its relocation.
    assert relocated(pos, "e4-d4") == {("e5",)}


def test_point8b_more_surrounded_discs_than_empty_cells_loses() -> None:
    pos = diagram(
        """
        w b w b w
         w b b b b
          . b w w w
           w w w w w
            w w . b b
        """,
        WHITE,
    )
    # d5-c5 closes in c5 and e5; only a3 stays empty.
    assert "d5-c5" in pos.legal_moves() and relocated(pos, "d5-c5") == {()}
    lost = pos.play("d5-c5")
    assert lost.outcome == Outcome(1, "relocation impossible")
    assert at(lost, "c5") == BLACK and at(lost, "e5") == BLACK and lost.relocations == ()
    with pytest.raises(IllegalMove, match="not enough empty cells"):
        pos.play("d5-c5 c5>a3")


def test_point8c_a_relocation_that_completes_the_opponents_connection_loses() -> None:
    pos = diagram(
        """
        b b . . .
         w . . . .
          b b b b .
           . . . . .
            . . . . .
        """,
        WHITE,
    )
    assert pos.play("b1-c1 a1>e3").outcome == Outcome(1, "connection")
    assert pos.play("b1-c1 a1>e4").outcome is None


# -- 9. No legal move --------------------------------------------------------------------------


def test_point9_no_legal_move_loses_as_soon_as_it_arises() -> None:
    pos = diagram(
        """
        . . . . .
         . . . . .
          . . . . w
           . . . . b
            . . w w b
        """,
        BLACK,
    )
    q = pos.play("d5-d4")
    # Every Black disc (e4, d5, e5) is now boxed in: White, to move, has nothing to push.
    assert q.outcome == Outcome(1, "no legal move")
    assert q.legal_moves() == []
    rows = "\n".join(q.to_dict()["rows"])
    again = InphexionPosition.from_diagram(rows, WHITE)
    assert again.outcome == Outcome(1, "no legal move")


# -- 10. Not included --------------------------------------------------------------------------


def test_point10_no_neutral_disc_variant() -> None:
    assert [o.name for o in engines.GAMES["inphexion"].options] == ["size", "pie"]
    with pytest.raises(ValueError, match="no option 'neutral'"):
        engines.new("inphexion", neutral=True)


# -- whole games -------------------------------------------------------------------------------


def test_a_game_never_lasts_more_than_n_squared_plies() -> None:
    # Every turn but a swap fills one cell, and the turn that fills the board always makes a
    # connection; so at most N*N plies, plus one for a swap.
    rng = random.Random(7)
    for n in (5, 6, 7, 8, 9):
        for pie in (True, False):
            for _ in range(6):
                pos = start(n, pie)
                if pie and rng.random() < 0.5:
                    pos = pos.play(rng.choice(pos.board.names)).play("swap")
                while pos.outcome is None:
                    discs = sum(1 for v in pos.cells if v != EMPTY)
                    assert discs == pos.ply - (1 if pos.swapped else 0)
                    pos = pos.play(pos.random_move(rng))
                assert isinstance(pos, InphexionPosition)
                assert pos.ply <= n * n + (1 if pos.swapped else 0)


def _plain_reading(
    pos: InphexionPosition, a: int, b: int
) -> tuple[int | None, tuple[str, ...], bool]:
    """Point 7 and 8a-b straight from the text, with no shortcut: (winning colour or None,
    newly surrounded discs in reading order, too many to relocate)."""
    mover = pos.colours[pos.to_move]
    opp = 1 - mover
    nbrs = pos.board.neighbours
    before = pos.cells
    after = list(before)
    after[a], after[b] = mover, opp

    def surrounded(cells: tuple[int, ...] | list[int], c: int) -> bool:
        isolated = all(cells[m] != opp for m in nbrs[c])
        return cells[c] == opp and isolated and all(cells[m] == mover for m in nbrs[c])

    newly = []
    for c in range(len(after)):
        was = surrounded(before, a) if c == b else surrounded(before, c)  # same disc before
        if surrounded(after, c) and not was:
            newly.append(pos.board.name(c))
    for colour in (mover, opp):
        if connects(after, colour, nbrs, *pos.edges[colour]):
            return colour, tuple(newly), False
    return None, tuple(newly), len(newly) > after.count(EMPTY)


def test_point7_and_8_legal_moves_match_a_plain_reading_of_the_rules() -> None:
    positions = random_positions(5, 6, seed=1) + random_positions(7, 3, seed=2)
    checked = 0
    for pos in positions:
        if pos.ply < 2:
            continue
        heads = {m.split(" ")[0] for m in pos.legal_moves()}
        for head in heads:
            a, b = (pos.board.parse(x) for x in head.split("-"))
            winner, newly, too_many = _plain_reading(pos, a, b)
            if winner is not None or too_many or not newly:
                assert relocated(pos, head) == {()}
                result = pos.play(head)
                if winner is not None:
                    assert result.outcome == Outcome(pos.seat_of(winner), "connection")
                elif too_many:
                    assert result.outcome == Outcome(1 - pos.to_move, "relocation impossible")
            else:
                assert relocated(pos, head) == {newly}
                spare = pos.cells.count(EMPTY) - 1
                count = sum(1 for m in pos.legal_moves() if m.split(" ")[0] == head)
                assert count == math.perm(spare, len(newly))
            checked += 1
    assert checked > 500


# -- render-facing: swap offer and what won ------------------------------------------------------


def test_can_swap_only_as_the_answer_to_the_first_disc_with_the_pie_rule() -> None:
    first = start().play("d4")
    assert not start().can_swap
    assert first.can_swap
    assert not start(pie=False).play("d4").can_swap
    swapped = first.play("swap")
    assert not swapped.can_swap
    assert not first.play(first.legal_moves()[1]).can_swap


def test_winning_cells_follow_the_winner_seats_colour_after_a_swap() -> None:
    pos = diagram(
        """
        w . . . .
         w . . . .
          b . . . .
           w . . . .
            w . . . .
        """,
        WHITE,
    )
    assert pos.winning_cells == frozenset()
    data = pos.to_dict()
    data["colours"], data["to_move"] = [BLACK, WHITE], 1  # seat 1 plays White
    swapped = engines.from_dict(data)
    assert isinstance(swapped, InphexionPosition)
    won = swapped.play("a3-b3")
    assert won.outcome == Outcome(1, "connection")
    assert sorted(won.board.name(c) for c in won.winning_cells) == ["a1", "a2", "a3", "a4", "a5"]
