"""The standings table of a tournament as a picture: pure Pillow, in the board pictures'
theme colours and bundled font.

It is 800 pixels wide with 26-pixel text (as the rating chart), so a phone shows it whole at
full width and the names stay readable; each group of a tournament is a block of its own.
Withdrawn players are greyed and marked in words, never by colour alone.

>>> row = StandingsRow(1, "Ada", 2, 2, 0, 0, "2", "1")
>>> standings_image("Tournament 1: Maphex 9×9", [("", (row,))]).size
(800, 194)
>>> standings_png("T", [("", ())])[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render._glyphs import ellipsis_after, line
from render._pipeline import encode_png
from render._words import N_, fill, gettext
from render.theme import Theme

__all__ = [
    "SMALLEST",
    "WIDTH",
    "StandingsRow",
    "standings_image",
    "standings_png",
    "standings_texts",
]

#: The picture's width in pixels.
WIDTH = 800
#: The smallest text, in pixels: shown 330 dp wide on a phone (Telegram) it is 9 dp, and 11 px
#: at Discord's 400 px, the sizes the board pictures keep to (tests/render/test_phone.py).
SMALLEST = 22
_ROW = 44
_TEXT = 26
_HEAD = 70
_PAD = 24
_NAME_ROOM = 310
# Column (right edge, label) after the name: games played, won, drawn, lost, points and
# Sonneborn-Berger; the labels are said in the reader's language (short: the columns are narrow).
_COLUMNS = (
    (430, N_("P")),
    (490, N_("W")),
    (545, N_("D")),
    (600, N_("L")),
    (680, N_("Pts")),
    (776, N_("SB")),
)


@dataclass(frozen=True)
class StandingsRow:
    """One line of the table: place, name, games played, won, drawn, lost, points and
    Sonneborn–Berger as written (``2½``), and whether the player withdrew."""

    place: int
    name: str
    played: int
    wins: int
    draws: int
    losses: int
    points: str
    tie_break: str
    withdrawn: bool = False


#: One text drawn: the text, its font size in pixels, its ink box (x0, y0, x1, y1).
Drawn = tuple[str, int, tuple[int, int, int, int]]


class _Pen:
    """Draws texts and keeps each one's size and box (what :func:`standings_texts` tells)."""

    def __init__(self, draw: ImageDraw.ImageDraw) -> None:
        self.draw = draw
        self.drawn: list[Drawn] = []

    def text(
        self,
        at: tuple[int, int],
        text: str,
        colour: tuple[int, int, int],
        size: int,
        bold: bool = False,
        anchor: str = "la",
    ) -> None:
        laid = line(text, size, bold)
        laid.draw(self.draw, at, colour, anchor)
        box = laid.bbox(at, anchor)
        self.drawn.append((text, size, (int(box[0]), int(box[1]), int(box[2]), int(box[3]))))


def standings_png(
    title: str,
    groups: Sequence[tuple[str, Sequence[StandingsRow]]],
    note: str = "",
    theme: Theme | None = None,
) -> bytes:
    """PNG bytes of :func:`standings_image`, ready to post."""
    return encode_png(standings_image(title, groups, note, theme))


def _fit(text: str, size: int, room: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to fit ``room`` pixels."""
    if line(text, size, bold).width <= room:
        return text
    while text and line(ellipsis_after(text.rstrip()), size, bold).width > room:
        text = text[:-1]
    return ellipsis_after(text.rstrip())


def standings_image(
    title: str,
    groups: Sequence[tuple[str, Sequence[StandingsRow]]],
    note: str = "",
    theme: Theme | None = None,
) -> Image.Image:
    """The table of each group (a heading, when it has one, then a row per player, best
    first) under ``title`` and ``note`` (how many games are played)."""
    return _paint(title, groups, note, theme)[0]


def standings_texts(
    title: str, groups: Sequence[tuple[str, Sequence[StandingsRow]]], note: str = ""
) -> tuple[tuple[int, int], list[Drawn]]:
    """The picture's size and every text :func:`standings_image` draws, with its font size
    and ink box (for checking that each is readable and inside the picture)."""
    image, drawn = _paint(title, groups, note, None)
    return image.size, drawn


def _paint(
    title: str,
    groups: Sequence[tuple[str, Sequence[StandingsRow]]],
    note: str,
    theme: Theme | None,
) -> tuple[Image.Image, list[Drawn]]:
    theme = theme or Theme()
    height = _HEAD + _PAD
    for heading, rows in groups:
        height += (_ROW if heading else 0) + _ROW * (1 + len(rows)) + _PAD // 2
    image = Image.new("RGB", (WIDTH, height), theme.page)
    draw = ImageDraw.Draw(image)
    pen = _Pen(draw)
    pen.text((_PAD, 12), _fit(title, 30, WIDTH - 2 * _PAD, True), theme.text, 30, True)
    if note:
        pen.text((_PAD, 50), note, theme.muted, SMALLEST)
    y = _HEAD + _PAD // 2
    stripe = (
        min(255, theme.page[0] + 12),
        min(255, theme.page[1] + 12),
        min(255, theme.page[2] + 12),
    )
    for heading, rows in groups:
        if heading:
            pen.text((_PAD, y + 8), heading, theme.text, _TEXT, True)
            y += _ROW
        pen.text((_PAD, y + 12), "#", theme.muted, SMALLEST, True)
        pen.text((_PAD + 50, y + 12), gettext("Player"), theme.muted, SMALLEST, True)
        for right, label in _COLUMNS:
            pen.text((right, y + 12), gettext(label), theme.muted, SMALLEST, True, anchor="ra")
        draw.line((_PAD, y + _ROW - 2, WIDTH - _PAD, y + _ROW - 2), theme.muted, 1)
        y += _ROW
        for index, row in enumerate(rows):
            if index % 2:
                draw.rectangle((_PAD // 2, y, WIDTH - _PAD // 2, y + _ROW - 1), stripe)
            colour = theme.muted if row.withdrawn else theme.text
            bold = row.place == 1 and not row.withdrawn
            name = (
                fill(gettext("{name} (withdrawn)"), {"name": row.name})
                if row.withdrawn
                else row.name
            )
            pen.text((_PAD, y + 8), str(row.place), colour, _TEXT, bold)
            pen.text((_PAD + 50, y + 8), _fit(name, _TEXT, _NAME_ROOM, bold), colour, _TEXT, bold)
            values = (row.played, row.wins, row.draws, row.losses, row.points, row.tie_break)
            for (right, _), value in zip(_COLUMNS, values, strict=True):
                pen.text((right, y + 8), str(value), colour, _TEXT, bold, anchor="ra")
            y += _ROW
        y += _PAD // 2
    return image, pen.drawn
