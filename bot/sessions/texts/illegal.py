"""Why a move is illegal, in words: the sentence for every code an engine's
:class:`~engines.IllegalMove` carries, each written once here (a later translation takes this
mapping over).  The engines say only the code and its arguments.

>>> from engines import new
>>> try:
...     new("maphex").play("5").play("a1")
... except IllegalMove as exc:
...     print(exc.code.value, "->", illegal_move(exc))
maphex.not in target -> a1 is not in the target sub-board (centre, 5)

Loading this module also makes ``str()`` of an illegal move read its sentence (see
:func:`engines.base.explain_with`), so a message or a log built from the error reads the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engines import (
    IllegalMove,
    IllegalMoveCode,
    MoveCode,
    fixation,
    inphexion,
    isopath,
    maphex,
    pathagon,
)
from engines.base import Argument, explain_with

__all__ = ["ILLEGAL_MOVES", "illegal_move", "listing"]

_Fix = fixation.IllegalMoveCode
_Inp = inphexion.IllegalMoveCode
_Iso = isopath.IllegalMoveCode
_Map = maphex.IllegalMoveCode
_Path = pathagon.IllegalMoveCode

_PUSH = "push an opponent's disc with from-to, e.g. c3-c4"
_WRITE_PATHAGON = "write d4 to place or d4-f6 to move a piece"
_NOT_RELOCATED = "{cell} is not relocated: "
_ENDS = "{move} ends the game ({why}), so nothing is relocated: write {move} alone"
_ADD = "a turn is two actions: after {action} add {wanted} (e.g. {example})"
_TWO_KINDS = "a turn has one tile move and one piece move, not two {kind}s"

#: The sentence for every illegal-move code, a :meth:`str.format` template over the code's
#: arguments (a list of names reads "a1, b2 and c3").
ILLEGAL_MOVES: Mapping[MoveCode, str] = MappingProxyType(
    {
        # -- every game ------------------------------------------------------------------
        IllegalMoveCode.NOT_TEXT: "a move is text, not {kind}",
        IllegalMoveCode.TOO_LONG: "that is not a move: {length} characters is too long",
        IllegalMoveCode.EMPTY: "the move is empty",
        IllegalMoveCode.UNEXPECTED_CHARACTERS: "{text!r} is not a move: unexpected characters",
        IllegalMoveCode.GAME_OVER: "the game is over: no more moves",
        IllegalMoveCode.IN_LIST: "move {number} ({move}) is illegal: {reason}",
        # -- Maphex ----------------------------------------------------------------------
        _Map.OPENING_NOT_A_SUBBOARD: (
            "Blue opens by choosing the sub-board for Red's first disc: "
            "a number 1..{count}, not {text!r}"
        ),
        _Map.NOT_A_CELL: "{text!r} is not a cell of the {size}x{size} board",
        _Map.TAKEN: "{cell} is already taken",
        _Map.NOT_IN_TARGET: "{cell} is not in the target sub-board ({target})",
        # -- Pathagon --------------------------------------------------------------------
        _Path.NOT_A_MOVE: "{text!r} is not a move: " + _WRITE_PATHAGON,
        _Path.NOT_A_SQUARE: (
            "{text!r} is not a square of the 7x7 board (a1..g7): " + _WRITE_PATHAGON
        ),
        _Path.NONE_IN_HAND: (
            "you have no pieces in hand: move one of your pieces (e.g. b2-{square})"
        ),
        _Path.STILL_IN_HAND: "you still have pieces in hand: place one ({square})",
        _Path.MUST_CHANGE_SQUARE: (
            "a move must change square: the piece on {square} cannot stay there"
        ),
        _Path.NO_PIECE: "there is no piece on {square} to move",
        _Path.NOT_YOURS: "{square} is not your piece",
        _Path.MOVED_LAST_TURN: "you moved the piece on {square} last turn: move another one",
        _Path.NOT_EMPTY: "{square} is not empty",
        _Path.EMPTIED_BY_TRAP: "{square} was emptied by a trap: you may not use it this turn",
        # -- Lines of Fixation -----------------------------------------------------------
        _Fix.NOT_A_MOVE: (
            "{text!r} is not a move: write the stack's cell and where its top disk lands, "
            "like a2-a4"
        ),
        _Fix.NOT_A_CELL: "{cell} is not a cell of the board (rows a..i)",
        _Fix.NO_STACK: "there is no stack on {cell}",
        _Fix.NOT_YOUR_STACK: "the stack on {cell} is {side}'s (its top disk)",
        _Fix.MUST_MOVE: "a stack must move: it cannot land where it stands",
        _Fix.LEAVES_BOARD: (
            "the stack on {cell} is {height} high: a move of {height} along that line "
            "leaves the board"
        ),
        _Fix.MOVES_ONE_CELL: (
            "the stack on {cell} is 1 high: it moves exactly 1 cell ({cell}-{landing})"
        ),
        _Fix.MOVES_EXACTLY: (
            "the stack on {cell} is {height} high: it moves exactly {height} cells "
            "({cell}-{landing})"
        ),
        _Fix.NOT_ON_ONE_LINE: "{start} and {end} are not on one line",
        _Fix.TOO_HIGH: "{cell} would be {height} high (maximum {maximum})",
        _Fix.FIXATION: "{side} has a taller stack on this line (fixation)",
        _Fix.EQUAL_HEIGHTS: "equal heights on this line: you may not capture",
        _Fix.REPEATS: "this would repeat an earlier position",
        _Fix.MUST_CAPTURE: "you must capture with a mono-colour stack of 3 or more ({moves})",
        _Fix.NOT_LEGAL: "that move is not legal",
        # -- Hexagonal Iso-Path ----------------------------------------------------------
        _Iso.NUMBERS_ONLY_ON_H4: (
            "{space} is not a space: numbers are only used on the h4 board, name spaces like d4"
        ),
        _Iso.NUMBER_OUT_OF_RANGE: "{space} is not a space: h4 spaces are numbered 1 to {count}",
        _Iso.NOT_A_SPACE: "{space} is not a space of the h{size} board",
        _Iso.NOT_AN_ACTION: (
            "{text!r} is not an Iso-Path action: write a tile move like c1>e6, a piece move "
            "like a4-b4 or a capture like xd4"
        ),
        _Iso.CAPTURE_NO_PIECE: (
            "{space} holds no {side} piece: a capture takes one of your opponent's pieces"
        ),
        _Iso.NOT_THREATENED: (
            "{space} is not threatened: a capture needs two of your pieces next to it at the "
            "start of your turn"
        ),
        _Iso.TILE_MOVES_NOTHING: "{start}>{end} moves nothing: a tile goes to another space",
        _Iso.OWN_HOME_ROW: "{space} is on your own home row (home-row rule)",
        _Iso.TILE_UNDER_PIECE: "{space} holds a piece: tiles under pieces cannot move",
        _Iso.TILE_ONTO_PIECE: "{space} holds a piece: no tile can be put under a piece",
        _Iso.NO_TILE: "{space} has no tile to take",
        _Iso.TWO_TILES: "{space} already has two tiles: a space holds at most two",
        _Iso.STEP_NO_PIECE: "{space} holds no {side} piece to move",
        _Iso.NOT_NEXT_TO: (
            "{end} is not next to {start}: a piece moves one space "
            "(the teleport pairs count as next to each other)"
        ),
        _Iso.SPACE_TAKEN: "{space} is taken: a piece moves to an empty space",
        _Iso.CLIMBER_NEEDS_TWO_TILES: (
            "{space} is not a two-tile space: a climber may only stand on two tiles"
        ),
        _Iso.DIGGER_NEEDS_BARE_BOARD: (
            "{space} still has tiles: a digger may only stand on the bare board"
        ),
        _Iso.TOO_MANY_ACTIONS: (
            "a turn is at most two actions: a tile move and a piece move "
            "(or a capture and one of them)"
        ),
        _Iso.ONE_ACTION_ONLY: "give just one action to see what can follow it",
        _Iso.CAPTURE_FIRST: "a capture can only be the first action of a turn",
        _Iso.ALREADY_WINS: "{action} already wins: the turn ends there",
        _Iso.NO_SECOND_ACTION: "{action}: no second action is possible after this one",
        _Iso.NO_SECOND_ACTION_BECAUSE: (
            "{action}: no second action is possible after this one ({reason})"
        ),
        _Iso.ADD_PIECE_MOVE: _ADD.replace("{wanted}", "a piece move"),
        _Iso.ADD_TILE_MOVE: _ADD.replace("{wanted}", "a tile move"),
        _Iso.ADD_TILE_OR_PIECE_MOVE: _ADD.replace("{wanted}", "a tile move or a piece move"),
        _Iso.TWO_TILE_MOVES: _TWO_KINDS.replace("{kind}", "tile move"),
        _Iso.TWO_PIECE_MOVES: _TWO_KINDS.replace("{kind}", "piece move"),
        # -- inpHeXion -------------------------------------------------------------------
        _Inp.NOT_A_CELL_OPENING: (
            "{text!r} is not a cell of the {size}x{size} board: "
            "White opens by placing one disc on any cell, e.g. d4"
        ),
        _Inp.NOT_A_CELL_PUSH: "{text!r} is not a cell of the {size}x{size} board: " + _PUSH,
        _Inp.NOT_A_CELL_RELOCATION: (
            "{text!r} is not a cell of the {size}x{size} board: a relocation is from>to, e.g. c4>a1"
        ),
        _Inp.PIE_OFF: "the pie rule is off in this game: swap is not allowed",
        _Inp.SWAP_TOO_LATE: "swap (pie rule) is only allowed as the answer to the first disc",
        _Inp.NOT_A_MOVE: "{text!r} is not a move: " + _PUSH,
        _Inp.PUSH_FROM_EMPTY: "{cell} is empty: a turn pushes one of {opponent}'s discs",
        _Inp.PUSH_OWN_DISC: "{cell} is your own disc: a turn pushes one of {opponent}'s discs",
        _Inp.NOT_NEXT_TO: "{end} is not next to {start}: a disc moves one step",
        _Inp.PUSH_NOT_EMPTY: "{cell} is not empty: a disc is pushed to an empty neighbour",
        _Inp.ENDS_BY_CONNECTION: _ENDS.replace("{why}", "it completes {colour}'s connection"),
        _Inp.ENDS_WITHOUT_ROOM: _ENDS.replace(
            "{why}", "there are not enough empty cells to relocate into"
        ),
        _Inp.NOT_A_RELOCATION: "{text!r} is not a relocation: write from>to, e.g. c4>a1",
        _Inp.RELOCATED_TWICE: "{cell} is relocated twice",
        _Inp.NOT_RELOCATED_OWN: _NOT_RELOCATED + "your own discs are never relocated",
        _Inp.NOT_RELOCATED_EMPTY: _NOT_RELOCATED + "there is no disc there after your move",
        _Inp.NOT_RELOCATED_NOT_NEW: (
            _NOT_RELOCATED + "only discs this move newly surrounds are relocated"
        ),
        _Inp.SURROUNDS_NOTHING: (
            "{move} surrounds nothing, so nothing is relocated: write {move} alone"
        ),
        _Inp.ONE_SURROUNDED: "{cell} is now surrounded: add where it goes, e.g. {move} {example}",
        _Inp.SEVERAL_SURROUNDED: (
            "{cells} are now surrounded: add where each goes, e.g. {move} {example}"
        ),
        _Inp.BEING_VACATED: "{cell} is being vacated: relocated discs go to cells empty now",
        _Inp.RELOCATION_NOT_EMPTY: "{cell} is not empty: a relocated disc needs an empty cell",
        _Inp.SAME_DESTINATION: "two discs cannot both go to {cell}",
    }
)


def listing(names: tuple[str, ...]) -> str:
    """Names read as a list: ``("a1",)`` -> ``a1``; ``("a1", "b2", "c3")`` -> ``a1, b2 and c3``.

    >>> listing(("a1",)), listing(("a1", "b2", "c3"))
    ('a1', 'a1, b2 and c3')
    """
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _word(value: Argument) -> object:
    if isinstance(value, IllegalMove):
        return illegal_move(value)
    if isinstance(value, tuple):
        return listing(value)
    return value


def illegal_move(exc: IllegalMove) -> str:
    """The one-line sentence saying why the move of ``exc`` is illegal, the rule it breaks
    named (the words players have always read)."""
    template = ILLEGAL_MOVES[exc.code]
    return template.format(**{name: _word(value) for name, value in exc.arguments.items()})


explain_with(illegal_move)
