"""A game in its own thread: once a challenge made in a server channel is accepted, its card
stays in the channel and a public thread named after the game ("#12 Maphex: Alice vs Bob")
is started from it, where the boards and the talk go; the channel is told the result.

Discord (its channel resource docs, seen with the docs search): "Start Thread from Message" is
``POST /channels/{channel.id}/messages/{message.id}/threads`` with a ``name`` of 1 to 100
characters and an ``auto_archive_duration`` of 60, 1440, 4320 or 10080 minutes; it needs the
Create Public Threads permission, and posting in a thread needs Send Messages in Threads.
The bot reads both from the interaction's ``app_permissions``; where either is missing, or
the channel is a DM or group DM (no threads there), the game stays in the channel as before.

Inside a thread the manager still sees the channel the thread belongs to
(:func:`chat_here`), so the game's chat, its community (the server) and "your only game
here" are the same in the thread as in the channel.
"""

from __future__ import annotations

from typing import Final, Literal

import discord

from bot.adapters.discord.format import chat_of
from bot.messages import Chat, GameFacts
from bot.sessions import texts

__all__ = [
    "ARCHIVE_AFTER",
    "THREAD_PERMISSIONS",
    "can_thread",
    "chat_here",
    "parent_of",
    "thread_name_of",
]

#: The permissions a game's thread needs (Create Public Threads, Send Messages in Threads).
THREAD_PERMISSIONS = discord.Permissions(create_public_threads=True, send_messages_in_threads=True)
#: A quiet thread is archived after a week, the longest of the four durations Discord takes
#: (60, 1440, 4320, 10080 minutes): correspondence games may wait days for a move.
ARCHIVE_AFTER: Final[Literal[10080]] = 10080


def parent_of(interaction: discord.Interaction) -> int | None:
    """The channel a thread belongs to, when the interaction comes from a thread."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return channel.parent_id
    return None


def chat_here(interaction: discord.Interaction) -> Chat:
    """The manager's chat for an interaction: its channel, or the channel of its thread (a
    direct chat when it came from the user's DM with the bot, see
    :func:`~bot.adapters.discord.format.chat_of`)."""
    return chat_of(
        parent_of(interaction) or interaction.channel_id,
        interaction.guild_id,
        bool(interaction.context.dm_channel),
    )


def can_thread(interaction: discord.Interaction) -> bool:
    """Whether the bot may start a game's thread where ``interaction`` happened: a server's
    text channel, the app installed to that server (its bot a member: the interaction is
    authorised by the server install, not only by a user's), with :data:`THREAD_PERMISSIONS`."""
    return (
        interaction.guild_id is not None
        and interaction.is_guild_integration()
        and isinstance(interaction.channel, discord.TextChannel)
        and interaction.app_permissions.is_superset(THREAD_PERMISSIONS)
    )


def thread_name_of(facts: GameFacts) -> str:
    """The name of a game's thread: number, game and players."""
    first, second = (m.name[:40] for m in facts.mentions)
    return texts.thread_name(facts.game_id, facts.title, first, second)
