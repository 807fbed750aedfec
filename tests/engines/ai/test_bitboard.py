"""Boards as bit masks (:mod:`engines.ai.bitboard`): the shifts say what the neighbour tables
say, on every board shape, and the masks of a board are its cells."""

from __future__ import annotations

import random

import pytest

from engines.ai import bitboard
from engines.ai.bitboard import Shifts, cells_of, masks, shifts_of
from engines.geometry import Board, Hexagon, Rhombus, Square


@pytest.mark.parametrize(
    "board",
    [Rhombus(5), Rhombus(9), Square(7), Hexagon(4)],
    ids=["rhombus 5", "rhombus 9", "square 7", "hexagon 4"],
)
def test_the_shifts_count_the_neighbours_the_table_lists(board: Board) -> None:
    nbrs = board.neighbours
    sh = shifts_of(nbrs)
    assert shifts_of(nbrs) is sh  # kept per table
    rng = random.Random(len(nbrs))
    for _ in range(200):
        chosen = {c for c in range(len(nbrs)) if rng.random() < rng.choice((0.1, 0.3, 0.6))}
        s = sum(1 << c for c in chosen)
        counts = [sum(nb in chosen for nb in nbrs[c]) for c in range(len(nbrs))]
        once, twice = sh.two(s)
        assert cells_of(once) == [c for c, k in enumerate(counts) if k >= 1]
        assert cells_of(twice) == [c for c, k in enumerate(counts) if k >= 2]
        assert sh.dilate(s) == once
        assert all(sh.adjacent[c] == sum(1 << nb for nb in nbrs[c]) for c in range(len(nbrs)))


def test_the_hexagonal_shifts_written_out_are_the_loops() -> None:
    nbrs = Rhombus(7).neighbours
    sh = Shifts(nbrs)
    looped = Shifts(nbrs)
    assert len(sh.down) == len(sh.up) == 3

    looped.dilate, looped.two = bitboard._any(sh.down, sh.up)
    rng = random.Random(7)
    for _ in range(200):
        s = rng.getrandbits(len(nbrs))
        assert sh.two(s) == looped.two(s)
        assert sh.dilate(s) == looped.dilate(s)


def test_masks_split_a_board_into_empty_and_the_two_sides() -> None:
    rng = random.Random(2)
    cells = tuple(rng.choice((-1, 0, 1)) for _ in range(81))
    empty, zero, one = masks(cells)
    assert cells_of(empty) == [c for c, v in enumerate(cells) if v == -1]
    assert cells_of(zero) == [c for c, v in enumerate(cells) if v == 0]
    assert cells_of(one) == [c for c, v in enumerate(cells) if v == 1]
