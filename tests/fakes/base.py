"""What the fake Telegram and Discord servers share: an aiohttp server on a free 127.0.0.1 port
that records every call, and waiting on those records with a deadline instead of sleeping.

>>> import asyncio
>>> async def demo() -> int:
...     async with FakeServer() as server:
...         server.record("ping", {"n": 1})
...         call = await server.wait_for(lambda c: c.method == "ping")
...         return call.data["n"]
>>> asyncio.run(demo())
1
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

from aiohttp import web

__all__ = ["Call", "FakeServer", "ManualClock", "WaitTimeout"]

#: How long a test waits for something the bot should do before failing (never a fixed sleep:
#: waits end as soon as the condition holds).
DEFAULT_DEADLINE = 10.0


class ManualClock:
    """A monotonic clock a test moves forward instead of sleeping: it runs with
    ``time.monotonic()`` and :meth:`advance` adds to it. The fakes take it (``clock=``) for the
    platform rules that span minutes or hours (Discord's 15-minute interaction tokens), and for
    the rate limits' windows.  ``running=False``: it stands still but for :meth:`advance`, so
    requests a rule counts within a window are within it however slowly a loaded machine makes
    them.

    >>> clock = ManualClock()
    >>> before = clock()
    >>> clock.advance(900)
    >>> clock() - before >= 900
    True
    >>> still = ManualClock(running=False)
    >>> still() == still()
    True
    """

    def __init__(self, *, running: bool = True) -> None:
        self._offset = 0.0
        self._stopped_at = None if running else time.monotonic()

    def __call__(self) -> float:
        """Seconds, like ``time.monotonic()`` (or the moment it was made, when it does not
        run), plus every :meth:`advance` so far."""
        now = time.monotonic() if self._stopped_at is None else self._stopped_at
        return now + self._offset

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` forward (never back)."""
        if seconds < 0:
            raise ValueError(f"a clock only moves forward, not by {seconds}")
        self._offset += seconds


class WaitTimeout(AssertionError):
    """The awaited call did not arrive before the deadline (the message lists what did)."""


@dataclass
class Call:
    """One request the fake received: the API method (or route), its decoded fields, any
    uploaded files by part name, and what the fake answered."""

    method: str
    data: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    response: Any = None
    #: When the fake received it (``time.monotonic``): the order and spacing of requests.
    at: float = field(default_factory=time.monotonic)


class FakeServer:
    """Base of the fakes: subclasses add routes to ``self.app`` before :meth:`start`.

    Use as ``async with Fake() as fake:``; ``fake.url`` is ``http://127.0.0.1:<port>``.
    """

    def __init__(self) -> None:
        self.app = web.Application(client_max_size=64 * 1024 * 1024)
        self.calls: list[Call] = []
        # Set (and replaced) at every change: what waiters wait on (:meth:`notify`).
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def url(self) -> str:
        """Base URL of the running server."""
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        self._runner = web.AppRunner(self.app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        """Stop listening and close open connections."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    def record(
        self,
        method: str,
        data: dict[str, Any],
        files: dict[str, bytes] | None = None,
        response: Any = None,
    ) -> Call:
        """Append a call and wake everyone waiting on the records."""
        call = Call(method, data, files or {}, response)
        self.calls.append(call)
        self.notify()
        return call

    def notify(self) -> None:
        """Wake waiters (after recording, or after any other state change they may wait on),
        at once: no task is left behind (one made as the loop closed was never run, and Python
        warned that its coroutine was never awaited)."""
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def calls_to(self, method: str) -> list[Call]:
        """Every recorded call of ``method``, oldest first."""
        return [c for c in self.calls if c.method == method]

    async def wait_until(
        self, condition: Callable[[], bool], *, timeout: float = DEFAULT_DEADLINE
    ) -> None:
        """Return as soon as ``condition()`` holds; raise :class:`WaitTimeout` after ``timeout``."""
        try:
            async with asyncio.timeout(timeout):
                # No await between the test and taking the event: a change after the test
                # sets the event waited on.
                while not condition():
                    await self._changed.wait()
        except TimeoutError:
            seen = ", ".join(c.method for c in self.calls[-20:])
            raise WaitTimeout(f"condition not met within {timeout} s; last calls: {seen}") from None

    async def wait_for(
        self,
        predicate: Callable[[Call], bool],
        *,
        after: int = 0,
        timeout: float = DEFAULT_DEADLINE,
    ) -> Call:
        """The first call (from index ``after`` on) matching ``predicate``, waiting for it."""
        found: list[Call] = []

        def check() -> bool:
            found[:] = [c for c in self.calls[after:] if predicate(c)][:1]
            return bool(found)

        await self.wait_until(check, timeout=timeout)
        return found[0]


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now (for a server a test starts)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port
