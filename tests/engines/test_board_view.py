"""Every game reads its cells the same way (engines.BoardView): the web page and the pictures
draw any game from it without knowing the game: its board's shape (goal cells, regions, marked
cells, what touches what, what heights count), the last move's cells, what won, the zone."""

from __future__ import annotations

import dataclasses
import random

import pytest

import engines
from engines.base import BoardView, HeightKind
from engines.board_view import CELL
from engines.fixation import FixationPosition
from engines.inphexion import InphexionPosition
from engines.isopath import IsopathPosition
from engines.maphex import MaphexPosition
from engines.pathagon import PathagonPosition


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


# -- the board's shape and the marks of a position (issue 42: one typed view per game) -------


def _finished(game: str, seed: int) -> engines.Position:
    """A game of ``game`` played with random moves to its end by the rules."""
    rng = random.Random(seed)
    position = engines.new(game)
    while position.outcome is None:
        position = position.play(position.random_move(rng))
    return position


#: A seed whose random game ends by the rules within a few hundred plies, by game.
FINISHING = {"pathagon": 2, "maphex": 1, "inphexion": 1, "isopath": 0, "fixation": 0}


@pytest.mark.parametrize("game", list(engines.GAMES))
def test_a_view_is_immutable_and_its_shape_is_shared(game: str) -> None:
    first, second = _played(game, 2, seed=1)[-2:]
    view = second.board_view()
    assert view.shape is first.board_view().shape  # one shape per board, built once
    assert len(view.shape.board) == len(view.pieces)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.zone = 0  # type: ignore[misc]  # the assignment mypy refuses is the point
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.shape.goals = ()  # type: ignore[misc]  # (as above: frozen at runtime too)


@pytest.mark.parametrize("game", list(engines.GAMES))
def test_the_last_move_names_its_cells(game: str) -> None:
    for position in _played(game, 8, seed=11):
        view = position.board_view()
        board = view.shape.board
        assert [board.name(c) for c in view.last] == CELL.findall(position.last_move or "")


@pytest.mark.parametrize("game", list(FINISHING))
def test_the_winning_cells_are_the_engines_and_link_only_touching_cells(game: str) -> None:
    position = _finished(game, FINISHING[game])
    view = position.board_view()
    assert view.winning == position.winning_cells and view.winning
    touching = view.shape.touching
    for a, b in view.winning_links():
        assert a < b and {a, b} <= view.winning and b in touching[a]
    # While the game goes on, nothing has won.
    assert _played(game, 4, seed=2)[-1].board_view().winning == frozenset()


def test_goal_cells_are_each_sides_edges_or_home_row() -> None:
    for game in ("pathagon", "maphex", "inphexion"):
        position = engines.new(game)
        goals = position.board_view().shape.goals
        # Each of these games names the two edges a seat connects (its own attribute).
        assert isinstance(position, PathagonPosition | MaphexPosition | InphexionPosition)
        edges = position.edges
        assert goals == tuple(a | b for a, b in edges), game
    isopath = engines.new("isopath")
    assert isinstance(isopath, IsopathPosition)
    assert isopath.board_view().shape.goals == isopath.home_rows
    assert engines.new("fixation").board_view().shape.goals == ()


def test_teleports_count_as_touching_for_a_winning_path() -> None:
    isopath = engines.new("isopath")
    assert isinstance(isopath, IsopathPosition)
    shape = isopath.board_view().shape
    a, b = isopath.teleports[0]
    assert b not in shape.board.neighbours[a] and b in shape.touching[a]
    view = BoardView(shape, isopath.pieces, winning=frozenset({a, b}))
    assert view.winning_links() == ((min(a, b), max(a, b)),)


def test_regions_marks_and_the_zone_of_a_board_of_sub_boards() -> None:
    start = engines.new("maphex")
    assert isinstance(start, MaphexPosition)
    shape = start.board_view().shape
    assert [r.move for r in shape.regions] == [str(n) for n in range(1, 10)]
    assert shape.marked == start.autocells and len(shape.marked) == 9
    assert all(shape.region_of(c) == start.subboard[c] for c in shape.board.cells)
    assert start.board_view().zone is None  # Blue still chooses
    chosen = start.play("5")
    assert isinstance(chosen, MaphexPosition) and shape.regions[4].label == chosen.target_name
    assert chosen.board_view().zone == 4 and chosen.board_view().last == ()
    assert engines.new("pathagon").board_view().shape.regions == ()
