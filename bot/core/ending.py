"""How a game ended: :class:`Termination`, owned by the engines (:mod:`engines.base`).

The engines end games by the rules (a connection, one group, the home row...) and carry the
ending in :attr:`engines.Outcome.termination`; the bot adds the endings off the board (a
resignation, a draw by agreement, a loss on time, an abort), members of the same enum, so any
game's ending is stored and read back without knowing the game.  Each member's value is the
text the store keeps in a game's ``reason``.

>>> Termination("time") is Termination.TIMEOUT, Termination.RESIGNATION.by_the_rules
(True, False)
"""

from __future__ import annotations

from engines.base import Termination

__all__ = ["Termination"]
