"""``python -m bot run`` as a real process for the tests that kill it: its environment, its
log, starting, SIGKILL and SIGTERM.  Shared by the Telegram, Discord and two-process tests.

Each process is forked by the test process's fork server (:mod:`tests.bot.fork_kit`), which
imported the bot's modules once: a real process of its own (its own pid, environment, folder,
log and sockets; killed with a real SIGKILL), without the interpreter's start and the bot's
imports (about 1.5 CPU seconds) at every start and restart."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from tests.bot.fork_kit import Child, ForkServer
from tests.fakes.base import free_port

#: How long a process may take to start or stop (a loaded 2-core machine).
DEADLINE = 30.0

ROOT = Path(__file__).resolve().parents[2]

__all__ = ["DEADLINE", "ROOT", "BotProcess", "bot_env", "free_port"]


def bot_env(**settings: str) -> dict[str, str]:
    """This environment without any Hexhall, Telegram or Discord setting, plus ``settings``
    (and the repository on the path, and no proxy for 127.0.0.1)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "TELEGRAM_", "HEXHALL_"))
    }
    env.update(PYTHONPATH=str(ROOT), NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost")
    env.update(settings)
    return env


class BotProcess:
    """One ``python -m bot run`` with ``env``, writing to ``log`` (run in its folder)."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env, self.log = env, log
        self.process: Child | None = None
        #: Process ids of every run, the killed ones included.
        self.pids: list[int] = []

    @property
    def pid(self) -> int:
        """The running process's id."""
        assert self.process is not None
        return self.process.pid

    async def launch(self) -> None:
        """Start the process (callers then wait until it is ready, with :meth:`racing`)."""
        forks = await asyncio.to_thread(ForkServer.shared)  # started once
        with self.log.open("ab") as out:
            self.process = await forks.spawn(
                "bot", "run", output=out.fileno(), env=self.env, cwd=self.log.parent
            )
        self.pids.append(self.process.pid)

    async def racing(self, waiting: Awaitable[Any]) -> None:
        """Wait for ``waiting``, failing at once (with the log) if the process ends first."""
        assert self.process is not None
        waiter = asyncio.ensure_future(waiting)
        ended = asyncio.ensure_future(self.process.wait())
        await asyncio.wait({waiter, ended}, return_when=asyncio.FIRST_COMPLETED)
        if not waiter.done():
            waiter.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await waiter
            raise AssertionError(f"the bot ended ({ended.result()}):\n{self.tail()}")
        ended.cancel()
        waiter.result()

    @property
    def running(self) -> bool:
        """Whether it was started and has not ended."""
        return self.process is not None and self.process.returncode is None

    async def kill(self) -> None:
        """SIGKILL: no clean-up, nothing released."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self) -> int:
        """SIGTERM; the exit status."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.process.wait(), DEADLINE)

    def tail(self) -> str:
        """The end of its log (for failure messages)."""
        if not self.log.exists():
            return ""
        return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]
