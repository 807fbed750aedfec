"""A player's resign, draw and takeback made on the web board's page (issue 44): the chat's own
commands (:func:`~bot.sessions.moves.resign`, :func:`~bot.sessions.requests.draw`,
:func:`~bot.sessions.requests.takeback`: the same checks, the same commit), answered on the page;
and, since no answer is posted in the game's chat, the same answer (its text and buttons: Accept
draw, Allow takeback ...) queued for the chat at once, so the players there see what happened and
can answer from the chat.

The chat's note is queued after the change is committed (its own write): a process dying between
the two leaves the game right and the chat without that note.
"""

from __future__ import annotations

from dataclasses import replace

from bot.core.notification import Kind
from bot.core.status import GameStatus
from bot.messages import Chat, Reply, User
from bot.sessions import loading, moves, policy, requests, texts
from bot.sessions.context import Context, Refusal, checked_id

__all__ = ["ACTIONS", "page_action"]

#: The page's actions and the answers each takes (``""``: the first asking).
ACTIONS: dict[str, tuple[str, ...]] = {
    "resign": ("",),
    "draw": ("", "offer", "accept", "decline"),
    "takeback": ("", "ask", "accept", "decline"),
}
_KINDS = {"resign": Kind.GAME_OVER, "draw": Kind.DRAW_OFFERED, "takeback": Kind.TAKEBACK_REQUESTED}


async def page_action(
    ctx: Context,
    user: User,
    chat: Chat,
    game_id: int,
    action: str,
    answer: str = "",
    confirm: bool = False,
) -> Reply:
    """Runs ``action`` (with ``answer``; ``confirm`` a resignation) for ``user`` in game
    ``game_id`` of ``chat`` as the chat's command does, then tells the game's chat."""
    gid = checked_id(game_id, "game")
    if action not in ACTIONS or answer not in ACTIONS[action]:
        raise Refusal(texts.web_bad_action_request())
    if action == "resign":
        reply = await moves.resign(ctx, user, chat, gid, confirm)
        if not confirm:
            return reply  # only the question "Really resign?", asked on the page
    elif action == "draw":
        reply = await requests.draw(ctx, user, chat, gid, answer or "offer")
    else:
        reply = await requests.takeback(ctx, user, chat, gid, answer or "ask")
    if reply.ok:
        await _tell_chat(ctx, user, gid, action, reply)
    return reply


async def _tell_chat(ctx: Context, user: User, gid: int, action: str, reply: Reply) -> None:
    """Queues ``reply`` (the page's answer) for the game's chat, due at once."""
    me = await loading.player(ctx, user)
    row = (await loading.load(ctx, gid)).row
    kind = Kind.GAME_OVER if row.status is not GameStatus.ACTIVE else _KINDS[action]
    now = ctx.now()
    told = policy.note(
        ctx, me, kind, reply.body, now, game_id=gid, chat_id=row.chat_id, actions=reply.actions
    )
    # A chat message: never direct, never held for anyone's quiet hours.
    await ctx.store.queue_notes([replace(told, direct=False, deliver_after=now)])
    ctx.bell.ring()  # this process's outboxes post it now
