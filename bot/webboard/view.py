"""The game as JSON for the page's script: pure functions of positions, nothing stored.

- :func:`geometry`: where each cell is drawn (its notation, centre, the cell shape and size),
  the board turned so that a phone's width holds the biggest cells (a Hex rhombus stands on a
  corner), from the same cell centres as the board pictures (:func:`render.cell_centres`).
- :func:`frame`: what is on every cell in one position (pieces by colour, tile or stack
  heights, the last move's cells), one per ply for the step-through.

>>> import engines
>>> g = geometry("pathagon", {})
>>> g["kind"], len(g["cells"]), g["cells"][0]["n"]
('square', 49, 'a1')
>>> frame(engines.new("maphex").play("5").play("e5"))["last"]
['e5']
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from typing import Any

import engines
import render
from engines import Position
from engines.geometry import Square

__all__ = ["CELL", "PALETTE", "colours", "frame", "geometry"]

#: The colour of each side's pieces on the page, by the side's name in the games' own words.
PALETTE: dict[str, str] = {
    "Red": "#d64545",
    "Blue": "#2f6fdb",
    "White": "#f4f1ea",
    "Black": "#25252b",
    "Light": "#f3e2bf",
    "Dark": "#6b4424",
}
# The page's board box the turn is chosen for: a phone's width, most of its height.
_BOX = (390.0, 620.0)
#: A cell's name inside a move's notation (``e5`` in ``d4-e5``).
CELL = re.compile(r"[a-z][0-9]{1,2}")


def colours(game: str, options: dict[str, Any]) -> list[str]:
    """The CSS colour of colour 0 and colour 1 of ``game`` (the sides at the start)."""
    return [PALETTE.get(side, "#888") for side in engines.new(game, **options).seat_sides]


def _rotated(points: list[tuple[float, float]], degrees: float) -> list[tuple[float, float]]:
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return [(x * c - y * s, x * s + y * c) for x, y in points]


@functools.lru_cache(maxsize=64)
def _geometry(game: str, options: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    position = engines.new(game, **dict(options))
    # The engines' render-facing attributes (``board``, ``cells`` ...) are not on the ABC.
    shown: Any = position
    board = shown.board
    centres = [(float(x), float(y)) for x, y in render.cell_centres(position)]
    square = isinstance(board, Square)
    neighbour = board.neighbours[0][0]
    spacing = math.dist(centres[0], centres[neighbour])
    radius = spacing / 2 if square else spacing / math.sqrt(3)
    best: tuple[float, float, list[tuple[float, float]]] | None = None
    for turn in (0.0,) if square else (0.0, -30.0, 30.0):
        points = _rotated(centres, turn)
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        width = max(xs) - min(xs) + 2 * radius
        height = max(ys) - min(ys) + 2 * radius
        scale = min(_BOX[0] / width, _BOX[1] / height)
        if best is None or scale > best[0] * 1.15:
            best = (scale, turn, points)
    assert best is not None
    _, turn, points = best
    x0 = min(p[0] for p in points) - radius
    y0 = min(p[1] for p in points) - radius
    goals = _goals(shown, len(points))
    cells = [
        {"n": board.name(i), "x": round(x - x0, 1), "y": round(y - y0, 1), "e": goals[i]}
        for i, (x, y) in enumerate(points)
    ]
    return {
        "kind": "square" if square else "hex",
        "r": round(radius, 2),
        "turn": turn,
        "w": round(max(c["x"] for c in cells) + radius, 1),
        "h": round(max(c["y"] for c in cells) + radius, 1),
        "cells": cells,
    }


def _goals(position: Any, count: int) -> list[int]:
    """For each cell, the colour whose goal edge (connection games) or home row (Iso-Path)
    it lies on, -1 for none (a corner on two edges takes the first colour's)."""
    goals = [-1] * count
    edges = getattr(position, "edges", None)
    if edges is not None:
        pairs = [frozenset().union(*pair) for pair in edges]
    else:
        pairs = list(getattr(position, "home_rows", ()))
    for colour in reversed(range(len(pairs))):
        for cell in pairs[colour]:
            goals[cell] = colour
    return goals


def geometry(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Where the cells of a board of ``game`` with ``options`` are drawn (see the module
    docstring): ``kind`` (``hex`` or ``square``), ``r`` (a hexagon's circumradius or half a
    square's side), ``turn`` (degrees the hexagons are turned), ``w``/``h`` (the drawing's
    size) and ``cells`` (each with its notation ``n``, centre ``x``, ``y``, and ``e`` the
    colour whose goal edge or home row it is on, -1 for none)."""
    return _geometry(game, tuple(sorted(options.items())))


def frame(position: Position) -> dict[str, Any]:
    """What is on every cell of ``position``: ``p`` the colour of the piece (or top disc) on
    each cell (-1: none), ``h`` the tile height (Iso-Path) or stack height (Lines of
    Fixation) of each cell or ``None``, ``last`` the cells the last move named."""
    shown = position.board_view()  # the game's own reading of its cells
    heights = None if shown.heights is None else list(shown.heights)
    last = CELL.findall(position.last_move or "")
    return {"p": list(shown.pieces), "h": heights, "last": last}
