"""Where the computer player finds a game's own knowledge: through the game's record.

A game names the module of its computer player in its record (``Game.ai``, e.g.
``engines.ai.maphex_player``); that module's ``PLAYER`` is a :class:`Player`. Nothing here
knows a game by name, so a new game registers its player from its own modules.

>>> import engines
>>> type(knowledge_of(engines.new("maphex"))).__name__, plan_of("maphex") is None
('MaphexKnowledge', True)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engines
from engines.ai.alphabeta import Plan
from engines.ai.knowledge import Knowledge
from engines.base import Position
from engines.levels import Level

__all__ = ["Player", "budget_times", "knowledge_of", "plan_of", "player_of"]


@dataclass(frozen=True)
class Player:
    """A game's computer player: what the tree search knows of it, and its alpha-beta plan
    (``None``: the tree search plays it at every level), and its ``progress`` mark: the
    game's measure of material and advance, a ply making progress when it reaches a mark not
    seen before in the game (``None``: every ply makes progress, see
    :mod:`engines.ai.draws`)."""

    knowledge: Knowledge
    plan: Plan | None = None
    progress: Callable[[Position], Hashable] | None = None
    #: the game's own draw assessment ``(position, history, nodes)`` to seat 0's chance
    #: (``None``: :func:`engines.ai.draws.assess` searches by the alpha-beta plan)
    assess: Callable[[Position, Sequence[Position], int], float] | None = None
    #: how many times its budget a level searches in a game of the given options (every
    #: option given: :meth:`engines.base.Game.resolve_options`), where the game's moves cost
    #: less than its default's (``None``: once, at every level and in every game)
    budget_times: Callable[[Level, Mapping[str, Any]], int] | None = None


#: The player of a game whose record names none: the rules-only tree search.
_PLAIN = Player(Knowledge())


def player_of(game: str) -> Player:
    """The computer player of ``game`` (the rules-only one for a game without its own)."""
    record = engines.GAMES.get(game)
    if record is None or not record.ai:
        return _PLAIN
    player = getattr(importlib.import_module(record.ai), "PLAYER", None)
    if not isinstance(player, Player):
        raise TypeError(f"{record.ai}.PLAYER is not an engines.ai.hooks.Player")
    return player


def knowledge_of(position: Position) -> Knowledge:
    """The knowledge for ``position``'s game (rules-only knowledge for an unknown game)."""
    return player_of(position.game).knowledge


def plan_of(game: str) -> Plan | None:
    """The alpha-beta plan of ``game``, if it searches by alpha-beta."""
    return player_of(game).plan


def budget_times(game: str, level: Level, options: Mapping[str, Any]) -> int:
    """How many times its budget ``level`` searches in a game of ``game`` with ``options``
    (missing ones take their defaults): the game's player's :attr:`Player.budget_times`, else
    once.

    >>> budget_times("isopath", Level.HARD, {"size": 5}), budget_times("isopath", Level.HARD, {})
    (2, 2)
    >>> budget_times("isopath", Level.NORMAL, {}), budget_times("maphex", Level.HARD, {})
    (1, 1)
    """
    times = player_of(game).budget_times
    if times is None:
        return 1
    return times(level, engines.GAMES[game].resolve_options(**options))
