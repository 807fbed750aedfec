"""The outbox: how adapters deliver notifications.

Each adapter gives the outbox a *sender* (anything with ``async def send(notification)``) and
runs :meth:`Outbox.run` for its platform.  The outbox claims the platform's due notifications
from the store with a lease (this worker's until a time), hands each to the sender and marks it
sent.  When sending fails it is tried again later with exponential backoff, and given up after
a few tries with a log line.  A claim whose worker died is taken again when its lease ends, and
two workers (in one process or several) never hold the same notification.  Claims are timed
by the database's clock (processes whose clocks disagree still agree on them) and renewed
while their worker sends.

The sender says what went wrong by what it raises:

- :class:`DirectRefused`: the platform refused a direct message (the user never started the
  bot, direct messages closed).  The refusal is remembered (no direct message is tried again
  until the player starts the bot or turns direct messages on again); a notification that has
  a chat is delivered there instead, once; a private one (no chat: what the player asked to be
  told privately, while the chat already shows it on the game's board) is dropped.
- :class:`DeliveryRefused`: the platform refused it for good (chat gone, bot removed): given
  up at once.
- :class:`Throttled`: the platform asks to wait before anything more goes to that chat (a
  429's ``retry_after``): tried again then, without counting a failed attempt, while the
  outbox goes on with other chats.
- :class:`MaybeDelivered`: the request went out but no answer came back (a time-out while
  waiting for the platform's answer, a connection lost then, a server error): the platform
  may have delivered it.  A notice sent at most once is given up (not sent twice); any other
  is tried again later, as for a transient failure.
- anything else: a transient failure (network): tried again later.

What "once" means across a crash: on a platform with no key to recognise a resend
(Telegram: see :func:`at_most_once`), a direct notice is marked as being sent before it is
handed over, so a worker killed while sending leaves it given up, never sent twice (the game's
chat shows the same on its board), and so does a send the platform may have taken without
answering (:class:`MaybeDelivered`); anything else is at least once there (a worker killed
between the platform's answer and recording it sends it again after its claim is taken over).

Obsolete notifications (a "your turn" for a ply already played, a reminder for a game that
ended) are dropped by the store when they are claimed, so a sender never sees them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Protocol

from bot import metrics
from bot.core import i18n
from bot.core.errors import StoreError
from bot.core.notification import Notification
from bot.delivery.bell import Bell
from bot.delivery.speaking import language_of
from bot.workers import worker_name

__all__ = [
    "Clock",
    "DeliveryRefused",
    "DirectRefused",
    "MaybeDelivered",
    "Outbox",
    "OutboxStore",
    "Sender",
    "Throttled",
    "answering",
    "at_most_once",
]

log = logging.getLogger(__name__)

#: How long a claim holds (a worker that died frees its claims after this).
LEASE = timedelta(minutes=2)
#: The first retry waits this long; each further one twice as long as the one before.
BACKOFF = timedelta(seconds=30)
#: Tries before a notification is given up.
MAX_ATTEMPTS = 5


class DeliveryRefused(Exception):
    """The platform refused this delivery for good (the chat is gone, the bot was removed)."""


class DirectRefused(DeliveryRefused):
    """The platform refused a direct message (the user never started the bot, or closed their
    direct messages): the outbox delivers it in the game's chat instead."""


class MaybeDelivered(Exception):
    """The request reached (or may have reached) the platform but its answer never came (a
    time-out while waiting for it, the connection lost, a server error): the message may have
    been delivered.  At most once, it is given up; else tried again like a transient failure."""


#: Why a notice sent at most once is given up after :class:`MaybeDelivered`.
MAYBE_SENT = "no answer from the platform, it may have gone out: not sent again (at most once)"


