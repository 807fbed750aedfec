"""Rematches: a challenge to the same game with seats swapped, linked to the old game."""

from __future__ import annotations

from bot.core.notification import Kind
from bot.core.status import ChallengeStatus, GameStatus
from bot.messages import Action, ActionKind, Chat, Need, NeedKind, Reply, ReplyKind, User
from bot.sessions import challenges, loading, policy, presentation, texts
from bot.sessions import opponent as opponent_bot
from bot.sessions.context import Context, Refusal
from bot.storage import First

__all__ = ["rematch"]


async def rematch(ctx: Context, user: User, chat: Chat, game_id: int | None = None) -> Reply:
    """Ask for a rematch of a finished game: same game and options, seats swapped (a
    challenge linked to the old game).  If the opponent already asked, this accepts."""
    me = await loading.player(ctx, user)
    if game_id is None:
        recent = [
            g
            for g in await ctx.store.games_of(
                me.id, (GameStatus.FINISHED, GameStatus.ABORTED), limit=20
            )
            if g.platform == chat.platform and g.chat_id == chat.chat_id
        ]
        if not recent:
            raise Refusal(texts.no_finished_game_here(), Need(NeedKind.GAME))
        game_id = recent[0].id
    row = await ctx.store.get_game(game_id)
    if row is None:
        raise Refusal(texts.no_such("game", str(game_id)))
    seat = loading.seat(me, row)
    if seat is None:
        raise Refusal(texts.rematch_not_player(game_id))
    if row.status == GameStatus.ACTIVE:
        raise Refusal(texts.still_going(game_id))
    if row.status == GameStatus.CORRUPT:
        raise Refusal(texts.set_aside(game_id))
    if row.against_bot:
        return await opponent_bot.rematch(ctx, user, me, row, seat)
    now = ctx.now()
    for earlier in await ctx.store.rematches_of(row.id):
        if earlier.status == ChallengeStatus.ACCEPTED:
            raise Refusal(texts.rematch_exists(game_id, earlier.game_id))
        if earlier.status == ChallengeStatus.PENDING and earlier.expires_at > now:
            if earlier.challenger == me.id:
                raise Refusal(texts.rematch_already_asked(game_id, earlier.id))
            return await challenges.accept(ctx, user, chat, earlier.id)
    opponent = await loading.player_by_id(ctx, row.seats[1 - seat])
    title = presentation.title(row)
    # Seats swapped: whoever sat second last time sits first now.
    first = First.ME if seat == 1 else First.THEM
    # The card answering the request asks the opponent in the chat; privately only if they
    # asked for direct messages.
    notes = policy.private_notes(
        ctx,
        opponent,
        Kind.CHALLENGE,
        texts.rematch_note(presentation.mention(me), row.id, title, "{challenge}"),
        now,
        actions=(
            Action.make("Accept", ActionKind.ACCEPT, "{challenge}"),
            Action.make("Decline", ActionKind.DECLINE, "{challenge}"),
        ),
    )
    created = await ctx.store.create_challenge(
        challenger=me.id,
        target=opponent.id,
        platform=row.platform,
        chat_id=row.chat_id,
        game=row.game,
        options=row.options,
        first=first,
        time_per_move=row.time_per_move,
        now=now,
        expires_at=now + ctx.challenge_ttl,
        limit=ctx.max_pending,
        notes=notes,
        rematch_of=row.id,
        rated=row.rated,
        community=row.community,
    )
    if created is None:
        raise Refusal(texts.too_many_pending(ctx.max_pending))
    return Reply(
        texts.rematch_asked(
            presentation.mention(me), presentation.mention(opponent), row.id, title, created.id
        ),
        challenge_id=created.id,
        kind=ReplyKind.CARD,
        actions=(
            Action.make("Accept", ActionKind.ACCEPT, created.id),
            Action.make("Decline", ActionKind.DECLINE, created.id),
        ),
    )
