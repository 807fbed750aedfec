"""Hexagonal Iso-Path's turns as the board picker's two steps (:attr:`engines.Game.turns`):
the build first (a tile move, or a capture in its place, or none when a lone piece move wins),
then the piece move (or a capture in its place; none when the build alone wins).

A turn's notation lists its actions in the order they are played (``a4-b4 c1>e6`` when the
piece must leave ``c1`` before its tile can be taken); its steps are the same whatever that
order.  Pure functions of notation: :func:`engines.isopath.turn_table` applies them to a
position's legal turns.

>>> steps("a4-b4 c1>e6"), steps("xd4 c1>e6"), steps("xd4 a4-b4"), steps("a4-b4")
(('c1>e6', 'a4-b4'), ('c1>e6', 'xd4'), ('xd4', 'a4-b4'), (None, 'a4-b4'))
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.base import TurnSteps, action_kind

__all__ = ["TABLES_KEPT", "steps", "table_of"]

#: How many positions' turn tables are kept (see :func:`engines.isopath.turn_table`): a table
#: of a busy h5 position is ~10,000 turns, ~2.5 MB, so at most ~20 MB.
TABLES_KEPT = 8


def steps(move: str) -> TurnSteps:
    """A turn's notation (canonical) as its two steps: (build, other action)."""
    tile = capture = step = None
    for action in move.split(" "):
        kind = action_kind(action)
        if kind == ">":
            tile = action
        elif kind == "x":
            capture = action
        else:
            step = action
    if tile is not None:
        return tile, capture or step
    if capture is not None:
        return capture, step
    return None, step


def table_of(moves: Iterable[str]) -> dict[TurnSteps, str]:
    """Every turn of ``moves`` (legal, canonical) by its steps; a turn legal in both orders is
    noted build first.

    >>> table_of(["a4-b4 c1>e6", "c1>e6 a4-b4", "xd4"])
    {('c1>e6', 'a4-b4'): 'c1>e6 a4-b4', ('xd4', None): 'xd4'}
    """
    table: dict[TurnSteps, str] = {}
    for move in moves:
        pair = steps(move)
        known = table.get(pair)
        if known is None or (
            action_kind(move.split(" ", 1)[0]) == ">" and action_kind(known.split(" ", 1)[0]) != ">"
        ):
            table[pair] = move
    return table
