"""What every service shares: the :class:`~bot.sessions.context.Context`, and the two ways a
request is answered without ever raising to the surface.

:func:`answered` runs a request that answers with a :class:`~bot.messages.Reply`: a
:class:`~bot.sessions.context.Refusal` raised anywhere in it (a value that does not fit, see
:mod:`bot.sessions.validate`, or a rule of the game) becomes a one-line refusal, and what the
request changed before it was refused is undone (:func:`~bot.sessions.context.on_refusal`); a
failing store becomes the matching one-line refusal.  :func:`or_else` runs a lookup (move
suggestions, a board's facts): a refusal gives its empty answer.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.messages import Reply
from bot.sessions import texts
from bot.sessions.context import UNDO, Context, Damaged, Refusal, undo, undo_later
from bot.sessions.validate import bounded
from bot.storage import BadRow, StoreBusy, StoreError, StoreFull

__all__ = ["Service", "answered", "or_else"]

log = logging.getLogger(__name__)

R = TypeVar("R")


class Service:
    """A service over the shared context (one of each per :class:`~bot.sessions.manager.
    SessionManager`)."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx


async def answered(request: Callable[[], Awaitable[Reply]]) -> Reply:
    """The reply of ``request()``, or the one-line refusal it amounts to (undoing what
    :func:`~bot.sessions.context.on_refusal` was told of: a refused request leaves nothing
    behind).  ``request`` is called inside: the values checked in its arguments are refused
    like any other refusal."""
    pending, token = undo_later()
    try:
        reply = await _replied(request)
    finally:
        UNDO.reset(token)
    if not reply.ok and pending:
        await undo(pending)
    return reply


async def _replied(request: Callable[[], Awaitable[Reply]]) -> Reply:
    """The body of :func:`answered`: the reply, or the refusal a failure amounts to."""
    try:
        return bounded(await request())
    except Refusal as refusal:
        if isinstance(refusal, Damaged):
            log.error("game #%s set aside: %s", refusal.game_id, refusal.row)
        refused = Reply.refuse(refusal.text, refusal.need, refusal.code, refusal.refused)
        return bounded(refused)
    except StoreBusy:
        # Another process (a backup, a stuck bot) held the database too long: nothing
        # was changed, the same command can simply be sent again.
        return Reply.refuse(texts.BUSY)
    except BadRow as exc:
        # The store has set a damaged game or challenge aside; other rows are not.
        log.error("a stored row cannot be read: %s", exc)
        return Reply.refuse(texts.row_unreadable(exc.table, exc.row_id))
    except StoreFull:
        # Said once to the operator by the store (a metric and a log line); the player is
        # told it is the storage, which stays full until someone frees space.
        return Reply.refuse(texts.STORAGE_FULL)
    except StoreError as exc:
        # A full disk, an unreachable server, a refused statement: nothing was changed,
        # the player is answered and the process goes on serving (one line, no trace).
        log.warning("a request: %s", exc)
        return Reply.refuse(texts.UNAVAILABLE)


async def or_else(lookup: Callable[[], Awaitable[R]], nothing: R) -> R:
    """``lookup()``'s answer, or ``nothing`` when it is refused (a value that does not fit,
    no such game)."""
    try:
        return await lookup()
    except Refusal:
        return nothing
