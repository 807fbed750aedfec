"""Manager replies in Telegram's terms: HTML text (parse mode HTML), captions and long texts
within Telegram's limits, and actions as inline keyboards.

>>> html_text("Ada <3 & Bob")
'Ada &lt;3 &amp; Bob'
>>> from bot.messages import Strong
>>> html_text(Text.of(Mention("telegram", "7", "Ada"), " to move in ", Strong("#3")))
'<a href="tg://user?id=7">Ada</a> to move in <b>#3</b>'
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update

from bot.core.i18n import gettext
from bot.messages import Action, Mention, Text

__all__ = [
    "ALLOWED_UPDATES",
    "CAPTION_LIMIT",
    "KEYBOARD_LIMIT",
    "PLATFORM",
    "ROW_LIMIT",
    "TEXT_LIMIT",
    "html_text",
    "keyboard",
    "rows_of",
]

#: The kinds of update the handlers read, asked for by polling and by the webhook alike (an
#: edit comes as ``edited_message``, only to a bot that asks for it: it retries a refused move;
#: ``my_chat_member`` says a group removed the bot or added it back: adapters.telegram.removal).
ALLOWED_UPDATES: tuple[str, ...] = (
    Update.MESSAGE,
    Update.EDITED_MESSAGE,
    Update.CALLBACK_QUERY,
    Update.MY_CHAT_MEMBER,
)
#: The platform name in users, chats and mentions.
PLATFORM = "telegram"
#: Telegram's limits on a message's text and a photo's caption (characters after parsing).
TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
#: Buttons in one row of an inline keyboard (and 100 in all).  The Bot API reference gives no
#: figure; Telegram refuses more (the limits collected at limits.tginfo.me,
#: github.com/tginfo/Telegram-Limits issue 228: "max inline keyboard button per row: 8").
ROW_LIMIT = 8
#: Buttons in one inline keyboard (same source: "max inline keyboard button: 100").
KEYBOARD_LIMIT = 100


def _mention(m: Mention) -> str:
    # A text mention by id works for people without a username; other platforms' players
    # (or odd ids) are shown by name.
    if m.platform == PLATFORM and m.user_id.isdigit():
        return f'<a href="tg://user?id={m.user_id}">{html.escape(m.name)}</a>'
    return html.escape(m.name)


def html_text(text: Text | str) -> str:
    """``text`` in Telegram's HTML: escaped, mentions as text mentions, Strong as ``<b>``,
    Code as ``<code>``."""
    if isinstance(text, str):
        return html.escape(text, quote=False)
    return text.render(
        escape=lambda s: html.escape(s, quote=False),
        mention=_mention,
        strong=lambda s: f"<b>{s}</b>",
        code=lambda s: f"<code>{s}</code>",
    )


def quiet_html(text: Text | str) -> str:
    """``text`` in Telegram's HTML like :func:`html_text`, but naming players by name only:
    no text mention, so it notifies nobody (Bot API, MessageEntity ``text_mention``)."""
    if isinstance(text, str):
        return html.escape(text, quote=False)
    return text.render(
        escape=lambda s: html.escape(s, quote=False),
        strong=lambda s: f"<b>{s}</b>",
        code=lambda s: f"<code>{s}</code>",
    )


def rows_of(actions: Sequence[Action], width: int | None = None) -> list[list[Action]]:
    """``actions`` in rows: ``width`` per row, or as many as short labels allow."""
    if not actions:
        return []
    if width is None:
        longest = max(len(a.label) for a in actions)
        width = ROW_LIMIT if longest <= 3 else 6 if longest <= 5 else 3 if longest <= 12 else 2
    return [list(actions[i : i + width]) for i in range(0, len(actions), width)]


def keyboard(
    rows: Iterable[Iterable[Action]], extra: Iterable[InlineKeyboardButton] = ()
) -> InlineKeyboardMarkup | None:
    """An inline keyboard of ``rows`` of actions (their ids as callback data), plus ``extra``
    buttons in a last row; ``None`` when there is no button at all."""
    built = [
        [InlineKeyboardButton(gettext(a.label), callback_data=a.id) for a in row]
        for row in rows
        if row
    ]
    more = list(extra)
    if more:
        built.append(more)
    built = [row for row in built if row]
    return InlineKeyboardMarkup(built) if built else None
