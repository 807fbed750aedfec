"""Shared pieces of the board page's browser tests (issue 44) and of ``docs/tools/board_shots.py``:
a move built by taps as a player builds it (cells, a region of the board, a button beside it),
and the measures of a page: its tap targets and its text sizes, in CSS pixels."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.async_api import Page, expect

import engines
from bot.sessions import building, texts
from bot.sessions.picker import split_parts
from engines.isopath import IsopathPosition

#: The viewports of the issue's "done when": a phone upright and on its side.
UPRIGHT = {"width": 390, "height": 844}
SIDEWAYS = {"width": 844, "height": 390}

# Every visible tap target of the page (board cells, buttons, links, fields), and every visible
# piece of text with its size on screen (an SVG text's font size times the drawing's scale).
_MEASURE = """() => {
  const shown = (e) => {
    if (e.closest("[hidden]")) return false;
    const s = getComputedStyle(e);
    const r = e.getBoundingClientRect();
    return s.display !== "none" && s.visibility !== "hidden" && r.width > 0 && r.height > 0;
  };
  const targets = [];
  for (const e of document.querySelectorAll("[data-cell], button, a[href], input, select")) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    const name = e.dataset.cell ? "cell " + e.dataset.cell : e.id || e.textContent.trim();
    targets.push([name, r.width, r.height]);
  }
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const e = n.parentElement;
    if (!n.textContent.trim() || !e || !shown(e)) continue;
    let size = parseFloat(getComputedStyle(e).fontSize);
    const svg = e.closest("svg");
    if (svg) size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    texts.push([n.textContent.trim().slice(0, 24), size]);
  }
  return { targets, texts, scroll: document.documentElement.scrollWidth };
}"""


@dataclass(frozen=True)
class Measures:
    """A page's tap targets ``(name, width, height)`` and texts ``(text, size)`` in CSS
    pixels, and the document's scroll width."""

    targets: list[tuple[str, float, float]]
    texts: list[tuple[str, float]]
    scroll_width: int

    @property
    def smallest_target(self) -> tuple[str, float]:
        """The tap target with the smallest side, and that side."""
        name, w, h = min(self.targets, key=lambda t: min(t[1], t[2]))
        return name, min(w, h)

    @property
    def smallest_text(self) -> tuple[str, float]:
        """The smallest text on the page, and its size."""
        return min(self.texts, key=lambda t: t[1])


async def measure(page: Page) -> Measures:
    """The tap targets and texts of ``page`` as it is shown now."""
    found = await page.evaluate(_MEASURE)
    return Measures(
        [(str(n), float(w), float(h)) for n, w, h in found["targets"]],
        [(str(t), float(s)) for t, s in found["texts"]],
        int(found["scroll"]),
    )


def _isopath_taps(position: engines.Position, move: str) -> list[tuple[str, str]]:
    """Iso-Path's turn as the page builds it (the build first): each selection with what is
    tapped to make it: ``cell <name>`` or ``button <label>``."""
    taps = []
    for selection in building.choices_for(position, move):
        pick = selection.split(" ")[-1]
        if pick == building.NO_TILE:
            taps.append((selection, "button " + texts.NO_TILE_LABEL))
        elif pick.startswith("x") and "-" not in selection and ">" not in selection:
            taps.append((selection, "button " + texts.capture_label(pick[1:])))
        else:
            cell = pick.removeprefix("x").rstrip(">-").split(">")[-1].split("-")[-1]
            taps.append((selection, "cell " + cell))
    return taps


def _part_taps(position: engines.Position, move: str) -> list[tuple[str, str]]:
    """Any other game's move as the page builds it: each part a cell, a region of the board
    (a sub-board's number: one of its cells is tapped) or a button."""
    shown: object = position
    names = set(position.board.names)
    subboard = getattr(shown, "subboard", None)
    taps, so_far = [], ""
    for part in split_parts(move):
        so_far += part
        bare = part.lstrip(" >-")
        if bare in names:
            taps.append((so_far, "cell " + bare))
        elif subboard is not None and bare.isdigit():
            cell = position.board.names[subboard.index(int(bare) - 1)]
            taps.append((so_far, "cell " + cell))
        else:
            taps.append((so_far, "button " + part.strip()))
    return taps


async def tap_move(page: Page, position: engines.Position, move: str) -> None:
    """Build ``move`` on ``page`` by tapping (a choice the rules force is made by the page:
    skipped), then tap Play; each tapped cell is checked to be offered first."""
    taps = (
        _isopath_taps(position, move)
        if isinstance(position, IsopathPosition)
        else _part_taps(position, move)
    )
    play = page.locator("#play")
    for selection, what in taps:
        current = await play.get_attribute("data-prefix") or ""
        if len(current) >= len(selection) and current.startswith(selection):
            continue  # made by the page: the rules left no other choice
        kind, name = what.split(" ", 1)
        if kind == "cell":
            cell = page.locator(f'[data-cell="{name}"]')
            await expect(cell).to_have_class(re.compile(r"\b(can|pick)\b"))
            await cell.tap()
        else:
            await page.locator("#choices button", has_text=name).tap()
        await expect(play).to_have_attribute("data-prefix", re.compile("^" + re.escape(selection)))
    await expect(page.locator("#send")).to_be_enabled()
    await page.locator("#send").tap()
