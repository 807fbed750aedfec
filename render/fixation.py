"""Lines of Fixation pictures: stacks on a hexagon of side 5.

Drawn from the position (``engines/fixation.py``): ``stacks`` (bottom to top), ``last_from``,
``last_path``, ``last_captures``, ``last_merges``.  Each stack is drawn as a short tower of
disks, bottom to top in their colours, with its height written on the top disk; the top
face sits at the same place in every cell so the owner is read at a glance.
"""

from __future__ import annotations

from functools import lru_cache

from engines.fixation import FixationPosition
from render._art import Art
from render._canvas import Canvas
from render._core import (
    BAND,
    Layout,
    Painter,
    Point,
    Scene,
    Sprite,
    arrow,
    badge,
    blend,
    cell_name,
    cell_outline,
    dot,
    draw_win,
    luma,
    make_sprite,
    origin_ring,
    paint_hexagon,
    paint_sprite,
    px,
    side_heading,
    text_sprite,
    threat_sprite,
    win_link,
)
from render._pipeline import register
from render._words import N_, colour_name, either, fill, gettext, names, ngettext, number, side_word
from render.theme import RGB, Theme

__all__ = ["FixationArt"]

PANEL = 0.67
#: the top face of every stack is this many cell radii above the cell centre
LIFT = 0.12


