"""May this player move now?  One decision for every way of moving: ``/move`` (and a bare move,
a Play button), the move picker, a preview, move suggestions and the web board.

:func:`may_move` is pure: from the stored game, its position, the asker and the time it
answers :class:`MayMove` (with the asker's seat) or :class:`Refused` with a
:class:`~bot.messages.TurnRefusal` code, checked in the code's order: not playing, moved on
(only when the asker says which ply they saw), over, out of time, not their turn.  What a
surface does about a refusal is its own (``/move`` first looks for a repeat of a move already
stored, and calls time when the deadline passed); what the player reads is the code's one
wording (:func:`~bot.sessions.texts.cannot_move`), made by :func:`refusal`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.core.status import GameStatus
from bot.messages import TurnRefusal
from bot.sessions import clocks, presentation, texts
from bot.sessions.context import Context, Refusal
from bot.storage import GameRow
from engines import Position

__all__ = ["MayMove", "Refused", "may_move", "moved_on", "refusal", "refusal_calling_time"]


@dataclass(frozen=True)
class MayMove:
    """The asker may move now, from ``seat``."""

    seat: int


@dataclass(frozen=True)
class Refused:
    """The asker may not move now in game ``game_id``, for the reason ``code``; ``seat`` is
    theirs (``None``: they are not playing)."""

    code: TurnRefusal
    game_id: int
    seat: int | None


def _seat(row: GameRow, player_id: int | None) -> int | None:
    if player_id is None:
        return None
    if row.seat0 == player_id:
        return 0
    if row.seat1 == player_id:
        return 1
    return None


def may_move(
    row: GameRow,
    position: Position,
    player_id: int | None,
    now: datetime,
    ply: int | None = None,
) -> MayMove | Refused:
    """Whether the player ``player_id`` (``None``: someone the store does not know) may move
    in ``row``'s game at ``now``; ``ply`` is the ply they saw (a button's, a page's), ``None``
    when they said none (a typed move: the current one)."""
    seat = _seat(row, player_id)
    if seat is None:
        return Refused(TurnRefusal.NOT_PLAYING, row.id, None)
    if ply is not None and ply != row.ply:
        return Refused(TurnRefusal.MOVED_ON, row.id, seat)
    if row.status != GameStatus.ACTIVE or position.outcome is not None:
        return Refused(TurnRefusal.OVER, row.id, seat)
    if row.deadline_at is not None and row.deadline_at <= now:
        return Refused(TurnRefusal.OUT_OF_TIME, row.id, seat)
    if position.to_move != seat:
        return Refused(TurnRefusal.NOT_YOUR_TURN, row.id, seat)
    return MayMove(seat)


def moved_on(row: GameRow) -> Refusal:
    """The refusal of a move made for a ply ``row``'s game has moved on from."""
    code = TurnRefusal.MOVED_ON
    return Refusal(texts.cannot_move(code, row.id, move_number=row.ply + 1), code=code)


async def refusal(ctx: Context, row: GameRow, position: Position, refused: Refused) -> Refusal:
    """The refusal to raise for ``refused`` in ``row``'s game (for ``OUT_OF_TIME``, ``row`` is
    the game once time was called: its result is said)."""
    code = refused.code
    if code is TurnRefusal.MOVED_ON:
        return moved_on(row)
    if code in (TurnRefusal.OVER, TurnRefusal.OUT_OF_TIME):
        outcome = await presentation.result_text(ctx, row, position)
        return Refusal(texts.cannot_move(code, row.id, outcome=outcome), code=code)
    if code is TurnRefusal.NOT_YOUR_TURN:
        other = await presentation.who(ctx, row, position, position.to_move)
        return Refusal(texts.cannot_move(code, row.id, to_move=other), code=code)
    return Refusal(texts.cannot_move(code, row.id), code=code)


async def refusal_calling_time(
    ctx: Context, row: GameRow, position: Position, refused: Refused
) -> Refusal:
    """:func:`refusal` for a surface that read ``row`` without the game's lock (the picker, a
    preview): a passed deadline has time called first, as ``/move`` would (the sweeper would
    soon), so the refusal says the result."""
    if refused.code is not TurnRefusal.OUT_OF_TIME:
        return await refusal(ctx, row, position, refused)
    async with ctx.lock(row.id):
        ended = await clocks.expire(ctx, row, ctx.now())
    if ended is None:  # the game changed meanwhile: it is no longer this refusal
        return Refusal(texts.changed_meanwhile(row.id))
    return await refusal(ctx, ended, position, refused)
