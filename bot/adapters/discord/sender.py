"""The Discord sender of the outbox: a notification becomes a message in the game's channel
that mentions (and pings) only its recipient, or a direct message when they want those.

- A refused direct message (Discord's 403, e.g. code 50007 "Cannot send messages to this
  user") raises :class:`~bot.delivery.outbox.DirectRefused`, so the outbox delivers it in the
  game's channel instead, once.
- Opening a DM channel refused with 400, code 50007 (the user blocked the bot, or shares no
  server with it) is a refusal like the 403, not a transient error to retry.
- A notice about a game played in its own thread goes into the thread (remembered in the
  store as the game's :attr:`~bot.storage.PostKind.THREAD` when it was started), not into
  the channel the game belongs to.
- A channel the bot cannot post in (403, code 50001 "Missing Access": a DM or group DM where
  only the user-installed app works, a server without the bot, a channel it lost access to;
  or 404, a channel that is gone) is not the recipient's fault: the notification goes to them
  as a direct message instead, and the channel is remembered (:mod:`~bot.adapters.discord.reach`)
  so the next notices there spend no refused request.  Only when the direct message is
  refused too does it raise :class:`~bot.delivery.outbox.DeliveryRefused` (given up at once,
  not retried); the channel names that player once at its next interaction.
- A challenge card (Accept) whose challenge was answered before the outbox came to it is not
  sent; one answered while it was on its way loses its buttons at once.
- The recap pings nobody (its recipient is the player who just ended the game).
- The notice that a challenge expired edits the challenge's card(s) in place, buttons removed
  (the cards are found in the store, so also after a restart, see :mod:`bot.sessions.posts`);
  it counts as delivered only when the card in the challenge's own chat (which the
  challenger sees) was edited, else it is posted (or sent to the challenger directly).
- A message that can be answered on (a challenge with Accept / Decline) is remembered as one
  of the challenge's cards, so it is closed with the others.

- A tournament's standings of the day (the text and the table picture) edit its earlier
  standings message in place (found in the store, see :mod:`bot.sessions.posts`); a new one
  is posted, and remembered, only when none is known or Discord refuses the edit (a deleted
  message).

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

import contextlib
import io
import logging
from typing import Any

import discord

from bot.adapters import afterpost
from bot.adapters.discord.adapter import DiscordBot, action_view
from bot.adapters.discord.format import PLATFORM, TEXT_LIMIT, markdown, mentions_only
from bot.adapters.discord.threads import ARCHIVE_AFTER, thread_name_of
from bot.core.lru import Lru
from bot.core.notification import Kind, Notification
from bot.core.posts import PostKind
from bot.delivery.outbox import DeliveryRefused, DirectRefused
from bot.delivery.recap import Recaps
from bot.messages import ActionKind, Reply, Text, User
from bot.sessions import texts
from bot.sessions.posts import standings_tournament

__all__ = ["CANNOT_MESSAGE_USER", "DiscordSender", "nonce_of"]

log = logging.getLogger(__name__)

#: Discord's error code "Cannot send messages to this user" (a DM refused).
CANNOT_MESSAGE_USER = 50007


class _OutOfReach(Exception):
    """A channel known to refuse the bot (see :mod:`bot.adapters.discord.reach`)."""


def _challenge_asked(note: Notification) -> int | None:
    """The challenge a notification's Accept button answers (a new challenge's notification
    is queued before the challenge has an id of its own: it is named by the button)."""
    accept = next((a for a in note.actions if a.kind is ActionKind.ACCEPT), None)
    return None if accept is None else accept.subject


def nonce_of(note_id: int) -> str:
    """The nonce of a stored notification's message (see the module docstring).

    >>> nonce_of(42)
    'hexhall-42'
    """
    return f"hexhall-{note_id}"


#: Channels that refused a tournament game's thread, remembered (least recently used out).
NO_THREAD_CHANNELS = 1000


class DiscordSender:
    """Delivers notifications through a logged-in :class:`DiscordBot` (whose manager knows
    the bot's cards); ``recaps`` draws recap GIFs."""

    def __init__(self, client: DiscordBot, recaps: Recaps) -> None:
        self.client = client
        self.recaps = recaps
        # Channels where Discord refused to start a thread (this process does not ask again).
        self._no_threads: Lru[int, bool] = Lru(NO_THREAD_CHANNELS)

    async def _fields(self, note: Notification, *, in_channel: bool) -> dict[str, Any] | None:
        text = note.text
        recipient = note.recipient.mention()
        # A recap and the day's standings are everyone's and ask nobody to act: they ping
        # nobody (allowed_mentions lists no one).
        ping = not note.kind.quiet
        if in_channel and ping and recipient not in text.mentions():
            # In a channel the recipient is pinged by name, so they see it is theirs.
            text = Text.of(recipient, ": ", text)
        fields: dict[str, Any] = {
            "content": markdown(text)[:TEXT_LIMIT],
            "allowed_mentions": mentions_only(recipient) if ping else mentions_only(),
        }
        if note.id is not None:
            fields["nonce"] = nonce_of(note.id)
        view = action_view(note.actions)
        if view is not None:
            fields["view"] = view
        if note.kind is Kind.STANDINGS:
            standings = await self._standings_file(note)
            if standings is not None:
                fields["file"] = standings
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
        if await self._answered(notification):
            return  # a card whose challenge was answered meanwhile: nothing left to ask
        if notification.kind is Kind.STANDINGS and await self._edit_standings(notification):
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
        channel_id = await self._channel_of(notification)
        reach = self.client.reach
        why = "the bot is not a member there"
        if not reach.out_of_reach(channel_id):
            try:
                # A partial channel, never the cache: the server may be on another process's
                # shard (see the module docstring).
                sent = await self.client.get_partial_messageable(channel_id).send(**fields)
            except (discord.Forbidden, discord.NotFound) as exc:
                reach.refused(channel_id)
                why = f"{exc.status}, code {exc.code}"
            else:
                await self._remember_card(notification, sent)
                await self._remember_standings(notification, sent)
                return
        # Out of the bot's reach (see the module docstring): the recipient is told privately;
        # only a refused direct message too gives up, and the channel hears of it once.
        log.info(
            "channel %s refused notification %s (%s): sending it directly",
            channel_id, notification.id, why,
        )  # fmt: skip
        try:
            await self._direct(notification)
        except DirectRefused as refused:
            reach.unreachable(int(notification.chat.chat_id), notification.recipient.mention())
            raise DeliveryRefused(f"channel: {why}; direct message: {refused}") from None

    async def _channel_of(self, note: Notification) -> int:
        """Where a notice about a game goes: the game's own thread when it has one (see
        :mod:`bot.adapters.discord.threads`), else the game's channel."""
        assert note.chat is not None
        if note.game_id is not None:
            threads = await self.client.manager.posts.posts_for(
                PLATFORM, game_id=note.game_id, kind=PostKind.THREAD
            )
            if threads and threads[-1].chat_id.isdigit():
                return int(threads[-1].chat_id)
        return int(note.chat.chat_id)

    async def _answered(self, note: Notification) -> bool:
        """Whether ``note`` asks to accept a challenge that is no longer pending (accepted
        from the channel's card before the outbox came to this one)."""
        cid = _challenge_asked(note)
        if cid is None:
            return False
        return await self.client.manager.challenges.challenge_answered(cid)

    async def _remember_standings(self, note: Notification, sent: discord.Message) -> None:
        """A tournament's standings message, remembered to be edited by the next update."""
        tournament = standings_tournament(note)
        if tournament is not None:
            await self.client.manager.posts.remember_post(
                PLATFORM, str(sent.channel.id), str(sent.id), PostKind.STANDINGS,
                tournament_id=tournament,
            )  # fmt: skip

    async def _standings_file(self, note: Notification) -> discord.File | None:
        """The table picture of a standings update's tournament, if it can be drawn."""
        tournament = standings_tournament(note)
        if tournament is None or note.chat is None:
            return None
        user = User(PLATFORM, note.recipient.user_id, note.recipient.name)
        shown = await self.client.manager.tournaments.tournament_standings(
            user, note.chat, tournament
        )
        if not shown.ok or shown.image is None:
            return None
        return discord.File(io.BytesIO(shown.image), filename=f"standings-{tournament}.png")

    async def _edit_standings(self, note: Notification) -> bool:
        """Edit the tournament's last standings message to the note's text and today's
        table picture (the attachment replaced); ``False`` when none is known or Discord
        refused (then a new one is posted).  Edit Message: the bot may edit its own messages'
        content and attachments (another user's only flags, with MANAGE_MESSAGES),
        https://discord.com/developers/docs/resources/channel#edit-message."""
        tournament = standings_tournament(note)
        if tournament is None:
            return False
        known = await self.client.manager.posts.posts_for(
            PLATFORM, tournament_id=tournament, kind=PostKind.STANDINGS
        )
        if not known:
            return False
        picture = await self._standings_file(note)
        return await self.client.edit_post(
            known[-1],
            content=markdown(note.text)[:TEXT_LIMIT],
            attachments=[] if picture is None else [picture],
            allowed_mentions=mentions_only(),
        )

    async def _board(self, note: Notification) -> None:
        """A move's committed board whose answer never went out (the process died): the
        game's board, posted in its channel as the game's latest, with its nonce."""
        chat = note.chat
        if note.game_id is None or chat is None or not chat.chat_id.isdigit():
            raise DeliveryRefused("no channel to post the board in")
        manager = self.client.manager
        user = User(PLATFORM, note.recipient.user_id, note.recipient.name)
        reply = await manager.games.board(user, chat, note.game_id)
        fields = await self.client.message_fields(reply, user)
        if note.id is not None:
            fields["nonce"] = nonce_of(note.id)
        channel_id = await self._channel_of(note)
        if await self._into_thread(note.game_id, channel_id, reply, fields):
            return
        try:
            if self.client.reach.out_of_reach(channel_id):
                raise _OutOfReach
            sent = await self.client.get_partial_messageable(channel_id).send(**fields)
        except (discord.Forbidden, discord.NotFound, _OutOfReach) as exc:
            # Where the bot is not a member, the player it names is told privately instead.
            if not isinstance(exc, _OutOfReach):
                self.client.reach.refused(channel_id)
            try:
                await self._direct(note)
            except DirectRefused as refused:
                self.client.reach.unreachable(int(chat.chat_id), note.recipient.mention())
                raise DeliveryRefused(f"channel out of reach; direct message: {refused}") from None
            return
        # Only the latest board of a game keeps live buttons.
        await afterpost.board_posted(
            manager, self.client.posts, str(channel_id), str(sent.id), note.game_id
        )

    async def _into_thread(
        self, game_id: int, channel_id: int, reply: Reply, fields: dict[str, Any]
    ) -> bool:
        """A tournament game's first board gets the game a thread of its own, like an
        accepted challenge's (see :mod:`bot.adapters.discord.threads`): a line in the
        channel saying so, the thread started from it (its name at most 100 characters,
        archived after a week of quiet) and the board posted there.  ``False`` (nothing left
        behind) for any other board, a game that has its thread already, or where Discord
        refuses (no Create Public Threads / Send Messages in Threads: 403; the server's
        active threads at their limit: 400, code 160006): the board then goes into the
        channel, and a channel that refused the permission is not asked again by this
        process."""
        manager, facts = self.client.manager, reply.facts
        if facts is None or facts.ply != 0 or channel_id in self._no_threads:
            return False
        if await manager.tournaments.tournament_of_game(game_id) is None:
            return False
        if await manager.posts.posts_for(PLATFORM, game_id=game_id, kind=PostKind.THREAD):
            return False
        name = thread_name_of(facts)
        line = f"{markdown(Text.of(name))}\n{markdown(texts.game_in_thread(game_id))}"
        channel = self.client.get_partial_messageable(channel_id)
        try:
            card = await channel.send(line[:TEXT_LIMIT], allowed_mentions=mentions_only())
        except (discord.Forbidden, discord.NotFound):
            return False  # out of reach: the board's own way says so
        try:
            # By id: a message sent through a partial channel carries no server to start
            # the thread from (the server may be on another process's shard).
            started = await self.client.http.start_thread_with_message(
                channel_id, card.id, name=name, auto_archive_duration=ARCHIVE_AFTER
            )
        except discord.HTTPException as exc:
            log.info("no thread for tournament game %s: %s", game_id, exc)
            if isinstance(exc, discord.Forbidden):  # no thread permissions: not asked again
                self._no_threads[channel_id] = True
            with contextlib.suppress(discord.HTTPException):
                await card.delete()
            return False
        thread = int(started["id"])
        # The thread itself, first: the outbox's notices about the game go there too.
        await manager.posts.remember_post(
            PLATFORM, str(thread), str(card.id), PostKind.THREAD, game_id=game_id
        )
        sent = await self.client.get_partial_messageable(thread).send(**fields)
        await manager.posts.remember_post(
            PLATFORM, str(thread), str(sent.id), PostKind.BOARD, game_id=game_id
        )
        return True

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
        except discord.HTTPException as exc:
            if exc.code != CANNOT_MESSAGE_USER:
                raise  # transient (5xx, network): the outbox tries again later
            # Opening the DM channel is refused with 400, 50007 (the user blocked the bot
            # or shares no server with it): a refusal like the 403, not worth a retry.
            raise DirectRefused(f"{exc.status}, code {exc.code}") from None
        except ValueError:
            raise DirectRefused("not a Discord user id") from None
        await self._remember_card(notification, sent)

    async def _remember_card(self, note: Notification, sent: discord.Message) -> None:
        cid = _challenge_asked(note)
        if cid is None:
            return
        manager = self.client.manager
        await manager.posts.remember_post(
            PLATFORM, str(sent.channel.id), str(sent.id), PostKind.CARD, challenge_id=cid
        )
        if await self._answered(note):
            # Answered while this card was on its way (the answer closed the cards it knew
            # of, not this one): its Accept goes at once.
            posts = await manager.posts.posts_for(PLATFORM, challenge_id=cid, kind=PostKind.CARD)
            mine = [p for p in posts if p.message_id == str(sent.id)]
            for post in mine:
                await self.client.edit_post(post, view=None)
            await manager.posts.retire_posts(mine)

    async def _edit_cards(self, note: Notification) -> bool:
        """Edit the expired challenge's cards to the notice without buttons; ``False`` when
        none is known or none could be edited (then the notice is posted instead)."""
        if note.challenge_id is None:
            return False
        manager = self.client.manager
        cards = await manager.posts.posts_for(
            PLATFORM, challenge_id=note.challenge_id, kind=PostKind.CARD
        )
        # Retired first: a retried notice (the process died meanwhile) finds them all again.
        await manager.posts.retire_posts(cards)
        told = False
        for card in cards:
            edited = await self.client.edit_post(
                card,
                content=markdown(note.text)[:TEXT_LIMIT],
                embed=None,
                view=None,
                allowed_mentions=mentions_only(),
            )
            # Delivered only when the challenger sees it: on the card in the chat where the
            # challenge was made (the opponent's DM card tells the opponent alone).
            told |= edited and (note.chat is None or card.chat_id == note.chat.chat_id)
        return told
