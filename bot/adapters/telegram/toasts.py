"""The answer on a tapped button (``answerCallbackQuery``: a toast, or an alert) is the
presser's alone, so it is said in the presser's language, not the chat's (issue 43).

:func:`~bot.adapters.telegram.languages.speak` notes the presser's language for a callback
query's update (:data:`PRESSER`, in the update's own task); :func:`toast` says a text in it.
Texts stay unsaid until then (:class:`~bot.messages.Text`), so a refusal the session made
while the chat's language was in use still reads in the presser's.
"""

from __future__ import annotations

from contextvars import ContextVar

from telegram import CallbackQuery

from bot.core import i18n
from bot.messages import Phrase, Text

__all__ = ["ALERT_LIMIT", "PRESSER", "marked", "presser", "said", "toast"]

#: What a callback answer may show (characters: "0-200", Bot API answerCallbackQuery).
ALERT_LIMIT = 200
#: The language of the person who pressed the button being answered (``None``: no button).
PRESSER: ContextVar[str | None] = ContextVar("hexhall_presser", default=None)


def presser() -> str:
    """The presser's language here, else the language in use."""
    return PRESSER.get() or i18n.current()


def marked(msgid: str) -> Text:
    """A sentence marked where it is written (``N_``), said when the text is."""
    return Text.of(Phrase(msgid))


def said(text: Text | str) -> str:
    """``text`` in the presser's language, cut to what a callback answer may show."""
    with i18n.use(presser()):
        return str(text)[:ALERT_LIMIT]


async def toast(
    query: CallbackQuery, text: Text | str | None = None, *, alert: bool = False
) -> None:
    """Answer the tap of ``query``: ``text`` (if any) in the presser's language, as an alert
    (``alert``) or a notification at the top of the chat."""
    await query.answer(None if text is None else said(text), show_alert=alert)
