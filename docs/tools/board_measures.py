"""Measure the web board's tap targets and text sizes (issue 44), as the browser tests do: each
game's page (at its default size, then its biggest board) opened in headless Chromium (Debian's
``/usr/bin/chromium``, through Playwright) by the player to move, upright (390×844) and on its
side (844×390), and the bounding boxes of every visible cell, button, link and field measured,
with the size on screen of every visible text.  Prints one line per board and viewport: the
smallest tap target (its shorter side, CSS px), the smallest board cell and the smallest
text (CSS px), each named.

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

from playwright.async_api import async_playwright, expect

from tests.web.board_kit import SIDEWAYS, UPRIGHT, measure
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.kit import ADA, BO, TG_GROUP, init_data, new_game, site
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
            await browser.close()


if __name__ == "__main__":
    asyncio.run(main())
