"""A picture drawn from warm caches is the picture a fresh process draws, and the PNG written by
``render/_png.py`` holds exactly the picture's pixels and palette.

The caches (the static parts of each board shape, every sprite, text and font) are bounded and
keyed on what they depend on; these tests would see a board drawn with a part of another board,
theme or position.  They compare pixels and palettes (and PNG bytes, which follow from them),
never timings: speed is measured in ``benchmarks/render.py``.
"""

from __future__ import annotations

import functools
import io
import zlib
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from PIL import Image

import engines
import render
from engines import Outcome, Position
from render import _canvas, _frames, _pipeline, _png
from render.chart import rating_chart_image
from render.theme import Theme
from tests.engines.properties import random_game

SMALL = Theme(width=500, height=350)
#: every size and option the bot offers that changes the board's shape
OPTIONS: dict[str, tuple[dict[str, Any], ...]] = {
    "maphex": ({}, {"size": 16}),
    "inphexion": ({"size": 5}, {}),
    "pathagon": ({},),
    "fixation": ({},),
    "isopath": ({}, {"size": 5}),
}
NAMES = ("Ada", "Grace")


@functools.cache
def _cases() -> list[tuple[Position, Theme | None, dict[str, Any]]]:
    """Positions of every game and size: the start, a mid-game ply with names and a clock, one
    in the small theme with a result the bot decided, and the end; games interleaved so each
    picture follows a picture of another board.  Played once for the module (the games are
    the same every time: seeded), read and never changed by the tests."""
    per_game: list[list[tuple[Position, Theme | None, dict[str, Any]]]] = []
    for game, option_sets in OPTIONS.items():
        for options in option_sets:
            plies = random_game(game, options, 7, max_plies=300)
            third = len(plies) // 3
            per_game.append(
                [
                    (plies[0], None, {}),
                    (plies[third], None, {"players": NAMES, "clock": "2 days 4 h left"}),
                    (plies[2 * third], SMALL, {"outcome": Outcome(1, "resignation")}),
                    (plies[-1], None, {"players": NAMES}),
                ]
            )
    return [case for row in zip(*per_game, strict=True) for case in row]


@functools.cache
def _warm() -> tuple[bytes, ...]:
    """The PNG of every case drawn one after another from cleared caches (then warm), made
    once per process and never changed."""
    _pipeline.clear_caches()
    return tuple(render.board_png(p, theme=theme, **kw) for p, theme, kw in _cases())


def test_a_cached_picture_is_drawn_again_alike() -> None:
    """Every picture drawn one after another from cleared caches, and again (caches warm), is
    byte for byte the picture drawn before.  (The first drawing is ``_warm``'s, made here
    afresh and kept for the tests below, which need the same pictures.)"""
    _warm.cache_clear()
    warm = _warm()
    assert tuple(render.board_png(p, theme=theme, **kw) for p, theme, kw in _cases()) == warm


@pytest.mark.parametrize("game", list(OPTIONS))
def test_a_cached_picture_is_the_fresh_picture(game: str) -> None:
    """Every picture of ``game`` drawn among the others (caches warm) equals byte for byte the
    same picture drawn after every cache was cleared (one test per game, so the workers share
    the redrawing).  Each sheet's median cut is kept, being no part of a picture: the sheet is
    drawn afresh and cut once (the test below)."""
    for (position, theme, kw), picture in zip(_cases(), _warm(), strict=True):
        if position.game != game:
            continue
        _pipeline.clear_caches(cuts=False)
        fresh = render.board_png(position, theme=theme, **kw)
        assert fresh == picture, f"{position.game} ply {position.ply} {kw}"


