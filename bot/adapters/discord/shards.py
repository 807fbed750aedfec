"""Discord's gateway shards spread over processes (``DISCORD_SHARD_COUNT``,
``DISCORD_SHARD_IDS``).

Discord splits a bot's gateway traffic into shards: the events of a server (its slash
commands and button presses) reach only the connection of shard
``(guild_id >> 22) % shard_count``, and those outside servers (DMs) shard 0.  With a shard
count the bot is discord.py's :class:`discord.AutoShardedClient` running the shards named
(every one when none is named), so several processes on one database share the servers;
without one it is the plain single connection it always was.

What the shards do not change:

- Outbox delivery is REST, from whichever process claims a notification (see
  :mod:`bot.adapters.discord.sender`): it needs no gateway shard and no cache.
- The command tree is Discord's, one for the whole application: only the process that runs
  shard 0 (or every shard) syncs it, see :func:`syncs_commands`.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.adapters.discord.adapter import DEFER_AFTER, DiscordBot
from bot.delivery.outbox import Outbox
from bot.sessions.manager import SessionManager

__all__ = ["ShardedDiscordBot", "build_bot", "syncs_commands"]


def syncs_commands(shard_ids: Sequence[int] | None) -> bool:
    """Whether the process running ``shard_ids`` (``None``: every shard, or no sharding)
    syncs the command tree on start: only the one running shard 0.

    Every process would upload the same global list; Discord rate-limits that route per
    application (and command creations per day), so N processes starting together would
    draw 429s and waste the daily budget, and processes of two versions in a rolling restart
    would overwrite each other's list.  Shard 0 always runs somewhere (DMs go there), so
    exactly one process syncs.

    >>> syncs_commands(None), syncs_commands([0, 2]), syncs_commands([1, 3])
    (True, True, False)
    """
    return shard_ids is None or 0 in shard_ids


class ShardedDiscordBot(DiscordBot, discord.AutoShardedClient):
    """:class:`DiscordBot` on discord.py's :class:`discord.AutoShardedClient`: it runs the
    shards ``shard_ids`` (``None``: all) of ``shard_count``; everything else is as for
    :class:`DiscordBot`."""

    def __init__(
        self,
        manager: SessionManager,
        *,
        shard_count: int,
        shard_ids: Sequence[int] | None = None,
        guild_id: int | None = None,
        outbox: Outbox | None = None,
        defer_after: float = DEFER_AFTER,
        sync_commands: bool = True,
        guild_ready_timeout: float = 2.0,
    ) -> None:
        if shard_count < 1:
            raise ValueError(f"shard_count must be 1 or more, not {shard_count}")
        ids = None if shard_ids is None else list(shard_ids)
        if ids is not None and (not ids or any(not 0 <= i < shard_count for i in ids)):
            raise ValueError(f"shard_ids must be some of 0 to {shard_count - 1}, not {ids}")
        super().__init__(
            manager,
            guild_id=guild_id,
            outbox=outbox,
            defer_after=defer_after,
            sync_commands=sync_commands,
            guild_ready_timeout=guild_ready_timeout,
        )
        # DiscordBot's constructor knows nothing of shards; AutoShardedClient reads these two
        # attributes (documented ones) only when it connects, to launch the shards.
        self.shard_count = shard_count
        self.shard_ids = ids


def build_bot(
    manager: SessionManager,
    *,
    shard_count: int | None = None,
    shard_ids: Sequence[int] | None = None,
    guild_id: int | None = None,
    outbox: Outbox | None = None,
    guild_ready_timeout: float = 2.0,
) -> DiscordBot:
    """The bot for this process: a :class:`ShardedDiscordBot` when ``shard_count`` is set,
    else a plain :class:`DiscordBot`; it syncs the commands when :func:`syncs_commands`
    says so."""
    sync = syncs_commands(shard_ids)
    if shard_count is None:
        if shard_ids is not None:
            raise ValueError("shard_ids need a shard_count")
        return DiscordBot(
            manager,
            guild_id=guild_id,
            outbox=outbox,
            sync_commands=sync,
            guild_ready_timeout=guild_ready_timeout,
        )
    return ShardedDiscordBot(
        manager,
        shard_count=shard_count,
        shard_ids=shard_ids,
        guild_id=guild_id,
        outbox=outbox,
        sync_commands=sync,
        guild_ready_timeout=guild_ready_timeout,
    )
