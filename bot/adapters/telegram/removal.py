"""A group that removed the bot, on Telegram.

Telegram tells the bot with a ``my_chat_member`` update ("the bot's chat member status was
updated in a chat", the Bot API's Update object; a ``ChatMemberUpdated`` with the chat, who did
it and the bot's old and new member status).  It is not a message, so privacy mode does not
hide it; it comes to a bot that asks for it in ``allowed_updates`` (by default every kind but
``chat_member`` and the reactions are sent; :data:`~bot.adapters.telegram.adapter.
ALLOWED_UPDATES` names it).  A bot removed from a supergroup is ``kicked`` (banned), from a
basic group ``left``; either way every send there is refused from then on (403 "bot was kicked
from the group chat").

The games of that group are kept.  Each player of each live game there is told once,
privately, that the group is out of reach and the game goes on in private, when a direct
message may reach them (they opened the bot: the platform never refused one,
``players.dm_refused_at``).  From then on the outbox's notices for that chat are not tried in
the group at all: they go to their recipient privately (:func:`removed_chats`, read by the
sender).  When the bot is added back (status ``member`` or ``administrator``), notices go
to the group again.  The set is this process's (bounded); a restarted process learns a removal
again from Telegram's first 403 there.
"""

from __future__ import annotations

import contextlib

from telegram import Bot, ChatMemberUpdated, Update
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import BadRequest, Forbidden
from telegram.ext import ChatMemberHandler, ContextTypes

from bot.adapters.telegram.format import PLATFORM, html_text
from bot.adapters.telegram.state import RemovedChats, state_of
from bot.sessions import texts
from bot.sessions.manager import SessionManager

__all__ = ["RemovedChats", "member_handler", "on_member_update", "removed_chats"]

#: The statuses that mean the bot is out of a group, and those that mean it is in again.
_GONE = frozenset({ChatMemberStatus.LEFT, ChatMemberStatus.BANNED})
_BACK = frozenset({ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER})


def removed_chats(manager: SessionManager) -> RemovedChats:
    """The groups known to have removed the bot, for ``manager``'s process (shared by the
    adapter and the outbox's sender: :mod:`~bot.adapters.telegram.state`)."""
    return state_of(manager).removed


async def on_member_update(manager: SessionManager, bot: Bot, change: ChatMemberUpdated) -> int:
    """The bot's status changed in a chat: a group that removed it is remembered and the
    players of its live games are told privately (once: a repeated update finds it known); a
    group that added it back is forgotten.  Returns how many players were told."""
    chat = change.chat
    if chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP):
        return 0  # a private chat: blocking is learned from the 403s of direct messages
    status, removed = change.new_chat_member.status, removed_chats(manager)
    if status in _BACK:
        removed.discard(chat.id)
        return 0
    if status not in _GONE or not removed.add(chat.id, told=True):
        return 0
    told = 0
    for player in await manager.posts.chat_players(PLATFORM, str(chat.id)):
        if not player.reachable or not player.user.user_id.isdigit():
            continue  # never opened the bot (Telegram refused before): nowhere to say it
        text = html_text(texts.removed_from_chat(player.game_id))
        with contextlib.suppress(Forbidden, BadRequest):
            await bot.send_message(int(player.user.user_id), text, parse_mode=ParseMode.HTML)
            told += 1
    return told


def member_handler(manager: SessionManager) -> ChatMemberHandler[ContextTypes.DEFAULT_TYPE, None]:
    """The handler of the bot's own ``my_chat_member`` updates (see :func:`on_member_update`)."""

    async def changed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.my_chat_member is not None:
            await on_member_update(manager, context.bot, update.my_chat_member)

    return ChatMemberHandler(changed, ChatMemberHandler.MY_CHAT_MEMBER)
