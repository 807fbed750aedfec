"""Pacing Telegram requests per chat (:class:`ChatPacer`, the application's rate limiter).

Telegram's Bots FAQ ("My bot is hitting limits, how do I avoid this?",
https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this): "avoid sending
more than one message per second in a particular chat", "your bot will not be able to send more
than 20 messages per minute to the same group", and no more than about 30 messages a second in
all.  Edits count toward a group's 20 a minute (grammY's flood guide,
https://grammy.dev/advanced/flood).  So only what posts or changes a message in a chat is paced,
and only against that chat's own windows (and the bot's 30 a second for new messages): an
answer to a button (``answerCallbackQuery``, no chat message), a long poll or a file download
goes at once.

python-telegram-bot's :class:`~telegram.ext.AIORateLimiter` "will halt *all* requests for
retry_after + 0.1 seconds" after one ``RetryAfter`` (its documentation says so, "stricter than
necessary ... the bot may hit a rate limit in one group but might still be allowed to send
messages in another group").  Here a 429 blocks its own chat only: its requests wait (an
update's handler) or are refused at once with ``RetryAfter`` naming the time left (while
:func:`no_waiting` is on: the outbox, which reschedules the notification and goes on with other
chats).  :class:`~telegram.ext.BaseRateLimiter`'s contract (the library's docs): call the
callback, return only once its result is known, may call it again after a ``RetryAfter``,
handle no other exception.

Requests to one chat go out one at a time, in the order they asked (a chat's lock): its
messages arrive in the order the bot sent them.  A send is recorded when Telegram's answer
comes back (after Telegram counted it), so the windows never open before Telegram's do.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
import warnings
from collections import deque
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from telegram import CallbackQuery
from telegram.error import RetryAfter, TelegramError
from telegram.ext import BaseRateLimiter
from telegram.warnings import PTBDeprecationWarning

from bot.adapters.telegram.toasts import marked, toast
from bot.sessions import texts

__all__ = ["EDITING", "SENDING", "ChatPacer", "answer_flood", "no_waiting", "retry_seconds"]

#: Bot API methods that post a new message in a chat (paced per chat, per group and overall).
SENDING = frozenset(
    {
        "sendMessage", "sendPhoto", "sendAnimation", "sendDocument", "sendMediaGroup",
        "sendVideo", "sendAudio", "sendVoice", "sendSticker", "sendDice", "sendPoll",
        "sendLocation", "sendContact", "sendVenue", "sendVideoNote", "copyMessage",
        "forwardMessage", "copyMessages", "forwardMessages",
    }
)  # fmt: skip
#: Bot API methods that change a message (paced in groups only, toward the 20 a minute).
EDITING = frozenset(
    {
        "editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup",
        "editMessageLiveLocation",
    }
)  # fmt: skip

#: The longest a request waits for its chat while :func:`no_waiting` is on (seconds): longer,
#: and it is refused with ``RetryAfter`` at once.
OUTBOX_WAIT = 1.5
#: Chats whose windows are kept before idle ones are forgotten.
KEPT_CHATS = 1024
# Added to every wait: Telegram's windows and this process's clock are not the same.
_MARGIN = 0.05

_no_wait: contextvars.ContextVar[bool] = contextvars.ContextVar("no_wait", default=False)

Result = bool | dict[str, Any] | list[dict[str, Any]]


@contextlib.contextmanager
def no_waiting() -> Iterator[None]:
    """Within this block (this task and what it awaits) a request whose chat is paced for
    longer than :data:`OUTBOX_WAIT` is refused with ``RetryAfter`` instead of waiting: the
    outbox's sender, which must not hold every other chat up behind one."""
    token = _no_wait.set(True)
    try:
        yield
    finally:
        _no_wait.reset(token)


async def answer_flood(query: CallbackQuery | None) -> None:
    """After flood control refused an update's answer past the pacer's retries: whatever the
    update changed is stored, and a board it made is with the outbox, posted when the chat
    may have it, so the tap (if it was one) is told that, never "try again"."""
    if query is not None:
        with contextlib.suppress(TelegramError):  # answered already, most likely
            await toast(query, marked(texts.FLOOD_WAIT))


