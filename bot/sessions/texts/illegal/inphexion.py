"""Why a move of inpHeXion is illegal, in words: the sentence of each of its own codes
(:attr:`engines.Game.codes`), a :meth:`str.format` template over the code's arguments, found
by the game's name (:mod:`bot.sessions.texts.illegal`)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.core.i18n import N_
from engines.base import MoveCode
from engines.inphexion import IllegalMoveCode as Code

__all__ = ["SENTENCES"]

#: The sentence of every code of the game's own.
SENTENCES: Mapping[MoveCode, str] = MappingProxyType(
    {
        Code.NOT_A_CELL_OPENING: N_(
            "{text!r} is not a cell of the {size}x{size} board: White opens by placing one disc "
            "on any cell, e.g. d4"
        ),
        Code.NOT_A_CELL_PUSH: N_(
            "{text!r} is not a cell of the {size}x{size} board: push an opponent's disc with "
            "from-to, e.g. c3-c4"
        ),
        Code.NOT_A_CELL_RELOCATION: N_(
            "{text!r} is not a cell of the {size}x{size} board: a relocation is from>to, e.g. c4>a1"
        ),
        Code.PIE_OFF: N_("the pie rule is off in this game: swap is not allowed"),
        Code.SWAP_TOO_LATE: N_("swap (pie rule) is only allowed as the answer to the first disc"),
        Code.NOT_A_MOVE: N_(
            "{text!r} is not a move: push an opponent's disc with from-to, e.g. c3-c4"
        ),
        Code.PUSH_FROM_EMPTY: N_("{cell} is empty: a turn pushes one of {opponent}'s discs"),
        Code.PUSH_OWN_DISC: N_("{cell} is your own disc: a turn pushes one of {opponent}'s discs"),
        Code.NOT_NEXT_TO: N_("{end} is not next to {start}: a disc moves one step"),
        Code.PUSH_NOT_EMPTY: N_("{cell} is not empty: a disc is pushed to an empty neighbour"),
        Code.ENDS_BY_CONNECTION: N_(
            "{move} ends the game (it completes {colour}'s connection), so nothing is relocated: "
            "write {move} alone"
        ),
        Code.ENDS_WITHOUT_ROOM: N_(
            "{move} ends the game (there are not enough empty cells to relocate into), so nothing "
            "is relocated: write {move} alone"
        ),
        Code.NOT_A_RELOCATION: N_("{text!r} is not a relocation: write from>to, e.g. c4>a1"),
        Code.RELOCATED_TWICE: N_("{cell} is relocated twice"),
        Code.NOT_RELOCATED_OWN: N_("{cell} is not relocated: your own discs are never relocated"),
        Code.NOT_RELOCATED_EMPTY: N_(
            "{cell} is not relocated: there is no disc there after your move"
        ),
        Code.NOT_RELOCATED_NOT_NEW: N_(
            "{cell} is not relocated: only discs this move newly surrounds are relocated"
        ),
        Code.SURROUNDS_NOTHING: N_(
            "{move} surrounds nothing, so nothing is relocated: write {move} alone"
        ),
        Code.ONE_SURROUNDED: N_(
            "{cell} is now surrounded: add where it goes, e.g. {move} {example}"
        ),
        Code.SEVERAL_SURROUNDED: N_(
            "{cells} are now surrounded: add where each goes, e.g. {move} {example}"
        ),
        Code.BEING_VACATED: N_("{cell} is being vacated: relocated discs go to cells empty now"),
        Code.RELOCATION_NOT_EMPTY: N_("{cell} is not empty: a relocated disc needs an empty cell"),
        Code.SAME_DESTINATION: N_("two discs cannot both go to {cell}"),
    }
)
