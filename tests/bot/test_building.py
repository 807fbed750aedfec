"""Iso-Path's turn as the picker's two steps (``bot.sessions.building``): every legal turn can
be entered, every choice shown leads to one, captures and turns whose notation needs the piece
move first included, and a choice the rules force is made for the player."""

from __future__ import annotations

import random

import pytest

import engines
from bot.sessions.building import NO_TILE, Stage, choices_for, screen, turn_table
from bot.sessions.context import Refusal
from engines.isopath import IsopathPosition, setup


def _rows(position: engines.Position) -> object:
    return position.to_dict()["rows"]


def _positions(size: int, seed: int, plies: int) -> list[IsopathPosition]:
    rng = random.Random(seed)
    pos = engines.new("isopath", size=size)
    out = []
    while pos.outcome is None and len(out) < plies:
        assert isinstance(pos, IsopathPosition)
        out.append(pos)
        pos = pos.play(pos.random_move(rng))
    return out


@pytest.mark.parametrize("size", [4, 5])
def test_every_turn_is_reached_and_every_choice_leads_somewhere(size: int) -> None:
    rng = random.Random(size)
    for position in _positions(size, size, 30)[::5]:
        legal = position.legal_moves()
        for n, move in enumerate(rng.sample(legal, min(6, len(legal)))):
            shown = screen(position, "")
            while shown.stage is not Stage.DONE:
                # Each choice shown opens a screen (never a dead end: checked on the screens
                # of the position's first turn) ...
                for choice in shown.choices if n == 0 else ():
                    screen(position, choice.selection)
                # ... and exactly one is on the way to the turn meant.
                path = choices_for(position, move)
                on_the_way = [c for c in shown.choices if c.selection in path]
                assert len(on_the_way) == 1, (move, shown)
                shown = screen(position, on_the_way[0].selection)
            assert shown.move is not None
            assert _rows(position.play(shown.move)) == _rows(position.play(move))
            # The turn's own notation, whatever order it gives, is the same turn at once.
            assert screen(position, move).move == shown.move


def test_a_capture_in_place_of_the_build_or_of_the_piece_move() -> None:
    position = setup(white=["b3", "a1"], black=["c3", "c4", "g1"], to_move=1)
    first = screen(position, "")
    assert [c.label for c in first.extras] == ["✕ b3"]
    # In place of the build: then a piece move, and the capture is beside the board.
    after = screen(position, "xb3")
    assert after.stage in (Stage.PIECE, Stage.STEP) and after.selection.startswith("xb3 ")
    assert after.extras == ()
    # After a build: the capture is a cell of step 2, marked as one.
    build = next(b for b, other in turn_table(position) if other == "xb3" and b)
    second = screen(position, build)
    capture = next(c for c in second.cells if c.label == "✕ b3")
    done = screen(position, capture.selection)
    assert done.stage is Stage.DONE and done.move == f"xb3 {build}"


def test_capturing_the_last_piece_ends_the_turn_at_once() -> None:
    position = setup(white=["b3"], black=["c3", "c4", "g1"], to_move=1)
    done = screen(position, "xb3")
    assert done.stage is Stage.DONE and done.move == "xb3"
    assert _rows(position.play("xb3")) == _rows(position.play(done.move))


def test_a_turn_whose_notation_needs_the_piece_move_first() -> None:
    """Taking the tile from under a piece is only legal once that piece has left: the picker
    still asks for the build first, and the turn is noted in the order the rules need."""
    for position in _positions(4, 7, 40):
        table = turn_table(position)
        first = [m for m in table.values() if "-" in m.split(" ")[0] and " " in m]
        late = [m for m in first if ">" in m and not _legal(position, _swap(m))]
        if late:
            move = late[0]
            selection = choices_for(position, move)[-1]
            assert selection.split(" ")[0] == move.split(" ")[1]  # the build first
            assert screen(position, selection).move == move
            assert screen(position, move).move == move  # the turn's own notation too
            return
    raise AssertionError("no turn needing the piece move first in these games")


def _swap(move: str) -> str:
    return " ".join(reversed(move.split(" ")))


def _legal(position: IsopathPosition, move: str) -> bool:
    try:
        position.play(move)
    except engines.IllegalMove:
        return False
    return True


def test_forced_choices_are_made_and_back_skips_them() -> None:
    start = engines.new("isopath")
    assert isinstance(start, IsopathPosition)
    # After b1>b2 only b2 can be stepped onto: the pieces a1 and a2 are the choice.
    shown = screen(start, "b1>b2")
    assert shown.stage is Stage.PIECE and [c.label for c in shown.cells] == ["a1", "a2"]
    # a2's only step is to b2: choosing a2 completes the turn; Back goes to the pieces.
    done = screen(start, "b1>b2 a2-")
    assert done.move == "b1>b2 a2-b2" and done.back == "b1>b2"
    assert screen(start, "b1>").back == ""


def test_no_tile_when_a_lone_piece_move_wins() -> None:
    position = setup(white=["f2"], black=["d1", "d7", "c4"], to_move=0, heights={"g2": 1})
    table = turn_table(position)
    assert (None, "f2-g2") in table
    first = screen(position, "")
    assert NO_TILE in {c.selection for c in first.extras}
    assert screen(position, "_ f2-g2").move in {"f2-g2"}


@pytest.mark.parametrize("selection", ["zz", "b1>b2 b1>b3", "a1-b2", "b1>g4", "xd4"])
def test_a_selection_the_turn_does_not_allow_is_refused(selection: str) -> None:
    start = engines.new("isopath")
    assert isinstance(start, IsopathPosition)
    with pytest.raises(Refusal, match="No legal move starts with"):
        screen(start, selection)
