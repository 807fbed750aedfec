"""Hexagonal Iso-Path pictures: tiles of three heights, pieces, home rows and teleports.

Drawn from the position (``engines/isopath.py``): ``heights``, ``pieces``, ``home_rows``,
``teleports``, ``threatened``, ``last_tile``, ``last_step``, ``last_capture``.  Heights are
told apart by lightness *and* shape: a two-tile mountain is light, raised (bevel with a
highlight and a shadow) and heavily outlined with its second tile drawn on top; a trench is
dark with an inner shadow and a dashed rim; a single tile is flat.
"""

from __future__ import annotations

import math
from functools import lru_cache

from engines.isopath import IsopathPosition
from render._art import Art
from render._canvas import Canvas
from render._core import (
    BAND,
    SQRT3,
    Layout,
    Painter,
    Point,
    Scene,
    Sprite,
    arrow,
    blend,
    cell_name,
    corner_cells,
    cross,
    disc,
    dot,
    draw_win,
    frame_sides,
    label_size,
    last_ring,
    make_sprite,
    paint_hexagon,
    paint_threat,
    px,
    side_heading,
    text_sprite,
    threat_sprite,
    win_ring,
)
from render._pipeline import register
from render._words import N_, fill, gettext, names, ngettext, number, side_lists, side_word
from render.theme import RGB, Theme

__all__ = ["IsopathArt"]

PANEL = 0.67
#: a cell's name sits this many cell radii above its centre (a piece's colour is read below)
NAME_RISE = 0.28
#: the +/- tile badge sits in the top corner of its cell, this many cell radii above its
#: centre (clear of the name below it)
BADGE_RISE = 0.78


def _piece_radius(lay: Layout) -> float:
    return lay.inner * 0.6


