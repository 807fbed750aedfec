"""What the alpha-beta plans of the connection games share: a side's lead in moves from the
connection potentials (:mod:`engines.ai.distance`).  Each game's plan lives in its own
``engines/ai/<game>_player.py`` and is found through the game's record
(:func:`engines.ai.hooks.plan_of`).

Every evaluation returns seat 0's chance of winning, in ``[0, 1]``.
"""

from __future__ import annotations

from engines.ai.distance import Potential, Reach

__all__ = ["CAP", "lead"]

#: A potential counted at most this high (a blocked side is far behind, not infinitely).
CAP = 16


def lead(p0: Reach | Potential, p1: Reach | Potential, to_move: int, mobility: float) -> float:
    """Seat 0's lead in moves: the potentials, the cells reaching them, half a move to move."""
    ahead = float(min(p1.value, CAP) - min(p0.value, CAP))
    ahead += mobility * (min(p0.moves, 8) - min(p1.moves, 8))
    return ahead + (0.5 if to_move == 0 else -0.5)
