"""One delivery worker process for :mod:`tests.bot.delivery.test_skew`: an outbox on the
database at ``argv[1]`` whose process clock runs ``argv[2]`` seconds ahead of the machine's,
delivering platform ``test`` through a slow sender that appends each delivered id to the file
``argv[3]`` (one ``write`` of one line, opened for appending), until nothing is left
undelivered.

    python -m tests.bot.delivery.skewed_worker URL AHEAD OUT
"""

from __future__ import annotations

import asyncio
import os
import sys
from datetime import UTC, datetime, timedelta

from bot.core.notification import Notification
from bot.delivery.outbox import Outbox
from bot.storage import open_store

#: How long one send takes (seconds): a batch takes longer than the lease.
SEND = 0.2
#: The outbox's lease: shorter than a batch, so only renewing keeps a batch.
LEASE = timedelta(seconds=0.5)
#: Notifications one claim takes.
BATCH = 4


class SkewedClock:
    """The machine's clock ``ahead`` of it (a process on a host whose clock is off)."""

    def __init__(self, ahead: timedelta) -> None:
        self.ahead = ahead

    def now(self) -> datetime:
        """The time this process believes it is."""
        return datetime.now(UTC) + self.ahead


class SlowSender:
    """Takes :data:`SEND` seconds per notification, then appends its id to ``path``."""

    def __init__(self, path: str) -> None:
        self.path = path

    async def send(self, notification: Notification) -> None:
        """Deliver (record) one notification."""
        await asyncio.sleep(SEND)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, f"{notification.id} {os.getpid()}\n".encode())
        finally:
            os.close(fd)


async def main(url: str, ahead: float, out: str) -> None:
    """Deliver until the database has nothing undelivered left."""
    store = await open_store(url)
    clock = SkewedClock(timedelta(seconds=ahead))
    outbox = Outbox(store, clock, lease=LEASE, batch=BATCH, poll=0.05)
    stop = asyncio.Event()
    running = asyncio.create_task(outbox.run("test", SlowSender(out), stop=stop))
    try:
        far = datetime.now(UTC) + timedelta(days=1)
        while await store.due_notifications("test", far, limit=1):
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        await running
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), sys.argv[3]))
