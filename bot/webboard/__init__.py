"""The public web board (issue 28): a page per game at ``<HEXHALL_PUBLIC_URL>/g/<slug>``, the
Telegram Mini App, personal "Open board" links, a JSON API and live updates, served by aiohttp
on ``HEXHALL_WEB_ADDR``, apart from the private health and metrics endpoint of :mod:`bot.web`.

Modules: :mod:`~bot.webboard.server` (routes and handlers), :mod:`~bot.webboard.auth`
(Telegram ``initData`` and signed link tokens), :mod:`~bot.webboard.view` (the board as JSON),
:mod:`~bot.webboard.page` (the HTML), :mod:`~bot.webboard.live` (pollers, watchers),
:mod:`~bot.webboard.limits` (rate limits), :mod:`~bot.webboard.reviewing` (the review after
the game, issue 30), :mod:`~bot.webboard.activity` (the board inside Discord, a Discord
Activity, issue 44); the page's script and style sheet are in ``static/``.
"""

from __future__ import annotations

import logging

from aiohttp import web

from bot.web import listen
from bot.webboard.server import WebBoard

__all__ = ["WebBoard", "WebEndpoint", "WebUnavailable", "serve_web"]

log = logging.getLogger(__name__)


class WebUnavailable(RuntimeError):
    """The web board cannot listen on its address."""


class WebEndpoint:
    """A running web board (see :func:`serve_web`); :meth:`close` stops it."""

    def __init__(self, board: WebBoard, runner: web.AppRunner) -> None:
        self.board = board
        self._runner = runner
        self._port = int(runner.addresses[0][1])

    @property
    def port(self) -> int:
        """The port it listens on (the one the system chose when asked for port 0)."""
        return self._port

    async def close(self) -> None:
        """Stop listening, end the open pages' event streams and the pollers."""
        await self.board.live.close()
        await self._runner.cleanup()


async def serve_web(board: WebBoard, host: str, port: int) -> WebEndpoint:
    """Serve ``board`` on ``host``:``port`` until closed; :class:`WebUnavailable` when it
    cannot listen there."""
    runner = await listen(board.app(), host, port, WebUnavailable, shutdown_timeout=1.0)
    endpoint = WebEndpoint(board, runner)
    log.info("web board served on %s port %d", host, endpoint.port)
    return endpoint
