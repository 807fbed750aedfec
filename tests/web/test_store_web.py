"""Web page slugs in the store, on SQLite and PostgreSQL: made once per game, unguessable,
found again; and the web board's settings."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.config import ConfigError, settings
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage.sql import SqlStore
from tests.web.kit import ADA, BO, TG_GROUP, new_game


async def test_one_slug_per_game(store: SqlStore) -> None:
    manager = SessionManager(store, FakeClock(), pictures=False)
    one = await new_game(manager, "pathagon", ADA, BO, TG_GROUP)
    two = await new_game(manager, "pathagon", ADA, BO, TG_GROUP)
    now = manager.now()
    # Two requests at once (two processes would be the same) get the same slug.
    first, again = await asyncio.gather(store.web_slug(one, now), store.web_slug(one, now))
    other = await store.web_slug(two, now)
    assert first == again != other
    assert len(first) == 22 and first.isascii() and str(one) not in (first, other)
    assert await store.game_of_slug(first) == one
    assert await store.game_of_slug(other) == two
    assert await store.game_of_slug("no-such-slug-at-all-00") is None


async def test_spectators_of_every_process(store: SqlStore) -> None:
    manager = SessionManager(store, FakeClock(), pictures=False)
    gid = await new_game(manager, "pathagon", ADA, BO, TG_GROUP)
    now = manager.now()
    later = now + timedelta(seconds=30)
    assert await store.watch_count(gid, "one", 2, later, now) == 2
    assert await store.watch_count(gid, "two", 3, later, now) == 5
    assert await store.watch_count(gid, "one", 1, later, now) == 4
    assert await store.watch_count(gid, "two", 0, later, now) == 1
    # A process that stopped renewing its count drops out when it runs out.
    assert await store.watch_count(gid, "two", 3, now + timedelta(seconds=5), now) == 4
    assert await store.watch_count(gid, "one", 1, later, now + timedelta(seconds=6)) == 1


def test_web_settings() -> None:
    config = settings(
        {
            "HEXHALL_WEB_ADDR": "127.0.0.1:8080",
            "HEXHALL_PUBLIC_URL": "https://hexhall.example/",
            "HEXHALL_WEB_SECRET": "s3cret",
            "TELEGRAM_WEB_APP": "board",
        }
    )
    assert config.web_addr is not None and config.web_addr.port == 8080
    assert config.public_url == "https://hexhall.example"
    assert config.telegram_web_app == "board"
    assert "s3cret" in config.secrets and "s3cret" not in repr(config)
    assert settings({}).web_addr is None
    with pytest.raises(ConfigError, match="HEXHALL_PUBLIC_URL must be set"):
        settings({"HEXHALL_WEB_ADDR": "127.0.0.1:8080"})
    with pytest.raises(ConfigError, match="HEXHALL_PUBLIC_URL must be an absolute"):
        settings({"HEXHALL_WEB_ADDR": "127.0.0.1:8080", "HEXHALL_PUBLIC_URL": "hexhall.example"})
    with pytest.raises(ConfigError, match="TELEGRAM_WEB_APP"):
        settings({"TELEGRAM_WEB_APP": "bad name!"})