def retry_seconds(exc: RetryAfter) -> float:
    """The seconds a ``RetryAfter`` asks to wait (an int or a timedelta, by the library's
    ``PTB_TIMEDELTA`` switch; read without its deprecation warning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def _window_wait(window: deque[float], allowed: int, period: float, now: float) -> float:
    while window and window[0] <= now - period:
        window.popleft()
    if allowed <= 0 or len(window) < allowed:
        return 0.0
    return window[-allowed] + period - now


@dataclass
class _Chat:
    """One chat's windows and block."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sends: deque[float] = field(default_factory=deque)
    changes: deque[float] = field(default_factory=deque)
    blocked_until: float = 0.0

    def idle(self, now: float, period: float) -> bool:
        last = max(self.sends[-1] if self.sends else 0.0, self.changes[-1] if self.changes else 0.0)
        return not self.lock.locked() and now >= self.blocked_until and last <= now - period


class ChatPacer(BaseRateLimiter[int]):
    """Paces requests per chat (see the module docstring).

    ``per_chat`` new messages per ``chat_period`` seconds in any chat; ``per_group`` messages
    and edits per ``group_period`` seconds in a group (a negative chat id or an ``@username``);
    ``overall`` new messages a second in all.  A ``RetryAfter`` is tried again up to
    ``max_retries`` times (a request's ``rate_limit_args`` may say otherwise).  ``clock`` is a
    monotonic clock in seconds.
    """

    def __init__(
        self,
        *,
        per_chat: int = 1,
        chat_period: float = 1.0,
        per_group: int = 20,
        group_period: float = 60.0,
        overall: int = 30,
        max_retries: int = 3,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_chat = per_chat
        self.chat_period = chat_period
        self.per_group = per_group
        self.group_period = group_period
        self.overall = overall
        self.max_retries = max_retries
        self.clock = clock
        self._chats: dict[int | str, _Chat] = {}
        self._all: deque[float] = deque()

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    def blocked_for(self, chat_id: int | str) -> float:
        """Seconds left of a 429's block on ``chat_id`` (0 when none)."""
        state = self._chats.get(_key(chat_id))
        return 0.0 if state is None else max(0.0, state.blocked_until - self.clock())

    def _chat(self, key: int | str) -> _Chat:
        state = self._chats.get(key)
        if state is None:
            if len(self._chats) >= KEPT_CHATS:
                now = self.clock()
                for old in [k for k, s in self._chats.items() if s.idle(now, self.group_period)]:
                    del self._chats[old]
            state = self._chats[key] = _Chat()
        return state

    def _wait(self, state: _Chat, endpoint: str, group: bool, now: float) -> float:
        wait = state.blocked_until - now
        if endpoint in SENDING:
            wait = max(wait, _window_wait(state.sends, self.per_chat, self.chat_period, now))
            wait = max(wait, _window_wait(self._all, self.overall, 1.0, now))
        if group:
            wait = max(wait, _window_wait(state.changes, self.per_group, self.group_period, now))
        return wait + _MARGIN if wait > 0 else 0.0

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Result]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Result:
        """Make the request when its chat allows (see the class docstring)."""
        chat_id = data.get("chat_id")
        if chat_id is None or (endpoint not in SENDING and endpoint not in EDITING):
            return await callback(*args, **kwargs)  # no chat message: never paced
        key = _key(chat_id)
        group = isinstance(key, str) or key < 0
        state = self._chat(key)
        retries = self.max_retries if rate_limit_args is None else rate_limit_args
        async with state.lock:
            for attempt in range(retries + 1):
                wait = self._wait(state, endpoint, group, self.clock())
                if wait > 0 and _no_wait.get() and wait > OUTBOX_WAIT:
                    raise RetryAfter(max(1, int(-(-wait // 1))))
                if wait > 0:
                    await asyncio.sleep(wait)
                if endpoint in SENDING:
                    self._all.append(self.clock())  # the overall second: reserved now
                try:
                    result = await callback(*args, **kwargs)
                except RetryAfter as exc:
                    # This chat only: nothing else waits for its block.
                    state.blocked_until = self.clock() + retry_seconds(exc) + _MARGIN
                    if attempt == retries or _no_wait.get():
                        raise
                    continue
                now = self.clock()
                if endpoint in SENDING:
                    state.sends.append(now)
                if group:
                    state.changes.append(now)
                return result
        raise AssertionError("unreachable: the last attempt returns or raises")


def _key(chat_id: object) -> int | str:
    """A chat's key: its numeric id, or an ``@username`` as given."""
    try:
        return int(str(chat_id))
    except ValueError:
        return str(chat_id)
