"""The budget the bot's worker searches with: each level's (:data:`engines.ai.BUDGETS`), times
what the game gives that level on the board of the game being played (Iso-Path's ``hard``
twice its iterations, its wall-time cap unchanged)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.sessions.thinker import Thinker
from engines.ai import BUDGETS, Level


def budget_search(
    game: str, options: Mapping[str, Any], moves: Any, iterations: int, seconds: float, seed: int
) -> str:
    """The budget it was given, as its "move" (run in a worker process)."""
    return f"{iterations} {seconds}"


async def test_the_bot_searches_with_the_levels_budget_on_the_games_board() -> None:
    thinker = Thinker(workers=1, search=budget_search)
    try:

        async def given(game: str, options: dict[str, int], level: Level) -> str:
            return await thinker.move(game, options, [], level, seed=0)

        hard, normal = BUDGETS[Level.HARD], BUDGETS[Level.NORMAL]
        twice = f"{2 * hard.iterations} {hard.seconds}"
        assert await given("isopath", {"size": 4}, Level.HARD) == twice
        assert await given("isopath", {"size": 5}, Level.HARD) == twice
        assert await given("isopath", {}, Level.HARD) == twice  # h4 is the default board
        once = f"{hard.iterations} {hard.seconds}"
        assert await given("maphex", {"size": 9}, Level.HARD) == once
        assert await given("isopath", {"size": 4}, Level.NORMAL) == (
            f"{normal.iterations} {normal.seconds}"
        )
    finally:
        thinker.close(wait=True)
