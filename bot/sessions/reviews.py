"""The review after the game: the moves that changed it most, with the move to consider
instead and a picture of the position where the costliest one was played.

The search (:func:`engines.ai.review.review`) runs in the bot's worker processes
(:meth:`~bot.sessions.thinker.Thinker.review`), never on the event loop.  A rated game between
people is reviewed only once it is over (a review while it goes on would be advice); a game
against the bot or an unrated one at any time (:func:`reviewable`, the one rule the chat
command and the web board's page both follow).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from concurrent.futures.process import BrokenProcessPool

from bot.core.status import GameStatus
from bot.messages import Chat, Reply, Text, User
from bot.sessions import loading, presentation, texts
from bot.sessions.context import Context, Refusal
from bot.sessions.thinker import Reviewed
from bot.storage import GameRow

__all__ = ["REVIEW_COUNT", "costliest", "review", "reviewable"]

#: How many moves a review names.
REVIEW_COUNT = 3


def reviewable(row: GameRow) -> bool:
    """Whether game ``row`` may be reviewed now: once it is over, and while it goes on only
    when it is against the bot or unrated (a review of a rated game between people in
    progress would be advice to one of them)."""
    return row.status is not GameStatus.ACTIVE or not row.rated or row.against_bot


async def costliest(
    ctx: Context, row: GameRow, moves: Sequence[str], owner: Hashable = None
) -> list[Reviewed]:
    """The :data:`REVIEW_COUNT` costliest of ``moves`` (the game ``row`` as played), searched
    in the worker pool in turn with the bot's moves (fairly by ``owner``).

    :class:`~bot.sessions.context.Refusal` when the game may not be reviewed now
    (:func:`reviewable`) or a worker died."""
    if not reviewable(row):
        raise Refusal(texts.review_not_yet(row.id))
    try:
        return await ctx.thinker.review(row.game, row.options, moves, REVIEW_COUNT, owner)
    except BrokenProcessPool:
        raise Refusal(texts.review_unavailable(row.id)) from None


async def review(ctx: Context, user: User, chat: Chat, game_id: int | None = None) -> Reply:
    """The review of a game (the player's game here, or their most recent one)."""
    me = await loading.player(ctx, user)
    gid = await loading.pick_game(ctx, me, chat, game_id, ended=True)
    loaded = await loading.load(ctx, gid)
    row = loaded.row
    if not reviewable(row):
        raise Refusal(texts.review_not_yet(gid))
    moves = [m.move for m in await ctx.store.moves(gid)]
    found = await costliest(ctx, row, moves, me.id)
    title = presentation.title(row)
    if not found:
        return Reply(texts.review_nothing(gid), game_id=gid)
    lines = [texts.review_head(gid, title)]
    for ply, mover, played, better, before, after in found:
        who = await presentation.who(ctx, row, loaded.position, mover)
        lines.append(texts.review_line(ply + 1, who, played, better, before, after))
    worst = max(found, key=lambda f: f[4] - f[5])
    lines.append(texts.review_picture(worst[0] + 1))
    reply = Reply(Text.join(lines, "\n"), game_id=gid)
    position = await loading.replay(ctx, row, upto=worst[0])
    return await presentation.picture(ctx, position, reply, row)
