"""Why a move of Pathagon is illegal, in words: the sentence of each of its own codes
(:attr:`engines.Game.codes`), a :meth:`str.format` template over the code's arguments, found
by the game's name (:mod:`bot.sessions.texts.illegal`)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.core.i18n import N_
from engines.base import MoveCode
from engines.pathagon import IllegalMoveCode as Code

__all__ = ["SENTENCES"]

#: The sentence of every code of the game's own.
SENTENCES: Mapping[MoveCode, str] = MappingProxyType(
    {
        Code.NOT_A_MOVE: N_("{text!r} is not a move: write d4 to place or d4-f6 to move a piece"),
        Code.NOT_A_SQUARE: N_(
            "{text!r} is not a square of the 7x7 board (a1..g7): write d4 to place or d4-f6 to "
            "move a piece"
        ),
        Code.NONE_IN_HAND: N_(
            "you have no pieces in hand: move one of your pieces (e.g. b2-{square})"
        ),
        Code.STILL_IN_HAND: N_("you still have pieces in hand: place one ({square})"),
        Code.MUST_CHANGE_SQUARE: N_(
            "a move must change square: the piece on {square} cannot stay there"
        ),
        Code.NO_PIECE: N_("there is no piece on {square} to move"),
        Code.NOT_YOURS: N_("{square} is not your piece"),
        Code.MOVED_LAST_TURN: N_("you moved the piece on {square} last turn: move another one"),
        Code.NOT_EMPTY: N_("{square} is not empty"),
        Code.EMPTIED_BY_TRAP: N_("{square} was emptied by a trap: you may not use it this turn"),
    }
)
