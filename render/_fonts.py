"""The bundled fonts (``render/fonts/``) and which one draws each character.

DejaVu Sans (Bitstream Vera licence, ``fonts/LICENSE``) comes first: Latin, Cyrillic, Greek,
Hebrew, Arabic and its presentation forms.  After it, Noto fonts (SIL Open Font License,
``fonts/OFL.txt``) subset by ``docs/tools/fonts.py`` to what DejaVu lacks: Noto Sans Arabic
(Persian and Urdu letters), Noto Emoji (one-colour emoji, drawn in the text's colour) and
Noto Sans CJK (Japanese, Korean, Chinese).  A character takes the first font of the chain
that maps it (:func:`face_for`; a pictograph from U+1F000 on tries Noto Emoji first); bold
text tries the bold faces, then the regular ones (the bold CJK face holds the common
characters only; a rarer one is drawn in the regular weight).

Every font is loaded with Pillow's basic layout: the same drawing on every machine, whether or
not it has FriBiDi for Pillow's Raqm layout (``render/_glyphs.py`` orders and shapes the text
itself).

>>> font(20).size, font(20, bold=True).size
(20, 20)
>>> face_for("A", bold=False), face_for("日", bold=True), face_for("😀", bold=False)
('DejaVuSans.ttf', 'NotoSansCJK-Bold.otf', 'NotoEmoji-Regular.ttf')
>>> face_for("\\U000e0001", bold=False) is None  # a tag character: in no bundled font
True
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

__all__ = [
    "CHAINS",
    "EMOJI_FIRST",
    "chain_for",
    "covers",
    "face",
    "face_for",
    "font",
    "primary",
    "ranges",
]

FOLDER = Path(__file__).resolve().parent / "fonts"
#: which code points each font maps (``docs/tools/fonts.py`` writes it)
COVERAGE = FOLDER / "coverage.json"

_REGULAR = (
    "DejaVuSans.ttf",
    "NotoSansArabic-Regular.ttf",
    "NotoEmoji-Regular.ttf",
    "NotoSansCJK-Regular.otf",
)
_BOLD = (
    "DejaVuSans-Bold.ttf",
    "NotoSansArabic-Bold.ttf",
    "NotoEmoji-Bold.ttf",
    "NotoSansCJK-Bold.otf",
)
#: the fonts tried in turn for each character, by weight (``CHAINS[bold]``)
CHAINS: dict[bool, tuple[str, ...]] = {False: _REGULAR, True: _BOLD + _REGULAR}
#: pictographs (emoticons, symbols, transport...) that Noto Emoji draws before DejaVu Sans,
#: which has a few of them in another style: a name's emoji all look alike
EMOJI_FIRST = range(0x1F000, 0x1FB00)
_EMOJI = {False: ("NotoEmoji-Regular.ttf",), True: ("NotoEmoji-Bold.ttf", "NotoEmoji-Regular.ttf")}


def primary(bold: bool) -> str:
    """The first font of the chain: the one whose metrics place a line of text."""
    return CHAINS[bold][0]


@lru_cache(maxsize=256)
def face(name: str, size: int) -> ImageFont.FreeTypeFont:
    """The bundled font file ``name`` at ``size`` pixels; loaded once per size."""
    return ImageFont.truetype(str(FOLDER / name), size, layout_engine=ImageFont.Layout.BASIC)


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or its bold face) at ``size`` pixels."""
    return face(primary(bold), size)


@lru_cache(maxsize=1)
def _coverage() -> dict[str, tuple[list[int], list[int]]]:
    """Each font's mapped code points as sorted ranges: (first code points, last ones)."""
    data: dict[str, list[list[int]]] = json.loads(COVERAGE.read_text(encoding="utf-8"))
    return {name: ([r[0] for r in ranges], [r[1] for r in ranges]) for name, ranges in data.items()}


def covers(name: str, code: int) -> bool:
    """Whether font file ``name`` maps code point ``code`` to a glyph (its ``cmap``, as
    ``docs/tools/fonts.py`` wrote it to ``fonts/coverage.json``: reading the CJK font's own
    ``cmap`` would take a tenth of a second; a test checks the two agree)."""
    firsts, lasts = _coverage()[name]
    at = bisect_right(firsts, code) - 1
    return at >= 0 and code <= lasts[at]


def ranges(codes: Iterable[int]) -> list[list[int]]:
    """``codes`` as sorted [first, last] ranges of consecutive code points.

    >>> ranges([5, 1, 2, 3, 9])
    [[1, 3], [5, 5], [9, 9]]
    """
    found: list[list[int]] = []
    for code in sorted(set(codes)):
        if found and found[-1][1] == code - 1:
            found[-1][1] = code
        else:
            found.append([code, code])
    return found


def chain_for(char: str, *, bold: bool) -> tuple[str, ...]:
    """The fonts tried in turn for ``char``: the weight's chain, Noto Emoji first for a
    pictograph of :data:`EMOJI_FIRST`."""
    chain = CHAINS[bold]
    return _EMOJI[bold] + chain if ord(char) in EMOJI_FIRST else chain


@lru_cache(maxsize=8192)
def face_for(char: str, *, bold: bool) -> str | None:
    """The first font of :func:`chain_for` that maps ``char``, or ``None`` when none does."""
    code = ord(char)
    for name in chain_for(char, bold=bold):
        if covers(name, code):
            return name
    return None
