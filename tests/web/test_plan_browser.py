"""Plan mode on the web board (issue 46) in a real headless Chromium: Ada, signed in through
Telegram on her board during Bo's turn, switches the board into plan mode (marked as hers
alone), taps Bo's move and then her reply on the board's cells (only the legal ones lit, the
board redrawn after each step), saves the line and sees it listed; leaving plan mode shows
the real game again; a spectator sees none of it; Bo's move into the line plays her reply."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from tests.web.kit import ADA, BO, TG_GROUP, Site, init_data, launched, new_game, phone

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_plan_a_line_by_tapping_cells(browser: Browser, web: Site) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1"])  # Bo to move
    link = await web.board.link(gid)
    watcher = await phone(browser)
    await watcher.goto(link)
    await expect(watcher.locator("[data-cell]").first).to_be_visible()

    page = await phone(browser)
    await page.goto(launched(link, init_data(ADA, web.clock)))
    await expect(page.locator("#plan-start")).to_be_visible()
    b1, c1 = page.locator('#board [data-cell="b1"]'), page.locator('#board [data-cell="c1"]')
    await page.locator("#plan-start").tap()
    await expect(page.locator("#plan-banner")).to_have_text("Planning — only you see this")
    await expect(page.locator("#board")).to_have_class("board planning")
    await expect(page.locator("#plan-prompt")).to_contain_text("their move")
    # Only the cells Bo can play are lit (not a1, Ada's); each at least 44 px to tap.
    await expect(b1).to_have_class("cell can")
    await expect(page.locator('#board [data-cell="a1"]')).not_to_have_class("cell can")
    box = await b1.bounding_box()
    assert box is not None and min(box["width"], box["height"]) >= 44, box

    await b1.tap()  # Bo's move: the board shows it played, b1 no longer lit
    await expect(page.locator("#plan-prompt")).to_contain_text("b1: tap your reply")
    await expect(b1).to_have_class("cell taken last")
    await expect(c1).to_have_class("cell can")
    await c1.tap()  # Ada's reply
    await expect(page.locator("#plan-prompt")).to_contain_text("b1 => c1")
    await expect(c1).to_have_class("cell taken last")
    await expect(b1).to_have_class("cell")  # Bo's b1 taken off: flanked by a1 and c1
    # Back takes the reply off (c1 lit again), Clear the whole line (b1 lit again).
    await page.locator("#plan-back").tap()
    await expect(page.locator("#plan-prompt")).to_contain_text("b1: tap your reply")
    await expect(c1).to_have_class("cell can")
    await page.locator("#plan-clear").tap()
    await expect(page.locator("#plan-prompt")).to_have_text("Tap their move on the board.")
    await expect(b1).to_have_class("cell can")
    await b1.tap()
    await expect(page.locator("#plan-prompt")).to_contain_text("b1: tap your reply")
    await c1.tap()
    await expect(page.locator("#plan-prompt")).to_contain_text("b1 => c1")
    await page.locator("#plan-save").tap()
    await expect(page.locator("#plan-status")).to_contain_text("Line 1 prepared")
    await expect(page.locator("#plan-lines li")).to_have_text(["b1 => c1"])
    # Back to the real game: Bo to move, nothing of the plan on the board.
    await page.locator("#plan-leave").tap()
    await expect(page.locator("#plan-banner")).to_be_hidden()
    await expect(b1).to_have_class("cell")
    await expect(c1).to_have_class("cell")
    # Nothing of it on the spectator's page: no panel, nothing listed, nothing drawn.
    await expect(watcher.locator("#plan")).to_be_hidden()
    assert await watcher.locator("#plan-lines li, #plan-bar").count() == 0
    await expect(watcher.locator('[data-cell="b1"]')).to_have_class("cell")

    answer = await web.manager.games.move(BO, TG_GROUP, "b1", gid)
    assert "replied c1 (prepared)" in answer.text, answer.text
    # Both pages follow the game: Ada's prepared c1 is on the real board now (Bo's b1 taken).
    for opened in (watcher, page):
        await expect(opened.locator('#board [data-cell="c1"]')).to_have_class("cell taken last")
        await expect(opened.locator("#moves button")).to_have_text(["a1", "b1", "c1"])
    for opened in (watcher, page):
        await opened.context.close()
