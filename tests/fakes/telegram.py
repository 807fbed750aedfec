"""A fake Telegram Bot API server for the adapter tests: the real python-telegram-bot
``Application`` talks HTTP to it on 127.0.0.1 and it answers like Telegram does.

It implements the methods a board-game bot calls (``getMe``, ``deleteWebhook``, ``getUpdates``
as a real long poll honouring ``offset``, ``sendMessage``, ``sendPhoto``, ``sendAnimation``,
``sendDocument``, the four ``editMessage*`` methods, ``deleteMessage``, ``answerCallbackQuery``,
``sendChatAction``, ``setMyCommands``/``getMyCommands``/``deleteMyCommands`` and ``getFile``),
with Telegram's response shapes, limits and error wording, and 404 ``Not Found`` for every other
method. Inbound updates are built with python-telegram-bot's own types.

Pointing an application at it::

    async with FakeTelegram() as fake:
        app = fake.application_builder().build()   # token, base_url, base_file_url set
        alice = fake.user(1, "Alice", "alice")
        await fake.start_private(alice)             # Alice pressed Start (queues "/start")
        await fake.send_text(alice, fake.private(alice), "/new hex")
        reply = await fake.wait_for_message(alice.id, lambda m: bool(m.photo))
        query_id = await fake.press(alice, reply, "resign")
        answer = await fake.wait_for_answer(query_id)

What the fake knows (test-facing):

- chats: :meth:`FakeTelegram.user` (also opens the user's private chat, whose id is the user
  id), :meth:`FakeTelegram.group`, :meth:`FakeTelegram.private`; a private user must have
  "started" the bot (:meth:`FakeTelegram.start_private`) before the bot can write to them
  (else 403), :meth:`FakeTelegram.block` and :meth:`FakeTelegram.kick_bot` answer 403 too;
- groups run in privacy mode by default: :meth:`FakeTelegram.send_text` delivers only
  commands for this bot, replies to the bot's messages and mentions of it (it returns ``None``
  for chatter the bot would not see);
- messages: the bot's messages per chat in their current state (after edits, without the
  deleted ones): :meth:`FakeTelegram.sent`, :meth:`FakeTelegram.message`,
  :meth:`FakeTelegram.keyboard`, :meth:`FakeTelegram.photo_bytes`, :meth:`FakeTelegram.last_photo`,
  :meth:`FakeTelegram.wait_for_message`; message ids increase per chat;
- callback answers: :attr:`FakeTelegram.callback_answers`, :meth:`FakeTelegram.wait_for_answer`;
- what real groups do (see "Platform behaviours" below, one test each): forum supergroups
  (:meth:`FakeTelegram.forum`, :meth:`FakeTelegram.topic`; a message in a topic carries its
  ``message_thread_id`` and replies to the topic's opening service message; the General topic
  has no thread; a send to a thread that is no topic is 400 "message thread not found"),
  group to supergroup migration (:meth:`FakeTelegram.migrate`: both service messages, and
  400 with ``migrate_to_chat_id`` for the old id), edited messages
  (:meth:`FakeTelegram.edit_text` queues ``edited_message`` as privacy mode allows), ``web_app``
  buttons refused outside private chats (400 ``BUTTON_TYPE_INVALID``);
- failures on demand: :meth:`FakeTelegram.flood` (429 with ``retry_after``),
  :meth:`FakeTelegram.fail` and :meth:`FakeTelegram.lose_answers` (the call is carried out, the
  message posted, but its answer never comes: the caller's read time-out);
- every request is recorded as a :class:`~tests.fakes.base.Call` (``method``, ``data`` with
  JSON fields decoded and other form values as the strings Telegram receives, ``files`` by part
  name, ``response`` the JSON body answered), errors included;
- webhooks: ``setWebhook`` (url, ``secret_token``, ``allowed_updates``), ``deleteWebhook`` and
  ``getWebhookInfo``.  While a webhook is set, ``getUpdates`` answers 409 Conflict, and a pusher
  POSTs each pending update (oldest first; ``webhook_connections`` at once, default one) as
  JSON with the ``X-Telegram-Bot-Api-Secret-Token`` header to the webhook URL, or, when
  :attr:`FakeTelegram.webhook_targets` lists URLs, to those in turn (round-robin per attempt:
  the stand-in for a load balancer in front of several bot processes).  An update stays
  pending until a POST is answered 2xx; a refused connection, a dropped one, a timeout or any
  other status is retried after ``webhook_retry`` seconds (on the next target), as Telegram
  does.  Each attempt is recorded as a call of method :data:`WEBHOOK_PUSH` (``data``:
  ``update_id`` and ``url``; ``response``: the HTTP status, ``None`` when no answer came).
  :meth:`FakeTelegram.wait_delivered` waits for an update's 2xx,
  :meth:`FakeTelegram.wait_confirmed` for every update up to it to be acknowledged.  Unlike
  Telegram, plain ``http://`` URLs are accepted, so tests need no TLS.

Two bot processes behind a "load balancer" (ports ``a`` and ``b``, each serving ``/hook``)::

    fake = FakeTelegram(
        webhook_targets=[f"http://127.0.0.1:{a}/hook", f"http://127.0.0.1:{b}/hook"],
        webhook_connections=4,
    )
    # Each process calls setWebhook(url, secret_token=...) with the same URL and secret: the
    # fake keeps them and POSTs to the two targets in turn, never to the URL itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import io
import itertools
import json
import mimetypes
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, ClassVar
from urllib.parse import urlparse

import aiohttp
import telegram
from aiohttp import web
from PIL import Image, UnidentifiedImageError
from telegram.ext import ApplicationBuilder

from tests.fakes.base import DEFAULT_DEADLINE, Call, FakeServer

__all__ = [
    "CALLBACK_ANSWER_LIMIT",
    "CALLBACK_DATA_LIMIT",
    "CAPTION_LIMIT",
    "DEFAULT_TOKEN",
    "SECRET_HEADER",
    "TEXT_LIMIT",
    "WEBHOOK_PUSH",
    "CallbackAnswer",
    "FakeTelegram",
]

#: A well-formed token (``<bot id>:<secret>``); the bot id is the part before the colon.
DEFAULT_TOKEN = "7000000001:AAHexhallFakeTokenForOfflineTests01"
#: Message text, 1..4096 characters after entity parsing.
TEXT_LIMIT = 4096
#: Media captions, 0..1024 characters after entity parsing.
CAPTION_LIMIT = 1024
#: Inline button callback data, 1..64 bytes.
CALLBACK_DATA_LIMIT = 64
#: Text of an ``answerCallbackQuery`` notification, 0..200 characters.
CALLBACK_ANSWER_LIMIT = 200
#: Inline keyboards hold at most this many buttons, and this many in one row.  The Bot API
#: reference gives no figures; they are the ones collected at limits.tginfo.me
#: (github.com/tginfo/Telegram-Limits issue 228: "max inline keyboard button: 100", "max
#: inline keyboard button per row: 8").  Beyond 100 Telegram answers 400
#: ``REPLY_MARKUP_TOO_LONG`` (yagop/node-telegram-bot-api issue 200); the fake answers a
#: wider row the same way.
KEYBOARD_BUTTON_LIMIT = 100
KEYBOARD_ROW_LIMIT = 8
#: Photos are at most 10 MB; other uploads at most 50 MB.
PHOTO_BYTES_LIMIT = 10 * 1024 * 1024
UPLOAD_BYTES_LIMIT = 50 * 1024 * 1024
#: Telegram stores a photo as JPEG thumbnails whose longest side is one of these (never more
#: than 1280: bigger uploads are scaled down, which is why boards must survive it).
PHOTO_SIDES = (90, 320, 800, 1280)

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
GET_UPDATES_CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance "
    "is running"
)
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete "
    "the webhook first"
)
SET_WEBHOOK_CONFLICT = "Conflict: terminated by setWebhook request"
#: The header a webhook POST carries the ``secret_token`` in.
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
#: The ``method`` of the :class:`~tests.fakes.base.Call` recorded for each webhook POST.
WEBHOOK_PUSH = "webhook"
_SECRET_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,256}")
# Form fields Telegram reads as JSON (everything else is a string or a number in a string).
_JSON_FIELDS = frozenset(
    {
        "reply_markup",
        "media",
        "entities",
        "caption_entities",
        "commands",
        "scope",
        "allowed_updates",
        "reply_parameters",
        "link_preview_options",
    }
)
# Exactly one of these makes an inline button do something.
_BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
_CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
_COMMAND_RE = re.compile(r"(?<![\w/])/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{3,32}))?")
_MENTION_RE = re.compile(r"(?<![\w@])@([A-Za-z0-9_]{5,32})")
_BOT_COMMAND_NAME_RE = re.compile(r"[a-z0-9_]{1,32}")
_MEDIA_KEYS = ("photo", "animation", "document")

ChatRef = int | telegram.Chat
MessageRef = telegram.Message | tuple[int, int]


class _ApiError(Exception):
    """An error answer: HTTP status, Telegram's description, optional ``parameters``."""

    def __init__(
        self, status: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.status,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def _bad(description: str) -> _ApiError:
    return _ApiError(400, f"Bad Request: {description}")


@dataclass(frozen=True)
class CallbackAnswer:
    """One accepted ``answerCallbackQuery``: the notification the presser saw (if any)."""

    query_id: str
    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int


@dataclass
class _Upload:
    data: bytes
    filename: str | None
    content_type: str | None


@dataclass
class _StoredFile:
    kind: str  # "photo", "animation", "document"
    file_id: str
    file_unique_id: str
    data: bytes
    file_name: str | None = None
    mime_type: str | None = None
    width: int = 0
    height: int = 0
    duration: int = 0


@dataclass
class _ChatState:
    chat: dict[str, Any]
    messages: dict[int, dict[str, Any]] = field(default_factory=dict)
    last_id: int = 0
    #: Forum topics: the ids of their opening service messages (the topics' thread ids).
    topics: set[int] = field(default_factory=set)
    #: The supergroup this group became (its id), once migrated.
    migrated_to: int | None = None
    #: The bot that posted last in this group (None before any bot did).
    last_bot: int | None = None

    @property
    def id(self) -> int:
        return int(self.chat["id"])

    @property
    def private(self) -> bool:
        return bool(self.chat["type"] == "private")


@dataclass(frozen=True)
class _Described:
    """A method's result with Telegram's ``description`` beside it."""

    result: Any
    description: str


@dataclass
class _Failure:
    status: int
    description: str
    parameters: dict[str, Any] | None
    #: Only a call to this chat fails (``None``: any call of the method).
    chat_id: int | None = None


class _Params:
    """A request's fields: strings from forms, native values from JSON bodies."""

    def __init__(self, fields: dict[str, Any], files: dict[str, _Upload]) -> None:
        self.fields = fields
        self.files = files

    def has(self, name: str) -> bool:
        return self.fields.get(name) not in (None, "")

    def text(self, name: str) -> str | None:
        value = self.fields.get(name)
        return None if value is None else str(value)

    def integer(self, name: str) -> int | None:
        value = self.fields.get(name)
        if value in (None, ""):
            return None
        if isinstance(value, bool):
            raise _bad(f'field "{name}" must be of type Integer')
        try:
            return int(value)
        except (TypeError, ValueError):
            raise _bad(f'field "{name}" must be of type Integer') from None

    def number(self, name: str) -> float | None:
        value = self.fields.get(name)
        if value in (None, ""):
            return None
        try:
            return float(value)
        except (TypeError, ValueError):
            raise _bad(f'field "{name}" must be a Number') from None

    def flag(self, name: str) -> bool:
        return self.fields.get(name) in (True, 1, "true", "True", "1")

    def json(self, name: str) -> Any:
        value = self.fields.get(name)
        if not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except ValueError:
            raise _bad(f"can't parse {name} JSON object") from None


def _check_web_app_buttons(markup: Any, state: _ChatState) -> None:
    """``web_app`` buttons (inline or reply keyboard) are "available only in private chats
    between a user and the bot" (the Bot API's InlineKeyboardButton and KeyboardButton); in a
    group Telegram answers 400 ``BUTTON_TYPE_INVALID`` (php-telegram-bot/core#1353,
    tbxark/mail2telegram#29)."""
    if state.private or not isinstance(markup, dict):
        return
    rows = markup.get("inline_keyboard") or markup.get("keyboard") or []
    for row in rows if isinstance(rows, list) else []:
        for button in row if isinstance(row, list) else []:
            if isinstance(button, dict) and "web_app" in button:
                raise _bad("BUTTON_TYPE_INVALID")


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _now() -> int:
    return int(time.time())


class _HtmlEntities(HTMLParser):
    """Telegram's HTML parse mode: plain text plus entities with UTF-16 offsets."""

    _TAGS: ClassVar[dict[str, str]] = {
        "b": "bold",
        "strong": "bold",
        "i": "italic",
        "em": "italic",
        "u": "underline",
        "ins": "underline",
        "s": "strikethrough",
        "strike": "strikethrough",
        "del": "strikethrough",
        "code": "code",
        "pre": "pre",
        "a": "text_link",
        "tg-spoiler": "spoiler",
        "span": "spoiler",
        "blockquote": "blockquote",
    }

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.parts: list[str] = []
        self.position = 0
        self.open: list[tuple[str, dict[str, Any]]] = []
        self.entities: list[dict[str, Any]] = []

    def _byte_offset(self) -> int:
        line, column = self.getpos()
        lines = self.source.split("\n")
        before = "\n".join(lines[: line - 1])
        prefix = (before + "\n" if line > 1 else "") + lines[line - 1][:column]
        return len(prefix.encode())

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        kind = self._TAGS.get(tag)
        attributes = dict(attrs)
        if kind is None or (tag == "span" and attributes.get("class") != "tg-spoiler"):
            raise _bad(
                f'can\'t parse entities: Unsupported start tag "{tag}" at byte offset '
                f"{self._byte_offset()}"
            )
        entity: dict[str, Any] = {"type": kind, "offset": self.position}
        if tag == "a":
            href = attributes.get("href")
            if not href:
                raise _bad("can't parse entities: Can't find end tag corresponding to start tag a")
            entity["url"] = href
        if tag == "code" and self.open and self.open[-1][0] == "pre":
            # <pre><code class="language-x"> is one pre entity with a language.
            language = (attributes.get("class") or "").removeprefix("language-")
            if language:
                self.open[-1][1]["language"] = language
            entity["type"] = "merged"
        self.open.append((tag, entity))

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1][0] != tag:
            expected = f'"</{self.open[-1][0]}>"' if self.open else "nothing"
            raise _bad(
                f"can't parse entities: Unmatched end tag at byte offset {self._byte_offset()}, "
                f'expected {expected}, found "</{tag}>"'
            )
        _, entity = self.open.pop()
        entity["length"] = self.position - entity["offset"]
        if entity["type"] != "merged" and entity["length"] > 0:
            self.entities.append(entity)

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        self.position += _utf16_len(data)

    def result(self) -> tuple[str, list[dict[str, Any]]]:
        self.feed(self.source)
        self.close()
        if self.open:
            raise _bad(
                "can't parse entities: Can't find end tag corresponding to start tag "
                f'"{self.open[-1][0]}"'
            )
        self.entities.sort(key=lambda e: (e["offset"], -e["length"]))
        return "".join(self.parts), self.entities


