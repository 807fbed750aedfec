"""Colours and sizes of the board pictures.

The default palette is colour-blind safe: the two sides of every game differ in lightness
(a light side and a dark side) and in outline (light pieces have a dark rim, dark pieces a
light inner ring), never in hue alone.  Marks use shapes (ring, dot, arrow, cross, hatching)
as well as colour.

>>> Theme().width, Theme(width=800).width
(1000, 800)
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import engines

__all__ = ["RGB", "Theme"]

#: An opaque colour.
RGB = tuple[int, int, int]


@dataclass(frozen=True, kw_only=True)
class Theme:
    """Everything that decides how a picture looks; pass one to any ``render`` function.

    All options are keywords; the defaults are the bot's house style (1000x700 landscape).
    """

    #: picture size in pixels: landscape, no taller than 4:3, so both Telegram's chat bubble
    #: and Discord's embed box (at most 400 x 300) show it at their full width
    width: int = 1000
    height: int = 700
    #: page behind the board, status text and muted text
    page: RGB = (38, 42, 51)
    text: RGB = (240, 241, 244)
    muted: RGB = (168, 175, 188)
    #: board cells, the alternate shade (Maphex sub-boards), grid lines and the frame (a
    #: mid grey-blue, so both a light and a dark goal edge stand out against it)
    cell: RGB = (226, 212, 180)
    cell_alt: RGB = (205, 188, 150)
    grid: RGB = (112, 96, 70)
    frame: RGB = (92, 102, 118)
    #: Maphex sub-board borders
    border: RGB = (62, 52, 40)
    #: coordinate labels drawn inside empty cells of hexagon boards
    label: RGB = (128, 112, 86)
    #: Maphex: Red is the light side, Blue the dark one
    red: RGB = (236, 112, 72)
    blue: RGB = (30, 66, 146)
    #: the other games: White / Light and Black / Dark
    white: RGB = (248, 246, 238)
    black: RGB = (34, 34, 40)
    #: rim of light pieces and ring of dark pieces
    dark_rim: RGB = (22, 22, 26)
    light_rim: RGB = (236, 236, 236)
    #: the last move (ring, dot, arrow) and its dark outline
    accent: RGB = (255, 196, 0)
    accent_edge: RGB = (20, 20, 20)
    #: captures, traps, threats and forbidden squares
    alert: RGB = (214, 36, 120)
    #: secondary arrows (inpHeXion relocations, Iso-Path tile moves)
    second: RGB = (86, 180, 233)
    #: what won: rings and links over the winning chain, stacks or piece
    win: RGB = (0, 196, 140)
    #: Iso-Path tile heights: trench, single tile, two-tile mountain
    trench: RGB = (100, 86, 72)
    ground: RGB = (198, 182, 148)
    mountain: RGB = (242, 224, 176)
    #: crowded boards (16x16 Maphex) are drawn this much larger than ``width`` x ``height``
    #: (1.28 makes the default picture 1280 wide, the most Telegram keeps)
    large_board_scale: float = 1.28
    #: font sizes (pixels at the default picture size).  ``text_size`` is the smallest font
    #: any text uses: a picture is shown about 330 dp wide in a Telegram chat on a phone and
    #: 400 px wide in a Discord embed, and a text must stay at least 9 dp and 11 px there,
    #: i.e. 2.75 % of the picture's width (27.5 px of 1000)
    status_size: int = 32
    text_size: int = 28
    name_size: int = 30
    coord_size: int = 28
    label_size: int = 28

    def sides(self, game: str) -> tuple[RGB, RGB]:
        """The fill colours of colour 0 and colour 1 in ``game``: the colours its record
        names (:attr:`engines.Game.palette`), white and black for a game it does not know.

        >>> Theme().sides("maphex") == (Theme().red, Theme().blue)
        True
        """
        record = engines.GAMES.get(game)
        first, second = record.palette if record is not None else ("white", "black")
        return self.colour(first), self.colour(second)

    def colour(self, name: str) -> RGB:
        """The colour this theme calls ``name`` (``"red"``, ``"white"``...); ``ValueError``
        for a name that is not one of its colours."""
        value = getattr(self, name, None) if name in _COLOURS else None
        if not isinstance(value, tuple):
            raise ValueError(f"a theme has no colour {name!r}")
        return (int(value[0]), int(value[1]), int(value[2]))


#: The names of a theme's colours (its fields that hold one).
_COLOURS = frozenset(f.name for f in fields(Theme) if f.type == "RGB")
