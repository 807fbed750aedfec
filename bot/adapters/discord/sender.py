"""The Discord sender of the outbox: a notification becomes a message in the game's channel
that mentions (and pings) only its recipient, or a direct message when they want those.

A refused direct message (Discord's 403, e.g. code 50007 "Cannot send messages to this user")
raises :class:`~bot.delivery.outbox.DirectRefused`, so the outbox delivers it in the game's
channel instead, once; a channel that refuses or is gone raises
:class:`~bot.delivery.outbox.DeliveryRefused`.  Rate limits are discord.py's own business.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.adapters.discord.adapter import action_view
from bot.adapters.discord.format import TEXT_LIMIT, markdown, mentions_only
from bot.delivery.notification import Notification
from bot.delivery.notify import Kind
from bot.delivery.outbox import DeliveryRefused, DirectRefused
from bot.delivery.recap import Recaps
from bot.messages import Text

__all__ = ["DiscordSender"]


class DiscordSender:
    """Delivers notifications through a logged-in :class:`discord.Client`."""

    def __init__(self, client: discord.Client, recaps: Recaps) -> None:
        self.client = client
        self.recaps = recaps

    async def _fields(self, note: Notification, *, in_channel: bool) -> dict[str, Any] | None:
        text = note.text
        recipient = note.recipient.mention()
        if in_channel and recipient not in text.mentions():
            # In a channel the recipient is pinged by name, so they see it is theirs.
            text = Text.of(recipient, ": ", text)
        fields: dict[str, Any] = {
            "content": markdown(text)[:TEXT_LIMIT],
            "allowed_mentions": mentions_only(note.recipient.mention()),
        }
        view = action_view(note.actions)
        if view is not None:
            fields["view"] = view
        if note.kind is Kind.RECAP:
            gif = None if note.game_id is None else await self.recaps.gif(note.game_id)
            if gif is None:
                return None  # nothing to show: the recap could not be drawn
            name = f"hexhall-{note.game_id}.gif"
            fields["file"] = discord.File(io.BytesIO(gif), filename=name)
        return fields

    async def send(self, notification: Notification) -> None:
        """Deliver one notification (see the module docstring)."""
        fields = await self._fields(notification, in_channel=not notification.direct)
        if fields is None:
            return
        if notification.direct:
            try:
                user = discord.Object(int(notification.recipient.user_id))
                channel = await self.client.create_dm(user)
                await channel.send(**fields)
            except discord.Forbidden as exc:
                raise DirectRefused(f"403, code {exc.code}") from None
            except ValueError:
                raise DirectRefused("not a Discord user id") from None
            return
        if notification.chat is None or not notification.chat.chat_id.isdigit():
            raise DeliveryRefused("no channel to deliver in")
        channel_id = int(notification.chat.chat_id)
        try:
            await self.client.get_partial_messageable(channel_id).send(**fields)
        except (discord.Forbidden, discord.NotFound) as exc:
            raise DeliveryRefused(f"{exc.status}, code {exc.code}") from None
