"""inpHeXion pictures: a Hex rhombus (7x7 by default, 5..9 allowed).

Drawn from the position (``engines/inphexion.py``): ``cells`` (by colour), ``colours``,
``swapped``, ``edges[colour]``, ``last_from`` / ``last_to`` (the pushed disc's move),
``last_placed``, ``relocations``.  The push is an accent arrow, the disc just placed has the
accent ring and dot, and each relocation is a blue arrow from a hollow ring.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from render._core import Art, Layout, Painter, Sprite, arrow, disc, dot, last_ring, origin_ring
from render.maphex import paint_rhombus, piece_radius
from render.theme import Theme

__all__ = ["InphexionArt"]


class InphexionArt(Art):
    """Draws inpHeXion positions."""

    def static_key(self, position: Any) -> tuple[str, int]:
        return ("inphexion", position.size)

    def paint_background(self, p: Painter, position: Any, theme: Theme, lay: Layout) -> None:
        board = position.board
        fills = [theme.cell] * len(board)
        paint_rhombus(p, lay, theme, board, position.edges, theme.sides("inphexion"), fills)

    def draw(self, image: Image.Image, position: Any, theme: Theme, lay: Layout) -> None:
        r = piece_radius(lay)
        sides = theme.sides("inphexion")
        pieces = (disc(theme, sides[0], r), disc(theme, sides[1], r))
        centres = lay.centres
        for cell, value in enumerate(position.cells):
            if value >= 0:
                pieces[value].paste(image, centres[cell])
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

    def detail(self, position: Any) -> str:
        return "colours swapped (pie rule)" if position.swapped else ""

    def effects_text(self, position: Any) -> str:
        board = position.board
        text = ""
        if position.last_from is not None and position.last_to is not None:
            text = (
                f", pushing the disc on {board.name(position.last_from)}"
                f" to {board.name(position.last_to)}"
            )
        if position.relocations:
            moved = ", ".join(
                f"{board.name(a)} to {board.name(b)}" for a, b in position.relocations
            )
            text += f", relocating {moved}"
        return text

    def specimens(self, position: Any, theme: Theme, lay: Layout) -> list[Sprite]:
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
        ]


def _arrow(
    theme: Theme, lay: Layout, a: int, b: int, colour: Any, start: float, end: float
) -> Sprite:
    (ax, ay), (bx, by) = lay.centres[a], lay.centres[b]
    return arrow(theme, round(bx - ax), round(by - ay), lay.inner, colour, start, end)
