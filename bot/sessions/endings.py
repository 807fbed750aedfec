"""The reply that ends a game: the final board with its result, the rating changes as stored
and a rematch button (the animated recap follows as its own delivery: see
:meth:`~bot.sessions.context.Context.recap_notes`)."""

from __future__ import annotations

from dataclasses import replace

from bot.messages import Action, ActionKind, Reply, Text
from bot.outcomes import Ended
from bot.sessions import presentation, standings
from bot.sessions.context import Context
from bot.storage import GameRow
from engines import Position

__all__ = ["game_over_reply"]


async def game_over_reply(
    ctx: Context, row: GameRow, position: Position, text: Text, upto: int | None = None
) -> Reply:
    """The reply that ends a game: the final board and a rematch button, with its typed
    outcome (:class:`~bot.outcomes.Ended`, how the game ended as stored).  A rated game's
    rating changes follow the text, as stored (so a repeated answer says the same)."""
    text += await standings.ended_line(ctx, row)
    rematch = Action.make("Rematch", ActionKind.REMATCH, row.id)
    reply = await presentation.picture(
        ctx, position, Reply(text, actions=(rematch,), game_id=row.id), row
    )
    board = await presentation.as_board(ctx, reply, row, position)
    ended = position.outcome
    termination = row.reason or (ended.termination if ended is not None else None)
    if termination is None:  # (a row read before its ending was stored: no typed outcome)
        return board
    winner = row.winner if row.reason is not None or ended is None else ended.winner
    return replace(board, outcome=Ended(row.id, position.ply, termination, winner))
