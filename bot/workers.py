"""Worker processes that die with the bot: what the recap child and the computer opponent's
process pool share.

CPU-heavy work (drawing a recap, searching for the bot's move) runs in other processes so the
event loop never waits for it.  Such a process must not outlive the bot: a supervisor that
SIGKILLs the bot expects its output pipes to end and its CPUs to be free at once.  So every
worker calls :func:`die_with_parent` first: on Linux the kernel kills it when the bot dies
(``PR_SET_PDEATHSIG``), and it leaves at once if the bot is already gone.

:func:`process_pool` makes a pool of such workers (``spawn``: a fresh interpreter, nothing
inherited from the bot's threads or event loop), sized to the CPUs this process may use.
Submit to it from the event loop's thread only: the kernel ties ``PR_SET_PDEATHSIG`` to the
*thread* that started the worker, and the pool starts workers from the submitting thread.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import secrets
import signal
import socket
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

__all__ = [
    "cpu_count",
    "die_with_parent",
    "namespace",
    "pid_ended",
    "process_pool",
    "worker_name",
]

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux), and leave at once if
    the parent (process id ``parent``) is already gone."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def cpu_count() -> int:
    """How many CPUs this process may use (its affinity where the system tells), at least 1."""
    if sys.platform.startswith("linux"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _start_worker(parent: int) -> None:
    die_with_parent(parent)
    # The worker's standard streams are not the bot's: nothing it prints can interleave with
    # the bot's output, and no descriptor of the bot's pipes stays open in it.  (Results and
    # exceptions go back through the pool's own pipes.)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


def process_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes (default :func:`cpu_count`) that die with this one
    (see the module docstring).  Processes start on the first submissions, not here."""
    return ProcessPoolExecutor(
        max_workers=max(1, workers or cpu_count()),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(),),
    )


def worker_name() -> str:
    """An id for one worker of this process among all the bot's processes, on any machine:
    ``host:pid:random`` (the random part makes it unique; the rest is for people reading
    logs).  Leases and outbox claims are held under such ids, and the worker's heartbeat
    (:meth:`~bot.storage.sql_leases.SqlLeases.beat`) says whether it is alive: never its host
    name and process id, which another container may share."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def namespace() -> str:
    """Where a process id names the same process as here: this boot of this kernel and this
    process's pid namespace (``/proc/sys/kernel/random/boot_id`` and the inode of
    ``/proc/self/ns/pid``; two containers on one machine differ, as do two machines).  Empty
    where the system does not tell (then no process id is ever judged from here)."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        pid_ns = os.readlink("/proc/self/ns/pid")
    except OSError:
        return ""
    return f"{boot}/{pid_ns}"


def pid_ended(pid: int) -> bool:
    """Whether process ``pid`` of this pid namespace has ended (a zombie has).

    >>> pid_ended(os.getpid())
    False
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError):
        return False
    try:  # killed but not yet reaped by its parent: gone all the same
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False
