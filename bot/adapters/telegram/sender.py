"""Delivering the outbox's notifications on Telegram (the outbox's sender for this platform).

The player to move is mentioned in the game's chat with a text mention (it works without a
username; the recipient is named first when the text does not name them); a player who wants
direct messages gets one instead, and a direct message Telegram refuses (403: the user never
started the bot or blocked it) is reported as :class:`~bot.delivery.outbox.DirectRefused`, so
the outbox sends it to the chat once.  A recap is an animation (the GIF drawn when it is
delivered).  The notice that a challenge expired edits the challenge's card in place (its
buttons removed; the card is found in the store, see :mod:`bot.sessions.posts`).  A move's
committed board (:attr:`~bot.core.notification.Kind.BOARD`) reaches the sender only when the
answer to the move never went out: it posts the game's board then.  In a game
against the bot nobody else posts a board, so the bot's move ("your turn", "game over") comes
as the game's board in its chat, the notice above its caption.  Flood
A tournament's standings of the day (its table picture, the text as its caption) edit its
earlier standings message in place (found in the
store, see :mod:`bot.sessions.posts`); a new one is posted, and remembered, only when none is
known or Telegram refuses the edit (the message was deleted).  Flood
control is the application's rate limiter's business (:class:`~bot.adapters.telegram.pacing.
ChatPacer`, per chat): here it never waits long for one chat (:func:`~bot.adapters.telegram.
pacing.no_waiting`), and a chat it paces or Telegram blocked (``RetryAfter``) is reported as
:class:`~bot.delivery.outbox.Throttled`, so the outbox goes on with other chats; a group
migrated to a supergroup is followed (``ChatMigrated``) and its games moved along.  A request
that went out but got no answer (a time-out while waiting for it, the connection lost, a
server error: :func:`maybe_delivered`) is reported as :class:`~bot.delivery.outbox.
MaybeDelivered`: Telegram may have posted it, so a direct notice is not sent again.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace

import httpx
from telegram import Bot, InlineKeyboardMarkup, InputMediaPhoto
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter

from bot.adapters.telegram import offers
from bot.adapters.telegram.boards import board_lock, mini_app, send_board
from bot.adapters.telegram.format import (
    CAPTION_LIMIT,
    PLATFORM,
    TEXT_LIMIT,
    html_text,
    keyboard,
    quiet_html,
    rows_of,
)
from bot.adapters.telegram.pacing import no_waiting, retry_seconds
from bot.adapters.telegram.removal import RemovedChats, removed_chats
from bot.adapters.telegram.topics import key, place
from bot.core.notification import Kind, Notification
from bot.core.posts import Post, PostKind
from bot.delivery.outbox import DeliveryRefused, DirectRefused, MaybeDelivered, Throttled
from bot.delivery.recap import Recaps
from bot.messages import Text, User
from bot.sessions import texts
from bot.sessions.manager import SessionManager
from bot.sessions.posts import standings_tournament

__all__ = ["TelegramSender", "maybe_delivered"]

# The notices that follow the bot's own move in a game against it.
_BOT_MOVE_KINDS = (Kind.YOUR_TURN, Kind.GAME_OVER)


#: httpx's failures before a request was sent: Telegram got nothing.
_UNSENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


def maybe_delivered(exc: NetworkError) -> bool:
    """Whether Telegram may have carried out the request that failed with ``exc``: yes for a
    time-out or a lost connection after it was sent, or a server error (5xx); no for an
    answer that refuses it (``BadRequest``) or a connection never made (nothing sent)."""
    return not isinstance(exc, BadRequest) and not isinstance(exc.__cause__, _UNSENT)


def _chat_id(value: str, what: str) -> int:
    return _place(value, what)[0]


def _place(value: str, what: str) -> tuple[int, int | None]:
    """The chat and forum topic of a stored chat id (see :mod:`.topics`)."""
    try:
        return place(value)
    except ValueError:
        raise DeliveryRefused(f"{what} {value!r} is not a Telegram id") from None


def _body(text: Text) -> str:
    """A quiet notice's text (the day's standings) within Telegram's limit, pinging nobody."""
    return quiet_html(text if len(str(text)) <= TEXT_LIMIT else str(text)[:TEXT_LIMIT])


