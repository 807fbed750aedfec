"""Measure the web board's tap targets and text sizes (issue 44), as the browser tests do: each
game's page (at its default size, then its biggest board) opened in headless Chromium (Debian's
``/usr/bin/chromium``, through Playwright) by the player to move, upright (390×844) and on its
side (844×390), and the bounding boxes of every visible cell, button, link and field measured,
with the size on screen of every visible text.  Prints one line per board and viewport: the
smallest tap target (its shorter side, CSS px), the smallest board cell and the smallest
text (CSS px), each named; then the contrast ratios of the board's marks (WCAG 2) in the light
and dark schemes, from the page's computed styles.

Run from the repository: ``.venv/bin/python docs/tools/board_measures.py``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playwright.async_api import Browser, async_playwright, expect

from tests.web.board_kit import SIDEWAYS, UPRIGHT, measure
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.kit import ADA, BO, TG_GROUP, Site, init_data, new_game, site
from tests.web.test_board import BOARDS


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with site(str(Path(tmp) / "measures.db")) as web, async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            print(
                f"{'board':<22} {'viewport':<9} {'smallest tap target':<28} "
                f"{'smallest cell':<14} smallest text"
            )
            for game, options in BOARDS:
                gid = await new_game(web.manager, game, ADA, BO, TG_GROUP, (), options)
                row = await web.manager.store.get_game(gid)
                assert row is not None and row.to_move is not None
                tma = init_data((ADA, BO)[row.to_move], web.clock)
                for size in (UPRIGHT, SIDEWAYS):
                    context = await browser.new_context(
                        viewport=size, is_mobile=True, has_touch=True
                    )
                    page = await context.new_page()
                    await page.add_init_script(
                        f"window.Telegram = {{WebApp: {{initData: {tma!r}}}}};"
                    )
                    await page.goto(await web.board.link(gid))
                    await expect(page.locator("#play")).to_be_visible()
                    await expect(
                        page.locator("[data-cell].can, [data-cell].pick").first
                    ).to_be_visible()
                    seen = await measure(page)
                    target, side = seen.smallest_target
                    text, px = seen.smallest_text
                    board = game + "".join(f" {k}={v}" for k, v in options.items())
                    viewport = f"{size['width']}x{size['height']}"
                    smallest = f"{side:5.1f} px ({target[:16]})"
                    cell = min(min(w, h) for n, w, h in seen.targets if n.startswith("cell "))
                    print(
                        f"{board:<22} {viewport:<9} {smallest:<28} {cell:5.1f} px     "
                        f"{px:4.1f} px ({text})"
                    )
                    await context.close()
            await _contrasts(browser, web)
            await browser.close()


_COLOURS = """() => {
  const style = (sel, part) => getComputedStyle(document.querySelector(sel + " " + part));
  const page = getComputedStyle(document.body).backgroundColor;
  return {
    "last move fill": style('[data-cell="g7"]', ".ground").fill,
    "last move outline": style('[data-cell="g7"]', ".ground").stroke,
    "selection fill": style('[data-cell="b2"]', ".ground").fill,
    "selection outline": style('[data-cell="b2"]', ".ground").stroke,
    "ground": style('[data-cell="e5"]', ".ground").fill,
    "coordinate": style("", ".coord").fill,
    "page": page,
  };
}"""


def _luminance(css: str) -> float:
    """WCAG 2's relative luminance of an ``rgb(r, g, b)`` colour."""
    channels = [int(v) / 255 for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _ratio(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


async def _contrasts(browser: Browser, web: Site) -> None:
    """The contrast ratios of the board's marks (light and dark schemes), read from the page's
    computed styles: Pathagon after a1 g7 (the last move g7), b2 selected."""
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1", "g7"])
    tma = init_data(ADA, web.clock)
    for scheme in ("light", "dark"):
        context = await browser.new_context(viewport=UPRIGHT, color_scheme=scheme)
        page = await context.new_page()
        await page.add_init_script(f"window.Telegram = {{WebApp: {{initData: {tma!r}}}}};")
        await page.goto(await web.board.link(gid))
        await page.locator('[data-cell="b2"].can').click()
        await expect(page.locator('[data-cell="b2"].sel')).to_be_visible()
        c = await page.evaluate(_COLOURS)
        pairs = (
            ("selection fill", "last move fill"),
            ("selection outline", "ground"),
            ("last move outline", "ground"),
            ("coordinate", "page"),
        )
        said = ", ".join(f"{a} v {b} {_ratio(c[a], c[b]):.2f}:1" for a, b in pairs)
        print(f"contrast ({scheme}): {said}")
        await context.close()


if __name__ == "__main__":
    asyncio.run(main())