class FixationArt(Art[FixationPosition]):
    """Draws Lines of Fixation positions."""

    margin = (0.8, 0.45)
    pad = (26.0, 4.0)
    panel = PANEL
    inset = 2.0

    def pieces_text(self, position: FixationPosition) -> str:
        board = position.board
        # Each side by its name's first letter in the language in use (L/D, C/O, H/D...).
        letters = "".join(
            next((ch for ch in colour_name(position, c) if ch.isalnum()), "?") for c in (0, 1)
        )
        stacks = [
            f"{board.name(c)} {''.join(letters[d] for d in s)}"
            for c, s in enumerate(position.stacks)
            if s
        ]
        words = gettext("Stacks, bottom to top ({first}/{second}): {stacks}.")
        return fill(words, {"first": letters[0], "second": letters[1], "stacks": ", ".join(stacks)})

    def effects_text(self, position: FixationPosition) -> str:
        if position.last_captures:
            cells = names(position.board, position.last_captures)
            return fill(gettext(", capturing {cells}"), {"cells": cells})
        return ""

    def turn_text(self, position: FixationPosition) -> str:
        forced = position.forced_captures
        if not forced:
            return ""
        words = gettext(
            ", and must capture with a mono-colour stack of 3 or more: {moves} (taking {cells})"
        )
        said = {
            "moves": either(forced),
            "cells": names(position.board, sorted(position.forced_targets)),
        }
        return fill(words, said)

    def static_key(self, position: FixationPosition) -> tuple[str, int]:
        return ("fixation", len(position.board))

    def paint_background(
        self, p: Painter, position: FixationPosition, theme: Theme, lay: Layout
    ) -> None:
        paint_hexagon(p, lay, theme, position.board, [None] * 6)
        s = theme.height / 700
        x0 = theme.width * PANEL + 14
        y = BAND * s + 186 * s
        size = px(theme, theme.text_size)
        p.text((x0, y), gettext("Goal: one group"), size, theme.muted, anchor="lm")
        legend = [
            ("stack", N_("stack height")),
            ("path", N_("disk dropped")),
            ("capture", N_("captured")),
            ("merge", N_("merged")),
            ("forced", N_("must capture")),
            ("target", N_("must be taken")),
            ("win", N_("what won")),
        ]
        icon = 12 * s
        mini = cell_outline(theme, icon * 1.3, "hex", theme.alert)
        for i, (kind, text) in enumerate(legend):
            cy = y + (48 + 39 * i) * s
            cx = x0 + 16 * s
            if kind == "forced":
                paint_sprite(p, mini, (cx, cy))
            elif kind == "target":
                paint_sprite(p, threat_sprite(theme, icon * 0.75), (cx, cy))
            elif kind == "win":
                paint_sprite(
                    p, win_link(theme, round(icon * 1.6), 0, icon * 0.6), (cx - icon * 0.8, cy)
                )
            elif kind == "stack":
                p.circle((cx, cy), 15 * s, fill=theme.white, outline=theme.dark_rim, width=2)
                p.text((cx, cy), "3", size, theme.dark_rim, bold=True)
            else:
                fill = {"path": theme.accent, "capture": theme.alert, "merge": theme.second}[kind]
                r = 9 * s
                if kind == "capture":
                    pts = [
                        (cx, cy - r * 1.2),
                        (cx + r * 1.2, cy),
                        (cx, cy + r * 1.2),
                        (cx - r * 1.2, cy),
                    ]
                    p.polygon(pts, fill=fill, outline=theme.accent_edge, width=2)
                else:
                    p.circle((cx, cy), r, fill=fill, outline=theme.accent_edge, width=2)
            p.text((x0 + 40 * s, cy), gettext(text), size, theme.muted, anchor="lm")

    def _geometry(self, lay: Layout) -> tuple[float, float, float]:
        """Half-width and half-height of a disk face, and the thickness of a disk."""
        rx = lay.inner * 0.76
        return rx, rx * 0.6, lay.radius * 0.13

    def draw(
        self, image: Canvas, position: FixationPosition, theme: Theme, lay: Layout, scene: Scene
    ) -> None:
        rx, ry, t = self._geometry(lay)
        centres = lay.centres
        lift = lay.radius * LIFT
        src = position.last_from
        path = position.last_path
        board = position.board
        for cell, stack in enumerate(position.stacks):
            if not stack:
                cell_name(theme, board.name(cell), theme.label, cell).paste(image, centres[cell])
        # A wide ring near the cell's edge: the name of the emptied cell stays readable.
        if src is not None:
            origin_ring(theme, lay.inner * 0.82).paste(image, centres[src])
        if path:
            cell_outline(theme, lay.radius, "hex").paste(image, centres[path[-1]])
        # Links under the stacks and an inner outline: what won, without hiding heights.
        view = position.board_view()
        won = view.winning
        if won:
            draw_win(image, theme, lay, view, rx * 0.5, rings=False)
            ring = cell_outline(theme, lay.radius, "hex", theme.win, lay.radius * 0.13)
            for cell in won:
                ring.paste(image, centres[cell])
        forced = () if scene.over else position.forced_stacks
        for cell in forced:
            cell_outline(theme, lay.radius, "hex", theme.alert).paste(image, centres[cell])
        # The arrow lies on the board, under the stacks, so no height number is hidden.
        if src is not None and path:
            (ax, ay), (bx, by) = centres[src], centres[path[-1]]
            arrow(
                theme,
                round(bx - ax),
                round(by - ay),
                lay.inner,
                theme.accent,
                lay.inner * 0.86,
                lay.inner * 0.75,
            ).paste(image, centres[src])
        for cell, stack in enumerate(position.stacks):
            if stack:
                x, y = centres[cell]
                stack_sprite(theme, stack, rx, ry, t).paste(image, (x, y - lift))
        small = lay.inner * 0.2
        # Dropped disks: a dot centred above the stack's top face (clear of its height).
        drop = dot(theme, lay.inner * 0.25)
        for cell in path[:-1]:
            x, y = centres[cell]
            drop.paste(image, (x, y - lift - ry - lay.inner * 0.25))
        face = win_face(theme, rx, ry)
        for cell in won:
            x, y = centres[cell]
            face.paste(image, (x, y - lift))
        if not scene.over:
            target = threat_sprite(theme, rx * 0.78)
            for cell in position.forced_targets:
                x, y = centres[cell]
                target.paste(image, (x, y - lift))
        for cell in position.last_merges:
            x, y = centres[cell]
            badge(theme, small, theme.second, "circle").paste(
                image, (x + lay.inner * 0.62, y - lay.radius * 0.5)
            )
        for cell in position.last_captures:
            x, y = centres[cell]
            badge(theme, small * 1.25, theme.alert, "diamond").paste(
                image, (x + lay.inner * 0.62, y - lay.radius * 0.5)
            )
        self._draw_counts(image, position, theme, scene)

    def _draw_counts(
        self, image: Canvas, position: FixationPosition, theme: Theme, scene: Scene
    ) -> None:
        s = theme.height / 700
        x0 = theme.width * PANEL + 14
        sides = theme.sides("fixation")
        for seat in (0, 1):
            side_heading(
                image,
                theme,
                (x0, BAND * s + (26 + 78 * seat) * s),
                sides[seat],
                side_word(position.seat_sides[seat]),
                scene.player_of_side(position, seat),
                theme.width - 10 * s,
            )
            owned = [st for st in position.stacks if st and st[-1] == seat]
            tallest = max((len(st) for st in owned), default=0)
            y = BAND * s + (26 + 78 * seat + 35) * s
            words = ngettext(
                "{count} stack, max {tallest}", "{count} stacks, max {tallest}", len(owned)
            )
            text = fill(words, {"count": number(len(owned)), "tallest": number(tallest)})
            text_sprite(text, px(theme, theme.text_size), theme.text).paste(image, (x0, y))

    def probe(self, position: FixationPosition, cell: int, lay: Layout) -> Point:
        x, y = lay.centres[cell]
        return (x - lay.inner * 0.5, y - lay.radius * LIFT)

    def specimens(self, position: FixationPosition, theme: Theme, lay: Layout) -> list[Sprite]:
        rx, ry, t = self._geometry(lay)
        out = [
            stack_sprite(theme, st, rx, ry, t)
            for st in (
                (0,),
                (1,),
                (0, 1),
                (1, 0),
                (0, 1, 0, 1, 1, 0),
                (1, 0, 1, 0, 0, 1),
                (0, 0, 0),
                (1, 1, 1),
            )
        ]
        small = lay.inner * 0.2
        out += [
            origin_ring(theme, lay.inner * 0.82),
            cell_outline(theme, lay.radius, "hex"),
            cell_outline(theme, lay.radius, "hex", theme.alert),
            cell_outline(theme, lay.radius, "hex", theme.win, lay.radius * 0.13),
            threat_sprite(theme, rx * 0.78),
            win_link(theme, round(lay.inner * 2), 0, rx * 0.5),
            dot(theme, lay.inner * 0.25),
            win_face(theme, rx, ry),
            badge(theme, small, theme.second, "circle"),
            badge(theme, small * 1.25, theme.alert, "diamond"),
            arrow(
                theme,
                round(lay.inner * 4),
                0,
                lay.inner,
                theme.accent,
                lay.inner * 0.3,
                lay.inner * 0.75,
            ),
        ]
        return out


