"""An interaction's followup messages, counted: Discord allows an interaction authorised only
by a user install (a DM or group DM between friends, a server without the bot) at most
:data:`USER_INSTALL_FOLLOWUPS` followups and refuses the next with 400, code 40094 "This
interaction has hit the maximum number of follow up messages" (discord/discord-api-docs#6958).
The adapter never sends that one: a long answer whose sections would need more folds what
does not fit into the last followup allowed, as an attached text file; a line that finds no
followup left is not sent (the caller keeps what it wanted to say for the next interaction).

Which interactions are capped: every one not authorised by an install of the app to the
server it happened in (discord.py's ``is_guild_integration``), so also the user's DM with the
bot: the cap is never missed where it applies, at the cost of five followups in a bot DM
(no answer of the bot needs more than its first message and four followups there).

The counts live in memory, per interaction, bounded (:data:`LIMIT` interactions, the oldest
forgotten first: their tokens are long expired by then).
"""

from __future__ import annotations

import io
import logging
from typing import Any, Final

import discord

from bot.core.lru import Lru

__all__ = ["LIMIT", "MORE_FILE", "USER_INSTALL_FOLLOWUPS", "Followups"]

log = logging.getLogger(__name__)

#: Followups Discord allows an interaction authorised only by a user install.
USER_INSTALL_FOLLOWUPS: Final = 5
#: How many interactions' counts are kept at most.
LIMIT: Final = 10_000
#: The file name of an answer's sections beyond the last followup allowed.
MORE_FILE: Final = "hexhall-more.txt"


class Followups:
    """How many followups each recent interaction sent (see the module docstring)."""

    def __init__(self, *, limit: int = LIMIT) -> None:
        self.limit = limit
        self._sent: Lru[int, int] = Lru(limit)

    def left(self, interaction: discord.Interaction) -> int | None:
        """How many more followups ``interaction`` may send (``None``: no cap)."""
        if interaction.is_guild_integration():
            return None
        return max(USER_INSTALL_FOLLOWUPS - self._sent.get(interaction.id, 0), 0)

    def _count(self, interaction: discord.Interaction) -> None:
        self._sent[interaction.id] = self._sent.get(interaction.id, 0) + 1

    async def send(
        self, interaction: discord.Interaction, content: str | None = None, **fields: Any
    ) -> discord.WebhookMessage | None:
        """``interaction.followup.send(content, **fields)`` unless the interaction has no
        followup left (then nothing is sent: ``None``)."""
        if self.left(interaction) == 0:
            log.info("interaction %s: no followup left, one not sent", interaction.id)
            return None
        self._count(interaction)
        if content is not None:
            fields["content"] = content
        message = await interaction.followup.send(**fields)
        return message if isinstance(message, discord.WebhookMessage) else None

    async def sections(
        self, interaction: discord.Interaction, sections: list[str], note: str, **fields: Any
    ) -> None:
        """Each of ``sections`` as a followup (with ``fields``); when more are left than
        followups, the last one allowed says ``note`` and carries the rest as a text file."""
        left = self.left(interaction)
        for i, section in enumerate(sections):
            rest = sections[i:]
            if left is not None and left <= 1 and len(rest) > 1:
                if left == 1:
                    text = "\n\n".join(rest).encode()
                    more = discord.File(io.BytesIO(text), filename=MORE_FILE)
                    await self.send(interaction, note, file=more, **fields)
                return
            await self.send(interaction, section, **fields)
            left = None if left is None else left - 1
