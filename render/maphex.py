"""Maphex pictures: a 9x9 (or 16x16) rhombus of sub-boards.

Drawn from the position (``engines/maphex.py``): ``cells``, ``block``, ``subboard``,
``autocells``, ``edges``, ``target``, ``choosing``, ``free``, ``target_name``, ``last_cell``.
Sub-boards are shaded alternately and bordered with thick lines; autocells carry a dot; the
target sub-board is tinted and outlined; during the opening choice each sub-board shows its
number.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image

from render._core import (
    Art,
    Layout,
    Painter,
    Sprite,
    band_width,
    coord_size,
    corner_cells,
    disc,
    dot,
    frame_sides,
    hex_edge_towards,
    last_ring,
    make_sprite,
    paint_frame,
)
from render.theme import RGB, Theme

__all__ = ["MaphexArt", "paint_rhombus", "piece_radius"]


def paint_rhombus(
    p: Painter,
    lay: Layout,
    theme: Theme,
    board: Any,
    edges: Any,
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


class MaphexArt(Art):
    """Draws Maphex positions."""

    def static_key(self, position: Any) -> tuple[str, int]:
        return ("maphex", position.size)

    def paint_background(self, p: Painter, position: Any, theme: Theme, lay: Layout) -> None:
        board = position.board
        k = position.block
        sub = position.subboard
        fills = [theme.cell if (s // k + s % k) % 2 == 0 else theme.cell_alt for s in sub]
        paint_rhombus(p, lay, theme, board, position.edges, theme.sides("maphex"), fills)
        # Sub-board borders: the cell sides between two different sub-boards.
        border_w = max(3.0, lay.radius * 0.13)
        for cell in board.cells:
            for other in board.neighbours[cell]:
                if other > cell and sub[other] != sub[cell]:
                    a, b = hex_edge_towards(lay, cell, other)
                    p.line([a, b], theme.border, border_w)
        for cell in position.autocells:
            p.circle(lay.centres[cell], lay.inner * 0.16, fill=theme.border)

    def draw(self, image: Image.Image, position: Any, theme: Theme, lay: Layout) -> None:
        if position.choosing:
            choice_overlay(theme, lay, position.size, position.block, position.subboard).paste(
                image, (0, 0)
            )
        elif position.target is not None and not position.free and position.outcome is None:
            target_overlay(theme, lay, position.size, position.block, position.target).paste(
                image, (0, 0)
            )
        r = piece_radius(lay)
        sides = theme.sides("maphex")
        pieces = (disc(theme, sides[0], r), disc(theme, sides[1], r))
        centres = lay.centres
        for cell, value in enumerate(position.cells):
            if value >= 0:
                pieces[value].paste(image, centres[cell])
        last = position.last_cell
        if last is not None:
            last_ring(theme, r).paste(image, centres[last])
            dot(theme, r * 0.3).paste(image, centres[last])

    def detail(self, position: Any) -> str:
        if position.choosing:
            return f"choose {position.seat_sides[0]}'s sub-board: 1-{position.block**2}"
        if position.outcome is not None or position.target is None:
            return ""
        if position.free:
            return "target full: play anywhere"
        return f"play in {position.target_name}"

    def effects_text(self, position: Any) -> str:
        if position.last_move.isdigit():
            return f" (the sub-board for {position.seat_sides[0]}'s first disc)"
        return ""

    def turn_text(self, position: Any) -> str:
        if position.choosing:
            return f", choosing the sub-board for {position.seat_sides[0]}'s first disc"
        if position.free:
            return ", anywhere (the target sub-board is full)"
        if position.target_name:
            return f", in {position.target_name}"
        return ""

    def specimens(self, position: Any, theme: Theme, lay: Layout) -> list[Sprite]:
        r = piece_radius(lay)
        sides = theme.sides("maphex")
        return [
            disc(theme, sides[0], r),
            disc(theme, sides[1], r),
            last_ring(theme, r),
            dot(theme, r * 0.3),
        ]

    def specimen_images(
        self, position: Any, theme: Theme, lay: Layout, background: Image.Image
    ) -> list[Image.Image]:
        out = []
        for sprite in (
            choice_overlay(theme, lay, position.size, position.block, position.subboard),
            target_overlay(theme, lay, position.size, position.block, 0),
        ):
            im = background.copy()
            sprite.paste(im, (0, 0))
            out.append(im)
        return out


def _members(subboard: tuple[int, ...], s: int) -> list[int]:
    return [c for c, v in enumerate(subboard) if v == s]


@lru_cache(maxsize=64)
def target_overlay(theme: Theme, lay: Layout, size: int, block: int, target: int) -> Sprite:
    """The target sub-board tinted and outlined in the accent colour (anchored at 0, 0)."""
    n = size
    subboard = tuple((c // n // block) * block + (c % n) // block for c in range(n * n))
    cells = _members(subboard, target)
    xs = [lay.centres[c][0] for c in cells]
    ys = [lay.centres[c][1] for c in cells]
    pad = lay.radius * 1.3
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    hw, hh = (max(xs) - min(xs)) / 2 + pad, (max(ys) - min(ys)) / 2 + pad
    inside = set(cells)
    w = max(4.0, lay.radius * 0.17)

    def paint(p: Painter) -> None:
        for c in cells:
            p.polygon(lay.cell_polygon(c, 1.0), fill=(*theme.accent, 92))
        edges = []
        for c in cells:
            x, y = lay.centres[c]
            for k in range(6):
                # A side lies on the border when the cell across it is not in the target.
                poly = lay.cell_polygon(c)
                a, b = poly[k], poly[(k + 1) % 6]
                mx, my = (a[0] + b[0]) - x, (a[1] + b[1]) - y
                across = _cell_at(lay, (mx, my))
                if across not in inside:
                    edges.append((a, b))
        for colour, width in ((theme.accent_edge, w + 3), (theme.accent, w)):
            for a, b in edges:
                p.line([a, b], colour, width)

    sprite = make_sprite(hw, hh, paint, scale=2, centre=(cx, cy))
    return sprite


def _cell_at(lay: Layout, point: tuple[float, float]) -> int | None:
    """The cell whose centre is within half a cell of ``point`` (or ``None``)."""
    x, y = point
    for cell, (cx, cy) in enumerate(lay.centres):
        if (cx - x) ** 2 + (cy - y) ** 2 < (lay.inner * 0.5) ** 2:
            return cell
    return None


@lru_cache(maxsize=8)
def choice_overlay(
    theme: Theme, lay: Layout, size: int, block: int, subboard: tuple[int, ...]
) -> Sprite:
    """The sub-board numbers shown while Blue chooses where Red opens (anchored at 0, 0)."""
    xs = [x for x, _ in lay.centres]
    ys = [y for _, y in lay.centres]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    hw, hh = (max(xs) - min(xs)) / 2 + lay.radius, (max(ys) - min(ys)) / 2 + lay.radius
    number = lay.inner * block * 0.95
    ink: RGB = theme.dark_rim

    def paint(p: Painter) -> None:
        for s in range(block * block):
            cells = _members(subboard, s)
            mx = sum(lay.centres[c][0] for c in cells) / len(cells)
            my = sum(lay.centres[c][1] for c in cells) / len(cells)
            p.circle((mx, my), number * 0.62, fill=(*theme.accent, 235), outline=ink, width=3)
            p.text((mx, my), str(s + 1), number * 0.8, ink, bold=True)

    return make_sprite(hw, hh, paint, scale=2, centre=(cx, cy))
