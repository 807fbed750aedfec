"""Why a player may not move now: one wording per :class:`~bot.messages.TurnRefusal` code,
whichever surface asked (``/move``, the picker, a preview, the web board).

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there).

>>> from bot.messages import TurnRefusal
>>> str(cannot_move(TurnRefusal.NOT_PLAYING, 7))
'You are not playing in #7.'
>>> str(cannot_move(TurnRefusal.MOVED_ON, 7, move_number=4))[:42]
'The game #7 moved on: another move was sto'
"""

from __future__ import annotations

from bot.messages import Text, TurnRefusal
from bot.sessions.texts.base import (
    is_over,
    not_playing,
)
from bot.sessions.texts.play import not_your_turn, position_changed, time_ran_out


def cannot_move(
    code: TurnRefusal,
    game_id: int,
    *,
    outcome: Text | None = None,
    to_move: Text | None = None,
    move_number: int = 0,
) -> Text:
    """The refusal ``code`` in game ``game_id``: ``outcome`` is how the game ended (``OVER``,
    ``OUT_OF_TIME``), ``to_move`` who is to move (``NOT_YOUR_TURN``), ``move_number`` the
    move the game is at now (``MOVED_ON``)."""
    if code is TurnRefusal.NOT_PLAYING:
        return not_playing(game_id)
    if code is TurnRefusal.MOVED_ON:
        return position_changed(game_id, move_number)
    if code is TurnRefusal.OVER:
        return is_over(game_id, outcome or Text())
    if code is TurnRefusal.OUT_OF_TIME:
        return time_ran_out(game_id, outcome or Text())
    return not_your_turn(game_id, to_move or Text())
