"""Maphex pictures: a 9x9 (or 16x16) rhombus of sub-boards.

Drawn from the position (``engines/maphex.py``): ``cells``, ``block``, ``subboard``,
``autocells``, ``edges``, ``target``, ``choosing``, ``free``, ``target_name``, ``last_cell``.
Sub-boards are shaded alternately and bordered with thick lines; autocells carry a dot; the
target sub-board is tinted and outlined; during the opening choice each sub-board shows its
number.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from PIL import Image

from engines.maphex import MaphexPosition
from render._art import Art
from render._canvas import Canvas
from render._core import (
    Layout,
    Painter,
    Scene,
    Sprite,
    blend,
    disc,
    dot,
    draw_win,
    hex_edge_towards,
    last_ring,
    make_sprite,
    win_specimens,
)
from render._pipeline import register
from render._rhombus import (
    RHOMBUS_PAD,
    draw_sides,
    paint_legend,
    paint_rhombus,
    paint_sides,
    piece_radius,
)
from render._words import N_, fill, gettext, number, side_word
from render.theme import RGB, Theme

__all__ = ["MaphexArt"]


class MaphexArt(Art[MaphexPosition]):
    """Draws Maphex positions."""

    #: room at the sides: the empty corners hold the players and the legend
    pad = RHOMBUS_PAD

    def static_key(self, position: MaphexPosition) -> tuple[str, int]:
        return ("maphex", position.size)

    def theme_for(self, position: MaphexPosition, theme: Theme) -> Theme:
        if position.size < 16 or theme.large_board_scale == 1:
            return theme
        k = theme.large_board_scale
        return replace(theme, width=round(theme.width * k), height=round(theme.height * k))

    def opening_text(self, position: MaphexPosition) -> str:
        red, blue = (side_word(side) for side in position.seat_sides)
        words = gettext(
            "{blue} opens by choosing the sub-board (1-{count}) where {red} places the first "
            "disc; {red} connects top and bottom, {blue} left and right."
        )
        return fill(words, {"red": red, "blue": blue, "count": number(position.block**2)})

    def paint_background(
        self, p: Painter, position: MaphexPosition, theme: Theme, lay: Layout
    ) -> None:
        board = position.board
        k = position.block
        sub = position.subboard
        fills = [theme.cell if (s // k + s % k) % 2 == 0 else theme.cell_alt for s in sub]
        sides = theme.sides("maphex")
        paint_rhombus(p, lay, theme, board, position.edges, sides, fills)
        # Sub-board borders: the cell sides between two different sub-boards.
        border_w = max(3.0, lay.radius * 0.13)
        for cell in board.cells:
            for other in board.neighbours[cell]:
                if other > cell and sub[other] != sub[cell]:
                    a, b = hex_edge_towards(lay, cell, other)
                    p.line([a, b], theme.border, border_w)
        for cell in position.autocells:
            p.circle(lay.centres[cell], lay.inner * 0.16, fill=theme.border)
        paint_sides(p, lay, theme, sides)
        s = theme.height / 700
        # The longest words go last: the corner is widest at the bottom.
        paint_legend(
            p,
            lay,
            theme,
            [
                (_legend_target(theme, 12 * s), N_("target")),
                (last_ring(theme, 9 * s), N_("last disc")),
                (_legend_auto(theme, 12 * s), N_("keeps target")),
            ],
        )

    def draw(
        self, image: Canvas, position: MaphexPosition, theme: Theme, lay: Layout, scene: Scene
    ) -> None:
        if position.choosing and not scene.over:
            choice_overlay(theme, lay, position.size, position.block, position.subboard).paste(
                image, (0, 0)
            )
        elif position.target is not None and not position.free and not scene.over:
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
        draw_win(image, theme, lay, position.board_view(), r)
        last = position.last_cell
        if last is not None:
            last_ring(theme, r).paste(image, centres[last])
            dot(theme, r * 0.3).paste(image, centres[last])
        draw_sides(image, position, theme, lay, scene)

    def detail(self, position: MaphexPosition) -> str:
        if position.choosing:
            red, blue = (side_word(side) for side in position.seat_sides)
            words = gettext("{blue} opens: pick {red}'s sub-board, 1-{count}")
            return fill(words, {"red": red, "blue": blue, "count": number(position.block**2)})
        if position.outcome is not None or position.target is None:
            return ""
        if position.free:
            return gettext("target full: play anywhere")
        return fill(gettext("play in {target}"), {"target": target_words(position)})

    def effects_text(self, position: MaphexPosition) -> str:
        if (position.last_move or "").isdigit():
            words = gettext(" (the sub-board for {side}'s first disc)")
            return fill(words, {"side": side_word(position.seat_sides[0])})
        return ""

    def turn_text(self, position: MaphexPosition) -> str:
        if position.choosing:
            words = gettext(", choosing the sub-board for {side}'s first disc")
            return fill(words, {"side": side_word(position.seat_sides[0])})
        if position.free:
            return gettext(", anywhere (the target sub-board is full)")
        if position.target is not None:
            return fill(gettext(", in {target}"), {"target": target_words(position)})
        return ""

    def specimens(self, position: MaphexPosition, theme: Theme, lay: Layout) -> list[Sprite]:
        r = piece_radius(lay)
        sides = theme.sides("maphex")
        s = theme.height / 700
        return [
            disc(theme, sides[0], r),
            disc(theme, sides[1], r),
            last_ring(theme, r),
            dot(theme, r * 0.3),
            *win_specimens(theme, lay, r),
            disc(theme, sides[0], 14 * s),
            disc(theme, sides[1], 14 * s),
        ]

    def specimen_images(
        self, position: MaphexPosition, theme: Theme, lay: Layout, background: Image.Image
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


#: The sub-boards of a 3x3 Maphex board by place, row by row (the engine's ``target_name``).
PLACES = (
    N_("top-left"), N_("top"), N_("top-right"),
    N_("left"), N_("centre"), N_("right"),
    N_("bottom-left"), N_("bottom"), N_("bottom-right"),
)  # fmt: skip


def subboard_words(sub: int, block: int) -> tuple[str, dict[str, str | int]]:
    """How sub-board ``sub`` (0-based) of a ``block`` x ``block`` board of sub-boards is
    named: a catalog template and its values, ``place`` (3x3 only) a word of :data:`PLACES`
    to say in turn.  The one definition of these words: the pictures' alt text and the
    illegal-move sentence (:mod:`bot.sessions.texts.illegal`) both say them."""
    if block == 3:
        return N_("{place}, {number}"), {"place": PLACES[sub], "number": sub + 1}
    row, column = sub // block + 1, sub % block + 1
    return N_("row {row}, column {column}; {number}"), {
        "row": row,
        "column": column,
        "number": sub + 1,
    }


def target_words(position: MaphexPosition) -> str:
    """The target sub-board in the language in use (``centre, 5``; ``row 2, column 3; 7``
    on a 4x4 board of sub-boards)."""
    template, values = subboard_words(position.target or 0, position.block)
    said = {k: gettext(v) if isinstance(v, str) else number(v) for k, v in values.items()}
    return fill(gettext(template), said)


@lru_cache(maxsize=8)
def _legend_target(theme: Theme, r: float) -> Sprite:
    """A small hexagon tinted and outlined like the target sub-board."""
    mini = Layout("hex", ((0.0, 0.0),), r, r * 0.866, ())

    def paint(p: Painter) -> None:
        p.polygon(mini.cell_polygon(0), fill=blend(theme.cell, theme.accent, 0.36))
        p.polygon(mini.cell_polygon(0), outline=theme.accent_edge, width=4)
        p.polygon(mini.cell_polygon(0), outline=theme.accent, width=2.5)

    return make_sprite(r + 2, r + 2, paint)


@lru_cache(maxsize=8)
def _legend_auto(theme: Theme, r: float) -> Sprite:
    """A small cell with the autocell dot."""
    mini = Layout("hex", ((0.0, 0.0),), r, r * 0.866, ())

    def paint(p: Painter) -> None:
        p.polygon(mini.cell_polygon(0), fill=theme.cell, outline=theme.grid, width=1.5)
        p.circle((0, 0), r * 0.22, fill=theme.border)

    return make_sprite(r + 1, r + 1, paint)


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


# The picture of the game registers itself: render/__init__.py only imports this module.
register("maphex", MaphexArt())