class TelegramSender:
    """Sends notifications with ``bot`` (the application's bot, so its rate limiter applies);
    ``recaps`` draws recap GIFs (no recaps without it); ``manager`` knows the bot's posts
    (expired challenges' cards) and moves a migrated group's games (neither without it);
    ``web_app`` is the web board's Mini App short name: the boards it posts (the bot's moves,
    tournament games) carry the same Mini App link as the adapter's answers."""

    #: Telegram has no key that recognises a message sent again: direct notices go at most
    #: once across a crash (see :func:`bot.delivery.outbox.at_most_once`).
    at_most_once = True

    def __init__(
        self,
        bot: Bot,
        recaps: Recaps | None = None,
        manager: SessionManager | None = None,
        *,
        web_app: str = "",
    ) -> None:
        self.bot = bot
        self.recaps = recaps
        self.manager = manager
        self.web_app = web_app
        self._own_removed = RemovedChats()

    def _removed(self) -> RemovedChats:
        """The groups known to have removed the bot (shared with the adapter through the
        manager; the sender's own without one)."""
        return self._own_removed if self.manager is None else removed_chats(self.manager)

    async def send(self, notification: Notification) -> None:
        """Deliver ``notification`` as a direct message when it asks for one, else in its
        game's chat; raise :class:`DirectRefused` / :class:`DeliveryRefused` when Telegram
        refuses for good, :class:`Throttled` when its chat must wait, :class:`MaybeDelivered`
        when Telegram did not answer a request it may have carried out."""
        try:
            with no_waiting():
                await self._send(notification)
        except RetryAfter as exc:
            raise Throttled(retry_seconds(exc)) from None
        except NetworkError as exc:
            if maybe_delivered(exc):
                raise MaybeDelivered(f"{type(exc).__name__}: {exc}") from exc
            raise

    async def _send(self, notification: Notification) -> None:
        if notification.direct:
            target = _chat_id(notification.recipient.user_id, "user")
            try:
                await self._deliver(target, notification, notification.text)
            except Forbidden as exc:
                raise DirectRefused(str(exc)) from None
            return
        if notification.chat is None:
            raise DeliveryRefused("the notification has no chat")
        target, thread = _place(notification.chat.chat_id, "chat")
        text = notification.text
        recipient = notification.recipient.mention()
        if recipient not in text.mentions() and not notification.kind.quiet:
            # In a group the recipient is named first, so the mention reaches them.
            text = Text.of(recipient, ": ", text)
        removed = self._removed()
        if removed.removed(target):
            # The group removed the bot (its players were told once, privately): not tried
            # there again; the notice goes to its recipient privately, or nowhere.
            if not await self._tell_privately(notification, notification.text, remark=False):
                raise DeliveryRefused("the bot was removed from the chat")
            return
        try:
            try:
                await self._deliver(target, notification, text, thread)
            except ChatMigrated as moved:
                if self.manager is not None:
                    await self.manager.posts.move_chat(
                        PLATFORM, str(target), str(moved.new_chat_id)
                    )
                await self._deliver(moved.new_chat_id, notification, text)
        except Forbidden as exc:
            # Removed from the group: its games are kept; the player is told privately.
            removed.add(target)
            if not await self._tell_privately(notification, notification.text):
                raise DeliveryRefused(str(exc)) from None
        except BadRequest as exc:
            if "chat not found" in str(exc).lower():
                raise DeliveryRefused(str(exc)) from None
            raise

    async def _tell_privately(self, note: Notification, text: Text, *, remark: bool = True) -> bool:
        """``text`` to its recipient privately, with word (``remark``) that the game's group
        is out of reach; ``False`` when that is refused too (or the notice is about no game)."""
        if note.game_id is None or not note.recipient.user_id.isdigit():
            return False
        told = Text.of(text, "\n", texts.removed_from_chat(note.game_id)) if remark else text
        try:
            await self.bot.send_message(
                int(note.recipient.user_id), html_text(told), parse_mode=ParseMode.HTML
            )
        except (Forbidden, BadRequest):
            return False
        return True

    async def _deliver(
        self, chat_id: int, note: Notification, text: Text, thread: int | None = None
    ) -> None:
        """Send ``note`` as ``text`` to ``chat_id`` (in forum topic ``thread`` when given)."""
        markup: InlineKeyboardMarkup | None = keyboard(rows_of(note.actions))
        if note.kind is Kind.CHALLENGE_EXPIRED and await self._edit_card(note, text):
            return
        if note.kind is Kind.STANDINGS and await self._standings(chat_id, note, text, thread):
            return
        if note.kind in _BOT_MOVE_KINDS and await self._bot_board(chat_id, note, text, thread):
            return
        board = note.kind is Kind.BOARD
        if board and await self._bot_board(chat_id, note, text, thread, any_game=True):
            return
        if note.kind is Kind.RECAP:
            gif = None
            if self.recaps is not None and note.game_id is not None:
                gif = await self.recaps.gif(note.game_id)
            if gif is None:
                return  # nothing to show: the recap could not be drawn
            caption = quiet_html(text) if len(str(text)) <= CAPTION_LIMIT else None
            await self.bot.send_animation(
                chat_id, gif, caption=caption, parse_mode=ParseMode.HTML,
                filename=f"hexhall-{note.game_id}.gif", reply_markup=markup,
                message_thread_id=thread,
            )  # fmt: skip
            return
        if markup is not None and await offers.shown_in(self.manager, chat_id, note):
            markup = None  # the chat already shows these buttons: one live card
        body = html_text(text if len(str(text)) <= TEXT_LIMIT else str(text)[:TEXT_LIMIT])
        sent = await self.bot.send_message(
            chat_id, body, parse_mode=ParseMode.HTML, reply_markup=markup,
            message_thread_id=thread,
        )  # fmt: skip
        if markup is not None:  # closed with the other copies once answered
            await offers.remember_copy(self.manager, sent, note)

    async def _standings(
        self, chat_id: int, note: Notification, text: Text, thread: int | None = None
    ) -> bool:
        """A tournament's standings of the day: its table picture with ``text`` as the
        caption (the text alone when it is too long for a caption or nothing could be drawn),
        edited into the tournament's last standings message where one is known, else posted
        (in forum topic ``thread`` when given) and remembered under the chat's own id (a
        message id is the chat's, whatever its topic); ``False`` when this is not about a
        tournament (posted as text)."""
        manager, tournament = self.manager, standings_tournament(note)
        if manager is None or tournament is None or note.chat is None:
            return False
        recipient = User(PLATFORM, note.recipient.user_id, note.recipient.name)
        shown = await manager.tournaments.tournament_standings(recipient, note.chat, tournament)
        png = shown.image if shown.ok and len(str(text)) <= CAPTION_LIMIT else None
        known = await manager.posts.posts_for(
            PLATFORM, tournament_id=tournament, kind=PostKind.STANDINGS
        )
        if known and await self._edit_standings(known[-1], text, png):
            return True
        if png is None:
            sent = await self.bot.send_message(
                chat_id, _body(text), parse_mode=ParseMode.HTML, message_thread_id=thread
            )
        else:
            sent = await self.bot.send_photo(
                chat_id, png, caption=quiet_html(text), parse_mode=ParseMode.HTML,
                filename=f"standings-{tournament}.png", message_thread_id=thread,
            )  # fmt: skip
        await manager.posts.remember_post(
            PLATFORM, str(chat_id), str(sent.message_id), PostKind.STANDINGS,
            tournament_id=tournament,
        )  # fmt: skip
        return True

    async def _edit_standings(self, last: Post, text: Text, png: bytes | None) -> bool:
        """Edit the tournament's last standings message: its picture and caption
        (editMessageMedia), or its text; ``False`` when Telegram refuses (a deleted message,
        a text message that cannot take a picture): then a new one is posted.  A bot may edit
        its own messages at any time: the Bot API's only time limit on edits is for "business
        messages that were not sent by the bot and do not contain an inline keyboard" (48
        hours, https://core.telegram.org/bots/api#editmessagetext)."""
        chat_id, message_id = int(last.chat_id), int(last.message_id)
        try:
            if png is None:
                await self.bot.edit_message_text(
                    _body(text), chat_id, message_id, parse_mode=ParseMode.HTML
                )
            else:
                media = InputMediaPhoto(
                    png, caption=quiet_html(text), parse_mode=ParseMode.HTML,
                    filename=f"standings-{last.tournament_id}.png",
                )  # fmt: skip
                await self.bot.edit_message_media(media, chat_id, message_id)
        except BadRequest as exc:
            # Already showing this counts as edited; a deleted message does not.
            return "not modified" in str(exc).lower()
        return True

    async def _bot_board(
        self,
        chat_id: int,
        note: Notification,
        text: Text,
        thread: int | None,
        *,
        any_game: bool = False,
    ) -> bool:
        """Post the board of a game against the bot (``any_game``: of any game, a move's
        committed board whose answer never went out) in its chat (forum topic ``thread``) with
        ``text`` above the
        caption; ``False`` when the notice is about another game or goes elsewhere."""
        manager, chat = self.manager, note.chat
        if manager is None or note.game_id is None or chat is None:
            return False
        if chat.chat_id != key(chat_id, thread):  # a direct message away from the game's chat
            return False
        if not any_game and not await manager.games.against_bot(note.game_id):
            return False
        recipient = User(PLATFORM, note.recipient.user_id, note.recipient.name)
        board = await manager.games.board(recipient, chat, note.game_id)
        if not board.ok:
            return False
        shown = replace(board, body=Text.of(text, "\n", board.body))
        async with board_lock(manager, note.game_id):
            app = mini_app(self.bot, self.web_app)
            await send_board(self.bot, manager, chat_id, shown, app, thread=thread)
        return True

    async def _edit_card(self, note: Notification, text: Text) -> bool:
        """Edit the expired challenge's card(s) to ``text`` without buttons; ``False`` when no
        card of it is known (then the text is posted instead)."""
        if self.manager is None or note.challenge_id is None:
            return False
        cards = await self.manager.posts.posts_for(
            PLATFORM, challenge_id=note.challenge_id, kind=PostKind.CARD
        )
        for card in cards:
            # A card deleted meanwhile, or already showing this: nothing left to change.
            with contextlib.suppress(BadRequest):
                await self.bot.edit_message_text(
                    html_text(text), int(card.chat_id), int(card.message_id),
                    parse_mode=ParseMode.HTML,
                )  # fmt: skip
        await self.manager.posts.retire_posts(cards)
        return bool(cards)
