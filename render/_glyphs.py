"""A line of text in any script, as the pictures draw it: Arabic joined, right-to-left words in
their order, each character in the first bundled font that has it (``render/_fonts.py``).

Pillow's Raqm layout would order and shape text, but the Pillow wheel loads FriBiDi from the
system at run time, and a bot's host may not have it.  So every picture is laid out the same
way on every machine: ``arabic-reshaper`` turns Arabic letters into their joined presentation
forms (with the lam-alef ligatures), ``python-bidi`` (Unicode's bidirectional algorithm, a
wheel) puts the characters in display order with the paragraph left to right, as the
pictures' words are, and the line is cut into runs of one font each, drawn one after the
other on DejaVu Sans's baseline with Pillow's basic layout.  Arabic vowel marks (harakat) are
left out: the basic layout cannot place them.  A character no bundled font has is drawn as
U+FFFD (the replacement character), never as a font's missing-glyph box, and invisible format
characters (zero-width joiners, variation selectors) are dropped.

Lines are cached per (text, size, weight), so a text drawn again costs no layout.

>>> line("Ada", 20).runs
(('Ada', 'DejaVuSans.ttf'),)
>>> [font for _, font in line("Ada 対 민준", 20).runs]
['DejaVuSans.ttf', 'NotoSansCJK-Regular.otf', 'DejaVuSans.ttf', 'NotoSansCJK-Regular.otf']
>>> line("שלום", 20).runs  # right to left: the last letter is drawn first
(('םולש', 'DejaVuSans.ttf'),)
>>> [hex(ord(c)) for c in line("لا", 20).runs[0][0]]  # lam-alef: one ligature
['0xfefb']
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import arabic_reshaper
from bidi import get_display
from PIL import ImageDraw, ImageFont

from render._fonts import face, face_for, primary

__all__ = ["Line", "ellipsis_after", "line", "visual"]

#: drawn for a character that no bundled font has (DejaVu Sans has it)
REPLACEMENT = "\ufffd"

Box = tuple[float, float, float, float]
Fill = tuple[int, int, int] | tuple[int, int, int, int]


#: the marks, embeddings and isolates that steer the order: done with once it is applied
_BIDI_CONTROLS = dict.fromkeys(
    [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
)


def _is_arabic(char: str) -> bool:
    return unicodedata.bidirectional(char) == "AL"


def _is_rtl(char: str) -> bool:
    return unicodedata.bidirectional(char) in ("R", "AL", "RLE", "RLO", "RLI")


def _invisible(char: str) -> bool:
    """A format character or variation selector: shown as nothing."""
    return unicodedata.category(char) == "Cf" or "\ufe00" <= char <= "\ufe0f"


def visual(text: str) -> str:
    """``text`` in display order, Arabic in its joined forms (left to right paragraph).

    >>> visual("Ada") == "Ada"
    True
    >>> visual("אב 12")  # the number stays with the words it follows
    '12 בא'
    """
    if any(_is_arabic(c) for c in text):
        text = arabic_reshaper.reshape(text)
    if any(_is_rtl(c) for c in text):
        text = str(get_display(text, base_dir="L"))
    return text.translate(_BIDI_CONTROLS)


def ellipsis_after(text: str) -> str:
    """``text`` cut short: an ellipsis after it, on the side where it was cut (the left for
    right-to-left words, through a right-to-left mark, which is not drawn).

    >>> ellipsis_after("Ada"), ellipsis_after("שרה")
    ('Ada…', 'שרה…\u200f')
    """
    strong = [unicodedata.bidirectional(c) for c in text]
    last = next((kind for kind in reversed(strong) if kind in ("L", "R", "AL")), "L")
    return text + ("…" if last == "L" else "…\u200f")


def _runs(text: str, bold: bool) -> tuple[tuple[str, str], ...]:
    """``text`` in display order cut into (characters, font file) runs."""
    first = primary(bold)
    if text.isascii():
        return ((text, first),) if text else ()
    runs: list[tuple[str, str]] = []
    for char in visual(text):
        if _invisible(char):
            continue
        name = face_for(char, bold=bold)
        if name is None:
            char, name = REPLACEMENT, first
        if runs and runs[-1][1] == name:
            runs[-1] = (runs[-1][0] + char, name)
        else:
            runs.append((char, name))
    return tuple(runs)


@dataclass(frozen=True)
class Line:
    """One line of text at one size and weight: ``runs`` of (characters, font file) in display
    order, each drawn after the previous one's advance on the first font's baseline."""

    text: str
    size: int
    bold: bool
    runs: tuple[tuple[str, str], ...]

    @property
    def fonts(self) -> tuple[ImageFont.FreeTypeFont, ...]:
        """The font of each run."""
        return tuple(face(name, self.size) for _, name in self.runs)

    @property
    def simple(self) -> bool:
        """Whether the line is one run in the first font (drawn as Pillow draws it)."""
        return len(self.runs) == 1 and self.runs[0][1] == primary(self.bold)

    @property
    def width(self) -> float:
        """The advance width in pixels."""
        return _advances(self)[-1]

    def _origin(self, at: tuple[float, float], anchor: str) -> tuple[float, float]:
        """The left end of the baseline for ``anchor`` (Pillow's two letters) at ``at``."""
        horizontal, vertical = anchor[0], anchor[1]
        x, y = at
        x -= {"l": 0.0, "m": self.width / 2, "r": self.width}[horizontal]
        main = face(primary(self.bold), self.size)
        if vertical in "tb":
            ink = self._ink((0.0, 0.0), 0)
            return x, y - (ink[1] if vertical == "t" else ink[3])
        shift = main.getbbox("x", anchor="l" + vertical)[1] - main.getbbox("x", anchor="ls")[1]
        return x, y + shift

    def _ink(self, origin: tuple[float, float], stroke: int) -> Box:
        x, y = origin
        boxes = [
            font.getbbox(chars, anchor="ls", stroke_width=stroke)
            for (chars, _), font in zip(self.runs, self.fonts, strict=True)
        ]
        lefts = _advances(self)
        x0 = min(x + left + b[0] for left, b in zip(lefts, boxes, strict=False))
        x1 = max(x + left + b[2] for left, b in zip(lefts, boxes, strict=False))
        return (x0, y + min(b[1] for b in boxes), x1, y + max(b[3] for b in boxes))

    def bbox(self, at: tuple[float, float], anchor: str = "la", stroke: int = 0) -> Box:
        """The ink box of the line drawn at ``at`` with ``anchor``, as ``textbbox`` gives."""
        if not self.runs:
            return (at[0], at[1], at[0], at[1])
        if self.simple:
            f = self.fonts[0]
            x0, y0, x1, y1 = f.getbbox(self.runs[0][0], anchor=anchor, stroke_width=stroke)
            return (at[0] + x0, at[1] + y0, at[0] + x1, at[1] + y1)
        return self._ink(self._origin(at, anchor), stroke)

    def draw(
        self,
        draw: ImageDraw.ImageDraw,
        at: tuple[float, float],
        fill: Fill | int,
        anchor: str = "la",
        stroke: int = 0,
        stroke_fill: Fill | None = None,
    ) -> None:
        """Draw the line with ``draw`` at ``at``, placed by Pillow's ``anchor``."""
        if not self.runs:
            return
        if self.simple:
            draw.text(at, self.runs[0][0], fill, self.fonts[0], anchor, stroke_width=stroke,
                      stroke_fill=stroke_fill)  # fmt: skip
            return
        x, y = self._origin(at, anchor)
        for left, (chars, _), font in zip(_advances(self), self.runs, self.fonts, strict=False):
            draw.text((x + left, y), chars, fill, font, "ls", stroke_width=stroke,
                      stroke_fill=stroke_fill)  # fmt: skip


@lru_cache(maxsize=4096)
def _advances(text_line: Line) -> tuple[float, ...]:
    """Where each run starts, then the line's end, in pixels from its left end."""
    ends = [0.0]
    for (chars, _), font in zip(text_line.runs, text_line.fonts, strict=True):
        ends.append(ends[-1] + float(font.getlength(chars)))
    return tuple(ends)


@lru_cache(maxsize=4096)
def line(text: str, size: int, bold: bool = False) -> Line:
    """``text`` laid out at ``size`` pixels, bold or not; cached."""
    return Line(text, size, bold, _runs(text, bold))
