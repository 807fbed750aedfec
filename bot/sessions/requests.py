"""Requests to the opponent during a game: draw offers and takeback requests."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.core.notification import Kind
from bot.messages import Action, ActionKind, Chat, Reply, Text, User
from bot.outcomes import Answered, Offered, Request
from bot.sessions import endings, finish, loading, policy, presentation, texts
from bot.sessions import opponent as opponent_bot
from bot.sessions.context import Context, Refusal
from bot.storage import GameRow, PlayerRow
from engines import Position

__all__ = ["draw", "takeback"]


async def _open_request(
    ctx: Context,
    row: GameRow,
    position: Position,
    seat: int,
    opponent: PlayerRow,
    column: str,
    kind: Kind,
    note_text: Text,
    reply_text: Text,
    answers: tuple[Action, Action],
    now: datetime,
    request: Request,
) -> Reply:
    """Record that ``seat`` asks the opponent for something (a draw, a takeback): the
    request column is set and the opponent notified in one transaction, and the reply
    carries the buttons that answer it."""
    # The reply in the chat asks the opponent, with the buttons that answer: privately too
    # only if they asked for direct messages.
    notes = policy.private_notes(
        ctx, opponent, kind, note_text, now, game_id=row.id, actions=answers
    )
    loading.store_row(ctx, await ctx.store.update_game(row, now, notes, **{column: seat}), position)
    return Reply(reply_text, actions=answers, game_id=row.id, outcome=Offered(row.id, request))


async def _close_request(
    ctx: Context,
    row: GameRow,
    position: Position,
    column: str,
    reply_text: Text,
    now: datetime,
    request: Request,
) -> Reply:
    """Clear a declined request (``column``) and say so."""
    updated = await ctx.store.update_game(row, now, (), **{column: None})
    loading.store_row(ctx, updated, position)
    return Reply(reply_text, game_id=row.id, outcome=Answered(row.id, request, accepted=False))


async def draw(
    ctx: Context, user: User, chat: Chat, game_id: int | None = None, answer: str = "offer"
) -> Reply:
    """Offer a draw (``answer="offer"``), or ``accept`` / ``decline`` the opponent's offer.
    Offering when the opponent has already offered agrees to the draw.  An offer lapses
    when the offerer's opponent moves."""
    if answer not in ("offer", "accept", "decline"):
        raise Refusal(texts.draw_answers())
    me, gid = await loading.own_game(ctx, user, chat, game_id)
    async with ctx.lock(gid):
        loaded = await loading.load(ctx, gid)
        row, position, seat = await presentation.seat_in_active(ctx, me, loaded, "agree to a draw")
        if row.against_bot and answer == "offer":
            return await opponent_bot.decline_draw(ctx, row)
        now = ctx.now()
        opponent = await loading.player_by_id(ctx, row.seats[1 - seat])
        offer = row.draw_offer_by
        if answer == "offer" and offer != 1 - seat:
            if offer == seat:
                raise Refusal(texts.draw_already_offered(gid))
            return await _open_request(
                ctx,
                row,
                position,
                seat,
                opponent,
                "draw_offer_by",
                Kind.DRAW_OFFERED,
                texts.draw_offer_note(presentation.mention(me), gid, presentation.title(row)),
                texts.draw_offered(presentation.mention(me), gid, presentation.mention(opponent)),
                (
                    Action.make("Accept draw", ActionKind.DRAW_ACCEPT, gid),
                    Action.make("Decline draw", ActionKind.DRAW_DECLINE, gid),
                ),
                now,
                Request.DRAW,
            )
        if offer is None:
            raise Refusal(texts.no_draw_offer(gid))
        if offer == seat:
            raise Refusal(texts.own_draw_offer(gid, presentation.mention(opponent)))
        if answer == "decline":
            return await _close_request(
                ctx,
                row,
                position,
                "draw_offer_by",
                texts.draw_declined(presentation.mention(me), gid),
                now,
                Request.DRAW,
            )
        said = texts.draw_accepted_note(presentation.mention(me), gid, presentation.title(row))
        updated = loading.store_row(
            ctx,
            await finish.finish(
                ctx, row, position, finish.AGREEMENT, None, [(opponent, said)], now, by=me
            ),
            position,
        )
        return await endings.game_over_reply(
            ctx, updated, position, texts.draw_agreed(presentation.mention(me), gid)
        )


async def takeback(
    ctx: Context, user: User, chat: Chat, game_id: int | None = None, answer: str = "ask"
) -> Reply:
    """Ask to take back your own last move (``answer="ask"``) while your opponent has not
    moved, or ``accept`` / ``decline`` the opponent's request."""
    if answer not in ("ask", "accept", "decline"):
        raise Refusal(texts.takeback_answers())
    me, gid = await loading.own_game(ctx, user, chat, game_id)
    async with ctx.lock(gid):
        loaded = await loading.load(ctx, gid)
        row, position, seat = await presentation.seat_in_active(ctx, me, loaded, "take moves back")
        if row.against_bot and answer == "ask":
            return await opponent_bot.takeback(ctx, me, row, position, seat)
        now = ctx.now()
        opponent = await loading.player_by_id(ctx, row.seats[1 - seat])
        asked = row.takeback_by
        if answer == "ask":
            last = await ctx.store.move_at(gid, row.ply - 1) if row.ply > 0 else None
            if last is None or last.seat != seat:
                raise Refusal(texts.only_own_last_move(gid, presentation.mention(opponent)))
            if asked == seat:
                raise Refusal(texts.takeback_already_asked(last.move, gid))
            return await _open_request(
                ctx,
                row,
                position,
                seat,
                opponent,
                "takeback_by",
                Kind.TAKEBACK_REQUESTED,
                texts.takeback_note(
                    presentation.mention(me), last.move, gid, presentation.title(row)
                ),
                texts.takeback_asked(presentation.mention(me), last.move, gid),
                (
                    Action.make("Allow takeback", ActionKind.TAKEBACK_ACCEPT, gid),
                    Action.make("Refuse takeback", ActionKind.TAKEBACK_DECLINE, gid),
                ),
                now,
                Request.TAKEBACK,
            )
        if asked is None:
            raise Refusal(texts.no_takeback_request(gid))
        if asked == seat:
            raise Refusal(texts.own_takeback_request(gid, presentation.mention(opponent)))
        if answer == "decline":
            return await _close_request(
                ctx,
                row,
                position,
                "takeback_by",
                texts.takeback_refused(presentation.mention(me), gid),
                now,
                Request.TAKEBACK,
            )
        undone = await ctx.store.move_at(gid, row.ply - 1)
        before = await loading.replay(ctx, row, upto=row.ply - 1)
        next_player = await loading.player_by_id(ctx, row.seats[before.to_move])
        updated = loading.store_row(
            ctx,
            await ctx.store.take_back(
                row,
                before.to_dict(),
                before.to_move,
                now,
                policy.turn_deadline(ctx, next_player, row.time_per_move, now),
            ),
            before,
        )
        move = undone.move if undone is not None else None
        who = await presentation.who(ctx, updated, before, before.to_move)
        reply = await presentation.picture(
            ctx,
            before,
            Reply(
                texts.taken_back(presentation.mention(me), gid, move, who),
                actions=presentation.game_actions(updated),
                game_id=gid,
            ),
            updated,
        )
        board = await presentation.as_board(ctx, reply, updated, before, live=True)
        return replace(board, outcome=Answered(gid, Request.TAKEBACK, accepted=True))
