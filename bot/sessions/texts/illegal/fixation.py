"""Why a move of Lines of Fixation is illegal, in words: the sentence of each of its own codes
(:attr:`engines.Game.codes`), a :meth:`str.format` template over the code's arguments, found
by the game's name (:mod:`bot.sessions.texts.illegal`)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.core.i18n import N_
from engines.base import MoveCode
from engines.fixation import IllegalMoveCode as Code

__all__ = ["SENTENCES"]

#: The sentence of every code of the game's own.
SENTENCES: Mapping[MoveCode, str] = MappingProxyType(
    {
        Code.NOT_A_MOVE: N_(
            "{text!r} is not a move: write the stack's cell and where its top disk lands, like "
            "a2-a4"
        ),
        Code.NOT_A_CELL: N_("{cell} is not a cell of the board (rows a..i)"),
        Code.NO_STACK: N_("there is no stack on {cell}"),
        Code.NOT_YOUR_STACK: N_("the stack on {cell} is {side}'s (its top disk)"),
        Code.MUST_MOVE: N_("a stack must move: it cannot land where it stands"),
        Code.LEAVES_BOARD: N_(
            "the stack on {cell} is {height} high: a move of {height} along that line leaves the "
            "board"
        ),
        Code.MOVES_ONE_CELL: N_(
            "the stack on {cell} is 1 high: it moves exactly 1 cell ({cell}-{landing})"
        ),
        Code.MOVES_EXACTLY: N_(
            "the stack on {cell} is {height} high: it moves exactly {height} cells "
            "({cell}-{landing})"
        ),
        Code.NOT_ON_ONE_LINE: N_("{start} and {end} are not on one line"),
        Code.TOO_HIGH: N_("{cell} would be {height} high (maximum {maximum})"),
        Code.FIXATION: N_("{side} has a taller stack on this line (fixation)"),
        Code.EQUAL_HEIGHTS: N_("equal heights on this line: you may not capture"),
        Code.REPEATS: N_("this would repeat an earlier position"),
        Code.MUST_CAPTURE: N_("you must capture with a mono-colour stack of 3 or more ({moves})"),
        Code.NOT_LEGAL: N_("that move is not legal"),
    }
)
