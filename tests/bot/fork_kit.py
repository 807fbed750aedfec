"""A fork server for the tests that start worker or bot processes again and again (issue 42):
one Python process imports the workers' modules once, then forks a child per start, which
runs its module as ``python -m`` would (with its own arguments, environment, folder and
output).  Each child is a real process of its own (its own pid, SIGKILLed and reaped like any
other, its database connections and sockets its own), without paying the interpreter's start
and the bot's imports again.

One server per set of modules (by default :data:`MODULES`) per test process
(:meth:`ForkServer.shared`), started at its first use and ended with the test process; a test
takes it with ``async with ForkServer.start() as forks`` (the children it spawned are
SIGKILLed on leaving) and asks it for :class:`Child` processes.

The server's protocol, on a socket pair of the two: the test sends ``{"module", "argv", "env",
"cwd", "stderr"}`` as JSON with the child's standard output attached (the write end of a pipe
the test reads, or a log file), or nothing attached (then the child writes to the server's
standard error); the server answers on its standard output, one line each, ``pid N`` once it
forked the child and ``exit N STATUS`` once it reaped it (STATUS as
:attr:`asyncio.subprocess.Process.returncode`: negative for a signal).  When the test's end of
the socket closes, the server SIGKILLs the children left and ends (and it dies with the test
process).

    python -m tests.bot.fork_kit FD MODULE...
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextlib
import importlib
import json
import os
import runpy
import selectors
import signal
import socket
import subprocess
import sys
import threading
import traceback
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[2]
#: A guard against a hung server (the tests wait on its answers, never on the clock).
TIMEOUT = 60.0
#: What the tests' server imports before it forks: what ``hexhall run`` with both adapters,
#: the web board and the recaps imports, and the tests' workers (one server for them all, so
#: a test process pays these imports once).
MODULES = (
    "bot.cli",
    "bot.app",
    "bot.adapters.telegram.service",
    "bot.adapters.discord",
    "bot.webboard",
    "bot.web",
    "render",
    "tests.bot.web_worker",
    "tests.bot.tournaments.sweep_worker",
    "tests.bot.delivery.skewed_worker",
)


class Child:
    """One forked process: its pid, its standard output (if it is a pipe), its end.  Used as
    :class:`asyncio.subprocess.Process` is: ``pid``, ``returncode``, ``send_signal``,
    ``kill``, ``wait``."""

    def __init__(self, pid: int, stdout: asyncio.StreamReader | None) -> None:
        self.pid = pid
        self.stdout = stdout
        self.returncode: int | None = None
        self._loop = asyncio.get_running_loop()
        self._ended: asyncio.Future[int] = self._loop.create_future()

    def _exited(self, status: int) -> None:
        self.returncode = status
        if not self._ended.done():
            self._ended.set_result(status)

    def _lost(self) -> None:
        if not self._ended.done():
            self._ended.set_exception(AssertionError(f"the fork server of {self.pid} ended"))

    def send_signal(self, sig: int) -> None:
        """Signal it (nothing if it has been reaped)."""
        if self.returncode is None:
            os.kill(self.pid, sig)

    async def wait(self) -> int:
        """Wait until it has ended and been reaped; its status."""
        return await asyncio.shield(self._ended)

    async def kill(self) -> None:
        """SIGKILL it and wait until it is reaped."""
        self.send_signal(signal.SIGKILL)
        await self.wait()


class ForkServer:
    """The test's side of a server (see the module docstring).  Its answers are read by a
    thread of its own, so one server serves every test's event loop in turn."""

    _shared: ClassVar[dict[tuple[str, ...], ForkServer]] = {}

    def __init__(self, modules: tuple[str, ...]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.bot.fork_kit", str(theirs.fileno()), *modules],
                cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                pass_fds=(theirs.fileno(),),
            )  # fmt: skip
        finally:
            theirs.close()
        self.control = ours
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if line != b"ready\n":
            self.close()
            raise AssertionError(f"the fork server did not start: {line!r}")
        self._guard = threading.Lock()
        self._waiting: collections.deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[int]]]
        self._waiting = collections.deque()
        self._children: dict[int, Child] = {}
        self._early: dict[int, int] = {}
        self._reader = threading.Thread(target=self._read, name="fork server", daemon=True)
        self._reader.start()

    @classmethod
    def shared(cls, *modules: str) -> ForkServer:
        """This test process's server with ``modules`` (default :data:`MODULES`) imported,
        started on first use."""
        key = tuple(modules) or MODULES
        server = cls._shared.get(key)
        if server is None or server.process.poll() is not None:
            server = cls._shared[key] = cls(key)
            atexit.register(server.close)
        return server

    @classmethod
    @contextlib.asynccontextmanager
    async def start(cls, *modules: str) -> AsyncIterator[ForkServer]:
        """The shared server with ``modules`` (default :data:`MODULES`) imported; the
        children spawned meanwhile are SIGKILLed and reaped on leaving."""
        server = await asyncio.to_thread(cls.shared, *modules)
        before = set(server._children)
        try:
            yield server
        finally:
            for pid, child in list(server._children.items()):
                if pid not in before and child.returncode is None:
                    await child.kill()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            match line.split():
                case [b"pid", pid]:
                    with self._guard:
                        loop, forked = self._waiting.popleft()
                    loop.call_soon_threadsafe(forked.set_result, int(pid))
                case [b"exit", pid, status]:
                    with self._guard:
                        child = self._children.get(int(pid))
                        if child is None:
                            self._early[int(pid)] = int(status)
                    if child is not None:
                        with contextlib.suppress(RuntimeError):  # its test's loop is closed
                            child._loop.call_soon_threadsafe(child._exited, int(status))
        with self._guard:
            left = [c for c in self._children.values() if c.returncode is None]
            waiting = list(self._waiting)
            self._waiting.clear()
        for loop, forked in waiting:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(
                    forked.set_exception, AssertionError("the fork server ended")
                )
        for child in left:
            with contextlib.suppress(RuntimeError):
                child._loop.call_soon_threadsafe(child._lost)

    async def spawn(
        self,
        module: str,
        *argv: str,
        stdout: bool = False,
        output: int | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
    ) -> Child:
        """A child running ``python -m module argv...``: its standard output a pipe to read
        (``stdout``), or the file descriptor ``output`` (its standard error too), or else the
        server's standard error; in ``env`` (default: the server's) and the folder ``cwd``
        (default: the repository)."""
        loop = asyncio.get_running_loop()
        request = json.dumps(
            {
                "module": module,
                "argv": list(argv),
                "env": None if env is None else dict(env),
                "cwd": None if cwd is None else str(cwd),
                "stderr": output is not None,
            }
        ).encode()
        reader: asyncio.StreamReader | None = None
        forked: asyncio.Future[int] = loop.create_future()
        read_end: int | None = None
        with self._guard:  # the server answers in order: the oldest waiting gets the pid
            self._waiting.append((loop, forked))
            if stdout:
                read_end, write_end = os.pipe()
                try:
                    socket.send_fds(self.control, [request], [write_end])
                finally:
                    os.close(write_end)
            elif output is not None:
                socket.send_fds(self.control, [request], [output])
            else:
                self.control.send(request)
        if read_end is not None:
            reader = asyncio.StreamReader()
            protocol = asyncio.StreamReaderProtocol(reader)
            pipe = os.fdopen(read_end, "rb", buffering=0)
            await loop.connect_read_pipe(lambda: protocol, pipe)
        pid = await asyncio.wait_for(forked, TIMEOUT)
        child = Child(pid, reader)
        with self._guard:
            self._children[pid] = child
            early = self._early.pop(pid, None)
        if early is not None:
            child._exited(early)
        return child

    def close(self) -> None:
        """End the server: its children are SIGKILLed and reaped, then it leaves."""
        self.control.close()
        try:
            self.process.wait(TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


# ---------------------------------------------------------------------------- the server


def _child(
    control: socket.socket, wakeup: tuple[int, int], request: dict[str, Any], out: int | None
) -> None:
    """In the forked child: run the module as ``__main__``; never returns."""
    status = 0
    try:
        from bot.workers import die_with_parent

        die_with_parent(os.getppid())
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        control.close()
        for fd in wakeup:
            os.close(fd)
        if out is not None:
            os.dup2(out, 1)
            if request["stderr"]:
                os.dup2(out, 2)
            os.close(out)
        else:
            os.dup2(2, 1)
        if request["env"] is not None:
            os.environ.clear()
            os.environ.update(request["env"])
        if request["cwd"] is not None:
            os.chdir(request["cwd"])
        sys.argv = [request["module"], *request["argv"]]
        runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
        status = 1
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(status)


def serve(fd: int, modules: list[str]) -> None:
    """Import ``modules``, then fork a child per request until the control socket closes."""
    control = socket.socket(fileno=fd)
    for module in modules:
        importlib.import_module(module)
    # No PR_SET_PDEATHSIG here: the kernel sends it when the thread that started the server
    # ends, not the test process.  The test process gone, its end of the socket closes, and
    # the server SIGKILLs its children and leaves.
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    children: set[int] = set()

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def reap() -> None:
        while children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                return
            children.discard(pid)
            say(f"exit {pid} {os.waitstatus_to_exitcode(status)}")

    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ)
    selector.register(wake_r, selectors.EVENT_READ)
    say("ready")
    while True:
        for key, _ in selector.select():
            if key.fileobj == wake_r:
                os.read(wake_r, 4096)
                reap()
                continue
            message, fds, _, _ = socket.recv_fds(control, 1 << 20, 1)
            if not message:  # the test's end closed: the children go with the server
                for pid in children:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                for pid in children:
                    os.waitpid(pid, 0)
                return
            out = fds[0] if fds else None
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _child(control, (wake_r, wake_w), json.loads(message), out)
            if out is not None:
                os.close(out)
            children.add(pid)
            say(f"pid {pid}")
            reap()  # a child that ended at once


if __name__ == "__main__":
    serve(int(sys.argv[1]), sys.argv[2:])