@lru_cache(maxsize=512)
def stack_sprite(theme: Theme, stack: tuple[int, ...], rx: float, ry: float, t: float) -> Sprite:
    """A stack as a tower of disks, bottom first, anchored at the centre of its top face,
    with its height on the top face."""
    sides = theme.sides("fixation")
    h = len(stack)

    def paint(p: Painter) -> None:
        for i, colour in enumerate(stack):
            face = sides[colour]
            dark = luma(face) < 128
            wall = blend(face, theme.text if dark else theme.dark_rim, 0.22)
            y = (h - 1 - i) * t
            p.ellipse((0, y + t), rx, ry, fill=theme.dark_rim)
            p.polygon([(-rx, y), (rx, y), (rx, y + t), (-rx, y + t)], fill=theme.dark_rim)
            p.ellipse((0, y + t), rx - 1.6, ry - 1.6, fill=wall)
            p.polygon(
                [(-rx + 1.6, y), (rx - 1.6, y), (rx - 1.6, y + t), (-rx + 1.6, y + t)], fill=wall
            )
            p.ellipse((0, y), rx, ry, fill=theme.dark_rim)
            p.ellipse((0, y), rx - 1.6, ry - 1.6, fill=face)
            if dark:
                # Dark disks carry a light rim: outline as well as lightness tells them apart.
                p.ellipse((0, y), rx - 3.2, ry - 3.0, outline=theme.light_rim, width=1.4)
        top = sides[stack[-1]]
        ink: RGB = theme.dark_rim if luma(top) > 128 else theme.text
        p.text((0, 0.5), str(h), max(ry * 1.75, px(theme, theme.text_size)), ink, bold=True)

    # The box runs from the top face's upper rim down to the bottom disk's lower rim.
    depth = h * t + ry
    return make_sprite(rx + 1, (depth + ry) / 2 + 1, paint, centre=(0, (depth - ry) / 2))


@lru_cache(maxsize=8)
def win_face(theme: Theme, rx: float, ry: float) -> Sprite:
    """A ring in the win colour around a stack's top face (its height stays readable)."""
    w = max(3.0, ry * 0.3)

    def paint(p: Painter) -> None:
        p.ellipse((0, 0), rx + w + 1.5, ry + w + 1.5, outline=theme.accent_edge, width=w + 3)
        p.ellipse((0, 0), rx + w, ry + w, outline=theme.win, width=w)

    return make_sprite(rx + w + 3, ry + w + 3, paint)


# The picture of the game registers itself: render/__init__.py only imports this module.
register("fixation", FixationArt())
