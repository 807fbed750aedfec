"""A fork server for the tests that start worker processes again and again (issue 42): one
Python process imports the workers' modules once, then forks a child per worker, which runs
the worker's module as ``python -m`` would.  Each child is a real process of its own (its own
pid, SIGKILLed and reaped like any other; its database connections its own), without paying
the interpreter's start and the bot's imports again.

The test holds a :class:`ForkServer` (``async with ForkServer.start("tests.bot.web_worker")``)
and asks it for :class:`Child` processes.  The server's protocol, on a socket pair of the two:
the test sends ``{"module", "argv"}`` as JSON with the child's standard output (the write end
of a pipe the test reads) attached; the server answers on its standard output, one line each,
``pid N`` once it forked the child and ``exit N STATUS`` once it reaped it (STATUS as
:attr:`asyncio.subprocess.Process.returncode`: negative for a signal).  When the test's end of
the socket closes, the server SIGKILLs the children left and ends.

    python -m tests.bot.fork_kit FD MODULE...
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import os
import runpy
import selectors
import signal
import socket
import sys
import traceback
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: A guard against a hung server (the tests wait on its answers, never on the clock).
TIMEOUT = 60.0


class Child:
    """One forked worker: its pid, its standard output (if asked for), its end."""

    def __init__(self, pid: int, stdout: asyncio.StreamReader | None) -> None:
        self.pid = pid
        self.stdout = stdout
        self.returncode: int | None = None
        self._ended: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def _exited(self, status: int) -> None:
        self.returncode = status
        if not self._ended.done():
            self._ended.set_result(status)

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
    """The test's side of the server (see the module docstring)."""

    def __init__(self, process: asyncio.subprocess.Process, control: socket.socket) -> None:
        self.process, self.control = process, control
        self.children: dict[int, Child] = {}
        self._forked: asyncio.Queue[int] = asyncio.Queue()
        self._lock = asyncio.Lock()
        self._reading = asyncio.create_task(self._read())

    @classmethod
    @contextlib.asynccontextmanager
    async def start(cls, *modules: str) -> AsyncIterator[ForkServer]:
        """The server with ``modules`` imported, ready to fork; ended (its children killed)
        on exit."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.bot.fork_kit", str(theirs.fileno()), *modules,
                cwd=ROOT, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                pass_fds=(theirs.fileno(),),
            )  # fmt: skip
        finally:
            theirs.close()
        assert process.stdout is not None
        try:
            line = await asyncio.wait_for(process.stdout.readline(), TIMEOUT)
            assert line == b"ready\n", line
            server = cls(process, ours)
        except BaseException:
            ours.close()
            process.kill()
            await process.wait()
            raise
        try:
            yield server
        finally:
            await server.close()

    async def _read(self) -> None:
        assert self.process.stdout is not None
        async for line in self.process.stdout:
            match line.split():
                case [b"pid", pid]:
                    self._forked.put_nowait(int(pid))
                case [b"exit", pid, status]:
                    self.children[int(pid)]._exited(int(status))
                case _:
                    raise AssertionError(f"the fork server said {line!r}")
        for child in self.children.values():  # the server is gone, and its children with it
            if not child._ended.done():
                child._ended.set_exception(AssertionError("the fork server ended"))

    async def spawn(self, module: str, *argv: str, stdout: bool = False) -> Child:
        """A child running ``python -m module argv...``, its standard output a pipe to read
        (``stdout``) or the server's standard error."""
        loop = asyncio.get_running_loop()
        request = json.dumps({"module": module, "argv": list(argv)}).encode()
        reader: asyncio.StreamReader | None = None
        async with self._lock:
            if stdout:
                r, w = os.pipe()
                try:
                    socket.send_fds(self.control, [request], [w])
                finally:
                    os.close(w)
                reader = asyncio.StreamReader()
                protocol = asyncio.StreamReaderProtocol(reader)
                await loop.connect_read_pipe(lambda: protocol, os.fdopen(r, "rb", buffering=0))
            else:
                self.control.send(request)
            pid = await asyncio.wait_for(self._forked.get(), TIMEOUT)
            child = self.children[pid] = Child(pid, reader)
        return child

    async def close(self) -> None:
        """End the server: its children are SIGKILLed and reaped, then it leaves."""
        self.control.close()
        try:
            await asyncio.wait_for(self.process.wait(), TIMEOUT)
        finally:
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()
            await self._reading


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
            os.close(out)
        else:
            os.dup2(2, 1)
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
    from bot.workers import die_with_parent

    die_with_parent(os.getppid())  # the test's worker gone, the server goes (and its children)
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
            message, fds, _, _ = socket.recv_fds(control, 65536, 1)
            if not message:  # the test's end closed: the children go with the server
                for pid in children:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                for pid in children:
                    os.waitpid(pid, 0)
                return
            out = fds[0] if fds else None
            sys.stdout.flush()
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
