"""Whose language a Discord interaction is answered in (issue 43).

Discord sends every interaction with the user's client language (``interaction.locale``) and,
in a server, the server's preferred one (``interaction.guild_locale``, a Community server's
setting).  The asker's language (their ``settings language``, else their client's) says the
private answers: ephemeral messages, DMs.  The chat's (its ``settings chat-language``, else the
server's preferred locale, else English) says what everyone in the channel reads.  A server's
language is changed by those who may manage it (the Manage Server permission).
"""

from __future__ import annotations

import discord

from bot.adapters.discord.format import user_of
from bot.adapters.discord.threads import chat_here
from bot.sessions import languages
from bot.sessions.languages import Speakers
from bot.sessions.manager import SessionManager

__all__ = ["speakers_of"]


async def speakers_of(manager: SessionManager, interaction: discord.Interaction) -> Speakers:
    """The asker's and the channel's languages for ``interaction``; also notes whether the
    asker manages the server (for ``settings chat-language``), in this interaction's task."""
    guild = interaction.guild_locale
    permissions = interaction.permissions
    if interaction.guild_id is not None:
        languages.MANAGES.set(bool(permissions.manage_guild))
    return await manager.players.speakers(
        user_of(interaction.user),
        chat_here(interaction),
        str(interaction.locale),
        None if guild is None else str(guild),
    )
