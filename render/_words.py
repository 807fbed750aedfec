"""Words shared by the games' descriptions (``render.describe``): cell lists and side names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engines.base import Outcome, Position, pictured
from engines.geometry import Board

__all__ = ["colour_name", "names", "result_text", "side_lists"]


def names(board: Board, cells: Iterable[int]) -> str:
    """Cell names separated by spaces, or ``"none"``."""
    listed = [board.name(c) for c in cells]
    return " ".join(listed) if listed else "none"


def colour_name(position: Position, colour: int) -> str:
    """The side name of colour index ``colour`` (the seat playing it may have swapped)."""
    colours = getattr(position, "colours", None)
    sides = position.seat_sides
    if colours is None:
        return str(sides[colour])
    seat = 0 if colours[0] == colour else 1
    return str(sides[seat])


def side_lists(position: Position, board: Board, values: Sequence[int]) -> str:
    """``"Red: a1 b2; Blue: none."``: the cells of ``board`` holding each colour of
    ``values``."""
    parts = []
    for colour in (0, 1):
        cells = [c for c, v in enumerate(values) if v == colour]
        parts.append(f"{colour_name(position, colour)}: {names(board, cells)}")
    return "; ".join(parts) + "."


#: How each reason reads after the winner's side ("Red wins by connection"); ``{loser}`` is
#: the other side.  Reasons the engines give, and those the bot decides (resignation, time).
_WIN_WORDS: dict[str, str] = {
    "connection": "by connection",
    "resignation": "by resignation",
    "time": "on time",
    "home row": "on the home row",
    "last piece captured": "by capturing the last piece",
    "no legal move": "({loser} has no legal move)",
    "no legal turn": "({loser} has no legal turn)",
    "one group": "with all stacks in one group",
    "two 6-high stacks": "with two 6-high stacks",
    "relocation impossible": "({loser} could not relocate)",
}
#: Results without a winner.
_NO_WINNER_WORDS: dict[str, str] = {
    "agreement": "Drawn by agreement",
    "aborted": "Aborted: no move was made",
}


def result_text(outcome: Outcome, sides: Sequence[str]) -> str:
    """A finished game's result in words, from its outcome (``winner`` a seat or ``None``,
    ``reason``) and the side each seat plays.

    >>> from engines import Outcome
    >>> result_text(Outcome(1, "time"), ("Red", "Blue"))
    'Blue wins on time'
    >>> result_text(Outcome(None, "agreement"), ("Red", "Blue"))
    'Drawn by agreement'
    >>> result_text(Outcome(0, "no legal move"), ("Light", "Dark"))
    'Light wins (Dark has no legal move)'
    """
    reason = pictured(outcome.termination)
    if reason == "aborted":
        return _NO_WINNER_WORDS[reason]
    winner = outcome.winner
    if winner is None:
        return _NO_WINNER_WORDS.get(reason, f"Draw ({reason})")
    words = _WIN_WORDS.get(reason, f"({reason})")
    return f"{sides[winner]} wins {words.format(loser=sides[1 - winner])}"
