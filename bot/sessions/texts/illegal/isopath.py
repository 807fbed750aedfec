"""Why a move of Hexagonal Iso-Path is illegal, in words: the sentence of each of its own codes
(:attr:`engines.Game.codes`), a :meth:`str.format` template over the code's arguments, found
by the game's name (:mod:`bot.sessions.texts.illegal`)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.core.i18n import N_
from engines.base import MoveCode
from engines.isopath import IllegalMoveCode as Code

__all__ = ["SENTENCES"]

#: The sentence of every code of the game's own.
SENTENCES: Mapping[MoveCode, str] = MappingProxyType(
    {
        Code.NUMBERS_ONLY_ON_H4: N_(
            "{space} is not a space: numbers are only used on the h4 board, name spaces like d4"
        ),
        Code.NUMBER_OUT_OF_RANGE: N_("{space} is not a space: h4 spaces are numbered 1 to {count}"),
        Code.NOT_A_SPACE: N_("{space} is not a space of the h{size} board"),
        Code.NOT_AN_ACTION: N_(
            "{text!r} is not an Iso-Path action: write a tile move like c1>e6, a piece move like "
            "a4-b4 or a capture like xd4"
        ),
        Code.CAPTURE_NO_PIECE: N_(
            "{space} holds no {side} piece: a capture takes one of your opponent's pieces"
        ),
        Code.NOT_THREATENED: N_(
            "{space} is not threatened: a capture needs two of your pieces next to it at the "
            "start of your turn"
        ),
        Code.TILE_MOVES_NOTHING: N_("{start}>{end} moves nothing: a tile goes to another space"),
        Code.OWN_HOME_ROW: N_("{space} is on your own home row (home-row rule)"),
        Code.TILE_UNDER_PIECE: N_("{space} holds a piece: tiles under pieces cannot move"),
        Code.TILE_ONTO_PIECE: N_("{space} holds a piece: no tile can be put under a piece"),
        Code.NO_TILE: N_("{space} has no tile to take"),
        Code.TWO_TILES: N_("{space} already has two tiles: a space holds at most two"),
        Code.STEP_NO_PIECE: N_("{space} holds no {side} piece to move"),
        Code.NOT_NEXT_TO: N_(
            "{end} is not next to {start}: a piece moves one space (the teleport pairs count as "
            "next to each other)"
        ),
        Code.SPACE_TAKEN: N_("{space} is taken: a piece moves to an empty space"),
        Code.CLIMBER_NEEDS_TWO_TILES: N_(
            "{space} is not a two-tile space: a climber may only stand on two tiles"
        ),
        Code.DIGGER_NEEDS_BARE_BOARD: N_(
            "{space} still has tiles: a digger may only stand on the bare board"
        ),
        Code.TOO_MANY_ACTIONS: N_(
            "a turn is at most two actions: a tile move and a piece move (or a capture and one of "
            "them)"
        ),
        Code.ONE_ACTION_ONLY: N_("give just one action to see what can follow it"),
        Code.CAPTURE_FIRST: N_("a capture can only be the first action of a turn"),
        Code.ALREADY_WINS: N_("{action} already wins: the turn ends there"),
        Code.NO_SECOND_ACTION: N_("{action}: no second action is possible after this one"),
        Code.NO_SECOND_ACTION_BECAUSE: N_(
            "{action}: no second action is possible after this one ({reason})"
        ),
        Code.ADD_PIECE_MOVE: N_(
            "a turn is two actions: after {action} add a piece move (e.g. {example})"
        ),
        Code.ADD_TILE_MOVE: N_(
            "a turn is two actions: after {action} add a tile move (e.g. {example})"
        ),
        Code.ADD_TILE_OR_PIECE_MOVE: N_(
            "a turn is two actions: after {action} add a tile move or a piece move (e.g. {example})"
        ),
        Code.TWO_TILE_MOVES: N_("a turn has one tile move and one piece move, not two tile moves"),
        Code.TWO_PIECE_MOVES: N_(
            "a turn has one tile move and one piece move, not two piece moves"
        ),
    }
)
