"""Running the Telegram adapter in the bot process: build it for the configured Bot API, deliver
the outbox's Telegram notifications, and take updates by long polling or, with a webhook URL,
behind a load balancer (:mod:`~bot.adapters.telegram.webhook`), until told to stop.

The token (and the webhook's secret) go to the process's one redactor
(:mod:`bot.adapters.redact`) before anything can log them.
"""

from __future__ import annotations

import asyncio

from bot.adapters.redact import hide
from bot.adapters.telegram.adapter import (
    DEFAULT_API_URL,
    DEFAULT_FILE_URL,
    TelegramAdapter,
    TelegramUnavailable,
)
from bot.adapters.telegram.format import PLATFORM
from bot.adapters.telegram.pacing import ChatPacer
from bot.adapters.telegram.sender import TelegramSender
from bot.sessions.manager import SessionManager

__all__ = ["TelegramUnavailable", "serve"]


async def serve(
    manager: SessionManager,
    token: str,
    stop: asyncio.Event,
    *,
    api_url: str = DEFAULT_API_URL,
    file_url: str = DEFAULT_FILE_URL,
    webhook_url: str = "",
    webhook_secret: str = "",
    host: str = "0.0.0.0",
    port: int = 8443,
    web_app: str = "",
    pace: float = 1.0,
) -> None:
    """Run the adapter and its outbox worker on ``manager`` until ``stop`` is set (a token or
    connection that fails for good raises :class:`TelegramUnavailable`).  With
    ``webhook_url`` Telegram pushes updates to ``host``:``port`` with ``webhook_secret``
    (several processes behind one load balancer); without, this process polls.  ``web_app``
    is the web board's Mini App short name, for its links in groups.  ``pace`` scales the
    pacer's windows (tests only: 1 keeps Telegram's limits)."""
    hide(token, webhook_secret)
    pacer = ChatPacer()
    pacer.chat_period *= pace
    pacer.group_period *= pace
    adapter = TelegramAdapter.build(
        manager, token, api_url=api_url, file_url=file_url, rate_limiter=pacer
    )
    adapter.web_app = web_app
    outbox = manager.outbox()
    adapter.outbox = outbox  # woken after every update: notices go out at once
    sender = TelegramSender(adapter.application.bot, manager.recaps(), manager, web_app=web_app)
    # Each process delivers its own outbox share, polling or not (the store's claims keep
    # a notification from going out twice).
    delivery = asyncio.create_task(outbox.run(PLATFORM, sender, stop=stop))
    try:
        if webhook_url:
            from bot.adapters.telegram.webhook import TelegramWebhook

            webhook = TelegramWebhook(adapter, webhook_url, webhook_secret, host=host, port=port)
            await webhook.run(stop)
        else:
            await adapter.run(stop)
    finally:
        stop.set()
        await delivery