def test_evicted_static_parts_are_built_again_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for two board shapes only, drawing three boards in turn evicts and rebuilds
    the static parts at every picture: the cache stays at two, and every picture is the one
    drawn before.  (Every board's static parts built afresh alike: the tests above.)"""
    monkeypatch.setattr(_pipeline._STATIC, "size", 2)
    boards = ("fixation", "isopath")  # three shapes: Iso-Path comes in two sizes
    cases = [case for case in _cases() if case[1] is None and case[0].game in boards][:6]
    assert len({_pipeline.art_for(p).static_key(p) for p, _, _ in cases}) == 3
    first = [render.board_png(p, theme=theme, **kw) for p, theme, kw in cases]
    assert len(_pipeline._STATIC) <= 2
    assert [render.board_png(p, theme=theme, **kw) for p, theme, kw in cases] == first


def _whole(position: Position, **kw: Any) -> bytes:
    """The PNG of ``position`` drawn whole: no kept picture of any board to start from."""
    _frames.forget()
    return render.board_png(position, **kw)


@pytest.mark.parametrize(
    ("game", "options"),
    [(game, options) for game, option_sets in OPTIONS.items() for options in option_sets],
    ids=lambda v: v if isinstance(v, str) else "-".join(map(str, v.values())),
)
def test_every_move_redrawn_from_the_last_picture_is_the_whole_picture(
    game: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two games of one board shown move by move in turn (each picture redrawn from a kept
    one where it changed), with names, a clock at times, and the bot's result at the end:
    every picture equals byte for byte the picture drawn whole.  Most are redrawn, not drawn
    whole (counted), so the test sees the redrawing."""
    first = random_game(game, options, 11, max_plies=70)
    second = random_game(game, options, 12, max_plies=70)
    shown: list[tuple[Position, dict[str, Any]]] = []
    for ply in range(max(len(first), len(second))):
        for plies, names in ((first, NAMES), (second, NAMES[::-1])):
            if ply < len(plies):
                clock = {"clock": f"{ply} h left"} if ply % 3 else {}
                shown.append((plies[ply], {"players": names, **clock}))
    shown.append((first[len(first) // 2], {"outcome": Outcome(0, "time"), "players": NAMES}))
    shown.append((first[len(first) // 2], {"players": NAMES}))
    _whole(first[0])
    calls = []
    real = _frames._redrawn

    def counted(*args: Any) -> Image.Image:
        calls.append(args[3])
        return real(*args)

    monkeypatch.setattr(_frames, "_redrawn", counted)
    redrawn = [render.board_png(position, **kw) for position, kw in shown]
    assert len(calls) > len(shown) * 0.8, (len(calls), len(shown))
    monkeypatch.undo()
    for (position, kw), png in zip(shown, redrawn, strict=True):
        assert png == _whole(position, **kw), f"{game} ply {position.ply} {kw}"


def test_pictures_drawn_in_threads_at_once_are_the_whole_pictures() -> None:
    """The web board draws pictures in worker threads: four threads drawing the moves of
    four games of one board at once each get the picture drawn whole."""
    games = [random_game("fixation", {}, seed, max_plies=40) for seed in range(4)]
    with ThreadPoolExecutor(4) as pool:
        drawn = list(pool.map(lambda plies: [render.board_png(p) for p in plies], games))
    for plies, pngs in zip(games, drawn, strict=True):
        for position, png in zip(plies, pngs, strict=True):
            assert png == _whole(position), f"ply {position.ply}"


def test_a_kept_picture_is_not_changed_by_its_caller() -> None:
    """``board_image`` hands out a copy: drawing on it leaves the kept picture (and so the
    next picture) as it was."""
    plies = random_game("pathagon", {}, 5, max_plies=20)
    image = render.board_image(plies[10])
    image.paste(7, (0, 0, image.width, image.height))
    assert render.board_png(plies[11]) == _whole(plies[11])


def test_the_kept_pictures_are_bounded() -> None:
    """However many boards are drawn, at most ``KEPT`` pictures are kept; several games of one
    board shown in turn each start from their own last picture."""
    games = [random_game("maphex", {}, seed, max_plies=30) for seed in range(4)]
    for ply in range(1, 30):
        for plies in games:
            if ply < len(plies):
                render.board_png(plies[ply])
                assert len(_frames._KEPT) <= _frames.KEPT
    for game in OPTIONS:
        render.board_png(engines.new(game))
    assert len(_frames._KEPT) == _frames.KEPT


def test_clearing_the_caches_empties_them() -> None:
    """``clear_caches`` leaves no static part and no sprite behind (a fresh render above is
    fresh)."""
    render.board_png(engines.new("pathagon").play("a2"))
    from render import _core

    assert _core.disc.cache_info().currsize > 0 and len(_pipeline._STATIC)
    _pipeline.clear_caches()
    assert _core.disc.cache_info().currsize == 0 and _core.text_sprite.cache_info().currsize == 0
    assert not len(_pipeline._STATIC) and not _frames._KEPT


def test_a_sheet_is_cut_once_and_its_cut_is_the_fresh_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """The palette built again after the static parts are gone reads the sheet's remembered
    median cut, which is the palette a fresh process builds; ``clear_caches()`` forgets it."""
    cuts: list[int] = []
    quantize = Image.Image.quantize

    def counted(image: Image.Image, *args: Any, **kwargs: Any) -> Image.Image:
        if kwargs.get("method") == Image.Quantize.MEDIANCUT:
            cuts.append(1)
        return quantize(image, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "quantize", counted)
    position = engines.new("fixation").play("a2-a4")

    def palette() -> list[int] | None:
        return _pipeline._static(position, _pipeline.theme_of(position))[1].palette.getpalette()

    _pipeline.clear_caches()
    fresh = palette()
    assert len(cuts) == 1
    _pipeline.clear_caches(cuts=False)
    assert palette() == fresh and len(cuts) == 1
    _pipeline.clear_caches()
    assert palette() == fresh and len(cuts) == 2


def _decoded(png: bytes) -> Image.Image:
    Image.open(io.BytesIO(png)).verify()  # the chunks' CRCs and structure
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("game", list(OPTIONS))
def test_the_png_holds_the_pictures_pixels_and_palette(game: str) -> None:
    """The PNG of a mid-game picture decodes to the palette picture itself: same size, same
    index at every pixel, same 256 colours; and to what Pillow's own encoder writes."""
    plies = random_game(game, {}, 3, max_plies=300)
    picture = render.board_image(plies[len(plies) // 2], players=NAMES)
    ours = _decoded(_png.encode_png(picture))
    pillow = _decoded(_png.pillow_png(picture))
    assert ours.mode == "P" and ours.size == picture.size
    assert ours.tobytes() == picture.tobytes() == pillow.tobytes()
    assert ours.getpalette() == picture.getpalette() == pillow.getpalette()


def test_odd_pictures_and_short_palettes() -> None:
    """A one-pixel picture, an odd width and a palette of two colours all come back exactly;
    indexed_png refuses a picture that is not a palette one."""
    for size in ((1, 1), (7, 3), (3, 11)):
        image = Image.new("P", size, 0)
        image.putpalette([10, 20, 30, 200, 100, 0])
        image.putpixel((size[0] - 1, size[1] - 1), 1)
        back = _decoded(_png.indexed_png(image))
        assert back.size == size and back.tobytes() == image.tobytes()
        assert back.convert("RGB").getpixel((size[0] - 1, size[1] - 1)) == (200, 100, 0)
        if size != (1, 1):
            assert back.convert("RGB").getpixel((0, 0)) == (10, 20, 30)
    with pytest.raises(ValueError, match="indexed_png needs a palette picture, not mode 'RGB'"):
        _png.indexed_png(Image.new("RGB", (2, 2)))


def test_the_chunks_are_those_of_a_palette_png() -> None:
    """Signature, IHDR (8-bit indexed colour, no interlace), a 256-entry PLTE, one IDAT whose
    rows each start with filter type 0, IEND; every CRC right."""
    picture = render.board_image(engines.new("maphex").play("5"))
    png = _png.encode_png(picture)
    assert png[:8] == _png.SIGNATURE
    chunks = []
    at = 8
    while at < len(png):
        length = int.from_bytes(png[at : at + 4], "big")
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        crc = int.from_bytes(png[at + 8 + length : at + 12 + length], "big")
        assert crc == zlib.crc32(kind + data)
        chunks.append((kind, data))
        at += 12 + length
    assert [kind for kind, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    width, height = picture.size
    ihdr = chunks[0][1]
    assert ihdr == width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 3, 0, 0, 0])
    assert len(chunks[1][1]) == 768
    rows = zlib.decompress(chunks[2][1])
    assert len(rows) == (width + 1) * height
    assert {rows[i * (width + 1)] for i in range(height)} == {0}


def test_other_pictures_go_through_pillow() -> None:
    """An RGB picture (the rating chart) and a palette picture with a transparent index are
    written by Pillow, and come back as they were."""
    day = datetime(2026, 1, 1, tzinfo=UTC)
    points = [
        (day + timedelta(days=k), rating) for k, rating in enumerate((1500.0, 1520.0, 1490.0))
    ]
    chart = rating_chart_image(points, title="Ada")
    back = _decoded(_png.encode_png(chart))
    assert back.convert("RGB").tobytes() == chart.convert("RGB").tobytes()
    clear = Image.new("P", (4, 4), 1)
    clear.putpalette([0, 0, 0, 255, 255, 255])
    clear.info["transparency"] = 0
    back = _decoded(_png.encode_png(clear))
    assert back.info.get("transparency") == 0 and back.tobytes() == clear.tobytes()


def test_changed_boxes_of_two_lists_of_ops() -> None:
    """Unit cases of ``changed_boxes``: a sprite gone and another added mark their two boxes
    (overlapping boxes merged into one); ops common to both drawn in another order, or an op
    drawn twice now, are seen."""
    red = Image.new("RGBA", (10, 10), (255, 0, 0, 128))
    blue = Image.new("RGBA", (10, 10), (0, 0, 255, 128))
    size = (100, 100)

    def frame(ops: list[_canvas.Op]) -> _frames.Frame:
        return _frames.Frame(None, tuple(ops), tuple(_frames._key(op) for op in ops), red)

    def boxes(old: list[_canvas.Op], new: list[_canvas.Op]) -> list[_frames.Box] | None:
        keys = [_frames._key(op) for op in new]
        return _frames.changed_boxes(frame(old), keys, new, size)

    a: _canvas.Op = (red, (0, 0, 10, 10))
    b: _canvas.Op = (blue, (50, 50, 60, 60))
    c: _canvas.Op = (blue, (55, 55, 65, 65))
    band: _canvas.Op = ((1, 2, 3), (0, 90, 100, 110))
    assert boxes([a, b], [a, b]) == []
    assert boxes([a, b], [a]) == [(50, 50, 60, 60)]
    assert boxes([a, b], [a, c]) == [(50, 50, 65, 65)]
    assert boxes([a], [a, band]) == [(0, 90, 100, 100)]  # cut at the picture's edge
    assert boxes([a, b], [b, a]) is None
    assert boxes([a, b], [a, b, a]) == [(0, 0, 10, 10)]
    assert boxes([a, b, a], [b, a, a]) is None


def test_without_isal_pillow_writes_the_same_pixels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the ``isal`` package is missing, boards are written by Pillow (and
    ``indexed_png`` deflates with zlib): the pixels are the same."""
    plies = random_game("isopath", {}, 2, max_plies=30)
    picture = render.board_image(plies[-1])
    with_isal = _decoded(_png.encode_png(picture)).tobytes()
    monkeypatch.setattr(_png, "_deflate", None)
    assert _decoded(_png.encode_png(picture)).tobytes() == with_isal == picture.tobytes()
    assert _decoded(_png.indexed_png(picture)).tobytes() == with_isal
