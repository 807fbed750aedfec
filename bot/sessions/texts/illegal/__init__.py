"""Why a move is illegal, in words: the sentence for every code an engine's
:class:`~engines.IllegalMove` carries, each written once (and translated in the catalogs).  The
engines say only the code and its arguments.

The codes every game shares have their sentences here; each game's own codes have theirs in a
module of the game's own, named as the game: ``bot/sessions/texts/illegal/<game>.py``, whose
``SENTENCES`` maps each code of :attr:`engines.Game.codes` to its sentence.  It is found by the
game's name in :data:`engines.GAMES`, so nothing else names the game.

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

import importlib
import importlib.util
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

import engines
from bot.core.i18n import N_
from bot.messages import Text, say
from engines import IllegalMove, IllegalMoveCode, MoveCode
from engines.base import Argument, explain_with

__all__ = ["ILLEGAL_MOVES", "READ_ALSO", "SHARED", "illegal_move", "illegal_said", "listing"]

#: The sentence of every code all games share (:class:`engines.IllegalMoveCode`).
SHARED: Mapping[MoveCode, str] = MappingProxyType(
    {
        IllegalMoveCode.NOT_TEXT: N_("a move is text, not {kind}"),
        IllegalMoveCode.TOO_LONG: N_("that is not a move: {length} characters is too long"),
        IllegalMoveCode.EMPTY: N_("the move is empty"),
        IllegalMoveCode.UNEXPECTED_CHARACTERS: N_("{text!r} is not a move: unexpected characters"),
        IllegalMoveCode.GAME_OVER: N_("the game is over: no more moves"),
        IllegalMoveCode.IN_LIST: N_("move {number} ({move}) is illegal: {reason}"),
    }
)


#: How a game's own module says some of its codes' arguments in the reader's words (its
#: ``WORDS``, optional): the code's arguments in, the values that replace them out.
Words = Callable[[Mapping[str, Argument]], Mapping[str, object]]


def _own(attribute: str) -> dict[MoveCode, object]:
    """What each registered game's own module (``bot/sessions/texts/illegal/<game>.py``)
    gives under ``attribute``, when it has one (a game whose codes are another's, as the toy
    game of the tests, reads that game's)."""
    found: dict[MoveCode, object] = {}
    for game in engines.GAMES.values():
        name = f"{__name__}.{game.name}"
        if importlib.util.find_spec(name) is not None:
            found.update(getattr(importlib.import_module(name), attribute, {}))
    return found


#: The sentence for every illegal-move code, a :meth:`str.format` template over the code's
#: arguments (a list of names reads "a1, b2 and c3"): the shared ones and each game's own.
ILLEGAL_MOVES: Mapping[MoveCode, str] = MappingProxyType(
    {**SHARED, **{code: str(sentence) for code, sentence in _own("SENTENCES").items()}}
)
#: The codes whose arguments a game says in the reader's words itself.
_WORDS: Mapping[MoveCode, Words] = MappingProxyType(
    {code: words for code, words in _own("WORDS").items() if callable(words)}
)
#: The arguments of a code its words read beyond those its sentence names (a game's
#: ``READS``, beside its ``WORDS``): an engine passes them too.
READ_ALSO: Mapping[MoveCode, frozenset[str]] = MappingProxyType(
    {
        code: frozenset(str(n) for n in names)
        for code, names in _own("READS").items()
        if isinstance(names, frozenset)
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


def illegal_said(exc: IllegalMove) -> Text:
    """Why the move of ``exc`` is illegal, said in the reader's language when rendered (a
    ``{name!r}`` in the English shows the value quoted)."""
    template = ILLEGAL_MOVES[exc.code]
    quoted = set(_QUOTED.findall(template))
    values = {name: _word(value, name in quoted) for name, value in exc.arguments.items()}
    words = _WORDS.get(exc.code)
    if words is not None:
        values.update(words(exc.arguments))
    return say(template, **values)


def illegal_move(exc: IllegalMove) -> str:
    """The one-line sentence saying why the move of ``exc`` is illegal, the rule it breaks
    named (the words players have always read), in the language in use."""
    return str(illegal_said(exc))


explain_with(illegal_move)
