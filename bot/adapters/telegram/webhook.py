"""Telegram's webhook mode: Telegram pushes every update by HTTPS POST to one public URL (a load
balancer in front of any number of bot processes on one database), instead of each process
long-polling ``getUpdates`` (which only one process may do at a time).

:class:`TelegramWebhook` runs a small aiohttp server of its own (not python-telegram-bot's
``Updater.start_webhook``) because the order of two steps matters:

- PTB's webhook server (like its polling, which confirms an offset before the handlers ran)
  answers Telegram ``200`` as soon as the update is queued.  A process killed between that
  answer and the end of handling loses the update: Telegram never sends it again.
- Here every request is handled first and answered after: ``200`` only once
  ``Application.process_update`` has returned.  A process that dies mid-handling never
  acknowledged the update, so Telegram delivers it again, possibly to another process behind
  the load balancer.

Every request must carry the secret token given to ``setWebhook`` in the
``X-Telegram-Bot-Api-Secret-Token`` header (compared in constant time): without it the answer
is ``401``, with a wrong one ``403``, and nothing is handled.  A body that is no update is a
``400``, never a crash.

Redelivery means the same update can arrive twice.  This process answers an exact duplicate
``update_id`` that it handled (or is handling) without handling it again; the ids are kept in a
small bounded set (:data:`RECENT_UPDATES`).  Duplicates that reach two different processes are
not caught here: that needs a claim in the shared database.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from telegram import Update
from telegram.error import TelegramError

from bot.adapters.redact import MASK, hide
from bot.adapters.telegram.adapter import ALLOWED_UPDATES, TelegramAdapter, TelegramUnavailable
from bot.adapters.telegram.format import PLATFORM
from bot.core.errors import StoreError
from bot.core.lru import Lru
from bot.core.ratelog import RateLimited
from bot.sessions.leases import Claim

__all__ = ["RECENT_UPDATES", "SECRET_HEADER", "SHUTDOWN_TIMEOUT", "TelegramWebhook"]

log = logging.getLogger(__name__)

#: How often a refused request (no or a wrong secret, no update) may be logged, in seconds.
REFUSAL_LOG_EVERY = 60.0

#: The header in which Telegram sends back the ``secret_token`` given to ``setWebhook``.
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
#: How many handled update ids a process remembers to answer exact redeliveries without
#: handling them twice (Telegram redelivers within minutes; ids only grow).
RECENT_UPDATES = 10_000
#: How long a stopping process lets the updates it is handling finish (seconds).
SHUTDOWN_TIMEOUT = 30.0
# Telegram's updates are small; anything bigger is refused before it is read.
_MAX_BODY = 1024 * 1024


class TelegramWebhook:
    """``adapter``'s updates from a webhook at ``url`` (see the module docstring).

    :meth:`start` connects the adapter, listens on ``host:port`` at ``url``'s path (``port``
    0 picks a free one: read :attr:`port`), then calls ``setWebhook``; :meth:`stop` stops
    listening once the updates in hand are handled and closes the adapter; :meth:`run` does
    both around a ``stop`` event.
    """

    def __init__(
        self,
        adapter: TelegramAdapter,
        url: str,
        secret: str,
        *,
        host: str = "0.0.0.0",
        port: int = 8443,
        recent: int = RECENT_UPDATES,
        shutdown_timeout: float = SHUTDOWN_TIMEOUT,
    ) -> None:
        if not secret:
            raise ValueError("a webhook needs a secret token")
        self.adapter = adapter
        self.url = url
        #: The path requests are accepted at (the URL's; the load balancer keeps it).
        self.path = urlsplit(url).path or "/"
        self.host = host
        self._port = port
        self._secret = secret.encode()
        # Requests without the secret are anyone's to send: logged at most once a minute.
        self._refusals = RateLimited(log, REFUSAL_LOG_EVERY)
        self._recent: Lru[int, None] = Lru(max(recent, 1))
        # Updates being handled now, by id: a duplicate waits for the first handling's outcome.
        self._handling: dict[int, asyncio.Future[bool]] = {}
        self._shutdown_timeout = shutdown_timeout
        self._runner: web.AppRunner | None = None
        # setWebhook's parameters (and PTB's debug log of them) carry the secret.
        hide(secret)

    @property
    def port(self) -> int:
        """The port listened on (the one picked when 0 was asked for, once started)."""
        return self._port

    async def start(self) -> None:
        """Connect, listen, then ask Telegram to push here (a failure is
        :class:`TelegramUnavailable`, with everything started closed again)."""
        await self.adapter.connect()
        app = web.Application(client_max_size=_MAX_BODY)
        app.router.add_post(self.path, self._on_request)
        # No access log: Telegram posts every update, and a refused request is logged below.
        self._runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=self._shutdown_timeout
        )
        try:
            await self._runner.setup()
            site = web.TCPSite(self._runner, self.host, self._port)
            await site.start()
        except OSError as exc:
            await self.stop()
            raise TelegramUnavailable(
                f"cannot listen for the Telegram webhook on {self.host}:{self._port}: "
                f"{exc.strerror or exc}"
            ) from None
        self._port = self._runner.addresses[0][1]
        try:
            # Listening first: Telegram pushes as soon as it knows the URL.  Every process
            # sets the same webhook on start; pending updates are kept (another process, or
            # this one before a restart, did not acknowledge them: they must be handled).
            await self.adapter.application.bot.set_webhook(
                self.url,
                secret_token=self._secret.decode(),
                allowed_updates=list(ALLOWED_UPDATES),
                drop_pending_updates=False,
            )
        except TelegramError as exc:
            await self.stop()
            detail = str(exc).replace(self._secret.decode(), MASK)
            raise TelegramUnavailable(
                f"cannot set the Telegram webhook: {type(exc).__name__}: {detail}"
            ) from None
        log.info("Telegram webhook: listening on %s:%d%s", self.host, self._port, self.path)

    async def stop(self) -> None:
        """Stop listening (updates in hand are handled and answered first, within the shutdown
        timeout) and close the adapter.

        The webhook is not deleted: the other processes behind the load balancer still serve
        it, and a deleted webhook would leave Telegram holding every update until some process
        sets it again."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.adapter.stop()

    async def run(self, stop: asyncio.Event) -> None:
        """Serve the webhook until ``stop`` is set."""
        await self.start()
        try:
            await stop.wait()
        finally:
            await self.stop()

    # ------------------------------------------------------------------ one request

    async def _on_request(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER)
        if given is None:
            self._refusals.warning(
                "webhook request from %s refused: no secret token", request.remote
            )
            return web.Response(status=401, text="missing secret token")
        if not hmac.compare_digest(given.encode("utf-8", "surrogateescape"), self._secret):
            self._refusals.warning(
                "webhook request from %s refused: wrong secret token", request.remote
            )
            return web.Response(status=403, text="wrong secret token")
        update = self._update(await request.read())
        if update is None:
            self._refusals.warning("webhook request from %s refused: not an update", request.remote)
            return web.Response(status=400, text="not a Telegram update")
        if await self._handle_once(update):
            return web.Response(text="ok")
        # Not handled (the process is stopping): Telegram sends it again, maybe elsewhere.
        return web.Response(status=503, text="not handled; send it again")

    def _update(self, body: bytes) -> Update | None:
        """The update in a request body, ``None`` if it is none."""
        try:
            data: Any = json.loads(body)
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            return None
        if not isinstance(data, dict) or type(data.get("update_id")) is not int:
            return None
        try:
            return Update.de_json(data, self.adapter.application.bot)
        except (TypeError, ValueError, KeyError, AttributeError):
            return None

    async def _claim(self, update_id: int) -> Claim:
        try:
            return await self.adapter.manager.posts.claim_update(PLATFORM, update_id)
        except StoreError as exc:  # the database is busy or away: Telegram sends it again
            log.warning("update %d not claimed (%s): asking for it again", update_id, exc)
            return Claim.BUSY

    async def _handle_once(self, update: Update) -> bool:
        """Handle ``update`` unless this process already did; whether it is handled now."""
        update_id = update.update_id
        if update_id in self._recent:
            log.info("update %d delivered again: handled already", update_id)
            return True
        running = self._handling.get(update_id)
        if running is not None:
            # Delivered again while being handled: answer with the first handling's outcome
            # (never 200 before it is done, or a crash now would lose the update).
            return await asyncio.shield(running)
        outcome: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._handling[update_id] = outcome
        handled = False
        try:
            # Among all the processes: a redelivery after a crash may come here although
            # another process handled it (or is handling it) already.
            claim = await self._claim(update_id)
            if claim is not Claim.NEW:
                handled = claim is Claim.DONE
                return handled
            app = self.adapter.application
            # Through the update processor, so the application's concurrency limit holds;
            # handler errors are answered by the adapter's error handler and count as handled
            # (sending a failing update again would fail again).
            await app.update_processor.process_update(update, app.process_update(update))
            handled = True
            try:
                await self.adapter.manager.posts.finish_update(PLATFORM, update_id)
            except StoreError as exc:  # answered all the same; another process may repeat it
                log.warning("update %d handled but not recorded as handled: %s", update_id, exc)
        finally:
            del self._handling[update_id]
            if handled:
                self._recent[update_id] = None
            outcome.set_result(handled)
        return True
