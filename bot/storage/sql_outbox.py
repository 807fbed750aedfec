"""The outbox in SQL (:class:`SqlOutbox`): notifications written in the transaction of the
change they report (:func:`insert_notes`), claimed by delivery workers with a lease, marked
sent, retried or given up, and dropped once their game makes them obsolete
(:func:`cancel_obsolete_notes`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from bot.core.notification import Kind, Notification
from bot.messages import Action, Text
from bot.storage.dbapi import Conn, Row, from_ts, to_ts
from bot.storage.errors import BadRow
from bot.storage.rows import Backlog
from bot.storage.sql_base import SqlBase, db_clock, skew
from bot.storage.sql_clock import on_db_clock
from bot.storage.sql_rows import NOTE_RETURNING, read_notification

__all__ = [
    "DROP_NOTE",
    "OBSOLETE_NOTE",
    "SENDING",
    "UNSURE",
    "SqlOutbox",
    "cancel_obsolete_notes",
    "filled",
    "insert_notes",
]

log = logging.getLogger(__name__)


#: The outcome of an undelivered notification while a worker hands it to a platform that may
#: deliver it at most once (:meth:`SqlOutbox.mark_sending`).
SENDING = "sending"
#: Why such a notification was given up: its worker stopped while sending it.
UNSURE = "its sender stopped while sending it: not sent again (at most once)"


# -- writing notifications ----------------------------------------------------------------------


def _fill_text(text: Text, key: str, value: str) -> Text:
    # (a notice's sentences stay unsaid: the id goes into their values, issue 43)
    return text.replaced(key, value)


def filled(
    note: Notification, game_id: int | None = None, challenge_id: int | None = None
) -> Notification:
    """``note`` with the id of the game or challenge created in the same transaction put in:
    ``{game}`` / ``{challenge}`` in its text, action ids and dedupe key are replaced, and the id
    is set (unless the note already names one)."""
    if game_id is not None and note.game_id is None:
        note = replace(_fill(note, "{game}", str(game_id)), game_id=game_id)
    if challenge_id is not None and note.challenge_id is None:
        note = replace(_fill(note, "{challenge}", str(challenge_id)), challenge_id=challenge_id)
    return note


def _fill(note: Notification, key: str, number: str) -> Notification:
    return replace(
        note,
        text=_fill_text(note.text, key, number),
        actions=tuple(Action(a.label, a.id.replace(key, number)) for a in note.actions),
        dedupe=None if note.dedupe is None else note.dedupe.replace(key, number),
    )


_INSERT_NOTE = (
    "INSERT INTO notifications (platform, user_id, name, player_id, chat_id, kind, game_id, "
    "challenge_id, ply, text, actions, direct, created_at, deliver_after, dedupe) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe) DO NOTHING"
)


def _note_values(note: Notification) -> tuple[Any, ...]:
    who = note.recipient
    return (
        who.platform,
        who.user_id,
        who.name,
        who.player_id,
        None if note.chat is None else note.chat.chat_id,
        None if note.kind is None else str(note.kind),
        note.game_id,
        note.challenge_id,
        note.ply,
        None if note.text is None else note.text.to_json(),
        json.dumps([[a.label, a.id] for a in note.actions], ensure_ascii=False),
        int(note.direct),
        to_ts(note.created_at or note.deliver_after),
        None if note.deliver_after is None else to_ts(note.deliver_after),
        note.dedupe,
    )


async def insert_notes(conn: Conn, notes: Iterable[Notification]) -> None:
    """Add ``notes`` to the outbox inside the caller's transaction, timed by the database's
    clock (:func:`~bot.storage.sql_clock.on_db_clock`); one whose ``dedupe`` key is already
    stored is not added."""
    # ON CONFLICT on the dedupe key only: a NOT NULL or foreign-key violation still fails the
    # whole transaction (INSERT OR IGNORE would silently drop the row and commit the rest).
    rows = [_note_values(n) for n in await on_db_clock(conn, notes)]
    if rows:
        await conn.executemany(_INSERT_NOTE, rows)


_PLY_KINDS = ", ".join(f"'{k}'" for k in Kind if k.about_ply)
_ENDED_KINDS = ", ".join(f"'{k}'" for k in Kind if k.lapses_when_game_ends)
# When an undelivered notification has become obsolete, judged against its game's row ``g``:
# "your turn" / a reminder for a ply that is no longer the game's, anything about a running
# game once it is over, a draw offer or takeback request no longer standing.
OBSOLETE_NOTE = (
    f"((notifications.kind IN ({_PLY_KINDS}) AND notifications.ply IS NOT NULL "
    "AND notifications.ply <> g.ply) "
    f"OR (notifications.kind IN ({_ENDED_KINDS}) AND g.status <> 'active') "
    f"OR (notifications.kind = '{Kind.DRAW_OFFERED}' AND g.draw_offer_by IS NULL) "
    f"OR (notifications.kind = '{Kind.TAKEBACK_REQUESTED}' AND g.takeback_by IS NULL))"
)
# The dedupe key is released, so the same event may be announced again (a ply played again
# after a takeback).
DROP_NOTE = (
    "UPDATE notifications SET done_at = ?, outcome = 'obsolete', dedupe = NULL, "
    "lease_owner = NULL, lease_until = NULL "
)


async def cancel_obsolete_notes(conn: Conn, game_id: int, now: datetime) -> int:
    """Drop the undelivered notifications of a game that its row now makes obsolete (see
    :data:`OBSOLETE_NOTE`), inside the caller's transaction; how many."""
    # A notification a worker holds (or held: whether its lease ended is the database's
    # clock's business, not this process's) is left alone: being sent, it finishes as sent;
    # released or taken over, the next claim drops it as obsolete.
    changed = await conn.execute(
        DROP_NOTE + "WHERE game_id = ? AND done_at IS NULL AND lease_until IS NULL "
        "AND EXISTS (SELECT 1 FROM games g "
        f"WHERE g.id = notifications.game_id AND {OBSOLETE_NOTE})",
        (to_ts(now), game_id),
    )
    return changed


