"""Machinery shared by every game's picture: cell placement, anti-aliased drawing, sprites,
the status band, the result banner and the fixed-palette PNG pipeline.

Speed plan: everything that does not change during a game (page, frame, goal edges, cells,
coordinates) is drawn once per board shape and theme at ``SS`` times the size, reduced, and
cached.  Pieces and marks are anti-aliased sprites, also drawn once (at ``SPRITE_SS`` times
the size) and cached, then pasted: a game notes them on a :class:`~render._canvas.Canvas`, and
only the boxes where a picture differs from the last one of its board are composed and mapped
onto a fixed 256-colour palette built from the same background and sprites
(``render/_frames.py``), because a palette PNG encodes about ten times faster than an RGB one.
The PNG is deflated in one ISA-L call (``render/_png.py``).  ``benchmarks/render.py`` times it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.base import BoardView, Outcome, Position
from engines.geometry import Board, Hexagon, Rhombus, Square
from render._budget import budgeted
from render._canvas import Canvas
from render._glyphs import ellipsis_after, line
from render._texts import TextMark, collect
from render.theme import RGB, Theme

#: supersampling of the cached backgrounds and of the sprites
SS = 3
SPRITE_SS = 4
#: height of the status band / result banner at the top (at the default 700 px height): two
#: lines, so nothing in it is ever cut
BAND = 92
#: the middle of the band's first and second lines (at the default 700 px height)
BAND_LINES = (29.0, 67.0)
SQRT3 = math.sqrt(3.0)

Point = tuple[float, float]
RGBA = tuple[int, int, int, int]


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def luma(c: RGB) -> float:
    """Perceived lightness 0..255 (Rec. 601 weights)."""
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def side_of_seat(position: Position, seat: int) -> int:
    """The colour index (0 or 1) that ``seat`` plays: inpHeXion's pie rule can swap them."""
    colours = getattr(position, "colours", None)
    if colours is None:
        return seat
    return int(colours[seat])


def seat_of_side(position: Position, colour: int) -> int:
    """The seat that plays colour index ``colour`` now (the inverse of :func:`side_of_seat`)."""
    colours = getattr(position, "colours", None)
    if colours is None:
        return colour
    return 0 if colours[0] == colour else 1


@dataclass(frozen=True)
class Scene:
    """What a picture shows besides the position, as the bot knows it.

    ``outcome`` is the result (``position.outcome``, or one the bot decided: resignation,
    agreement, time, abort); ``players`` the names by seat; ``clock`` a short text such as
    ``"2 days 4 h left"`` for the player to move.
    """

    outcome: Outcome | None = None
    players: tuple[str, str] | None = None
    clock: str | None = None

    @property
    def over(self) -> bool:
        """Whether the game is finished (nothing is "to move" any more)."""
        return self.outcome is not None

    def player_of_side(self, position: Position, colour: int) -> str | None:
        """The name of the player of colour index ``colour``, if names were given."""
        if self.players is None:
            return None
        return self.players[seat_of_side(position, colour)]


def scene_of(
    position: Position,
    outcome: Outcome | None,
    players: Sequence[str] | None,
    clock: str | None,
) -> Scene:
    """The scene of ``position`` with the bot's knowledge: a given ``outcome`` overrides the
    position's own, names are made printable, an empty clock text counts as none."""
    names = None
    if players is not None:
        first, second = (_printable(str(name)) for name in players)
        names = (first, second)
    return Scene(
        outcome if outcome is not None else getattr(position, "outcome", None),
        names,
        _printable(clock) if clock else None,
    )


def _printable(text: str) -> str:
    # Control characters (newlines, bidi overrides...) would break the one-line layout.
    return "".join(ch if ch.isprintable() else " " for ch in text).strip() or "?"


