"""How the sessions present a game: players as mentions and with their sides, results, the
board picture, a game's buttons, the facts an adapter shows beside a board, and a reply marked
as the board it is (see :class:`~bot.messages.ReplyKind`).

Every reply that shows a game's board is made here at its end, so an adapter learns what it
got from the reply itself: the kind, and the game as it stands (players, whose turn, against
the bot or not, rated) without asking the manager again.
"""

from __future__ import annotations

import asyncio
import functools
from dataclasses import replace

import engines
from bot.core.status import GameStatus
from bot.messages import (
    Action,
    ActionKind,
    GameFacts,
    Mention,
    Reply,
    ReplyKind,
    Text,
)
from bot.ratings import Origin
from bot.sessions import loading, texts
from bot.sessions.context import Context, Refusal
from bot.sessions.loading import Loaded
from bot.sessions.pictures import board_picture
from bot.storage import GameRow, PlayerRow
from engines import Position

__all__ = [
    "as_board",
    "facts",
    "game_actions",
    "mention",
    "mentions",
    "names",
    "picture",
    "result_text",
    "seat_in_active",
    "title",
    "who",
]


async def facts(ctx: Context, row: GameRow, position: Position) -> GameFacts:
    """The facts of the stored game ``row`` whose current position is ``position`` (read
    from the caches the request has just filled: no store access for a game just loaded)."""
    if position.ply != row.ply:  # a past position shown: the facts are the game's as it is
        position = (await loading.load(ctx, row.id, fresh=False)).position
    active = row.status == GameStatus.ACTIVE and position.outcome is None
    seated = await mentions(ctx, row)
    return GameFacts(
        game_id=row.id,
        title=title(row),
        ply=row.ply,
        players=(
            await who(ctx, row, position, 0),
            await who(ctx, row, position, 1),
        ),
        mentions=seated,
        last_move=position.last_move,
        to_move=seated[position.to_move] if active else None,
        to_move_side=await who(ctx, row, position, position.to_move) if active else None,
        deadline=row.deadline_at if active else None,
        result=None if active else await result_text(ctx, row, position),
        against_bot=row.against_bot,
        rated=row.rated and row.origin is Origin.CHALLENGE and not row.against_bot,
    )


async def as_board(
    ctx: Context, reply: Reply, row: GameRow, position: Position, *, live: bool = False
) -> Reply:
    """``reply`` marked as a board of ``row``'s game (its live board with ``live``), with the
    game's facts and, when the web board is on, its page; ``position`` is the game's current
    one."""
    kind = ReplyKind.LIVE_BOARD if live else ReplyKind.BOARD
    page = None if ctx.pages is None else await ctx.pages.link(row.id)
    return replace(reply, kind=kind, facts=await facts(ctx, row, position), page=page)


async def names(ctx: Context, row: GameRow) -> tuple[str, str]:
    a = await loading.player_by_id(ctx, row.seat0)
    b = await loading.player_by_id(ctx, row.seat1)
    return a.name, b.name


def mention(player: PlayerRow) -> Mention:
    """A player named inside a notification's text (each platform mentions its way)."""
    return Mention(player.platform, player.user_id, player.name)


async def picture(
    ctx: Context, position: Position, reply: Reply, row: GameRow | None = None
) -> Reply:
    """``reply`` with the board of ``position`` (when pictures are on).  With the stored
    game ``row`` the picture names the players, shows the time left to move and, at the
    game's last ply, how it ended (also when that was a resignation, a draw or time)."""
    if not ctx.pictures:
        return reply
    outcome = players = clock = None
    if row is not None:
        players = await names(ctx, row)
        if position.ply == row.ply:
            outcome = row.outcome
            if outcome is None and row.deadline_at is not None:
                left = (row.deadline_at - ctx.now()).total_seconds()
                clock = texts.time_left(left)
    png, alt = await asyncio.to_thread(
        functools.partial(board_picture, position, outcome=outcome, players=players, clock=clock)
    )
    if png is None:
        return reply
    return replace(reply, image=png, alt=alt)


def title(row: GameRow) -> str:
    game = engines.GAMES.get(row.game)
    return game.title if game else row.game


async def mentions(ctx: Context, row: GameRow) -> tuple[Mention, Mention]:
    """The players of both seats, as mentions."""
    a = await loading.player_by_id(ctx, row.seat0)
    b = await loading.player_by_id(ctx, row.seat1)
    return mention(a), mention(b)


async def who(ctx: Context, row: GameRow, position: Position, seat: int) -> Text:
    """The player in ``seat`` with their side, e.g. ``Ada (Red)``."""
    return texts.side((await mentions(ctx, row))[seat], position.seat_sides[seat])


async def result_text(ctx: Context, row: GameRow, position: Position) -> Text:
    """How a finished game ended."""
    winner = None if row.winner is None else await who(ctx, row, position, row.winner)
    return texts.result(row.id, row.result, row.reason, winner)


def game_actions(row: GameRow) -> tuple[Action, ...]:
    return (
        Action.make("Board", ActionKind.BOARD, row.id),
        Action.make("History", ActionKind.HISTORY, row.id),
        Action.make("Resign", ActionKind.RESIGN, row.id),
    )


async def seat_in_active(
    ctx: Context, me: PlayerRow, loaded: Loaded, what: str
) -> tuple[GameRow, Position, int]:
    row, position = loaded.row, loaded.position
    seat = loading.seat(me, row)
    if seat is None:
        raise Refusal(texts.not_playing(row.id, what))
    if row.status != GameStatus.ACTIVE:
        raise Refusal(texts.is_over(row.id, await result_text(ctx, row, position)))
    return row, position, seat
