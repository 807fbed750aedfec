"""The typed board view the page draws (issue 44), on every board of every game: the
coordinates off the cells and inside the drawing; and the page's script and style sheet name no
game (issue 42: everything game-specific is data in the view)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

import engines
from bot.sessions import texts
from bot.webboard import assets, view
from engines.base import HeightKind
from tests.engines.test_board_view import FINISHING, _finished
from tests.web.scripted import SCRIPTED

ALL_BOARDS = [
    ("pathagon", {}),
    ("fixation", {}),
    ("maphex", {"size": 9}),
    ("maphex", {"size": 16}),
    ("isopath", {"size": 4}),
    ("isopath", {"size": 5}),
    *[("inphexion", {"size": n}) for n in (5, 6, 7, 8, 9)],
]


@pytest.mark.parametrize(("game", "options"), ALL_BOARDS)
def test_coordinates_sit_off_the_cells_inside_the_drawing(game: str, options: dict) -> None:
    board = view.geometry(game, options)
    x0, y0, width, height = board["box"]
    cells = board["cells"]
    spacing = min(math.dist((cells[0]["x"], cells[0]["y"]), (c["x"], c["y"])) for c in cells[1:])
    assert board["labels"]
    for label in board["labels"]:
        assert x0 <= label["x"] <= x0 + width and y0 <= label["y"] <= y0 + height
        nearest = min(math.dist((label["x"], label["y"]), (c["x"], c["y"])) for c in cells)
        assert nearest >= 0.75 * spacing, (label, nearest, spacing)
    for c in cells:  # every cell, with its rim, inside the drawing
        assert x0 <= c["x"] - board["r"] and c["x"] + board["r"] <= x0 + width
        assert y0 <= c["y"] - board["r"] and c["y"] + board["r"] <= y0 + height


def test_the_page_script_names_no_game() -> None:
    """Issue 42: the page draws the typed view; its scripts and style sheet name no game, nor
    any kind of heights (how heights are shown is data in the view, :data:`view.HEIGHTS`)."""
    kinds = [k.value for k in HeightKind if k is not HeightKind.NONE]
    for name in ("board.js", *assets.BOARD_PARTS, "board.css"):
        body = assets.ASSETS[name].body.decode().lower()
        named = [g for g in [*engines.GAMES, *kinds] if g in body]
        assert named == [], (name, named)


def test_every_script_of_the_page_is_short_and_loaded_before_board_js() -> None:
    from bot.webboard import page

    head = page._head("t", "")
    order = [head.index(assets.url(name)) for name in (*assets.BOARD_PARTS, "board.js")]
    assert order == sorted(order)
    for name in ("board.js", *assets.BOARD_PARTS):
        assert len(assets.ASSETS[name].body.decode().splitlines()) < 600, name


def test_every_kind_of_heights_is_shown_with_the_pages_own_words() -> None:
    labels = texts.board_labels()
    assert set(view.HEIGHTS) == set(HeightKind) and view.HEIGHTS[HeightKind.NONE] is None
    for kind, shown in view.HEIGHTS.items():
        if shown is None:
            continue
        keys = [*(shown["ground"] or {}).values(), *([shown["count"]] if shown["count"] else [])]
        assert keys and all(key in labels for key in keys), kind


def _won(game: str) -> list[engines.Position]:
    """The scripted game's positions, or a random game to its end when the script ends
    without a win by the rules."""
    scripted = SCRIPTED[game]
    positions = scripted.positions()
    if positions[-1].outcome is None:
        positions = [_finished(game, FINISHING[game])]
    return positions


@pytest.mark.parametrize("game", sorted(SCRIPTED))
def test_the_json_carries_each_games_board_view(game: str) -> None:
    """The geometry and the frames are the game's typed view (engines.BoardView), read the
    same way for every game: goal cells, regions and marks, heights, the last move, the winning
    path (with its links) and the zone."""
    options = SCRIPTED[game].options
    positions = _won(game)
    shape = positions[-1].board_view().shape
    board = view.geometry(game, options)
    names = shape.board.names
    assert [c["n"] for c in board["cells"]] == list(names)
    assert [c["e"] for c in board["cells"]] == [shape.goal_of(i) for i in range(len(names))]
    assert board["heights"] == view.HEIGHTS[shape.height_kind]
    assert [r["n"] for r in board["regions"]] == [r.move for r in shape.regions]
    assert [c.get("a", 0) for c in board["cells"]] == [
        int(i in shape.marked) for i in range(len(names))
    ]
    for position in positions[-4:]:
        frame, shown = view.frame(position), position.board_view()
        assert frame["p"] == list(shown.pieces)
        assert frame["h"] == (None if shown.heights is None else list(shown.heights))
        assert frame["last"] == view.CELL.findall(position.last_move or "")
        assert frame["zone"] == shown.zone
    last = view.frame(positions[-1])
    won = positions[-1].winning_cells
    assert last["win"] and sorted(last["win"]) == sorted(names[c] for c in won)
    assert last["links"] == [
        [names[a], names[b]] for a, b in positions[-1].board_view().winning_links()
    ]


def test_what_each_game_shows_besides_pieces() -> None:
    kinds = {g: view.geometry(g, {})["heights"] for g in SCRIPTED}
    assert kinds["isopath"] == view.HEIGHTS[HeightKind.TILES]
    assert kinds["fixation"] == view.HEIGHTS[HeightKind.STACKS]
    assert sorted(g for g, k in kinds.items() if k is None) == ["inphexion", "maphex", "pathagon"]
    goals = {g: {c["e"] for c in view.geometry(g, {})["cells"]} for g in SCRIPTED}
    assert goals["fixation"] == {-1} and all(
        goals[g] == {-1, 0, 1} for g in goals if g != "fixation"
    )
    assert [g for g in SCRIPTED if view.geometry(g, {})["regions"]] == ["maphex"]


def test_the_view_reads_no_games_own_attributes() -> None:
    """The JSON comes from the typed board view alone: no probing of a position's attributes."""
    source = Path(view.__file__).read_text(encoding="utf-8")
    assert not re.search(r"\b(getattr|hasattr)\(", source)
