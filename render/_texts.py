"""Every text a picture draws, with its place and size: what ``render.board_texts`` reports.

Texts are drawn in three ways: into the cached background (a :class:`~render._core.Painter`
at ``SS`` times the size), into cached sprites (stack heights, sub-board numbers, the status
texts) and pasted per picture.  Each painter keeps the texts it drew; each sprite carries its
own, relative to its anchor; a paste adds the sprite's texts, moved to where it lands, to the
texts being recorded (only while :func:`recording` is active, so drawing costs nothing more).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

__all__ = ["TextMark", "collect", "recording", "suspended"]

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class TextMark:
    """One text on a picture: ``text`` at font size ``size`` px (the em, in the picture's
    pixels), its ink inside ``box`` (x0, y0, x1, y1 in the picture's pixels).

    ``cell`` is the board cell the text names when it is a cell's name drawn inside it (a
    piece standing there hides it); ``icon`` is true for a glyph used as a picture (``+``,
    ``−``, ``↺`` on a badge) rather than as words."""

    text: str
    size: float
    box: Box
    cell: int | None = None
    icon: bool = False

    def moved(self, dx: float, dy: float) -> TextMark:
        """The same text ``dx``, ``dy`` px further."""
        x0, y0, x1, y1 = self.box
        return replace(self, box=(x0 + dx, y0 + dy, x1 + dx, y1 + dy))

    @property
    def height(self) -> float:
        """Height of the ink in pixels."""
        return self.box[3] - self.box[1]


_RECORDER: ContextVar[list[TextMark] | None] = ContextVar("render_texts", default=None)


def collect(marks: tuple[TextMark, ...], dx: float = 0.0, dy: float = 0.0) -> None:
    """Add ``marks`` moved by (``dx``, ``dy``) to the texts being recorded, if any."""
    found = _RECORDER.get()
    if found is not None and marks:
        found.extend(m.moved(dx, dy) for m in marks)


@contextmanager
def recording() -> Iterator[list[TextMark]]:
    """Record the texts pasted or drawn in this block into the list yielded."""
    found: list[TextMark] = []
    token = _RECORDER.set(found)
    try:
        yield found
    finally:
        _RECORDER.reset(token)


@contextmanager
def suspended() -> Iterator[None]:
    """Record nothing in this block (pictures drawn only to build a palette)."""
    token = _RECORDER.set(None)
    try:
        yield
    finally:
        _RECORDER.reset(token)
