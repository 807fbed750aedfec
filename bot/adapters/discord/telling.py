"""What a channel is told on Discord beside the answer to an interaction: the players whom
notices reached neither there nor privately, named once where the bot cannot post by itself
(:mod:`bot.adapters.discord.reach`), and the result of a game played in its own thread, told
to the thread's channel (:mod:`bot.adapters.discord.threads`).

:class:`ChannelTelling` is a part of :class:`~bot.adapters.discord.adapter.DiscordBot`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.adapters.discord.followups import Followups
from bot.adapters.discord.format import TEXT_LIMIT, markdown, mentions_only
from bot.adapters.discord.reach import Reach
from bot.adapters.discord.threads import parent_of, thread_name_of
from bot.messages import Reply
from bot.outcomes import Ended
from bot.sessions import texts

__all__ = ["ChannelTelling", "foreign"]

log = logging.getLogger(__name__)


def foreign(interaction: discord.Interaction) -> bool:
    """Whether the bot is not a member where ``interaction`` happened (a DM or group DM
    between users, a server without the bot): only the user install answers there."""
    if interaction.context.private_channel:
        return True
    return interaction.guild_id is not None and not interaction.is_guild_integration()


class ChannelTelling:
    """What the channel is told beside an answer, by a
    :class:`~bot.adapters.discord.adapter.DiscordBot` (see the module docstring)."""

    reach: Reach
    followups: Followups

    if TYPE_CHECKING:  # supplied by the bot (a discord.Client)

        def get_partial_messageable(
            self,
            id: int,
            *,
            guild_id: int | None = None,
            type: discord.ChannelType | None = None,
        ) -> discord.PartialMessageable: ...

    async def _say_unreachable(self, interaction: discord.Interaction) -> None:
        """Where the bot cannot post by itself (only answer interactions), name once the
        players whom notices reached neither there nor privately (see
        :mod:`bot.adapters.discord.reach`)."""
        channel = interaction.channel_id
        if channel is not None and foreign(interaction):
            # Known now: no refused request to learn it (a DM between users for good).
            self.reach.refused(channel, for_good=bool(interaction.context.private_channel))
        missed = self.reach.take_unreachable(channel) if channel is not None else []
        if missed and channel is not None:
            line = markdown(texts.unreachable(missed))[:TEXT_LIMIT]
            if self.followups.left(interaction) == 0:
                for mention in missed:  # no followup left: said at the next interaction
                    self.reach.unreachable(channel, mention)
            else:
                await self.followups.send(interaction, line, allowed_mentions=mentions_only())

    async def _tell_channel(self, interaction: discord.Interaction, reply: Reply) -> None:
        """A game played in its own thread just ended there (the answer's outcome is
        :class:`~bot.outcomes.Ended`): its channel is told the result (one line, pinging
        nobody)."""
        parent = parent_of(interaction)
        facts = reply.facts
        if parent is None or not reply.ok or facts is None or facts.result is None:
            return
        if not isinstance(reply.outcome, Ended):
            return
        line = texts.thread_result(thread_name_of(facts), facts.result)
        try:
            await self.get_partial_messageable(parent).send(
                markdown(line)[:TEXT_LIMIT], allowed_mentions=mentions_only()
            )
        except discord.HTTPException as exc:
            log.info("could not tell channel %s the result of #%s: %s", parent, facts.game_id, exc)
