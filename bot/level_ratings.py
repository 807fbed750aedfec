"""The computer player's levels as rated players: each level's rating in each pool as the
round-robin between the levels and reference players measured it (``benchmarks/ai.py
--ratings`` writes ``level_ratings.json`` beside this module; issue 49).

A level's rating in a pool starts there; every finished game against the bot then moves it
(the store keeps the current one: :mod:`bot.sessions.standings`).  A level or pool the file
does not cover starts as a new player (``Rating()``) and says so (:func:`measured` is
``None``).

>>> from engines.levels import Level
>>> rating = measured(Pool("maphex9"), Level.EASY)
>>> rating is not None and rating.games > 0
True
>>> start(Pool("maphex9"), Level.EASY) == rating
True
"""

from __future__ import annotations

import functools
import json
import logging
from pathlib import Path

from bot.ratings import Pool, Rating
from engines.levels import Level

__all__ = ["DATA", "measured", "start"]

log = logging.getLogger(__name__)

#: The measured table (written by ``benchmarks/ai_ratings.py --write``).
DATA = Path(__file__).with_name("level_ratings.json")


@functools.cache
def _table() -> dict[tuple[Pool, Level], Rating]:
    """Every measured ``(pool, level)`` rating in the data file (a level without games is
    left out: it was not measured)."""
    try:
        data = json.loads(DATA.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        log.error("level ratings unreadable (%s): every level starts as a new player", exc)
        return {}
    found: dict[tuple[Pool, Level], Rating] = {}
    for key, entry in data.get("pools", {}).items():
        for level in Level:
            value = entry.get("ratings", {}).get(level.value)
            try:
                rating = Rating(float(value["mu"]), float(value["sigma"]), int(value["games"]))
                pool = Pool(key)
            except (TypeError, ValueError, KeyError) as exc:
                if value is not None:
                    log.error("level rating %s %s left out: %s", key, level.value, exc)
                continue
            if rating.games:
                found[(pool, level)] = rating
    return found


def measured(pool: Pool, level: Level) -> Rating | None:
    """``level``'s rating in ``pool`` as measured (``None``: not measured)."""
    return _table().get((pool, level))


def start(pool: Pool, level: Level) -> Rating:
    """Where ``level``'s rating in ``pool`` starts: as measured, else a new player's."""
    return measured(pool, level) or Rating()
