"""Questions for one person on Telegram ("Really resign?", a move that would lose, "Really
leave the tournament?"): asked of the presser (or of whoever typed ``/resign``, a losing
move, ``/tournament leave`` in a group) alone, never by changing a message others see.

A question goes to the presser's private chat with the bot when Telegram lets the bot write
there; otherwise (they never opened the bot: 403) it is posted in the group as a message of
its own, under the board pressed, saying whom it is for by name (plain text: no mention
entity, so it notifies no one).  The press is answered by a callback notification naming the
presser ("0-200 characters", core.telegram.org/bots/api#answercallbackquery).  Either way the
question's buttons carry whose question it is (:attr:`~bot.messages.ActionKind.confirms`), so
a tap by anyone else is refused by the manager; its Cancel names that player too.

A question is short-lived: its yes button lapses after
:data:`~bot.sessions.questions.QUESTION_TTL` (the id holds the time), and this process
deletes the message then, or as soon as it is answered or put away.  Asking again while a
question of the same player about the same game is open (a double tap) posts nothing new.
The answer's result (the final board, the board after the move) goes to the game's own chat.
A tap is answered before anything is posted in the group (issue 45): the group's pacing may
hold a post back, never the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from telegram import Bot, CallbackQuery, InlineKeyboardMarkup, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError

from bot.adapters.telegram.boards import delete_or_drop, send_text
from bot.adapters.telegram.format import html_text, keyboard
from bot.adapters.telegram.toasts import presser, toast
from bot.adapters.telegram.topics import topic_of
from bot.adapters.telegram.watch import ALERT_LIMIT, direct_refused, refused
from bot.core import i18n
from bot.core.lru import Lru
from bot.messages import Action, ActionKind, Reply, User
from bot.outcomes import asks as question_asked
from bot.sessions import texts
from bot.sessions.manager import SessionManager
from bot.sessions.questions import QUESTION_TTL

__all__ = ["OPEN_QUESTIONS", "Questions", "asks"]

log = logging.getLogger(__name__)

#: Open questions this process remembers (least recently asked first out).
OPEN_QUESTIONS = 1000


def asks(reply: Reply) -> bool:
    """Whether ``reply`` is a question for the person who asked (its outcome says so:
    :func:`bot.outcomes.asks`)."""
    return question_asked(reply.outcome)


class Questions:
    """The questions this process has open, by game and player (see the module docstring)."""

    def __init__(self, manager: SessionManager) -> None:
        self.manager = manager
        # (game, player) -> (chat, message, the answer on the button that asked it)
        self._open: Lru[tuple[int, int], tuple[int, int, str]] = Lru(OPEN_QUESTIONS)
        self._lock = asyncio.Lock()
        self._tidying: set[asyncio.Task[None]] = set()

    async def ask(self, query: CallbackQuery, user: User, reply: Reply) -> None:
        """Ask ``reply`` (a question, :func:`asks`) of the presser of ``query`` and answer the
        press; nothing already posted changes.  The press is answered before anything is
        posted in the group (the group's pacing may hold that back): a private question
        first, then the answer; else the answer, then the question in the group."""
        message = query.message
        assert isinstance(message, Message)

        async def answer(said: str) -> None:
            await query.answer(said[:ALERT_LIMIT])

        # A question is its presser's alone: asked, and its tap answered, in their language.
        with i18n.use(presser()):
            await self._pose(message, query.from_user.id, user, reply, answer)

    async def ask_typed(self, message: Message, user: User, reply: Reply) -> None:
        """Ask ``reply`` (a question) of the person who typed ``message`` in a group (a typed
        ``/resign``): privately when the bot may write to them, else under their message,
        for them alone to answer (see the module docstring)."""
        assert message.from_user is not None

        async def nothing(said: str) -> None:
            return None

        await self._pose(message, message.from_user.id, user, reply, nothing)

    async def _pose(
        self,
        message: Message,
        person: int,
        user: User,
        reply: Reply,
        answer: Callable[[str], Awaitable[None]],
    ) -> None:
        """Ask ``reply`` of ``person`` (the Telegram user ``user``), who asked with
        ``message``; ``answer`` tells them where (a callback answer), before anything is
        posted in the group."""
        # A question about a game is known by the game; one about a tournament (leaving it)
        # by 0: a player has one such question open at a time.
        gid = 0 if reply.game_id is None else reply.game_id
        player = (await self.manager.players.player(user)).id
        bot, name = message.get_bot(), user.name
        async with self._lock:
            asked = self._open.get((gid, player))
            if asked is not None:  # a double tap: the question is out already (or going)
                await answer(asked[2])
                return
            # Taken now, so a second press while this one is being asked asks nothing.
            self._open[(gid, player)] = (0, 0, texts.asked_privately(name))
        close = Action.make(texts.NOT_NOW, ActionKind.QUESTION_CLOSE, gid, player)
        markup = keyboard([list(reply.actions), [close]])
        try:
            sent = await self._privately(message, person, user, reply, markup)
            said = texts.asked_privately(name)
            if sent is None:
                said = texts.asked_here(name)
                self._open[(gid, player)] = (0, 0, said)
                await answer(said)
                sent = await bot.send_message(
                    message.chat.id, html_text(texts.question_for(name, reply.body)),
                    parse_mode=ParseMode.HTML, reply_markup=markup,
                    reply_parameters=ReplyParameters(
                        message.message_id, allow_sending_without_reply=True
                    ),
                    message_thread_id=topic_of(message),
                )  # fmt: skip
            else:
                await answer(said)
        except BaseException:
            self._open.pop((gid, player), None)
            raise
        self._open[(gid, player)] = (sent.chat.id, sent.message_id, said)
        task = asyncio.create_task(self._lapse(bot, gid, player, sent.chat.id, sent.message_id))
        self._tidying.add(task)
        task.add_done_callback(self._tidying.discard)

    async def _privately(
        self,
        message: Message,
        person: int,
        user: User,
        reply: Reply,
        markup: InlineKeyboardMarkup | None,
    ) -> Message | None:
        """The question in ``person``'s private chat (``None`` when Telegram refuses it:
        they never opened the bot, or blocked it; remembered)."""
        private = message.chat.id == person  # asked in our private chat
        if not private and direct_refused(self.manager, person):
            return None
        try:
            return await send_text(message.get_bot(), person, reply.body, markup)
        except Forbidden:  # never opened the bot, or blocked it: remembered
            await refused(self.manager, user)
            return None

    async def _lapse(self, bot: Bot, gid: int, player: int, chat_id: int, message_id: int) -> None:
        """Take the question away once it has lapsed (unless answered before)."""
        await asyncio.sleep(QUESTION_TTL.total_seconds())
        await self._take_away(bot, gid, player, chat_id, message_id)

    async def _take_away(
        self, bot: Bot, gid: int, player: int, chat_id: int, message_id: int
    ) -> None:
        async with self._lock:
            if self._open.get((gid, player), (0, 0, ""))[:2] == (chat_id, message_id):
                self._open.pop((gid, player), None)
        try:
            await delete_or_drop(bot, chat_id, message_id)
        except (BadRequest, Forbidden, ChatMigrated) as exc:  # gone already, or the chat
            log.info("question %s/%s not taken away: %s", chat_id, message_id, exc)

    async def answered(self, query: CallbackQuery, user: User) -> None:
        """The question ``query`` was pressed on has been answered: it goes."""
        message = query.message
        data = query.data or ""
        if not isinstance(message, Message):
            return
        action = Action("", data)
        gid = None if action.kind is ActionKind.TOURNAMENT_LEAVE_CONFIRMED else action.subject
        player = (await self.manager.players.player(user)).id
        await self._take_away(
            query.get_bot(), gid or 0, player, message.chat.id, message.message_id
        )

    async def put_away(self, query: CallbackQuery, user: User) -> None:
        """Cancel on a question: taken away, by the person it was asked of only."""
        message = query.message
        fields = Action("", query.data or "").fields
        if not isinstance(message, Message) or len(fields) != 2:
            return
        gid, owner = int(fields[0]), int(fields[1])
        if (await self.manager.players.player(user)).id != owner:
            refusal = texts.not_your_question(await self.manager.players.player_name(owner))
            await toast(query, refusal, alert=True)
            return
        await query.answer()
        await self._take_away(query.get_bot(), gid, owner, message.chat.id, message.message_id)

    async def close(self) -> None:
        """Stop waiting to take questions away (the process stops; a lapsed question's
        button refuses by itself)."""
        for task in list(self._tidying):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, TelegramError):
            await asyncio.gather(*self._tidying, return_exceptions=True)
