"""The game as JSON for the page's script: pure functions of positions, nothing stored.

- :func:`geometry`: where each cell is drawn (its notation, centre, the cell shape and size),
  the board turned so that a phone's width holds the biggest cells (a Hex rhombus stands on a
  corner), from the same cell centres as the board pictures (:func:`render.cell_centres`).
- :func:`frame`: what is on every cell in one position (pieces by colour, tile or stack
  heights, the last move's cells, the winning path, the region to play in), one per ply for
  the step-through.

Both are read from the game's typed board view (:class:`engines.BoardView`, filled by the
game's own module), never from a game's own attributes; the page draws them generically: the
board's *labels* (coordinates), its *regions* (Maphex's sub-boards: a cell's ``s``, an opening
choice named by a region's ``n``), marked cells (``a``: Maphex's auto-cells) and how heights
are shown (:data:`HEIGHTS`) are data here, so the script names no game.

>>> import engines
>>> g = geometry("pathagon", {})
>>> g["kind"], len(g["cells"]), g["cells"][0]["n"]
('square', 49, 'a1')
>>> frame(engines.new("maphex").play("5").play("e5"))["last"]
['e5']
>>> [label["t"] for label in g["labels"]][:3]
['a', '1', 'b']
>>> geometry("maphex", {})["regions"][4]["n"], frame(engines.new("maphex").play("5"))["zone"]
('5', 4)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

import engines
import render
from engines import BoardShape, Position
from engines.board_view import CELL, HeightKind

__all__ = ["CELL", "HEIGHTS", "PALETTE", "colours", "frame", "geometry"]

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
#: How the page shows each kind of heights (:class:`engines.board_view.HeightKind`):
#: ``fills`` the ground's colour by height (tiles), ``from`` the least height written on a
#: cell as a number (stacks), and the keys of the page's labels (``words``) that say a
#: cell's height: ``ground`` by height, ``count`` a piece's height (its ``{count}``).
HEIGHTS: dict[HeightKind, dict[str, Any] | None] = {
    HeightKind.NONE: None,
    HeightKind.TILES: {
        "fills": {"-1": "#b4a58a", "0": "#e3d6bb", "1": "#fffaf0"},
        "from": None,
        "ground": {"-1": "no_tile", "0": "one_tile", "1": "two_tiles"},
        "count": None,
    },
    HeightKind.STACKS: {"fills": None, "from": 2, "ground": None, "count": "stack"},
}


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
    shape = position.board_view().shape
    board = shape.board
    centres = [(float(x), float(y)) for x, y in render.cell_centres(position)]
    square = board.kind == "square"
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
        if best is None or scale > best[0] * 1.05:
            best = (scale, turn, points)
    assert best is not None
    _, turn, points = best
    x0 = min(p[0] for p in points) - radius
    y0 = min(p[1] for p in points) - radius
    cells = [_cell(shape, i, x - x0, y - y0) for i, (x, y) in enumerate(points)]
    regions = _regions(shape, cells)
    labels = _labels(cells, spacing, by_row=board.kind == "hexagon")
    # The drawing's box: the cells with their rims, and the coordinates around them.
    rim, text = radius * 1.15, radius * 0.6
    xs = [c["x"] for c in cells]
    ys = [c["y"] for c in cells]
    lx = [t["x"] for t in labels] or xs
    ly = [t["y"] for t in labels] or ys
    left, top = min(min(xs) - rim, min(lx) - text), min(min(ys) - rim, min(ly) - text)
    right = max(max(xs) + rim, max(lx) + text)
    bottom = max(max(ys) + rim, max(ly) + text)
    return {
        "kind": "square" if square else "hex",
        "r": round(radius, 2),
        "turn": turn,
        "w": round(max(c["x"] for c in cells) + radius, 1),
        "h": round(max(c["y"] for c in cells) + radius, 1),
        "box": [round(left, 1), round(top, 1), round(right - left, 1), round(bottom - top, 1)],
        "cells": cells,
        "labels": labels,
        "regions": regions,
        "heights": HEIGHTS[shape.height_kind],
    }


def _cell(shape: BoardShape, index: int, x: float, y: float) -> dict[str, Any]:
    """One cell of the drawing: its notation ``n``, centre, ``e`` the colour whose goal it is
    on; on a board of regions ``s`` its region, where cells are marked ``a`` (1: a dot)."""
    cell: dict[str, Any] = {
        "n": shape.board.name(index),
        "x": round(x, 1),
        "y": round(y, 1),
        "e": shape.goal_of(index),
    }
    if shape.regions:
        cell["s"] = shape.region_of(index)
    if shape.marked:
        cell["a"] = 1 if index in shape.marked else 0
    return cell


def _regions(shape: BoardShape, cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The board's regions (sub-boards), each with ``n`` the move that chooses it (``"5"``),
    its ``label`` in words and its centre."""
    regions: list[dict[str, Any]] = []
    for region in shape.regions:
        members = [cells[c] for c in region.cells]
        regions.append(
            {
                "n": region.move,
                "label": region.label,
                "x": round(sum(c["x"] for c in members) / len(members), 1),
                "y": round(sum(c["y"] for c in members) / len(members), 1),
            }
        )
    return regions


