"""Stepping through a game: the picture of any position of it, with buttons to the first,
previous, next and last position (an adapter edits the message in place on each press).

The buttons are ``br:<game>:<ply>`` action ids: they hold everything, so they work for
anyone who can see the game, after a restart too, and at any time after the game ended.
"""

from __future__ import annotations

from bot.core.status import GameStatus
from bot.messages import Action, ActionKind, Chat, Reply, Text, User
from bot.sessions import loading, presentation, texts
from bot.sessions.context import Context, Refusal

__all__ = ["KIND", "browse", "step_actions"]

#: The action kind of a step.
KIND = ActionKind.BROWSE


def step_actions(game_id: int, ply: int, last: int) -> tuple[Action, ...]:
    """The buttons around the position after ``ply`` of ``last`` moves: to the first and the
    previous position (when there is one before), to the next and the last (when there is one
    after).

    >>> [a.id for a in step_actions(7, 1, 3)]
    ['br:7:0', 'br:7:0', 'br:7:2', 'br:7:3']
    >>> [a.label for a in step_actions(7, 0, 0)]
    []
    """
    actions = []
    if ply > 0:
        actions += [
            Action.make(texts.STEP_LABELS[0], KIND, game_id, 0),
            Action.make(texts.STEP_LABELS[1], KIND, game_id, ply - 1),
        ]
    if ply < last:
        actions += [
            Action.make(texts.STEP_LABELS[2], KIND, game_id, ply + 1),
            Action.make(texts.STEP_LABELS[3], KIND, game_id, last),
        ]
    return tuple(actions)


async def browse(
    ctx: Context, user: User, chat: Chat, game_id: int | None = None, ply: int | None = None
) -> Reply:
    """The position of a game after ``ply`` moves (the last one by default: the player's
    active game here, or their most recent one), with the step buttons."""
    me = await loading.player(ctx, user)
    gid = await loading.pick_game(ctx, me, chat, game_id, ended=True)
    loaded = await loading.load(ctx, gid)
    loading.shown_here(me, chat, loaded.row)
    row = loaded.row
    last = row.ply
    if ply is None:
        ply = last
    if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= last:
        raise Refusal(texts.no_such_position(gid, last))
    position = loaded.position if ply == last else await loading.replay(ctx, row, upto=ply)
    mover = None
    made = None if ply == 0 else await ctx.store.move_at(gid, ply - 1)
    if made is not None:
        mover = await presentation.who(ctx, row, position, made.seat)
    body = texts.browse_head(gid, presentation.title(row), ply, last, mover, position.last_move)
    if ply == last and row.status != GameStatus.ACTIVE:
        body = Text.of(body, " ", await presentation.result_text(ctx, row, position))
    reply = Reply(body, actions=step_actions(gid, ply, last), game_id=gid)
    reply = await presentation.picture(ctx, position, reply, row)
    return await presentation.as_board(ctx, reply, row, loaded.position)
