"""The bot process gives back the memory of the pictures it has drawn (issue 48).

Drawing a board makes a few large, short-lived buffers (the supersampled layers Pillow draws
on, 1–3 MB each).  glibc's ``malloc`` serves blocks above its *mmap threshold* (128 KiB at
start) with ``mmap`` and unmaps them when freed, but each time such a block is freed it raises
the threshold to that block's size ("dynamic mmap threshold").  After the first pictures, the
large buffers therefore land in the ordinary heap, where freed space can only be handed back
from its top: with one small object living above them, a ``hexhall run`` console held
~110 MiB of free heap after a few hundred moves, and more as moves went on.
:func:`keep_large_blocks_mapped` fixes the threshold (which also turns the dynamic rise off),
so every large buffer is unmapped when Pillow frees it.  ``MALLOC_ARENA_MAX`` has no effect on
this; an operator's own ``MALLOC_MMAP_THRESHOLD_`` is left as set.

A chat process draws its pictures in worker threads (``asyncio.to_thread``), and glibc gives
each thread an arena of its own, whose freed pages it keeps; the main heap keeps the freed
pages below its top as well.  :func:`give_back` (glibc's ``malloc_trim``) hands the free pages
of every arena back to the system; :func:`give_back_every` does so periodically while the
bot runs (a Telegram process measured 158 MiB after 3 000 moves without it).  By default glibc
gives each new thread an arena of its own, up to eight per core (a chat process's drawing
threads, the database's, the web board's: a Telegram process held ~40 MiB in nine arenas,
each keeping a few MiB of scattered small blocks); :func:`few_arenas` lets them share
:data:`ARENAS` arenas, where the blocks one thread frees serve the others.  An operator's own
``MALLOC_ARENA_MAX`` is left as set.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import sys

__all__ = [
    "ARENAS",
    "GIVE_BACK_EVERY",
    "MMAP_THRESHOLD",
    "few_arenas",
    "give_back",
    "give_back_every",
    "keep_large_blocks_mapped",
]

#: Seconds between two hand-backs of free heap pages while the bot runs.
GIVE_BACK_EVERY = 20.0

#: Blocks at least this big are mapped on their own and unmapped when freed (glibc's own
#: starting value, kept from rising).
MMAP_THRESHOLD = 128 * 1024
#: The malloc arenas every thread of the process shares (the main one and one more).
ARENAS = 2
#: ``mallopt``'s parameter number for the mmap threshold (``M_MMAP_THRESHOLD`` of malloc.h).
_M_MMAP_THRESHOLD = -3
#: ... and for the most arenas (``M_ARENA_MAX``).
_M_ARENA_MAX = -8


def _mallopt(parameter: int, value: int, overridden_by: str) -> bool:
    """glibc's ``mallopt(parameter, value)``, unless the environment variable
    ``overridden_by`` is set; whether it was set (``False`` off glibc)."""
    if not sys.platform.startswith("linux") or overridden_by in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(parameter, value))


def keep_large_blocks_mapped() -> bool:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD` for this process (see the module);
    whether it was set (``False`` off glibc, or when ``MALLOC_MMAP_THRESHOLD_`` is set)."""
    return _mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD, "MALLOC_MMAP_THRESHOLD_")


def few_arenas() -> bool:
    """Let every thread of this process share :data:`ARENAS` malloc arenas (see the module;
    called before any thread starts); whether it was set (``False`` off glibc, or when
    ``MALLOC_ARENA_MAX`` is set)."""
    return _mallopt(_M_ARENA_MAX, ARENAS, "MALLOC_ARENA_MAX")


def give_back() -> bool:
    """Hand the free pages of every malloc arena back to the system (glibc's ``malloc_trim``);
    whether glibc released any (``False`` off glibc)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return False
    trim.argtypes = (ctypes.c_size_t,)
    trim.restype = ctypes.c_int
    return bool(trim(0))


async def give_back_every(stop: asyncio.Event, every: float = GIVE_BACK_EVERY) -> None:
    """:func:`give_back` every ``every`` seconds until ``stop`` is set."""
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)
        give_back()
