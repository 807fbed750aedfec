"""A short text for a position: alt text for the picture, console output, screen readers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines.base import Position

__all__ = ["describe"]


def _names(board: Any, cells: Iterable[int]) -> str:
    listed = [board.name(c) for c in cells]
    return " ".join(listed) if listed else "none"


def _colour_name(position: Any, colour: int) -> str:
    """The side name of colour index ``colour`` (the seat playing it may have swapped)."""
    colours = getattr(position, "colours", None)
    sides = position.seat_sides
    if colours is None:
        return str(sides[colour])
    seat = 0 if colours[0] == colour else 1
    return str(sides[seat])


def _pieces(position: Any) -> str:
    """Where each side stands, game by game, from the position's attributes."""
    game = position.game
    board = position.board
    if game == "fixation":
        letters = "".join(_colour_name(position, c)[0] for c in (0, 1))
        stacks = [
            f"{board.name(c)} {''.join(letters[d] for d in s)}"
            for c, s in enumerate(position.stacks)
            if s
        ]
        return f"Stacks, bottom to top ({letters[0]}/{letters[1]}): " + ", ".join(stacks) + "."
    values = position.pieces if game == "isopath" else position.cells
    parts = []
    for colour in (0, 1):
        cells = [c for c, v in enumerate(values) if v == colour]
        parts.append(f"{_colour_name(position, colour)}: {_names(board, cells)}")
    text = "; ".join(parts) + "."
    if game == "isopath":
        hills = [c for c, h in enumerate(position.heights) if h > 0]
        pits = [c for c, h in enumerate(position.heights) if h < 0]
        text += f" Two tiles: {_names(board, hills)}; no tile: {_names(board, pits)}."
    if game == "pathagon":
        hand = [
            f"{position.seat_sides[s]} {position.in_hand[s]}"
            + (f" ({position.returned[s]} returned)" if position.returned[s] else "")
            for s in (0, 1)
        ]
        text += " In hand: " + ", ".join(hand) + "."
    return text


def _effects(position: Any) -> str:
    """What the last move captured, trapped or relocated."""
    game = position.game
    board = position.board
    if game == "pathagon" and position.trapped:
        return f", trapping {_names(board, position.trapped)}"
    if game == "fixation" and position.last_captures:
        return f", capturing {_names(board, position.last_captures)}"
    if game == "isopath" and position.last_capture is not None:
        return f", capturing {board.name(position.last_capture)}"
    if game == "maphex" and position.last_move.isdigit():
        return f" (the sub-board for {position.seat_sides[0]}'s first disc)"
    if game == "inphexion":
        text = ""
        if position.last_from is not None and position.last_to is not None:
            text = (
                f", pushing the disc on {board.name(position.last_from)}"
                f" to {board.name(position.last_to)}"
            )
        if position.relocations:
            moved = ", ".join(
                f"{board.name(a)} to {board.name(b)}" for a, b in position.relocations
            )
            text += f", relocating {moved}"
        return text
    return ""


def _turn_detail(position: Any) -> str:
    game = position.game
    if game == "maphex":
        if position.choosing:
            return f", choosing the sub-board for {position.seat_sides[0]}'s first disc"
        if position.free:
            return ", anywhere (the target sub-board is full)"
        if position.target_name:
            return f", in {position.target_name}"
    if game == "pathagon" and position.forbidden:
        return f" (not on {_names(position.board, sorted(position.forbidden))})"
    if game == "isopath" and position.threatened:
        return f" (may capture {_names(position.board, sorted(position.threatened))})"
    return ""


def describe(position: Position) -> str:
    """The position, the last move and whose turn it is (or the result), in a few sentences.

    >>> import engines
    >>> print(describe(engines.new("maphex").play("5").play("e5")))
    Maphex 9x9, move 3. Red: e5; Blue: none. Last: Red e5. Blue to move, in centre, 5.
    """
    from engines import GAMES

    pos: Any = position
    game = GAMES.get(pos.game)
    title = game.title if game is not None else pos.game
    board = pos.board
    n = getattr(board, "n", 0)
    shape = f" {n}x{n}" if board.kind != "hexagon" else f", side {n}"
    over = pos.outcome is not None
    head = f"{title}{shape}, " + (f"after {pos.ply} moves." if over else f"move {pos.ply + 1}.")
    parts = [head, _pieces(pos)]
    if pos.last_move is not None:
        mover = pos.seat_sides[1 - pos.to_move]
        parts.append(f"Last: {mover} {pos.last_move}{_effects(pos)}.")
    if over:
        winner = pos.outcome.winner
        reason = pos.outcome.reason
        if winner is None:
            parts.append(f"Game over: draw ({reason}).")
        else:
            parts.append(f"Game over: {pos.seat_sides[winner]} won ({reason}).")
    else:
        parts.append(f"{pos.seat_sides[pos.to_move]} to move{_turn_detail(pos)}.")
    return " ".join(parts)
