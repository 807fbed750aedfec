"""Quiet looks and a move picker of its own, on Telegram.

*Spectators.*  Board, History, Describe and the position browser pressed in a group by someone
who is not a player of the game post nothing in the group: the answer goes to that person in
our private chat, or, when Telegram refuses that (they never opened the bot: 403), to a short
alert on the button.  ``answerCallbackQuery`` shows ``text`` (0-200 characters) "as an alert"
with ``show_alert`` (core.telegram.org/bots/api#answercallbackquery).

*The move picker* of a game played in a group opens in the presser's private chat with the
bot (issue 45): the group sees what a typed move makes it see, the board alone (one message,
no edit), and never several players' pickers at once; Telegram's 20 messages a minute per
group go to boards.  The tap is answered first: "in our private chat" once the picker is
there (a private chat is paced on its own, never behind the group), or, when the bot may not
write to the presser yet (they never opened it: 403), with a link that opens our chat with
the start parameter ``pk<game>`` (``answerCallbackQuery``'s ``url``: "you may use links like
t.me/your_bot?start=XXXX that open your bot with a parameter", core.telegram.org/bots/api#
answercallbackquery); their Start sends ``/start pk<game>`` and the picker comes (one live
picker a game: asking again shows nothing new).  Each step edits the picker; the move it
plays posts the board in the game's chat.  In a private game the picker opens under the board
in the same chat, as before.  A picker is remembered in the store
(:attr:`~bot.storage.PostKind.PICKER`) and deleted once a new board of its game is posted
(the store retires it with the older boards, in the same statement) or it is cancelled.  A
bot may delete its own messages if they are less than 48 hours old
(core.telegram.org/bots/api#deletemessage); an older one loses its buttons instead.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import replace

from telegram import Bot, CallbackQuery, InlineKeyboardMarkup, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden

from bot import metrics
from bot.adapters import afterpost
from bot.adapters.telegram.boards import send_photo, send_text
from bot.adapters.telegram.format import PLATFORM, ROW_LIMIT, html_text, keyboard, rows_of
from bot.adapters.telegram.retiring import TelegramPosts
from bot.adapters.telegram.state import state_of
from bot.adapters.telegram.toasts import ALERT_LIMIT, marked, said, toast
from bot.adapters.telegram.topics import topic_of
from bot.core.i18n import gettext
from bot.core.posts import Post, PostKind
from bot.messages import Action, ActionKind, Chat, Reply, Text, User
from bot.sessions import texts
from bot.sessions.manager import SessionManager
from bot.sessions.picker import Picker

__all__ = [
    "ALERT_LIMIT",
    "LOOKS",
    "alert_text",
    "answer_privately",
    "direct_refused",
    "is_picker",
    "look_privately",
    "may_close",
    "open_picker",
    "picker_markup",
    "private_picker",
    "reachable",
    "refused",
    "spectating",
    "start_link",
    "started_picker",
]

#: The buttons that only look at a game (nothing changes).
LOOKS = frozenset(
    {
        ActionKind.BOARD,
        ActionKind.HISTORY,
        ActionKind.DESCRIBE,
        ActionKind.BROWSE,
        ActionKind.BROWSE_OPEN,
    }
)


def alert_text(body: str, hint: str = texts.WATCH_PRIVATELY) -> str:
    """``body`` and ``hint`` as one alert within :data:`ALERT_LIMIT` (``body`` cut with an
    ellipsis when both do not fit)."""
    hint = gettext(hint)
    room = ALERT_LIMIT - len(hint) - 2
    if len(body) > room:
        body = body[: room - 1].rstrip() + "…"
    return f"{body}\n\n{hint}"


async def spectating(manager: SessionManager, user: User, chat_id: int, data: str) -> int | None:
    """The game a look button is about when ``user`` pressed it in a group without playing in
    that game (``None`` otherwise: a player's press, a private chat, another button)."""
    action = Action("", data)
    if chat_id > 0 or action.kind not in LOOKS or action.subject is None:
        return None
    if await manager.games.seated(user, action.subject):
        return None
    return action.subject


def direct_refused(manager: SessionManager, user_id: int) -> bool:
    """Whether Telegram refused a direct message to ``user_id`` (they never opened the bot, or
    blocked it) and they have not opened it since: nothing is tried until they do."""
    return state_of(manager).refused.get(user_id, False)


async def refused(manager: SessionManager, user: User) -> None:
    """Telegram refused a direct message to ``user`` (a spectator, a presser): remembered like
    a player's refusal, in the store (``players.dm_refused_at``: the outbox stops trying too)
    and here, until they open the bot (:func:`reachable`)."""
    state_of(manager).refused[int(user.user_id)] = True
    await manager.players.direct_refused(user)


async def reachable(manager: SessionManager, user: User) -> None:
    """``user`` opened a private chat with the bot: direct messages may reach them again."""
    state_of(manager).refused.pop(int(user.user_id), None)
    await manager.players.direct_reachable(user)


async def _look(manager: SessionManager, user: User, chat: Chat, data: str) -> Reply:
    """The answer to a look button, as the presser would get it."""
    action = Action("", data)
    if action.kind in (ActionKind.BOARD, ActionKind.DESCRIBE):
        reply = await manager.games.board(user, chat, action.subject)
        if action.kind is ActionKind.DESCRIBE and reply.ok:
            return Reply(Text.of(reply.alt or reply.text), game_id=reply.game_id)
        # A spectator's copy of the board: a picture to look at, no buttons to play with.
        return replace(reply, actions=())
    return await manager.games.press(user, chat, data)


async def look_privately(
    manager: SessionManager, query: CallbackQuery, user: User, chat: Chat
) -> None:
    """Answer a spectator's look button (see the module docstring): privately when Telegram
    lets the bot write to them, else in an alert; nothing is posted in the group."""
    assert query.data is not None
    reply = await _look(manager, user, chat, query.data)
    if not reply.ok:
        await query.answer(reply.text[:ALERT_LIMIT], show_alert=True)
        return
    bot = query.get_bot()
    if direct_refused(manager, query.from_user.id):  # known: not tried on every look
        await query.answer(alert_text(reply.text), show_alert=True)
        return
    # Without buttons: a game is shown only in its own chat and to its players (see
    # bot.sessions.loading.shown_here), so a spectator's private copy is a look, no more.
    try:
        if reply.image is not None:
            await send_photo(bot, query.from_user.id, reply, None)
        else:
            await send_text(bot, query.from_user.id, reply.body)
    except Forbidden:  # never started the bot, or blocked it
        await query.answer(alert_text(reply.text), show_alert=True)
        await refused(manager, user)
        return
    await query.answer(gettext(texts.SENT_PRIVATELY))


def picker_markup(step: Picker) -> InlineKeyboardMarkup | None:
    """The picker's buttons: the parts to choose from, then its controls.  A step that is a
    board of cells (Iso-Path) is laid out as the board, row by row; a board row wider than
    Telegram allows (:data:`ROW_LIMIT`) keeps only its live cells, cut in even halves if need
    be (h5's middle row has 9).  The choices beside the board come under it."""
    if not step.board:
        return keyboard([*rows_of(step.parts), list(step.controls)])
    live = {a.id for a in step.parts} | {a.id for a in step.controls}
    rows: list[list[Action]] = []
    for row in step.board:
        cells = list(row) if len(row) <= ROW_LIMIT else [a for a in row if a.id in live]
        width = -(-len(cells) // -(-len(cells) // ROW_LIMIT)) if cells else 1  # even halves
        rows.extend(cells[i : i + width] for i in range(0, len(cells), width))
    on_board = {a.id for row in step.board for a in row}
    beside = [a for a in step.parts if a.id not in on_board]
    return keyboard([*rows, *rows_of(beside), list(step.controls)])


async def is_picker(manager: SessionManager, game_id: int, message: Message) -> Post | None:
    """The remembered live picker that ``message`` is, if it is one of ``game_id``'s."""
    for post in await manager.posts.posts_for(
        PLATFORM, game_id=game_id, kind=PostKind.PICKER, live=True
    ):
        if (post.chat_id, post.message_id) == (str(message.chat.id), str(message.message_id)):
            return post
    return None


async def open_picker(
    manager: SessionManager, query: CallbackQuery, step: Picker, user: User, chat: Chat
) -> None:
    """Show ``step`` and answer the press: in its own message under the board when opened
    from the board (any picker of the game still open is closed first), else by editing the
    picker message; a whole turn chosen (:attr:`Picker.move`) by its preview instead."""
    if step.move is not None:
        await _preview(manager, query, step.game_id, step.move, user, chat)
        return
    message = query.message
    assert isinstance(message, Message)
    if message.chat.id < 0 and await is_picker(manager, step.game_id, message) is None:
        await _open_privately(manager, query, step, user)
        return
    # Answered first: the step's edit (or a picker in a private game) follows.
    await query.answer(step.text[:ALERT_LIMIT])
    await _show_step(manager, query, step)


#: The start parameter of a deep link that opens a game's move picker (``pk<game>``).
START_PICKER = re.compile(r"pk([0-9]{1,12})")


def start_link(bot: Bot, game_id: int) -> str:
    """The link that opens our private chat with ``/start pk<game>`` when followed (a start
    parameter is up to 64 characters of ``A-Za-z0-9_-``, core.telegram.org/bots/features#
    deep-linking)."""
    return f"https://t.me/{bot.username}?start=pk{game_id}"


def started_picker(args: list[str]) -> int | None:
    """The game whose picker a ``/start`` asks for (``/start pk12``), if it asks for one."""
    found = START_PICKER.fullmatch(args[0]) if len(args) == 1 else None
    return None if found is None else int(found.group(1))


async def _open_privately(
    manager: SessionManager, query: CallbackQuery, step: Picker, user: User
) -> None:
    """Move pressed in a group: the picker goes to the presser's private chat, and the tap
    is answered as soon as it is there (or at once with our chat's link, see the module
    docstring); nothing is posted in the group."""
    bot, person = query.get_bot(), query.from_user.id
    if not direct_refused(manager, person):
        try:
            await private_picker(manager, bot, person, step)
        except Forbidden:  # never opened the bot, or blocked it: remembered
            await refused(manager, user)
        else:
            await toast(query, marked(texts.PICKER_SENT_PRIVATELY))
            return
    await query.answer(said(marked(texts.PICKER_START)), url=start_link(bot, step.game_id))


async def private_picker(manager: SessionManager, bot: Bot, person: int, step: Picker) -> None:
    """``step`` as the game's picker in the private chat with ``person``: sent (any other
    picker of the game closed first) unless one is open there already (a second Move tap,
    or Start after the picker came)."""
    gid = step.game_id
    async with state_of(manager).picker_lock(gid):
        live = await manager.posts.posts_for(PLATFORM, game_id=gid, kind=PostKind.PICKER, live=True)
        if any(post.chat_id == str(person) for post in live):
            return
        await afterpost.close_pickers(manager, TelegramPosts(bot), gid)
        sent = await bot.send_message(
            person, html_text(step.text), parse_mode=ParseMode.HTML,
            reply_markup=picker_markup(step),
        )  # fmt: skip
        await manager.posts.remember_post(
            PLATFORM, str(person), str(sent.message_id), PostKind.PICKER, game_id=gid
        )


async def _preview(
    manager: SessionManager, query: CallbackQuery, gid: int, move: str, user: User, chat: Chat
) -> None:
    """The board after ``move`` with Play it / Cancel, in place of the picker (remembered as
    the game's picker, so that playing or cancelling it takes it away)."""
    reply = await manager.games.preview(user, chat, move, gid)
    if not reply.ok:
        await toast(query, reply.body, alert=True)
        return
    message = query.message
    assert isinstance(message, Message)
    await query.answer()  # first: the preview follows
    bot, thread = query.get_bot(), topic_of(message)
    markup = keyboard([list(reply.actions)])
    if reply.image is not None:
        sent = await send_photo(bot, message.chat.id, reply, markup, thread=thread)
    else:
        sent = await send_text(bot, message.chat.id, reply.body, markup, thread=thread)
    await afterpost.close_pickers(manager, TelegramPosts(bot), gid)
    await manager.posts.remember_post(
        PLATFORM, str(sent.chat.id), str(sent.message_id), PostKind.PICKER, game_id=gid
    )


async def _show_step(manager: SessionManager, query: CallbackQuery, step: Picker) -> None:
    """``step`` in the picker message pressed (unless it shows it already), else in a new
    picker message under the board pressed (a private game's)."""
    message = query.message
    assert isinstance(message, Message)
    bot = query.get_bot()
    markup = picker_markup(step)
    if await is_picker(manager, step.game_id, message) is not None:
        if message.text == step.text and message.reply_markup == markup:
            return  # a cell that is no choice now, a double press: nothing to change
        with contextlib.suppress(BadRequest):  # the same step again, shown meanwhile
            await bot.edit_message_text(
                html_text(step.text), message.chat.id, message.message_id,
                parse_mode=ParseMode.HTML, reply_markup=markup,
            )  # fmt: skip
        return
    # One picker of a game at a time, however many Move taps (on any of its boards) race.
    async with state_of(manager).picker_lock(step.game_id):
        await afterpost.close_pickers(manager, TelegramPosts(bot), step.game_id)
        sent = await bot.send_message(
            message.chat.id, html_text(step.text), parse_mode=ParseMode.HTML,
            reply_markup=markup,
            reply_parameters=ReplyParameters(message.message_id, allow_sending_without_reply=True),
            message_thread_id=topic_of(message),
        )  # fmt: skip
        await manager.posts.remember_post(
            PLATFORM, str(sent.chat.id), str(sent.message_id), PostKind.PICKER,
            game_id=step.game_id,
        )  # fmt: skip


async def may_close(manager: SessionManager, user: User, game_id: int) -> bool:
    """Whether ``user`` may close ``game_id``'s picker: the player to move (or, when nobody
    is to move any more, a player of the game)."""
    mover = await manager.games.player_to_move(game_id)
    if mover is None:
        return await manager.games.seated(user, game_id)
    return (mover.platform, mover.user_id) == (user.platform, user.user_id)


async def answer_privately(
    manager: SessionManager,
    bot: Bot,
    chat_id: int,
    asker: User,
    reply: Reply,
    thread: int | None = None,
) -> None:
    """A reply for ``asker`` alone (:attr:`~bot.messages.Reply.private`: a repeat the store
    had already applied, a board asked for by someone not playing), asked in the group
    ``chat_id``: in our private chat (its picture without buttons), or, when Telegram refuses
    that (403: they never opened the bot; remembered, see :func:`refused`), its first line in
    the group (topic ``thread``) as plain text: no ``text_mention`` entity, so it notifies no
    one (Bot API, MessageEntity)."""
    metrics.replied(PLATFORM)
    person = int(asker.user_id)
    if not direct_refused(manager, person):
        try:
            if reply.image is not None:
                await send_photo(bot, person, reply, None)
            else:
                await send_text(bot, person, reply.body)
            return
        except Forbidden:
            await refused(manager, asker)
    await send_text(bot, chat_id, reply.text.split("\n", 1)[0], thread=thread)
