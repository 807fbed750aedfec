"""Fixtures of the adapter tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.adapters.discord_kit import fake_discord
from tests.fakes.discord_fake import FakeDiscord


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    # httpx honours proxy variables; calls to the fakes must stay on 127.0.0.1.
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.setenv("PTB_TIMEDELTA", "1")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord on 127.0.0.1 (the Discord tests' ``fake``; a module defining its own
    ``fake`` uses that one)."""
    async with fake_discord() as server:
        yield server
