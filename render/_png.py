"""PNG bytes of a palette picture, written here: the board's encode is most of a picture's time.

Pillow's PNG encoder hands zlib one row at a time and loops in Python over 64 kB buffers: on a
1000x700 palette picture that costs about 2 ms, of which the deflate itself is a fraction.  Here
the rows (each led by PNG filter type 0, "None", as Pillow writes palette pictures too) are
deflated in one call by ISA-L (the ``isal`` package, about six times faster than zlib at the same
size) and wrapped in the four chunks a palette PNG needs: IHDR, PLTE, IDAT, IEND (PNG
specification, 2nd edition, sections 11.2.2-11.2.5).  Pictures of other modes, pictures with a
transparent index, and any picture when ``isal`` is missing go through Pillow, as before.

>>> from PIL import Image
>>> im = Image.new("P", (3, 2), 1)
>>> im.putpalette([0, 0, 0, 255, 0, 0])
>>> png = indexed_png(im)
>>> png[:8] == SIGNATURE, png[12:16], png[-8:-4]
(True, b'IHDR', b'IEND')
>>> back = Image.open(__import__("io").BytesIO(png))
>>> back.mode, back.size, back.getpixel((2, 1)), back.getpalette()[3:6]
('P', (3, 2), 1, [255, 0, 0])
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable

from PIL import Image

__all__ = ["SIGNATURE", "encode_png", "indexed_png", "pillow_png"]

#: the eight bytes every PNG file starts with
SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Pillow's zlib level when Pillow encodes: 3 is as small as 6 within a few per cent here and
#: twice as fast
PILLOW_LEVEL = 3
#: ISA-L's level: 2 (its default) is as fast as 0 and 1 here and as small as Pillow's level 3
ISAL_LEVEL = 2

_deflate: Callable[[bytes, int], bytes] | None
try:
    from isal.isal_zlib import compress as _deflate
except ImportError:  # a platform without an isal wheel: Pillow encodes, about 2 ms slower
    _deflate = None


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and the CRC-32 of type and data."""
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
    )


def scanlines(image: Image.Image) -> bytes:
    """The rows of palette ``image`` as a PNG stores them before deflate: each row led by its
    filter type byte, 0 ("None")."""
    width, height = image.size
    # A one-pixel-wider picture of index 0 with the rows pasted one to the right: its bytes are
    # the rows each led by a zero, built in C rather than by joining 700 slices in Python.
    wide = Image.new("P", (width + 1, height), 0)
    wide.paste(image, (1, 0))
    return wide.tobytes()


def indexed_png(image: Image.Image) -> bytes:
    """PNG bytes of palette ("P") ``image``: 8-bit indexed colour, its palette padded to 256
    entries, deflated by ISA-L (by zlib when ``isal`` is missing)."""
    if image.mode != "P":
        raise ValueError(f"indexed_png needs a palette picture, not mode {image.mode!r}")
    palette = bytes(image.getpalette() or [])[: 3 * 256]
    palette += bytes(3 * 256 - len(palette))
    width, height = image.size
    # IHDR: width, height, bit depth 8, colour type 3 (indexed), deflate, filter 0, no interlace
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    rows = scanlines(image)
    data = _deflate(rows, ISAL_LEVEL) if _deflate is not None else zlib.compress(rows, PILLOW_LEVEL)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", data),
            _chunk(b"IEND", b""),
        )
    )


def pillow_png(image: Image.Image) -> bytes:
    """PNG bytes of ``image`` by Pillow's encoder (any mode)."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=PILLOW_LEVEL)
    return out.getvalue()


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of ``image``: a palette picture without a transparent index by
    :func:`indexed_png` when ISA-L is there, anything else by :func:`pillow_png`."""
    if _deflate is not None and image.mode == "P" and "transparency" not in image.info:
        return indexed_png(image)
    return pillow_png(image)
