"""Whose language a message is said in (issue 43).

- A player's language: their ``settings language`` choice, else what their platform says now
  (Telegram's ``language_code``, Discord's ``interaction.locale``), else what it said last
  (kept for notices delivered while they are away), else English.
- A chat's language, for what everyone there reads (boards, cards, tournament posts): its
  managers' ``settings chat-language`` choice, else the platform's default for it (Discord's
  ``guild_locale``), else English.  A private chat (a DM, the console) reads its player's.

Private answers, ephemeral messages and direct messages are rendered in the player's language,
group posts in the chat's (the surfaces choose, with :func:`bot.core.i18n.use`).
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from dataclasses import dataclass

from bot.core import i18n
from bot.messages import Chat, Reply, Text, User
from bot.sessions import texts
from bot.sessions.context import Context, Refusal
from bot.storage import LanguageKind, StoreError

__all__ = ["MANAGES", "NAMES", "Speakers", "change", "chat", "recipient", "speakers"]

log = logging.getLogger(__name__)

#: Whether the person asking manages the chat by the platform's own rights (a Discord
#: server's Manage Server permission, a Telegram group's administrators), as the surface found
#: out for this request, in its task (``None``: not known, so not allowed).
MANAGES: ContextVar[bool | None] = ContextVar("hexhall_manages", default=None)

#: The settings this module answers (``settings <name> <code>|auto``).
NAMES = ("language", "chat-language")


@dataclass(frozen=True)
class Speakers:
    """The languages of one request: the asker's (private answers) and the chat's (posts)."""

    player: str
    chat: str


def _private(chat: Chat) -> bool:
    return chat.direct or chat.platform == "console"


async def speakers(
    ctx: Context, user: User, chat: Chat, said: str | None = None, chat_default: str | None = None
) -> Speakers:
    """The languages of ``user`` (whose platform says ``said``) asking in ``chat`` (whose
    platform default is ``chat_default``); what the platform said is remembered for notices."""
    keys: tuple[tuple[LanguageKind, str], ...] = (
        (LanguageKind.CHOSEN, user.user_id),
        (LanguageKind.SEEN, user.user_id),
    )
    if not _private(chat):
        keys += ((LanguageKind.CHAT, chat.chat_id), (LanguageKind.CHAT_SEEN, chat.chat_id))
    seen = i18n.supported(said)
    default = i18n.supported(chat_default)
    try:
        stored = await ctx.store.languages(user.platform, keys)
        # What the platform says is remembered for notices delivered later (written only when
        # it changes: a read per request, a write now and then).
        if seen is not None and stored.get((LanguageKind.SEEN, user.user_id)) != seen:
            await ctx.store.set_language(user.platform, LanguageKind.SEEN, user.user_id, seen)
        chat_seen = (LanguageKind.CHAT_SEEN, chat.chat_id)
        if not _private(chat) and default is not None and stored.get(chat_seen) != default:
            await ctx.store.set_language(chat.platform, *chat_seen, default)
    except StoreError as exc:
        # The request itself says what it can: its answer is never lost to a language.
        log.warning("languages of %s unread: %s", user.user_id, exc)
        stored = {}
    player = (
        stored.get((LanguageKind.CHOSEN, user.user_id))
        or seen
        or stored.get((LanguageKind.SEEN, user.user_id))
        or i18n.SOURCE
    )
    if _private(chat):
        return Speakers(player, player)
    here = stored.get((LanguageKind.CHAT, chat.chat_id)) or default
    return Speakers(player, here or i18n.SOURCE)


async def recipient(ctx: Context, platform: str, user_id: str) -> str:
    """The language of a notice to a player who is not asking now (their choice, else what
    their platform said last, else English)."""
    keys = ((LanguageKind.CHOSEN, user_id), (LanguageKind.SEEN, user_id))
    try:
        stored = await ctx.store.languages(platform, keys)
    except StoreError as exc:
        log.warning("language of %s unread: %s", user_id, exc)
        return i18n.SOURCE
    return stored.get(keys[0]) or stored.get(keys[1]) or i18n.SOURCE


async def chat(ctx: Context, platform: str, chat_id: str, default: str | None = None) -> str:
    """The language of a post in a chat (its managers' choice, else ``default``, else
    English)."""
    key, seen = (LanguageKind.CHAT, chat_id), (LanguageKind.CHAT_SEEN, chat_id)
    try:
        stored = await ctx.store.languages(platform, (key, seen))
    except StoreError as exc:
        log.warning("language of chat %s unread: %s", chat_id, exc)
        stored = {}
    return stored.get(key) or i18n.supported(default) or stored.get(seen) or i18n.SOURCE


def _choices() -> str:
    return ", ".join(i18n.LANGUAGES)


async def change(ctx: Context, user: User, chat: Chat, name: str, value: str) -> Reply:
    """``settings language [<code>|auto]`` (the asker's own) or ``settings chat-language
    [<code>|auto]`` (the chat's, for its managers only)."""
    word = value.strip()
    code = None if word.lower() in ("auto", "") else i18n.supported(word)
    if word and word.lower() != "auto" and (code is None or code == i18n.PSEUDO):
        raise Refusal(texts.not_a_language(word[:20], _choices()))
    if name == "language":
        if word:
            await ctx.store.set_language(user.platform, LanguageKind.CHOSEN, user.user_id, code)
        now = await speakers(ctx, user, chat)
        mine = (LanguageKind.CHOSEN, user.user_id)
        chosen = bool(await ctx.store.languages(user.platform, (mine,)))
        with i18n.use(now.player):  # said at once, in the language just chosen
            said = Text.of(*texts.language_is(i18n.language_name(now.player), chosen).segments)
        return Reply(said)
    if _private(chat):
        raise Refusal(texts.chat_language_private())
    if word:
        if MANAGES.get() is not True:
            raise Refusal(texts.chat_language_needs_admin())
        await ctx.store.set_language(chat.platform, LanguageKind.CHAT, chat.chat_id, code)
    here = await speakers(ctx, user, chat)
    return Reply(texts.chat_language_is(i18n.language_name(here.chat)))
