"""What a session operation did, as a typed value (issue 42): a surface turns the outcome into
its own output in one place, never by reading the reply's text or scanning its buttons.

The move path answers with one of :data:`MoveOutcome` (on :attr:`bot.messages.Reply.outcome`):

- :class:`Moved`: the move was played and the game goes on;
- :class:`Ended`: the move was played and ended the game (how: its ``termination``);
- :class:`NeedsConfirm`: the move is legal but loses at once, so it was not played; the same
  move with ``confirm`` plays it;
- :class:`AlreadyPlayed`: the same move was already stored at that ply (a double tap, a
  retried update): nothing new happened, the answer is for the asker alone;
- :class:`Refused`: nothing changed, for the reason ``code`` (an enum member: a
  :class:`~bot.messages.TurnRefusal`, or an engine's illegal-move code) with its
  ``arguments``; its sentence is made where texts are made (``bot/sessions/texts``).

A new game answers with :class:`Started`.

>>> Ended(3, 9, Termination.CONNECTION, 0).over, Moved(3, 2, "e5").over
(True, False)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeAlias

from engines import Termination
from engines.base import Argument

__all__ = [
    "AlreadyPlayed",
    "Ended",
    "MoveOutcome",
    "Moved",
    "NeedsConfirm",
    "Refused",
    "Started",
]


@dataclass(frozen=True)
class Moved:
    """Move ``move`` was played in game ``game_id``, which is now at ``ply``."""

    game_id: int
    ply: int
    move: str

    @property
    def over(self) -> bool:
        """Whether the game is over now."""
        return False


@dataclass(frozen=True)
class Ended:
    """The move played in game ``game_id`` (now at ``ply``) ended it by ``termination``;
    ``winner`` is a seat, ``None`` for a draw."""

    game_id: int
    ply: int
    termination: Termination
    winner: int | None

    @property
    def over(self) -> bool:
        """Whether the game is over now."""
        return True


@dataclass(frozen=True)
class NeedsConfirm:
    """``move`` at ``ply`` of game ``game_id`` would lose at once (by ``termination``): not
    played until confirmed."""

    game_id: int
    ply: int
    move: str
    termination: Termination


@dataclass(frozen=True)
class AlreadyPlayed:
    """``move`` was already stored as the move at ``ply`` (0-based) of game ``game_id``."""

    game_id: int
    ply: int
    move: str


@dataclass(frozen=True)
class Refused:
    """Nothing changed, because of ``code`` (with ``arguments``, as the sentence names them)."""

    code: enum.Enum
    arguments: Mapping[str, Argument] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Started:
    """Game ``game_id`` started."""

    game_id: int


#: What a move answers.
MoveOutcome: TypeAlias = Moved | Ended | NeedsConfirm | AlreadyPlayed | Refused
