"""inpHeXion pictures: a Hex rhombus (7x7 by default, 5..9 allowed).

Drawn from the position (``engines/inphexion.py``): ``cells`` (by colour), ``colours``,
``swapped``, ``edges[colour]``, ``last_from`` / ``last_to`` (the pushed disc's move),
``last_placed``, ``relocations``.  The push is an accent arrow, the disc just placed has the
accent ring and dot, and each relocation is a blue arrow from a hollow ring.
"""

from __future__ import annotations

from engines.inphexion import InphexionPosition
from render._art import Art
from render._canvas import Canvas
from render._core import (
    Layout,
    Painter,
    Scene,
    Sprite,
    arrow,
    disc,
    dot,
    draw_win,
    last_ring,
    origin_ring,
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
from render._words import N_, fill, gettext
from render.theme import RGB, Theme

__all__ = ["InphexionArt"]


class InphexionArt(Art[InphexionPosition]):
    """Draws inpHeXion positions."""

    pad = RHOMBUS_PAD

    def static_key(self, position: InphexionPosition) -> tuple[str, int]:
        return ("inphexion", position.size)

    def paint_background(
        self, p: Painter, position: InphexionPosition, theme: Theme, lay: Layout
    ) -> None:
        board = position.board
        fills = [theme.cell] * len(board)
        sides = theme.sides("inphexion")
        paint_rhombus(p, lay, theme, board, position.edges, sides, fills)
        paint_sides(p, lay, theme, sides)
        s = theme.height / 700
        paint_legend(
            p,
            lay,
            theme,
            [
                (last_ring(theme, 9 * s), N_("placed")),
                (_legend_arrow(theme, 11 * s, theme.accent), N_("pushed")),
                (_legend_arrow(theme, 11 * s, theme.second), N_("relocated")),
            ],
        )

    def draw(
        self, image: Canvas, position: InphexionPosition, theme: Theme, lay: Layout, scene: Scene
    ) -> None:
        r = piece_radius(lay)
        sides = theme.sides("inphexion")
        pieces = (disc(theme, sides[0], r), disc(theme, sides[1], r))
        centres = lay.centres
        for cell, value in enumerate(position.cells):
            if value >= 0:
                pieces[value].paste(image, centres[cell])
        draw_win(image, theme, lay, position.board_view(), r)
        for a, _ in position.relocations:
            origin_ring(theme, r * 0.5).paste(image, centres[a])
        placed = position.last_placed
        if placed is not None:
            last_ring(theme, r).paste(image, centres[placed])
            dot(theme, r * 0.3).paste(image, centres[placed])
        src, dst = position.last_from, position.last_to
        if src is not None and dst is not None:
            _arrow(theme, lay, src, dst, theme.accent, r * 0.35, r * 0.55).paste(
                image, centres[src]
            )
        for a, b in position.relocations:
            _arrow(theme, lay, a, b, theme.second, r * 0.5, r * 0.6).paste(image, centres[a])
        draw_sides(image, position, theme, lay, scene)

    def detail(self, position: InphexionPosition) -> str:
        if position.can_swap:
            return gettext("may answer swap (pie rule)")
        return gettext("colours swapped (pie rule)") if position.swapped else ""

    def turn_text(self, position: InphexionPosition) -> str:
        if position.can_swap:
            return gettext(", or answer swap to take White's colour and disc (pie rule)")
        return ""

    def effects_text(self, position: InphexionPosition) -> str:
        board = position.board
        text = ""
        if position.last_from is not None and position.last_to is not None:
            said = {"start": board.name(position.last_from), "end": board.name(position.last_to)}
            text = fill(gettext(", pushing the disc on {start} to {end}"), said)
        if position.relocations:
            moved = ", ".join(
                fill(gettext("{start} to {end}"), {"start": board.name(a), "end": board.name(b)})
                for a, b in position.relocations
            )
            text += fill(gettext(", relocating {moves}"), {"moves": moved})
        return text

    def specimens(self, position: InphexionPosition, theme: Theme, lay: Layout) -> list[Sprite]:
        r = piece_radius(lay)
        sides = theme.sides("inphexion")
        return [
            disc(theme, sides[0], r),
            disc(theme, sides[1], r),
            last_ring(theme, r),
            dot(theme, r * 0.3),
            origin_ring(theme, r * 0.5),
            _arrow(theme, lay, 0, 1, theme.accent, r * 0.35, r * 0.55),
            _arrow(theme, lay, 0, 2, theme.second, r * 0.5, r * 0.6),
            *win_specimens(theme, lay, r),
            disc(theme, sides[0], 14 * theme.height / 700),
            disc(theme, sides[1], 14 * theme.height / 700),
        ]


def _arrow(
    theme: Theme, lay: Layout, a: int, b: int, colour: RGB, start: float, end: float
) -> Sprite:
    (ax, ay), (bx, by) = lay.centres[a], lay.centres[b]
    return arrow(theme, round(bx - ax), round(by - ay), lay.inner, colour, start, end)


def _legend_arrow(theme: Theme, r: float, colour: RGB) -> Sprite:
    """A short arrow for the legend, centred on its anchor."""
    w = round(r * 2.2)
    sprite = arrow(theme, w, 0, r * 1.2, colour, 0.0, 0.0)
    # The arrow sprite is anchored at its tail: move the anchor to its middle.
    return Sprite(sprite.image, sprite.dx + w // 2, sprite.dy)


# The picture of the game registers itself: render/__init__.py only imports this module.
register("inphexion", InphexionArt())
