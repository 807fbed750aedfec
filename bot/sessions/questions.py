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

from bot.messages import Action, ActionKind, User
from bot.sessions import loading, texts
from bot.sessions.context import Context, Refusal

__all__ = ["QUESTION_TTL", "check_answer", "resign_button"]

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