class IsopathArt(Art[IsopathPosition]):
    """Draws Hexagonal Iso-Path positions."""

    margin = (0.8, 0.45)
    pad = (26.0, 4.0)
    panel = PANEL
    inset = 2.0

    def pieces_text(self, position: IsopathPosition) -> str:
        board = position.board
        hills = [c for c, h in enumerate(position.heights) if h > 0]
        pits = [c for c, h in enumerate(position.heights) if h < 0]
        return (
            side_lists(position, position.board, position.pieces)
            + " "
            + fill(
                gettext("Two tiles: {hills}; no tile: {pits}."),
                {"hills": names(board, hills), "pits": names(board, pits)},
            )
        )

    def effects_text(self, position: IsopathPosition) -> str:
        if position.last_capture is not None:
            cells = position.board.name(position.last_capture)
            return fill(gettext(", capturing {cells}"), {"cells": cells})
        return ""

    def turn_text(self, position: IsopathPosition) -> str:
        if position.threatened:
            cells = names(position.board, sorted(position.threatened))
            return fill(gettext(" (may capture {cells})"), {"cells": cells})
        return ""

    def static_key(self, position: IsopathPosition) -> tuple[str, int]:
        return ("isopath", position.size)

    def paint_background(
        self, p: Painter, position: IsopathPosition, theme: Theme, lay: Layout
    ) -> None:
        board = position.board
        sides = theme.sides("isopath")
        homes = tuple((row,) for row in position.home_rows)
        paint_hexagon(
            p, lay, theme, board, frame_sides(corner_cells(board), homes, sides), cells=False
        )
        for cell in board.cells:
            _paint_tile(p, theme, lay, lay.centres[cell], 0, "", None)
        s = theme.height / 700
        x0 = theme.width * PANEL + 14
        y = BAND * s + 180 * s
        size = px(theme, theme.text_size)
        mini = Layout("hex", (), 20 * s, 20 * s * SQRT3 / 2, ())
        legend = [
            (1, N_("2 tiles: White")),
            (0, N_("1 tile")),
            (-1, N_("0 tiles: Black")),
        ]
        for i, (height, text) in enumerate(legend):
            cy = y + i * 44 * s
            _paint_tile(p, theme, mini, (x0 + 18 * s, cy), height, "", None)
            p.text((x0 + 48 * s, cy), gettext(text), size, theme.muted, anchor="lm")
        y += 134 * s
        marks = [
            ("threat", N_("can be taken")),
            ("teleport", N_("teleport")),
            ("tile", N_("tile moved")),
            ("win", N_("reached home")),
        ]
        for i, (kind, text) in enumerate(marks):
            cy = y + i * 42 * s
            cx = x0 + 18 * s
            if kind == "threat":
                paint_threat(p, theme, (cx, cy), 11 * s)
            elif kind == "win":
                p.circle((cx, cy), 11 * s, fill=theme.white, outline=theme.dark_rim, width=2)
                p.circle((cx, cy), 15 * s, outline=theme.accent_edge, width=6 * s)
                p.circle((cx, cy), 14.5 * s, outline=theme.win, width=4 * s)
            elif kind == "teleport":
                _paint_portal(p, theme, (cx, cy), 11 * s)
            else:
                _paint_tile_badge(p, theme, (cx - 12 * s, cy), 9 * s, "−")
                _paint_tile_badge(p, theme, (cx + 10 * s, cy), 9 * s, "+")
            p.text((x0 + 48 * s, cy), gettext(text), size, theme.muted, anchor="lm")

    def draw(
        self, image: Canvas, position: IsopathPosition, theme: Theme, lay: Layout, scene: Scene
    ) -> None:
        board = position.board
        centres = lay.centres
        pieces_at = position.pieces
        step = position.last_step
        # The name of the space the last move left is drawn over its arrow, so both read.
        origin = None if step is None else step[0]
        for cell, height in enumerate(position.heights):
            # A piece hides the name, so an occupied space is drawn without it.
            name = "" if pieces_at[cell] >= 0 or cell == origin else board.name(cell)
            if height != 0:
                tile_sprite(theme, lay.radius, height, name, None).paste(image, centres[cell])
            elif name:
                self._name(image, theme, lay, position, cell)
        r = _piece_radius(lay)
        sides = theme.sides("isopath")
        pieces = (disc(theme, sides[0], r), disc(theme, sides[1], r))
        for cell, value in enumerate(position.pieces):
            if value >= 0:
                pieces[value].paste(image, centres[cell])
        if position.last_capture is not None:
            cross(theme, r).paste(image, centres[position.last_capture])
        if step is not None:
            src, dst = step
            last_ring(theme, r).paste(image, centres[dst])
            dot(theme, r * 0.3).paste(image, centres[dst])
            (ax, ay), (bx, by) = centres[src], centres[dst]
            arrow(
                theme, round(bx - ax), round(by - ay), lay.inner, theme.accent, r * 0.2, r * 1.25
            ).paste(image, centres[src])
            if pieces_at[src] < 0:
                self._name(image, theme, lay, position, src)
        # Outside the last-move ring: the piece that won usually just moved.
        draw_win(image, theme, lay, position.board_view(), r * 1.4)
        # After the last move's marks, so neither hides them: a threatened piece that just
        # moved gets its crosshair outside the last-move ring.
        moved = None if step is None else step[1]
        if not scene.over:
            for cell in position.threatened:
                radius = r * 1.22 if cell == moved else r
                threat_sprite(theme, radius).paste(image, centres[cell])
        # Teleport marks over the pieces, so a piece standing on a teleport leaves it seen.
        for cell in _pair_numbers(position.teleports):
            x, y = centres[cell]
            at = (x + lay.inner * 0.5, y + lay.radius * 0.55)
            portal_sprite(theme, lay.radius).paste(image, at)
        badge_r = lay.inner * 0.2
        tile = position.last_tile
        if tile is not None:
            for cell, sign in zip(tile, ("−", "+"), strict=True):
                x, y = centres[cell]
                tile_badge(theme, badge_r, sign).paste(image, (x, y - lay.radius * BADGE_RISE))
        self._draw_counts(image, position, theme, scene)

    def _name(
        self, image: Canvas, theme: Theme, lay: Layout, position: IsopathPosition, cell: int
    ) -> None:
        """The name of empty ``cell``, above its centre, in the ink of its height."""
        x, y = lay.centres[cell]
        ink = name_ink(theme, position.heights[cell])
        name = cell_name(theme, position.board.name(cell), ink, cell)
        name.paste(image, (x, y - lay.radius * NAME_RISE))

    def _draw_counts(
        self, image: Canvas, position: IsopathPosition, theme: Theme, scene: Scene
    ) -> None:
        s = theme.height / 700
        x0 = theme.width * PANEL + 14
        sides = theme.sides("isopath")
        for seat in (0, 1):
            side_heading(
                image,
                theme,
                (x0, BAND * s + (26 + 78 * seat) * s),
                sides[seat],
                side_word(position.seat_sides[seat]),
                scene.player_of_side(position, seat),
                theme.width - 10 * s,
            )
            count = sum(1 for v in position.pieces if v == seat)
            y = BAND * s + (26 + 78 * seat + 35) * s
            words = ngettext("{count} piece left", "{count} pieces left", count)
            text = fill(words, {"count": number(count)})
            text_sprite(text, px(theme, theme.text_size), theme.text).paste(image, (x0, y))

    def probe(self, position: IsopathPosition, cell: int, lay: Layout) -> Point:
        x, y = lay.centres[cell]
        r = _piece_radius(lay)
        return (x - r * 0.35, y + r * 0.45)

    def key_colours(self, position: IsopathPosition, theme: Theme) -> list[RGB]:
        return [theme.trench, theme.ground, theme.mountain]

    def specimens(self, position: IsopathPosition, theme: Theme, lay: Layout) -> list[Sprite]:
        r = _piece_radius(lay)
        sides = theme.sides("isopath")
        out = [
            tile_sprite(theme, lay.radius, h, name, pair)
            for h in (-1, 1)
            for name, pair in (("c4", None), ("a1", 1))
        ]
        out += [
            disc(theme, sides[0], r),
            disc(theme, sides[1], r),
            threat_sprite(theme, r),
            threat_sprite(theme, r * 1.22),
            win_ring(theme, r * 1.4),
            disc(theme, sides[0], 14 * theme.height / 700),
            disc(theme, sides[1], 14 * theme.height / 700),
            tile_badge(theme, lay.inner * 0.2, "−"),
            tile_badge(theme, lay.inner * 0.2, "+"),
            cross(theme, r),
            last_ring(theme, r),
            dot(theme, r * 0.3),
            arrow(theme, round(lay.inner * 2), 0, lay.inner, theme.accent, r * 0.2, r * 1.25),
        ]
        return out


