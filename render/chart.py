"""The rating-over-time picture of the ``stats`` command: a small line chart, pure Pillow.

It uses the board pictures' theme colours and bundled font, and is drawn at twice its size and
scaled down, so the line and the text are smooth on a phone.

>>> from datetime import UTC, datetime
>>> day = datetime(2025, 3, 1, tzinfo=UTC)
>>> png = rating_chart_png([(day, 1500.0), (day.replace(day=9), 1540.0)], title="Maphex 9×9")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> rating_chart_image([], title="Pathagon").size
(800, 400)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

from PIL import Image, ImageDraw

from bot.core.i18n import day, moment
from render._glyphs import ellipsis_after, line
from render._pipeline import encode_png
from render._words import fill, gettext, ngettext, number
from render.theme import RGB, Theme

__all__ = ["CHART_SIZE", "rating_chart_image", "rating_chart_png"]

#: Default picture size: wide and short, so a phone shows it whole at full width.
CHART_SIZE = (800, 400)

# Drawn at this multiple of the final size and scaled down: Pillow's lines and dots are not
# anti-aliased, and the downscale smooths them.
_SUPERSAMPLE = 2
# Points are marked with dots up to this many; past it the dots would merge into the line.
_MAX_DOTS = 40
# At most this many date labels under the chart (each needs ~100 px at 800 wide).
_MAX_DATE_TICKS = 6


def rating_chart_png(
    points: Sequence[tuple[datetime, float]],
    *,
    title: str,
    theme: Theme | None = None,
    size: tuple[int, int] = CHART_SIZE,
) -> bytes:
    """PNG bytes of :func:`rating_chart_image`, ready to post."""
    return encode_png(rating_chart_image(points, title=title, theme=theme, size=size))


def rating_chart_image(
    points: Sequence[tuple[datetime, float]],
    *,
    title: str,
    theme: Theme | None = None,
    size: tuple[int, int] = CHART_SIZE,
) -> Image.Image:
    """A line chart of ``points`` (time, rating), oldest to newest, as an RGB image of ``size``.

    The header shows ``title`` and the latest rating; the rating axis has round numbers and the
    time axis dates, in the time zone of the first point (naive times are taken as UTC).
    Points that are not finite are left out; with no points the chart says so, and one point
    is drawn as a single dot.
    """
    theme = theme or Theme()
    width, height = max(200, int(size[0])), max(120, int(size[1]))
    clean = _clean(points)
    ss = _SUPERSAMPLE
    image = Image.new("RGB", (width * ss, height * ss), theme.page)
    _Canvas(image, theme, scale=ss * min(width / CHART_SIZE[0], height / CHART_SIZE[1])).draw(
        clean, title
    )
    # A box filter over each 2x2 block: exact for a whole-number supersample, and fast.
    return image.reduce(ss)


def _clean(points: Sequence[tuple[datetime, float]]) -> list[tuple[datetime, float]]:
    """The finite points, all in the first point's time zone, in time order."""
    out: list[tuple[datetime, float]] = []
    zone: tzinfo | None = None
    for when, value in points:
        if not isinstance(when, datetime) or not isinstance(value, int | float):
            continue
        if not math.isfinite(value):
            continue
        if when.tzinfo is None or when.utcoffset() is None:
            when = when.replace(tzinfo=UTC)
        zone = zone or when.tzinfo
        out.append((when.astimezone(zone), float(value)))
    # A stable sort: equal times keep the caller's order (several games ending together).
    out.sort(key=lambda point: point[0])
    return out


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _nice_step(span: float, ticks: int) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` steps over
    ``span``."""
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return float(factor * power)
    return float(10 * power)


@dataclass(frozen=True)
class _Tick:
    at: datetime
    label: str


def _date_ticks(start: datetime, end: datetime) -> list[_Tick]:
    """Round dates between ``start`` and ``end`` (hours, days, months or years: the finest step
    giving at most :data:`_MAX_DATE_TICKS`), labelled as briefly as that step allows.  When no
    round date falls inside, or only one does, the two ends are labelled instead."""
    ticks: list[datetime] = []
    # Over two days or more, dates read better than times even when times would fit.
    for hours in (1, 2, 3, 6, 12) if end - start < timedelta(days=2) else ():
        first = start.replace(hour=start.hour - start.hour % hours, minute=0, second=0)
        ticks = _stepped(first.replace(microsecond=0), start, end, timedelta(hours=hours))
        if len(ticks) <= _MAX_DATE_TICKS:
            return _labelled(ticks, start, end, _hour_label)
    for days in (1, 2, 7, 14):
        first = start.replace(hour=0, minute=0, second=0, microsecond=0)
        ticks = _stepped(first, start, end, timedelta(days=days))
        if len(ticks) <= _MAX_DATE_TICKS:
            return _labelled(ticks, start, end, _day_label)
    for months in (1, 2, 3, 6, 12, 24, 60, 120, 600):
        ticks = []
        index = start.year * 12 + start.month - 1  # the month containing start
        while len(ticks) <= _MAX_DATE_TICKS:
            year, month = divmod(index, 12)
            if year > end.year:
                break
            at = datetime(year, month + 1, 1, tzinfo=start.tzinfo)
            if at > end:
                break
            if at >= start and index % months == 0:
                ticks.append(at)
            index += 1
        if len(ticks) <= _MAX_DATE_TICKS:
            return _labelled(ticks, start, end, _month_label if months < 12 else _year_label)
    return _labelled([], start, end, _year_label)


# The labels are dates in the reader's language (``Mar 9``, ``9. März``, ``3月9日``).


def _hour_label(t: datetime) -> str:
    return moment(t, "MMMd")


def _day_label(t: datetime) -> str:
    return day(t, "MMMd")


def _month_label(t: datetime) -> str:
    return day(t, "yMMM")


def _year_label(t: datetime) -> str:
    return day(t, "y")


def _full_label(t: datetime) -> str:
    return day(t, "yMMMd")


def _labelled(
    ticks: list[datetime], start: datetime, end: datetime, label: Callable[[datetime], str]
) -> list[_Tick]:
    """``ticks`` with their labels; fewer than two round dates: the two ends, dated fully."""
    if len(ticks) >= 2:
        return [_Tick(t, label(t)) for t in ticks]
    if label is _hour_label:
        return [_Tick(start, _hour_label(start)), _Tick(end, _hour_label(end))]
    return [_Tick(start, _full_label(start)), _Tick(end, _full_label(end))]


def _stepped(first: datetime, start: datetime, end: datetime, step: timedelta) -> list[datetime]:
    """Times from ``first`` by ``step`` up to ``end`` that are at or after ``start`` (stops
    once there are more than :data:`_MAX_DATE_TICKS`)."""
    ticks: list[datetime] = []
    at = first
    while at <= end and len(ticks) <= _MAX_DATE_TICKS:
        if at >= start:
            ticks.append(at)
        at += step
    return ticks


def _fit(text: str, size: int, bold: bool, room: float) -> str:
    """``text`` cut with an ellipsis to fit ``room`` pixels (a long player name in a title)."""
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    if line(text, size, bold).width <= room:
        return text
    while text and line(ellipsis_after(text), size, bold).width > room:
        text = text[:-1]
    return ellipsis_after(text.rstrip())


class _Canvas:
    """One chart being drawn on a supersampled image; ``scale`` is pixels per design pixel
    (the design is 800x400)."""

    def __init__(self, image: Image.Image, theme: Theme, scale: float) -> None:
        self.image = image
        self.draw_ = ImageDraw.Draw(image)
        self.theme = theme
        self.k = scale
        self.w, self.h = image.size

    def px(self, design: float) -> int:
        return round(design * self.k)

    def draw(self, points: list[tuple[datetime, float]], title: str) -> None:
        theme, d = self.theme, self.draw_
        margin = self.px(24)
        head, small = self.px(26), self.px(16)
        latest = f"{points[-1][1]:.0f}" if points else ""
        room = self.w - 2 * margin - line(latest, head, True).width - self.px(24)
        title = _fit(title, head, True, room)
        line(title, head, True).draw(d, (margin, self.px(18)), theme.text)
        if not points:
            empty = line(gettext("No rated games yet"), self.px(22))
            empty.draw(d, (self.w / 2, self.h / 2 + self.px(20)), theme.muted, "mm")
            return
        values = [v for _, v in points]
        line(latest, head, True).draw(d, (self.w - margin, self.px(18)), theme.accent, "ra")
        count = len(points)
        games = fill(ngettext("{count} game", "{count} games", count), {"count": number(count)})
        high = fill(gettext("high {rating}"), {"rating": f"{max(values):.0f}"})
        low = fill(gettext("low {rating}"), {"rating": f"{min(values):.0f}"})
        summary = f"{games}  ·  {high}  ·  {low}"
        line(summary, small).draw(d, (margin, self.px(54)), theme.muted)

        # Rating axis: round numbers around the values, never a zero-height range.
        lo, hi = min(values), max(values)
        span = max(hi - lo, 40.0)
        mid = (lo + hi) / 2
        lo, hi = mid - span * 0.58, mid + span * 0.58
        step = _nice_step(hi - lo, 4)
        y0, y1 = math.floor(lo / step) * step, math.ceil(hi / step) * step
        labels = [y0 + i * step for i in range(round((y1 - y0) / step) + 1)]
        label_w = max(line(f"{v:.0f}", small).width for v in labels)
        left = margin + label_w + self.px(12)
        right = self.w - margin
        top, bottom = self.px(92), self.h - self.px(44)

        def y_of(value: float) -> float:
            return bottom - (value - y0) / (y1 - y0) * (bottom - top)

        grid = _mix(theme.page, theme.muted, 0.22)
        for value in labels:
            y = y_of(value)
            d.line([(left, y), (right, y)], fill=grid, width=max(1, self.px(1)))
            line(f"{value:.0f}", small).draw(d, (left - self.px(10), y), theme.muted, "rm")

        # Time axis: the first and last game at the ends (one game: in the middle).
        t0, t1 = points[0][0], points[-1][0]
        inset = self.px(14)
        if t1 == t0:

            def x_of(when: datetime) -> float:
                return (left + right) / 2

            ticks = [_Tick(t0, _full_label(t0))]
        else:
            total = (t1 - t0).total_seconds()

            def x_of(when: datetime) -> float:
                frac = (when - t0).total_seconds() / total
                return left + inset + frac * (right - left - 2 * inset)

            ticks = _date_ticks(t0, t1)
        for tick in ticks:
            x = x_of(tick.at)
            d.line([(x, bottom), (x, bottom + self.px(6))], fill=theme.muted, width=self.px(1))
            # The label stays inside the picture even under a tick at the very edge.
            label = line(tick.label, small)
            half = label.width / 2 + self.px(4)
            centre = min(max(x, half), self.w - half)
            label.draw(d, (centre, bottom + self.px(10)), theme.muted, "ma")
        d.line([(left, bottom), (right, bottom)], fill=theme.muted, width=max(1, self.px(1)))

        xy = [(x_of(t), y_of(v)) for t, v in points]
        self._area(xy, bottom)
        if len(xy) > 1:
            d.line(xy, fill=theme.accent, width=self.px(3), joint="curve")
        if len(xy) <= _MAX_DOTS:
            r = self.px(4)
            for x, y in xy:
                d.ellipse([x - r, y - r, x + r, y + r], fill=theme.accent)
        # The latest rating: a larger dot with a ring of the page colour, as on the boards.
        x, y = xy[-1]
        r = self.px(7)
        d.ellipse(
            [x - r, y - r, x + r, y + r], fill=theme.accent, outline=theme.page, width=self.px(2)
        )

    def _area(self, xy: list[tuple[float, float]], bottom: float) -> None:
        """A faint fill under the line, so its shape reads at a glance."""
        if len(xy) < 2:
            return
        shade = _mix(self.theme.page, self.theme.accent, 0.12)
        polygon = [(xy[0][0], bottom), *xy, (xy[-1][0], bottom)]
        self.draw_.polygon(polygon, fill=shade)
