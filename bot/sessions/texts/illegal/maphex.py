"""Why a move of Maphex is illegal, in words: the sentence of each of its own codes
(:attr:`engines.Game.codes`), a :meth:`str.format` template over the code's arguments, found
by the game's name (:mod:`bot.sessions.texts.illegal`)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.core.i18n import N_
from engines.base import MoveCode
from engines.maphex import IllegalMoveCode as Code

__all__ = ["SENTENCES"]

#: The sentence of every code of the game's own.
SENTENCES: Mapping[MoveCode, str] = MappingProxyType(
    {
        Code.OPENING_NOT_A_SUBBOARD: N_(
            "Blue opens by choosing the sub-board for Red's first disc: a number 1..{count}, not "
            "{text!r}"
        ),
        Code.NOT_A_CELL: N_("{text!r} is not a cell of the {size}x{size} board"),
        Code.TAKEN: N_("{cell} is already taken"),
        Code.NOT_IN_TARGET: N_("{cell} is not in the target sub-board ({target})"),
    }
)