def _pair_numbers(teleports: tuple[tuple[int, int], ...]) -> dict[int, int]:
    """Teleport cell -> the number of its pair (1, 2, 3 in the position's order)."""
    out: dict[int, int] = {}
    for i, (a, b) in enumerate(teleports):
        out[a] = out[b] = i + 1
    return out


def _hexagon(centre: Point, radius: float) -> list[Point]:
    x, y = centre
    return [
        (
            x + radius * math.cos(math.radians(-90 + 60 * k)),
            y + radius * math.sin(math.radians(-90 + 60 * k)),
        )
        for k in range(6)
    ]


def _paint_tile(
    p: Painter,
    theme: Theme,
    lay: Layout,
    centre: Point,
    height: int,
    name: str,
    pair: int | None,
    cell: int | None = None,
) -> None:
    """One space at ``height``, its name (of ``cell``, when drawn in the background) and its
    teleport mark."""
    R = lay.radius
    x, y = centre
    grid_w = max(1.5, R * 0.05)
    if height > 0:
        shadow = blend(theme.mountain, theme.dark_rim, 0.45)
        light = blend(theme.mountain, (255, 255, 255), 0.6)
        p.polygon(_hexagon(centre, R), fill=theme.ground, outline=theme.grid, width=grid_w)
        # The lower tile, then the upper one shifted up: a raised, two-tile block.
        p.polygon(_hexagon((x, y + R * 0.06), R * 0.9), fill=shadow)
        p.polygon(_hexagon((x, y - R * 0.04), R * 0.86), fill=light)
        p.polygon(_hexagon((x + R * 0.03, y), R * 0.8), fill=theme.mountain)
        p.polygon(_hexagon((x, y), R * 0.9), outline=theme.dark_rim, width=max(2.5, R * 0.08))
    elif height < 0:
        deep = blend(theme.trench, theme.dark_rim, 0.55)
        p.polygon(_hexagon(centre, R), fill=theme.trench, outline=theme.grid, width=grid_w)
        # Inner shadow along the upper sides: the space is sunk below its neighbours.
        p.polygon(_hexagon((x, y - R * 0.05), R * 0.86), fill=deep)
        p.polygon(_hexagon((x + R * 0.02, y + R * 0.06), R * 0.78), fill=theme.trench)
        p.polygon(
            _hexagon(centre, R * 0.9),
            outline=blend(theme.trench, (255, 255, 255), 0.45),
            width=max(1.5, R * 0.04),
        )
    else:
        p.polygon(_hexagon(centre, R), fill=theme.ground, outline=theme.grid, width=grid_w)
    if name:
        ink = name_ink(theme, height)
        # Above the middle: the lower half is where a piece's colour is read.
        p.text((x, y - R * NAME_RISE), name, label_size(lay, theme), ink, bold=True, cell=cell)
    if pair is not None:
        _paint_portal(p, theme, (x + R * 0.42, y + R * 0.5), R * 0.19)


