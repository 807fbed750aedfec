"""Board pictures for the five Hexhall games: pure drawing, no I/O and no rules logic.

Everything drawn comes from the position's attributes (the engines' render-facing attributes):

>>> import engines, render
>>> pos = engines.new("maphex").play("5").play("e5")
>>> png = render.board_png(pos)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> render.board_image(pos).size
(1000, 700)
>>> render.describe(pos)
'Maphex 9x9, move 3. Red: e5; Blue: none. Last: Red e5. Blue to move, in centre, 5.'
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engines.base import Position
from render import _pipeline
from render._describe import describe
from render.fixation import FixationArt
from render.inphexion import InphexionArt
from render.isopath import IsopathArt
from render.maphex import MaphexArt
from render.pathagon import PathagonArt
from render.theme import Theme

__all__ = [
    "Theme",
    "board_image",
    "board_png",
    "cell_centres",
    "describe",
    "game_gif",
    "probe_points",
]

_pipeline.register("maphex", MaphexArt())
_pipeline.register("inphexion", InphexionArt())
_pipeline.register("pathagon", PathagonArt())
_pipeline.register("fixation", FixationArt())
_pipeline.register("isopath", IsopathArt())


def board_image(position: Position, *, theme: Theme | None = None) -> Image.Image:
    """The picture of ``position``: a palette ("P") image, ``theme.width`` x ``theme.height``
    (1000x700 by default).  ``.convert("RGB")`` it for further drawing."""
    return _pipeline.picture(position, theme)


def board_png(position: Position, *, theme: Theme | None = None) -> bytes:
    """The picture of ``position`` as PNG bytes, ready to post."""
    return _pipeline.encode_png(_pipeline.picture(position, theme))


def game_gif(positions: Sequence[Position], *, theme: Theme | None = None) -> bytes:
    """An animated GIF recap: one frame per position (one per ply), the last frame held.

    Frames store only what changed, so a 100-ply game stays far under 8 MB."""
    return _pipeline.gif(positions, theme)


def cell_centres(position: Position, *, theme: Theme | None = None) -> list[tuple[int, int]]:
    """The pixel centre of every cell of ``position``'s picture (index = cell)."""
    _, lay = _pipeline.layout_of(position, theme)
    return [(round(x), round(y)) for x, y in lay.centres]


def probe_points(position: Position, *, theme: Theme | None = None) -> list[tuple[int, int]]:
    """For every cell, a pixel that shows the colour of what occupies it (a piece, the top
    disk of a stack, or the bare cell / tile), clear of labels and marks."""
    art, lay = _pipeline.layout_of(position, theme)
    points = (art.probe(position, cell, lay) for cell in range(len(lay.centres)))
    return [(round(x), round(y)) for x, y in points]
