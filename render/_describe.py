"""A short text for a position: alt text for the picture, console output, screen readers."""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import Outcome, Position
from render._core import scene_of
from render._pipeline import art_for
from render._words import result_text

__all__ = ["describe"]


def describe(
    position: Position,
    *,
    outcome: Outcome | None = None,
    players: Sequence[str] | None = None,
    clock: str | None = None,
) -> str:
    """The position, the last move and whose turn it is (or the result), in a few sentences.

    ``outcome`` is a result the bot decided (resignation, agreement, time, abort) and
    overrides the position's own; ``players`` names the players by seat; ``clock`` is the
    time the player to move has left, as the bot words it.

    >>> import engines
    >>> print(describe(engines.new("maphex").play("5").play("e5")))
    Maphex 9x9, move 3. Red: e5; Blue: none. Last: Red e5. Blue to move, in centre, 5.
    >>> resigned = engines.Outcome(0, "resignation")
    >>> describe(engines.new("pathagon").play("d4"), outcome=resigned)[-37:]
    'Game over. Light wins by resignation.'
    """
    from engines import GAMES

    pos = position
    scene = scene_of(position, outcome, players, clock)
    game = GAMES.get(pos.game)
    title = game.title if game is not None else pos.game
    art = art_for(pos)
    board = art.board(pos)
    n = getattr(board, "n", 0)
    shape = f" {n}x{n}" if board.kind != "hexagon" else f", side {n}"
    over = scene.over
    head = f"{title}{shape}, " + (f"after {pos.ply} moves." if over else f"move {pos.ply + 1}.")
    sides = pos.seat_sides
    parts = [head]
    if scene.players is not None:
        parts.append(f"{scene.players[0]} plays {sides[0]}, {scene.players[1]} plays {sides[1]}.")
    if pos.ply == 0 and not over:
        opening = art.opening_text(pos)
        if opening:
            parts.append(opening)
    parts.append(art.pieces_text(pos))
    if pos.last_move is not None:
        mover = sides[1 - pos.to_move]
        parts.append(f"Last: {mover} {pos.last_move}{art.effects_text(pos)}.")
    if scene.outcome is not None:
        parts.append(f"Game over. {result_text(scene.outcome, sides)}.")
    else:
        parts.append(f"{sides[pos.to_move]} to move{art.turn_text(pos)}.")
        if scene.clock:
            parts.append(f"Clock: {scene.clock}.")
    return " ".join(parts)
