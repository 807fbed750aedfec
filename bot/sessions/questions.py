"""Questions asked of one player before something that cannot be undone (resigning): the
button that says yes carries whose question it is and until when it may be answered, so a
press by anyone else, or a press after the question lapsed, changes nothing (and a restart
changes nothing about that: the id holds it all).

>>> from datetime import datetime, timezone
>>> now = datetime(2026, 1, 1, tzinfo=timezone.utc)
>>> resign_button(12, 7, now).id
'rsy:12:7:1767226200'
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.messages import Action, ActionKind, Chat, Reply, User
from bot.outcomes import Asks, Question
from bot.sessions import loading, texts, tournaments
from bot.sessions.context import Context, Refusal
from bot.storage.tournament_rows import TournamentStatus

__all__ = [
    "QUESTION_TTL",
    "check_answer",
    "leave_button",
    "leave_confirmed",
    "leave_question",
    "resign_button",
]

#: How long a question may be answered (the presser answers at once, or asks again).
QUESTION_TTL = timedelta(minutes=10)


def resign_button(game_id: int, player_id: int, now: datetime) -> Action:
    """The "Yes, resign" button of player ``player_id``'s question about game ``game_id``,
    asked at ``now``."""
    until = int((now + QUESTION_TTL).timestamp())
    return Action.make(texts.YES_RESIGN, ActionKind.RESIGN_CONFIRMED, game_id, player_id, until)


async def check_answer(ctx: Context, user: User, player_field: str, until_field: str) -> None:
    """Refuse unless ``user`` is the player the question was asked of (``player_field``, a
    player id) and it has not lapsed (``until_field``, Unix seconds): fields of an id that
    :func:`~bot.messages.parse_action` has range-checked."""
    me = await loading.player(ctx, user)
    asked = int(player_field)
    if me.id != asked:
        owner = await ctx.store.get_player(asked)
        raise Refusal(texts.not_your_question(owner.name if owner is not None else None))
    if ctx.now().timestamp() > int(until_field):
        raise Refusal(texts.QUESTION_LAPSED)


def leave_button(tournament_id: int, player_id: int, now: datetime) -> Action:
    """The "Yes, leave" button of player ``player_id``'s question about leaving tournament
    ``tournament_id``, asked at ``now``."""
    until = int((now + QUESTION_TTL).timestamp())
    return Action.make(
        texts.YES_LEAVE, ActionKind.TOURNAMENT_LEAVE_CONFIRMED, tournament_id, player_id, until
    )


async def leave_question(
    ctx: Context, user: User, chat: Chat, tournament_id: int | None = None
) -> Reply:
    """ "Really leave?" for ``user`` about a tournament of ``chat`` they are in (issue 45:
    leaving is confirmed by the leaver alone; once it runs, their unfinished games are lost),
    with the button that leaves (:func:`leave_confirmed`)."""
    me = await loading.player(ctx, user)
    t = await tournaments.pick(ctx, chat, tournament_id, tournaments.LIVE)
    name = tournaments.display_name(t)
    mine = [e for e in await ctx.store.entrants(t.id) if e.player_id == me.id]
    if not mine or mine[0].withdrawn_at is not None:
        raise Refusal(texts.tournament_not_in(name))
    running = t.status is TournamentStatus.RUNNING
    return Reply(
        texts.really_leave(name, running),
        actions=(leave_button(t.id, me.id, ctx.now()),),
        outcome=Asks(Question.LEAVE, t.id),
    )


async def leave_confirmed(
    ctx: Context, user: User, tournament_id: int, player_field: str, until_field: str
) -> Reply:
    """Yes to :func:`leave_question`, pressed wherever it was asked (the leaver's private
    chat, most often): theirs alone to answer while it lasts; they leave the tournament in
    its own chat."""
    await check_answer(ctx, user, player_field, until_field)
    t = await ctx.store.get_tournament(tournament_id)
    if t is None:
        raise Refusal(texts.no_tournament(tournament_id))
    return await tournaments.leave(ctx, user, Chat(t.platform, t.chat_id), t.id)
