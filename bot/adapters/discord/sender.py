"""The Discord sender of the outbox: a notification becomes a message in the game's channel
that mentions (and pings) only its recipient, or a direct message when they want those.

- A refused direct message (Discord's 403, e.g. code 50007 "Cannot send messages to this
  user") raises :class:`~bot.delivery.outbox.DirectRefused`, so the outbox delivers it in the
  game's channel instead, once.
- A channel the bot cannot post in (403, code 50001 "Missing Access": a DM or group DM where
  only the user-installed app works, a channel it lost access to; or 404, a channel that is
  gone) is not the recipient's fault: the notification goes to them as a direct message
  instead.  Only when that is refused too does it raise
  :class:`~bot.delivery.outbox.DeliveryRefused`.
- The notice that a challenge expired edits the challenge's card(s) in place, buttons removed
  (the cards are found in the store, so also after a restart, see :mod:`bot.sessions.posts`);
  it is posted as a message only when no card could be edited.
- A message that can be answered on (a challenge with Accept / Decline) is remembered as one
  of the challenge's cards, so it is closed with the others.

Rate limits are discord.py's own business.

Once: every message carries the notification's ``nonce`` (``hexhall-<id>``, within Discord's
25 characters) and discord.py sends it with ``enforce_nonce``, so a resend of the same
notification (the process died after Discord created the message and before the outbox marked
it sent; another process's claim) returns the message already made and creates none: "If
another message was created by the same author with the same nonce, that message will be
returned and no new message will be created" (Create Message, ``enforce_nonce``; the check
covers "the past few minutes", longer than a restart takes).

Shards (several processes, each running some of the gateway shards): a notification is sent
by whichever process claims it from the outbox, through REST, not by the process whose
shard holds the game's server.  Posting to a channel, opening a DM and editing a message are
REST calls that need no gateway connection, so delivery goes on while that shard's process
is down or restarting, and the outbox's leases already make it exactly once whoever claims
it; routing each notification to "its" shard would need a claim per shard and would stall a
server's notices whenever its shard is down.  Hence nothing here may rely on discord.py's
gateway cache, which holds only this process's servers (``get_channel`` is ``None`` for the
others): channels are reached as :meth:`discord.Client.get_partial_messageable`.  The cost:
discord.py paces rate limits per process, so N processes posting to one channel each learn
its bucket separately and may draw a few 429s (which discord.py waits out and retries);
Discord's global limit (50 requests per second per bot) is shared by them all.  The one
thing a process cannot reach for another is an interaction's token (kept in memory by the
process that answered it): such edits go through the channel (see
:meth:`~bot.adapters.discord.adapter.DiscordBot.edit_post`).
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.adapters.discord.adapter import DiscordBot, action_view
from bot.adapters.discord.format import PLATFORM, TEXT_LIMIT, markdown, mentions_only
from bot.core.notification import Kind, Notification
from bot.delivery.outbox import DeliveryRefused, DirectRefused
from bot.delivery.recap import Recaps
from bot.messages import ActionKind, Text, User
from bot.storage import PostKind

__all__ = ["DiscordSender", "nonce_of"]

log = logging.getLogger(__name__)


def nonce_of(note_id: int) -> str:
    """The nonce of a stored notification's message (see the module docstring).

    >>> nonce_of(42)
    'hexhall-42'
    """
    return f"hexhall-{note_id}"


class DiscordSender:
    """Delivers notifications through a logged-in :class:`DiscordBot` (whose manager knows
    the bot's cards); ``recaps`` draws recap GIFs."""

    def __init__(self, client: DiscordBot, recaps: Recaps) -> None:
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
        if note.id is not None:
            fields["nonce"] = nonce_of(note.id)
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
        if notification.kind is Kind.CHALLENGE_EXPIRED and await self._edit_cards(notification):
            return
        if notification.kind is Kind.BOARD:
            await self._board(notification)
            return
        if notification.direct:
            await self._direct(notification)
            return
        fields = await self._fields(notification, in_channel=True)
        if fields is None:
            return
        if notification.chat is None or not notification.chat.chat_id.isdigit():
            raise DeliveryRefused("no channel to deliver in")
        channel_id = int(notification.chat.chat_id)
        try:
            # A partial channel, never the cache: the server may be on another process's
            # shard (see the module docstring).
            sent = await self.client.get_partial_messageable(channel_id).send(**fields)
        except (discord.Forbidden, discord.NotFound) as exc:
            # Out of the bot's reach (see the module docstring): the recipient is told
            # privately; only a refused direct message too gives up.
            log.info(
                "channel %s refused notification %s (%s, code %s): sending it directly",
                channel_id, notification.id, exc.status, exc.code,
            )  # fmt: skip
            try:
                await self._direct(notification)
            except DirectRefused as refused:
                raise DeliveryRefused(
                    f"channel: {exc.status}, code {exc.code}; direct message: {refused}"
                ) from None
            return
        await self._remember_card(notification, sent)

    async def _board(self, note: Notification) -> None:
        """A move's committed board whose answer never went out (the process died): the
        game's board, posted in its channel as the game's latest, with its nonce."""
        chat = note.chat
        if note.game_id is None or chat is None or not chat.chat_id.isdigit():
            raise DeliveryRefused("no channel to post the board in")
        manager = self.client.manager
        user = User(PLATFORM, note.recipient.user_id, note.recipient.name)
        reply = await manager.board(user, chat, note.game_id)
        fields = await self.client.message_fields(reply, user)
        if note.id is not None:
            fields["nonce"] = nonce_of(note.id)
        try:
            sent = await self.client.get_partial_messageable(int(chat.chat_id)).send(**fields)
        except (discord.Forbidden, discord.NotFound) as exc:
            raise DeliveryRefused(f"channel: {exc.status}, code {exc.code}") from None
        older = await manager.remember_post(
            PLATFORM, chat.chat_id, str(sent.id), PostKind.BOARD, game_id=note.game_id
        )
        for post in older:  # only the latest board of a game keeps live buttons
            await self.client.edit_post(post, view=None)

    async def _direct(self, notification: Notification) -> None:
        fields = await self._fields(notification, in_channel=False)
        if fields is None:
            return
        try:
            user = discord.Object(int(notification.recipient.user_id))
            channel = await self.client.create_dm(user)
            sent = await channel.send(**fields)
        except discord.Forbidden as exc:
            raise DirectRefused(f"403, code {exc.code}") from None
        except ValueError:
            raise DirectRefused("not a Discord user id") from None
        await self._remember_card(notification, sent)

    async def _remember_card(self, note: Notification, sent: discord.Message) -> None:
        # The challenge is named by its Accept button (a new challenge's notification is
        # queued before the challenge has an id of its own).
        accept = next((a for a in note.actions if a.kind is ActionKind.ACCEPT), None)
        cid = None if accept is None else accept.subject
        if cid is None:
            return
        await self.client.manager.remember_post(
            PLATFORM, str(sent.channel.id), str(sent.id), PostKind.CARD, challenge_id=cid
        )

    async def _edit_cards(self, note: Notification) -> bool:
        """Edit the expired challenge's cards to the notice without buttons; ``False`` when
        none is known or none could be edited (then the notice is posted instead)."""
        if note.challenge_id is None:
            return False
        manager = self.client.manager
        cards = await manager.posts_for(
            PLATFORM, challenge_id=note.challenge_id, kind=PostKind.CARD
        )
        # Retired first: a retried notice (the process died meanwhile) finds them all again.
        await manager.retire_posts(cards)
        edited = False
        for card in cards:
            edited |= await self.client.edit_post(
                card,
                content=markdown(note.text)[:TEXT_LIMIT],
                embed=None,
                view=None,
                allowed_mentions=mentions_only(),
            )
        return edited
