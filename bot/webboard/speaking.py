"""Which language a web board answer is said in (issue 43).

A signed-in player's, as in the chat (their ``settings language`` choice, else what their
platform says: Telegram's ``initData`` carries ``user.language_code``; for a personal link or
the Discord Activity, the language stored for them), else the browser's ``Accept-Language``
among the languages that ship, else English.  :func:`middleware` sets the browser's for each
request; the server adopts the player's once it knows who asks.

>>> accepted("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")
'fr'
>>> accepted("ko, pt-BR;q=0.5, es;q=0.8")
'es'
>>> accepted("ko, x;q=abc") is None
True
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.core import i18n
from bot.messages import Chat, User
from bot.sessions.manager import SessionManager
from bot.webboard.auth import Identity

__all__ = ["accepted", "middleware", "speak_to"]

#: The longest ``Accept-Language`` read (a longer one is cut there).
_MAX = 512


def accepted(header: str | None) -> str | None:
    """The shipped language a browser's ``Accept-Language`` prefers (``None``: none of ours)."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "")[:_MAX].split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        code = i18n.supported(tag.strip()) if tag.strip() != "*" else None
        if code is not None and code != i18n.PSEUDO and quality > 0:
            ranked.append((-quality, index, code))
    return min(ranked)[2] if ranked else None


@web.middleware
async def middleware(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Says the request's answer in the browser's language (English when it names none of
    ours); a handler that finds the asker signed in adopts theirs within it."""
    with i18n.use(accepted(request.headers.get("Accept-Language"))):
        return await handler(request)


async def speak_to(manager: SessionManager, who: Identity) -> str:
    """Says the rest of this request's answer in ``who``'s language: their ``settings
    language``, else what their platform says now (Telegram's ``language_code``, Discord's
    ``locale``), else the one stored for them; the browser's (already in use) when none is
    known.  The catalog code in use after."""
    if who.language is not None:
        user = User(who.platform, who.user_id, who.name)
        here = Chat(who.platform, who.user_id, direct=True)
        chosen = (await manager.players.speakers(user, here, who.language)).player
    else:
        chosen = await manager.players.recipient_language(who.platform, who.user_id)
    if chosen != i18n.SOURCE or i18n.supported(who.language) is not None:
        return i18n.adopt(chosen)
    return i18n.current()
