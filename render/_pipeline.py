"""From a position to palette pixels: cached background, per-game marks, status band or
result banner, fixed palette, PNG / GIF encoding."""

from __future__ import annotations

import functools
import hashlib
import io
import sys
from collections.abc import Hashable, Sequence
from typing import cast

from PIL import Image, ImageChops, ImageDraw

from bot.core.lru import Lru
from engines.base import Position
from render._art import Art, P
from render._canvas import Canvas, compose
from render._core import (
    BAND,
    BAND_LINES,
    SS,
    Layout,
    Painter,
    Scene,
    blend,
    disc,
    luma,
    paint_status_band,
    px,
    side_of_seat,
    text_sprite,
    text_width,
)
from render._fonts import font
from render._frames import forget, indexed_picture
from render._png import encode_png
from render._texts import TextMark, collect, suspended
from render._words import (
    language,
    last_move_words,
    move_number_words,
    moves_played_words,
    result_text,
    to_move_words,
)
from render.theme import RGB, Theme

__all__ = [
    "art_for",
    "clear_caches",
    "encode_png",
    "gif",
    "layout_of",
    "picture",
    "picture_png",
    "rgb_picture",
    "texts",
    "theme_of",
    "warm",
]

_ARTS: dict[str, Art[Position]] = {}
_DEFAULT = Theme()
#: the palette index no picture uses: the GIF recap's "unchanged pixel"
TRANSPARENT = 255


def register(game: str, art: Art[P]) -> None:
    """Make ``art`` draw ``game``'s positions (of the type ``art`` draws: the registry hands
    it only positions whose ``game`` is ``game``)."""
    _ARTS[game] = cast("Art[Position]", art)


def art_for(position: Position) -> Art[Position]:
    """The drawer of ``position``'s game (``ValueError`` for a game render cannot draw)."""
    art = _ARTS.get(position.game)
    if art is None:
        raise ValueError(f"render has no drawing for game {position.game!r}")
    return art


#: The static parts of each board shape, theme and language (backgrounds are ~2 MB each:
#: keep a few).
_STATIC: Lru[Hashable, _Static] = Lru(16)
#: The median cut of each palette sheet seen, by the digest of its colours (768 bytes each): a
#: board shape's static parts evicted from :data:`_STATIC` (by other shapes, languages or
#: themes) are built again without cutting the same sheet again (50 to 90 ms each).
_CUTS: Lru[Hashable, list[int]] = Lru(256)


def clear_caches(*, cuts: bool = True) -> None:
    """Forget every cached part of every picture: the static parts of each board shape, the
    pictures kept to redraw the next ones from, and every ``functools.lru_cache`` and
    byte-budgeted cache of the ``render`` modules (sprites, texts, fonts).  The next picture
    is drawn as by a fresh process (a test compares the two; the benchmark times it).

    ``cuts=False`` keeps the median cuts of the palette sheets (:data:`_CUTS`): no part of a
    picture, but a pure function's answer remembered by its whole input, the sheet's pixels;
    what is drawn afresh is still drawn, sheet included."""
    _STATIC.clear()
    if cuts:
        _CUTS.clear()
    forget()
    for name, module in list(sys.modules.items()):
        if name == "render" or name.startswith("render."):
            for value in vars(module).values():
                if isinstance(value, type):
                    continue  # a cache's class (render._budget's), not a cache
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


class _Static:
    """What is computed once per (board shape, theme): layout, background, palette (the
    palette when first asked for: a picture's texts or RGB pixels do not need it)."""

    def __init__(self, art: Art[Position], position: Position, theme: Theme) -> None:
        self.layout: Layout = art.layout(position, theme)
        big = Image.new("RGB", (theme.width * SS, theme.height * SS), theme.page)
        painter = Painter(big, SS)
        with suspended():
            paint_status_band(painter, theme)
            art.paint_background(painter, position, theme, self.layout)
            self.background: Image.Image = big.reduce(SS)
            #: the texts of the background (coordinates, legend, cell names)
            self.texts: tuple[TextMark, ...] = tuple(painter.texts)
        # What the palette is built from: the same position as the background.
        self._art, self._position, self._theme = art, position, theme

    @functools.cached_property
    def palette(self) -> Image.Image:
        """The fixed palette of the board's pictures (:func:`_build_palette`)."""
        with suspended():
            return _build_palette(self._art, self._position, self._theme, self)