def name_ink(theme: Theme, height: int) -> RGB:
    """The colour of a space's name on a tile of ``height`` (-1, 0, 1)."""
    if height > 0:
        return theme.dark_rim
    if height < 0:
        return blend(theme.trench, (255, 255, 255), 0.7)
    return blend(theme.ground, theme.dark_rim, 0.45)


def _paint_portal(p: Painter, theme: Theme, centre: Point, r: float) -> None:
    """A teleport mark: a blue badge with a dark hole.  The two teleports of a pair are the
    two ends of one row, so they need no number (a number would be too small to read)."""
    p.circle(centre, r, fill=theme.second, outline=theme.dark_rim, width=max(1.5, r * 0.16))
    p.circle(centre, r * 0.4, fill=theme.dark_rim)


@lru_cache(maxsize=16)
def portal_sprite(theme: Theme, radius: float) -> Sprite:
    """The teleport mark for cells of ``radius`` (anchored at its centre)."""
    r = max(radius * 0.2, 9 * theme.height / 700)
    return make_sprite(r + 1, r + 1, lambda p: _paint_portal(p, theme, (0.0, 0.0), r))


def _paint_tile_badge(p: Painter, theme: Theme, centre: Point, r: float, sign: str) -> None:
    x, y = centre
    sq = [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
    p.polygon(sq, fill=theme.second, outline=theme.dark_rim, width=max(1.5, r * 0.18))
    p.text((x, y - r * 0.08), sign, r * 2.0, theme.dark_rim, bold=True, icon=True)


@lru_cache(maxsize=512)
def tile_sprite(theme: Theme, radius: float, height: int, name: str, pair: int | None) -> Sprite:
    """A raised or sunken space with its name (the flat ones are in the background)."""
    lay = Layout("hex", (), radius, radius * SQRT3 / 2, ())

    def paint(p: Painter) -> None:
        _paint_tile(p, theme, lay, (0.0, 0.0), height, name, pair)

    return make_sprite(radius, radius, paint)


@lru_cache(maxsize=16)
def tile_badge(theme: Theme, r: float, sign: str) -> Sprite:
    """A small tile with ``−`` (a tile was taken here) or ``+`` (put here)."""
    return make_sprite(r + 1, r + 1, lambda p: _paint_tile_badge(p, theme, (0.0, 0.0), r, sign))


# The picture of the game registers itself: render/__init__.py only imports this module.
register("isopath", IsopathArt())
