"""The bundled font: DejaVu Sans in ``render/fonts/`` (Bitstream Vera licence, ``fonts/LICENSE``).

>>> font(20).size, font(20, bold=True).size
(20, 20)
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

__all__ = ["font"]

_HERE = Path(__file__).resolve().parent / "fonts"


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or its bold face) at ``size`` pixels; loaded once per size."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(_HERE / name), size)
