"""The typed board view the page draws (issue 44), on every board of every game: the
coordinates off the cells and inside the drawing; and the page's script and style sheet name no
game (issue 42: everything game-specific is data in the view)."""

from __future__ import annotations

import math

import pytest

import engines
from bot.webboard import assets, view

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
    """Issue 42: the page draws the typed view; its script and style sheet name no game."""
    for name in ("board.js", "board.css"):
        body = assets.ASSETS[name].body.decode().lower()
        named = [g for g in engines.GAMES if g in body]
        assert named == [], (name, named)
