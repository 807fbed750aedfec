"""The fakes' shared waiting (:class:`tests.fakes.base.FakeServer`): a change wakes the
waiters at once and leaves nothing running behind it."""

from __future__ import annotations

import asyncio

from tests.fakes.base import FakeServer


def test_a_change_wakes_a_waiter_and_leaves_no_task_behind() -> None:
    """A waiter whose condition a change makes true returns; a change starts no task (one
    started as the loop closed never ran, and Python warned that its coroutine was never
    awaited)."""
    loop = asyncio.new_event_loop()
    try:
        fake = FakeServer()
        changes: list[int] = []

        async def main() -> None:
            waiter = asyncio.create_task(fake.wait_until(lambda: bool(changes), timeout=5))
            await asyncio.sleep(0)
            assert not waiter.done()
            changes.append(1)
            fake.notify()
            await waiter
            running = asyncio.all_tasks()
            fake.notify()  # a change, say just before the loop ends
            assert asyncio.all_tasks() == running

        loop.run_until_complete(main())
    finally:
        loop.close()
