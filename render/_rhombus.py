"""The Hex rhombus drawing the games on a rhombus share (Maphex, inpHeXion): the goal-edge
frame, cells and coordinates, the side headings right of the board and the legend in its
empty corner."""

from __future__ import annotations

from engines.base import Position
from engines.geometry import Rhombus
from render._canvas import Canvas
from render._core import (
    BAND,
    Layout,
    Painter,
    Scene,
    Sprite,
    band_width,
    coord_size,
    corner_cells,
    fit_text,
    frame_sides,
    luma,
    offset_polygon,
    paint_frame,
    paint_sprite,
    px,
    side_heading,
    text_width,
    win_link,
)
from render._words import N_, colour_name, gettext
from render.theme import RGB, Theme

__all__ = [
    "RHOMBUS_PAD",
    "draw_sides",
    "free_left",
    "free_right",
    "legend_chain",
    "paint_legend",
    "paint_rhombus",
    "paint_sides",
    "piece_radius",
    "side_rows",
]


def paint_rhombus(
    p: Painter,
    lay: Layout,
    theme: Theme,
    board: Rhombus,
    edges: tuple[tuple[frozenset[int], frozenset[int]], ...],
    sides: tuple[RGB, RGB],
    fills: list[RGB],
) -> None:
    """A Hex rhombus: goal-edge frame, cells, and coordinates on all four sides."""
    n = board.n
    band = band_width(lay)
    paint_frame(p, lay, theme, frame_sides(corner_cells(board), edges, sides), band=band)
    grid_w = max(1.5, lay.radius * 0.05)
    for cell in board.cells:
        p.polygon(lay.cell_polygon(cell), fill=fills[cell], outline=theme.grid, width=grid_w)
    size = coord_size(lay, theme)
    reach = lay.radius + band + size * 0.75
    for c in range(n):
        letter = board.name(c)[0]
        (x, y), (bx, by) = lay.centres[c], lay.centres[n * (n - 1) + c]
        p.text((x, y - reach), letter, size, theme.text, bold=True)
        p.text((bx, by + reach), letter, size, theme.text, bold=True)
    side_reach = (lay.radius + band) * 1.155 + size * 0.9
    for r in range(n):
        number = board.name(r * n)[1:]
        (x, y), (rx, ry) = lay.centres[r * n], lay.centres[r * n + n - 1]
        p.text((x - side_reach, y), number, size, theme.text, bold=True)
        p.text((rx + side_reach, ry), number, size, theme.text, bold=True)


def piece_radius(lay: Layout) -> float:
    """Radius of a disc on a hexagonal cell."""
    return lay.inner * 0.8


def _outer(lay: Layout) -> list[tuple[float, float]]:
    return offset_polygon(lay.corners, lay.radius + band_width(lay))


def _edge_x(a: tuple[float, float], b: tuple[float, float], y: float) -> float:
    return a[0] + (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1])


def free_right(lay: Layout, theme: Theme, y: float) -> float:
    """The first x right of a rhombus board (frame and row numbers) at height ``y``: the
    empty corner at the top right holds the sides and players."""
    outer = _outer(lay)
    return _edge_x(outer[1], outer[2], y) + coord_size(lay, theme) * 2.2 + 6


def free_left(lay: Layout, theme: Theme, y: float) -> float:
    """The last x left of a rhombus board at height ``y``: the empty corner at the bottom
    left holds the legend."""
    outer = _outer(lay)
    return _edge_x(outer[0], outer[3], y) - coord_size(lay, theme) * 2.2 - 6


def side_rows(lay: Layout, theme: Theme) -> tuple[float, tuple[float, float]]:
    """x of the sides' block in the top-right corner, and the y of each colour's heading."""
    s = theme.height / 700
    top = BAND * s + 22 * s
    ys = (top, top + 76 * s)
    # Right of the board, but never so far right that the goal words leave the picture.
    words = max(text_width(gettext(g), px(theme, theme.text_size)) for g in GOALS)
    last = theme.width - 8 * s - 40 * s - words
    return min(free_right(lay, theme, ys[1] + 34 * s), last), ys


#: pixels (x, y) kept around a rhombus board for its coordinates and, at the sides, for the
#: words in its empty corners
RHOMBUS_PAD = (84.0, 32.0)

#: what each colour connects on a rhombus board, under its heading
GOALS = (N_("top ↔ bottom"), N_("left ↔ right"))


def paint_sides(p: Painter, lay: Layout, theme: Theme, fills: tuple[RGB, RGB]) -> None:
    """A swatch of each colour's goal edge, outlined as on the board, and what the colour
    connects, under its heading (the heading is drawn per picture: it carries the player's
    name)."""
    s = theme.height / 700
    x0, ys = side_rows(lay, theme)
    for colour, y in enumerate(ys):
        ink = theme.light_rim if luma(fills[colour]) < 128 else theme.dark_rim
        box = [(x0 + 6 * s, y + 34 * s), (x0 + 26 * s, y + 34 * s)]
        p.line(box, ink, 12 * s)
        p.line(box, fills[colour], 8 * s)
        size = px(theme, theme.text_size)
        goal = gettext(GOALS[colour])
        p.text((x0 + 40 * s, y + 34 * s), goal, size, theme.muted, anchor="lm")


def draw_sides(image: Canvas, position: Position, theme: Theme, lay: Layout, scene: Scene) -> None:
    """Each colour's heading: its player's name when the bot gave names (the disc gives the
    colour), else the colour."""
    s = theme.height / 700
    x0, ys = side_rows(lay, theme)
    fills = theme.sides(position.game)
    right = theme.width - 8 * s
    for colour, y in enumerate(ys):
        side = colour_name(position, colour)
        player = scene.player_of_side(position, colour)
        heading = (x0, y)
        side_heading(image, theme, heading, fills[colour], side, player, right)


def paint_legend(p: Painter, lay: Layout, theme: Theme, items: list[tuple[Sprite, str]]) -> None:
    """A legend in the empty bottom-left corner of a rhombus board: icon and words (marked,
    said here) per row, the last row at the bottom (the corner is widest there)."""
    s = theme.height / 700
    step = 38 * s
    size = px(theme, theme.text_size)
    x0 = 8 * s
    for k, (sprite, text) in enumerate(reversed(items)):
        y = theme.height - 22 * s - k * step
        cx = x0 + 16 * s
        p.circle((cx, y), 16 * s, fill=theme.cell, outline=theme.grid, width=2)
        paint_sprite(p, sprite, (cx, y))
        room = free_left(lay, theme, y - 12 * s) - (x0 + 38 * s)
        words = fit_text(gettext(text), round(size * p.scale), room * p.scale)
        p.text((x0 + 38 * s, y), words, size, theme.muted, anchor="lm")


def legend_chain(theme: Theme, lay: Layout) -> Sprite:
    """The legend's picture of a winning chain: two linked rings."""
    r = 8 * theme.height / 700
    return win_link(theme, round(r * 1.6), 0, r * 0.6)
