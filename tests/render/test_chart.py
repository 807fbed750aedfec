"""The rating-over-time chart of ``stats`` (issue 18), read back pixel by pixel (never bytes)."""

from __future__ import annotations

import io
import math
from datetime import UTC, datetime, timedelta, timezone

import pytest
from PIL import Image, ImageChops

from render.chart import _date_ticks, rating_chart_image, rating_chart_png
from render.theme import RGB, Theme

THEME = Theme()
T0 = datetime(2025, 1, 6, 9, 30, tzinfo=UTC)
# The plot area of an 800x400 chart lies inside this box (left, top, right, bottom); the header
# (title, latest rating) is above it and the dates below it.
PLOT = (70, 90, 790, 358)


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def pixels_near(
    image: Image.Image, box: tuple[int, int, int, int], target: RGB, tolerance: int = 40
) -> list[tuple[int, int]]:
    """Pixels in ``box`` within ``tolerance`` (sum over channels) of ``target``."""
    left, top, right, _ = box
    crop = image.crop(box)
    # Per-channel distance with lookup tables, then summed: fast enough for whole charts.
    bands = [
        band.point([abs(v - t) for v in range(256)])
        for band, t in zip(crop.split(), target, strict=True)
    ]
    total = ImageChops.add(ImageChops.add(bands[0], bands[1]), bands[2])
    mask = total.point([255 if v <= tolerance else 0 for v in range(256)])
    width = right - left
    return [(left + i % width, top + i // width) for i, v in enumerate(mask.tobytes()) if v]


def accent_pixels(image: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, int]]:
    """Pixels in ``box`` drawn in (nearly) the accent colour: the line and its dots."""
    return pixels_near(image, box, THEME.accent)


def series(
    values: list[float], step: timedelta = timedelta(days=3)
) -> list[tuple[datetime, float]]:
    return [(T0 + i * step, v) for i, v in enumerate(values)]


@pytest.mark.parametrize("size", [(800, 400), (640, 320), (1200, 500)])
def test_png_of_the_requested_size(size: tuple[int, int]) -> None:
    image = decode(rating_chart_png(series([1500, 1520, 1490]), title="Maphex 9×9", size=size))
    assert image.size == size
    assert image.getpixel((2, 2)) == THEME.page
    assert rating_chart_image([], title="x").size == (800, 400)


@pytest.mark.parametrize(
    ("values", "rising"),
    [([1400, 1450, 1500, 1560, 1610], True), ([1650, 1600, 1540, 1510, 1470], False)],
)
def test_the_line_is_drawn_in_the_plot_area_and_follows_the_ratings(
    values: list[float], rising: bool
) -> None:
    image = decode(rating_chart_png(series(values), title="Pathagon"))
    line = accent_pixels(image, PLOT)
    assert len(line) > 500  # a 3 px line over ~700 px, not a stray dot
    xs = [x for x, _ in line]
    assert max(xs) - min(xs) > 600  # spans the plot's width
    left_y = min(y for x, y in line if x < min(xs) + 15)
    right_y = min(y for x, y in line if x > max(xs) - 15)
    # Screen y grows downwards: a rising rating ends higher up.
    assert (right_y < left_y - 100) if rising else (right_y > left_y + 100)
    # The latest rating is written in the header, in the accent colour, on the right.
    assert accent_pixels(image, (650, 10, 790, 50))


def test_no_points_says_so_and_draws_no_line() -> None:
    image = decode(rating_chart_png([], title="Lines of Fixation"))
    assert accent_pixels(image, (0, 0, 800, 400)) == []
    title = pixels_near(image, (20, 15, 300, 50), THEME.text)
    message = pixels_near(image, (250, 200, 550, 240), THEME.muted)
    assert title and message


def test_one_point_is_one_dot_in_the_middle() -> None:
    image = decode(rating_chart_png([(T0, 1523.0)], title="inpHeXion"))
    dot = accent_pixels(image, PLOT)
    assert dot
    xs = [x for x, _ in dot]
    ys = [y for _, y in dot]
    assert max(xs) - min(xs) < 25 and max(ys) - min(ys) < 25
    assert abs((min(xs) + max(xs)) / 2 - (PLOT[0] + PLOT[2]) / 2) < 40


def test_bad_points_are_left_out_and_mixed_time_zones_are_accepted() -> None:
    naive = datetime(2025, 1, 7, 9, 30)
    plus5 = (T0 + timedelta(days=2)).astimezone(timezone(timedelta(hours=5)))
    points = [(T0, math.nan), (naive, 1500.0), (T0, math.inf), (plus5, 1540.0)]
    image = decode(rating_chart_png(points, title="Maphex 16×16"))
    assert len(accent_pixels(image, PLOT)) > 300
    only_bad = decode(rating_chart_png([(T0, math.nan)], title="Pathagon"))
    assert accent_pixels(only_bad, PLOT) == []


def test_flat_and_long_series_draw() -> None:
    flat = decode(rating_chart_png(series([1500.0] * 12), title="Pathagon"))
    line = accent_pixels(flat, PLOT)
    ys = [y for _, y in line]
    assert max(ys) - min(ys) < 20  # a level line, drawn mid-height rather than on an edge
    assert PLOT[1] + 40 < sum(ys) / len(ys) < PLOT[3] - 40
    values = [1500 + 150 * math.sin(i / 50) for i in range(3000)]
    long = decode(rating_chart_png(series(values, timedelta(hours=9)), title="Maphex 9×9"))
    assert len(accent_pixels(long, PLOT)) > 2000


def test_the_theme_colours_are_used() -> None:
    theme = Theme(page=(250, 250, 250), text=(10, 10, 10), accent=(200, 0, 0))
    image = decode(rating_chart_png(series([1500, 1600]), title="Pathagon", theme=theme))
    assert image.getpixel((2, 2)) == theme.page
    assert len(pixels_near(image, PLOT, theme.accent)) > 300


@pytest.mark.parametrize(
    ("span", "kind"),
    [
        (timedelta(minutes=20), ":"),
        (timedelta(hours=7), ":"),
        (timedelta(days=1, hours=20), ":"),
        (timedelta(days=5), "day"),
        (timedelta(days=40), "day"),
        (timedelta(days=150), "month"),
        (timedelta(days=900), "month"),
        (timedelta(days=4000), "year"),
        (timedelta(days=36500), "year"),
    ],
)
def test_date_labels_are_few_round_and_in_range(span: timedelta, kind: str) -> None:
    start, end = T0, T0 + span
    ticks = _date_ticks(start, end)
    assert 2 <= len(ticks) <= 6
    assert all(start <= t.at <= end for t in ticks)
    assert [t.at for t in ticks] == sorted({t.at for t in ticks})
    labels = [t.label for t in ticks]
    assert len(set(labels)) == len(labels)
    if kind == ":":
        assert all(":" in label for label in labels)
    elif kind == "day":
        assert all(t.at.hour == 0 and ":" not in t.label for t in ticks)
    elif kind == "month":
        assert all(t.at.day == 1 and t.label.split()[0] in t.label for t in ticks)
        assert all(len(t.label.split()) == 2 for t in ticks)
    else:
        assert all(t.label.isdigit() and t.at.month == 1 and t.at.day == 1 for t in ticks)
