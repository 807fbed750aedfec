"""Words shared by the games' descriptions (``render.describe``): cell lists and side names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["colour_name", "names", "side_lists"]


def names(board: Any, cells: Iterable[int]) -> str:
    """Cell names separated by spaces, or ``"none"``."""
    listed = [board.name(c) for c in cells]
    return " ".join(listed) if listed else "none"


def colour_name(position: Any, colour: int) -> str:
    """The side name of colour index ``colour`` (the seat playing it may have swapped)."""
    colours = getattr(position, "colours", None)
    sides = position.seat_sides
    if colours is None:
        return str(sides[colour])
    seat = 0 if colours[0] == colour else 1
    return str(sides[seat])


def side_lists(position: Any, values: Sequence[int]) -> str:
    """``"Red: a1 b2; Blue: none."``: the cells holding each colour of ``values``."""
    parts = []
    for colour in (0, 1):
        cells = [c for c, v in enumerate(values) if v == colour]
        parts.append(f"{colour_name(position, colour)}: {names(position.board, cells)}")
    return "; ".join(parts) + "."
