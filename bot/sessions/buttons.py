"""Button presses: an action id (see :mod:`bot.messages`) resolved through a table from its kind
to the handler that does what the button says.  Ids hold everything, so a button still works
after a restart."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.messages import ActionKind, Chat, Reply, User, parse_action
from bot.sessions import (
    browse,
    challenges,
    history,
    moves,
    questions,
    rematch,
    requests,
    texts,
    tournaments,
    views,
    webview,
)
from bot.sessions.context import Context, Refusal

__all__ = ["HANDLERS", "Handler", "press"]

#: What a button does: called with the context, who pressed, where, the action's number (a
#: game or challenge id) and the action's remaining fields.
Handler = Callable[[Context, User, Chat, int, list[str]], Awaitable[Reply]]

_NOT_MINE = texts.NOT_MY_BUTTON


async def _confirm_resign(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    # Only a player of the game is asked: the question checks what resigning checks.
    return await moves.resign(ctx, user, chat, number, confirm=False)


def _ply(fields: list[str]) -> int:
    if not fields[0].isdigit():
        raise Refusal(_NOT_MINE)
    return int(fields[0])


async def _move(ctx: Context, user: User, chat: Chat, number: int, rest: list[str]) -> Reply:
    return await moves.move(ctx, user, chat, rest[1], number, _ply(rest))


async def _move_anyway(ctx: Context, user: User, chat: Chat, number: int, rest: list[str]) -> Reply:
    return await moves.move(ctx, user, chat, rest[1], number, _ply(rest), confirm=True)


async def _accept(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await challenges.accept(ctx, user, chat, number)


async def _decline(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await challenges.decline(ctx, user, chat, number)


async def _cancel(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await challenges.cancel(ctx, user, chat, number)


async def _board(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await views.board(ctx, user, chat, number)


async def _history(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await history.history(ctx, user, chat, number)


async def _resign(ctx: Context, user: User, chat: Chat, number: int, rest: list[str]) -> Reply:
    # Yes to a question asked of one player: theirs alone to answer, while it lasts.
    await questions.check_answer(ctx, user, rest[0], rest[1])
    return await moves.resign(ctx, user, chat, number)


async def _draw_yes(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await requests.draw(ctx, user, chat, number, "accept")


async def _draw_no(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await requests.draw(ctx, user, chat, number, "decline")


async def _takeback_yes(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await requests.takeback(ctx, user, chat, number, "accept")


async def _takeback_no(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await requests.takeback(ctx, user, chat, number, "decline")


async def _browse(ctx: Context, user: User, chat: Chat, number: int, rest: list[str]) -> Reply:
    if not (rest[0].isascii() and rest[0].isdigit() and len(rest[0]) < 10):
        raise Refusal(_NOT_MINE)
    return await browse.browse(ctx, user, chat, number, int(rest[0]))


async def _browse_open(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await browse.browse(ctx, user, chat, number, 0)


async def _web_board(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await webview.web_link(ctx, user, chat, number)


async def _rematch(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await rematch.rematch(ctx, user, chat, number)


async def _join(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await tournaments.join(ctx, user, chat, number)


async def _leave(ctx: Context, user: User, chat: Chat, number: int, _: list[str]) -> Reply:
    return await tournaments.leave(ctx, user, chat, number)


async def _leave_confirmed(
    ctx: Context, user: User, chat: Chat, number: int, rest: list[str]
) -> Reply:
    # Yes to a question asked of one player (issue 45): theirs alone, while it lasts.
    return await questions.leave_confirmed(ctx, user, number, rest[0], rest[1])


#: Every action kind the manager resolves and what pressing it does.
HANDLERS: dict[ActionKind, Handler] = {
    ActionKind.ACCEPT: _accept,
    ActionKind.DECLINE: _decline,
    ActionKind.CANCEL: _cancel,
    ActionKind.BOARD: _board,
    ActionKind.HISTORY: _history,
    ActionKind.RESIGN: _confirm_resign,
    ActionKind.RESIGN_CONFIRMED: _resign,
    ActionKind.DRAW_ACCEPT: _draw_yes,
    ActionKind.DRAW_DECLINE: _draw_no,
    ActionKind.TAKEBACK_ACCEPT: _takeback_yes,
    ActionKind.TAKEBACK_DECLINE: _takeback_no,
    ActionKind.REMATCH: _rematch,
    ActionKind.MOVE: _move,
    ActionKind.MOVE_ANYWAY: _move_anyway,
    ActionKind.BROWSE: _browse,
    ActionKind.BROWSE_OPEN: _browse_open,
    ActionKind.TOURNAMENT_JOIN: _join,
    ActionKind.TOURNAMENT_LEAVE: _leave,
    ActionKind.TOURNAMENT_LEAVE_CONFIRMED: _leave_confirmed,
    ActionKind.WEB_BOARD: _web_board,
}


async def press(ctx: Context, user: User, chat: Chat, action_id: str) -> Reply:
    """Resolve a button press by its action id (works after a restart: ids hold it all)."""
    parsed = parse_action(action_id)
    if parsed is None:
        raise Refusal(_NOT_MINE)
    kind, fields = parsed
    handler = HANDLERS.get(kind)
    try:
        number = int(fields[0])
    except ValueError:
        raise Refusal(_NOT_MINE) from None
    if handler is None:
        raise Refusal(_NOT_MINE)
    return await handler(ctx, user, chat, number, fields[1:])
