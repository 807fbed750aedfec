"""The bot's small HTTP endpoint (``HEXHALL_HTTP_ADDR``): a health check and the Prometheus
metrics of :mod:`bot.metrics`, served with aiohttp.

- ``GET /health``: ``200 ok`` when the database answers a trivial query within
  :data:`TIMEOUT` seconds, else ``503`` with a one-line reason.
- ``GET /metrics``: the outbox gauges are read from the database first, then the registry is
  written in the format the scraper asks for (``prometheus_client``'s aiohttp handler: the
  Prometheus text format, or OpenMetrics).  A database that does not answer is a ``503``
  with a one-line reason (the scraper then marks the process down).

It is meant for a private network (a Prometheus server, a load balancer's health check): it
has no authentication, and tells nothing but figures.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Protocol, TypeVar

from aiohttp import web
from prometheus_client.aiohttp import make_aiohttp_handler

from bot import metrics
from bot.delivery.outbox import Clock
from bot.storage.rows import Backlog

__all__ = ["TIMEOUT", "HealthStore", "HttpEndpoint", "HttpUnavailable", "http_app", "serve_http"]

log = logging.getLogger(__name__)

#: How long a request waits for the database before answering 503 (seconds).
TIMEOUT = 5.0

T = TypeVar("T")


class HealthStore(Protocol):
    """What the endpoint asks the store: a trivial query for the health check, and the
    outbox's backlog for the gauges."""

    async def schema_version(self) -> int:
        """The schema version of the open database."""
        ...

    async def outbox_backlog(self, now: datetime) -> list[Backlog]:
        """Per platform: how many notifications are due and undelivered at ``now``, and how
        many seconds the oldest of them has waited."""
        ...


class HttpUnavailable(RuntimeError):
    """The endpoint cannot listen on its address (in use, not this machine's, not allowed)."""


async def listen(
    app: web.Application,
    host: str,
    port: int,
    unavailable: type[Exception],
    *,
    shutdown_timeout: float = 60.0,
) -> web.AppRunner:
    """Serve ``app`` on ``host``:``port`` with no access log and return its runner; raises
    ``unavailable`` with a one-line reason when it cannot listen there (in use, not this
    machine's address, not allowed)."""
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=shutdown_timeout)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:
        await runner.cleanup()
        shown = f"[{host}]" if ":" in host else host
        raise unavailable(f"cannot listen on {shown}:{port}: {exc.strerror or exc}") from None
    return runner


def _reason(exc: BaseException, timeout: float) -> str:
    """One line saying why the database did not answer (never more than 200 characters)."""
    if isinstance(exc, TimeoutError):
        return f"the database did not answer within {timeout:g} s"
    lines = str(exc).strip().splitlines()
    detail = f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__
    return f"the database failed: {detail}"[:200]


def http_app(store: HealthStore, clock: Clock, *, timeout: float = TIMEOUT) -> web.Application:
    """The endpoint's routes on ``store`` (``clock`` tells the outbox gauges what "now" is);
    ``timeout`` is how long a request waits for the database."""
    exposition = make_aiohttp_handler(metrics.REGISTRY)

    async def ask(query: Callable[[], Awaitable[T]], what: str) -> T | web.Response:
        """The database's answer to ``query``, or the 503 response that says why not."""
        try:
            return await asyncio.wait_for(query(), timeout)
        except Exception as exc:  # whatever the store raises, the answer is one line
            reason = _reason(exc, timeout)
            log.warning("%s: %s", what, reason)
            return web.Response(status=503, text=reason + "\n")

    async def health(request: web.Request) -> web.Response:
        answer = await ask(store.schema_version, "health check failed")
        if isinstance(answer, web.Response):
            return answer
        return web.Response(text="ok")

    async def scrape(request: web.Request) -> web.StreamResponse:
        answer = await ask(lambda: store.outbox_backlog(clock.now()), "metrics not read")
        if isinstance(answer, web.Response):
            return answer
        metrics.set_backlog(answer)
        return await exposition(request)

    app = web.Application()
    app.router.add_get("/health", health)
    app.router.add_get("/metrics", scrape)
    return app


class HttpEndpoint:
    """A running endpoint (see :func:`serve_http`); :meth:`close` stops it."""

    def __init__(self, runner: web.AppRunner) -> None:
        self._runner = runner
        # Kept: the runner forgets its sockets once closed.
        self._port = int(runner.addresses[0][1])

    @property
    def port(self) -> int:
        """The port it listens (or listened) on: the one the system chose when asked for
        port 0."""
        return self._port

    async def close(self) -> None:
        """Stop listening and end the requests in progress."""
        await self._runner.cleanup()


async def serve_http(
    store: HealthStore, clock: Clock, host: str, port: int, *, timeout: float = TIMEOUT
) -> HttpEndpoint:
    """Serve :func:`http_app` on ``host``:``port`` (port 0: a free one, see
    :attr:`HttpEndpoint.port`) until the endpoint is closed.  Raises :class:`HttpUnavailable`
    when it cannot listen there."""
    # No access log: a scraper's request every few seconds would drown the bot's own lines.
    runner = await listen(http_app(store, clock, timeout=timeout), host, port, HttpUnavailable)
    endpoint = HttpEndpoint(runner)
    log.info("health and metrics served on %s port %d", host, endpoint.port)
    return endpoint
