"""Maphex, one test per numbered point of shared/rules/maphex.md."""

from __future__ import annotations

import pytest

import engines
from engines import IllegalMove
from engines.maphex import MaphexPosition
from tests.engines.properties import GameProperties


class TestProperties(GameProperties):
    game, option_sets = "maphex", ({}, {"size": 16})


def play(*moves: str, size: int = 9) -> MaphexPosition:
    pos = engines.new("maphex", size=size)
    for m in moves:
        pos = pos.play(m)
    assert isinstance(pos, MaphexPosition)
    return pos


def test_point1_board_is_9x9_of_3x3_sub_boards_or_16x16() -> None:
    p9, p16 = play(), play(size=16)
    assert len(p9.cells) == 81 and p9.block == 3
    assert len(p16.cells) == 256 and p16.block == 4
    assert p9.legal_moves() == [str(i) for i in range(1, 10)]
    assert p16.legal_moves() == [str(i) for i in range(1, 17)]
    with pytest.raises(ValueError, match="size"):
        engines.new("maphex", size=11)


def test_point2_sides_red_top_bottom_blue_left_right() -> None:
    assert engines.GAMES["maphex"].sides == ("Red", "Blue")
    p = play()
    assert p.edges[0] == (p.board.top, p.board.bottom)
    assert p.edges[1] == (p.board.left, p.board.right)


def test_point3_blue_opens_by_choosing_reds_sub_board() -> None:
    p = play()
    assert p.to_move == 1 and p.choosing and p.target is None
    p = p.play("1")
    assert p.to_move == 0 and p.target == 0 and p.target_name == "top-left, 1"
    assert sorted(p.legal_moves()) == sorted(["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"])
    with pytest.raises(IllegalMove, match=r"e5 is not in the target sub-board \(top-left, 1\)"):
        p.play("e5")
    with pytest.raises(IllegalMove, match=r"a number 1\.\.9"):
        play().play("e5")
    with pytest.raises(IllegalMove, match=r"a number 1\.\.9"):
        play().play("10")


def test_point4_mapping_and_autocells() -> None:
    p = play()
    names = {p.board.name(c) for c in p.autocells}
    assert names == {"a1", "e1", "i1", "a5", "e5", "i5", "a9", "e9", "i9"}
    # A disc on the bottom-right cell of the top-left sub-board sends Blue to sub-board 9.
    q = play("1", "c3")
    assert q.target == 8 and q.target_name == "bottom-right, 9"
    # Local position (row 0, column 1) sends to the top sub-board, 2.
    assert play("5", "e4").target == 1
    # An autocell sends the opponent to its own sub-board.
    assert play("5", "e5").target == 4
    assert len(play(size=16).autocells) == 16


def test_point5_place_on_an_empty_cell_of_the_target() -> None:
    p = play("5", "e5")  # Blue must now play in the centre
    with pytest.raises(IllegalMove, match="already taken"):
        p.play("e5")
    with pytest.raises(IllegalMove, match="not in the target sub-board"):
        p.play("a1")
    with pytest.raises(IllegalMove, match="not a cell"):
        p.play("j1")
    assert p.play("d4").cells[p.board.parse("d4")] == 1


# The centre is filled (every return to it through a local-centre cell), then the top-left
# sub-board; each time the player sent to the full sub-board places anywhere.
FILL_TWICE = (
    "5 d4 b2 e4 e2 f4 h2 d5 b5 f5 h5 d6 b8 e6 e8 f6 h8 e5 "
    "a1 b1 d1 c1 g1 a2 a4 c2 g4 a3 a7 b3 d7 c3 g7"
).split()


def test_point6_target_full_twice_with_a_free_placement_each_time() -> None:
    p = play()
    free_turns = []
    for move in FILL_TWICE:
        if p.free:
            free_turns.append((p.ply, p.target, len(p.legal_moves())))
        p = p.play(move)
    assert p.free and p.target == 0  # sent to the full top-left sub-board
    free_turns.append((p.ply, p.target, len(p.legal_moves())))
    # First time: after e5 sends to the full centre; second time: now, to the full top-left.
    assert [t[1] for t in free_turns] == [4, 0]
    empties = sum(1 for v in p.cells if v == -1)
    assert free_turns[1][2] == empties  # every empty cell of the board is legal
    p = p.play("i9")  # far from the target: allowed, never capped
    assert p.cells[p.board.parse("i9")] == p.to_move ^ 1


def test_point6_free_placement_is_not_offered_while_the_target_has_room() -> None:
    p = play("5")
    assert not p.free and len(p.legal_moves()) == 9


def test_point7_connection_wins_at_once() -> None:
    # Red builds column e top to bottom on a 9x9 board while Blue answers anywhere legal.
    p = play("2")
    red_cells = [f"e{r}" for r in range(1, 10)]
    while p.outcome is None:
        legal = p.legal_moves()
        if p.to_move == 0:
            wanted = [c for c in red_cells if c in legal]
            p = p.play(wanted[0] if wanted else legal[0])
        else:
            avoid = [c for c in legal if c not in red_cells]
            p = p.play(avoid[0] if avoid else legal[0])
    assert p.outcome is not None and p.outcome.termination == "connection"
    assert p.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        p.play("a1")


def test_point7_full_board_holds_exactly_one_connection() -> None:
    import random

    from engines.connection import connects

    for seed in range(20):
        rng = random.Random(seed)
        p = play()
        while p.outcome is None:
            p = p.play(p.random_move(rng))
        winner = p.outcome.winner
        assert winner is not None
        a, b = p.edges[winner]
        assert connects(p.cells, winner, p.board.neighbours, a, b)
        la, lb = p.edges[1 - winner]
        assert not connects(p.cells, 1 - winner, p.board.neighbours, la, lb)


# -- render-facing: what won ---------------------------------------------------------------------


def test_winning_cells_are_a_shortest_chain_of_the_winner_joining_their_edges() -> None:
    import random

    from engines.connection import connects, is_one_group

    for seed in range(4):
        rng = random.Random(seed)
        p = play()
        while p.outcome is None:
            assert p.winning_cells == frozenset()  # nothing won while the game goes on
            p = p.play(p.random_move(rng))
        winner = p.outcome.winner
        assert winner is not None
        won = p.winning_cells
        assert won and all(p.cells[c] == winner for c in won)
        assert is_one_group(won, p.board.neighbours)
        only = tuple(winner if c in won else -1 for c in range(len(p.cells)))
        assert connects(only, winner, p.board.neighbours, *p.edges[winner])
        # Shortest: no cell of it can go and still leave a connection.
        for cell in won:
            fewer = tuple(winner if c in won and c != cell else -1 for c in range(len(p.cells)))
            assert not connects(fewer, winner, p.board.neighbours, *p.edges[winner])
