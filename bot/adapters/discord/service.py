"""Running the Discord adapter in the bot process: point discord.py at the configured URLs,
log in, sync the commands, deliver the outbox's Discord notifications, and stop cleanly.
With a shard count it runs the gateway shards named (see :mod:`bot.adapters.discord.shards`).

The token is handed to discord.py and to nothing else; the process's one redactor
(:mod:`bot.adapters.redact`) replaces it with ``***`` in every record that reaches the log
handlers, just in case.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl

from bot.adapters.discord.format import PLATFORM
from bot.adapters.discord.sender import DiscordSender
from bot.adapters.discord.shards import build_bot
from bot.adapters.redact import hide
from bot.sessions.manager import SessionManager

__all__ = [
    "CONNECTION_ERRORS",
    "DEFAULT_API_URL",
    "DEFAULT_GATEWAY_URL",
    "DiscordUnavailable",
    "point_at",
    "serve",
]

log = logging.getLogger(__name__)

#: Discord's REST base and gateway (what discord.py 2.7 uses by default).
DEFAULT_API_URL = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"


#: What ends the gateway connection from outside (the network, Discord closing it): reported in
#: one line; any other error of the client is logged with its stack.
CONNECTION_ERRORS = (
    discord.ConnectionClosed,
    discord.GatewayNotFound,
    aiohttp.ClientError,
    OSError,
)


class DiscordUnavailable(RuntimeError):
    """The bot cannot log in to Discord or lost its connection for good (the message says
    which, without the token)."""


def point_at(api_url: str, gateway_url: str) -> None:
    """Make discord.py talk to ``api_url`` (REST base, ending in ``/api/v10``) and
    ``gateway_url`` (websocket).  These are discord.py internals (pinned ``~= 2.7.0``; a
    canary test fails if they change)."""
    discord.http.Route.BASE = api_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def serve(
    manager: SessionManager,
    token: str,
    stop: asyncio.Event,
    *,
    api_url: str = DEFAULT_API_URL,
    gateway_url: str = DEFAULT_GATEWAY_URL,
    guild_id: int | None = None,
    guild_ready_timeout: float = 2.0,
    shard_count: int | None = None,
    shard_ids: Sequence[int] | None = None,
    activity: bool = False,
) -> None:
    """Run the bot until ``stop`` is set (or the connection fails for good: then raise).

    ``shard_count`` (``None``: no sharding) and ``shard_ids`` (``None``: every shard) choose
    the gateway shards this process runs; only the process running shard 0 syncs the
    commands, and every process delivers Discord's notifications from the outbox.
    ``activity``: "Open board" launches the app's Activity (``HEXHALL_DISCORD_ACTIVITY``)."""
    point_at(api_url, gateway_url)
    outbox = manager.outbox()
    bot = build_bot(
        manager,
        shard_count=shard_count,
        shard_ids=shard_ids,
        guild_id=guild_id,
        outbox=outbox,
        guild_ready_timeout=guild_ready_timeout,
    )
    bot.open_in_activity = activity
    sender = DiscordSender(bot, manager.recaps())
    hide(token)
    try:
        await bot.login(token)
    except discord.LoginFailure:
        await bot.close()
        raise DiscordUnavailable("Discord refused the token (DISCORD_TOKEN)") from None
    except (aiohttp.ClientError, OSError):
        await bot.close()
        raise DiscordUnavailable(f"cannot connect to Discord at {api_url}") from None
    except BaseException:
        await bot.close()
        raise
    running = asyncio.create_task(bot.connect())
    stopping = asyncio.create_task(stop.wait())
    ready = asyncio.create_task(bot.wait_until_ready())
    delivery: asyncio.Task[None] | None = None
    try:
        await asyncio.wait({running, stopping, ready}, return_when=asyncio.FIRST_COMPLETED)
        if ready.done() and not stop.is_set():
            delivery = asyncio.create_task(outbox.run(PLATFORM, sender, stop=stop))
            log.info(
                "Discord adapter ready as %s (shards %s of %s)",
                bot.user,
                "all" if shard_ids is None else ",".join(map(str, shard_ids)),
                shard_count or 1,
            )
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.set()
        for task in (stopping, ready):
            task.cancel()
        if delivery is not None:
            await delivery
        await bot.close()
        if running.done() and not running.cancelled() and running.exception() is not None:
            error = running.exception()
            if isinstance(error, CONNECTION_ERRORS):
                raise DiscordUnavailable(
                    f"the connection to Discord ended: {type(error).__name__}"
                ) from None
            # Anything else (privileged intents refused, a bug) keeps its stack in the log.
            log.error("the Discord client failed: %s", type(error).__name__, exc_info=error)
            raise DiscordUnavailable(
                f"the Discord client failed: {type(error).__name__}: {error}"
            ) from error
        else:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
