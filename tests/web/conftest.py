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
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
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
