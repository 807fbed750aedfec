"""Pathagon pictures: the 7x7 square board and each side's pieces in hand.

Drawn from the position (``engines/pathagon.py``): ``cells``, ``in_hand``, ``returned``,
``forbidden``, ``locked``, ``trapped``, ``last_from``, ``last_to``, ``edges``.  Forbidden
squares are hatched, a piece that may not move carries a padlock, trapped pieces leave a
cross, and the panel on the right shows the pieces in hand with returned ones apart.
"""

from __future__ import annotations

from functools import lru_cache

from engines.pathagon import PathagonPosition
from render._art import Art
from render._canvas import Canvas
from render._core import (
    BAND,
    Layout,
    Painter,
    Scene,
    Sprite,
    arrow,
    band_width,
    coord_size,
    corner_cells,
    cross,
    disc,
    dot,
    draw_win,
    frame_sides,
    last_ring,
    make_sprite,
    origin_ring,
    paint_frame,
    paint_sprite,
    px,
    side_heading,
    text_sprite,
    win_specimens,
)
from render._pipeline import register
from render._words import N_, fill, gettext, names, number, side_lists, side_word
from render.theme import Theme

__all__ = ["PathagonArt"]

#: left edge of the side panel, as a share of the picture width
PANEL = 0.64


def _piece_radius(lay: Layout) -> float:
    return lay.radius * 0.78


