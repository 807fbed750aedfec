"""Times one process writes for another to compare, moved onto the database's clock in the
transaction that writes them (issue 48): a notification's due time (:func:`on_db_clock`), a
game's deadline and alarm (:func:`deadline_on_db_clock`), and any other time a writer works
out from its own clock (a tournament's start-by time, a vacation: :func:`clock_gap`).  A
process whose clock is a few minutes off the database's thus neither lets another process post
a board its answer is about to post, nor holds back the fallback for a lost answer, nor moves
a deadline; see :func:`~bot.storage.sql_base.skew` for which differences count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from bot.core.notification import Notification
from bot.storage.dbapi import Conn, Row, from_ts, one, to_ts
from bot.storage.sql_base import db_clock, skew
from bot.storage.sql_rows import GAME_COLUMNS, alarm_text, read_game, was_reminded

__all__ = ["changed_game", "clock_gap", "deadline_on_db_clock", "on_db_clock"]


async def changed_game(conn: Conn, update: str, values: Sequence[Any]) -> Row | None:
    """Run a game's ``update`` (an ``UPDATE games ... WHERE`` to which ``RETURNING`` is
    added): its row as changed, or ``None`` if none was.  The same statement reads the
    database's clock, kept for the rest of the transaction (:attr:`~bot.storage.dbapi.Conn.
    tx_clock`), so the deadline and the notes of the change are moved onto it without a
    statement of their own."""
    row = await conn.fetchrow(f"{update}RETURNING {GAME_COLUMNS}, {conn.now_sql} AS db_now", values)
    if row is not None:
        conn.keep_clock(from_ts(row["db_now"]))
    return row


async def clock_gap(conn: Conn, now: datetime) -> timedelta:
    """What moves the times a process worked out from its clock, which reads ``now``, onto
    the database's clock (read on ``conn``; see :func:`~bot.storage.sql_base.skew`): add it
    to each of them before they are written."""
    return skew(now, await db_clock(conn))


async def on_db_clock(conn: Conn, notes: Iterable[Notification]) -> list[Notification]:
    """``notes`` with their times moved onto the database's clock (read on ``conn``): a note
    raised at ``created_at`` by its process's clock, due ``deliver_after``, is stored as
    raised at the database's now and due as long after that (see
    :func:`~bot.storage.sql_base.skew`).  So another process, whatever its own clock, finds a
    board due when its answer's grace has really passed, no earlier and no later.  A note
    without ``created_at`` is stored as it is."""
    notes = list(notes)
    if not any(n.created_at is not None for n in notes):
        return notes
    db_now = await db_clock(conn)
    moved = []
    for note in notes:
        if note.created_at is not None:
            gap = skew(note.created_at, db_now)
            if gap:
                note = replace(
                    note,
                    created_at=note.created_at + gap,
                    deliver_after=note.deliver_after + gap,
                )
        moved.append(note)
    return moved


async def deadline_on_db_clock(conn: Conn, row: Row, now: datetime) -> Row:
    """A game's stored row whose deadline was just set from ``now`` (the writing process's
    clock), with that deadline and its alarm moved onto the database's clock (read on
    ``conn``, see :func:`~bot.storage.sql_base.skew`), so the sweep of any process, whatever
    its own clock, calls time when the time per move has really run out."""
    if row["deadline_at"] is None:
        return row
    gap = skew(now, await db_clock(conn))
    if not gap:
        return row
    game = read_game(row)
    if game.deadline_at is None:
        return row
    due = game.deadline_at + gap
    moved = await conn.fetchrow(
        f"UPDATE games SET deadline_at = ?, alarm_at = ? WHERE id = ? RETURNING {GAME_COLUMNS}",
        (to_ts(due), alarm_text(due, game.time_per_move, was_reminded(game)), game.id),
    )
    return one(moved)
