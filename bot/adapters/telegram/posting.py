"""The Telegram adapter's posting: a session manager's reply shown in a chat in Telegram's
form (a board as one photo with its caption and buttons, a challenge card with its buttons, a
tournament's sign-up card edited in place, a rating chart as a photo, text otherwise), a
finished game's boards retired, and a reply for its asker alone sent to them privately.

:class:`Posting` is a part of :class:`~bot.adapters.telegram.adapter.TelegramAdapter`, which
sets the state it reads (the application, the manager, the outbox, the boards' captions).
"""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest
from telegram.ext import Application

from bot import metrics
from bot.adapters import afterpost
from bot.adapters.telegram import offers, topics, watch
from bot.adapters.telegram.boards import (
    board_lock,
    board_markup,
    mini_app,
    send_board,
    send_photo,
    send_text,
)
from bot.adapters.telegram.format import PLATFORM, html_text, keyboard, rows_of
from bot.adapters.telegram.retiring import TelegramPosts
from bot.adapters.telegram.state import state_of
from bot.core.lru import Lru
from bot.core.posts import PostKind
from bot.delivery.outbox import Outbox
from bot.messages import Action, ActionKind, Reply, ReplyKind, Text, User
from bot.outcomes import SignUp
from bot.sessions.manager import SessionManager

__all__ = ["DM_START", "Posting"]

App = Application[Any, Any, Any, Any, Any, Any]

#: ``/start dm``: the challenge card's link that turns direct messages on.
DM_START = "dm"


class Posting:
    """How the adapter shows replies (see the module docstring)."""

    manager: SessionManager
    application: App
    #: the short name of the web board's Mini App (BotFather's /newapp; "" when none)
    web_app: str
    #: The outbox delivering this platform's notifications (woken after each update).
    outbox: Outbox | None
    _captions: Lru[int, str]
    _owner: str

    async def _send_text(
        self,
        chat_id: int,
        text: Text | str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        thread: int | None = None,
    ) -> Message:
        return await send_text(self.application.bot, chat_id, text, markup, thread=thread)

    def _card_markup(self, reply: Reply, chat_id: int) -> InlineKeyboardMarkup | None:
        actions = list(reply.actions)
        cid = reply.challenge_id
        cancel = cid is not None and Action.make("Cancel", ActionKind.CANCEL, cid)
        if cancel and cancel not in actions:
            actions.append(cancel)
        extra = []
        username = self.application.bot.username if self.application.bot else None
        if chat_id < 0 and username:
            extra.append(
                InlineKeyboardButton(
                    "Get your turns privately", url=f"https://t.me/{username}?start={DM_START}"
                )
            )
        return keyboard([actions], extra)

    async def send(
        self, chat_id: int, reply: Reply, *, dedupe: bool = False,
        thread: int | None = None, asker: User | None = None,
    ) -> Message | None:  # fmt: skip
        """Show ``reply`` in ``chat_id``: a board as one photo with its caption and buttons
        (text when pictures are off), a challenge card with its buttons, a picture that is no
        board (a player's rating chart) as a photo with its caption, text otherwise.
        A game's older boards keep their buttons (see :mod:`~bot.adapters.telegram.boards`).
        ``dedupe`` skips a board identical to the game's latest one (a double press answered
        again).  ``thread``: the forum topic it goes to (``None``: none).  A reply for the
        asker alone (:attr:`~bot.messages.Reply.private`) asked by the user ``asker``
        elsewhere than our private chat goes to them privately (:meth:`_privately`)."""
        if reply.private and asker is not None and asker.user_id != str(chat_id):
            bot = self.application.bot
            await watch.answer_privately(self.manager, bot, chat_id, asker, reply, thread)
            return None
        metrics.replied(PLATFORM)
        cid = reply.challenge_id
        bot = self.application.bot
        if reply.kind is ReplyKind.CHART and reply.image is not None:
            markup = keyboard(rows_of(reply.actions))
            return await send_photo(bot, chat_id, reply, markup, thread=thread)
        if isinstance(reply.outcome, SignUp):
            return await self._sign_up(chat_id, reply, reply.outcome.tournament_id, thread)
        live = reply.kind is ReplyKind.LIVE_BOARD
        if reply.ok and reply.game_id is not None and reply.kind is ReplyKind.BOARD:
            # The game is over: its picker is done with and nothing is offered any more (a
            # live board retires the game's picker when it is remembered: boards.send_board).
            await afterpost.game_over(self.manager, TelegramPosts(bot), reply.game_id)
        if reply.game_id is None or (reply.image is None and not live):
            is_card = reply.kind is ReplyKind.CARD
            markup = self._card_markup(reply, chat_id) if is_card else board_markup(reply)
            sent = await self._send_text(chat_id, reply.body, markup, thread=thread)
            await offers.remember_offer(self.manager, sent, reply)
            if is_card:
                await self.manager.posts.remember_post(
                    PLATFORM, str(chat_id), str(sent.message_id), PostKind.CARD, challenge_id=cid
                )
            return sent
        gid = reply.game_id
        caption = reply.text
        async with board_lock(self.manager, gid):
            if dedupe and self._captions.get(gid) == caption:
                return None
            # The move's committed board is this answer: claimed, so no outbox posts it too.
            owner = self.outbox.owner if self.outbox is not None else self._owner
            # (A live board, or the final one: any board shown as the game's latest; the
            # game's chat is the topic's when it is in one.)
            async with self.manager.posts.answering(owner, gid, topics.key(chat_id, thread)):
                message = await send_board(
                    bot, self.manager, chat_id, reply, self._mini_app(), thread=thread
                )
            self._captions[gid] = caption
        if live:
            posted = state_of(self.manager).offers_posted
            await afterpost.close_lapsed_offers(self.manager, TelegramPosts(bot), posted, gid)
        if reply.animation is not None:  # (recaps come through the outbox; kept for others)
            await bot.send_animation(
                chat_id, reply.animation, filename=f"hexhall-{gid}.gif", message_thread_id=thread
            )
        return message

    async def _sign_up(
        self, chat_id: int, reply: Reply, tournament_id: int, thread: int | None
    ) -> Message:
        """A tournament's sign-up card: posted (and remembered) the first time; afterwards a
        typed ``join`` or ``leave`` edits the chat's card to the new list (its count right)
        and is answered with its first line alone, never with a second card."""
        bot, where = self.application.bot, topics.key(chat_id, thread)
        markup = keyboard(rows_of(reply.actions))
        cards = await self.manager.posts.posts_for(
            PLATFORM, tournament_id=tournament_id, kind=PostKind.CARD
        )
        known = [p for p in cards if p.chat_id == where]
        if known:
            try:
                await bot.edit_message_text(
                    html_text(reply.body), chat_id, int(known[-1].message_id),
                    parse_mode=ParseMode.HTML, reply_markup=markup,
                )  # fmt: skip
            except BadRequest as exc:
                if "not modified" not in str(exc):  # the card is gone: a new one below
                    known = []
        if known:
            return await self._send_text(chat_id, reply.body.first_paragraph(), thread=thread)
        sent = await self._send_text(chat_id, reply.body, markup, thread=thread)
        await self.manager.posts.remember_post(
            PLATFORM, where, str(sent.message_id), PostKind.CARD, tournament_id=tournament_id
        )
        return sent

    def _mini_app(self) -> str:
        """``<bot username>/<short name>`` of the web board's Mini App ("" when none)."""
        return mini_app(self.application.bot, self.web_app)