class PathagonArt(Art[PathagonPosition]):
    """Draws Pathagon positions."""

    margin = (0.45, 0.45)
    pad = (30.0, 34.0)
    panel = PANEL

    def pieces_text(self, position: PathagonPosition) -> str:
        hand = []
        for s in (0, 1):
            said = {"side": side_word(position.seat_sides[s]), "count": number(position.in_hand[s])}
            said["returned"] = number(position.returned[s])
            if position.returned[s]:
                hand.append(fill(gettext("{side} {count} ({returned} returned)"), said))
            else:
                hand.append(fill(gettext("{side} {count}"), said))
        held = fill(gettext("In hand: {hands}."), {"hands": ", ".join(hand)})
        return side_lists(position, position.board, position.cells) + " " + held

    def effects_text(self, position: PathagonPosition) -> str:
        if position.trapped:
            cells = names(position.board, position.trapped)
            return fill(gettext(", trapping {cells}"), {"cells": cells})
        return ""

    def turn_text(self, position: PathagonPosition) -> str:
        if position.forbidden:
            cells = names(position.board, sorted(position.forbidden))
            return fill(gettext(" (not on {cells})"), {"cells": cells})
        return ""

    def static_key(self, position: PathagonPosition) -> tuple[str, int]:
        return ("pathagon", len(position.board))

    def _hand_radius(self, theme: Theme) -> float:
        return 15.0 * theme.height / 700

    def _panel_rows(self, theme: Theme) -> tuple[float, float, float]:
        """x of the panel, and the y of each seat's block."""
        s = theme.height / 700
        return theme.width * PANEL + 14, BAND * s + 26 * s, BAND * s + 216 * s

    def paint_background(
        self, p: Painter, position: PathagonPosition, theme: Theme, lay: Layout
    ) -> None:
        board = position.board
        n = board.n
        band = band_width(lay)
        sides = theme.sides("pathagon")
        paint_frame(
            p, lay, theme, frame_sides(corner_cells(board), position.edges, sides), band=band
        )
        grid = max(1.5, lay.radius * 0.04)
        for cell in board.cells:
            p.polygon(lay.cell_polygon(cell), fill=theme.cell, outline=theme.grid, width=grid)
        size = coord_size(lay, theme)
        reach = lay.radius + band + size * 0.75
        for c in range(n):
            letter = board.name(c)[0]
            x, y = lay.centres[c]
            p.text((x, y + reach), letter, size, theme.text, bold=True)
            p.text(
                (x, lay.centres[n * (n - 1) + c][1] - reach), letter, size, theme.text, bold=True
            )
        for r in range(n):
            x, y = lay.centres[r * n]
            number = board.name(r * n)[1:]
            p.text((x - reach, y), number, size, theme.text, bold=True)
            p.text((lay.centres[r * n + n - 1][0] + reach, y), number, size, theme.text, bold=True)
        # The panel: each side's name (hands are drawn per position) and a legend.
        s = theme.height / 700
        x0, *ys = self._panel_rows(theme)
        size = px(theme, theme.text_size)
        for seat, y in enumerate(ys):
            edge = gettext("rows 1 ↔ 7") if seat == 0 else gettext("columns a ↔ g")
            p.text((x0, y + 35 * s), edge, size, theme.muted, anchor="lm")
        legend_y = BAND * s + 430 * s
        icon_r = 15 * s
        icons = [
            (hatch(theme, icon_r), N_("not here now")),
            (padlock(theme, icon_r * 0.9), N_("stuck next turn")),
            (cross(theme, icon_r), N_("trapped")),
            (hand_returned(theme, icon_r * 0.8), N_("returned")),
        ]
        for i, (sprite, text) in enumerate(icons):
            y = legend_y + i * 40 * s
            cx = x0 + 16 * s
            p.circle((cx, y), icon_r * 1.15, fill=theme.cell, outline=theme.grid, width=2)
            paint_sprite(p, sprite, (cx, y))
            p.text((x0 + 42 * s, y), gettext(text), size, theme.muted, anchor="lm")

    def draw(
        self, image: Canvas, position: PathagonPosition, theme: Theme, lay: Layout, scene: Scene
    ) -> None:
        centres = lay.centres
        half = lay.radius
        if not scene.over:
            for cell in position.forbidden:
                hatch(theme, half).paste(image, centres[cell])
        r = _piece_radius(lay)
        sides = theme.sides("pathagon")
        pieces = (disc(theme, sides[0], r), disc(theme, sides[1], r))
        for cell, value in enumerate(position.cells):
            if value >= 0:
                pieces[value].paste(image, centres[cell])
        draw_win(image, theme, lay, position.board_view(), r)
        for cell in position.trapped:
            cross(theme, r * 0.8).paste(image, centres[cell])
        for locked in position.locked:
            if locked is not None:
                x, y = centres[locked]
                padlock(theme, r * 0.55).paste(image, (x + r * 0.78, y + r * 0.74))
        src, dst = position.last_from, position.last_to
        if dst is not None:
            last_ring(theme, r).paste(image, centres[dst])
            dot(theme, r * 0.3).paste(image, centres[dst])
        if src is not None and dst is not None:
            origin_ring(theme, r * 0.5).paste(image, centres[src])
            (ax, ay), (bx, by) = centres[src], centres[dst]
            arrow(
                theme, round(bx - ax), round(by - ay), lay.inner, theme.accent, r * 0.5, r * 1.2
            ).paste(image, centres[src])
        self._draw_hands(image, position, theme, scene)

    def _draw_hands(
        self, image: Canvas, position: PathagonPosition, theme: Theme, scene: Scene
    ) -> None:
        s = theme.height / 700
        x0, *ys = self._panel_rows(theme)
        hr = self._hand_radius(theme)
        sides = theme.sides("pathagon")
        step = hr * 2 + 4 * s
        for seat, y in enumerate(ys):
            side_heading(
                image,
                theme,
                (x0, y),
                sides[seat],
                side_word(position.seat_sides[seat]),
                scene.player_of_side(position, seat),
                theme.width - 10 * s,
            )
            total, back = position.in_hand[seat], position.returned[seat]
            fresh = total - back
            said = {"count": number(total), "back": number(back)}
            words = gettext("{count} in hand, {back} back") if back else gettext("{count} in hand")
            text = fill(words, said)
            text_sprite(text, px(theme, theme.text_size), theme.text).paste(image, (x0, y + 70 * s))
            piece = disc(theme, sides[seat], hr)
            row_y = y + 104 * s
            for i in range(fresh):
                piece.paste(image, (x0 + hr + (i % 7) * step, row_y + (i // 7) * step))
            if back:
                marked = hand_returned(theme, hr)
                by = row_y + ((fresh + 6) // 7) * step + 8 * s
                for i in range(back):
                    at = (x0 + hr + (i % 7) * step, by + (i // 7) * step)
                    piece.paste(image, at)
                    marked.paste(image, at)

    def detail(self, position: PathagonPosition) -> str:
        if position.outcome is not None:
            return ""
        if position.in_hand[position.to_move]:
            return gettext("place a piece")
        return gettext("move a piece")

    def specimens(self, position: PathagonPosition, theme: Theme, lay: Layout) -> list[Sprite]:
        r = _piece_radius(lay)
        sides = theme.sides("pathagon")
        hr = self._hand_radius(theme)
        return [
            disc(theme, sides[0], r),
            disc(theme, sides[1], r),
            disc(theme, sides[0], hr),
            disc(theme, sides[1], hr),
            hand_returned(theme, hr),
            hatch(theme, lay.radius),
            cross(theme, r * 0.8),
            padlock(theme, r * 0.55),
            last_ring(theme, r),
            dot(theme, r * 0.3),
            origin_ring(theme, r * 0.5),
            arrow(
                theme,
                round(lay.radius * 4),
                round(lay.radius * 2),
                lay.inner,
                theme.accent,
                r * 0.5,
                r,
            ),
            *win_specimens(theme, lay, r),
            disc(theme, sides[0], 14 * theme.height / 700),
            disc(theme, sides[1], 14 * theme.height / 700),
        ]


@lru_cache(maxsize=16)
def hatch(theme: Theme, half: float) -> Sprite:
    """Diagonal alert stripes over a square: the player to move may not use it."""
    h = half - 2

    def paint(p: Painter) -> None:
        step = max(6.0, half * 0.32)
        k = -2 * h
        while k < 2 * h:
            # Clip the stripe x - y = k to the square.
            x1, x2 = max(-h, k - h), min(h, k + h)
            if x1 < x2:
                p.line([(x1, x1 - k), (x2, x2 - k)], (*theme.alert, 150), max(2.5, half * 0.09))
            k += step
        p.polygon(
            [(-h, -h), (h, -h), (h, h), (-h, h)],
            outline=(*theme.alert, 255),
            width=max(2.5, half * 0.07),
        )

    return make_sprite(half, half, paint)


@lru_cache(maxsize=16)
def padlock(theme: Theme, size: float) -> Sprite:
    """A small padlock: this piece may not move on its owner's next turn."""

    def paint(p: Painter) -> None:
        w, h = size * 0.8, size * 0.62
        body = [(-w, -h * 0.2), (w, -h * 0.2), (w, h), (-w, h)]
        p.circle((0, -h * 0.2), size * 0.62, outline=theme.light_rim, width=size * 0.42)
        p.circle((0, -h * 0.2), size * 0.56, outline=theme.dark_rim, width=size * 0.26)
        p.polygon(body, fill=theme.dark_rim, outline=theme.light_rim, width=max(1.5, size * 0.12))
        p.circle((0, h * 0.38), size * 0.16, fill=theme.accent)

    return make_sprite(size * 1.1, size * 1.1, paint)


@lru_cache(maxsize=16)
def hand_returned(theme: Theme, radius: float) -> Sprite:
    """The mark of a returned piece in hand: a dashed ring in the secondary colour."""

    def paint(p: Painter) -> None:
        p.circle((0, 0), radius + 5, outline=theme.accent_edge, width=5)
        p.circle((0, 0), radius + 4, outline=theme.second, width=3)
        bx, by, br = radius * 0.78, -radius * 0.78, radius * 0.55
        p.circle((bx, by), br, fill=theme.second, outline=theme.accent_edge, width=1.5)
        p.text((bx, by + br * 0.08), "↺", br * 1.6, theme.accent_edge, bold=True, icon=True)

    return make_sprite(radius + 6, radius + 6, paint)


# The picture of the game registers itself: render/__init__.py only imports this module.
register("pathagon", PathagonArt())