def _split(name: str) -> tuple[str, str]:
    letters = name.rstrip("0123456789")
    return letters, name[len(letters) :]


def _labels(cells: list[dict[str, Any]], spacing: float, *, by_row: bool) -> list[dict[str, Any]]:
    """The coordinates around the board: each file's letter and each rank's number one cell
    beyond the line's first cell (for a hexagon, whose numbers restart on each row, the row's
    letter only, before its first cell)."""
    lines: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for c in cells:
        letters, digits = _split(c["n"])
        lines.setdefault((0, letters), []).append(c)
        if not by_row:
            lines.setdefault((1, digits), []).append(c)
    labels = []
    for (axis, text), line in lines.items():
        if len(line) < 2:
            continue
        for first, second in [(line[0], line[1])]:
            dx, dy = first["x"] - second["x"], first["y"] - second["y"]
            step = math.hypot(dx, dy) or 1.0
            # Beyond the end cell, a little closer than a whole cell.
            far = 0.8 * spacing / step
            labels.append(
                {
                    "t": text,
                    "x": round(first["x"] + dx * far, 1),
                    "y": round(first["y"] + dy * far, 1),
                    "k": axis,
                }
            )
    return labels


def geometry(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Where the cells of a board of ``game`` with ``options`` are drawn (see the module
    docstring): ``kind`` (``hex`` or ``square``), ``r`` (a hexagon's circumradius or half a
    square's side), ``turn`` (degrees the hexagons are turned), ``w``/``h`` (the cells'
    extent), ``box`` (the drawing's ``[x, y, width, height]``, coordinates included),
    ``cells`` (each with its notation ``n``, centre ``x``, ``y``, ``e`` the colour whose goal
    edge or home row it is on, -1 for none, and on a board of regions ``s`` its region and
    ``a`` 1 for an auto-cell), ``labels`` (the coordinates: text ``t`` at ``x``, ``y``),
    ``regions`` (``n`` the move that names one, ``label`` in words, its centre) and
    ``heights`` (how a frame's heights are shown, :data:`HEIGHTS`; ``None``: no heights)."""
    return _geometry(game, tuple(sorted(options.items())))


def frame(position: Position) -> dict[str, Any]:
    """What is on every cell of ``position`` (its :meth:`~engines.Position.board_view`):
    ``p`` the colour of the piece (or top disc) on each cell (-1: none), ``h`` each cell's
    height (what the geometry's ``heights`` says) or ``None``, ``last`` the cells the last
    move named, ``win`` the winning cells and ``links`` each two of them that touch (as the
    pictures draw them), ``zone`` the region the player to move must play in (``None``:
    anywhere)."""
    shown = position.board_view()
    name = shown.shape.board.name
    return {
        "p": list(shown.pieces),
        "h": None if shown.heights is None else list(shown.heights),
        "last": [name(c) for c in shown.last],
        "win": [name(c) for c in sorted(shown.winning)],
        "links": [[name(a), name(b)] for a, b in shown.winning_links()],
        "zone": shown.zone,
    }
