"""How the sessions present a game: the facts an adapter shows beside a board, and a reply
marked as the board it is (see :class:`~bot.messages.ReplyKind`).

Every reply that shows a game's board is made here at its end, so an adapter learns what it
got from the reply itself: the kind, and the game as it stands (players, whose turn, against
the bot or not, rated) without asking the manager again.
"""

from __future__ import annotations

from dataclasses import replace

from bot.core.status import GameStatus
from bot.messages import GameFacts, Reply, ReplyKind
from bot.ratings import Origin
from bot.sessions.context import Context
from bot.storage import GameRow
from engines import Position

__all__ = ["as_board", "facts"]


async def facts(ctx: Context, row: GameRow, position: Position) -> GameFacts:
    """The facts of the stored game ``row`` whose current position is ``position`` (read
    from the caches the request has just filled: no store access for a game just loaded)."""
    if position.ply != row.ply:  # a past position shown: the facts are the game's as it is
        position = (await ctx.load(row.id, fresh=False)).position
    active = row.status == GameStatus.ACTIVE and position.outcome is None
    mentions = await ctx.mentions(row)
    return GameFacts(
        game_id=row.id,
        title=ctx.title(row),
        ply=row.ply,
        players=(await ctx.who(row, position, 0), await ctx.who(row, position, 1)),
        mentions=mentions,
        last_move=position.last_move,
        to_move=mentions[position.to_move] if active else None,
        to_move_side=await ctx.who(row, position, position.to_move) if active else None,
        deadline=row.deadline_at if active else None,
        result=None if active else await ctx.result_text(row, position),
        against_bot=row.against_bot,
        rated=row.rated and row.origin is Origin.CHALLENGE and not row.against_bot,
    )


async def as_board(
    ctx: Context, reply: Reply, row: GameRow, position: Position, *, live: bool = False
) -> Reply:
    """``reply`` marked as a board of ``row``'s game (its live board with ``live``), with the
    game's facts; ``position`` is the game's current one."""
    kind = ReplyKind.LIVE_BOARD if live else ReplyKind.BOARD
    return replace(reply, kind=kind, facts=await facts(ctx, row, position))
