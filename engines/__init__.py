"""Pure rule engines for the five Hexhall games: no I/O, no asyncio, no drawing.

>>> import engines
>>> p = engines.new("maphex")
>>> p = p.play("5")
>>> engines.from_dict(p.to_dict()) == p
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Game, IllegalMove, Option, Outcome, Position

__all__ = ["GAMES", "Game", "IllegalMove", "Option", "Outcome", "Position", "from_dict", "new"]

from engines import fixation, inphexion, isopath, maphex, pathagon

#: Every game by name, in the order the bot lists them.
GAMES: dict[str, Game] = {
    module.GAME.name: module.GAME for module in (isopath, pathagon, fixation, maphex, inphexion)
}


def _game(name: object) -> Game:
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        known = ", ".join(GAMES)
        raise ValueError(f"unknown game {name!r} (games: {known})")
    return game


def new(name: str, **options: Any) -> Position:
    """The start position of game ``name`` with ``options``.

    An unknown game or a bad option raises ``ValueError`` with a clear message.
    """
    return _game(name).new(**options)


def from_dict(d: Mapping[str, Any]) -> Position:
    """Rebuild a position from ``Position.to_dict()`` output.

    Anything that is not a valid position of a known game raises ``ValueError``.
    """
    if not isinstance(d, Mapping):
        raise ValueError("a stored position must be a mapping")
    game = _game(d.get("game"))
    try:
        return game.load(d)
    except ValueError:
        raise
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"not a valid {game.title} position: {exc!r}") from None
