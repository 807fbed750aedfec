"""The web board tests' fixtures: one headless Chromium for the whole session (Debian's
``/usr/bin/chromium``, driven by Playwright; no browser is downloaded), and a bot with its web
board on a fresh SQLite file for each test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
from playwright.async_api import Browser, async_playwright

from tests.web.kit import Site, site

CHROMIUM = "/usr/bin/chromium"

#: The features Playwright (1.65.2) disables in Chromium with its own ``--disable-features``.
#: Chromium honours only the last ``--disable-features`` on its command line (the values are
#: not merged: microsoft/playwright#36658, browserless/browserless#5450), so the one below
#: carries these too; ``tests/web/test_chromium.py`` checks the list against the installed
#: Playwright's.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)

#: Chromium 156's address bar drop-downs, drawn as web pages (``chrome://omnibox-popup.top-
#: chrome/``): headless Chromium still builds them for every browser context, one renderer
#: process each, which no test page ever shows.  They were about half of Chromium's processor
#: time in the browser tests (``tests/web/test_board.py``, ``test_sturdy.py`` and
#: ``test_browser.py``: 103 s without, 54 s with these off).
NO_ADDRESS_BAR_POPUPS = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + NO_ADDRESS_BAR_POPUPS),
]


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Browser]:
    """One headless Chromium shared by every browser test."""
    assert Path(CHROMIUM).exists(), (
        "install Debian's chromium (.ci/run does: apt-get install chromium)"
    )
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture(loop_scope="session")
async def web(tmp_path: Path) -> AsyncIterator[Site]:
    """A bot with its web board, on a fresh SQLite file."""
    async with site(str(tmp_path / "hexhall.db")) as running:
        yield running