def _parse_text(
    text: str, parse_mode: str | None, entities: Any
) -> tuple[str, list[dict[str, Any]]]:
    """Plain text and entities as Telegram stores them, leading and trailing spaces trimmed."""
    if parse_mode:
        if parse_mode.lower() != "html":
            # Fail loudly rather than pretend: only HTML is implemented by the fake.
            raise _bad(f"unsupported parse_mode {parse_mode!r} (the fake implements HTML only)")
        plain, found = _HtmlEntities(text).result()
    else:
        plain, found = text, []
        if entities:
            if not isinstance(entities, list):
                raise _bad("can't parse entities JSON object")
            total = _utf16_len(text)
            for entity in entities:
                if (
                    not isinstance(entity, dict)
                    or not isinstance(entity.get("type"), str)
                    or not isinstance(entity.get("offset"), int)
                    or not isinstance(entity.get("length"), int)
                    or entity["offset"] < 0
                    or entity["length"] <= 0
                    or entity["offset"] + entity["length"] > total
                ):
                    raise _bad("can't parse entities: entity is out of the text")
                found.append(dict(entity))
    stripped = plain.strip()
    if stripped != plain:
        lead = _utf16_len(plain[: len(plain) - len(plain.lstrip())])
        end = _utf16_len(stripped)
        trimmed = []
        for entity in found:
            start = max(entity["offset"] - lead, 0)
            stop = min(entity["offset"] - lead + entity["length"], end)
            if stop > start:
                trimmed.append({**entity, "offset": start, "length": stop - start})
        plain, found = stripped, trimmed
    return plain, found