class SqlOutbox(SqlBase):
    """The outbox methods of the store."""

    async def queue_notes(self, notes: Sequence[Notification]) -> None:
        """Store notifications no other change carries (the edit of an expired challenge's
        card), in one transaction; one whose ``dedupe`` key is already stored is not added."""
        if notes:
            await self._write(lambda c: insert_notes(c, notes))

    async def notifications_for(self, player_id: int) -> list[Notification]:
        """Every notification addressed to a player that is still to be delivered or was
        delivered, oldest first (for tests and tools; dropped and given-up ones are left
        out)."""
        rows = await self._rows(
            f"SELECT {NOTE_RETURNING} FROM notifications WHERE player_id = ? "
            f"AND (outcome IS NULL OR outcome IN ('sent', '{SENDING}')) ORDER BY id",
            (player_id,),
        )
        return [read_notification(r) for r in rows]

    async def due_notifications(
        self, platform: str, now: datetime, limit: int = 50
    ) -> list[Notification]:
        """Undelivered notifications for ``platform`` whose delivery time has come, oldest
        first, without claiming them (for tests and tools: workers use :meth:`claim_due`)."""
        rows = await self._rows(
            f"SELECT {NOTE_RETURNING} FROM notifications WHERE platform = ? AND done_at IS NULL "
            "AND deliver_after <= ? ORDER BY deliver_after, id LIMIT ?",
            (platform, to_ts(now), limit),
        )
        return [read_notification(r) for r in rows]

    async def claim_due(
        self, platform: str, owner: str, now: datetime, lease: timedelta, limit: int = 20
    ) -> list[Notification]:
        """Claim up to ``limit`` due notifications of ``platform`` for the worker ``owner``
        until ``now + lease``, oldest first; obsolete ones are dropped instead (and not
        returned), as is a row that cannot be read (with a log line).  Fewer than ``limit``
        claimed means no other is due (but for an unreadable row dropped).

        One conditional ``UPDATE ... RETURNING`` (again only while obsolete rows were dropped
        from a full pick): a row is taken only if it is unclaimed or
        its lease has ended, so two workers never hold the same one (PostgreSQL adds ``FOR
        UPDATE SKIP LOCKED`` to the inner select so they do not wait on each other either).
        """
        # Leases by the database's clock (processes' clocks may disagree), and due by it too:
        # notes are stored on it (sql_clock.on_db_clock).  A clock far off it (a test's fake
        # clock) judges what is due by itself, with the database's clock as a bound.
        stamp = to_ts(await self.clock_now(now))
        at, until = self.db_time(), self.db_time(lease)
        free = f"done_at IS NULL AND (lease_until IS NULL OR lease_until <= {at})"

        # A picked row whose game has made it obsolete is dropped in the same statement that
        # leases the others (both judged against the row as it was: SQL evaluates every SET
        # expression on the old row); ``dropped`` tells them apart in what it returns.
        stale = (
            "(game_id IS NOT NULL AND EXISTS (SELECT 1 FROM games g "
            f"WHERE g.id = notifications.game_id AND {OBSOLETE_NOTE}))"
        )
        take = (
            "WITH picked AS (SELECT id FROM notifications WHERE platform = ? "
            f"AND done_at IS NULL AND outcome IS NULL AND deliver_after <= ? "
            f"AND deliver_after <= {at} AND (lease_until IS NULL OR lease_until <= {at}) "
            f"ORDER BY deliver_after, id LIMIT ?{self.SKIP_LOCKED}) "
            f"UPDATE notifications SET done_at = CASE WHEN {stale} THEN ? ELSE done_at END, "
            f"outcome = CASE WHEN {stale} THEN 'obsolete' ELSE outcome END, "
            f"dedupe = CASE WHEN {stale} THEN NULL ELSE dedupe END, "
            f"lease_owner = CASE WHEN {stale} THEN NULL ELSE ? END, "
            f"lease_until = CASE WHEN {stale} THEN NULL ELSE {until} END "
            f"WHERE id IN (SELECT id FROM picked) AND {free} "
            f"RETURNING {NOTE_RETURNING}, outcome AS dropped"
        )

        async def claim(conn: Conn) -> list[Row]:
            # The rows to take are picked once, in a CTE: as a plain ``IN (subquery)``
            # PostgreSQL may run a locking subquery again per row and take more than ``limit``.
            # Obsolete rows among them are dropped; while a full pick had some, pick again,
            # so fewer than ``limit`` rows claimed means none is left due.
            # A notice sent at most once whose sender stopped while sending it (its claim
            # ended or was freed with the notice still marked as being sent) is not sent
            # again: it may have gone out.
            await conn.execute(
                f"UPDATE notifications SET done_at = ?, outcome = 'failed', last_error = "
                f"'{UNSURE}', lease_owner = NULL, lease_until = NULL WHERE platform = ? "
                f"AND done_at IS NULL AND outcome = '{SENDING}' "
                f"AND (lease_until IS NULL OR lease_until <= {at})",
                (stamp, platform),
            )
            taken: list[Row] = []
            want = limit
            while want > 0:
                rows: list[Row] = await conn.fetch(take, (platform, stamp, want, stamp, owner))
                live = [r for r in rows if r["dropped"] is None]
                taken += live
                if len(rows) < want or len(live) == len(rows):
                    break
                want -= len(live)
            return taken

        claimed = []
        for row in sorted(await self._write(claim), key=lambda r: (r["deliver_after"], r["id"])):
            try:
                claimed.append(read_notification(row))
            except BadRow as exc:
                log.error("dropping a notification that cannot be read: %s", exc)
                await self._finish_note(row["id"], owner, now, "failed", str(exc))
        return claimed

    async def _finish_note(
        self, note_id: int, owner: str, now: datetime, outcome: str, error: str | None
    ) -> bool:
        changed = await self._write(
            lambda c: c.execute(
                "UPDATE notifications SET done_at = ?, outcome = ?, last_error = ?, "
                "lease_owner = NULL, lease_until = NULL "
                "WHERE id = ? AND lease_owner = ? AND done_at IS NULL",
                (to_ts(now), outcome, None if error is None else error[:500], note_id, owner),
            )
        )
        return changed == 1

    async def mark_sending(self, note_id: int, owner: str) -> bool:
        """Record, before a notification that must go at most once is handed to its platform,
        that the worker ``owner`` is sending it: should the worker stop before
        :meth:`mark_sent` (killed), the next claim gives it up instead of sending it again
        (see :meth:`claim_due`).  ``False`` if ``owner`` no longer holds the claim (then it
        must not be sent)."""
        changed = await self._write(
            lambda c: c.execute(
                f"UPDATE notifications SET outcome = '{SENDING}' WHERE id = ? "
                "AND lease_owner = ? AND done_at IS NULL AND outcome IS NULL",
                (note_id, owner),
            )
        )
        return changed == 1

    async def mark_sent(self, note_id: int, owner: str, now: datetime) -> bool:
        """Record that the worker ``owner`` delivered a notification it claimed; ``False`` if
        it no longer held the claim (its lease ended and another worker took it)."""
        return await self._finish_note(note_id, owner, now, "sent", None)

    async def give_up(self, note_id: int, owner: str, now: datetime, error: str) -> bool:
        """Stop trying to deliver a claimed notification (``error`` says why); ``False`` if
        ``owner`` no longer held the claim."""
        return await self._finish_note(note_id, owner, now, "failed", error)

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
        """Release a claimed notification to be tried again at ``when``, counting a failed
        attempt (``direct=False``: deliver it in the game's chat from now on, the fallback for
        a refused direct message, which does not count as an attempt; ``counted=False``: a
        wait the platform asked for, no attempt either); ``False`` if ``owner`` no longer held
        the claim.  ``now``: the caller's clock when it chose ``when``, which is then moved
        onto the database's clock (as :func:`~bot.storage.sql_clock.on_db_clock` does)."""
        if counted is None:
            counted = direct is None

        async def retry(conn: Conn) -> bool:
            at = when if now is None else when + skew(now, await db_clock(conn))
            changed = await conn.execute(
                "UPDATE notifications SET attempts = attempts + ?, deliver_after = ?, "
                "last_error = ?, direct = COALESCE(?, direct), lease_owner = NULL, "
                "lease_until = NULL, outcome = NULL "
                "WHERE id = ? AND lease_owner = ? AND done_at IS NULL",
                (
                    int(counted),
                    to_ts(at),
                    error[:500],
                    None if direct is None else int(direct),
                    note_id,
                    owner,
                ),
            )
            return changed == 1

        return await self._write(retry)

    async def claim_boards(
        self, game_id: int, chat_id: str, owner: str, now: datetime, lease: timedelta
    ) -> list[int]:
        """Claim a game's undelivered committed boards (:attr:`Kind.BOARD`, due or not) for
        its chat ``chat_id`` for the worker ``owner`` until ``now + lease``: the adapter
        answering a move there posts the board itself and marks them sent.  Those another
        worker holds are left to it; an answer in another chat (a move typed privately)
        claims none: the game's chat still gets its board."""
        at, until = self.db_time(), self.db_time(lease)
        rows = await self._write(
            lambda c: c.fetch(
                f"UPDATE notifications SET lease_owner = ?, lease_until = {until} "
                f"WHERE game_id = ? AND chat_id = ? AND kind = '{Kind.BOARD}' "
                f"AND done_at IS NULL AND (lease_until IS NULL OR lease_until <= {at}) "
                "RETURNING id",
                (owner, game_id, chat_id),
            )
        )
        return sorted(int(r["id"]) for r in rows)

    async def board_owners(self, game_id: int, now: datetime) -> list[tuple[str, str]]:
        """The (platform, worker) pairs holding unexpired claims on a game's undelivered
        committed boards."""
        rows = await self._rows(
            "SELECT DISTINCT platform, lease_owner FROM notifications WHERE game_id = ? "
            f"AND kind = '{Kind.BOARD}' AND done_at IS NULL AND lease_until > {self.db_time()} "
            "ORDER BY platform, lease_owner",
            (game_id,),
        )
        return [(str(r["platform"]), str(r["lease_owner"])) for r in rows]

    async def direct_refused(self, player_id: int, now: datetime) -> None:
        """Remember that the platform refused a direct message to a player: none is tried
        again (their notifications read as not direct) until they turn direct messages on
        again (:meth:`~bot.storage.sql_players.SqlPlayers.set_settings`) or start the bot
        (:meth:`direct_reachable`)."""
        await self._write(
            lambda c: c.execute(
                "UPDATE players SET dm_refused_at = ? WHERE id = ?", (to_ts(now), player_id)
            )
        )

    async def direct_reachable(self, platform: str, user_id: str) -> bool:
        """Forget a refusal of direct messages to a player (they started the bot); whether
        there was one."""
        changed = await self._write(
            lambda c: c.execute(
                "UPDATE players SET dm_refused_at = NULL WHERE platform = ? AND user_id = ? "
                "AND dm_refused_at IS NOT NULL",
                (platform, user_id),
            )
        )
        return bool(changed)

    async def outbox_backlog(self, now: datetime) -> list[Backlog]:
        """Per platform: how many notifications are due and undelivered at ``now``, and how
        many seconds the oldest of them has waited (for the metrics), by the database's
        clock (see :meth:`~bot.storage.sql_base.SqlBase.clock_now`)."""
        now = await self.clock_now(now)
        rows = await self._rows(
            "SELECT platform, COUNT(*) AS due, MIN(deliver_after) AS oldest FROM notifications "
            "WHERE done_at IS NULL AND deliver_after <= ? GROUP BY platform ORDER BY platform",
            (to_ts(now),),
        )
        backlog = []
        for row in rows:
            try:
                waited = max(0.0, (now - from_ts(row["oldest"])).total_seconds())
            except ValueError:
                waited = 0.0
            backlog.append(Backlog(str(row["platform"]), int(row["due"]), waited))
        return backlog

    async def claim_owners(self, platform: str, now: datetime) -> list[str]:
        """The workers holding unexpired claims on ``platform``'s undelivered notifications."""
        rows = await self._rows(
            "SELECT DISTINCT lease_owner FROM notifications WHERE platform = ? "
            f"AND done_at IS NULL AND lease_until > {self.db_time()} ORDER BY lease_owner",
            (platform,),
        )
        return [str(r["lease_owner"]) for r in rows]

    async def release_claims(self, platform: str, owner: str) -> int:
        """Free ``owner``'s claims on ``platform``'s undelivered notifications (a worker known
        to be gone), so any worker may take them at once; how many."""
        return await self._write(
            lambda c: c.execute(
                "UPDATE notifications SET lease_owner = NULL, lease_until = NULL "
                "WHERE platform = ? AND lease_owner = ? AND done_at IS NULL",
                (platform, owner),
            )
        )

    async def renew_claims(self, platform: str, owner: str, lease: timedelta) -> int:
        """Extend every claim ``owner`` holds on ``platform``'s undelivered notifications to
        ``lease`` from now by the database's clock (a sender still sending keeps what it
        took); how many."""
        return await self._write(
            lambda c: c.execute(
                f"UPDATE notifications SET lease_until = {self.db_time(lease)} "
                "WHERE platform = ? AND lease_owner = ? AND done_at IS NULL",
                (platform, owner),
            )
        )

    async def cancel_obsolete(self, game_id: int, now: datetime) -> int:
        """Cancel a game's undelivered notifications that its current state makes obsolete;
        how many.  (Every change of a game in this store already does this inside its own
        transaction; this is for tools and other writers.)"""
        return await self._write(lambda c: cancel_obsolete_notes(c, game_id, now))

    async def prune_notifications(self, before: datetime) -> int:
        """Delete notifications delivered, dropped or given up before ``before``, and those
        never delivered although due since before then (a platform no longer served); how
        many.  First, undelivered notifications whose times cannot be read (they would never
        be due, or held for ever) are set aside: given up, with a log line each."""
        await self._set_aside_unreadable()
        stamp = to_ts(before)
        changed = await self._write(
            lambda c: c.execute(
                "DELETE FROM notifications WHERE (done_at IS NOT NULL AND done_at < ?) "
                "OR (done_at IS NULL AND deliver_after < ? AND created_at < ?)",
                (stamp, stamp, stamp),
            )
        )
        return changed

    async def _set_aside_unreadable(self) -> int:
        """Give up the undelivered notifications whose delivery time, creation time or lease
        cannot be read, each with a log line; how many."""
        rows = await self._rows(
            "SELECT id, deliver_after, created_at, lease_until FROM notifications "
            "WHERE done_at IS NULL ORDER BY id"
        )
        bad: list[int] = []
        for row in rows:
            for column in ("deliver_after", "created_at", "lease_until"):
                value = row[column]
                if value is None and column == "lease_until":
                    continue
                try:
                    from_ts(value)
                except ValueError:
                    log.error(
                        "notification %s set aside: its %s %r cannot be read",
                        row["id"], column, str(value)[:40],
                    )  # fmt: skip
                    bad.append(int(row["id"]))
                    break
        if bad:
            marks = ", ".join("?" for _ in bad)

            async def set_aside(conn: Conn) -> None:
                await conn.execute(
                    f"UPDATE notifications SET done_at = {self.db_time()}, outcome = 'failed', "
                    "last_error = 'its times cannot be read', lease_owner = NULL, "
                    f"lease_until = NULL WHERE id IN ({marks}) AND done_at IS NULL",
                    bad,
                )

            await self._write(set_aside)
        return len(bad)