class Throttled(Exception):
    """The platform's flood control refused a delivery to its chat for ``seconds`` more (a
    429 with ``retry_after``): the notification is due again then, counting no failed
    attempt."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"flood control: retry after {seconds:g} s")
        #: How long the platform asked to wait.
        self.seconds = seconds


class Sender(Protocol):
    """An adapter's way to deliver one notification (see the module docstring)."""

    async def send(self, notification: Notification) -> None:
        """Deliver ``notification`` (as a direct message when ``notification.direct``, else
        in ``notification.chat``); raise to say it was not delivered."""
        ...


class OutboxStore(Protocol):
    """What the outbox needs of the store (:class:`~bot.storage.sql_outbox.SqlOutbox`
    implements it): claims on due notifications, and what became of each."""

    async def claim_due(
        self, platform: str, owner: str, now: datetime, lease: timedelta, limit: int = 20
    ) -> list[Notification]:
        """Claim up to ``limit`` due notifications of ``platform`` for the worker ``owner``
        until ``now + lease``, oldest first (obsolete and unreadable ones are dropped)."""
        ...

    async def mark_sending(self, note_id: int, owner: str) -> bool:
        """Record that ``owner`` hands a claimed notification to a platform that must get it
        at most once; ``False`` if ``owner`` no longer held the claim."""
        ...

    async def mark_sent(self, note_id: int, owner: str, now: datetime) -> bool:
        """Record a claimed notification as delivered; ``False`` if ``owner`` no longer held
        the claim."""
        ...

    async def give_up(self, note_id: int, owner: str, now: datetime, error: str) -> bool:
        """Stop trying to deliver a claimed notification (``error`` says why); ``False`` if
        ``owner`` no longer held the claim."""
        ...

    async def retry_later(
        self,
        note_id: int,
        owner: str,
        when: datetime,
        error: str,
        *,
        direct: bool | None = None,
        counted: bool | None = None,
        now: datetime | None = None,
    ) -> bool:
        """Release a claimed notification to be tried again at ``when`` (``direct=False``:
        in the game's chat from now on; ``counted=False``: no failed attempt counted;
        ``now``: the clock ``when`` was reckoned by, moved onto the database's); ``False``
        if ``owner`` no longer held the claim."""
        ...

    async def direct_refused(self, player_id: int, now: datetime) -> None:
        """Remember that the platform refused a direct message to a player."""
        ...

    async def claim_owners(self, platform: str, now: datetime) -> list[str]:
        """The workers holding unexpired claims on ``platform``'s undelivered
        notifications."""
        ...

    async def release_claims(self, platform: str, owner: str) -> int:
        """Free ``owner``'s claims on ``platform``'s undelivered notifications; how many."""
        ...

    async def renew_claims(self, platform: str, owner: str, lease: timedelta) -> int:
        """Extend ``owner``'s claims on ``platform``'s undelivered notifications to ``lease``
        from now (the database's clock); how many."""
        ...

    async def beat(self, worker: str, host: str, pid: int) -> None:
        """Record that the worker ``worker`` is alive now (its heartbeat)."""
        ...

    async def worker_gone(self, worker: str) -> bool:
        """Whether the worker ``worker`` is known to be gone (see
        :meth:`~bot.storage.sql_leases.SqlLeases.worker_gone`)."""
        ...


class BoardStore(Protocol):
    """What :func:`answering` needs of the store."""

    async def claim_boards(
        self, game_id: int, chat_id: str, owner: str, now: datetime, lease: timedelta
    ) -> list[int]:
        """Claim a game's undelivered committed boards for its chat for ``owner``; ids."""
        ...

    async def board_owners(self, game_id: int, now: datetime) -> list[tuple[str, str]]:
        """Who holds claims on a game's undelivered committed boards, by platform."""
        ...

    async def release_claims(self, platform: str, owner: str) -> int:
        """Free ``owner``'s claims on ``platform``'s undelivered notifications."""
        ...

    async def worker_gone(self, worker: str) -> bool:
        """Whether the worker ``worker`` is known to be gone."""
        ...

    async def mark_sent(self, note_id: int, owner: str, now: datetime) -> bool:
        """Record a claimed notification as delivered."""
        ...

    async def retry_later(
        self,
        note_id: int,
        owner: str,
        when: datetime,
        error: str,
        *,
        direct: bool | None = None,
        now: datetime | None = None,
    ) -> bool:
        """Release a claimed notification to be tried again at ``when``."""
        ...