def _image_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG/JPEG/GIF/WEBP photo; ``IMAGE_PROCESS_FAILED`` otherwise."""
    if not data.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF8", b"RIFF")):
        raise _bad("IMAGE_PROCESS_FAILED")
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            return image.size
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise _bad("IMAGE_PROCESS_FAILED") from None


# ---------------------------------------------------------------- flood limits (issue 24)

#: The Bot API methods that post or change a message in a chat: what Telegram's flood limits
#: count.  (``answerCallbackQuery``, ``sendChatAction`` and ``deleteMessage`` are no chat
#: messages and are never paced.)
_SENDING = frozenset({"sendMessage", "sendPhoto", "sendAnimation", "sendDocument"})
_EDITING = frozenset(
    {"editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup"}
)


@dataclass(frozen=True)
class TelegramLimits:
    """Telegram's documented flood limits, enforced with its 429 answer when given to
    :class:`FakeTelegram` (off by default, so other tests never wait on them).

    The Bots FAQ ("My bot is hitting limits, how do I avoid this?",
    https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this): "avoid
    sending more than one message per second in a particular chat ... eventually you'll start
    getting 429 errors", and "your bot will not be able to send more than 20 messages per
    minute to the same group".  Edits count toward the group's 20 a minute (grammY's flood
    guide, https://grammy.dev/advanced/flood: "bots can only perform up to 20 message edits
    per minute per group chat"; python-telegram-bot's ``AIORateLimiter`` counts every request
    to a group too).  The per-chat second counts new messages only.  A refusal is
    ``429 Too Many Requests: retry after N`` with ``parameters.retry_after`` (whole seconds),
    as the Bot API's ``ResponseParameters`` documents.
    """

    #: New messages one chat may get within :attr:`chat_period` seconds.
    per_chat: int = 1
    chat_period: float = 1.0
    #: Messages and edits one group may get within :attr:`group_period` seconds.
    per_group: int = 20
    group_period: float = 60.0


class _FloodGate:
    """The sliding windows of :class:`TelegramLimits`, per chat (monotonic clock)."""

    def __init__(self, limits: TelegramLimits) -> None:
        self.limits = limits
        self._chat: dict[int, deque[float]] = {}
        self._group: dict[int, deque[float]] = {}

    @staticmethod
    def _wait(window: deque[float], allowed: int, period: float, now: float) -> float:
        while window and window[0] <= now - period:
            window.popleft()
        if len(window) < allowed:
            return 0.0
        return window[0] + period - now

    def check(self, method: str, chat_id: int) -> None:
        """Raise Telegram's 429 when ``method`` to ``chat_id`` would exceed a limit now."""
        now = time.monotonic()
        limits = self.limits
        wait = 0.0
        if method in _SENDING:
            window = self._chat.setdefault(chat_id, deque())
            wait = self._wait(window, limits.per_chat, limits.chat_period, now)
        if chat_id < 0 and (method in _SENDING or method in _EDITING):
            window = self._group.setdefault(chat_id, deque())
            wait = max(wait, self._wait(window, limits.per_group, limits.group_period, now))
        if wait > 0:
            seconds = max(1, int(-(-wait // 1)))  # whole seconds, rounded up
            raise _ApiError(
                429,
                f"Too Many Requests: retry after {seconds}",
                {"retry_after": seconds},
            )

    def count(self, method: str, chat_id: int) -> None:
        """Count an accepted ``method`` to ``chat_id``."""
        now = time.monotonic()
        if method in _SENDING:
            self._chat.setdefault(chat_id, deque()).append(now)
        if chat_id < 0 and (method in _SENDING or method in _EDITING):
            self._group.setdefault(chat_id, deque()).append(now)


def _limited_chat(method: str, fields: dict[str, Any]) -> int | None:
    """The chat a paced method writes to (``None``: not paced, or no numeric chat id)."""
    if method not in _SENDING and method not in _EDITING:
        return None
    value = fields.get("chat_id")
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):  # "@channelusername": not paced by chat here
        return None


class FakeTelegram(FakeServer):
    """The fake Bot API server. Use as ``async with FakeTelegram() as fake:``.

    :param token: the only token accepted (others answer 401 Unauthorized).
    :param username: the bot's username (``/cmd@username`` routes to it).
    :param first_name: the bot's display name.
    :param privacy_mode: groups deliver only commands, replies to the bot and mentions of it.
    :param max_poll_timeout: the longest a ``getUpdates`` long poll is held, whatever the client
        asks (Telegram's own cap is 50 s).
    :param webhook_targets: where a set webhook's updates are POSTed, in turn (default: the
        webhook URL itself); :attr:`webhook_targets` may be changed at any time.
    :param webhook_retry: seconds between a failed webhook POST and the next attempt.
    :param webhook_timeout: seconds a webhook POST may take before it counts as failed.
    :param webhook_connections: how many webhook POSTs may be in flight at once (Telegram's
        ``max_connections``; 1 keeps the updates strictly in order).
    :param limits: Telegram's flood limits to enforce (:class:`TelegramLimits`; off by default).
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        username: str = "hexhall_bot",
        first_name: str = "Hexhall",
        privacy_mode: bool = True,
        max_poll_timeout: float = 50.0,
        webhook_targets: Sequence[str] = (),
        webhook_retry: float = 0.05,
        webhook_timeout: float = 30.0,
        webhook_connections: int = 1,
        limits: TelegramLimits | None = None,
    ) -> None:
        super().__init__()
        self.token = token
        #: Telegram's flood limits, enforced when given (see :class:`TelegramLimits`).
        self.limits = limits
        self._flood_gate = None if limits is None else _FloodGate(limits)
        self.privacy_mode = privacy_mode
        self.max_poll_timeout = max_poll_timeout
        self.bot_user = telegram.User(
            id=int(token.split(":", 1)[0]),
            first_name=first_name,
            is_bot=True,
            username=username,
            can_join_groups=True,
            can_read_all_group_messages=not privacy_mode,
            supports_inline_queries=False,
        )
        #: Every accepted ``answerCallbackQuery``, oldest first.
        self.callback_answers: list[CallbackAnswer] = []
        self._chats: dict[int, _ChatState] = {}
        # Each stored message decoded once (by the stored dict's identity, the dict kept so
        # its id is never reused): a stored message is never changed in place, an edit stores
        # a new dict.  Tests' waits decode the chat's messages on every change they wake on.
        self._decoded: dict[int, tuple[dict[str, Any], telegram.Message]] = {}
        self._users: dict[int, telegram.User] = {}
        self._started: set[int] = set()
        self._blocked: set[int] = set()
        self._kicked: set[int] = set()
        self._files: dict[str, _StoredFile] = {}
        self._file_counter = itertools.count(1)
        self._commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        #: The bot's description per language code ("" for everyone else), setMyDescription.
        self.descriptions: dict[str, str] = {}
        #: The administrators of each group (user ids), as getChatMember reports them.
        self._admins: dict[int, set[int]] = {}
        self._queries: dict[str, bool] = {}  # callback query id -> answered
        self._query_counter = itertools.count(4_000_000_000_000_000_001)
        self._failures: dict[str, deque[_Failure]] = {}
        # Calls carried out but never answered (method -> the chat of each, None: any chat).
        self._lost: dict[str, deque[int | None]] = {}
        self._lost_answers_end = asyncio.Event()
        # Updates: queued until a getUpdates with a higher offset confirms them.
        self._pending: list[dict[str, Any]] = []
        self._update_counter = itertools.count(100_001)
        self._delivered: set[int] = set()
        self._confirmed_below = 0
        self._allowed_updates: frozenset[str] | None = None
        self._poll_generation = 0
        self._poll_wakeup = asyncio.Event()
        self._closing = False
        #: Long polls currently held open (for tests of shutdown and conflicts).
        self.waiting_polls = 0
        self._poll_ended_by = GET_UPDATES_CONFLICT
        #: The webhook set with ``setWebhook`` ("" when none), and its secret token.
        self.webhook_url = ""
        self.webhook_secret: str | None = None
        self._webhook_allowed: frozenset[str] | None = None
        #: Where webhook POSTs go, in turn (empty: to :attr:`webhook_url`).
        self.webhook_targets: list[str] = list(webhook_targets)
        self.webhook_retry = webhook_retry
        self.webhook_timeout = webhook_timeout
        self.webhook_connections = webhook_connections
        self._push_attempts = 0
        self._push_wakeup = asyncio.Event()
        self._pushing: set[int] = set()  # update ids being POSTed now
        self._retry_at: dict[int, float] = {}  # update id -> loop time of its next attempt
        self._pusher: asyncio.Task[None] | None = None
        self._webhook_error: tuple[int, str] | None = None  # date, message of the last failure
        self._handlers: dict[str, Callable[[_Params], Awaitable[Any]]] = {
            "getMe": self._get_me,
            "deleteWebhook": self._delete_webhook,
            "setWebhook": self._set_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "getUpdates": self._get_updates,
            "sendMessage": self._send_message,
            "sendPhoto": self._send_photo,
            "sendAnimation": self._send_animation,
            "sendDocument": self._send_document,
            "editMessageText": self._edit_message_text,
            "editMessageCaption": self._edit_message_caption,
            "editMessageMedia": self._edit_message_media,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "deleteMessage": self._delete_message,
            "answerCallbackQuery": self._answer_callback_query,
            "sendChatAction": self._send_chat_action,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "deleteMyCommands": self._delete_my_commands,
            "getFile": self._get_file,
            "setMyDescription": self._set_my_description,
            "getMyDescription": self._get_my_description,
            "getChatMember": self._get_chat_member,
        }
        # Telegram matches method names case-insensitively.
        self._by_lower = {name.lower(): name for name in self._handlers}
        self.app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self.app.router.add_route("GET", "/file/bot{token}/{path:.+}", self._download)
        self.app.router.add_route("*", "/{tail:.*}", self._not_found)

    # ---------------------------------------------------------------- connection details

    @property
    def base_url(self) -> str:
        """For ``ApplicationBuilder.base_url`` (the token is appended by the library)."""
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        """For ``ApplicationBuilder.base_file_url``."""
        return f"{self.url}/file/bot"

    def application_builder(self) -> ApplicationBuilder[Any, Any, Any, Any, Any, Any]:
        """An ``ApplicationBuilder`` with this fake's token, base URL and file URL set."""
        return (
            ApplicationBuilder()
            .token(self.token)
            .base_url(self.base_url)
            .base_file_url(self.base_file_url)
        )

    async def start(self) -> None:
        """Listen, and start the webhook pusher (idle until a webhook is set)."""
        await super().start()
        self._pusher = asyncio.get_running_loop().create_task(self._push_updates())

    async def stop(self) -> None:
        """Answer held long polls at once (so shutdown never waits them out), stop pushing,
        then stop."""
        self._closing = True
        self._wake_polls()
        self._lost_answers_end.set()
        if self._pusher is not None:
            self._pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pusher
            self._pusher = None
        await super().stop()

    # ---------------------------------------------------------------- people and chats

    def user(
        self,
        id: int,
        first_name: str,
        username: str | None = None,
        *,
        last_name: str | None = None,
        language_code: str | None = None,
    ) -> telegram.User:
        """A person, and their private chat with the bot (same id; not started yet)."""
        if id <= 0:
            raise ValueError(f"user ids are positive, not {id}")
        user = telegram.User(
            id=id,
            first_name=first_name,
            is_bot=False,
            last_name=last_name,
            username=username,
            language_code=language_code,
        )
        self._users[id] = user
        chat: dict[str, Any] = {"id": id, "type": "private", "first_name": first_name}
        if last_name:
            chat["last_name"] = last_name
        if username:
            chat["username"] = username
        if id in self._chats:
            self._chats[id].chat = chat
        else:
            self._chats[id] = _ChatState(chat)
        return user

    def group(
        self, id: int, title: str, *, supergroup: bool = False, username: str | None = None
    ) -> telegram.Chat:
        """A group (or supergroup) the bot is a member of. Group ids are negative."""
        if id >= 0:
            raise ValueError(f"group ids are negative, not {id}")
        chat: dict[str, Any] = {
            "id": id,
            "type": "supergroup" if supergroup else "group",
            "title": title,
        }
        if username:
            chat["username"] = username
        if id in self._chats:
            self._chats[id].chat = chat
        else:
            self._chats[id] = _ChatState(chat)
        return telegram.Chat.de_json(chat, None)

    def private(self, user: telegram.User) -> telegram.Chat:
        """The private chat between ``user`` and the bot."""
        return telegram.Chat.de_json(self._chat_state(user.id).chat, None)

    async def start_private(self, user: telegram.User, *, send_start: bool = True) -> int | None:
        """``user`` pressed Start: the bot may now write to them. Queues the ``/start`` message
        the client sends (unless ``send_start`` is false) and returns its update id."""
        self._started.add(user.id)
        self._blocked.discard(user.id)
        if not send_start:
            return None
        return await self.send_text(user, self.private(user), "/start")

    def block(self, user: telegram.User) -> None:
        """``user`` blocked the bot: writing to them answers 403."""
        self._blocked.add(user.id)

    def kick_bot(self, chat: ChatRef) -> None:
        """The bot was removed from a group: writing there answers 403."""
        self._kicked.add(self._chat_id(chat))

    # ---------------------------------------------------------------- inbound updates

    def next_update_id(self) -> int:
        """A fresh update id (for updates built by hand with :meth:`queue_update`)."""
        return next(self._update_counter)

    async def queue_update(self, update: telegram.Update | dict[str, Any]) -> int:
        """Queue an update for ``getUpdates`` and wake a waiting long poll; returns its id."""
        data = json.loads(update.to_json()) if isinstance(update, telegram.Update) else update
        self._pending.append(data)
        self._pending.sort(key=lambda u: u["update_id"])
        self._wake_polls()
        self._push_wakeup.set()
        self.notify()
        return int(data["update_id"])

    async def send_text(
        self,
        user: telegram.User,
        chat: ChatRef,
        text: str,
        *,
        reply_to: MessageRef | None = None,
        topic: int | None = None,
    ) -> int | None:
        """``user`` writes ``text`` in ``chat`` (``/commands`` and ``@mentions`` get their
        entities), in forum ``topic`` (a thread id from :meth:`topic`; ``None``: the General
        topic, or a chat without topics). Returns the update id, or ``None`` when a group in
        privacy mode would not deliver it to the bot (not a command for it, not a reply to it,
        no mention of it)."""
        state = self._chat_state(self._chat_id(chat))
        if state.private:
            if state.id != user.id:
                raise ValueError(f"chat {state.id} is private to user {state.id}, not {user.id}")
            if user.id not in self._started:
                raise ValueError(f"user {user.id} has not started the bot: call start_private")
        reply = None
        if reply_to is not None:
            reply = self._message_dict(state, self._message_id(reply_to, state.id))
        entities = []
        for match in _COMMAND_RE.finditer(text):
            entities.append(
                telegram.MessageEntity(
                    telegram.MessageEntity.BOT_COMMAND,
                    _utf16_len(text[: match.start()]),
                    _utf16_len(match.group(0)),
                )
            )
        for match in _MENTION_RE.finditer(text):
            entities.append(
                telegram.MessageEntity(
                    telegram.MessageEntity.MENTION,
                    _utf16_len(text[: match.start()]),
                    _utf16_len(match.group(0)),
                )
            )
        entities.sort(key=lambda e: e.offset)
        state.last_id += 1
        message = telegram.Message(
            message_id=state.last_id,
            date=dtm.datetime.now(dtm.UTC),
            chat=telegram.Chat.de_json(state.chat, None),
            from_user=user,
            text=text,
            entities=entities or None,
            reply_to_message=telegram.Message.de_json(reply, None) if reply else None,
        )
        data = json.loads(message.to_json())
        reply = self._thread_of(state, data, reply, topic)
        state.messages[state.last_id] = data
        if not state.private and self.privacy_mode and not self._sees(text, reply, state):
            return None
        return await self.queue_update({"update_id": self.next_update_id(), "message": data})

    async def press(self, user: telegram.User, message: MessageRef, data: str) -> str:
        """``user`` presses the inline button with callback ``data`` on a bot message (as it is
        now, after edits); returns the callback query id. Raises ``ValueError`` if the message
        has no such button, since no one can press a button that is not there."""
        chat_id, message_id = self._message_key(message)
        state = self._chat_state(chat_id)
        current = self._message_dict(state, message_id)
        datas = {
            button.get("callback_data")
            for row in current.get("reply_markup", {}).get("inline_keyboard", [])
            for button in row
        }
        if data not in datas:
            raise ValueError(f"message {message_id} in chat {chat_id} has no button {data!r}")
        query_id = str(next(self._query_counter))
        self._queries[query_id] = False
        query = telegram.CallbackQuery(
            id=query_id,
            from_user=user,
            chat_instance=str(abs(chat_id) * 7919 + 13),
            message=telegram.Message.de_json(current, None),
            data=data,
        )
        await self.queue_update(telegram.Update(self.next_update_id(), callback_query=query))
        return query_id

    def pending_updates(self) -> list[int]:
        """Ids of the updates not yet confirmed by a ``getUpdates`` offset."""
        return [u["update_id"] for u in self._pending]

    async def wait_delivered(self, update_id: int, *, timeout: float = DEFAULT_DEADLINE) -> None:
        """Wait until a ``getUpdates`` answer carried ``update_id``."""
        await self.wait_until(lambda: update_id in self._delivered, timeout=timeout)

    async def wait_confirmed(self, update_id: int, *, timeout: float = DEFAULT_DEADLINE) -> None:
        """Wait until the bot confirmed ``update_id`` (it will never be delivered again)."""
        await self.wait_until(lambda: self._confirmed_below > update_id, timeout=timeout)

    # ---------------------------------------------------------------- assertions

    def _decode(self, stored: dict[str, Any]) -> telegram.Message:
        """A stored message as python-telegram-bot's (immutable) ``Message``, decoded once."""
        kept = self._decoded.get(id(stored))
        if kept is not None and kept[0] is stored:
            return kept[1]
        message = telegram.Message.de_json(stored, None)
        self._decoded[id(stored)] = (stored, message)
        return message

    def sent(self, chat: ChatRef) -> list[telegram.Message]:
        """The bot's messages in ``chat`` as they are now (edited, deleted ones left out)."""
        state = self._chat_state(self._chat_id(chat))
        return [
            self._decode(m)
            for m in state.messages.values()
            if m.get("from", {}).get("id") == self.bot_user.id
        ]

    def last_message_id(self, chat: ChatRef) -> int:
        """The id of the newest message in ``chat`` (anyone's; 0 before the first)."""
        return self._chat_state(self._chat_id(chat)).last_id

    def sent_after(self, chat: ChatRef, message_id: int) -> list[telegram.Message]:
        """The bot's messages in ``chat`` newer than ``message_id``, as they are now (cheaper
        than :meth:`sent` in a long chat: older messages are not decoded)."""
        state = self._chat_state(self._chat_id(chat))
        return [
            self._decode(m)
            for key, m in state.messages.items()
            if key > message_id and m.get("from", {}).get("id") == self.bot_user.id
        ]

    def message(self, chat: ChatRef, message_id: int) -> telegram.Message:
        """One message (the bot's or a user's) as it is now; ``KeyError`` if absent/deleted."""
        state = self._chat_state(self._chat_id(chat))
        return self._decode(state.messages[message_id])

    def keyboard(
        self, message: MessageRef
    ) -> tuple[tuple[telegram.InlineKeyboardButton, ...], ...]:
        """The current inline keyboard of a message (after edits); empty if it has none."""
        chat_id, message_id = self._message_key(message)
        markup = self.message(chat_id, message_id).reply_markup
        return markup.inline_keyboard if markup else ()

    def photo_bytes(self, message: MessageRef) -> bytes:
        """The bytes the bot uploaded for a photo message's current photo."""
        chat_id, message_id = self._message_key(message)
        photo = self.message(chat_id, message_id).photo
        if not photo:
            raise ValueError(f"message {message_id} in chat {chat_id} has no photo")
        return self._files[photo[-1].file_id].data

    def last_photo(self, chat: ChatRef) -> bytes:
        """The uploaded bytes of the newest bot message with a photo in ``chat``."""
        for message in reversed(self.sent(chat)):
            if message.photo:
                return self._files[message.photo[-1].file_id].data
        raise ValueError(f"the bot has no photo in chat {self._chat_id(chat)}")

    def recompressed_photo(self, message: MessageRef) -> bytes:
        """The photo as people see it: JPEG, longest side at most 1280 (Telegram re-encodes)."""
        with Image.open(io.BytesIO(self.photo_bytes(message))) as image:
            picture = image.convert("RGB")
        picture.thumbnail((PHOTO_SIDES[-1], PHOTO_SIDES[-1]))
        out = io.BytesIO()
        picture.save(out, "JPEG", quality=87)
        return out.getvalue()

    def file_bytes(self, file_id: str) -> bytes:
        """The bytes behind a file id the fake handed out."""
        return self._files[file_id].data

    def make_admin(self, group: ChatRef, user: telegram.User) -> None:
        """``user`` becomes an administrator of ``group`` (getChatMember says so)."""
        self._admins.setdefault(self._chat_id(group), set()).add(user.id)

    def commands(
        self, *, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[telegram.BotCommand]:
        """The bot's command menu for ``scope`` (default scope if ``None``) and language."""
        stored = self._commands.get((self._scope_key(scope), language_code), [])
        return [telegram.BotCommand(c["command"], c["description"]) for c in stored]

    async def wait_for_message(
        self,
        chat: ChatRef,
        predicate: Callable[[telegram.Message], bool] | None = None,
        *,
        after: int = 0,
        timeout: float = DEFAULT_DEADLINE,
    ) -> telegram.Message:
        """The first bot message in ``chat`` (from index ``after`` of :meth:`sent`) that matches
        ``predicate`` in its current state, waiting for it."""
        found: list[telegram.Message] = []

        def check() -> bool:
            found[:] = [m for m in self.sent(chat)[after:] if predicate is None or predicate(m)][:1]
            return bool(found)

        await self.wait_until(check, timeout=timeout)
        return found[0]

    async def wait_for_answer(
        self, query_id: str, *, timeout: float = DEFAULT_DEADLINE
    ) -> CallbackAnswer:
        """The answer to callback query ``query_id``, waiting for it."""
        found: list[CallbackAnswer] = []

        def check() -> bool:
            found[:] = [a for a in self.callback_answers if a.query_id == query_id][:1]
            return bool(found)

        await self.wait_until(check, timeout=timeout)
        return found[0]

    # ---------------------------------------------------------------- failures on demand

    def fail(
        self,
        method: str,
        error_code: int,
        description: str,
        *,
        times: int = 1,
        parameters: dict[str, Any] | None = None,
        chat_id: int | None = None,
    ) -> None:
        """The next ``times`` calls of ``method`` (to ``chat_id`` only, when given) answer
        this error instead of working."""
        queue = self._failures.setdefault(method.lower(), deque())
        failure = _Failure(error_code, description, parameters, chat_id)
        queue.extend(failure for _ in range(times))

    def flood(
        self, method: str, retry_after: int = 1, *, times: int = 1, chat_id: int | None = None
    ) -> None:
        """Flood control: the next ``times`` calls of ``method`` (to ``chat_id`` only, when
        given: Telegram's flood limits are per chat) answer 429 ``retry_after``."""
        self.fail(
            method,
            429,
            f"Too Many Requests: retry after {retry_after}",
            times=times,
            parameters={"retry_after": retry_after},
            chat_id=chat_id,
        )

    def lose_answers(self, method: str, *, times: int = 1, chat_id: int | None = None) -> None:
        """The next ``times`` calls of ``method`` (to ``chat_id`` only, when given) are carried
        out (a message is posted) and recorded, but not answered: the response is held until
        the fake stops, so the caller's read time-out ends the call (Telegram did it; the
        answer was lost on the way back)."""
        self._lost.setdefault(method.lower(), deque()).extend(chat_id for _ in range(times))

    def _answer_lost(self, method: str, fields: dict[str, Any]) -> bool:
        """Whether this call's answer is to be lost (see :meth:`lose_answers`), taken off the
        queue."""
        lost = self._lost.get(method.lower())
        if not lost:
            return False
        for chat_id in lost:
            if chat_id is None or str(chat_id) == str(fields.get("chat_id")):
                lost.remove(chat_id)
                return True
        return False

    def _failure_for(self, method: str, fields: dict[str, Any]) -> _Failure | None:
        """The first failure queued for this call (its method, and its chat if it names one),
        taken off the queue."""
        failures = self._failures.get(method.lower())
        if not failures:
            return None
        for failure in failures:
            if failure.chat_id is None or str(failure.chat_id) == str(fields.get("chat_id")):
                failures.remove(failure)
                return failure
        return None

    # ---------------------------------------------------------------- HTTP plumbing

    async def _handle(self, request: web.Request) -> web.Response:
        name = request.match_info["method"]
        method = self._by_lower.get(name.lower(), name)
        status = 200
        try:
            fields, files = await self._read(request)
        except ValueError:
            fields, files = {}, {}
            error: _ApiError | None = _bad("can't parse JSON object")
        else:
            error = None
        recorded = {key: self._decode_for_record(key, value) for key, value in fields.items()}
        uploads = {key: upload.data for key, upload in files.items()}
        call: Call | None = None
        body: dict[str, Any]
        try:
            if error is not None:
                raise error
            if request.match_info["token"] != self.token:
                raise _ApiError(401, "Unauthorized")
            handler = self._handlers.get(method)
            if handler is None:
                raise _ApiError(404, "Not Found")
            failure = self._failure_for(method, fields)
            if failure is not None:
                raise _ApiError(failure.status, failure.description, failure.parameters)
            limited = None if self._flood_gate is None else _limited_chat(method, fields)
            if limited is not None:
                assert self._flood_gate is not None
                self._flood_gate.check(method, limited)
            if method == "getUpdates":
                # Calls are listed in order of arrival: a long poll is listed when it starts,
                # and its response is filled in when it answers.
                call = self.record(method, recorded, uploads)
            result = await handler(_Params(fields, files))
            if limited is not None:
                assert self._flood_gate is not None
                self._flood_gate.count(method, limited)
            body = {"ok": True, "result": result}
            if isinstance(result, _Described):
                body = {"ok": True, "result": result.result, "description": result.description}
        except _ApiError as exc:
            status = exc.status
            body = exc.body()
        if call is None:
            self.record(method, recorded, uploads, body)
        else:
            call.response = body
            self.notify()
        if status == 200 and self._answer_lost(method, fields):
            await self._lost_answers_end.wait()  # the caller timed out long ago
        return web.json_response(body, status=status)

    async def _read(self, request: web.Request) -> tuple[dict[str, Any], dict[str, _Upload]]:
        fields: dict[str, Any] = dict(request.query)
        files: dict[str, _Upload] = {}
        if request.method != "POST" or not request.body_exists:
            return fields, files
        if request.content_type == "application/json":
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError("JSON body is not an object")
            fields.update(body)
            return fields, files
        form = await request.post()
        for key, value in form.items():
            if isinstance(value, web.FileField):
                files[key] = _Upload(value.file.read(), value.filename, value.content_type)
            else:
                fields[key] = value if isinstance(value, str) else bytes(value).decode()
        return fields, files

    @staticmethod
    def _decode_for_record(key: str, value: Any) -> Any:
        if key in _JSON_FIELDS and isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value

    async def _not_found(self, request: web.Request) -> web.Response:
        return web.json_response(
            {"ok": False, "error_code": 404, "description": "Not Found"}, status=404
        )

    async def _download(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return await self._not_found(request)
        path = request.match_info["path"]
        for stored in self._files.values():
            if self._file_path(stored) == path:
                return web.Response(body=stored.data)
        return await self._not_found(request)

    # ---------------------------------------------------------------- state helpers

    @staticmethod
    def _chat_id(chat: ChatRef) -> int:
        return chat.id if isinstance(chat, telegram.Chat) else int(chat)

    def _chat_state(self, chat_id: int) -> _ChatState:
        try:
            return self._chats[chat_id]
        except KeyError:
            raise ValueError(f"unknown chat {chat_id}: create it with user() or group()") from None

    @staticmethod
    def _message_key(message: MessageRef) -> tuple[int, int]:
        if isinstance(message, telegram.Message):
            return message.chat.id, message.message_id
        return message

    def _message_id(self, message: MessageRef, chat_id: int) -> int:
        key = self._message_key(message)
        if key[0] != chat_id:
            raise ValueError(f"message {key[1]} is in chat {key[0]}, not {chat_id}")
        return key[1]

    @staticmethod
    def _message_dict(state: _ChatState, message_id: int) -> dict[str, Any]:
        try:
            return state.messages[message_id]
        except KeyError:
            raise ValueError(f"no message {message_id} in chat {state.id}") from None

    def _sees(
        self, text: str, reply: dict[str, Any] | None, state: _ChatState | None = None
    ) -> bool:
        """Whether a group message reaches a bot in privacy mode: replies to its messages,
        commands addressed to it, bare commands only while it is the last bot that posted in
        the group (Telegram's "Privacy Mode": "General commands (e.g. /start) if the bot was
        the last bot to send a message to the group"), and mentions of it (BotFather's
        /setprivacy: messages that "mention the bot by username")."""
        username = (self.bot_user.username or "").lower()
        if reply is not None and reply.get("from", {}).get("id") == self.bot_user.id:
            return True
        command = _COMMAND_RE.match(text)
        if command is not None:
            if command.group(2) is None:
                last = None if state is None else state.last_bot
                return last is None or last == self.bot_user.id
            return command.group(2).lower() == username
        return any(m.group(1).lower() == username for m in _MENTION_RE.finditer(text))

    def _wake_polls(self) -> None:
        self._poll_wakeup.set()
        self._poll_wakeup = asyncio.Event()

    def _target_chat(self, p: _Params) -> _ChatState:
        raw = p.text("chat_id")
        if not raw:
            raise _bad("chat_id is empty")
        try:
            state = self._chats[int(raw)]
        except (ValueError, KeyError):
            raise _bad("chat not found") from None
        if state.private:
            if state.id in self._blocked:
                raise _ApiError(403, "Forbidden: bot was blocked by the user")
            if state.id not in self._started:
                raise _ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        elif state.migrated_to is not None:
            raise _ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": state.migrated_to},
            )
        elif state.id in self._kicked:
            raise _ApiError(403, f"Forbidden: bot was kicked from the {state.chat['type']} chat")
        _check_web_app_buttons(p.json("reply_markup"), state)
        self._check_thread(p, state)
        return state

    def _new_message(
        self, p: _Params, state: _ChatState, content: dict[str, Any]
    ) -> dict[str, Any]:
        """Store and return a bot message: reply target checked, inline keyboard echoed."""
        reply = self._reply_target(p, state)
        markup = self._reply_markup(p.json("reply_markup"), inline_only=False)
        state.last_id += 1
        message: dict[str, Any] = {
            "message_id": state.last_id,
            "from": self.bot_user.to_dict(),
            "chat": dict(state.chat),
            "date": _now(),
            **content,
        }
        if reply is not None:
            message["reply_to_message"] = {
                k: v for k, v in reply.items() if k != "reply_to_message"
            }
        self._thread_of(state, message, reply, p.integer("message_thread_id"))
        if markup is not None:
            message["reply_markup"] = markup
        state.messages[state.last_id] = message
        state.last_bot = self.bot_user.id
        return message

    def _reply_target(self, p: _Params, state: _ChatState) -> dict[str, Any] | None:
        parameters = p.json("reply_parameters")
        if parameters is None and p.has("reply_to_message_id"):
            parameters = {
                "message_id": p.integer("reply_to_message_id"),
                "allow_sending_without_reply": p.flag("allow_sending_without_reply"),
            }
        if parameters is None:
            return None
        if not isinstance(parameters, dict) or not isinstance(parameters.get("message_id"), int):
            raise _bad("can't parse reply parameters JSON object")
        target = state.messages.get(parameters["message_id"])
        if target is None and not parameters.get("allow_sending_without_reply"):
            raise _bad("message to be replied not found")
        return target

    def _reply_markup(self, markup: Any, *, inline_only: bool) -> dict[str, Any] | None:
        """Validate ``reply_markup``; return what Telegram echoes (inline keyboards only)."""
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise _bad("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            if inline_only:
                raise _bad("inline keyboard expected")
            if not any(k in markup for k in ("keyboard", "remove_keyboard", "force_reply")):
                raise _bad("can't parse reply keyboard markup JSON object")
            return None
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise _bad(
                'can\'t parse inline keyboard button: Field "inline_keyboard" must be of '
                "type Array of Array"
            )
        if sum(len(row) for row in rows) > KEYBOARD_BUTTON_LIMIT:
            raise _bad("REPLY_MARKUP_TOO_LONG")
        if any(len(row) > KEYBOARD_ROW_LIMIT for row in rows):
            raise _bad("REPLY_MARKUP_TOO_LONG")
        echoed = []
        for row in rows:
            echoed_row = []
            for button in row:
                echoed_row.append(self._button(button))
            if echoed_row:
                echoed.append(echoed_row)
        return {"inline_keyboard": echoed}

    @staticmethod
    def _button(button: Any) -> dict[str, Any]:
        if not isinstance(button, dict):
            raise _bad("can't parse inline keyboard button: InlineKeyboardButton must be an Object")
        if "text" not in button:
            raise _bad("can't parse inline keyboard button: Can't find field \"text\"")
        text = button["text"]
        if not isinstance(text, str):
            raise _bad('can\'t parse inline keyboard button: Field "text" must be of type String')
        if not text.strip():
            raise _bad("BUTTON_TEXT_INVALID")
        actions = [key for key in _BUTTON_ACTIONS if key in button]
        if not actions:
            raise _bad(
                "can't parse inline keyboard button: Text buttons are unallowed in the inline "
                "keyboard"
            )
        action = actions[0]
        value = button[action]
        if action == "callback_data" and (
            not isinstance(value, str) or not 1 <= len(value.encode()) <= CALLBACK_DATA_LIMIT
        ):
            raise _bad("BUTTON_DATA_INVALID")
        if action == "url":
            parsed = urlparse(value) if isinstance(value, str) else None
            if (
                parsed is None
                or parsed.scheme not in ("http", "https", "tg")
                or not (parsed.netloc or parsed.path)
            ):
                raise _bad("BUTTON_URL_INVALID")
        return {"text": text, action: value}

    def _text_content(self, p: _Params) -> dict[str, Any]:
        plain, entities = _parse_text(
            p.text("text") or "", p.text("parse_mode"), p.json("entities")
        )
        if not plain:
            raise _bad("message text is empty")
        if len(plain) > TEXT_LIMIT:
            raise _bad("message is too long")
        content: dict[str, Any] = {"text": plain}
        if entities:
            content["entities"] = entities
        return content

    @staticmethod
    def _caption_content(
        caption: str | None, parse_mode: str | None, entities: Any
    ) -> dict[str, Any]:
        plain, found = _parse_text(caption or "", parse_mode, entities)
        if len(plain) > CAPTION_LIMIT:
            raise _bad("message caption is too long")
        content: dict[str, Any] = {}
        if plain:
            content["caption"] = plain
        if found:
            content["caption_entities"] = found
        return content

    def _upload(self, p: _Params, name: str) -> _Upload | _StoredFile | None:
        """An uploaded part (own name or ``attach://``), a known file id, or ``None``."""
        if name in p.files:
            return p.files[name]
        return self._file_reference(p, p.text(name))

    def _file_reference(self, p: _Params, value: str | None) -> _Upload | _StoredFile | None:
        if not value:
            return None
        if value.startswith("attach://"):
            part = value.removeprefix("attach://")
            if part not in p.files:
                raise _bad(f"can't find attached file {part!r}")
            return p.files[part]
        stored = self._files.get(value)
        if stored is None:
            raise _bad("wrong file identifier/HTTP URL specified")
        return stored

    def _new_file_id(self, kind: str) -> tuple[str, str]:
        n = next(self._file_counter)
        return f"fake-{kind}-{n:06d}", f"fake-unique-{n:06d}"

    def _store_photo(self, source: _Upload | _StoredFile) -> list[dict[str, Any]]:
        """PhotoSize list for a photo: scaled copies, the largest side at most 1280."""
        if isinstance(source, _StoredFile):
            if source.kind != "photo":
                raise _bad(f"can't use file of type {source.kind.title()} as Photo")
            data = source.data
        else:
            data = source.data
        if len(data) > PHOTO_BYTES_LIMIT:
            raise _bad("file is too big")
        width, height = _image_size(data)
        if width + height > 10_000 or max(width, height) > 20 * min(width, height):
            raise _bad("PHOTO_INVALID_DIMENSIONS")
        longest = max(width, height)
        sizes: list[dict[str, Any]] = []
        for side in PHOTO_SIDES:
            scale = min(1.0, side / longest)
            w, h = max(1, round(width * scale)), max(1, round(height * scale))
            if sizes and (sizes[-1]["width"], sizes[-1]["height"]) == (w, h):
                break
            file_id, unique = self._new_file_id("photo")
            self._files[file_id] = _StoredFile(
                "photo", file_id, unique, data, width=w, height=h, mime_type="image/jpeg"
            )
            sizes.append(
                {
                    "file_id": file_id,
                    "file_unique_id": unique,
                    "width": w,
                    "height": h,
                    "file_size": max(1, int(len(data) * scale * scale)),
                }
            )
            if scale == 1.0:
                break
        return sizes

    def _store_document(self, source: _Upload | _StoredFile) -> dict[str, Any]:
        if isinstance(source, _StoredFile):
            data, name, mime = source.data, source.file_name, source.mime_type
        else:
            data, name = source.data, source.filename
            mime = source.content_type
            guessed = mimetypes.guess_type(name or "")[0]
            if guessed:
                mime = guessed
        if len(data) > UPLOAD_BYTES_LIMIT:
            raise _ApiError(413, "Request Entity Too Large")
        file_id, unique = self._new_file_id("document")
        stored = _StoredFile("document", file_id, unique, data, file_name=name, mime_type=mime)
        self._files[file_id] = stored
        document: dict[str, Any] = {
            "file_id": file_id,
            "file_unique_id": unique,
            "file_size": len(data),
        }
        if name:
            document["file_name"] = name
        if mime:
            document["mime_type"] = mime
        return document

    def _animation_content(
        self, source: _Upload | _StoredFile, width: int | None, height: int | None
    ) -> dict[str, Any]:
        """``animation`` (and the ``document`` Telegram adds for old clients) for a GIF or MP4;
        anything else is sent as a plain document, as Telegram does."""
        if isinstance(source, _StoredFile):
            if source.kind not in ("animation", "document"):
                raise _bad(f"can't use file of type {source.kind.title()} as Animation")
            data, name = source.data, source.file_name
        else:
            data, name = source.data, source.filename
        duration = 0
        if data.startswith(b"GIF8"):
            try:
                with Image.open(io.BytesIO(data)) as image:
                    width, height = image.size
                    total_ms = 0
                    for frame in range(getattr(image, "n_frames", 1)):
                        image.seek(frame)
                        total_ms += int(image.info.get("duration", 0))
                    duration = round(total_ms / 1000)
            except (UnidentifiedImageError, OSError, ValueError):
                return {"document": self._store_document(source)}
            name = f"{name or 'animation.gif'}.mp4"
        elif data[4:8] != b"ftyp":
            return {"document": self._store_document(source)}
        if len(data) > UPLOAD_BYTES_LIMIT:
            raise _ApiError(413, "Request Entity Too Large")
        file_id, unique = self._new_file_id("animation")
        stored = _StoredFile(
            "animation",
            file_id,
            unique,
            data,
            file_name=name or "animation.mp4",
            mime_type="video/mp4",
            width=width or 0,
            height=height or 0,
            duration=duration,
        )
        self._files[file_id] = stored
        animation = {
            "file_id": file_id,
            "file_unique_id": unique,
            "width": stored.width,
            "height": stored.height,
            "duration": duration,
            "file_name": stored.file_name,
            "mime_type": "video/mp4",
            "file_size": len(data),
        }
        document = {
            k: animation[k]
            for k in ("file_id", "file_unique_id", "file_name", "mime_type", "file_size")
        }
        return {"animation": animation, "document": document}

    def _editable(self, p: _Params) -> tuple[_ChatState, dict[str, Any]]:
        if p.has("inline_message_id"):
            raise _bad("MESSAGE_ID_INVALID")
        state = self._target_chat(p)
        message_id = p.integer("message_id")
        if message_id is None:
            raise _bad("message identifier is not specified")
        message = state.messages.get(message_id)
        if message is None:
            raise _bad("message to edit not found")
        if message.get("from", {}).get("id") != self.bot_user.id:
            raise _bad("message can't be edited")
        return state, message

    def _apply_edit(
        self, state: _ChatState, message: dict[str, Any], changes: dict[str, Any], drop: list[str]
    ) -> dict[str, Any]:
        """Replace fields; "not modified" if nothing changes (keyboard included)."""
        edited = {k: v for k, v in message.items() if k not in drop and k != "edit_date"}
        edited.update(changes)
        before = {k: v for k, v in message.items() if k != "edit_date"}
        if edited == before:
            raise _bad(NOT_MODIFIED.removeprefix("Bad Request: "))
        edited["edit_date"] = _now()
        state.messages[message["message_id"]] = edited
        return edited

    @staticmethod
    def _scope_key(scope: Any) -> str:
        return json.dumps(scope or {"type": "default"}, sort_keys=True)

    def _file_path(self, stored: _StoredFile) -> str:
        suffix = mimetypes.guess_extension(stored.mime_type or "") or ""
        return f"{stored.kind}s/{stored.file_unique_id}{suffix}"

    # ---------------------------------------------------------------- API methods

    async def _get_me(self, p: _Params) -> Any:
        return self.bot_user.to_dict()

    def _drop_pending(self) -> None:
        if self._pending:
            self._confirmed_below = self._pending[-1]["update_id"] + 1
        self._pending.clear()

    async def _delete_webhook(self, p: _Params) -> Any:
        if p.flag("drop_pending_updates"):
            self._drop_pending()
        was_set = bool(self.webhook_url)
        self.webhook_url, self.webhook_secret, self._webhook_allowed = "", None, None
        self._webhook_error = None
        self.notify()
        return _Described(True, "Webhook was deleted" if was_set else "Webhook is already deleted")

    async def _set_webhook(self, p: _Params) -> Any:
        url = (p.text("url") or "").strip()
        if not url:  # an empty URL removes the webhook, as on Telegram
            return await self._delete_webhook(p)
        parsed = urlparse(url)
        if parsed.scheme not in ("https", "http") or not parsed.hostname:
            raise _bad("bad webhook: An HTTPS URL must be provided for webhook")
        secret = p.text("secret_token")
        if secret is not None and not _SECRET_TOKEN_RE.fullmatch(secret):
            raise _bad("secret token contains unallowed characters")
        allowed = p.json("allowed_updates")
        if allowed is not None and not isinstance(allowed, list):
            raise _bad("can't parse allowed updates")
        if p.flag("drop_pending_updates"):
            self._drop_pending()
        same = url == self.webhook_url
        self.webhook_url, self.webhook_secret = url, secret or None
        if allowed is not None:
            self._webhook_allowed = frozenset(allowed) if allowed else None
        # A long poll in progress ends with a conflict, as on Telegram.
        self._poll_ended_by = SET_WEBHOOK_CONFLICT
        self._poll_generation += 1
        self._wake_polls()
        self._push_wakeup.set()
        self.notify()
        return _Described(True, "Webhook is already set" if same else "Webhook was set")

    async def _get_webhook_info(self, p: _Params) -> Any:
        info: dict[str, Any] = {
            "url": self.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
        }
        if self.webhook_url:
            info["max_connections"] = 40
            if self._webhook_allowed is not None:
                info["allowed_updates"] = sorted(self._webhook_allowed)
            if self._webhook_error is not None:
                info["last_error_date"], info["last_error_message"] = self._webhook_error
        return info

    # ---------------------------------------------------------------- webhook pusher

    def _next_push(self) -> dict[str, Any] | None:
        """The oldest pending update the webhook asked for that is neither being POSTed nor
        waiting to be retried (``None``: nothing to push now)."""
        if not self.webhook_url:
            return None
        allowed = self._webhook_allowed
        now = asyncio.get_running_loop().time()
        for update in self._pending:
            update_id = update["update_id"]
            if update_id in self._pushing or self._retry_at.get(update_id, 0.0) > now:
                continue
            if allowed is None or any(k in allowed for k in update if k != "update_id"):
                return update
        return None

    async def _push_updates(self) -> None:
        """Deliver pending updates to the webhook while one is set, up to
        :attr:`webhook_connections` at once (see the module docstring)."""
        loop = asyncio.get_running_loop()
        pushes: set[asyncio.Task[None]] = set()
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as session:
            try:
                while True:
                    update = self._next_push()
                    if update is not None and len(self._pushing) < self.webhook_connections:
                        self._pushing.add(update["update_id"])
                        push = loop.create_task(self._push_one(session, update))
                        pushes.add(push)
                        push.add_done_callback(pushes.discard)
                        continue
                    # Woken by a new update, a new webhook, a finished POST, or the next retry.
                    wakeup = self._push_wakeup
                    waiting = [t for i, t in self._retry_at.items() if i not in self._pushing]
                    delay = max(min(waiting) - loop.time(), 0.0) if waiting else None
                    try:
                        async with asyncio.timeout(delay):
                            await wakeup.wait()
                    except TimeoutError:
                        pass
                    if wakeup is self._push_wakeup and wakeup.is_set():
                        self._push_wakeup = asyncio.Event()
            finally:
                for push in pushes:
                    push.cancel()
                await asyncio.gather(*pushes, return_exceptions=True)

    async def _push_one(self, session: aiohttp.ClientSession, update: dict[str, Any]) -> None:
        """One POST of ``update``: acknowledged (2xx) it leaves the queue, else it is kept and
        retried after :attr:`webhook_retry` seconds."""
        update_id = int(update["update_id"])
        targets = self.webhook_targets or [self.webhook_url]
        target = targets[self._push_attempts % len(targets)]
        self._push_attempts += 1
        try:
            status = await self._post_update(session, target, update)
            self.record(WEBHOOK_PUSH, {"update_id": update_id, "url": target}, None, status)
            if status is not None and 200 <= status < 300:
                self._pending = [u for u in self._pending if u["update_id"] != update_id]
                self._retry_at.pop(update_id, None)
                self._delivered.add(update_id)
                # Everything below the oldest update still pending is acknowledged.
                oldest = min((u["update_id"] for u in self._pending), default=update_id + 1)
                self._confirmed_below = max(self._confirmed_below, oldest)
            else:
                reason = "Connection failed" if status is None else f"Wrong response: {status}"
                self._webhook_error = (_now(), reason)
                self._retry_at[update_id] = asyncio.get_running_loop().time() + self.webhook_retry
        finally:
            self._pushing.discard(update_id)
            self._push_wakeup.set()
            self.notify()

    async def _post_update(
        self, session: aiohttp.ClientSession, target: str, update: dict[str, Any]
    ) -> int | None:
        """POST one update; the answer's status, ``None`` when none came."""
        headers = {SECRET_HEADER: self.webhook_secret} if self.webhook_secret else {}
        try:
            async with asyncio.timeout(self.webhook_timeout):
                async with session.post(target, json=update, headers=headers) as response:
                    await response.read()
                    return response.status
        except (aiohttp.ClientError, TimeoutError, OSError):
            return None

    async def _get_updates(self, p: _Params) -> Any:
        if self.webhook_url:
            raise _ApiError(409, WEBHOOK_CONFLICT)
        offset = p.integer("offset") or 0
        limit = min(max(p.integer("limit") or 100, 1), 100)
        timeout = max(p.number("timeout") or 0.0, 0.0)
        allowed = p.json("allowed_updates")
        if allowed is not None:
            self._allowed_updates = frozenset(allowed) if allowed else None
        if offset > 0:
            self._confirmed_below = max(self._confirmed_below, offset)
            self._pending = [u for u in self._pending if u["update_id"] >= offset]
        elif offset < 0:
            self._pending = self._pending[offset:]
        self.notify()
        # A newer getUpdates ends an older one still waiting, as on Telegram.
        self._poll_ended_by = GET_UPDATES_CONFLICT
        self._poll_generation += 1
        generation = self._poll_generation
        self._wake_polls()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(timeout, self.max_poll_timeout)
        self.waiting_polls += 1
        self.notify()
        try:
            while True:
                if generation != self._poll_generation:
                    raise _ApiError(409, self._poll_ended_by)
                ready = [
                    u
                    for u in self._pending
                    if self._allowed_updates is None
                    or any(k in self._allowed_updates for k in u if k != "update_id")
                ][:limit]
                if self._closing:
                    return []
                if ready:
                    self._delivered.update(u["update_id"] for u in ready)
                    return ready
                remaining = deadline - loop.time()
                if remaining <= 0:
                    return []
                wakeup = self._poll_wakeup
                try:
                    async with asyncio.timeout(remaining):
                        await wakeup.wait()
                except TimeoutError:
                    pass
        finally:
            self.waiting_polls -= 1
            self.notify()

    async def _send_message(self, p: _Params) -> Any:
        state = self._target_chat(p)
        return self._new_message(p, state, self._text_content(p))

    async def _send_photo(self, p: _Params) -> Any:
        state = self._target_chat(p)
        source = self._upload(p, "photo")
        if source is None:
            raise _bad("there is no photo in the request")
        content: dict[str, Any] = {"photo": self._store_photo(source)}
        content.update(
            self._caption_content(
                p.text("caption"), p.text("parse_mode"), p.json("caption_entities")
            )
        )
        if p.flag("has_spoiler"):
            content["has_media_spoiler"] = True
        return self._new_message(p, state, content)

    async def _send_animation(self, p: _Params) -> Any:
        state = self._target_chat(p)
        source = self._upload(p, "animation")
        if source is None:
            raise _bad("there is no animation in the request")
        content = self._animation_content(source, p.integer("width"), p.integer("height"))
        content.update(
            self._caption_content(
                p.text("caption"), p.text("parse_mode"), p.json("caption_entities")
            )
        )
        return self._new_message(p, state, content)

    async def _send_document(self, p: _Params) -> Any:
        state = self._target_chat(p)
        source = self._upload(p, "document")
        if source is None:
            raise _bad("there is no document in the request")
        content: dict[str, Any] = {"document": self._store_document(source)}
        content.update(
            self._caption_content(
                p.text("caption"), p.text("parse_mode"), p.json("caption_entities")
            )
        )
        return self._new_message(p, state, content)

    async def _edit_message_text(self, p: _Params) -> Any:
        state, message = self._editable(p)
        if "text" not in message:
            raise _bad("there is no text in the message to edit")
        content = self._text_content(p)
        markup = self._reply_markup(p.json("reply_markup"), inline_only=True)
        if markup is not None:
            content["reply_markup"] = markup
        # Without reply_markup the keyboard goes: Telegram treats it as "no keyboard".
        return self._apply_edit(state, message, content, ["text", "entities", "reply_markup"])

    async def _edit_message_caption(self, p: _Params) -> Any:
        state, message = self._editable(p)
        if not any(key in message for key in _MEDIA_KEYS):
            raise _bad("there is no caption in the message to edit")
        content = self._caption_content(
            p.text("caption"), p.text("parse_mode"), p.json("caption_entities")
        )
        markup = self._reply_markup(p.json("reply_markup"), inline_only=True)
        if markup is not None:
            content["reply_markup"] = markup
        return self._apply_edit(
            state, message, content, ["caption", "caption_entities", "reply_markup"]
        )

    async def _edit_message_media(self, p: _Params) -> Any:
        state, message = self._editable(p)
        if not any(key in message for key in _MEDIA_KEYS):
            raise _bad("there is no media in the message to edit")
        media = p.json("media")
        if not isinstance(media, dict) or not isinstance(media.get("media"), str):
            raise _bad("can't parse InputMedia JSON object")
        source = self._file_reference(p, media["media"])
        if source is None:
            raise _bad("there is no media in the request")
        kind = media.get("type")
        content: dict[str, Any]
        if kind == "photo":
            content = {"photo": self._store_photo(source)}
        elif kind == "animation":
            content = self._animation_content(source, media.get("width"), media.get("height"))
        elif kind == "document":
            content = {"document": self._store_document(source)}
        else:
            raise _bad(
                f"unsupported media type {kind!r} (the fake implements photo, animation "
                "and document)"
            )
        content.update(
            self._caption_content(
                media.get("caption"), media.get("parse_mode"), media.get("caption_entities")
            )
        )
        markup = self._reply_markup(p.json("reply_markup"), inline_only=True)
        if markup is not None:
            content["reply_markup"] = markup
        drop = [*_MEDIA_KEYS, "caption", "caption_entities", "reply_markup", "has_media_spoiler"]
        return self._apply_edit(state, message, content, drop)

    async def _edit_message_reply_markup(self, p: _Params) -> Any:
        state, message = self._editable(p)
        markup = self._reply_markup(p.json("reply_markup"), inline_only=True)
        content = {"reply_markup": markup} if markup is not None else {}
        return self._apply_edit(state, message, content, ["reply_markup"])

    async def _delete_message(self, p: _Params) -> Any:
        state = self._target_chat(p)
        message_id = p.integer("message_id")
        message = state.messages.get(message_id or 0)
        if message is None:
            raise _bad("message to delete not found")
        from_bot = message.get("from", {}).get("id") == self.bot_user.id
        if not from_bot and not state.private:
            raise _bad("message can't be deleted")
        del state.messages[message["message_id"]]
        return True

    def _start_link(self, url: str) -> bool:
        """Whether ``url`` may answer a callback query: with no game registered (none is,
        here) only "links like t.me/your_bot?start=XXXX that open your bot with a parameter"
        (core.telegram.org/bots/api#answercallbackquery); a start parameter is 1-64 of
        ``A-Za-z0-9_-`` (core.telegram.org/bots/features#deep-linking)."""
        name = re.escape(self.bot_user.username or "")
        link = rf"(https?://)?(t|telegram)\.me/{name}\?start=[A-Za-z0-9_-]{{1,64}}"
        return re.fullmatch(link, url, flags=re.IGNORECASE) is not None

    async def _answer_callback_query(self, p: _Params) -> Any:
        query_id = p.text("callback_query_id") or ""
        if self._queries.get(query_id, True):
            raise _bad(QUERY_INVALID.removeprefix("Bad Request: "))
        text = p.text("text")
        if text is not None and len(text) > CALLBACK_ANSWER_LIMIT:
            raise _bad("MESSAGE_TOO_LONG")
        url = p.text("url")
        if url and not self._start_link(url):
            raise _bad("URL_INVALID")
        self._queries[query_id] = True
        self.callback_answers.append(
            CallbackAnswer(
                query_id=query_id,
                text=text,
                show_alert=p.flag("show_alert"),
                url=p.text("url"),
                cache_time=p.integer("cache_time") or 0,
            )
        )
        return True

    async def _send_chat_action(self, p: _Params) -> Any:
        self._target_chat(p)
        if p.text("action") not in _CHAT_ACTIONS:
            raise _bad("wrong parameter action in request")
        return True

    @staticmethod
    def _language_code(p: _Params) -> str:
        # Bot API: "A two-letter ISO 639-1 language code" (or empty: everyone else).
        code = p.text("language_code") or ""
        if code and not re.fullmatch(r"[a-z]{2}", code):
            raise _bad("invalid language code specified")
        return code

    async def _set_my_description(self, p: _Params) -> Any:
        code = self._language_code(p)
        description = p.text("description") or ""
        if len(description) > 512:  # Bot API: "0-512 characters"
            raise _bad("description is too long")
        if description:
            self.descriptions[code] = description
        else:  # "Pass an empty string to remove the dedicated description"
            self.descriptions.pop(code, None)
        return True

    async def _get_my_description(self, p: _Params) -> Any:
        return {"description": self.descriptions.get(self._language_code(p), "")}

    async def _get_chat_member(self, p: _Params) -> Any:
        state = self._target_chat(p)
        raw = p.text("user_id") or ""
        user = self._users.get(int(raw)) if raw.isdigit() else None
        if user is None:
            raise _bad("user not found")
        status = "administrator" if user.id in self._admins.get(state.id, set()) else "member"
        if status == "administrator":
            return {
                "status": status, "user": user.to_dict(), "can_be_edited": False,
                "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
                "can_manage_video_chats": True, "can_restrict_members": True,
                "can_promote_members": False, "can_change_info": True, "can_invite_users": True,
                "can_post_stories": False, "can_edit_stories": False, "can_delete_stories": False,
            }  # fmt: skip
        return {"status": status, "user": user.to_dict()}

    async def _set_my_commands(self, p: _Params) -> Any:
        self._language_code(p)
        commands = p.json("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise _bad("can't parse commands JSON object")
        stored = []
        for command in commands:
            if not isinstance(command, dict):
                raise _bad("can't parse BotCommand JSON object")
            name, description = command.get("command"), command.get("description")
            if not isinstance(name, str) or not _BOT_COMMAND_NAME_RE.fullmatch(name):
                raise _bad("BOT_COMMAND_INVALID")
            if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
                raise _bad("BOT_COMMAND_DESCRIPTION_INVALID")
            stored.append({"command": name, "description": description})
        key = (self._scope_key(p.json("scope")), p.text("language_code") or "")
        self._commands[key] = stored
        return True

    async def _get_my_commands(self, p: _Params) -> Any:
        key = (self._scope_key(p.json("scope")), p.text("language_code") or "")
        return list(self._commands.get(key, []))

    async def _delete_my_commands(self, p: _Params) -> Any:
        key = (self._scope_key(p.json("scope")), p.text("language_code") or "")
        self._commands.pop(key, None)
        return True

    async def _get_file(self, p: _Params) -> Any:
        stored = self._files.get(p.text("file_id") or "")
        if stored is None:
            raise _bad("invalid file_id")
        return {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_size": len(stored.data),
            "file_path": self._file_path(stored),
        }

    # ---------------------------------------------------------------- platform behaviours
    # What real groups do that a bot must expect (issue 26); each names its source, and
    # tests/fakes/test_telegram_fake.py holds one test per behaviour.

    def forum(self, id: int, title: str) -> telegram.Chat:
        """A supergroup with topics (``is_forum``), the bot a member. Messages outside every
        topic are in its General topic, which has no thread id."""
        self.group(id, title, supergroup=True)
        state = self._chat_state(id)
        state.chat["is_forum"] = True
        return telegram.Chat.de_json(state.chat, None)

    async def topic(self, chat: ChatRef, name: str, creator: telegram.User) -> int:
        """``creator`` opens a topic in a forum: its opening service message
        (``forum_topic_created``) is stored, and its id is the topic's thread id (returned).
        "Topics with id != 1 are just the message thread of the service message that created
        that topic" (core.telegram.org/api/forum, quoted in banteg/takopi#152). The service
        message reaches the bot whatever its privacy mode (all service messages do:
        core.telegram.org/bots/faq)."""
        state = self._chat_state(self._chat_id(chat))
        if not state.chat.get("is_forum"):
            raise ValueError(f"chat {state.id} has no topics: create it with forum()")
        state.last_id += 1
        opening: dict[str, Any] = {
            "message_id": state.last_id,
            "from": creator.to_dict(),
            "chat": dict(state.chat),
            "date": _now(),
            "message_thread_id": state.last_id,
            "is_topic_message": True,
            "forum_topic_created": {"name": name, "icon_color": 7322096},
        }
        state.messages[state.last_id] = opening
        state.topics.add(state.last_id)
        await self.queue_update({"update_id": self.next_update_id(), "message": opening})
        return state.last_id

    def _thread_of(
        self,
        state: _ChatState,
        message: dict[str, Any],
        reply: dict[str, Any] | None,
        topic: int | None,
    ) -> dict[str, Any] | None:
        """Place a new message in its forum topic: it gets ``message_thread_id`` and
        ``is_topic_message``, and, when it replies to nothing else, replies to the topic's
        opening service message: "every regular message inside a topic" has "the
        topic-creation service message as the reply target" (adolfousier/opencrabs#130;
        tdlib/telegram-bot-api#356). A reply inherits the replied message's topic (no thread
        id needed: tdlib/telegram-bot-api#447). In the General topic a reply still carries the
        thread id of the reply chain's root, without ``is_topic_message``
        (tdlib/telegram-bot-api#447, #356). Returns the message replied to."""
        if not state.chat.get("is_forum"):
            return reply
        if topic is None and reply is not None:
            topic = reply.get("message_thread_id") if reply.get("is_topic_message") else None
        if topic is not None:
            if topic not in state.topics:
                raise ValueError(f"chat {state.id} has no topic {topic}: open it with topic()")
            root = state.messages[topic]
            message["message_thread_id"] = topic
            message["is_topic_message"] = True
            if reply is None:
                reply = root
                message["reply_to_message"] = {
                    k: v for k, v in root.items() if k != "reply_to_message"
                }
        elif reply is not None:
            message["message_thread_id"] = reply.get("message_thread_id", reply["message_id"])
        return reply

    def _check_thread(self, p: _Params, state: _ChatState) -> None:
        """A send with ``message_thread_id`` must name a topic of a forum: anything else (the
        thread id a reply in General carries, a deleted topic) is 400 "message thread not
        found" (tdlib/telegram-bot-api#447)."""
        thread = p.integer("message_thread_id")
        if thread is None or state.private:
            return
        if thread not in state.topics:
            raise _bad("message thread not found")

    def other_bot_posts(self, chat: ChatRef, other: telegram.User, text: str) -> int:
        """Another bot (``other``, ``is_bot``) posts ``text`` in a group: until this bot posts
        again, bare commands there are that bot's, not this one's. Returns the message id."""
        if not other.is_bot:
            raise ValueError(f"user {other.id} is not a bot")
        state = self._chat_state(self._chat_id(chat))
        state.last_id += 1
        state.messages[state.last_id] = {
            "message_id": state.last_id,
            "from": other.to_dict(),
            "chat": dict(state.chat),
            "date": _now(),
            "text": text,
        }
        state.last_bot = other.id
        return state.last_id

    async def migrate(self, group: ChatRef, by: telegram.User) -> telegram.Chat:
        """``by`` turns a group into a supergroup, which gets a new id (and message ids of its
        own, from 1). The bot gets both service messages, ``migrate_to_chat_id`` in the old
        chat and ``migrate_from_chat_id`` in the new (TelegramBots/Telegram.Bot#171); from now
        on every call naming the old id is 400 "group chat was upgraded to a supergroup chat"
        with ``parameters.migrate_to_chat_id`` (TwiN/gatus#179 shows the exact answer), which
        python-telegram-bot raises as ``ChatMigrated``."""
        old = self._chat_state(self._chat_id(group))
        if old.chat["type"] != "group":
            raise ValueError(f"chat {old.id} is not a basic group")
        new_id = -(10**12) - abs(old.id)
        self.group(new_id, str(old.chat["title"]), supergroup=True)
        new = self._chat_state(new_id)
        old.migrated_to = new_id
        old.last_id += 1
        to_message = {
            "message_id": old.last_id,
            "from": by.to_dict(),
            "chat": dict(old.chat),
            "date": _now(),
            "migrate_to_chat_id": new_id,
        }
        old.messages[old.last_id] = to_message
        new.last_id += 1
        from_message = {
            "message_id": new.last_id,
            "from": by.to_dict(),
            "chat": dict(new.chat),
            "date": _now(),
            "migrate_from_chat_id": old.id,
        }
        new.messages[new.last_id] = from_message
        await self.queue_update({"update_id": self.next_update_id(), "message": to_message})
        await self.queue_update({"update_id": self.next_update_id(), "message": from_message})
        return telegram.Chat.de_json(new.chat, None)

    async def remove_bot(self, group: ChatRef, by: telegram.User) -> int:
        """``by`` removes the bot from ``group``: from now on every send there is 403
        "bot was kicked" (:meth:`kick_bot`), and the bot gets a ``my_chat_member`` update
        ("the bot's chat member status was updated in a chat", the Bot API's Update object: a
        ``ChatMemberUpdated`` with the chat, who did it, the date and the bot's old and new
        member status), whatever privacy mode (it is not a message), when subscribed to it
        (``allowed_updates``: by default every kind but ``chat_member`` and the reactions).
        The new status is ``kicked`` in a supergroup (a ban, ``until_date`` 0: for ever) and
        ``left`` in a basic group.  Returns the update id (delivered only to a bot subscribed
        to the kind, as every update)."""
        state = self._chat_state(self._chat_id(group))
        self.kick_bot(group)
        gone = (
            {"status": "kicked", "until_date": 0}
            if state.chat["type"] == "supergroup"
            else {"status": "left"}
        )
        return await self._member_update(state, by, {"status": "member"}, gone)

    async def add_bot(self, group: ChatRef, by: telegram.User) -> int:
        """``by`` adds the bot back to ``group``: sends there work again and the bot gets a
        ``my_chat_member`` update, its status now ``member`` (see :meth:`remove_bot`)."""
        state = self._chat_state(self._chat_id(group))
        self._kicked.discard(state.id)
        old = (
            {"status": "kicked", "until_date": 0}
            if state.chat["type"] == "supergroup"
            else {"status": "left"}
        )
        return await self._member_update(state, by, old, {"status": "member"})

    async def _member_update(
        self, state: Any, by: telegram.User, old: dict[str, Any], new: dict[str, Any]
    ) -> int:
        me = self.bot_user.to_dict()
        change = {
            "chat": dict(state.chat),
            "from": by.to_dict(),
            "date": _now(),
            "old_chat_member": {"user": me, **old},
            "new_chat_member": {"user": me, **new},
        }
        return await self.queue_update(
            {"update_id": self.next_update_id(), "my_chat_member": change}
        )

    async def edit_text(self, user: telegram.User, message: MessageRef, text: str) -> int | None:
        """``user`` edits their own message to ``text``: Telegram sends the new version as an
        ``edited_message`` update ("new version of a message that is known to the bot and was
        edited", the Bot API's Update object), only to a bot subscribed to it (allowed_updates)
        and, in a group in privacy mode, only if the bot would see the new text. Returns the
        update id, or ``None`` when the bot would not get it."""
        chat_id, message_id = self._message_key(message)
        state = self._chat_state(chat_id)
        current = self._message_dict(state, message_id)
        if current.get("from", {}).get("id") != user.id:
            raise ValueError(f"message {message_id} in chat {chat_id} is not {user.id}'s")
        entities = [
            {"type": "bot_command", "offset": _utf16_len(text[: m.start()]),
             "length": _utf16_len(m.group(0))}
            for m in _COMMAND_RE.finditer(text)
        ]  # fmt: skip
        edited = {k: v for k, v in current.items() if k != "entities"}
        edited.update(text=text, edit_date=_now())
        if entities:
            edited["entities"] = entities
        state.messages[message_id] = edited
        reply = edited.get("reply_to_message")
        if not state.private and self.privacy_mode and not self._sees(text, reply, state):
            return None
        return await self.queue_update(
            {"update_id": self.next_update_id(), "edited_message": edited}
        )
