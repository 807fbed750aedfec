"""How a game ended: :class:`Termination`, in the spirit of python-chess's ``Termination``.

Each member's value is the text the store keeps in a game's ``reason``, one spelling each.  The
rules of each game name the way it ended (:attr:`engines.base.Outcome.reason`: a connection,
one group, the home row...); the bot adds the endings off the board (a resignation, a draw by
agreement, a loss on time, an abort).  Texts stored by earlier versions in another spelling are
read into their one member:

>>> Termination("timeout") is Termination("time") is Termination.TIMEOUT
True
>>> Termination.CONNECTION.by_the_rules, Termination.RESIGNATION.by_the_rules
(True, False)
>>> f"won ({Termination.HOME_ROW})"
'won (home row)'
"""

from __future__ import annotations

import enum

__all__ = ["Termination"]


class Termination(enum.StrEnum):
    """How a game ended (see the module docstring)."""

    # -- by the rules: the reasons the engines give -----------------------------------------
    #: Pathagon, Maphex, inpHeXion: a chain joins the player's two edges
    CONNECTION = "connection"
    #: Lines of Fixation: all of a player's stacks form one group
    ONE_GROUP = "one group"
    #: Lines of Fixation: two full stacks holding enemy pieces
    TWO_TALL_STACKS = "two 6-high stacks"
    #: Hexagonal Iso-Path: a piece reached the far home row
    HOME_ROW = "home row"
    #: Hexagonal Iso-Path: the opponent's last piece was captured
    LAST_PIECE_CAPTURED = "last piece captured"
    #: Hexagonal Iso-Path: the player to move has no legal turn
    NO_LEGAL_TURN = "no legal turn"
    #: Lines of Fixation, inpHeXion: the player to move has no legal move
    NO_LEGAL_MOVE = "no legal move"
    #: inpHeXion: too few empty cells to relocate the surrounded discs into
    RELOCATION_IMPOSSIBLE = "relocation impossible"
    #: a record's win by the rules whose reason it does not give
    WIN = "win"
    #: a record's draw whose reason it does not give
    DRAW = "draw"
    # -- off the board ----------------------------------------------------------------------
    RESIGNATION = "resignation"
    #: a draw both players agreed to
    AGREEMENT = "agreement"
    #: the player to move let the clock run out (earlier spelled ``time`` in records)
    TIMEOUT = "timeout"
    #: the clock ran out before the first move: the game is aborted without a result
    NO_FIRST_MOVE = "no first move"
    #: a record's abort whose reason it does not give (or one this version does not know)
    ABORTED = "aborted"

    @classmethod
    def _missing_(cls, value: object) -> Termination | None:
        # An earlier spelling, or another case or spacing of a member's text.
        if not isinstance(value, str):
            return None
        text = " ".join(value.split()).lower()
        text = _SYNONYMS.get(text, text)
        return next((member for member in cls if member.value == text), None)

    @property
    def by_the_rules(self) -> bool:
        """Whether the rules ended the game (as opposed to a resignation, an agreement, the
        clock or an abort)."""
        return self not in _OFF_BOARD

    @property
    def pictured(self) -> str:
        """The word the pictures (:mod:`render`) know this ending by.

        >>> Termination.TIMEOUT.pictured, Termination.NO_FIRST_MOVE.pictured
        ('time', 'aborted')
        """
        return _PICTURED.get(self, self.value)


#: Earlier spellings, read into their one member.
_SYNONYMS = {"time": Termination.TIMEOUT.value}
_OFF_BOARD = frozenset(
    {
        Termination.RESIGNATION,
        Termination.AGREEMENT,
        Termination.TIMEOUT,
        Termination.NO_FIRST_MOVE,
        Termination.ABORTED,
    }
)
#: The endings whose words differ in the pictures (``render``), which speak of a loss on time
#: and of an abort.
_PICTURED = {Termination.TIMEOUT: "time", Termination.NO_FIRST_MOVE: "aborted"}
