"""The language a stored notice is said in when it is delivered (issue 43).

The outbox keeps each notice's sentences unsaid (:class:`bot.messages.Phrase`: a message id and
its arguments), so it is rendered at delivery: a direct message in its recipient's language
(their ``settings language``, else what their platform last said of them), a post in a chat in
the chat's (its ``settings chat-language``, else what the platform last said of it: a Discord
server's preferred locale).  A catalog fixed meanwhile reaches notices already
queued.
"""

from __future__ import annotations

import logging
from typing import Protocol, runtime_checkable

from bot.core import i18n
from bot.core.notification import Notification
from bot.storage import LanguageKind, StoreError

__all__ = ["Languages", "language_of"]

log = logging.getLogger(__name__)


@runtime_checkable
class Languages(Protocol):
    """What this module reads of the store."""

    async def languages(
        self, platform: str, keys: tuple[tuple[LanguageKind, str], ...]
    ) -> dict[tuple[LanguageKind, str], str]: ...


async def language_of(store: object, note: Notification) -> str:
    """The catalog code ``note`` is said in (English when nothing is known, or the store
    cannot say: a notice is never held back by its language)."""
    if not isinstance(store, Languages):
        return i18n.SOURCE
    platform = note.recipient.platform
    keys: tuple[tuple[LanguageKind, str], ...]
    if note.direct or note.chat is None:
        who = note.recipient.user_id
        keys = ((LanguageKind.CHOSEN, who), (LanguageKind.SEEN, who))
    else:
        keys = ((LanguageKind.CHAT, note.chat.chat_id), (LanguageKind.CHAT_SEEN, note.chat.chat_id))
    try:
        stored = await store.languages(platform, keys)
    except StoreError as exc:
        log.warning("language of a notice unread: %s", exc)
        return i18n.SOURCE
    for key in keys:
        if key in stored:
            return stored[key]
    return i18n.SOURCE
