"""How big a number, a name or an echoed piece of input may be, wherever it comes from.

Bottom layer (pure values, like :mod:`bot.messages`): the typed-command parser, the action-id
parser and the session manager's boundary all check against these same constants, so a number
is range-checked once, where it is parsed, and nothing a user types comes back unbounded.

Numbers are ASCII digits only: ``str.isdigit()`` accepts ``²`` and ``①`` (which ``int()``
refuses) and ``int()`` accepts Arabic-Indic ``٣``; a player or a button supplies neither.

>>> ascii_number("42", MAX_ID), ascii_number("٣", MAX_ID), ascii_number("²", MAX_ID)
(42, None, None)
>>> ascii_number(str(MAX_ID + 1), MAX_ID) is None
True
>>> cut("abcdef", 4)
'abc…'
>>> display_name("Ada\\ud800  Lovelace" + "x" * 40)
'Ada? Lovelacexxxxxxxxxxxxxxxxxx…'
"""

from __future__ import annotations

__all__ = [
    "ECHO_LIMIT",
    "MAX_ID",
    "MAX_PAGE",
    "MAX_PLY",
    "NAME_LIMIT",
    "TEXT_LIMIT",
    "ascii_number",
    "cut",
    "display_name",
    "is_ascii_digits",
]

#: The largest game or challenge id anyone may name: JavaScript's ``Number.MAX_SAFE_INTEGER``
#: (``2**53 - 1``), so an id survives every chat platform's JSON untouched, and far below
#: SQLite's ``2**63 - 1``, so it always binds.
MAX_ID = 2**53 - 1
#: The largest ply a button or a caller may name (no game of the five comes near it).
MAX_PLY = 100_000
#: The largest page of ``games`` anyone may ask for.
MAX_PAGE = 1_000_000
#: Longest player name shown and longest platform user id accepted, in characters (the
#: console's ``as`` takes names up to this long; longer names are cut for display).
NAME_LIMIT = 32
#: Longest piece of a player's own input quoted back in a reply, in characters.
ECHO_LIMIT = 40
#: Longest text argument the manager takes (a move, a setting, an imported record).
TEXT_LIMIT = 100_000


def is_ascii_digits(text: str) -> bool:
    """Whether ``text`` is a non-empty run of ASCII digits ``0``-``9``.

    >>> is_ascii_digits("0123"), is_ascii_digits("①"), is_ascii_digits(""), is_ascii_digits("+1")
    (True, False, False, False)
    """
    return text.isascii() and text.isdigit()


def ascii_number(text: str, high: int, low: int = 0) -> int | None:
    """``text`` as a number in ``low..high`` when it is ASCII digits only, else ``None``.

    The length is checked before converting, so a million digits cost nothing.
    """
    if not is_ascii_digits(text) or len(text.lstrip("0")) > len(str(high)):
        return None
    value = int(text)
    return value if low <= value <= high else None


def cut(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` with at most ``limit`` characters; a cut one ends in ``…`` (where it was cut)."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def _storable(char: str) -> bool:
    try:
        char.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return char.isprintable()


def display_name(name: str) -> str:
    """A display name as shown and stored: printable (a lone surrogate or a control character
    becomes ``?``), spaces collapsed, at most :data:`NAME_LIMIT` characters (cut with ``…``)."""
    clean = "".join(ch if _storable(ch) else "?" for ch in name[: NAME_LIMIT * 4])
    return cut(" ".join(clean.split()) or "?", NAME_LIMIT)
