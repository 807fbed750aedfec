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

import re
from collections.abc import Mapping
from types import MappingProxyType

from bot.messages import Text, say
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
from render.maphex import subboard_words

__all__ = ["ILLEGAL_MOVES", "illegal_move", "illegal_said", "listing"]


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs (``pybabel extract`` reads this call); it is said
    when used (:func:`illegal_said`)."""
    return message


_Fix = fixation.IllegalMoveCode
_Inp = inphexion.IllegalMoveCode
_Iso = isopath.IllegalMoveCode
_Map = maphex.IllegalMoveCode
_Path = pathagon.IllegalMoveCode


#: The sentence for every illegal-move code, a :meth:`str.format` template over the code's
#: arguments (a list of names reads "a1, b2 and c3").
ILLEGAL_MOVES: Mapping[MoveCode, str] = MappingProxyType(
    {
        # -- every game ------------------------------------------------------------------
        IllegalMoveCode.NOT_TEXT: N_("a move is text, not {kind}"),
        IllegalMoveCode.TOO_LONG: N_("that is not a move: {length} characters is too long"),
        IllegalMoveCode.EMPTY: N_("the move is empty"),
        IllegalMoveCode.UNEXPECTED_CHARACTERS: N_("{text!r} is not a move: unexpected characters"),
        IllegalMoveCode.GAME_OVER: N_("the game is over: no more moves"),
        IllegalMoveCode.IN_LIST: N_("move {number} ({move}) is illegal: {reason}"),
        # -- Maphex ----------------------------------------------------------------------
        _Map.OPENING_NOT_A_SUBBOARD: N_(
            "Blue opens by choosing the sub-board for Red's first disc: a number 1..{count}, not "
            "{text!r}"
        ),
        _Map.NOT_A_CELL: N_("{text!r} is not a cell of the {size}x{size} board"),
        _Map.TAKEN: N_("{cell} is already taken"),
        _Map.NOT_IN_TARGET: N_("{cell} is not in the target sub-board ({target})"),
        # -- Pathagon --------------------------------------------------------------------
        _Path.NOT_A_MOVE: N_("{text!r} is not a move: write d4 to place or d4-f6 to move a piece"),
        _Path.NOT_A_SQUARE: N_(
            "{text!r} is not a square of the 7x7 board (a1..g7): write d4 to place or d4-f6 to "
            "move a piece"
        ),
        _Path.NONE_IN_HAND: N_(
            "you have no pieces in hand: move one of your pieces (e.g. b2-{square})"
        ),
        _Path.STILL_IN_HAND: N_("you still have pieces in hand: place one ({square})"),
        _Path.MUST_CHANGE_SQUARE: N_(
            "a move must change square: the piece on {square} cannot stay there"
        ),
        _Path.NO_PIECE: N_("there is no piece on {square} to move"),
        _Path.NOT_YOURS: N_("{square} is not your piece"),
        _Path.MOVED_LAST_TURN: N_("you moved the piece on {square} last turn: move another one"),
        _Path.NOT_EMPTY: N_("{square} is not empty"),
        _Path.EMPTIED_BY_TRAP: N_("{square} was emptied by a trap: you may not use it this turn"),
        # -- Lines of Fixation -----------------------------------------------------------
        _Fix.NOT_A_MOVE: N_(
            "{text!r} is not a move: write the stack's cell and where its top disk lands, like "
            "a2-a4"
        ),
        _Fix.NOT_A_CELL: N_("{cell} is not a cell of the board (rows a..i)"),
        _Fix.NO_STACK: N_("there is no stack on {cell}"),
        _Fix.NOT_YOUR_STACK: N_("the stack on {cell} is {side}'s (its top disk)"),
        _Fix.MUST_MOVE: N_("a stack must move: it cannot land where it stands"),
        _Fix.LEAVES_BOARD: N_(
            "the stack on {cell} is {height} high: a move of {height} along that line leaves the "
            "board"
        ),
        _Fix.MOVES_ONE_CELL: N_(
            "the stack on {cell} is 1 high: it moves exactly 1 cell ({cell}-{landing})"
        ),
        _Fix.MOVES_EXACTLY: N_(
            "the stack on {cell} is {height} high: it moves exactly {height} cells "
            "({cell}-{landing})"
        ),
        _Fix.NOT_ON_ONE_LINE: N_("{start} and {end} are not on one line"),
        _Fix.TOO_HIGH: N_("{cell} would be {height} high (maximum {maximum})"),
        _Fix.FIXATION: N_("{side} has a taller stack on this line (fixation)"),
        _Fix.EQUAL_HEIGHTS: N_("equal heights on this line: you may not capture"),
        _Fix.REPEATS: N_("this would repeat an earlier position"),
        _Fix.MUST_CAPTURE: N_("you must capture with a mono-colour stack of 3 or more ({moves})"),
        _Fix.NOT_LEGAL: N_("that move is not legal"),
        # -- Hexagonal Iso-Path ----------------------------------------------------------
        _Iso.NUMBERS_ONLY_ON_H4: N_(
            "{space} is not a space: numbers are only used on the h4 board, name spaces like d4"
        ),
        _Iso.NUMBER_OUT_OF_RANGE: N_("{space} is not a space: h4 spaces are numbered 1 to {count}"),
        _Iso.NOT_A_SPACE: N_("{space} is not a space of the h{size} board"),
        _Iso.NOT_AN_ACTION: N_(
            "{text!r} is not an Iso-Path action: write a tile move like c1>e6, a piece move like "
            "a4-b4 or a capture like xd4"
        ),
        _Iso.CAPTURE_NO_PIECE: N_(
            "{space} holds no {side} piece: a capture takes one of your opponent's pieces"
        ),
        _Iso.NOT_THREATENED: N_(
            "{space} is not threatened: a capture needs two of your pieces next to it at the "
            "start of your turn"
        ),
        _Iso.TILE_MOVES_NOTHING: N_("{start}>{end} moves nothing: a tile goes to another space"),
        _Iso.OWN_HOME_ROW: N_("{space} is on your own home row (home-row rule)"),
        _Iso.TILE_UNDER_PIECE: N_("{space} holds a piece: tiles under pieces cannot move"),
        _Iso.TILE_ONTO_PIECE: N_("{space} holds a piece: no tile can be put under a piece"),
        _Iso.NO_TILE: N_("{space} has no tile to take"),
        _Iso.TWO_TILES: N_("{space} already has two tiles: a space holds at most two"),
        _Iso.STEP_NO_PIECE: N_("{space} holds no {side} piece to move"),
        _Iso.NOT_NEXT_TO: N_(
            "{end} is not next to {start}: a piece moves one space (the teleport pairs count as "
            "next to each other)"
        ),
        _Iso.SPACE_TAKEN: N_("{space} is taken: a piece moves to an empty space"),
        _Iso.CLIMBER_NEEDS_TWO_TILES: N_(
            "{space} is not a two-tile space: a climber may only stand on two tiles"
        ),
        _Iso.DIGGER_NEEDS_BARE_BOARD: N_(
            "{space} still has tiles: a digger may only stand on the bare board"
        ),
        _Iso.TOO_MANY_ACTIONS: N_(
            "a turn is at most two actions: a tile move and a piece move (or a capture and one of "
            "them)"
        ),
        _Iso.ONE_ACTION_ONLY: N_("give just one action to see what can follow it"),
        _Iso.CAPTURE_FIRST: N_("a capture can only be the first action of a turn"),
        _Iso.ALREADY_WINS: N_("{action} already wins: the turn ends there"),
        _Iso.NO_SECOND_ACTION: N_("{action}: no second action is possible after this one"),
        _Iso.NO_SECOND_ACTION_BECAUSE: N_(
            "{action}: no second action is possible after this one ({reason})"
        ),
        _Iso.ADD_PIECE_MOVE: N_(
            "a turn is two actions: after {action} add a piece move (e.g. {example})"
        ),
        _Iso.ADD_TILE_MOVE: N_(
            "a turn is two actions: after {action} add a tile move (e.g. {example})"
        ),
        _Iso.ADD_TILE_OR_PIECE_MOVE: N_(
            "a turn is two actions: after {action} add a tile move or a piece move (e.g. {example})"
        ),
        _Iso.TWO_TILE_MOVES: N_("a turn has one tile move and one piece move, not two tile moves"),
        _Iso.TWO_PIECE_MOVES: N_(
            "a turn has one tile move and one piece move, not two piece moves"
        ),
        # -- inpHeXion -------------------------------------------------------------------
        _Inp.NOT_A_CELL_OPENING: N_(
            "{text!r} is not a cell of the {size}x{size} board: White opens by placing one disc "
            "on any cell, e.g. d4"
        ),
        _Inp.NOT_A_CELL_PUSH: N_(
            "{text!r} is not a cell of the {size}x{size} board: push an opponent's disc with "
            "from-to, e.g. c3-c4"
        ),
        _Inp.NOT_A_CELL_RELOCATION: N_(
            "{text!r} is not a cell of the {size}x{size} board: a relocation is from>to, e.g. c4>a1"
        ),
        _Inp.PIE_OFF: N_("the pie rule is off in this game: swap is not allowed"),
        _Inp.SWAP_TOO_LATE: N_("swap (pie rule) is only allowed as the answer to the first disc"),
        _Inp.NOT_A_MOVE: N_(
            "{text!r} is not a move: push an opponent's disc with from-to, e.g. c3-c4"
        ),
        _Inp.PUSH_FROM_EMPTY: N_("{cell} is empty: a turn pushes one of {opponent}'s discs"),
        _Inp.PUSH_OWN_DISC: N_("{cell} is your own disc: a turn pushes one of {opponent}'s discs"),
        _Inp.NOT_NEXT_TO: N_("{end} is not next to {start}: a disc moves one step"),
        _Inp.PUSH_NOT_EMPTY: N_("{cell} is not empty: a disc is pushed to an empty neighbour"),
        _Inp.ENDS_BY_CONNECTION: N_(
            "{move} ends the game (it completes {colour}'s connection), so nothing is relocated: "
            "write {move} alone"
        ),
        _Inp.ENDS_WITHOUT_ROOM: N_(
            "{move} ends the game (there are not enough empty cells to relocate into), so nothing "
            "is relocated: write {move} alone"
        ),
        _Inp.NOT_A_RELOCATION: N_("{text!r} is not a relocation: write from>to, e.g. c4>a1"),
        _Inp.RELOCATED_TWICE: N_("{cell} is relocated twice"),
        _Inp.NOT_RELOCATED_OWN: N_("{cell} is not relocated: your own discs are never relocated"),
        _Inp.NOT_RELOCATED_EMPTY: N_(
            "{cell} is not relocated: there is no disc there after your move"
        ),
        _Inp.NOT_RELOCATED_NOT_NEW: N_(
            "{cell} is not relocated: only discs this move newly surrounds are relocated"
        ),
        _Inp.SURROUNDS_NOTHING: N_(
            "{move} surrounds nothing, so nothing is relocated: write {move} alone"
        ),
        _Inp.ONE_SURROUNDED: N_(
            "{cell} is now surrounded: add where it goes, e.g. {move} {example}"
        ),
        _Inp.SEVERAL_SURROUNDED: N_(
            "{cells} are now surrounded: add where each goes, e.g. {move} {example}"
        ),
        _Inp.BEING_VACATED: N_("{cell} is being vacated: relocated discs go to cells empty now"),
        _Inp.RELOCATION_NOT_EMPTY: N_("{cell} is not empty: a relocated disc needs an empty cell"),
        _Inp.SAME_DESTINATION: N_("two discs cannot both go to {cell}"),
    }
)


def listing(names: tuple[str, ...]) -> Text:
    """Names read as a list: ``("a1",)`` -> ``a1``; ``("a1", "b2", "c3")`` -> ``a1, b2 and c3``.

    >>> str(listing(("a1",))), str(listing(("a1", "b2", "c3")))
    ('a1', 'a1, b2 and c3')
    """
    if len(names) == 1:
        return Text.of(names[0])
    return say("{some} and {last}", some=", ".join(names[:-1]), last=names[-1])


_QUOTED = re.compile(r"\{(\w+)!r\}")


def _word(value: Argument, quoted: bool) -> object:
    if isinstance(value, IllegalMove):
        return illegal_said(value)
    if isinstance(value, tuple):
        return listing(value)
    return repr(value) if quoted else value


_SUBBOARD_NUMBER = re.compile(r"(\d+)$")


def _subboard(name: str) -> Text | str:
    """Maphex's target sub-board as the engine names it (``centre, 5``; ``row 2, column 3;
    7`` with 4x4 sub-boards), in the reader's words (the pictures' own, :mod:`render.maphex`)."""
    found = _SUBBOARD_NUMBER.search(name)
    if found is None:
        return name
    template, values = subboard_words(int(found.group(1)) - 1, 4 if ";" in name else 3)
    return say(template, **{k: say(v) if isinstance(v, str) else v for k, v in values.items()})


def illegal_said(exc: IllegalMove) -> Text:
    """Why the move of ``exc`` is illegal, said in the reader's language when rendered (a
    ``{name!r}`` in the English shows the value quoted)."""
    template = ILLEGAL_MOVES[exc.code]
    quoted = set(_QUOTED.findall(template))
    values = {name: _word(value, name in quoted) for name, value in exc.arguments.items()}
    if exc.code is _Map.NOT_IN_TARGET:
        values["target"] = _subboard(str(exc.arguments["target"]))
    return say(template, **values)


def illegal_move(exc: IllegalMove) -> str:
    """The one-line sentence saying why the move of ``exc`` is illegal, the rule it breaks
    named (the words players have always read), in the language in use."""
    return str(illegal_said(exc))


explain_with(illegal_move)