class Clock(Protocol):
    """Anything that tells the current time (aware, UTC)."""

    def now(self) -> datetime:
        """The current time."""
        ...


@contextlib.asynccontextmanager
async def answering(
    store: BoardStore, clock: Clock, owner: str, game_id: int | None, chat_id: str
) -> AsyncIterator[None]:
    """Around an adapter posting a board of ``game_id`` in ``chat_id`` as its answer (to a
    move, mostly; an answer elsewhere than the game's chat claims nothing):
    the game's committed boards (:attr:`~bot.core.notification.Kind.BOARD`) are claimed for
    ``owner`` first and marked sent once the answer is out, so no outbox posts them a second
    time.  If posting fails they are released to the outbox at once (a stored move is never
    left unannounced); if the process dies they go out when the claim is taken over.  The
    window for a double is between the platform's answer and the mark: one statement."""
    if game_id is None:
        yield
        return
    claimed = await store.claim_boards(game_id, chat_id, owner, clock.now(), LEASE)
    if not claimed:
        # A process that died answering the same move (a retried update now answered here)
        # may hold the board's claim: it is gone, so this answer takes the board over.
        for platform, holder in await store.board_owners(game_id, clock.now()):
            if holder != owner and await store.worker_gone(holder):
                await store.release_claims(platform, holder)
                claimed = await store.claim_boards(game_id, chat_id, owner, clock.now(), LEASE)
    try:
        yield
    except BaseException as exc:
        for note_id in claimed:
            why = f"the answer failed: {type(exc).__name__}"
            at = clock.now()
            await store.retry_later(note_id, owner, at, why, direct=False, now=at)
        raise
    for note_id in claimed:
        await store.mark_sent(note_id, owner, clock.now())