# ---------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    """Where a board sits on the picture.

    ``centres[cell]`` is the pixel centre of each cell; ``radius`` is the circumradius of a
    hexagonal cell or half the side of a square cell; ``inner`` the radius of the largest
    circle inside a cell; ``corners`` the board's outline through the corner cells' centres,
    clockwise from the top-left.
    """

    kind: str
    centres: tuple[Point, ...]
    radius: float
    inner: float
    corners: tuple[Point, ...]

    def cell_polygon(self, cell: int, shrink: float = 0.0) -> list[Point]:
        """The outline of ``cell`` (pointy-top hexagon or square), ``shrink`` px inside."""
        x, y = self.centres[cell]
        if self.kind == "square":
            h = self.radius - shrink
            return [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
        r = self.radius - shrink / math.cos(math.pi / 6)
        return [
            (
                x + r * math.cos(math.radians(-90 + 60 * k)),
                y + r * math.sin(math.radians(-90 + 60 * k)),
            )
            for k in range(6)
        ]


def _unit_centres(board: Board) -> tuple[list[Point], str, float, list[int]]:
    """Cell centres for a cell radius of 1, the cell kind, the inner radius and the corner
    cells in clockwise order from the top-left."""
    if isinstance(board, Rhombus):
        n = board.n
        pts = [(SQRT3 * (c + r / 2), 1.5 * r) for r in range(n) for c in range(n)]
        corners = [0, n - 1, n * n - 1, n * (n - 1)]
        return pts, "hex", SQRT3 / 2, corners
    if isinstance(board, Hexagon):
        pts = [(SQRT3 * (q + r / 2), 1.5 * r) for q, r in board.axial]
        m = board.n - 1
        order = [(0, -m), (m, -m), (m, 0), (0, m), (-m, m), (-m, 0)]
        corners = [c for c in (board.at(q, r) for q, r in order) if c is not None]
        return pts, "hex", SQRT3 / 2, corners
    if isinstance(board, Square):
        n = board.n
        pts = [(2.0 * (cell % n), 2.0 * (n - 1 - cell // n)) for cell in range(n * n)]
        corners = [n * (n - 1), n * n - 1, n - 1, 0]
        return pts, "square", 1.0, corners
    raise TypeError(f"no layout for {type(board).__name__}")


def fit(
    board: Board,
    box: tuple[float, float, float, float],
    margin: tuple[float, float],
    pad: tuple[float, float] = (0.0, 0.0),
) -> Layout:
    """Place ``board`` centred in ``box`` (x0, y0, x1, y1) leaving room around the cells for
    the frame and the coordinates: ``margin`` cell radii (x, y) plus ``pad`` pixels (x, y)
    on each side.  Centres are whole pixels."""
    pts, kind, inner, corner_cells = _unit_centres(board)
    ext_x = inner if kind == "hex" else 1.0
    ext_y = 1.0
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    w = max(xs) - min(xs) + 2 * (ext_x + margin[0])
    h = max(ys) - min(ys) + 2 * (ext_y + margin[1])
    x0, y0, x1, y1 = box
    scale = min((x1 - x0 - 2 * pad[0]) / w, (y1 - y0 - 2 * pad[1]) / h)
    ox = (x0 + x1) / 2 - scale * (max(xs) + min(xs)) / 2
    oy = (y0 + y1) / 2 - scale * (max(ys) + min(ys)) / 2
    centres = tuple((float(round(ox + scale * x)), float(round(oy + scale * y))) for x, y in pts)
    return Layout(
        kind="square" if kind == "square" else "hex",
        centres=centres,
        radius=scale,
        inner=scale * inner,
        corners=tuple(centres[c] for c in corner_cells),
    )


def offset_polygon(points: Sequence[Point], d: float) -> list[Point]:
    """A convex polygon (clockwise on screen) grown outwards by ``d`` pixels on every side."""
    n = len(points)
    lines = []
    for i in range(n):
        (ax, ay), (bx, by) = points[i], points[(i + 1) % n]
        length = math.hypot(bx - ax, by - ay)
        # Outward normal of a clockwise (screen coordinates) polygon.
        nx, ny = (by - ay) / length, -(bx - ax) / length
        lines.append(((ax + nx * d, ay + ny * d), (bx + nx * d, by + ny * d)))
    out = []
    for i in range(n):
        p1, p2 = lines[i - 1]
        p3, p4 = lines[i]
        out.append(_intersect(p1, p2, p3, p4))
    return out


def _intersect(p1: Point, p2: Point, p3: Point, p4: Point) -> Point:
    x1, y1 = p1
    x2, y2 = p2
    x3, y3 = p3
    x4, y4 = p4
    den = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    if abs(den) < 1e-9:
        return p2
    t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / den
    return (x1 + t * (x2 - x1), y1 + t * (y2 - y1))


# ---------------------------------------------------------------- supersampled painting


class Painter:
    """Draws in picture coordinates on an image ``scale`` times larger (for anti-aliasing)."""

    def __init__(self, image: Image.Image, scale: int, origin: Point = (0.0, 0.0)) -> None:
        self.image = image
        self.scale = scale
        self.origin = origin
        self.draw = ImageDraw.Draw(image)
        #: every text drawn, in the painter's coordinates (``render.board_texts``)
        self.texts: list[TextMark] = []

    def _p(self, p: Point) -> tuple[float, float]:
        return ((p[0] - self.origin[0]) * self.scale, (p[1] - self.origin[1]) * self.scale)

    def polygon(
        self,
        points: Iterable[Point],
        fill: RGB | RGBA | None = None,
        outline: RGB | RGBA | None = None,
        width: float = 0.0,
    ) -> None:
        """A filled polygon, optionally outlined ``width`` px (centred on the edge)."""
        pts = [self._p(p) for p in points]
        if fill is not None:
            self.draw.polygon(pts, fill=fill)
        if outline is not None and width > 0:
            self.draw.line(
                [*pts, pts[0], pts[1]], fill=outline, width=self._w(width), joint="curve"
            )

    def circle(
        self,
        centre: Point,
        radius: float,
        fill: RGB | RGBA | None = None,
        outline: RGB | RGBA | None = None,
        width: float = 0.0,
    ) -> None:
        """A disc of ``radius`` px; an outline of ``width`` px lies inside the radius."""
        x, y = self._p(centre)
        r = radius * self.scale
        self.draw.ellipse(
            (x - r, y - r, x + r, y + r),
            fill=fill,
            outline=outline if width > 0 else None,
            width=self._w(width) if width > 0 else 0,
        )

    def ellipse(
        self,
        centre: Point,
        rx: float,
        ry: float,
        fill: RGB | RGBA | None = None,
        outline: RGB | RGBA | None = None,
        width: float = 0.0,
    ) -> None:
        """An axis-aligned ellipse; the outline lies inside."""
        x, y = self._p(centre)
        sx, sy = rx * self.scale, ry * self.scale
        self.draw.ellipse(
            (x - sx, y - sy, x + sx, y + sy),
            fill=fill,
            outline=outline if width > 0 else None,
            width=self._w(width) if width > 0 else 0,
        )

    def line(self, points: Sequence[Point], fill: RGB | RGBA, width: float) -> None:
        """A thick polyline with round joins and round caps."""
        pts = [self._p(p) for p in points]
        w = self._w(width)
        self.draw.line(pts, fill=fill, width=w, joint="curve")
        r = w / 2
        for x, y in (pts[0], pts[-1]):
            self.draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)

    def text(
        self,
        centre: Point,
        text: str,
        size: float,
        fill: RGB | RGBA,
        *,
        bold: bool = False,
        stroke: float = 0.0,
        stroke_fill: RGB | RGBA | None = None,
        anchor: str = "mm",
        cell: int | None = None,
        icon: bool = False,
    ) -> None:
        """``text`` at ``size`` px, centred on ``centre`` (or placed by Pillow's ``anchor``);
        ``cell`` and ``icon`` as in :class:`~render._texts.TextMark`."""
        laid = line(text, max(1, round(size * self.scale)), bold)
        at = self._p(centre)
        stroke_px = round(stroke * self.scale)
        laid.draw(self.draw, at, fill, anchor, stroke_px, stroke_fill)
        x0, y0, x1, y1 = laid.bbox(at, anchor, stroke_px)
        k, (ox, oy) = self.scale, self.origin
        box = (x0 / k + ox, y0 / k + oy, x1 / k + ox, y1 / k + oy)
        self.texts.append(TextMark(text, laid.size / k, box, cell, icon))

    def _w(self, width: float) -> int:
        return max(1, round(width * self.scale))


@dataclass(frozen=True)
class Sprite:
    """An anti-aliased RGBA picture and the offset of its anchor point from its top-left."""

    image: Image.Image
    dx: int
    dy: int
    #: the texts on the sprite, relative to its anchor
    texts: tuple[TextMark, ...] = ()

    def paste(self, target: Image.Image | Canvas, at: Point) -> None:
        """Composite the sprite onto ``target`` with its anchor at ``at`` (on a canvas: note
        it, to be composited with the rest)."""
        x, y = round(at[0]), round(at[1])
        if isinstance(target, Canvas):
            target.paste(self.image, (x - self.dx, y - self.dy))
        else:
            target.paste(self.image, (x - self.dx, y - self.dy), self.image)
        if self.texts:
            collect(self.texts, x, y)


def make_sprite(
    half_w: float,
    half_h: float,
    paint: Callable[[Painter], None],
    scale: int = SPRITE_SS,
    centre: Point = (0.0, 0.0),
) -> Sprite:
    """A sprite covering ``centre`` +- (``half_w``, ``half_h``) px around its anchor (0, 0);
    ``paint`` draws on a painter whose origin is the anchor."""
    cx, cy = round(centre[0]), round(centre[1])
    hw, hh = math.ceil(half_w) + 2, math.ceil(half_h) + 2
    big = Image.new("RGBA", (2 * hw * scale, 2 * hh * scale), (0, 0, 0, 0))
    painter = Painter(big, scale, (cx - hw, cy - hh))
    paint(painter)
    small = big.convert("RGBa").reduce(scale).convert("RGBA")
    return Sprite(small, hw - cx, hh - cy, tuple(painter.texts))


# ---------------------------------------------------------------- common sprites


@lru_cache(maxsize=256)
def disc(theme: Theme, fill: RGB, radius: float) -> Sprite:
    """A playing piece: light pieces get a dark rim, dark pieces a dark rim plus a light
    inner ring, so the two sides differ in outline as well as lightness."""
    dark = luma(fill) < 128
    rim = max(2.0, radius * 0.085)

    def paint(p: Painter) -> None:
        p.circle((0, 0), radius, fill=theme.dark_rim)
        p.circle((0, 0), radius - rim, fill=fill)
        # A soft sheen at the top so the piece reads as a disc, away from the probe area.
        sheen = (255, 255, 255, 46 if dark else 70)
        p.ellipse((0, -radius * 0.52), radius * 0.5, radius * 0.2, fill=sheen)
        if dark:
            p.circle((0, 0), radius * 0.74, outline=theme.light_rim, width=max(1.6, radius * 0.07))

    return make_sprite(radius, radius, paint)


@lru_cache(maxsize=64)
def last_ring(theme: Theme, radius: float) -> Sprite:
    """The last-move mark around a piece: an accent ring with dark edges."""
    w = max(3.0, radius * 0.16)

    def paint(p: Painter) -> None:
        p.circle((0, 0), radius + w, outline=theme.accent_edge, width=w + 2)
        p.circle((0, 0), radius + w - 1, outline=theme.accent, width=w)

    return make_sprite(radius + w + 1, radius + w + 1, paint)


@lru_cache(maxsize=64)
def dot(theme: Theme, radius: float, fill: RGB | None = None) -> Sprite:
    """A small accent dot with a dark edge (centre of the last piece placed, path marks)."""
    colour = fill if fill is not None else theme.accent

    def paint(p: Painter) -> None:
        p.circle((0, 0), radius, fill=theme.accent_edge)
        p.circle((0, 0), radius - max(1.2, radius * 0.22), fill=colour)

    return make_sprite(radius, radius, paint)


@lru_cache(maxsize=64)
def origin_ring(theme: Theme, radius: float) -> Sprite:
    """A hollow accent ring on the empty cell a piece left."""
    w = max(3.0, radius * 0.2)

    def paint(p: Painter) -> None:
        p.circle((0, 0), radius, outline=theme.accent_edge, width=w + 2)
        p.circle((0, 0), radius - 1, outline=theme.accent, width=w)

    return make_sprite(radius, radius, paint)


@lru_cache(maxsize=64)
def cross(theme: Theme, radius: float) -> Sprite:
    """An X in the alert colour: a piece was removed (captured or trapped) here."""
    w = max(4.0, radius * 0.3)
    a = radius * 0.62

    def paint(p: Painter) -> None:
        for fill, width in ((theme.accent_edge, w + 3), (theme.alert, w)):
            p.line([(-a, -a), (a, a)], fill, width)
            p.line([(-a, a), (a, -a)], fill, width)

    return make_sprite(radius, radius, paint)


#: The bytes of pixels kept of arrow sprites: an arrow is drawn per (direction, length) and one
#: across a large board is ~600 KB, so a count alone would let hundreds of MiB stay (issue 48).
#: 4 MiB keep the short ones, which most moves draw (1 500 pictures of the five games in turn:
#: 59 % hits, against 75 % with 16 MiB, for no measurable drawing time).
ARROW_BYTES = 4 * 2**20
#: The bytes of pixels kept of text sprites: the status band's text is new at almost every move
#: (~65 KB each) and is rarely drawn again; the short texts (names, cell labels) that are stay
#: (2 MiB: the same hits as 8 MiB over 1 500 pictures).
TEXT_BYTES = 2 * 2**20


def sprite_bytes(sprite: Sprite) -> int:
    """The bytes of ``sprite``'s pixels (what a cache of sprites is bounded by)."""
    image = sprite.image
    return image.width * image.height * len(image.getbands())


@budgeted(ARROW_BYTES, sprite_bytes, most=1024)
def arrow(
    theme: Theme, dx: int, dy: int, radius: float, colour: RGB, start: float, end: float
) -> Sprite:
    """An arrow from the anchor towards ``(dx, dy)`` px, leaving ``start`` px at its tail and
    ``end`` px before the head's target; dark-edged so it reads on any background."""
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    w = max(4.0, radius * 0.2)
    head = w * 2.6
    tail = (ux * start, uy * start)
    tip = (dx - ux * end, dy - uy * end)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    nx, ny = -uy, ux
    wing = w * 1.6
    tri = [
        tip,
        (base[0] + nx * wing, base[1] + ny * wing),
        (base[0] - nx * wing, base[1] - ny * wing),
    ]

    def paint(p: Painter) -> None:
        p.line([tail, base], theme.accent_edge, w + 3)
        p.polygon(tri, fill=theme.accent_edge, outline=theme.accent_edge, width=3)
        p.line([tail, base], colour, w)
        p.polygon(tri, fill=colour)

    return make_sprite(abs(dx) / 2 + head, abs(dy) / 2 + head, paint, centre=(dx / 2, dy / 2))


# ---------------------------------------------------------------- shared background parts


def band_width(lay: Layout) -> float:
    """Thickness of the coloured goal-edge bands around the cells."""
    return max(10.0, lay.radius * 0.42)


def paint_frame(
    p: Painter, lay: Layout, theme: Theme, sides: Sequence[RGB | None], *, band: float
) -> list[Point]:
    """The board's frame: a dark rim around the cells with each side of ``lay.corners``
    coloured ``sides[i]`` (a goal edge) or plain.  Returns the outer outline."""
    reach = lay.radius
    outer = offset_polygon(lay.corners, reach + band)
    p.polygon(outer, fill=theme.frame)
    inner = list(lay.corners)
    n = len(inner)
    for i, colour in enumerate(sides):
        if colour is None:
            continue
        j = (i + 1) % n
        p.polygon([inner[i], outer[i], outer[j], inner[j]], fill=colour)
    p.polygon(outer, outline=theme.muted, width=2.5)
    # A dark goal edge would vanish against the dark page: it gets a light inner line along
    # its outer side (a light edge a dark one), so every edge reads as a strip of its colour.
    inset = offset_polygon(lay.corners, reach + band * 0.62)
    line_w = max(2.5, band * 0.16)
    for i, colour in enumerate(sides):
        if colour is None:
            continue
        j = (i + 1) % n
        ink = theme.light_rim if luma(colour) < 128 else theme.dark_rim
        p.line([inset[i], inset[j]], ink, line_w)
    return outer


def coord_size(lay: Layout, theme: Theme) -> float:
    """Font size of edge coordinates (never below the theme's smallest text size)."""
    return theme.coord_size * theme.height / 700


def px(theme: Theme, size: float) -> int:
    """A font size given at the default 700 px height, at ``theme``'s size."""
    return round(size * theme.height / 700)


def paint_status_band(p: Painter, theme: Theme) -> None:
    """The band at the top that holds whose turn it is (text drawn per picture)."""
    h = BAND * theme.height / 700
    p.polygon(
        [(0, 0), (theme.width, 0), (theme.width, h), (0, h)],
        fill=blend(theme.page, theme.text, 0.07),
    )
    p.line([(0, h - 1), (theme.width, h - 1)], blend(theme.page, theme.text, 0.18), 2)


def paint_sprite(p: Painter, sprite: Sprite, at: Point) -> None:
    """Paste a 1x sprite into a supersampled background (scaled up to match): legend icons
    drawn with the very sprites the board uses."""
    big = sprite.image.resize((sprite.image.width * p.scale, sprite.image.height * p.scale))
    x = round((at[0] - p.origin[0]) * p.scale) - sprite.dx * p.scale
    y = round((at[1] - p.origin[1]) * p.scale) - sprite.dy * p.scale
    p.image.paste(big, (x, y), big)
    p.texts.extend(m.moved(at[0], at[1]) for m in sprite.texts)


def fit_text(text: str, size: int, width: float, *, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so it is at most ``width`` pixels wide."""
    if text_width(text, size, bold=bold) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(ellipsis_after(text[:mid].rstrip()), size, bold=bold) <= width:
            low = mid
        else:
            high = mid - 1
    return ellipsis_after(text[:low].rstrip())


def side_heading(
    image: Canvas,
    theme: Theme,
    at: Point,
    fill: RGB,
    side: str,
    player: str | None,
    right: float,
) -> None:
    """A side heading centred on ``at[1]``: a disc of the side's colour (which says the
    side), then the player's name in bold, or the side when no names are known.  A name too
    long for the room up to ``right`` is cut with an ellipsis (the only text a picture cuts:
    the caption and the alt text carry it whole)."""
    s = theme.height / 700
    x0, y = at
    disc(theme, fill, 14 * s).paste(image, (x0 + 16 * s, y))
    x = x0 + 38 * s
    big = px(theme, theme.name_size)
    heading = fit_text(side if player is None else player, big, right - x, bold=True)
    text_sprite(heading, big, theme.text, bold=True).paste(image, (x, y))


def frame_sides(
    lay_corner_cells: Sequence[int],
    edges: Sequence[Sequence[frozenset[int]]],
    fills: Sequence[RGB],
) -> list[RGB | None]:
    """For each side of the board outline (between consecutive corner cells), the fill of
    the colour whose goal edge (from the position's ``edges``) holds both its corners."""
    out: list[RGB | None] = []
    n = len(lay_corner_cells)
    for i in range(n):
        a, b = lay_corner_cells[i], lay_corner_cells[(i + 1) % n]
        colour: RGB | None = None
        for c, pair in enumerate(edges):
            if any(a in edge and b in edge for edge in pair):
                colour = fills[c]
        out.append(colour)
    return out


def corner_cells(board: Board) -> list[int]:
    """The corner cells of ``board``'s outline, clockwise from the top-left (as in
    :attr:`Layout.corners`)."""
    return _unit_centres(board)[3]


def hex_edge_towards(lay: Layout, cell: int, other: int) -> tuple[Point, Point]:
    """The side of hexagonal ``cell`` that faces its neighbour ``other``."""
    (x, y), (ox, oy) = lay.centres[cell], lay.centres[other]
    angle = math.degrees(math.atan2(oy - y, ox - x))
    k = round((angle + 60) / 60) % 6
    poly = lay.cell_polygon(cell)
    return poly[k], poly[(k + 1) % 6]


def paint_hexagon(
    p: Painter,
    lay: Layout,
    theme: Theme,
    board: Hexagon,
    sides: Sequence[RGB | None],
    *,
    cells: bool = True,
) -> None:
    """A hex-hex board: frame (``sides`` colours each side of the outline, from the top),
    cells (unless ``cells`` is false: the game draws them), and the row letters at both ends
    of every row.  Cell names are drawn per picture, on empty cells only
    (:func:`cell_name`): a piece would hide them."""
    band = band_width(lay)
    paint_frame(p, lay, theme, sides, band=band)
    if cells:
        grid_w = max(1.5, lay.radius * 0.05)
        for cell in board.cells:
            p.polygon(lay.cell_polygon(cell), fill=theme.cell, outline=theme.grid, width=grid_w)
    size = coord_size(lay, theme)
    reach = (lay.radius + band) * 1.155 + size * 0.6
    rows: dict[int, list[int]] = {}
    for cell in board.cells:
        rows.setdefault(board.row(cell), []).append(cell)
    for row in rows.values():
        letter = board.name(row[0])[0]
        (x, y), (rx, _) = lay.centres[row[0]], lay.centres[row[-1]]
        p.text((x - reach, y), letter, size, theme.text, bold=True)
        p.text((rx + reach, y), letter, size, theme.text, bold=True)


@lru_cache(maxsize=1024)
def cell_name(theme: Theme, name: str, ink: RGB, cell: int) -> Sprite:
    """``name`` as a cell's label (bold, centred on its anchor) for cell ``cell``."""
    sprite = text_sprite(name, px(theme, theme.label_size), ink, bold=True, anchor="mm")
    return Sprite(sprite.image, sprite.dx, sprite.dy, (replace(sprite.texts[0], cell=cell),))


def label_size(lay: Layout, theme: Theme) -> float:
    """Font size of the cell names inside empty cells (never below the theme's smallest text
    size: a board whose cells could not hold them must be drawn larger)."""
    return theme.label_size * theme.height / 700


@lru_cache(maxsize=16)
def cell_outline(
    theme: Theme, lay_radius: float, kind: str, colour: RGB | None = None, inset: float = 0.0
) -> Sprite:
    """An outline just inside a cell (hexagonal or square), ``inset`` px further in: the last
    move's cell in the accent colour, or ``colour``."""
    w = max(3.5, lay_radius * 0.12)
    probe = Layout(
        kind, ((0.0, 0.0),), lay_radius, lay_radius * (SQRT3 / 2 if kind == "hex" else 1), ()
    )
    ink = theme.accent if colour is None else colour

    def paint(p: Painter) -> None:
        outline = probe.cell_polygon(0, w * 0.5 + 1.5 + inset)
        p.polygon(outline, outline=theme.accent_edge, width=w + 3)
        p.polygon(outline, outline=ink, width=w)

    return make_sprite(lay_radius, lay_radius, paint)


def paint_threat(p: Painter, theme: Theme, centre: Point, r: float) -> None:
    """Crosshair ticks and a ring in the alert colour around a piece of radius ``r``: this
    piece may (or must) be captured now."""
    x, y = centre
    w = max(2.5, r * 0.16)
    p.circle(centre, r + w, outline=theme.accent_edge, width=w + 2)
    p.circle(centre, r + w - 1, outline=theme.alert, width=w)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        a = (x + dx * (r + w * 0.3), y + dy * (r + w * 0.3))
        b = (x + dx * (r + w * 2.6), y + dy * (r + w * 2.6))
        p.line([a, b], theme.accent_edge, w + 2.5)
        p.line([a, b], theme.alert, w)


@lru_cache(maxsize=16)
def threat_sprite(theme: Theme, r: float) -> Sprite:
    """The :func:`paint_threat` mark as a sprite."""
    span = r + max(2.5, r * 0.16) * 3 + 2
    return make_sprite(span, span, lambda p: paint_threat(p, theme, (0.0, 0.0), r))


# ---------------------------------------------------------------- what won


def win_width(radius: float) -> float:
    """Thickness of the winning mark's links for pieces of ``radius``."""
    return max(4.0, radius * 0.16)


@lru_cache(maxsize=32)
def win_ring(theme: Theme, radius: float) -> Sprite:
    """A thick ring in the win colour with dark edges around a piece of ``radius``."""
    w = win_width(radius)

    def paint(p: Painter) -> None:
        p.circle((0, 0), radius + w * 0.5 + 1.5, outline=theme.accent_edge, width=w + 3)
        p.circle((0, 0), radius + w * 0.5, outline=theme.win, width=w)

    return make_sprite(radius + w + 3, radius + w + 3, paint)


@lru_cache(maxsize=64)
def win_link(theme: Theme, dx: int, dy: int, radius: float) -> Sprite:
    """A dark-edged bar in the win colour from the anchor to ``(dx, dy)`` px, with a dot at
    each end: two neighbouring cells of the winning chain, linked."""
    w = win_width(radius)

    def paint(p: Painter) -> None:
        p.line([(0, 0), (dx, dy)], theme.accent_edge, w + 3)
        p.line([(0, 0), (dx, dy)], theme.win, w)
        for x, y in ((0, 0), (dx, dy)):
            p.circle((x, y), w * 0.95, fill=theme.accent_edge)
            p.circle((x, y), w * 0.95 - 1.5, fill=theme.win)

    half = w + 2
    return make_sprite(abs(dx) / 2 + half, abs(dy) / 2 + half, paint, centre=(dx / 2, dy / 2))


def draw_win(
    image: Canvas,
    theme: Theme,
    lay: Layout,
    view: BoardView,
    radius: float,
    *,
    rings: bool = True,
    links: bool = True,
) -> None:
    """Mark what won (the board view's winning cells, as the web page marks them): every
    winning cell ringed (``radius``: its piece) and each two touching winning cells linked by
    a bar (:meth:`~engines.BoardView.winning_links`), so the chain reads as a path."""
    centres = lay.centres
    if links:
        for a, b in view.winning_links():
            (ax, ay), (bx, by) = centres[a], centres[b]
            win_link(theme, round(bx - ax), round(by - ay), radius).paste(image, (ax, ay))
    if rings:
        for cell in view.winning:
            win_ring(theme, radius).paste(image, centres[cell])


def win_specimens(theme: Theme, lay: Layout, radius: float) -> list[Sprite]:
    """The winning marks' sprites, for the palette."""
    if len(lay.centres) < 2:
        return [win_ring(theme, radius)]
    (ax, ay), (bx, by) = lay.centres[0], lay.centres[1]
    return [win_ring(theme, radius), win_link(theme, round(bx - ax), round(by - ay), radius)]


@lru_cache(maxsize=16)
def badge(theme: Theme, radius: float, fill: RGB, shape: str) -> Sprite:
    """A small dark-edged badge: ``"diamond"`` (a capture) or ``"circle"``."""

    def paint(p: Painter) -> None:
        r = radius
        if shape == "diamond":
            pts = [(0.0, -r), (r, 0.0), (0.0, r), (-r, 0.0)]
            p.polygon(pts, fill=fill, outline=theme.accent_edge, width=max(1.5, r * 0.22))
        else:
            p.circle((0, 0), r, fill=fill, outline=theme.accent_edge, width=max(1.5, r * 0.22))

    return make_sprite(radius + 1, radius + 1, paint)


@budgeted(TEXT_BYTES, sprite_bytes)
def text_sprite(
    text: str, size: int, fill: RGB, *, bold: bool = False, anchor: str = "lm"
) -> Sprite:
    """``text`` rendered once as a sprite anchored as Pillow's ``anchor`` says; status
    texts repeat from picture to picture, and pasting is much cheaper than rasterising."""
    laid = line(text, size, bold)
    box = laid.bbox((0, 0), anchor)
    left, top = math.floor(box[0]), math.floor(box[1])
    right, bottom = math.ceil(box[2]), math.ceil(box[3])
    mask = Image.new("L", (right - left + 2, bottom - top + 2), 0)
    laid.draw(ImageDraw.Draw(mask), (1 - left, 1 - top), 255, anchor)
    image = Image.new("RGBA", mask.size, (*fill, 255))
    image.putalpha(mask)
    mark = TextMark(text, float(size), (float(box[0]), float(box[1]), float(box[2]), float(box[3])))
    return Sprite(image, 1 - left, 1 - top, (mark,))


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, *, bold: bool = False) -> float:
    """The advance width of ``text`` in pixels."""
    return line(text, size, bold).width
