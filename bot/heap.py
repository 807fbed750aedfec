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
"""

from __future__ import annotations

import ctypes
import os
import sys

__all__ = ["MMAP_THRESHOLD", "keep_large_blocks_mapped"]

#: Blocks at least this big are mapped on their own and unmapped when freed (glibc's own
#: starting value, kept from rising).
MMAP_THRESHOLD = 128 * 1024
#: ``mallopt``'s parameter number for the mmap threshold (``M_MMAP_THRESHOLD`` of malloc.h).
_M_MMAP_THRESHOLD = -3


def keep_large_blocks_mapped() -> bool:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD` for this process (see the module);
    whether it was set (``False`` off glibc, or when ``MALLOC_MMAP_THRESHOLD_`` is set)."""
    if not sys.platform.startswith("linux") or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))
