"""A short text for a position: alt text for the picture, console output, screen readers."""

from __future__ import annotations

from typing import Any

from engines.base import Position
from render._pipeline import art_for

__all__ = ["describe"]


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
    art = art_for(pos)
    parts = [head, art.pieces_text(pos)]
    if pos.last_move is not None:
        mover = pos.seat_sides[1 - pos.to_move]
        parts.append(f"Last: {mover} {pos.last_move}{art.effects_text(pos)}.")
    if over:
        winner = pos.outcome.winner
        reason = pos.outcome.reason
        if winner is None:
            parts.append(f"Game over: draw ({reason}).")
        else:
            parts.append(f"Game over: {pos.seat_sides[winner]} won ({reason}).")
    else:
        parts.append(f"{pos.seat_sides[pos.to_move]} to move{art.turn_text(pos)}.")
    return " ".join(parts)
