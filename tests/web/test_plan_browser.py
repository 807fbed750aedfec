"""Plan mode on the web board (issue 46) in a real headless Chromium: Ada, signed in through
Telegram on her board during Bo's turn, taps Bo's move and then her reply from the parts the
server offers along the line, saves the line and sees it listed; a spectator gets no plan
panel; Bo's move into the line plays her reply."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from tests.web.kit import ADA, BO, TG_GROUP, Site, init_data, new_game, phone

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_plan_a_line_by_tapping_along_it(browser: Browser, web: Site) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1"])  # Bo to move
    link = await web.board.link(gid)
    watcher = await phone(browser)
    await watcher.goto(link)
    await expect(watcher.locator("[data-cell]").first).to_be_visible()

    page = await phone(browser, init_data(ADA, web.clock))
    await page.goto(link)
    await expect(page.locator("#plan")).to_be_visible()
    await expect(page.locator("#plan-prompt")).to_contain_text("tap their move")
    for move in ("b1", "c1"):
        await page.locator("#plan-choices button", has_text=move).first.tap()
        await expect(page.locator("#plan-add")).to_be_enabled()
        await page.locator("#plan-add").tap()
    await expect(page.locator("#plan-prompt")).to_contain_text("b1 => c1")
    await expect(page.locator("#plan-save")).to_be_enabled()
    await page.locator("#plan-save").tap()
    await expect(page.locator("#plan-status")).to_contain_text("Line 1 prepared")
    await expect(page.locator("#plan-lines li")).to_have_text(["b1 => c1"])
    # Nothing of it on the spectator's page: no panel, nothing listed.
    await expect(watcher.locator("#plan")).to_be_hidden()
    assert await watcher.locator("#plan-lines li").count() == 0

    answer = await web.manager.move(BO, TG_GROUP, "b1", gid)
    assert "replied c1 (prepared)" in answer.text, answer.text
    for opened in (watcher, page):
        await opened.context.close()
