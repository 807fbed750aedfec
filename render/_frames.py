"""The next picture of a board, redrawn only where it differs from a picture drawn before.

A game's pictures follow one another a move apart: one piece more, the last-move marks moved,
a new header.  The last :data:`KEPT` palette pictures (of any board; a few MB) are kept with
what drew them: the board's static parts and the list of ops (:class:`~render._canvas.Canvas`).
A new picture starts from the kept one of its board whose list shares most ops with its own
(several games on one board, shown in turn, each find their last picture).  Every op in one
list and not in the other marks its box as changed; each changed box is composed again from
the background and every op of the new list that touches it, in order, then mapped onto the
palette and pasted into a copy of the kept picture.  A pixel outside
every changed box is covered by the same ops, in the same order (checked: otherwise the
picture is drawn whole), so it is the pixel a whole drawing gives; ``tests/render/
test_caches.py`` compares the two for every move of every game.  When the changes cover much
of the picture, drawing it whole is cheaper and done.

Ops are told apart by their sprite's identity (a kept list holds its sprites, so no other
sprite can take that identity while it is kept) or their colour, and their box.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence, Set
from dataclasses import dataclass

from PIL import Image

from render._canvas import Op, compose, lay

__all__ = ["KEPT", "Frame", "forget", "indexed_picture"]

#: pictures kept, of all boards (0.7 MB each at 1000x700, 1.15 MB for a 16x16 Maphex)
KEPT = 8
#: when the changed boxes cover more than this share of the picture, it is drawn whole
WHOLE = 0.4
#: ... or when there are more boxes than this (each costs a few calls)
MOST_BOXES = 40

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Frame:
    """A palette picture as drawn (never changed once kept) and what drew it: ``owner`` (the
    static parts of its board: background and palette) and its ops."""

    owner: object
    ops: tuple[Op, ...]
    keys: tuple[Hashable, ...]
    indexed: Image.Image


def _key(op: Op) -> Hashable:
    what, box = op
    return (id(what) if isinstance(what, Image.Image) else what, box)


def _common(keys: Sequence[Hashable], common: Counter[Hashable]) -> list[Hashable]:
    """``keys`` without those not in ``common`` (the first occurrences of each)."""
    used: Counter[Hashable] = Counter()
    out = []
    for key in keys:
        if used[key] < common[key]:
            used[key] += 1
            out.append(key)
    return out


def _clip(box: Box, size: tuple[int, int]) -> Box | None:
    x0, y0, x1, y1 = max(box[0], 0), max(box[1], 0), min(box[2], size[0]), min(box[3], size[1])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _merged(boxes: list[Box]) -> list[Box]:
    """``boxes`` with every two that overlap replaced by the box around both."""
    out: list[Box] = []
    for box in boxes:
        while True:
            hit = next((i for i, other in enumerate(out) if _meets(box, other)), None)
            if hit is None:
                break
            o = out.pop(hit)
            box = (min(box[0], o[0]), min(box[1], o[1]), max(box[2], o[2]), max(box[3], o[3]))
        out.append(box)
    return out


def changed_boxes(
    frame: Frame, keys: Sequence[Hashable], ops: Sequence[Op], size: tuple[int, int]
) -> list[Box] | None:
    """The boxes where a picture of ``ops`` differs from ``frame`` (none overlapping), or
    ``None`` when ops common to both are drawn in another order."""
    before, now = set(frame.keys), set(keys)
    changed: Set[Hashable]
    if len(before) == len(frame.keys) and len(now) == len(keys):
        # No op drawn twice (the usual case): sets are enough.
        both = before & now
        if [k for k in frame.keys if k in both] != [k for k in keys if k in both]:
            return None
        changed = before ^ now
    else:
        old, new = Counter(frame.keys), Counter(keys)
        common = old & new
        if _common(frame.keys, common) != _common(keys, common):
            return None
        changed = set(old - new) | set(new - old)
    boxes: list[Box] = []
    for op, key in (*zip(frame.ops, frame.keys, strict=True), *zip(ops, keys, strict=True)):
        if key in changed:
            clipped = _clip(op[1], size)
            if clipped is not None and clipped not in boxes:
                boxes.append(clipped)
    return _merged(boxes)


def _area(boxes: list[Box]) -> int:
    return sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)


_KEPT: list[Frame] = []


def forget() -> None:
    """Drop every kept picture."""
    _KEPT.clear()


def indexed_picture(
    owner: object, background: Image.Image, palette: Image.Image, ops: list[Op]
) -> Image.Image:
    """The palette picture of ``ops`` drawn on ``background``, from the kept picture of the
    same ``owner`` (static parts) that shares most ops, or whole; it is then kept itself.
    The picture returned is kept: copy it before changing it."""
    size = background.size
    keys = tuple(_key(op) for op in ops)
    mine = set(keys)
    # A copy first: pictures drawn in other threads (the web board's) may change the list.
    kept = [frame for frame in list(_KEPT) if frame.owner is owner]
    closest = max(kept, key=lambda f: len(mine.intersection(f.keys)), default=None)
    boxes = None if closest is None else changed_boxes(closest, keys, ops, size)
    if (
        closest is None
        or boxes is None
        or _area(boxes) > WHOLE * size[0] * size[1]
        or len(boxes) > MOST_BOXES
    ):
        picture = compose(background, ops).quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        picture = _redrawn(background, palette, closest.indexed, boxes, ops)
    picture.load()  # nothing left to settle lazily in a picture other threads may read
    _KEPT[:] = [Frame(owner, tuple(ops), keys, picture), *_KEPT][:KEPT]
    return picture


def _redrawn(
    background: Image.Image,
    palette: Image.Image,
    before: Image.Image,
    boxes: list[Box],
    ops: list[Op],
) -> Image.Image:
    """A copy of palette picture ``before`` with ``boxes`` composed again from ``background``
    and the ops of ``ops`` that touch them, each mapped onto the palette (a mapping costs no
    more than its pixels: no call per box is worth saving)."""
    picture = before.copy()
    for box in boxes:
        x0, y0, x1, y1 = box
        part = background.crop(box)
        for op in ops:
            a = op[1]
            if a[0] < x1 and x0 < a[2] and a[1] < y1 and y0 < a[3]:
                lay(part, op, x0, y0)
        picture.paste(part.quantize(palette=palette, dither=Image.Dither.NONE), (x0, y0))
    return picture
