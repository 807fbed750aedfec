"""A short text for a position: alt text for the picture, console output, screen readers."""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import Outcome, Position
from render._core import scene_of
from render._pipeline import art_for
from render._words import fill, gettext, ngettext, number, result_text, side_word

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
    if board.kind != "hexagon":
        shape = f"{title} {n}x{n}"
    else:
        shape = fill(gettext("{game}, side {size}"), {"game": title, "size": number(n)})
    over = scene.over
    if over:
        words = ngettext("{board}, after {count} move.", "{board}, after {count} moves.", pos.ply)
        head = fill(words, {"board": shape, "count": number(pos.ply)})
    else:
        words = gettext("{board}, move {number}.")
        head = fill(words, {"board": shape, "number": number(pos.ply + 1)})
    sides = pos.seat_sides
    parts = [head]
    if scene.players is not None:
        plays = gettext("{first} plays {first_side}, {second} plays {second_side}.")
        said = {"first": scene.players[0], "first_side": side_word(sides[0])}
        said |= {"second": scene.players[1], "second_side": side_word(sides[1])}
        parts.append(fill(plays, said))
    if pos.ply == 0 and not over:
        opening = art.opening_text(pos)
        if opening:
            parts.append(opening)
    parts.append(art.pieces_text(pos))
    if pos.last_move is not None:
        mover = side_word(sides[1 - pos.to_move])
        said = {"side": mover, "move": pos.last_move, "effects": art.effects_text(pos)}
        parts.append(fill(gettext("Last: {side} {move}{effects}."), said))
    if scene.outcome is not None:
        result = result_text(scene.outcome, sides)
        parts.append(fill(gettext("Game over. {result}."), {"result": result}))
    else:
        said = {"side": side_word(sides[pos.to_move]), "details": art.turn_text(pos)}
        parts.append(fill(gettext("{side} to move{details}."), said))
        if scene.clock:
            parts.append(fill(gettext("Clock: {clock}."), {"clock": scene.clock}))
    return " ".join(parts)