def _static(position: Position, theme: Theme) -> tuple[Art[Position], _Static]:
    """The drawer and the cached static parts; ``theme`` is already :meth:`Art.theme_for`'s."""
    art = art_for(position)
    # The background carries words (legend, goals): one per language.
    key = (art.static_key(position), theme, language())
    found = _STATIC.get(key)
    if found is None:
        found = _Static(art, position, theme)
        _STATIC[key] = found
    return art, found


def theme_of(position: Position, theme: Theme | None = None) -> Theme:
    """The theme ``position``'s picture is drawn with (a crowded board's is larger)."""
    return art_for(position).theme_for(position, theme or _DEFAULT)


def layout_of(position: Position, theme: Theme | None = None) -> tuple[Art[Position], Layout]:
    """The drawer and the cell layout of ``position``'s picture: the layout alone, without the
    picture's cached fixed parts (background, palette: a fraction of a second per board shape,
    which asking where the cells are need not pay)."""
    art = art_for(position)
    return art, art.layout(position, theme_of(position, theme))


def warm(position: Position, theme: Theme | None = None) -> None:
    """Build (or find) the cached fixed parts of ``position``'s picture (its palette is
    built with the first palette picture)."""
    _static(position, theme_of(position, theme))


def _text_colour_on(fill: RGB, theme: Theme) -> RGB:
    return theme.dark_rim if luma(fill) > 140 else theme.text


def _draw_band(
    image: Canvas, art: Art[Position], position: Position, theme: Theme, scene: Scene
) -> None:
    """Whose turn and the clock on the first line, the move number, the last move and the
    game's hint on the second; or the result banner once the game is over (by the position or
    by the bot: ``scene.outcome``).  Nothing is cut: the words are few enough for one line
    each at the smallest readable size."""
    scale = theme.height / 700
    h = BAND * scale
    top, low = (y * scale for y in BAND_LINES)
    big = px(theme, theme.status_size)
    small = px(theme, theme.text_size)
    names = position.seat_sides
    sides = theme.sides(position.game)
    outcome = scene.outcome
    x0 = 18 * scale
    second: list[str] = []
    if outcome is None:
        seat = position.to_move
        colour = side_of_seat(position, seat)
        disc(theme, sides[colour], round(14 * scale)).paste(image, (x0 + 14 * scale, top))
        x = x0 + 38 * scale
        head = to_move_words(names[seat])
        text_sprite(head, big, theme.text, bold=True).paste(image, (x, top))
        x += text_width(head, big, bold=True)
        if scene.clock:
            # The clock is the mover's: next to their name, in the text colour.
            text_sprite(f"  ·  {scene.clock}", small, theme.text).paste(image, (x, top))
        second.append(move_number_words(position.ply + 1))
        ink = theme.muted
    else:
        winner = outcome.winner
        if winner is None:
            fill = blend(theme.page, theme.text, 0.35)
        else:
            fill = sides[side_of_seat(position, winner)]
        ink = _text_colour_on(fill, theme)
        image.fill(fill, (0, 0, theme.width, round(h)))
        image.fill(theme.accent, (0, round(h) - 4, theme.width, round(h)))
        head = "★ " + result_text(outcome, names)
        text_sprite(head, big, ink, bold=True).paste(image, (x0, top))
        second.append(moves_played_words(position.ply))
    if position.last_move is not None:
        second.append(last_move_words(position.last_move))
    detail = art.detail(position) if outcome is None else ""
    if detail:
        second.append(detail)
    text_sprite("  ·  ".join(second), small, ink).paste(image, (x0, low))


def _drawn(position: Position, theme: Theme, scene: Scene | None) -> tuple[Canvas, _Static]:
    """What ``position``'s picture shows over the background, and the static parts, for a
    theme already through ``theme_of``."""
    scene = scene or Scene(position.outcome)
    art, static = _static(position, theme)
    canvas = Canvas(static.background.size)
    collect(static.texts)
    art.draw(canvas, position, theme, static.layout, scene)
    _draw_band(canvas, art, position, theme, scene)
    return canvas, static


def texts(
    position: Position, theme: Theme | None = None, scene: Scene | None = None
) -> tuple[int, int]:
    """Draw ``position``'s picture as far as its texts (recorded by
    :func:`render._texts.recording`), without composing its pixels; the picture's size."""
    _, static = _drawn(position, theme_of(position, theme), scene)
    return static.background.size


def rgb_picture(
    position: Position, theme: Theme | None = None, scene: Scene | None = None
) -> Image.Image:
    """The picture of ``position`` in full RGB, before palette mapping."""
    canvas, static = _drawn(position, theme_of(position, theme), scene)
    return compose(static.background, canvas.ops)


