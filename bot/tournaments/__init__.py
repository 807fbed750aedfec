"""Round-robin tournaments as pure values: who plays whom and who moves first
(:mod:`~bot.tournaments.pairing`), and the table of scores and tie-breaks
(:mod:`~bot.tournaments.table`).  Nothing here reads a store or a clock: the session manager
(:mod:`bot.sessions.tournaments`) feeds it the stored games and keeps what it decides."""

from __future__ import annotations

from bot.tournaments.pairing import (
    GROUP_SIZE,
    MIN_PLAYERS,
    Entrant,
    Pairing,
    Plan,
    first_counts,
    groups,
    plan,
    round_robin,
)
from bot.tournaments.table import (
    TIME_LOSSES_TO_WITHDRAW,
    Outcome,
    Played,
    Standing,
    half_points,
    table,
    to_withdraw,
)

__all__ = [
    "GROUP_SIZE",
    "MIN_PLAYERS",
    "TIME_LOSSES_TO_WITHDRAW",
    "Entrant",
    "Outcome",
    "Pairing",
    "Plan",
    "Played",
    "Standing",
    "first_counts",
    "groups",
    "half_points",
    "plan",
    "round_robin",
    "table",
    "to_withdraw",
]