class Outbox:
    """Delivers a platform's notifications from ``store`` (see the module docstring).

    ``owner`` names this worker in its claims (unique per worker; by default
    :func:`bot.workers.worker_name`), and its heartbeat is beaten under that id every
    round (at most once a poll).  ``lease``,
    ``backoff`` and ``max_attempts`` tune the claims and retries; ``batch`` is how many
    notifications one claim takes; ``poll`` is how often :meth:`run` looks for due
    notifications when nobody calls :meth:`wake`; ``bell`` (the session manager's) wakes it
    too while it runs, when a change made notifications due with no adapter answering it (a
    move made on the web board).
    """

    def __init__(
        self,
        store: OutboxStore,
        clock: Clock,
        *,
        owner: str | None = None,
        lease: timedelta = LEASE,
        backoff: timedelta = BACKOFF,
        max_attempts: int = MAX_ATTEMPTS,
        batch: int = 20,
        poll: float = 2.0,
        bell: Bell | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.owner = owner or worker_name()
        self.lease = lease
        self.backoff = backoff
        self.max_attempts = max_attempts
        self.batch = batch
        self.poll = poll
        self.bell = bell
        self._wake = asyncio.Event()
        # When the claims of gone workers were last looked for (at most once a poll: the
        # outbox is woken after every update, and the look is a query).
        self._looked: float | None = None
        # The notifications of this batch put back to go to their chat at once.
        self._redirected: set[int] = set()

    def wake(self) -> None:
        """Make :meth:`run` look for due notifications now (e.g. after a command queued
        some) instead of at its next poll."""
        self._wake.set()

    async def run(self, platform: str, sender: Sender, *, stop: asyncio.Event) -> None:
        """Deliver ``platform``'s notifications through ``sender`` until ``stop`` is set.  A
        failing round is tried again at the next poll: the database unreachable is one log
        line when it starts and one when it ends (not a traceback every poll); any other
        failure is logged with its stack."""
        with contextlib.ExitStack() as listening:
            if self.bell is not None:
                listening.enter_context(self.bell.listening(self.wake))
            await self._run(platform, sender, stop)

    async def _run(self, platform: str, sender: Sender, stop: asyncio.Event) -> None:
        outage: str | None = None
        while not stop.is_set():
            self._wake.clear()
            try:
                await self.deliver_due(platform, sender)
            except StoreError as exc:
                if outage is None:
                    log.error(
                        "outbox for %s: %s; trying again every %gs (said once)",
                        platform, exc, self.poll,
                    )  # fmt: skip
                outage = type(exc).__name__
            except Exception:  # one bad round must not stop delivery for good
                log.exception("outbox round for %s failed", platform)
            else:
                if outage is not None:
                    log.info("outbox for %s: the database is back", platform)
                    outage = None
            waiters = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._wake.wait())]
            await asyncio.wait(waiters, timeout=self.poll, return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiters:
                waiter.cancel()

    async def deliver_due(self, platform: str, sender: Sender) -> int:
        """Claim and deliver what is due for ``platform`` now, until nothing is left;
        how many were delivered.  While it sends, its claims are renewed every third of the
        lease (by the database's clock), so a slow sender never loses what it holds to
        another worker."""
        await self._take_over(platform)
        renewing = asyncio.ensure_future(self._renew(platform))
        try:
            return await self._deliver_all(platform, sender)
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing

    async def _renew(self, platform: str) -> None:
        """Renew this worker's claims on ``platform`` every third of the lease, until
        cancelled (a failed renewal is logged and tried again at the next)."""
        every = max(self.lease.total_seconds() / 3, 0.01)
        while True:
            await asyncio.sleep(every)
            try:
                await self.store.renew_claims(platform, self.owner, self.lease)
            except Exception as exc:  # the next renewal may work; the send goes on
                log.warning("could not renew the outbox's claims: %s", type(exc).__name__)

    async def _deliver_all(self, platform: str, sender: Sender) -> int:
        sent = 0
        while True:
            claimed = await self.store.claim_due(
                platform, self.owner, self.clock.now(), self.lease, self.batch
            )
            # One lane per chat (per person for direct messages), the lanes side by side:
            # a chat the platform holds back (a 429, its pacing) never holds another up,
            # and within a chat the order of the claim (when each was due) is kept.
            lanes: dict[str, list[Notification]] = {}
            for note in claimed:
                lanes.setdefault(_lane(note), []).append(note)
            self._redirected.clear()
            done = await asyncio.gather(*(self._deliver_lane(n, sender) for n in lanes.values()))
            sent += sum(done)
            # A refused direct message is due again at once, in the chat.
            again = bool(self._redirected)
            if len(claimed) < self.batch and not again:  # a short batch: nothing else due
                return sent

    async def _deliver_lane(self, notes: list[Notification], sender: Sender) -> int:
        """Deliver one chat's notifications in order; how many were delivered."""
        sent = 0
        for note in notes:
            sent += await self._deliver(note, sender)
        return sent

    async def _take_over(self, platform: str) -> None:
        """Beat this worker's heartbeat, and free the claims of workers known to be gone
        (their heartbeat stopped, or their process here ended: killed while sending) rather
        than letting their notifications wait for the lease to run out."""
        now = time.monotonic()
        if self._looked is not None and now - self._looked < self.poll:
            return
        self._looked = now
        await self.store.beat(self.owner, socket.gethostname(), os.getpid())
        for owner in await self.store.claim_owners(platform, self.clock.now()):
            if owner != self.owner and await self.store.worker_gone(owner):
                freed = await self.store.release_claims(platform, owner)
                log.info("took over %d notification(s) from %s, which is gone", freed, owner)

    async def _deliver(self, note: Notification, sender: Sender) -> int:
        assert note.id is not None, "claimed notifications are stored ones"
        if note.recipient.is_bot:
            # What the sessions tell every opponent (your turn, game over) reaches the bot too;
            # it reads nothing, so it is done with, not sent.
            await self.store.mark_sent(note.id, self.owner, self.clock.now())
            return 0
        if not note.direct and note.chat is None:
            # A private notice to a player who turned direct messages off, or whom the
            # platform refused one: the game's board in its chat already said it.
            await self.store.give_up(note.id, self.owner, self.clock.now(), "no direct messages")
            return 0
        # No key lets the platform tell a resend (Telegram): marked first, so a worker killed
        # while sending leaves it given up, never sent twice.
        once = note.direct and at_most_once(sender)
        if once and not await self.store.mark_sending(note.id, self.owner):
            return 0
        try:
            # Said in its reader's language now (issue 43: stored unsaid).
            with i18n.use(await language_of(self.store, note)):
                await sender.send(note)
        except DirectRefused as exc:
            if note.direct and note.recipient.player_id is not None:
                await self.store.direct_refused(note.recipient.player_id, self.clock.now())
            if note.direct and note.chat is not None:
                # Once: from now on it is a chat message, and a chat refusal gives up.
                log.info("direct message %d refused (%s): sending it in the chat", note.id, exc)
                at = self.clock.now()
                await self.store.retry_later(
                    note.id, self.owner, at, f"direct message refused: {exc}",
                    direct=False, now=at,
                )  # fmt: skip
                self._redirected.add(note.id)
                return 0
            await self._give_up(note, f"refused: {exc}")
        except DeliveryRefused as exc:
            await self._give_up(note, f"refused: {exc}")
        except MaybeDelivered as exc:
            if once:
                await self._give_up(note, f"{MAYBE_SENT}: {exc}")
            else:
                await self._again(note, exc)
        except Throttled as exc:
            at = self.clock.now()
            later = at + timedelta(seconds=exc.seconds)
            log.info("notification %d: its chat is paced (%s); again at %s", note.id, exc, later)
            await self.store.retry_later(
                note.id, self.owner, later, str(exc), counted=False, now=at
            )
        except Exception as exc:  # the sender's transient failures, whatever their type
            await self._again(note, exc)
        else:
            sent_at = self.clock.now()
            if not await self.store.mark_sent(note.id, self.owner, sent_at):
                log.warning("notification %d was delivered after its claim ended", note.id)
            lag = (sent_at - note.deliver_after).total_seconds()
            metrics.delivered(note.recipient.platform, lag)
            return 1
        return 0

    async def _again(self, note: Notification, exc: Exception) -> None:
        """A transient failure: ``note`` is tried again after the backoff, or given up after
        :attr:`max_attempts` failures."""
        assert note.id is not None
        attempts = note.attempts + 1
        error = f"{type(exc).__name__}: {exc}"
        if attempts >= self.max_attempts:
            await self._give_up(note, f"{attempts} attempts failed, last: {error}")
        else:
            at = self.clock.now()
            later = at + self.backoff * 2 ** (attempts - 1)
            log.info("notification %d not delivered (%s); again at %s", note.id, error, later)
            await self.store.retry_later(note.id, self.owner, later, error, now=at)

    async def _give_up(self, note: Notification, why: str) -> None:
        assert note.id is not None
        log.warning(
            "giving up notification %d (%s to %s:%s): %s",
            note.id,
            note.kind,
            note.recipient.platform,
            note.recipient.user_id,
            why,
        )
        await self.store.give_up(note.id, self.owner, self.clock.now(), why)


def at_most_once(sender: Sender) -> bool:
    """Whether ``sender``'s platform has no key to recognise a message sent again (Telegram;
    Discord has its nonce): then its direct notices (a "your turn" by direct message, which
    the game's chat already shows on its board) are sent at most once across a crash, rather
    than at least once.  A sender says so with ``at_most_once = True``."""
    return bool(getattr(sender, "at_most_once", False))


def _lane(note: Notification) -> str:
    """The lane a notification is delivered in: its person's direct chat, or its chat."""
    if note.direct:
        return f"direct {note.recipient.platform} {note.recipient.user_id}"
    return f"chat {note.chat.chat_id}" if note.chat is not None else "no chat"