def _indexed(position: Position, theme: Theme | None, scene: Scene | None) -> Image.Image:
    """The palette picture, as kept for the next picture of the board: not to be changed."""
    canvas, static = _drawn(position, theme_of(position, theme), scene)
    return indexed_picture(static, static.background, static.palette, canvas.ops)


def picture(
    position: Position, theme: Theme | None = None, scene: Scene | None = None
) -> Image.Image:
    """The picture of ``position`` as a palette ("P") image on the game's fixed palette."""
    return _indexed(position, theme, scene).copy()


def picture_png(
    position: Position, theme: Theme | None = None, scene: Scene | None = None
) -> bytes:
    """The PNG bytes of :func:`picture`."""
    return encode_png(_indexed(position, theme, scene))


#: a colour of the median cut closer than this (squared distance, RGB levels) to one already in
#: the palette is its near-twin and left out
_TWIN_SQUARED = 36
#: the side of the cubes the palette's colours are sorted into to find near-twins: no channel
#: of a near-twin differs by more than 6, so it lies in the same cube or a neighbouring one
_CUBE = 7


def _build_palette(
    art: Art[Position], position: Position, theme: Theme, static: _Static
) -> Image.Image:
    """A fixed 256-colour palette: the theme's flat colours exactly, plus a median cut of the
    background, every sprite the game uses and the band in all its states."""
    lay = static.layout
    sides = theme.sides(position.game)
    keys: list[RGB] = [
        theme.page, theme.text, theme.muted, theme.cell, theme.cell_alt, theme.grid,
        theme.frame, theme.border, theme.label, *sides, theme.dark_rim, theme.light_rim,
        theme.accent, theme.accent_edge, theme.alert, theme.second, theme.win,
        *art.key_colours(position, theme),
    ]  # fmt: skip
    sheet_parts: list[Image.Image] = [static.background]
    sprites = art.specimens(position, theme, lay)
    if sprites:
        size = max(max(s.image.size) for s in sprites) + 4
        cols = 12
        rows = (len(sprites) + cols - 1) // cols
        for ground in (theme.cell, theme.page):
            tile = Image.new("RGB", (cols * size, rows * size), ground)
            for i, s in enumerate(sprites):
                s.paste(tile, ((i % cols + 0.5) * size, (i // cols + 0.5) * size))
            sheet_parts.append(tile)
    sheet_parts.extend(art.specimen_images(position, theme, lay, static.background))
    sheet_parts.append(_band_specimens(art, position, theme))
    width = max(im.width for im in sheet_parts)
    height = sum(im.height for im in sheet_parts)
    sheet = Image.new("RGB", (width, height), theme.page)
    y = 0
    for im in sheet_parts:
        sheet.paste(im.convert("RGB"), (0, y))
        y += im.height
    unique = list(dict.fromkeys(keys))
    room = TRANSPARENT - len(unique)
    cut_pal = _median_cut(sheet, room)
    colours: list[RGB] = []
    # The colours kept so far by cubes of TWIN + 1 levels a side: a near-twin (within TWIN of
    # every channel) of a colour is in its cube or a cube next to it.
    cubes: dict[RGB, list[RGB]] = {}

    def keep(c: RGB) -> None:
        colours.append(c)
        cubes.setdefault((c[0] // _CUBE, c[1] // _CUBE, c[2] // _CUBE), []).append(c)

    for c in unique:
        keep(c)
    for i in range(0, min(len(cut_pal), 3 * room), 3):
        r, g, b = cut_pal[i], cut_pal[i + 1], cut_pal[i + 2]
        # A near-twin of a colour already there would only steal its flat areas.
        cr, cg, cb = r // _CUBE, g // _CUBE, b // _CUBE
        if not any(
            (r - k[0]) ** 2 + (g - k[1]) ** 2 + (b - k[2]) ** 2 <= _TWIN_SQUARED
            for x in (cr - 1, cr, cr + 1)
            for y in (cg - 1, cg, cg + 1)
            for z in (cb - 1, cb, cb + 1)
            for k in cubes.get((x, y, z), ())
        ):
            keep((r, g, b))
    colours = colours[:TRANSPARENT]
    while len(colours) < 256:
        # Pure green appears in no theme colour or blend, so nothing maps to the GIF's
        # transparent index by accident.
        colours.append((0, 255, 0))
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in colours for v in c])
    return pal


#: the median cut is made from the sheet's colours each counted this many times fewer (at
#: least once): the same palette within a fraction of a level on average, at a quarter of the
#: cost of cutting the sheet's millions of pixels (most of which is mapping each of them to the
#: palette, thrown away here)
_CUT_SCALE = 8


def _median_cut(sheet: Image.Image, room: int) -> list[int]:
    """The palette (flat RGB values) of the median cut of ``sheet``'s colours to ``room``
    colours.  A median cut reads only how many pixels have each colour, so it is made from
    a one-row picture of each colour a :data:`_CUT_SCALE` th as many times; the same colours
    are cut once (:data:`_CUTS`).

    >>> sheet = Image.new("RGB", (40, 10), (250, 250, 250))
    >>> sheet.paste((10, 20, 30), (0, 0, 10, 10))
    >>> cut = _median_cut(sheet, 2)
    >>> sorted(zip(cut[0:6:3], cut[1:6:3], cut[2:6:3]))
    [(10, 20, 30), (250, 250, 250)]
    """
    # (count, (r, g, b)) for each colour of the RGB sheet
    colours = cast(list[tuple[int, RGB]], sheet.getcolors(sheet.width * sheet.height) or [])
    key = (hashlib.blake2b(repr(colours).encode(), digest_size=16).digest(), room)
    found = _CUTS.get(key)
    if found is None:
        row = b"".join(bytes(rgb) * max(1, round(n / _CUT_SCALE)) for n, rgb in colours)
        counted = Image.frombytes("RGB", (len(row) // 3, 1), row)
        found = counted.quantize(room, method=Image.Quantize.MEDIANCUT).getpalette() or []
        _CUTS[key] = found
    return found


def _band_specimens(art: Art[Position], position: Position, theme: Theme) -> Image.Image:
    """The band in every state (each side to move, each side winning) for the palette."""
    h = round(BAND * theme.height / 700)
    strip = Image.new("RGB", (theme.width, h * 4), theme.page)
    sides = theme.sides(position.game)
    draw = ImageDraw.Draw(strip)
    big = font(px(theme, theme.status_size), bold=True)
    small = font(px(theme, theme.text_size))
    top, low = (y * theme.height / 700 for y in BAND_LINES)
    for i, fill in enumerate((*sides, blend(theme.page, theme.text, 0.07), theme.page)):
        ink = _text_colour_on(fill, theme)
        draw.rectangle((0, i * h, theme.width, (i + 1) * h), fill=fill)
        draw.text((10, i * h + top), "★ Wins to move 0123456789", font=big, fill=ink, anchor="lm")
        draw.text((10, i * h + low), "last: move 0123456789", font=small, fill=ink, anchor="lm")
        draw.text((600, i * h + low), "last: move", font=small, fill=theme.muted, anchor="lm")
        for k, side in enumerate(sides):
            disc(theme, side, round(h * 0.3)).paste(strip, (900 + 40 * k, i * h + h / 2))
    return strip


def gif(
    positions: Sequence[Position], theme: Theme | None = None, scenes: Sequence[Scene] = ()
) -> bytes:
    """An animated GIF, one frame per position, the last one held; ``scenes[i]`` (when
    given) is what frame ``i`` shows besides its position.

    Frames after the first keep only the pixels that changed; the rest are transparent, so a
    long game stays small (a few kB per frame)."""
    if not positions:
        raise ValueError("a game recap needs at least one position")
    frames: list[Image.Image] = []
    previous: Image.Image | None = None
    transparent = TRANSPARENT
    for i, position in enumerate(positions):
        frame = picture(position, theme, scenes[i] if i < len(scenes) else None)
        if previous is None or previous.size != frame.size:
            frames.append(frame)
        else:
            frames.append(_delta(previous, frame, transparent))
        previous = frame
    durations = [900] * len(frames)
    durations[-1] = 4000
    out = io.BytesIO()
    frames[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        disposal=1,
        optimize=False,
        transparency=transparent,
    )
    return out.getvalue()


def _delta(previous: Image.Image, frame: Image.Image, transparent: int) -> Image.Image:
    """``frame`` with the pixels equal to ``previous`` set to the transparent index."""
    old = Image.frombytes("L", previous.size, previous.tobytes())
    new = Image.frombytes("L", frame.size, frame.tobytes())
    diff = ImageChops.difference(old, new).point(lambda v: 255 if v else 0, mode="1")
    out = Image.new("P", frame.size, transparent)
    out.putpalette(frame.getpalette() or [])
    out.paste(frame, (0, 0), diff)
    return out
