"""Leases on shared chores among the bot processes on one database (the clock sweep, a bot
move's search, a platform's update): one process does each, another takes over when the
holder's lease ends.

A process killed outright never gives its leases up.  That need not mean waiting for them to
run out: a lease's owner is a worker id (:attr:`~bot.sessions.context.Context.worker`) with a
heartbeat, and a holder whose heartbeat stopped, or whose process ended in this very pid
namespace, is replaced at once (:meth:`~bot.storage.sql_leases.SqlLeases.worker_gone`), so a
bot restarted after a crash sweeps and moves straight away.  A holder with no heartbeat on
record is trusted until its lease ends.  Leases are timed by the database's clock.

:func:`claim_update` makes a Telegram webhook update handled once by all the processes
together: Telegram sends it again until one answers, and after a crash that may be another
process.
"""

from __future__ import annotations

import enum
import os
import socket
from datetime import UTC, datetime, timedelta

from bot.sessions.context import Context

__all__ = [
    "TAP_LEASE",
    "Claim",
    "claim",
    "claim_tap",
    "claim_update",
    "end_tap",
    "finish_update",
    "release",
]


async def claim(ctx: Context, name: str, lease: timedelta) -> bool:
    """Take or renew the lease ``name`` for this process for ``lease``; whether it holds it.
    Real time, not the game clock: a lease is about processes being alive."""
    now = datetime.now(UTC)
    await ctx.store.beat(ctx.worker, socket.gethostname(), os.getpid())
    if await ctx.store.claim_lease(name, ctx.worker, now, lease):
        return True
    holder = await ctx.store.lease_holder(name)
    if holder is None or not await ctx.store.worker_gone(holder):
        return False
    return await ctx.store.claim_lease(name, ctx.worker, now, lease, replacing=holder)


async def release(ctx: Context, name: str) -> None:
    """Give the lease ``name`` up if this process holds it."""
    await ctx.store.release_lease(name, ctx.worker)


class Claim(enum.Enum):
    """What :func:`claim_update` found."""

    #: This process is to handle the update now (and then :func:`finish_update`).
    NEW = "new"
    #: Another live process is handling it: ask the platform to send it again later.
    BUSY = "busy"
    #: It was handled already: acknowledge it and do nothing.
    DONE = "done"


#: How long a process may take to handle one update before another may take it over.
UPDATE_LEASE = timedelta(minutes=2)
#: How long a handled update is remembered: Telegram gives up on an update after 24 hours.
UPDATE_MEMORY = timedelta(hours=25)
# The owner of a handled update's lease: no process, so it is never "gone".
_HANDLED = "handled"


def _update_lease(platform: str, update_id: int) -> str:
    return f"{platform} update {update_id}"


async def claim_update(ctx: Context, platform: str, update_id: int) -> Claim:
    """Claim a platform's update for this process (see :class:`Claim`)."""
    name = _update_lease(platform, update_id)
    if await claim(ctx, name, UPDATE_LEASE):
        return Claim.NEW
    return Claim.DONE if await ctx.store.lease_holder(name) == _HANDLED else Claim.BUSY


async def finish_update(ctx: Context, platform: str, update_id: int) -> None:
    """Record that this process handled the update it claimed (remembered for a day)."""
    name = _update_lease(platform, update_id)
    now = datetime.now(UTC)
    await ctx.store.claim_lease(name, _HANDLED, now, UPDATE_MEMORY, replacing=ctx.worker)


#: How long a tap may be handled before the same tap again counts as a new one (its process
#: died meanwhile).
TAP_LEASE = timedelta(seconds=30)


def _tap_lease(platform: str, tap: str) -> str:
    return f"{platform} tap {tap}"


async def claim_tap(ctx: Context, platform: str, tap: str, owner: str, window: float) -> bool:
    """Claim a tap (``tap`` names who pressed which button on which message) for ``owner``
    (that press's own id) while it is handled, in every process on this database: ``False``
    when the same tap pressed again (another ``owner``) is being handled, or was handled less
    than ``window`` seconds ago (:func:`end_tap`): a double tap has one effect, whichever
    processes get its two presses (issue 45).  Pruned with every ended lease by the clock
    sweep."""
    now, name = datetime.now(UTC), _tap_lease(platform, tap)
    grace = timedelta(seconds=window)
    return await ctx.store.claim_lease(name, owner, now, TAP_LEASE, grace=grace)


async def end_tap(ctx: Context, platform: str, tap: str, owner: str) -> None:
    """The tap ``owner`` claimed has been handled (now: the window of :func:`claim_tap`
    runs from here)."""
    now = datetime.now(UTC)
    await ctx.store.claim_lease(_tap_lease(platform, tap), owner, now, timedelta(0))
