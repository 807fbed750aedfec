"""The inpHeXion evaluation of the alpha-beta plan (:mod:`engines.ai.inphexion_plan`)."""

from __future__ import annotations

import random

import pytest

import engines
from engines.ai import inphexion_plan
from engines.ai.alphabeta import Plan, search
from engines.ai.bitboard import masks
from engines.ai.distance import potential
from engines.ai.hooks import plan_of
from engines.ai.inphexion_plan import (
    WINS_NOW,
    evaluate,
    open_board,
    open_potential,
    winning_cells,
)
from engines.ai.inphexion_player import inphexion_evaluate
from engines.geometry import Rhombus
from engines.inphexion import BLACK, WHITE, InphexionPosition


def _plan(game: str) -> Plan:
    """The alpha-beta plan the game's record registers."""
    plan = plan_of(game)
    assert plan is not None
    return plan


def _cut_column(to_move: int) -> InphexionPosition:
    """White's column b, cut only by Black's disc on b3 (which White can push: a3 is empty)."""
    return InphexionPosition.from_diagram(
        """
        . w . . .
         . w . . .
          . b . . .
           . w . . .
            . w . . .
        """,
        to_move=to_move,
    )


def test_the_mover_who_can_connect_at_once_has_all_but_won() -> None:
    pos = _cut_column(WHITE)
    assert winning_cells(pos.cells, WHITE, pos.board.neighbours, *pos.edges[WHITE]) == 1
    assert evaluate(pos) == WINS_NOW
    # The same board with Black to move: White's threat still weighs, but Black may meet it.
    black = _cut_column(BLACK)
    assert 0.5 < evaluate(black) < WINS_NOW


def test_a_movable_opponent_disc_is_no_wall() -> None:
    # White's column b is cut by a Black disc on b3 that White can push (a3 is empty beside
    # it) and replace: one turn away, as an empty cell would be.
    pos = _cut_column(BLACK)
    nbrs = pos.board.neighbours
    assert potential(pos.cells, WHITE, nbrs, pos.edges[WHITE]).value == 4
    assert potential(open_board(pos.cells, WHITE, nbrs), WHITE, nbrs, pos.edges[WHITE]).value == 2
    # Black to move meets White's threat or not: White still leads, more than the plain
    # two-distance (every opponent disc a wall) says.
    assert inphexion_evaluate(pos) < evaluate(pos)
    assert evaluate(pos) > 0.5


def test_a_disc_that_can_never_move_again_stays_a_wall() -> None:
    # A 3x3 rhombus, cells by row: White on 1 (beside the empty corner 0) and on the centre 4,
    # whose six neighbours are all full, so no turn can ever push it.
    cells = (-1, WHITE, BLACK, BLACK, WHITE, BLACK, BLACK, BLACK, -1)
    seen = open_board(cells, BLACK, Rhombus(3).neighbours)
    assert seen[4] == WHITE  # walled in: still a wall for Black
    assert seen[1] == -1  # movable: open
    assert [v for i, v in enumerate(seen) if i not in (1, 4)] == [
        v for i, v in enumerate(cells) if i not in (1, 4)
    ]


def test_the_plan_searches_with_it_and_finds_the_win() -> None:
    pos = _cut_column(WHITE)
    plan = _plan("inphexion")
    assert plan.evaluate is evaluate
    found = search(pos, pos.legal_moves(), plan, nodes=2000)
    assert pos.play(found.move).outcome == engines.Outcome(0, "connection")


def test_values_stay_between_zero_and_one_in_played_games() -> None:
    rng = random.Random(3)
    for size in (5, 7):
        pos = engines.new("inphexion", size=size)
        while pos.outcome is None:
            v = evaluate(pos)
            assert 0.0 <= v <= 1.0
            pos = pos.play(pos.random_move(rng))


def test_the_one_pass_potential_is_the_potential_of_the_open_board() -> None:
    for size in (5, 7):
        for game in range(4):
            rng = random.Random(game)
            pos = engines.new("inphexion", size=size)
            while pos.outcome is None:
                if pos.ply >= 1:
                    nbrs = pos.board.neighbours
                    for colour in (WHITE, BLACK):
                        slow = potential(
                            open_board(pos.cells, colour, nbrs), colour, nbrs, pos.edges[colour]
                        )
                        a, b = pos.edges[colour]
                        bits = [(c in a) | (c in b) << 1 for c in range(len(pos.cells))]
                        fast = open_potential(pos.cells, colour, nbrs, bits)
                        assert fast == (slow.value, slow.moves) or fast[0] == slow.value == 0
                pos = pos.play(pos.random_move(rng))


def test_values_kept_for_the_search_are_bounded_and_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(inphexion_plan, "KEPT", 10)
    inphexion_plan._VALUES.clear()
    rng = random.Random(5)
    pos = engines.new("inphexion", size=7)
    seen = []
    while pos.outcome is None and pos.ply < 30:
        seen.append((pos, evaluate(pos)))
        assert len(inphexion_plan._VALUES) <= 10
        pos = pos.play(pos.random_move(rng))
    for p, v in seen:
        assert evaluate(p) == v == inphexion_plan._evaluate(p)


def test_the_bit_mask_figures_are_those_of_the_cell_by_cell_ones() -> None:
    # The evaluation works on bit masks, each side's figures kept by the board it sees
    # (issue 49: the same values in less time): the potential is the open board's and the
    # discs it could push to connect are those winning_cells counts, cell by cell.
    inphexion_plan._SIDES.clear()
    for size in (5, 7, 9):
        for game in range(3):
            rng = random.Random(game)
            pos = engines.new("inphexion", size=size)
            while pos.outcome is None:
                nbrs = pos.board.neighbours
                shape = inphexion_plan._Shape(pos)
                empty, zero, one = masks(pos.cells)
                discs = (zero, one)
                near = shape.shifts.dilate(empty)
                for colour in (WHITE, BLACK):
                    mine, theirs = discs[colour], discs[1 - colour]
                    for _ in range(2):  # worked out, then kept
                        got = inphexion_plan._seen_by(shape, colour, mine, theirs, empty, near)
                        a, b = pos.edges[colour]
                        slow = potential(open_board(pos.cells, colour, nbrs), colour, nbrs, (a, b))
                        wins = winning_cells(pos.cells, colour, nbrs, a, b)
                        assert got[2] == wins
                        assert got[:2] == (slow.value, slow.moves) or got[0] == slow.value == 0
                pos = pos.play(pos.random_move(rng))
