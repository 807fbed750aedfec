"""Every game reads its cells the same way (engines.BoardView): the web page draws any game
from it without knowing the game."""

from __future__ import annotations

import random

import pytest

import engines
from engines.base import HeightKind
from engines.fixation import FixationPosition
from engines.isopath import IsopathPosition


def _played(game: str, plies: int, seed: int) -> list[engines.Position]:
    rng = random.Random(seed)
    position = engines.new(game)
    seen = [position]
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(rng.choice(moves))
        seen.append(position)
    return seen


@pytest.mark.parametrize("game", list(engines.GAMES))
def test_a_view_has_one_entry_per_cell_and_only_colours_or_none(game: str) -> None:
    for position in _played(game, 12, seed=7):
        view = position.board_view()
        cells = len(position.board)
        assert len(view.pieces) == cells and set(view.pieces) <= {-1, 0, 1}
        if view.height_kind is HeightKind.NONE:
            assert view.heights is None
        else:
            assert view.heights is not None and len(view.heights) == cells


def test_stacks_show_their_top_piece_and_height() -> None:
    for position in _played("fixation", 12, seed=3):
        assert isinstance(position, FixationPosition)
        view = position.board_view()
        assert view.height_kind is HeightKind.STACKS
        assert view.pieces == tuple(s[-1] if s else -1 for s in position.stacks)
        assert view.heights == tuple(len(s) for s in position.stacks)


def test_tiles_show_the_pieces_and_the_tiles_under_them() -> None:
    for position in _played("isopath", 6, seed=5):
        assert isinstance(position, IsopathPosition)
        view = position.board_view()
        assert view.height_kind is HeightKind.TILES
        assert (view.pieces, view.heights) == (position.pieces, position.heights)
