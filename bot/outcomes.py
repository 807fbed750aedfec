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

A new game answers with :class:`Started`; a tournament's open sign-up card (made, joined,
left) with :class:`SignUp`; a question for the asker alone before something that cannot be
undone (resigning, leaving a tournament) with :class:`Asks`; a draw offer or a takeback request
made with :class:`Offered`, and one declined (or a takeback allowed) with :class:`Answered`;
every reply that ends a game (a move, a
resignation, an agreed draw, the bot's move) carries :class:`Ended`.  A challenge that can no
longer be answered is refused with a :class:`ChallengeRefusal` code (its ``status`` among the
arguments), so a surface knows a stale card without reading the sentence.

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
    "Answered",
    "Asks",
    "ChallengeRefusal",
    "Ended",
    "MoveOutcome",
    "Moved",
    "NeedsConfirm",
    "Offered",
    "Outcome",
    "Question",
    "Refused",
    "Request",
    "SignUp",
    "Started",
    "asks",
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


class ChallengeRefusal(enum.Enum):
    """Why a challenge can no longer be answered (accepted, declined or cancelled): the code
    of a :class:`Refused`, with the challenge's ``status`` among its arguments."""

    #: declined, cancelled or expired: none of its cards shows anything but that any more
    CLOSED = "closed"
    #: accepted already (a card may be the game's board by now), or set aside as unreadable
    TAKEN = "taken"


@dataclass(frozen=True)
class Refused:
    """Nothing changed, because of ``code`` (with ``arguments``, as the sentence names them)."""

    code: enum.Enum
    arguments: Mapping[str, Argument] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Started:
    """Game ``game_id`` started."""

    game_id: int


@dataclass(frozen=True)
class SignUp:
    """The reply is tournament ``tournament_id``'s sign-up card, open (its entrants as they
    stand): a surface shows it as the chat's one card of that tournament."""

    tournament_id: int


class Question(enum.Enum):
    """What a question asked of one player is about (see :class:`Asks`)."""

    #: "Really resign?" about a game
    RESIGN = "resign"
    #: "Really leave?" about a tournament
    LEAVE = "leave"


@dataclass(frozen=True)
class Asks:
    """The reply asks its asker alone ``question`` about ``subject`` (a game, a tournament):
    nothing changed until they say yes (with its button, which names them).  A move that
    loses at once asks too (:class:`NeedsConfirm`): see :func:`asks`."""

    question: Question
    subject: int


def asks(outcome: object) -> bool:
    """Whether an answer with ``outcome`` is a question for its asker alone (a surface shows
    it to them only, never on a shared message)."""
    return isinstance(outcome, Asks | NeedsConfirm)


class Request(enum.Enum):
    """What one player asks the other in a game (answered with buttons, or typed)."""

    DRAW = "draw"
    TAKEBACK = "takeback"


@dataclass(frozen=True)
class Offered:
    """``request`` was made in game ``game_id``: the reply carries the buttons that answer it
    (a copy of it is an offer to close once it is answered or lapses)."""

    game_id: int
    request: Request


@dataclass(frozen=True)
class Answered:
    """The standing ``request`` of game ``game_id`` was answered (``accepted``: a takeback
    allowed; a draw accepted ends the game instead: :class:`Ended`)."""

    game_id: int
    request: Request
    accepted: bool


#: What a move answers.
MoveOutcome: TypeAlias = Moved | Ended | NeedsConfirm | AlreadyPlayed | Refused
#: What any session operation may answer, typed.
Outcome: TypeAlias = MoveOutcome | Started | SignUp | Asks | Offered | Answered
