"""One redactor for the process, holding every secret of the settings (both chat tokens, the
webhook secret, the database password), installed once on the log handlers."""

from __future__ import annotations

import logging

import pytest

from bot.adapters.redact import REDACTOR, hide
from bot.config import Secret, Settings


def test_the_settings_name_every_secret_they_hold() -> None:
    config = Settings(
        Secret("discord.tok"),
        Secret("123:telegram"),
        "postgresql://hexhall:pg-pass@db.example/hexhall?sslmode=require&password=other-pass",
        telegram_webhook_secret=Secret("hook-secret"),
    )
    assert set(config.secrets) == {
        "discord.tok",
        "123:telegram",
        "hook-secret",
        "pg-pass",
        "other-pass",
    }
    assert Settings(Secret(""), Secret(""), "hexhall.db").secrets == ()


def test_every_secret_is_masked_by_the_one_redactor_installed_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    config = Settings(
        Secret("discord.tok"),
        Secret("123:telegram"),
        "postgresql://hexhall:pg-pass@db.example/hexhall",
        telegram_webhook_secret=Secret("hook-secret"),
    )
    caplog.set_level(logging.INFO)
    hide(*config.secrets)
    hide(*config.secrets)  # again (each adapter hides its own): still one filter per handler
    for handler in logging.getLogger().handlers:
        assert handler.filters.count(REDACTOR) == 1
    log = logging.getLogger("tests.redact")
    for secret in config.secrets:
        log.info("a line with %s in it", secret)
        try:
            raise RuntimeError(f"refused {secret}")
        except RuntimeError:
            log.exception("failed")
    assert caplog.records
    for secret in config.secrets:
        assert secret not in caplog.text
    assert caplog.text.count("***") >= 2 * len(config.secrets)
