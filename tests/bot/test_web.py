"""The HTTP endpoint (``HEXHALL_HTTP_ADDR``): the health check and the Prometheus metrics,
served for real on 127.0.0.1 and read with an HTTP client; its setting; its start and stop
with the bot."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import AppError, http_endpoint
from bot.config import Address, ConfigError, Secret, Settings, settings
from bot.core.notification import Kind, Notification, Recipient
from bot.delivery.outbox import Outbox
from bot.messages import Chat, Text
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import NewGame, SqliteStore
from bot.web import HttpEndpoint, HttpUnavailable, serve_http

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
#: No token: the settings of a bot with no chat adapter.
NO = Secret("")


class Sent:
    """An outbox sender that keeps what it was given (the console's way, without printing)."""

    def __init__(self) -> None:
        self.notes: list[Notification] = []

    async def send(self, notification: Notification) -> None:
        self.notes.append(notification)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(tmp_path / "web.db")
    try:
        yield opened
    finally:
        await opened.close()


async def get(endpoint: HttpEndpoint, path: str) -> tuple[int, str, str]:
    """Status, content type and body of ``GET path`` on the endpoint."""
    async with (
        aiohttp.ClientSession() as client,
        client.get(f"http://127.0.0.1:{endpoint.port}{path}") as response,
    ):
        return response.status, response.headers["Content-Type"], await response.text()


def samples(text: str, name: str) -> dict[str, float]:
    """The values of the metric sample ``name`` in an exposition, by platform label."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                found[sample.labels.get("platform", "")] = sample.value
    return found


async def queue(store: SqliteStore, platform: str, waits: list[timedelta]) -> None:
    """One notification for a player on ``platform`` per entry of ``waits``, due that long
    before :data:`START` (a negative wait: due after it)."""
    alice = await store.player(platform, "1", "alice", START)
    bob = await store.player(platform, "2", "bob", START)
    game = await store.create_game(
        NewGame("maphex", {}, alice.id, bob.id, platform, "room", 0, {}), START
    )
    who = Recipient(platform, bob.user_id, bob.name, bob.id)
    notes = [
        Notification(
            kind=Kind.OPPONENT_AWAY,
            recipient=who,
            text=Text.of(who.mention(), f": note {i}"),
            deliver_after=START - wait,
            chat=Chat(platform, "room"),
            game_id=game.id,
        )
        for i, wait in enumerate(waits)
    ]
    assert await store.update_game(game, START, notes, reminder_sent_for_ply=0) is not None


async def test_health_answers_ok_while_the_database_answers(store: SqliteStore) -> None:
    endpoint = await serve_http(store, FakeClock(START), "127.0.0.1", 0)
    try:
        assert endpoint.port > 0
        assert await get(endpoint, "/health") == (200, "text/plain; charset=utf-8", "ok")
        status, _, _ = await get(endpoint, "/nothing-here")
        assert status == 404
    finally:
        await endpoint.close()
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(endpoint, "/health")  # closed: nobody listens any more


async def test_a_failing_database_is_a_503_with_one_line(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "gone.db")
    await store.close()  # every query now fails
    endpoint = await serve_http(store, FakeClock(START), "127.0.0.1", 0)
    try:
        for path in ("/health", "/metrics"):
            status, _, body = await get(endpoint, path)
            assert status == 503
            # (aiosqlite's closed connection: "ValueError: Connection closed")
            assert body.startswith("the database failed: ValueError: ")
            assert body.count("\n") == 1 and body.endswith("\n") and len(body) <= 201
    finally:
        await endpoint.close()


async def test_metrics_show_the_outbox_backlog_read_at_scrape_time(store: SqliteStore) -> None:
    clock = FakeClock(START)
    # Two due (waiting 90 s and 30 s), one due only in a minute: not in the backlog.
    waits = [timedelta(seconds=90), timedelta(seconds=30), timedelta(seconds=-60)]
    await queue(store, "webtest", waits)
    due = await store.due_notifications("webtest", START)
    assert len(due) == 2
    oldest = (START - min(n.deliver_after for n in due)).total_seconds()
    endpoint = await serve_http(store, clock, "127.0.0.1", 0)
    try:
        status, content_type, text = await get(endpoint, "/metrics")
        assert status == 200 and content_type.startswith("text/plain")
        assert samples(text, "hexhall_outbox_depth")["webtest"] == len(due)
        assert samples(text, "hexhall_outbox_lag_seconds")["webtest"] == oldest == 90.0
        # Every metric of the bot is there, with its help line.
        for name in (
            "hexhall_moves",
            "hexhall_replies",
            "hexhall_outbox_depth",
            "hexhall_outbox_lag_seconds",
            "hexhall_delivery_lag_seconds",
            "hexhall_clock_sweep_seconds",
        ):
            assert f"# HELP {name}" in text
        # Time passes: the wait grows, read afresh at the next scrape.
        clock.advance(seconds=15)
        _, _, text = await get(endpoint, "/metrics")
        assert samples(text, "hexhall_outbox_lag_seconds")["webtest"] == oldest + 15
        # Delivered: the backlog of that platform reads 0 (not a vanished series).
        sender = Sent()
        assert await Outbox(store, clock).deliver_due("webtest", sender) == len(due)
        _, _, text = await get(endpoint, "/metrics")
        assert samples(text, "hexhall_outbox_depth")["webtest"] == 0
        assert samples(text, "hexhall_outbox_lag_seconds")["webtest"] == 0
        # The one not yet due falls due: it is the backlog now.
        clock.advance(seconds=60)
        _, _, text = await get(endpoint, "/metrics")
        assert samples(text, "hexhall_outbox_depth")["webtest"] == 1
        assert samples(text, "hexhall_outbox_lag_seconds")["webtest"] == 15
    finally:
        await endpoint.close()


async def test_openmetrics_is_served_when_the_scraper_asks_for_it(store: SqliteStore) -> None:
    endpoint = await serve_http(store, FakeClock(START), "127.0.0.1", 0)
    try:
        headers = {"Accept": "application/openmetrics-text; version=1.0.0"}
        async with (
            aiohttp.ClientSession() as client,
            client.get(f"http://127.0.0.1:{endpoint.port}/metrics", headers=headers) as got,
        ):
            body = await got.text()
            assert got.status == 200
            assert got.headers["Content-Type"].startswith("application/openmetrics-text")
        assert body.endswith("# EOF\n") and "# TYPE hexhall_moves counter" in body
    finally:
        await endpoint.close()


async def test_an_address_in_use_is_refused_in_one_line(store: SqliteStore) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(HttpUnavailable, match=rf"^cannot listen on 127\.0\.0\.1:{port}: "):
            await serve_http(store, FakeClock(START), "127.0.0.1", port)
        manager = SessionManager(store, FakeClock(START), pictures=False)
        config = Settings(NO, NO, "unused", http_addr=Address("127.0.0.1", port))
        with pytest.raises(AppError) as refused:
            async with http_endpoint(config, manager):
                pass
        assert refused.value.code == 3 and str(refused.value).startswith("cannot listen on")


async def test_the_bot_serves_the_endpoint_only_when_the_address_is_set(
    store: SqliteStore,
) -> None:
    manager = SessionManager(store, FakeClock(START), pictures=False)
    off = Settings(NO, NO, "unused")
    async with http_endpoint(off, manager) as endpoint:
        assert endpoint is None
    on = Settings(NO, NO, "unused", http_addr=Address("127.0.0.1", 0))
    async with http_endpoint(on, manager) as endpoint:
        assert endpoint is not None
        assert (await get(endpoint, "/health"))[0] == 200
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(endpoint, "/health")  # stopped with the bot


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("", None),
        ("   ", None),
        ("127.0.0.1:9100", Address("127.0.0.1", 9100)),
        (" 0.0.0.0:80 ", Address("0.0.0.0", 80)),
        ("metrics.internal:65535", Address("metrics.internal", 65535)),
        ("[::1]:9100", Address("::1", 9100)),
    ],
)
def test_the_address_setting_is_read(value: str, expected: Address | None) -> None:
    assert settings({"HEXHALL_HTTP_ADDR": value}).http_addr == expected
    assert settings({}).http_addr is None


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("9100", "HEXHALL_HTTP_ADDR must be host:port (like 127.0.0.1:9100), not '9100'"),
        (":9100", "HEXHALL_HTTP_ADDR must be host:port (like 127.0.0.1:9100), not ':9100'"),
        ("localhost:", "HEXHALL_HTTP_ADDR must be host:port (like 127.0.0.1:9100), not "),
        ("localhost:http", "HEXHALL_HTTP_ADDR must be host:port"),
        ("local host:9100", "HEXHALL_HTTP_ADDR must be host:port"),
        ("::1:9100", "HEXHALL_HTTP_ADDR must be host:port"),
        ("[nope]:9100", "HEXHALL_HTTP_ADDR must be host:port"),
        ("127.0.0.1:٩١٠٠", "HEXHALL_HTTP_ADDR must be host:port"),
        ("127.0.0.1:0", "HEXHALL_HTTP_ADDR: the port must be 1 to 65535, not 0"),
        ("127.0.0.1:70000", "HEXHALL_HTTP_ADDR: the port must be 1 to 65535, not 70000"),
    ],
)
def test_a_bad_address_setting_is_a_clear_error(value: str, message: str) -> None:
    with pytest.raises(ConfigError) as error:
        settings({"HEXHALL_HTTP_ADDR": value})
    assert str(error.value).startswith(message)
