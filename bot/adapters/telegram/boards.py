"""Sending the manager's replies as Telegram messages, shared by the adapter (answers to
updates) and the sender (the bot's own moves, delivered through the outbox).

A board is one photo with its caption and buttons (text when pictures are off), remembered in
the store as the game's latest board (see :mod:`bot.sessions.posts`).  The older boards keep
their buttons: every button carries its whole meaning (game, ply, move), so pressing one on
an older board is answered like on the latest, and taking them away would cost an edit per
move, which counts toward Telegram's 20 messages a minute per group (issue 24: one message
per move).  Once the game is over its last live board loses its buttons (one edit, when the
final board is posted), and any older board whose Move, Resign or Offer draw is pressed
afterwards loses them then (issue 45).  Long texts are split at Telegram's limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message, WebAppInfo
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden

from bot.adapters.telegram.format import (
    CAPTION_LIMIT,
    PLATFORM,
    TEXT_LIMIT,
    html_text,
    keyboard,
    rows_of,
)
from bot.core.lru import Lru
from bot.core.posts import PostKind
from bot.messages import Action, ActionKind, Reply, ReplyKind, Text, sections
from bot.sessions import texts
from bot.sessions.manager import SessionManager

__all__ = [
    "board_lock",
    "board_markup",
    "delete_or_drop",
    "drop_buttons",
    "mini_app",
    "send_board",
    "send_photo",
    "send_text",
]

# One lock per game of each manager, shared by the adapter and the sender: a board is sent and
# remembered under it, so the board remembered last is the newest message (the one that keeps
# its buttons), even when the bot's move is delivered while the player's is being answered.
# At most BOARD_LOCKS games' locks are kept (least recently used first out; a held one stays).
_LOCKS: weakref.WeakKeyDictionary[SessionManager, Lru[int, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)
#: Games whose board lock this process keeps (issue 48: the process stays small).
BOARD_LOCKS = 2000


def board_lock(manager: SessionManager, game_id: int) -> asyncio.Lock:
    """The lock under which a board of ``game_id`` is sent and remembered."""
    locks = _LOCKS.get(manager)
    if locks is None:
        locks = _LOCKS[manager] = Lru(BOARD_LOCKS, keep=lambda lock: lock.locked())
    lock = locks.get(game_id)
    if lock is None:
        lock = locks[game_id] = asyncio.Lock()
    return lock


def mini_app(bot: Bot, short_name: str) -> str:
    """``<bot username>/<short name>`` of the web board's Mini App, for its direct links in
    groups ("" when the app has no short name or the bot's username is not known yet)."""
    username = bot.username if bot else None
    return f"{username}/{short_name}" if username and short_name else ""


def page_button(reply: Reply, chat_id: int, app: str = "") -> InlineKeyboardButton | None:
    """The "Open board" button of a board whose game has a web page (``None`` otherwise).

    In a private chat it opens the page as a Mini App (a ``web_app`` button: Telegram allows
    it in private chats only, core.telegram.org/bots/api#inlinekeyboardbutton); in a group
    it is a direct link to the Mini App, ``t.me/<bot>/<app>?startapp=g_<slug>``
    (core.telegram.org/bots/webapps, "Direct Link Mini Apps"), ``app`` being
    ``<bot username>/<short name>``; without a registered app, a link to the page."""
    if reply.page is None:
        return None
    if chat_id > 0:
        return InlineKeyboardButton(texts.OPEN_BOARD, web_app=WebAppInfo(reply.page))
    if app:
        slug = reply.page.rsplit("/", 1)[-1]
        return InlineKeyboardButton(texts.OPEN_BOARD, url=f"https://t.me/{app}?startapp=g_{slug}")
    return InlineKeyboardButton(texts.OPEN_BOARD, url=reply.page)


def board_markup(
    reply: Reply, chat_id: int | None = None, app: str = ""
) -> InlineKeyboardMarkup | None:
    """The buttons of a reply about a game: on a live board Move first, the manager's actions,
    then Offer draw and Describe (the board in words, when there is a picture), and the
    game's web page (:func:`page_button`) when ``chat_id`` is given."""
    actions = list(reply.actions)
    if reply.game_id is None:
        return keyboard(rows_of(actions))
    gid = reply.game_id
    rows: list[list[Action]] = []
    live = reply.kind is ReplyKind.LIVE_BOARD
    if live:
        rows.append([Action.make("Move", ActionKind.PICK, gid)])
    rows.extend(rows_of(actions))
    extra = [Action.make("Describe", ActionKind.DESCRIBE, gid)] if reply.image is not None else []
    if live:
        extra.insert(0, Action.make("Offer draw", ActionKind.OFFER_DRAW, gid))
    rows.append(extra)
    page = None if chat_id is None else page_button(reply, chat_id, app)
    return keyboard(rows, [page] if page else [])


async def send_text(
    bot: Bot,
    chat_id: int,
    text: Text | str,
    markup: InlineKeyboardMarkup | None = None,
    *,
    thread: int | None = None,
) -> Message:
    """``text`` in one message, or several at Telegram's limit (the buttons on the last), in
    forum topic ``thread`` when given."""
    body = text if isinstance(text, Text) else Text.of(text)
    pieces = sections(body, TEXT_LIMIT)
    sent: Message | None = None
    for i, piece in enumerate(pieces):
        last = i == len(pieces) - 1
        sent = await bot.send_message(
            chat_id, html_text(piece), parse_mode=ParseMode.HTML,
            reply_markup=markup if last else None, message_thread_id=thread,
        )  # fmt: skip
    assert sent is not None
    return sent


async def send_photo(
    bot: Bot,
    chat_id: int,
    reply: Reply,
    markup: InlineKeyboardMarkup | None,
    *,
    thread: int | None = None,
) -> Message:
    """``reply``'s image as a photo with its text as the caption (and the text as its own
    message after it when too long for a caption), in forum topic ``thread`` when given."""
    assert reply.image is not None
    fits = len(reply.text) <= CAPTION_LIMIT
    message = await bot.send_photo(
        chat_id, reply.image,
        caption=html_text(reply.body) if fits else None,
        parse_mode=ParseMode.HTML, reply_markup=markup, message_thread_id=thread,
    )  # fmt: skip
    if not fits:
        await send_text(bot, chat_id, reply.body, thread=thread)
    return message


async def drop_buttons(bot: Bot, chat_id: int, message_id: int) -> None:
    """Take a message's buttons away (nothing to do when it has none or is gone, or its
    group became a supergroup: the old group takes no edits)."""
    with contextlib.suppress(BadRequest, ChatMigrated):
        await bot.edit_message_reply_markup(chat_id, message_id)


async def delete_or_drop(bot: Bot, chat_id: int, message_id: int) -> None:
    """Delete a message of the bot's (a move picker), or, when it is too old to delete (48
    hours: core.telegram.org/bots/api#deletemessage), take its buttons away."""
    try:
        await bot.delete_message(chat_id, message_id)
    except BadRequest:
        await drop_buttons(bot, chat_id, message_id)


async def send_board(
    bot: Bot,
    manager: SessionManager,
    chat_id: int,
    reply: Reply,
    app: str = "",
    *,
    thread: int | None = None,
) -> Message:
    """A game's board as its latest: sent and remembered (the older boards keep their buttons,
    see the module docstring; a move picker opened under an older one is deleted).  Call it
    holding :func:`board_lock`.  ``thread``: the forum topic it goes to."""
    assert reply.game_id is not None
    markup = board_markup(reply, chat_id, app)
    if reply.image is None:
        message = await send_text(bot, chat_id, reply.body, markup, thread=thread)
    else:
        message = await send_photo(bot, chat_id, reply, markup, thread=thread)
    older = await manager.posts.remember_post(
        PLATFORM, str(chat_id), str(message.message_id), PostKind.BOARD, game_id=reply.game_id
    )
    ended = reply.kind is not ReplyKind.LIVE_BOARD
    for post in older:
        # Removed from that chat, or it moved: nothing to tidy there.
        with contextlib.suppress(Forbidden, ChatMigrated):
            if post.kind is PostKind.PICKER:  # a picker under an older board: done with
                await delete_or_drop(bot, int(post.chat_id), int(post.message_id))
            elif ended and post.kind is PostKind.BOARD:  # the game is over: no Move, Resign
                await drop_buttons(bot, int(post.chat_id), int(post.message_id))
    return message
