"""The browser the web tests drive: Chromium with Playwright's own settings, less the address
bar drop-downs headless Chromium builds for every browser context (see
:data:`tests.web.conftest.NO_ADDRESS_BAR_POPUPS`)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import playwright
import pytest
from playwright.async_api import Browser, async_playwright

from tests.web.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NO_ADDRESS_BAR_POPUPS,
    PLAYWRIGHT_DISABLED_FEATURES,
)

_BUNDLE = Path(playwright.__file__).parent / "driver/package/lib/coreBundle.js"


def test_the_features_playwright_disables_stay_disabled() -> None:
    """Our ``--disable-features`` replaces Playwright's (Chromium keeps the last one), so it
    carries Playwright's list: the installed driver's list, read from its source, is ours."""
    source = _BUNDLE.read_text(encoding="utf-8")
    found = re.search(r"disabledFeatures = \[(.*?)\]\.filter\(Boolean\)", source, re.S)
    assert found is not None, f"Playwright's disabledFeatures list is no longer in {_BUNDLE}"
    code = "\n".join(line.split("//", 1)[0] for line in found.group(1).splitlines())
    assert set(re.findall(r'"([^"]+)"', code)) == set(PLAYWRIGHT_DISABLED_FEATURES)
    (ours,) = [a for a in CHROMIUM_ARGS if a.startswith("--disable-features=")]
    assert ours.removeprefix("--disable-features=").split(",") == [
        *PLAYWRIGHT_DISABLED_FEATURES,
        *NO_ADDRESS_BAR_POPUPS,
    ]


async def _browser_ui_targets(browser: Browser, *, expected: bool) -> list[str]:
    """The browser's own web pages (type ``browser_ui``) created while a new context opens
    two pages, each loaded; when ``expected``, waited for (10 s at most) should they come
    after the pages."""
    session = await browser.new_browser_cdp_session()
    created: list[str] = []
    came = asyncio.Event()

    def seen(event: dict[str, Any]) -> None:
        if event["targetInfo"]["type"] == "browser_ui":
            created.append(event["targetInfo"]["url"])
            came.set()

    session.on("Target.targetCreated", seen)
    await session.send("Target.setDiscoverTargets", {"discover": True})
    context = await browser.new_context()
    try:
        for _ in range(2):
            page = await context.new_page()
            await page.goto("data:text/html,<p>board</p>")
        await session.send("Target.getTargets")  # the events before it have all arrived
        if expected:
            await asyncio.wait_for(came.wait(), 10)
    finally:
        await context.close()
        await session.detach()
    return created


@pytest.mark.asyncio(loop_scope="session")
async def test_a_browser_context_opens_no_address_bar_popup(browser: Browser) -> None:
    """With Playwright's settings alone, a new context comes with the address bar's drop-down
    pages (the control); with ours, with none."""
    assert await _browser_ui_targets(browser, expected=False) == []
    async with async_playwright() as driver:
        plain = await driver.chromium.launch(
            executable_path=CHROMIUM,
            args=[a for a in CHROMIUM_ARGS if not a.startswith("--disable-features=")],
        )
        try:
            popups = await _browser_ui_targets(plain, expected=True)
        finally:
            await plain.close()
    assert popups and all(url.startswith("chrome://omnibox-popup") for url in popups), popups
