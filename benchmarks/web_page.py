"""The web board's page in a browser (issue 44's closing figures): first paint, the board drawn,
page weight, layout shift, and the lowest text contrast in each colour set.

Run: ``nice -n 15 .venv/bin/python benchmarks/web_page.py`` (``--runs 5`` loads per game).

A bot on a fresh SQLite file serves its web board on 127.0.0.1; Debian's headless Chromium
(through Playwright, as the tests drive it) opens each game's page at 390×844, a fresh
browser context per load (nothing cached):

- **first paint** / **board drawn**: ``first-contentful-paint`` (Paint Timing) and the moment
  the board's cells are in the page (a MutationObserver), from the navigation's start; median
  of ``--runs`` loads, as a spectator.
- **weight**: the bytes transferred for the page and everything it loads (Resource Timing's
  ``transferSize``, compressed as sent) and their size once decoded.
- **layout shift**: the sum of the Layout Instability API's shifts while the page loads, for a
  spectator and for the player to move (whose controls appear under the board).
- **contrast**: the lowest WCAG 2 ratio of any visible text (tests/web/contrast.js) with the
  system's light and dark colours, and inside Telegram with its dark and light themes (the
  page's own theme handling, host.js).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.async_api import Browser, async_playwright

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.kit import ADA, BO, PHONE, TG_GROUP, Site, init_data, new_game, site

CONTRAST = (Path(__file__).resolve().parent.parent / "tests/web/contrast.js").read_text()
_WATCH = """
window.shifts = 0;
new PerformanceObserver((l) => { for (const e of l.getEntries()) window.shifts += e.value; })
  .observe({type: "layout-shift", buffered: true});
new MutationObserver((_, o) => {
  if (document.querySelector("[data-cell]")) { window.drawn = performance.now(); o.disconnect(); }
}).observe(document, {subtree: true, childList: true});
"""
_FIGURES = """(() => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const all = [...performance.getEntriesByType("navigation"),
               ...performance.getEntriesByType("resource")];
  return {
    fcp: paint ? paint.startTime : null,
    drawn: window.drawn || null,
    sent: all.reduce((s, e) => s + e.transferSize, 0),
    decoded: all.reduce((s, e) => s + e.decodedBodySize, 0),
    shifts: window.shifts,
  };
})()"""
GAMES = {"pathagon": (), "isopath": (), "fixation": (), "maphex": ("5",), "inphexion": ()}
THEMES = {
    "dark": {"bg_color": "#212121", "text_color": "#ffffff", "hint_color": "#aaaaaa",
             "link_color": "#8774e1", "button_color": "#8774e1",
             "button_text_color": "#ffffff", "secondary_bg_color": "#0f0f0f"},
    "light": {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#999999",
              "link_color": "#2481cc", "button_color": "#2481cc",
              "button_text_color": "#ffffff", "secondary_bg_color": "#efeff3"},
}  # fmt: skip


async def _load(browser: Browser, url: str, **options: Any) -> dict[str, Any]:
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **options)
    await context.add_init_script(_WATCH)
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_selector("[data-cell]")
    await page.wait_for_function("document.getElementById('turn').textContent !== ''")
    await page.wait_for_timeout(300)  # late shifts, if any, are counted too
    figures: dict[str, Any] = await page.evaluate(_FIGURES)
    await context.close()
    return figures


async def _lowest(browser: Browser, url: str, telegram: bool, **options: Any) -> list[Any]:
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **options)
    if telegram:
        await context.add_init_script("window.TelegramWebviewProxy = {postEvent: () => {}};")
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_function("document.getElementById('turn').textContent !== ''")
    await page.wait_for_selector("#watchers:not(:empty)")
    await page.evaluate("document.getElementById('status').textContent = 'A sentence said.'")
    await page.locator("[data-cell].can").first.tap()
    await page.wait_for_selector("#send:not([disabled])", state="attached")
    found: list[Any] = await page.evaluate(CONTRAST)
    await context.close()
    return min(found, key=lambda f: f[1])


async def _figures(browser: Browser, web: Site, runs: int) -> None:
    print(f"{'game':<10} {'first paint':>12} {'board drawn':>12} {'sent':>9} {'decoded':>9} "
          f"{'CLS watch':>9} {'CLS play':>9}")  # fmt: skip
    for game, setup in GAMES.items():
        gid = await new_game(web.manager, game, ADA, BO, TG_GROUP, setup)
        row = await web.manager.store.get_game(gid)
        assert row is not None and row.to_move is not None
        link = await web.board.link(gid)
        loads = [await _load(browser, link) for _ in range(runs)]
        mover = (ADA, BO)[row.to_move]
        played = await _load(
            browser, link + "#" + urlencode({"tgWebAppData": init_data(mover, web.clock)})
        )
        fcp = statistics.median(f["fcp"] for f in loads)
        drawn = statistics.median(f["drawn"] for f in loads)
        print(
            f"{game:<10} {fcp:9.0f} ms {drawn:9.0f} ms {loads[0]['sent'] / 1024:6.1f} KB "
            f"{loads[0]['decoded'] / 1024:6.1f} KB {max(f['shifts'] for f in loads):9.3f} "
            f"{played['shifts']:9.3f}"
        )


async def _contrasts(browser: Browser, web: Site) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1", "g7"])
    link = await web.board.link(gid)
    signed = {"tgWebAppData": init_data(ADA, web.clock)}
    print("\nlowest text contrast (WCAG 2 ratio; element, colour, background)")
    for scheme in ("light", "dark"):
        low = await _lowest(browser, link + "#" + urlencode(signed), False, color_scheme=scheme)
        print(f"  system {scheme:<6} {low[1]:5.2f}:1  {low[0]}  {low[2]} on {low[3]}")
    for name, theme in THEMES.items():
        launch = {**signed, "tgWebAppVersion": "8.0", "tgWebAppPlatform": "ios",
                  "tgWebAppThemeParams": json.dumps(theme)}  # fmt: skip
        low = await _lowest(browser, link + "#" + urlencode(launch), True)
        print(f"  Telegram {name:<4} {low[1]:5.2f}:1  {low[0]}  {low[2]} on {low[3]}")


async def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with site(str(Path(folder) / "bench.db")) as web, async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                await _figures(browser, web, runs)
                await _contrasts(browser, web)
            finally:
                await browser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="loads per game")
    asyncio.run(main(parser.parse_args().runs))
