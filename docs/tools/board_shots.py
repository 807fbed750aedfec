"""Photograph the web board as players see it (issue 44): real games on a bot with its web board
(on a temporary SQLite file, listening on 127.0.0.1), each page opened in headless Chromium
(Debian's ``/usr/bin/chromium``, driven by Playwright, as the web tests use it) at a phone's
size, upright (390×844) and on its side (844×390).

The pictures (``docs/img/board-*.png``):

* ``board-maphex-opening``: Blue chooses Red's opening sub-board by tapping the board (the
  sub-boards numbered, the auto-cells dotted, the coordinates around);
* ``board-maphex-won`` and ``board-pathagon-won``: finished games with the winning path;
* ``board-isopath-turn``: Iso-Path's turn half built (a tile taken and put: "move a piece",
  only the pieces that can move lit);
* ``board-inphexion-landscape``: a game on its side, the board beside the controls, the board
  turned to Black's side (the second player's);
* ``board-maphex16-landscape``: Maphex 16×16 on its side, cells of 44 px in a board that pans,
  the sub-board Red must play in marked.

Run from the repository: ``.venv/bin/python docs/tools/board_shots.py``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playwright.async_api import Browser, Page, async_playwright, expect

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.kit import ADA, BO, TG_GROUP, Site, init_data, new_game, site
from tests.web.scripted import MAPHEX, PATHAGON

OUT = ROOT / "docs" / "img"
PORTRAIT = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}


async def _page(browser: Browser, web: Site, gid: int, seat: int | None, size: dict) -> Page:
    """A phone page of game ``gid``, signed in as the player of ``seat`` (``None``: a
    spectator's page)."""
    context = await browser.new_context(
        viewport=size, is_mobile=True, has_touch=True, device_scale_factor=2
    )
    page = await context.new_page()
    if seat is not None:
        tma = init_data((ADA, BO)[seat], web.clock)
        await page.add_init_script(f"window.Telegram = {{WebApp: {{initData: {tma!r}}}}};")
    await page.goto(await web.board.link(gid))
    await expect(page.locator("[data-cell]").first).to_be_visible()
    return page


async def _shoot(page: Page, name: str, full: bool = False) -> None:
    await page.screenshot(path=str(OUT / f"board-{name}.png"), full_page=full)
    await page.context.close()
    print(f"wrote docs/img/board-{name}.png")


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with site(str(Path(tmp) / "shots.db")) as web, async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            # Maphex: Blue (seat 1) chooses the opening sub-board on the board.
            gid = await new_game(web.manager, "maphex", ADA, BO, TG_GROUP)
            page = await _page(browser, web, gid, 1, PORTRAIT)
            await expect(page.locator(".region-name.shown").first).to_be_visible()
            await _shoot(page, "maphex-opening")
            # Finished games: the winning path.
            for scripted, name in ((MAPHEX, "maphex-won"), (PATHAGON, "pathagon-won")):
                gid = await new_game(
                    web.manager, scripted.game, ADA, BO, TG_GROUP, scripted.moves, scripted.options
                )
                page = await _page(browser, web, gid, None, PORTRAIT)
                await expect(page.locator("[data-cell].win").first).to_be_visible()
                await _shoot(page, name)
            # Iso-Path: a tile taken and put; now "move a piece".
            gid = await new_game(web.manager, "isopath", ADA, BO, TG_GROUP)
            page = await _page(browser, web, gid, 0, PORTRAIT)
            for cell in ("b1", "b2"):
                await page.locator(f'[data-cell="{cell}"]').tap()
                await expect(page.locator("#prompt")).not_to_contain_text("tile to take")
            await expect(page.locator("#prompt")).to_contain_text("piece to move")
            await _shoot(page, "isopath-turn", full=True)
            # inpHeXion on its side, turned to Blue's side.
            gid = await new_game(
                web.manager,
                "inphexion",
                ADA,
                BO,
                TG_GROUP,
                ("c3", "c3-d2"),
                {"size": 5, "pie": False},
            )
            page = await _page(browser, web, gid, 1, LANDSCAPE)
            await _shoot(page, "inphexion-landscape")
            # Maphex 16x16 on its side: cells of 44 px, the board pans in its box; Red plays in
            # the sub-board Blue chose (6).
            gid = await new_game(web.manager, "maphex", ADA, BO, TG_GROUP, ("6",), {"size": 16})
            page = await _page(browser, web, gid, 0, LANDSCAPE)
            await expect(page.locator("[data-cell].zone").first).to_be_visible()
            await _shoot(page, "maphex16-landscape")
            await browser.close()


if __name__ == "__main__":
    asyncio.run(main())
