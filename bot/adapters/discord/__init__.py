"""The Discord adapter (discord.py 2.7): :class:`DiscordBot` in
:mod:`~bot.adapters.discord.adapter`, its buttons in :mod:`~bot.adapters.discord.buttons`, an
answered challenge's cards in :mod:`~bot.adapters.discord.cards`, an interaction's counted
followups in :mod:`~bot.adapters.discord.followups`, Discord's formatting in
:mod:`~bot.adapters.discord.format`,
the Move button's picker in :mod:`~bot.adapters.discord.picker`, a game's own thread in
:mod:`~bot.adapters.discord.threads`, the outbox sender in :mod:`~bot.adapters.discord.sender`
(where the bot cannot post remembered in :mod:`~bot.adapters.discord.reach`),
gateway shards in :mod:`~bot.adapters.discord.shards`, and running it in the bot process in
:mod:`~bot.adapters.discord.service`."""

from bot.adapters.discord.adapter import ActionButton, DiscordBot
from bot.adapters.discord.format import PLATFORM
from bot.adapters.discord.sender import DiscordSender
from bot.adapters.discord.service import (
    DEFAULT_API_URL,
    DEFAULT_GATEWAY_URL,
    DiscordUnavailable,
    point_at,
    serve,
)
from bot.adapters.discord.shards import ShardedDiscordBot, build_bot, syncs_commands

__all__ = [
    "DEFAULT_API_URL",
    "DEFAULT_GATEWAY_URL",
    "PLATFORM",
    "ActionButton",
    "DiscordBot",
    "DiscordSender",
    "DiscordUnavailable",
    "ShardedDiscordBot",
    "build_bot",
    "point_at",
    "serve",
    "syncs_commands",
]
