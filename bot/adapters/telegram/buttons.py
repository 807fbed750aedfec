"""The Telegram adapter's inline buttons: each tap turned into one session manager call (or a
step of the move picker, the position browser, a board's extras), the same tap twice handled
once (:mod:`~bot.adapters.telegram.taps`), and the answer shown where it belongs: an alert for
a refusal, the pressed message edited, a question for the presser alone, or a board in the
game's chat.

:class:`ButtonHandlers` is a part of :class:`~bot.adapters.telegram.adapter.TelegramAdapter`,
which registers :meth:`ButtonHandlers.on_button` and supplies the posting it uses.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar

from telegram import CallbackQuery, InlineKeyboardMarkup, InputMediaPhoto, Message, Update
from telegram import User as TgUser
from telegram.constants import ParseMode
from telegram.error import BadRequest
from telegram.ext import Application, ContextTypes

from bot.adapters import afterpost
from bot.adapters.commands import run_words
from bot.adapters.telegram import offers, topics, watch
from bot.adapters.telegram.boards import board_markup, drop_buttons, send_photo
from bot.adapters.telegram.format import CAPTION_LIMIT, PLATFORM, html_text, keyboard, rows_of
from bot.adapters.telegram.identity import chat_of, tg_user
from bot.adapters.telegram.questions import Questions, asks
from bot.adapters.telegram.reading import game_choice
from bot.adapters.telegram.retiring import TelegramPosts
from bot.adapters.telegram.taps import Taps
from bot.adapters.telegram.toasts import marked, presser, toast
from bot.core import i18n
from bot.core.i18n import N_
from bot.messages import Action, ActionKind, Chat, Reply, Text, User
from bot.sessions import texts
from bot.sessions.manager import SessionManager

__all__ = ["ButtonHandlers"]

App = Application[Any, Any, Any, Any, Any, Any]
Context = ContextTypes.DEFAULT_TYPE

_NOT_YOUR_BUTTONS = N_("These buttons are for whoever asked: /challenge to get your own.")
#: A live board's buttons that act on its game (gone from its boards once it is over).
_ON_LIVE_BOARDS = frozenset({ActionKind.PICK, ActionKind.RESIGN, ActionKind.OFFER_DRAW})
#: Buttons that only edit the message pressed to what their id names (a picker's step, a
#: browser's position): a repeat shows what is shown, so it needs no guard.
_IN_PLACE = frozenset({ActionKind.PICK_STEP, ActionKind.BROWSE})


class ButtonHandlers:
    """The inline buttons' handlers of a :class:`~bot.adapters.telegram.adapter.
    TelegramAdapter` (see the module docstring)."""

    manager: SessionManager
    application: App
    questions: Questions
    taps: Taps

    if TYPE_CHECKING:  # supplied by the adapter

        def _remember(self, user: TgUser | None) -> None: ...

        async def _send_text(
            self,
            chat_id: int,
            text: Text | str,
            markup: InlineKeyboardMarkup | None = None,
            *,
            thread: int | None = None,
        ) -> Message: ...

        async def send(
            self, chat_id: int, reply: Reply, *, dedupe: bool = False,
            thread: int | None = None, asker: User | None = None,
        ) -> Message | None: ...  # fmt: skip

    async def on_button(self, update: Update, context: Context) -> None:
        """An inline button: the picker, a board extra, or a manager action by its id; the
        same tap again while it is handled, or just after, has no effect of its own
        (:mod:`~bot.adapters.telegram.taps`)."""
        query = update.callback_query
        if query is None or query.data is None or query.message is None:
            return
        if Action("", query.data).kind in _IN_PLACE:
            await self._on_button(query)
            return
        tap = (query.from_user.id, query.message.chat.id, query.message.message_id, query.data)
        loop = asyncio.get_running_loop()
        if not self.taps.begin(tap, now=loop.time()):
            await query.answer()
            return
        # The same tap may reach another process (a webhook behind a load balancer): the
        # store's claim, which every process shares, says which one handles it.
        name = ":".join(map(str, tap))
        try:
            if not await self.manager.posts.claim_tap(PLATFORM, name, query.id, self.taps.window):
                await query.answer()
                return
            try:
                await self._on_button(query)
            finally:
                await self.manager.posts.end_tap(PLATFORM, name, query.id)
        finally:
            self.taps.end(tap, now=loop.time())

    async def _on_button(self, query: CallbackQuery) -> None:
        assert query.data is not None and query.message is not None
        self._remember(query.from_user)
        user, chat_id = tg_user(query.from_user), query.message.chat.id
        thread = topics.topic_of(query.message)
        chat = chat_of(query.message)
        chosen = game_choice(query.data)
        if chosen is not None:
            await self._challenge_with(query, user, chosen)
            return
        kind = Action("", query.data).kind
        if await watch.spectating(self.manager, user, chat_id, query.data) is not None:
            with i18n.use(presser()):  # every word of a look is for the presser alone
                await watch.look_privately(self.manager, query, user, chat)
            return
        handler = None if kind is None else self._buttons.get(kind)
        if handler is not None:
            await handler(self, query, user, chat)
            return
        if kind is ActionKind.QUESTION_CLOSE:
            await self.questions.put_away(query, user)
            return
        chat = await self._where_played(chat, query.data)
        reply = await self.manager.games.press(user, chat, query.data)
        if asks(reply):  # for the presser alone: no shared message changes
            await self.questions.ask(query, user, reply)
            return
        if not reply.ok and reply.actions:  # a warning that offers a way on, as buttons
            await query.answer()
            await self.send(chat_id, reply, thread=thread)
            return
        if not reply.ok:
            await toast(query, reply.body, alert=True)
            await self._retire_if_over(query)
            return
        if await self._to_game_chat(query, user, reply, kind):
            return
        if reply.private:
            # Already applied (a double tap, a stale preview's Play it): the presser alone is
            # told, on the button ("a notification at the top of the chat screen", Bot API
            # answerCallbackQuery); nothing is posted.
            await toast(query, reply.body)
            return
        await query.answer()
        message, bot = query.message, self.application.bot
        message_id = message.message_id
        if kind is not None and kind.on_card and reply.challenge_id is not None:
            # Closed: every other copy of the card too; this one is edited just below.
            pressed = (str(message.chat.id), str(message.message_id))
            await afterpost.card_answered(
                self.manager, TelegramPosts(bot), reply.challenge_id, reply, (pressed,)
            )
        answered = offers.answers_offer(query.data)
        if answered is not None:  # every copy of the offer loses its answer buttons
            await afterpost.close_offers(self.manager, TelegramPosts(bot), answered)
        if kind is ActionKind.ACCEPT:
            await drop_buttons(self.application.bot, chat_id, message_id)
        elif kind is not None and kind.on_card:
            await self.application.bot.edit_message_text(
                html_text(reply.body), chat_id, message_id, parse_mode=ParseMode.HTML
            )
            return
        elif kind is not None and kind.updates_card:  # a tournament's sign-up card
            await self.application.bot.edit_message_text(
                html_text(reply.body), chat_id, message_id, parse_mode=ParseMode.HTML,
                reply_markup=keyboard(rows_of(reply.actions)),
            )  # fmt: skip
            return
        await self.send(chat_id, reply, dedupe=kind is not None and kind.plays, thread=thread)

    async def _where_played(self, chat: Chat, data: str) -> Chat:
        """The chat a press is made in: for a move pressed in our private chat, its game's
        (a group's game played from the picker there is played as if typed in the group, so
        the board answering it is the one the group gets, and no notice repeats it);
        ``chat`` for anything else, a private game or an unknown one."""
        action = Action("", data)
        if action.kind is None or not action.kind.plays or chat.chat_id.startswith("-"):
            return chat
        game_id = action.subject
        where = None if game_id is None else await self.manager.games.game_chat(game_id)
        if where is None or where == chat.chat_id:
            return chat
        group, thread = topics.place(where)
        return topics.chat(group, thread)

    async def _to_game_chat(
        self, query: CallbackQuery, user: User, reply: Reply, kind: ActionKind | None
    ) -> bool:
        """What an answered question (resign, a losing move) or a move played from the
        picker in our private chat did goes to the game's chat (a group's, or this one in a
        private game), the tap answered first; ``False`` for any other press."""
        assert query.message is not None
        if kind is not None and kind.confirms and not reply.private:
            # The question was answered: it goes, and what it did is shown in the game's chat.
            await query.answer()
            await self.questions.answered(query, user)
            await self._in_game_chat(reply, dedupe=kind.plays)
            return True
        chat_id = query.message.chat.id
        if not (kind is not None and kind.plays and chat_id > 0 and reply.game_id is not None):
            return False
        if reply.private:  # already applied (a double tap): told on the button below
            return False
        # The picker goes with the game's older boards when the board is posted.
        here = await self.manager.games.game_chat(reply.game_id) == str(chat_id)
        await toast(query, None if here else marked(texts.PLAYED_BOARD_THERE))
        await self._in_game_chat(reply, dedupe=True)
        return True

    async def _retire_if_over(self, query: CallbackQuery) -> None:
        """A board's Move, Resign or Offer draw was refused: if its game is over, that board
        loses its buttons (an older board of an ended game; the last one lost them when the
        game ended)."""
        message, action = query.message, Action("", query.data or "")
        if not isinstance(message, Message) or action.kind not in _ON_LIVE_BOARDS:
            return
        gid = action.subject
        if gid is None or await self.manager.games.player_to_move(gid) is not None:
            return
        if await watch.is_picker(self.manager, gid, message) is None:
            await drop_buttons(self.application.bot, message.chat.id, message.message_id)

    async def _in_game_chat(self, reply: Reply, *, dedupe: bool) -> None:
        """Post ``reply`` (about a game) in the game's own chat (and topic)."""
        assert reply.game_id is not None
        game_chat = await self.manager.games.game_chat(reply.game_id)
        assert game_chat is not None  # the reply was just made about it
        chat_id, thread = topics.place(game_chat)
        await self.send(chat_id, reply, dedupe=dedupe, thread=thread)

    async def _challenge_with(
        self, query: CallbackQuery, user: User, chosen: tuple[str, int]
    ) -> None:
        """A game button under a bare ``/challenge``: an open challenge to that game by the
        person who asked (anyone else is told so privately); the buttons then go."""
        assert query.message is not None
        game, asker = chosen
        if query.from_user.id != asker:
            await toast(query, marked(_NOT_YOUR_BUTTONS), alert=True)
            return
        chat_id = query.message.chat.id
        chat = chat_of(query.message)
        reply = await run_words(
            self.manager, user, chat, "challenge", ["open", game], lambda _: None
        )
        await query.answer()
        await drop_buttons(self.application.bot, chat_id, query.message.message_id)
        await self.send(chat_id, reply, thread=topics.topic_of(query.message))

    async def _picker(self, query: CallbackQuery, user: User, chat: Chat) -> None:
        assert query.data is not None and query.message is not None
        # The picker is the presser's alone (sent to their private chat, or answered to
        # them): its steps are said in their language, not the group's.
        with i18n.use(presser()):
            step = await self.manager.games.pick(user, chat, query.data)
        if isinstance(step, Reply):
            await toast(query, step.body, alert=True)
            await self._retire_if_over(query)
            return
        # The picker first, then the answer: the presser sees both at once.
        with i18n.use(presser()):
            await watch.open_picker(self.manager, query, step, user, chat)

    async def _close_picker(self, query: CallbackQuery, user: User, chat: Chat) -> None:
        """Cancel: the picker message is deleted (by the player to move only); on a board
        asking to confirm resigning, the board's own buttons come back (a player only)."""
        assert query.data is not None and isinstance(query.message, Message)
        gid = Action("", query.data).subject
        assert gid is not None
        picker = await watch.is_picker(self.manager, gid, query.message)
        if picker is not None:
            if not await watch.may_close(self.manager, user, gid):
                await toast(query, marked(texts.NOT_YOUR_PICKER), alert=True)
                return
            await afterpost.close_pickers(self.manager, TelegramPosts(self.application.bot), gid)
            await query.answer()
            return
        if not await self.manager.games.seated(user, gid):
            await toast(query, texts.not_playing(gid), alert=True)
            return
        reply = await self.manager.games.board(user, chat, gid)
        if not reply.ok:
            await toast(query, reply.body, alert=True)
            return
        await query.answer()
        await self._edit_markup(query, board_markup(reply))

    async def _describe(self, query: CallbackQuery, user: User, chat: Chat) -> None:
        assert query.data is not None and query.message is not None
        reply = await self.manager.games.board(user, chat, Action("", query.data).subject)
        if not reply.ok:
            await toast(query, reply.body, alert=True)
            return
        await query.answer()
        await self._send_text(
            query.message.chat.id, reply.alt or reply.text, thread=topics.topic_of(query.message)
        )

    async def _offer_draw(self, query: CallbackQuery, user: User, chat: Chat) -> None:
        assert query.data is not None and query.message is not None
        reply = await self.manager.games.draw(user, chat, Action("", query.data).subject, "offer")
        if not reply.ok:
            await toast(query, reply.body, alert=True)
            await self._retire_if_over(query)
            return
        await query.answer()
        await self.send(query.message.chat.id, reply, thread=topics.topic_of(query.message))

    async def _browse(self, query: CallbackQuery, user: User, chat: Chat) -> None:
        """A step of the position browser: the browser's message is edited in place (its
        photo and caption, or its text when pictures are off); "Step through" under a move
        list opens a new browser message."""
        assert query.data is not None and query.message is not None
        reply = await self.manager.games.press(user, chat, query.data)
        if not reply.ok:
            await toast(query, reply.body, alert=True)
            return
        await query.answer()
        message, bot = query.message, self.application.bot
        chat_id, message_id = message.chat.id, message.message_id
        markup = keyboard([list(reply.actions)])
        is_photo = isinstance(message, Message) and bool(message.photo)
        opening = Action("", query.data).kind is ActionKind.BROWSE_OPEN
        if opening or is_photo != (reply.image is not None):
            if reply.image is not None:
                await send_photo(bot, chat_id, reply, markup, thread=topics.topic_of(message))
            else:
                await self._send_text(chat_id, reply.body, markup, thread=topics.topic_of(message))
            return
        try:
            if reply.image is not None:
                media = InputMediaPhoto(
                    reply.image, caption=_caption(reply), parse_mode=ParseMode.HTML
                )
                await bot.edit_message_media(media, chat_id, message_id, reply_markup=markup)
            else:
                await bot.edit_message_text(
                    html_text(reply.body), chat_id, message_id,
                    parse_mode=ParseMode.HTML, reply_markup=markup,
                )  # fmt: skip
        except BadRequest as exc:
            if "not modified" not in str(exc):  # a double press shows what is shown
                raise

    async def _edit_markup(self, query: CallbackQuery, markup: InlineKeyboardMarkup | None) -> None:
        assert query.message is not None
        try:
            await self.application.bot.edit_message_reply_markup(
                query.message.chat.id, query.message.message_id, reply_markup=markup
            )
        except BadRequest as exc:
            if "not modified" not in str(exc):
                raise

    async def _leave(self, query: CallbackQuery, user: User, chat: Chat) -> None:
        """Leave on a tournament's sign-up card: "Really leave?", asked of the presser alone
        (issue 45); nothing changes until they say yes."""
        assert query.data is not None
        tid = Action("", query.data).subject
        reply = await self.manager.tournaments.tournament_leave_question(user, chat, tid)
        if not reply.ok:
            await toast(query, reply.body, alert=True)
            return
        await self.questions.ask(query, user, reply)

    async def _leave_confirmed(self, query: CallbackQuery, user: User, chat: Chat) -> None:
        """Yes to leaving a tournament: the presser leaves (theirs alone to say, while it
        lasts); the question goes, and the tournament's chat is told (its card edited to the
        new list, or the withdrawal said)."""
        assert query.data is not None
        reply = await self.manager.games.press(user, chat, query.data)
        if not reply.ok:
            await toast(query, reply.body, alert=True)
            return
        await query.answer()
        await self.questions.answered(query, user)
        tid = Action("", query.data).subject
        card = None if tid is None else await offers.card_place(self.manager, tid)
        if card is not None:
            await self.send(card[0], reply, thread=card[1])

    _buttons: ClassVar[
        dict[ActionKind, Callable[[ButtonHandlers, CallbackQuery, User, Chat], Awaitable[None]]]
    ] = {
        ActionKind.PICK: _picker,
        ActionKind.PICK_STEP: _picker,
        ActionKind.PICK_CLOSE: _close_picker,
        ActionKind.PREVIEW_CANCEL: _close_picker,
        ActionKind.DESCRIBE: _describe,
        ActionKind.OFFER_DRAW: _offer_draw,
        ActionKind.BROWSE: _browse,
        ActionKind.BROWSE_OPEN: _browse,
        ActionKind.TOURNAMENT_LEAVE: _leave,
        ActionKind.TOURNAMENT_LEAVE_CONFIRMED: _leave_confirmed,
    }


def _caption(reply: Reply) -> str:
    """``reply``'s text as a caption, cut at Telegram's limit (a browser step's caption is a
    line or two: only an odd result line could be longer)."""
    if len(reply.text) <= CAPTION_LIMIT:
        return html_text(reply.body)
    return html_text(reply.text[: CAPTION_LIMIT - 1] + "…")
