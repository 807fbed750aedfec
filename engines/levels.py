"""The computer player's levels, apart from its search so that naming one loads no search code
(the bot stores a game's level; :mod:`engines.ai` gives each level its budget).

>>> Level("hard") is Level.HARD, [level.value for level in Level]
(True, ['easy', 'normal', 'hard'])
"""

from __future__ import annotations

import enum

__all__ = ["Level"]


class Level(enum.Enum):
    """How hard the computer player tries: each level is a search budget
    (:data:`engines.ai.BUDGETS`)."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"
