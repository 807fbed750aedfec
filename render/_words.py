"""The words on the pictures and in their descriptions (``render.describe``): cell lists, side
names, the status band, and what every game's legends and alt texts say through.

Every word is said in the language in use (:func:`bot.core.i18n.use`, set by the sessions or
the surface for whoever reads the picture): render reads it, never decides it.  The games'
own words are marked where they are written (``gettext("...")`` or ``N_``) and said with the
functions re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from babel.lists import format_list

from bot.core.i18n import PSEUDO, SOURCE, current, fill, gettext, ngettext, number
from engines.base import Outcome, Position, pictured
from engines.geometry import Board


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs; it is said when used (``gettext``)."""
    return message


__all__ = [
    "N_",
    "SIDE_NAMES",
    "colour_name",
    "either",
    "fill",
    "gettext",
    "language",
    "last_move_words",
    "move_number_words",
    "moves_played_words",
    "names",
    "ngettext",
    "number",
    "result_text",
    "side_lists",
    "side_word",
    "to_move_words",
]


def names(board: Board, cells: Iterable[int]) -> str:
    """Cell names separated by spaces, or ``"none"``."""
    listed = [board.name(c) for c in cells]
    return " ".join(listed) if listed else gettext("none")


def language() -> str:
    """The language the words are said in now (part of every cache key of drawn words)."""
    return current()


def either(items: Sequence[str]) -> str:
    """``"a, b or c"`` in the language in use.

    >>> either(["d4", "e5", "f6"])
    'd4, e5, or f6'
    """
    code = current()
    return format_list(list(items), style="or", locale=SOURCE if code == PSEUDO else code)


def colour_name(position: Position, colour: int) -> str:
    """The side name of colour index ``colour`` (the seat playing it may have swapped)."""
    colours = getattr(position, "colours", None)
    sides = position.seat_sides
    if colours is None:
        return side_word(str(sides[colour]))
    seat = 0 if colours[0] == colour else 1
    return side_word(str(sides[seat]))


#: The sides' names the games use (``engines.*.SIDES``), for the catalogs.
SIDE_NAMES = (N_("Red"), N_("Blue"), N_("Light"), N_("Dark"), N_("White"), N_("Black"))


def side_word(side: str) -> str:
    """A side's name in the language in use (``Red`` is ``Rojo`` in Spanish)."""
    return gettext(side)


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
    "connection": N_("{winner} wins by connection"),
    "resignation": N_("{winner} wins by resignation"),
    "time": N_("{winner} wins on time"),
    "home row": N_("{winner} wins on the home row"),
    "last piece captured": N_("{winner} wins by capturing the last piece"),
    "no legal move": N_("{winner} wins ({loser} has no legal move)"),
    "no legal turn": N_("{winner} wins ({loser} has no legal turn)"),
    "one group": N_("{winner} wins with all stacks in one group"),
    "two 6-high stacks": N_("{winner} wins with two 6-high stacks"),
    "relocation impossible": N_("{winner} wins ({loser} could not relocate)"),
}
#: Results without a winner.
_NO_WINNER_WORDS: dict[str, str] = {
    "agreement": N_("Drawn by agreement"),
    "aborted": N_("Aborted: no move was made"),
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
        return gettext(_NO_WINNER_WORDS[reason])
    winner = outcome.winner
    if winner is None:
        if reason in _NO_WINNER_WORDS:
            return gettext(_NO_WINNER_WORDS[reason])
        return fill(gettext("Draw ({reason})"), {"reason": reason})
    words = gettext(_WIN_WORDS.get(reason, N_("{winner} wins ({reason})")))
    said = {"winner": side_word(sides[winner]), "loser": side_word(sides[1 - winner])}
    return fill(words, said | {"reason": reason})


# -- the status band's words (render/_pipeline.py) --------------------------------------------


def to_move_words(side: str) -> str:
    """``Red to move``, in the language in use."""
    return fill(gettext("{side} to move"), {"side": side_word(side)})


def move_number_words(move: int) -> str:
    """``move 12`` (the move to make), in the language in use."""
    return fill(gettext("move {number}"), {"number": number(move)})


def moves_played_words(count: int) -> str:
    """``40 moves`` (how long a finished game was), in the language in use."""
    return fill(ngettext("{count} move", "{count} moves", count), {"count": number(count)})


def last_move_words(move: str) -> str:
    """``last: e5``, in the language in use."""
    return fill(gettext("last: {move}"), {"move": move})
