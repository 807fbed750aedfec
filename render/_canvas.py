"""What a picture's moving parts are drawn on: a list of pastes and fills, composed later.

Pieces, marks, headings and the status band are sprites pasted on the cached background (and,
for a result banner, two flat rectangles).  Drawing them onto a :class:`Canvas` only notes each
one in order; :func:`compose` then lays them on a copy of the background, exactly as pasting
them there directly would.  Because the list says what a picture shows, the next picture of the
same board can redraw only where its list differs from the previous one's
(``render/_frames.py``).

>>> from PIL import Image
>>> canvas = Canvas((4, 3))
>>> canvas.fill((255, 0, 0), (0, 0, 2, 1))
>>> compose(Image.new("RGB", (4, 3)), canvas.ops).getpixel((1, 0))
(255, 0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image

from render.theme import RGB

__all__ = ["Canvas", "Op", "compose", "lay"]

#: one drawing step: what (an RGBA sprite pasted through its own alpha, or a flat colour) and
#: where (x0, y0, x1, y1 in the picture's pixels, x1 and y1 excluded)
Op = tuple[Image.Image | RGB, tuple[int, int, int, int]]


@dataclass
class Canvas:
    """The moving parts of one picture of ``size``, in drawing order."""

    size: tuple[int, int]
    ops: list[Op] = field(default_factory=list)

    def paste(self, image: Image.Image, at: tuple[int, int]) -> None:
        """RGBA ``image`` with its top-left at ``at``, blended through its alpha."""
        x, y = at
        self.ops.append((image, (x, y, x + image.width, y + image.height)))

    def fill(self, colour: RGB, box: tuple[int, int, int, int]) -> None:
        """A flat rectangle ``box`` (x0, y0, x1, y1; x1 and y1 excluded)."""
        self.ops.append((colour, box))


def lay(target: Image.Image, op: Op, dx: int = 0, dy: int = 0) -> None:
    """Draw ``op`` on RGB ``target`` whose top-left is the picture's (``dx``, ``dy``); what
    falls outside ``target`` is cut, as at the picture's edges."""
    what, (x0, y0, x1, y1) = op
    if isinstance(what, Image.Image):
        target.paste(what, (x0 - dx, y0 - dy), what)
    else:
        target.paste(what, (x0 - dx, y0 - dy, x1 - dx, y1 - dy))


def compose(background: Image.Image, ops: list[Op]) -> Image.Image:
    """A copy of ``background`` with every op drawn on it, in order."""
    image = background.copy()
    for op in ops:
        lay(image, op)
    return image
