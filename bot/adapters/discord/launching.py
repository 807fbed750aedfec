"""Opening the board inside Discord: the app's Activity (:mod:`bot.webboard.activity`).

:class:`ActivityLaunches` is a part of :class:`~bot.adapters.discord.adapter.DiscordBot`: with
:attr:`~ActivityLaunches.open_in_activity` (``HEXHALL_DISCORD_ACTIVITY``) a board's "Open
board" is answered with the interaction callback ``LAUNCH_ACTIVITY`` (type 12, discord.py's
``InteractionResponse.launch_activity``; "only available for apps with Activities enabled":
when Discord refuses it, the press gets the link as without the Activity), and the manager
remembers the game for the Activity's page.  The app's Entry Point command (type
``PRIMARY_ENTRY_POINT``) reaches the bot only when its handler is ``APP_HANDLER``; Discord's
default, ``DISCORD_LAUNCH_ACTIVITY``, opens the Activity without the bot.
"""

from __future__ import annotations

import logging

import discord

from bot.adapters.discord.format import markdown, user_of
from bot.messages import Action
from bot.sessions import texts
from bot.sessions.manager import SessionManager

__all__ = ["ENTRY_POINT", "ActivityLaunches"]

log = logging.getLogger(__name__)

#: The type of the Activity's Entry Point command (``PRIMARY_ENTRY_POINT``).
ENTRY_POINT = 4


class ActivityLaunches:
    """The Activity's launches of a :class:`~bot.adapters.discord.adapter.DiscordBot`."""

    manager: SessionManager
    #: "Open board" launches the board inside Discord instead of answering with a link.
    open_in_activity: bool

    async def launch(self, interaction: discord.Interaction, action: Action) -> bool:
        """Answer "Open board" with the app's Activity, on this game (the manager remembers
        which, for the Activity's page); ``False`` when Discord refused the launch (then the
        answer is the link, as without the Activity)."""
        if action.subject is not None:  # (before: the page may ask as soon as it opens)
            self.manager.web.launched(user_of(interaction.user), action.subject)
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as exc:
            log.warning("cannot launch the Activity (%s): answering with the link", exc.status)
            return False
        return True

    async def entry_point(self, interaction: discord.Interaction) -> None:
        """The Entry Point command sent to the app (handler ``APP_HANDLER``): the Activity
        opens (on the player's games), or, with the Activity off here, a private one-liner."""
        try:
            if self.open_in_activity:
                await interaction.response.launch_activity()
            else:
                text = markdown(texts.activity_off())
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("cannot answer the Entry Point command: %s", exc.status)
