"""The clocks of correspondence play: reminders, losses (or aborts) on time, the sweeper that
finds them, and vacations (``away`` / ``back``) that pause a player's clocks."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta

from bot import metrics
from bot.core.i18n import BadValue
from bot.core.notification import Kind, Notification
from bot.core.status import GameStatus
from bot.delivery.notify import dedupe_key
from bot.limits import MAX_ID, ascii_number
from bot.messages import Reply, User
from bot.sessions import (
    challenges,
    finish,
    leases,
    loading,
    policy,
    presentation,
    texts,
    tournaments,
)
from bot.sessions import clock as clk
from bot.sessions.context import Context, Damaged, Refusal
from bot.storage import BadRow, GameRow, PlayerRow, StoreBusy, StoreError, StoreUnavailable

__all__ = ["away", "back", "expire", "run_clocks", "sweep"]

log = logging.getLogger(__name__)

#: The name of the clock sweep's lease among bot processes (see :func:`run_clocks`).
SWEEP_LEASE = "clock sweep"

#: Delivered notifications are kept this long, then pruned by the sweeper.
KEEP_SENT = timedelta(days=30)


async def expire(
    ctx: Context, row: GameRow, now: datetime, at: datetime | None = None
) -> GameRow | None:
    """Call time on an active game whose deadline passed: the player to move loses, or the
    game is aborted with no result if its first move was never made.  ``at`` is the paced
    delivery time of the notifications.  ``None`` if the game changed meanwhile."""
    if row.to_move not in (0, 1):
        return None
    title = presentation.title(row)
    late = await loading.player_by_id(ctx, row.seats[row.to_move])
    other = await loading.player_by_id(ctx, row.seats[1 - row.to_move])
    if row.ply == 0:
        ending, winner = finish.NO_FIRST_MOVE, None
        said = [
            (late, texts.aborted_note(row.id, title, None)),
            (other, texts.aborted_note(row.id, title, presentation.mention(late))),
        ]
    else:
        ending, winner = finish.TIMEOUT, 1 - row.to_move
        said = [
            (late, texts.timeout_note(row.id, title, None, presentation.mention(other))),
            (other, texts.timeout_note(row.id, title, presentation.mention(late), None)),
        ]
    return await finish.finish(ctx, row, None, ending, winner, said, now, at=at)


async def _remind(ctx: Context, row: GameRow, due: datetime, now: datetime, at: datetime) -> bool:
    """Send the one reminder of the current move (unless the player turned reminders off)
    and mark it sent; ``False`` if the game changed meanwhile."""
    if row.to_move not in (0, 1):
        return False
    player = await loading.player_by_id(ctx, row.seats[row.to_move])
    notes = []
    if policy.settings_of(player).reminders:
        left = due - now
        hours = max(1, round(left / timedelta(hours=1)))
        notes.append(
            policy.note(
                ctx,
                player,
                Kind.REMINDER,
                texts.reminder_note(row.id, presentation.title(row), hours, due),
                now,
                game_id=row.id,
                chat_id=row.chat_id,
                dedupe=dedupe_key(Kind.REMINDER, row.id, row.ply),
                at=at,
                ply=row.ply,
            )
        )
    updated = await ctx.store.update_game(row, now, notes, reminder_sent_for_ply=row.ply)
    if updated is not None:
        cached = ctx.positions.get(row.id)
        if cached is not None:
            ctx.positions[row.id] = (updated, cached[1])
    return updated is not None


async def sweep(ctx: Context) -> int:
    """Handle the clock work that is due: reminders, losses (or aborts) on time, and the
    tournaments' (:func:`bot.sessions.tournaments.sweep`).

    At start-up this finds everything that fell due while the bot was down; the
    notifications it causes are spread ``sweep_gap`` apart (oldest first, also across
    calls), never sent in a burst.  Deadlines still ahead are left for a later call: they
    live in the store, so nothing needs re-arming in memory.  Returns how many pieces of
    work were done.  Tests call this directly after moving the injected clock.

    Time is judged by the database's clock (deadlines are stored on it: see
    :meth:`~bot.storage.sql_base.SqlBase.clock_now`), so a process whose clock is a few
    minutes off calls time neither early nor late; a test's fake clock, far from it, judges
    by itself.
    """
    now = await ctx.store.clock_now(ctx.now())
    work: list[tuple[datetime, tuple[str, int]]] = []
    for row in await ctx.store.clock_games(now):
        due = row.deadline_at
        if due is None:
            continue
        if due <= now:
            work.append((due, ("timeout", row.id)))
        elif row.reminder_sent_for_ply != row.ply and row.time_per_move:
            when = clk.reminder_at(due, row.time_per_move)
            if when <= now:
                work.append((when, ("reminder", row.id)))
    start = now if ctx.next_free is None else max(now, ctx.next_free)
    done = 0
    for slot, (kind, gid) in clk.pace(work, start, ctx.sweep_gap):
        async with ctx.lock(gid):
            # The row as it is now (not the position: neither a timeout nor a reminder needs
            # the game replayed); the store sets an unreadable one aside.
            try:
                current = await ctx.store.get_game(gid)
            except BadRow:
                continue
            due = None if current is None else current.deadline_at
            if current is None or current.status != GameStatus.ACTIVE or due is None:
                continue
            try:
                await loading.check_seats(ctx, current)  # a seat naming no player: set aside
                if kind == "timeout" and due <= now:
                    handled = await expire(ctx, current, now, slot) is not None
                elif (
                    kind == "reminder"
                    and due > now
                    and current.reminder_sent_for_ply != current.ply
                ):
                    handled = await _remind(ctx, current, due, now, slot)
                else:
                    handled = False
            except Damaged as exc:
                _set_aside(ctx, gid, str(exc.row))
                continue
            except Refusal:
                continue
            except (StoreBusy, StoreUnavailable):
                raise  # the database, not this game: the round stops, the next one retries
            except (StoreError, ValueError) as exc:  # this game only: the others go on
                _set_aside(ctx, gid, str(exc))
                continue
        ctx.set_aside.pop(gid)
        if handled:
            done += 1
            ctx.next_free = slot + ctx.sweep_gap
    # Tournaments: starts, withdrawals, replays, standings, results (each once).
    return done + await tournaments.sweep(ctx)


def _set_aside(ctx: Context, game_id: int, why: str) -> None:
    """Leave game ``game_id`` out of this round of the sweep (its clock work is tried again
    each round, so it resumes once the row is repaired), with one log line naming the row:
    not repeated while the same damage stays."""
    if ctx.set_aside.get(game_id) != why:
        log.error("clock sweep: game #%s set aside: %s", game_id, why)
    ctx.set_aside[game_id] = why


async def run_clocks(ctx: Context, stop: asyncio.Event, every: float = 30.0) -> None:
    """The sweeper: at start-up, then every ``every`` seconds until ``stop`` is set, run
    :meth:`sweep` and expire old challenges.  A failing round is logged, not fatal.

    Of several bot processes on one database, the one holding the lease on the sweep does the
    rounds (renewing it each round); the others look again every round and take over once a
    lease is left to run out, by a process that stopped or died.  (Two sweeps at once would
    still be safe, every change checking the game's version, but would double the work.)"""
    lease = timedelta(seconds=max(3 * every, 60.0))
    while not stop.is_set():
        try:
            if await leases.claim(ctx, SWEEP_LEASE, lease):
                with metrics.SWEEP_SECONDS.time():
                    await sweep(ctx)
                await challenges.expire_challenges(ctx)
                await ctx.store.prune_notifications(ctx.now() - KEEP_SENT)
                await ctx.store.prune_leases(datetime.now(UTC))
        except StoreError as exc:  # the database is down or busy: one line, no trace
            log.warning("clock sweep round skipped: %s", exc)
        except Exception:  # one bad round must not stop the clocks of every game
            log.exception("clock sweep failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=every)
    # Stopping on purpose: another process may take the sweep over at once.
    with contextlib.suppress(StoreError):
        await leases.release(ctx, SWEEP_LEASE)


async def _away_change(
    ctx: Context, me: PlayerRow, now: datetime, until: datetime | None, spans: list[clk.AwaySpan]
) -> tuple[int, int]:
    """Store a vacation change: deadlines of the games where ``me`` is to move lose what
    is left of a running vacation and gain the new one; opponents are told.  Returns
    (games paused or resumed, opponents told)."""
    running_end = max((s.end for s in spans if s.start <= now < s.end), default=now)
    games = await ctx.store.games_of(me.id, (GameStatus.ACTIVE,), limit=1_000_000)
    deadlines: list[tuple[GameRow, datetime]] = []
    notes: list[Notification] = []
    for g in games:
        seat = loading.seat(me, g)
        if seat is None or g.status is not GameStatus.ACTIVE:
            continue
        try:
            await loading.check_seats(ctx, g)  # a damaged game is set aside, the others go on
        except Refusal:
            continue
        opponent = await loading.player_by_id(ctx, g.seats[1 - seat])
        text = texts.away_note(presentation.mention(me), until, g.id, presentation.title(g))
        notes.append(
            policy.note(
                ctx, opponent, Kind.OPPONENT_AWAY, text, now, game_id=g.id, chat_id=g.chat_id
            )
        )
        due = g.deadline_at
        if g.to_move == seat and due is not None:
            base = due - (running_end - now)  # take back the running vacation's pause
            pushed = base if until is None else base + (until - now)
            deadlines.append((g, pushed))
    if not await ctx.store.set_away(me.id, now, until, deadlines, notes):
        raise Refusal(texts.game_changed_try_again())
    loading.forget_player(ctx, me.id)
    for g, _ in deadlines:
        ctx.positions.pop(g.id, None)
    return len(deadlines), len(notes)


async def away(ctx: Context, user: User, days: int | str) -> Reply:
    """Go on vacation for ``days`` days: your clocks stop (deadlines move by the time
    away), at most 14 days per calendar year; your opponents are told."""
    me = await loading.player(ctx, user)
    # ASCII digits only, and bounded before converting (the check below names the number).
    count = days if isinstance(days, int) else ascii_number(days.strip(), MAX_ID)
    if count is None:
        raise Refusal(texts.away_needs_days())
    now = ctx.now()
    spans = [clk.AwaySpan(a, b) for a, b in await ctx.store.away_spans(me.id)]
    try:
        span = clk.check_away(spans, now, count)
    except BadValue as exc:
        raise Refusal(texts.bad_value(exc)) from None
    paused, _ = await _away_change(ctx, me, now, span.end, spans)
    kept = [clk.AwaySpan(s.start, min(s.end, now)) for s in spans if s.start <= now]
    left = clk.away_days_left([*kept, span], now.year)
    return Reply(texts.away(presentation.mention(me), span.end, paused, left))


async def back(ctx: Context, user: User) -> Reply:
    """End your vacation early: your clocks run again (the unused days are not counted)."""
    me = await loading.player(ctx, user)
    now = ctx.now()
    spans = [clk.AwaySpan(a, b) for a, b in await ctx.store.away_spans(me.id)]
    if not any(s.start <= now < s.end for s in spans):
        raise Refusal(texts.not_away())
    await _away_change(ctx, me, now, None, spans)
    return Reply(texts.welcome_back(presentation.mention(me)))
