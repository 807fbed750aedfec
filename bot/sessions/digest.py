"""The daily digest (issue 46): ``settings digest HH:MM [±HH:MM]|off``.  Once a day at that
local time a player gets one private message listing every game where it is their turn, in
every chat they play in, with the opponent, the time left and a button to its board; nothing
on a day without one.  With the digest on, turn notices by direct message are folded into it
(:func:`fold`): the board in the game's chat still names the player, and the last-day warning
before a timeout (the reminder) still goes out.

The clock sweep sends what is due (:func:`sweep`).  Each day's digest is marked sent in the
transaction that queues it in the outbox (:meth:`~bot.storage.sql_digests.SqlDigests.
send_digest`), so a restart never repeats it; quiet hours hold it back like any notice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, time, timedelta

from bot.core.notification import Kind, Notification
from bot.core.settings import parse_utc_offset
from bot.core.status import GameStatus
from bot.messages import Action, ActionKind, Reply, Text
from bot.sessions import loading, policy, presentation, texts
from bot.sessions.context import Context, Refusal
from bot.storage import PlayerRow
from bot.storage.sql_digests import DigestRow

__all__ = ["describe", "fold", "next_due", "parse_digest", "set_digest", "sweep"]

_TIME = re.compile(r"^(\d{1,2})(?::(\d{2}))?$", re.ASCII)
#: The most games a digest gives a button (the rest are listed without one).
MOST_BUTTONS = 10
#: The most games one digest lists.
MOST_GAMES = 100


def parse_digest(text: str) -> tuple[time, timedelta] | None:
    """A digest time as typed: ``08:00 +01:00`` (offset optional, UTC by default); ``None``
    for ``off``; ``ValueError`` otherwise.

    >>> parse_digest("7:30 -05:00"), parse_digest("off")
    ((datetime.time(7, 30), datetime.timedelta(days=-1, seconds=68400)), None)
    """
    words = text.strip().split(maxsplit=1)
    if not words:
        raise ValueError("no time")
    if words[0].lower() in ("off", "none", "no"):
        return None
    match = _TIME.match(words[0])
    if match is None or int(match.group(1)) > 23 or int(match.group(2) or 0) > 59:
        raise ValueError(words[0])
    offset = parse_utc_offset(words[1]) if len(words) > 1 else timedelta(0)
    return time(int(match.group(1)), int(match.group(2) or 0)), offset


def next_due(at_minute: int, utc_offset: int, after: datetime) -> datetime:
    """The first moment strictly after ``after`` when the local time (UTC plus
    ``utc_offset`` minutes) is ``at_minute`` minutes past midnight.

    >>> from datetime import UTC
    >>> next_due(8 * 60, 60, datetime(2026, 1, 5, 6, 59, tzinfo=UTC)).isoformat()
    '2026-01-05T07:00:00+00:00'
    >>> next_due(8 * 60, 60, datetime(2026, 1, 5, 7, 0, tzinfo=UTC)).isoformat()
    '2026-01-06T07:00:00+00:00'
    """
    offset = timedelta(minutes=utc_offset)
    local = after + offset
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    due = midnight + timedelta(minutes=at_minute)
    if due <= local:
        due += timedelta(days=1)
    return due - offset


def local_day(when: datetime, utc_offset: int) -> str:
    """The local date (``YYYY-MM-DD``) at ``when``."""
    return (when + timedelta(minutes=utc_offset)).date().isoformat()


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _offset(minutes: int) -> str:
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{_clock(abs(minutes))}"


async def describe(ctx: Context, player: PlayerRow) -> Text:
    """The digest part of a player's settings (nothing while it is off)."""
    row = await ctx.store.digest_of(player.id)
    if row is None:
        return Text.of()
    return texts.digest_is(_clock(row.at_minute), _offset(row.utc_offset))


async def set_digest(ctx: Context, me: PlayerRow, value: str) -> Reply:
    """``settings digest HH:MM [±HH:MM]`` or ``settings digest off``.  The digest is a direct
    message: turning it on turns direct messages on."""
    try:
        parsed = parse_digest(value)
    except ValueError:
        raise Refusal(texts.digest_bad(value)) from None
    if parsed is None:
        return Reply(texts.digest_off(bool(await ctx.store.clear_digest(me.id))), private=True)
    at, offset = parsed
    at_minute, utc_offset = at.hour * 60 + at.minute, offset // timedelta(minutes=1)
    due = next_due(at_minute, utc_offset, ctx.now())
    await ctx.store.set_digest(me.id, at_minute, utc_offset, due)
    turned_on = not me.settings.direct
    if turned_on:
        await ctx.store.set_settings(me.id, me.settings.change("dm", "on"))
        loading.forget_player(ctx, me.id)
    said = texts.digest_set(_clock(at_minute), _offset(utc_offset), turned_on)
    return Reply(said, private=True)


async def fold(ctx: Context, notes: list[Notification]) -> list[Notification]:
    """``notes`` without the turn notices by direct message to players whose digest is on
    (the digest lists those turns)."""
    turns = [
        n.recipient.player_id
        for n in notes
        if n.kind is Kind.YOUR_TURN and n.chat is None and n.recipient.player_id is not None
    ]
    if not turns:
        return notes
    folded = await ctx.store.digest_players(turns)
    return [
        n
        for n in notes
        if not (n.kind is Kind.YOUR_TURN and n.chat is None and n.recipient.player_id in folded)
    ]


async def sweep(ctx: Context) -> int:
    """Send the digests that are due (each player's once a local day); how many were sent."""
    now = ctx.now()
    sent = 0
    for row in await ctx.store.due_digests(now):
        day = local_day(row.due_at, row.utc_offset)
        following = next_due(row.at_minute, row.utc_offset, max(now, row.due_at))
        if row.last_day is not None and row.last_day >= day:
            await ctx.store.skip_digest(row.player_id, following)
            continue
        notes = await _digest_notes(ctx, row, day)
        if await ctx.store.send_digest(row.player_id, day, following, notes) and notes:
            sent += 1
    return sent


async def _digest_notes(ctx: Context, row: DigestRow, day: str) -> Sequence[Notification]:
    """The day's digest for ``row``'s player: one private notice, or none without a turn."""
    now = ctx.now()
    player = await loading.player_by_id(ctx, row.player_id)
    games = await ctx.store.games_of(player.id, (GameStatus.ACTIVE,), limit=MOST_GAMES)
    mine = [g for g in games if g.to_move is not None and g.seats[g.to_move] == player.id]
    if not mine:
        return ()
    mine.sort(key=lambda g: (g.deadline_at is None, g.deadline_at or now, g.id))
    text = texts.digest_head(len(mine))
    actions: list[Action] = []
    for game in mine:
        opponent = await loading.player_by_id(ctx, game.seats[1 - (game.to_move or 0)])
        left = texts.digest_left(
            None if game.deadline_at is None else (game.deadline_at - now).total_seconds()
        )
        page = "" if ctx.pages is None else f" {await ctx.pages.link(game.id)}"
        text += texts.digest_line(
            game.id, presentation.title(game), presentation.mention(opponent), left, page
        )
        if len(actions) < MOST_BUTTONS:
            actions.append(Action.make(f"#{game.id}", ActionKind.BOARD, game.id))
    note = policy.note(
        ctx, player, Kind.DIGEST, text, now, dedupe=f"digest:{player.id}:{day}",
        actions=tuple(actions),
    )  # fmt: skip
    return (replace(note, chat=None, direct=True),)
