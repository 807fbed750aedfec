"""Rate-limited log lines (issue 27): what strangers can cause at will is logged at most once
a period, the next line saying how many were left out."""

from __future__ import annotations

import logging

import pytest

from bot.core.ratelog import RateLimited


def test_one_line_a_period_then_the_count(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    lines = RateLimited(logging.getLogger("test.ratelog"), every=60.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING):
        for _ in range(500):
            lines.warning("request from %s refused", "1.2.3.4")
        now[0] = 60.0
        lines.warning("request from %s refused", "1.2.3.4")
    messages = [r.getMessage() for r in caplog.records]
    assert messages == [
        "request from 1.2.3.4 refused",
        "request from 1.2.3.4 refused (and 499 more like it since the last one logged)",
    ]
