"""The art base class: how one game is drawn, typed by the position its game plays (the render
contract).  Each game's ``render/<game>.py`` subclasses it and registers its art with
:func:`render._pipeline.register`."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

from PIL import Image

from engines.base import Position
from engines.geometry import Board
from render._canvas import Canvas
from render._core import BAND, Layout, Painter, Point, Scene, Sprite, fit
from render._words import side_lists
from render.theme import RGB, Theme

__all__ = ["Art", "P"]

#: The position type an :class:`Art` draws (its game's own).
P = TypeVar("P", bound=Position)


class Art(Generic[P]):
    """How one game is drawn.  Subclasses draw the static board and the per-position marks;
    the pipeline (``render.__init__``) adds the status band, banner, palette and encoding."""

    #: room (x, y) around the cells for the frame, in cell radii ...
    margin: tuple[float, float] = (0.8, 0.45)
    #: ... plus this many pixels (x, y) for the coordinates
    pad: tuple[float, float] = (34.0, 30.0)
    #: where a side panel (hands, legend) starts, as a share of the width; ``None``: no panel
    panel: float | None = None
    #: pixels kept free above and below the board
    inset: float = 4.0

    def board_box(self, theme: Theme) -> tuple[float, float, float, float]:
        """Where the board goes: below the status band, left of the side panel if any."""
        top = BAND * theme.height / 700
        right = theme.width - 6.0 if self.panel is None else theme.width * self.panel
        return (6.0, top + self.inset, right, theme.height - self.inset)

    def board(self, position: P) -> Board:
        """The position's board geometry (every game's position has a ``board``)."""
        board = getattr(position, "board", None)
        if not isinstance(board, Board):
            raise TypeError(f"a {position.game} position has no board to draw")
        return board

    def static_key(self, position: P) -> Hashable:
        """What the cached background and palette depend on (besides the theme)."""
        return (position.game, len(self.board(position)))

    def theme_for(self, position: P, theme: Theme) -> Theme:
        """The theme ``position`` is drawn with: ``theme`` itself, or a larger canvas for a
        crowded board (see :attr:`Theme.large_board_scale`)."""
        return theme

    def layout(self, position: P, theme: Theme) -> Layout:
        """Where each cell goes."""
        scale = theme.height / 700
        pad = (self.pad[0] * scale, self.pad[1] * scale)
        return fit(self.board(position), self.board_box(theme), self.margin, pad)

    def paint_background(self, p: Painter, position: P, theme: Theme, lay: Layout) -> None:
        """Draw what never changes during a game, on a painter at ``SS`` times the size."""
        raise NotImplementedError

    def draw(self, image: Canvas, position: P, theme: Theme, lay: Layout, scene: Scene) -> None:
        """Draw the pieces and marks of ``position`` on the canvas over the background; once
        ``scene`` is over, no hint about the next move (target, threats, forced captures)."""
        raise NotImplementedError

    def detail(self, position: P) -> str:
        """Game-specific status text shown at the right of the band."""
        return ""

    # -- words for ``render.describe`` (alt text, console) ------------------------------------

    def pieces_text(self, position: P) -> str:
        """Where each side stands; by default the cells of each colour in ``cells``."""
        cells = getattr(position, "cells", None)
        if not isinstance(cells, tuple):
            raise TypeError(f"a {position.game} position has no cells to list")
        return side_lists(position, self.board(position), cells)

    def effects_text(self, position: P) -> str:
        """What the last move captured, trapped or relocated, as ``", trapping c4"``."""
        return ""

    def turn_text(self, position: P) -> str:
        """What the player to move must know, as ``", in centre, 5"``."""
        return ""

    def opening_text(self, position: P) -> str:
        """A sentence for the first board (who opens, who plays what); by default none."""
        return ""

    def specimens(self, position: P, theme: Theme, lay: Layout) -> list[Sprite]:
        """Every sprite the game may paste, so the palette holds their colours."""
        return []

    def specimen_images(
        self, position: P, theme: Theme, lay: Layout, background: Image.Image
    ) -> list[Image.Image]:
        """Extra whole pictures (e.g. background plus overlays) for the palette."""
        return []

    def key_colours(self, position: P, theme: Theme) -> list[RGB]:
        """Flat colours that must be exact in the palette (tests read them back)."""
        return []

    def probe(self, position: P, cell: int, lay: Layout) -> Point:
        """A pixel inside ``cell`` that shows its occupant's colour (or the empty cell's),
        clear of labels and marks."""
        x, y = lay.centres[cell]
        return (x - lay.inner * 0.45, y + lay.inner * 0.12)
