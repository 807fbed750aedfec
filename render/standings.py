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

from render._fonts import font
from render._pipeline import encode_png
from render.theme import Theme

__all__ = ["WIDTH", "StandingsRow", "standings_image", "standings_png"]

#: The picture's width in pixels.
WIDTH = 800
_ROW = 44
_TEXT = 26
_HEAD = 70
_PAD = 24
_NAME_ROOM = 330
# Column (right edge, label) after the name: games played, won, drawn, lost, points, SB.
_COLUMNS = ((450, "P"), (510, "W"), (570, "D"), (630, "L"), (705, "Pts"), (776, "SB"))


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


def standings_png(
    title: str,
    groups: Sequence[tuple[str, Sequence[StandingsRow]]],
    note: str = "",
    theme: Theme | None = None,
) -> bytes:
    """PNG bytes of :func:`standings_image`, ready to post."""
    return encode_png(standings_image(title, groups, note, theme))


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, room: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to fit ``room`` pixels."""
    face = font(size, bold=bold)
    if draw.textlength(text, font=face) <= room:
        return text
    while text and draw.textlength(text + "…", font=face) > room:
        text = text[:-1]
    return text + "…"


def standings_image(
    title: str,
    groups: Sequence[tuple[str, Sequence[StandingsRow]]],
    note: str = "",
    theme: Theme | None = None,
) -> Image.Image:
    """The table of each group (a heading, when it has one, then a row per player, best
    first) under ``title`` and ``note`` (how many games are played)."""
    theme = theme or Theme()
    height = _HEAD + _PAD
    for heading, rows in groups:
        height += (_ROW if heading else 0) + _ROW * (1 + len(rows)) + _PAD // 2
    image = Image.new("RGB", (WIDTH, height), theme.page)
    draw = ImageDraw.Draw(image)
    draw.text(
        (_PAD, 16), _fit(draw, title, 30, WIDTH - 2 * _PAD, True), theme.text, font(30, bold=True)
    )
    if note:
        draw.text((_PAD, 52), note, theme.muted, font(18))
    y = _HEAD + _PAD // 2
    stripe = tuple(min(255, c + 12) for c in theme.page)
    for heading, rows in groups:
        if heading:
            draw.text((_PAD, y + 8), heading, theme.text, font(_TEXT, bold=True))
            y += _ROW
        labels = font(20, bold=True)
        draw.text((_PAD, y + 12), "#", theme.muted, labels)
        draw.text((_PAD + 50, y + 12), "Player", theme.muted, labels)
        for right, label in _COLUMNS:
            draw.text((right, y + 12), label, theme.muted, labels, anchor="ra")
        draw.line((_PAD, y + _ROW - 2, WIDTH - _PAD, y + _ROW - 2), theme.muted, 1)
        y += _ROW
        for index, row in enumerate(rows):
            if index % 2:
                draw.rectangle((_PAD // 2, y, WIDTH - _PAD // 2, y + _ROW - 1), stripe)
            colour = theme.muted if row.withdrawn else theme.text
            face = font(_TEXT, bold=row.place == 1 and not row.withdrawn)
            name = row.name + (" (withdrawn)" if row.withdrawn else "")
            draw.text((_PAD, y + 8), str(row.place), colour, face)
            draw.text((_PAD + 50, y + 8), _fit(draw, name, _TEXT, _NAME_ROOM), colour, face)
            values = (row.played, row.wins, row.draws, row.losses, row.points, row.tie_break)
            for (right, _), value in zip(_COLUMNS, values, strict=True):
                draw.text((right, y + 8), str(value), colour, face, anchor="ra")
            y += _ROW
        y += _PAD // 2
    return image
