"""Why a move of Maphex is illegal, in words: the sentence of each of its own codes
(:attr:`engines.Game.codes`), a :meth:`str.format` template over the code's arguments, found
by the game's name (:mod:`bot.sessions.texts.illegal`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from bot.core.i18n import N_
from bot.messages import Text, say
from engines.base import Argument, MoveCode
from engines.maphex import IllegalMoveCode as Code
from render.maphex import subboard_words

__all__ = ["READS", "SENTENCES", "WORDS"]

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


def _target(arguments: Mapping[str, Argument]) -> Mapping[str, object]:
    """The target sub-board (its number and the board's ``block`` of sub-boards a side) in
    the reader's words (the pictures' own, :mod:`render.maphex`): ``centre, 5``; ``row 2,
    column 3; 7`` with 4x4 sub-boards."""
    number, block = arguments.get("target"), arguments.get("block")
    if not isinstance(number, int) or not isinstance(block, int):
        return {}
    template, values = subboard_words(number - 1, block)
    said: Text = say(
        template, **{k: say(v) if isinstance(v, str) else v for k, v in values.items()}
    )
    return {"target": said}


#: The arguments this game says in the reader's words.
WORDS: Mapping[MoveCode, Callable[[Mapping[str, Argument]], Mapping[str, object]]] = (
    MappingProxyType({Code.NOT_IN_TARGET: _target})
)
#: The arguments those words read beyond the sentence's own (the board's sub-boards a side).
READS: Mapping[MoveCode, frozenset[str]] = MappingProxyType(
    {Code.NOT_IN_TARGET: frozenset({"block"})}
)
