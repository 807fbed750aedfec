"""Discord's part of the flow after a post (:mod:`bot.adapters.afterpost`): what is done to one
of the bot's remembered messages, each an edit through
:meth:`~bot.adapters.discord.adapter.DiscordBot.edit_post` (by the interaction that sent it
while its token lasts, else through the channel; a refused edit leaves the message as it
is).  Only a game's latest board keeps live buttons: a new board takes them from the older
ones at once (an edit costs no message of a channel's rate here).
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.adapters.afterpost import Place
from bot.adapters.discord.cards import copy_fields
from bot.adapters.discord.format import PLATFORM
from bot.messages import Reply

__all__ = ["DiscordPosts"]


class _Editor(Protocol):
    async def edit_post(self, post: Place, **fields: Any) -> bool: ...


class DiscordPosts:
    """The :class:`~bot.adapters.afterpost.PostSurface` of a Discord bot (``client``: what
    edits its messages)."""

    platform = PLATFORM
    retires_each_board = True

    def __init__(self, client: _Editor) -> None:
        self.client = client

    async def drop_buttons(self, post: Place) -> None:
        """Take the message's buttons away."""
        await self.client.edit_post(post, view=None)

    async def close_picker(self, post: Place) -> None:
        """A picker (Discord's are private, and never remembered) loses its buttons."""
        await self.client.edit_post(post, view=None)

    async def close_offer(self, post: Place) -> None:
        """An offer loses its answer buttons."""
        await self.client.edit_post(post, view=None)

    async def show_answer(self, post: Place, reply: Reply) -> None:
        """Another copy of a card says the answer (once accepted: where the game stands)."""
        await self.client.edit_post(post, **copy_fields(reply))
