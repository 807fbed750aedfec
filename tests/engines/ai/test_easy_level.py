"""``easy`` is a fair game for a beginner: beyond the one-move tactics (take a win, block the
opponent's) it plays with a plan, so it beats a player that has those tactics and nothing else.

The greedy player here is the benchmark's (``benchmarks/ai.py``): it takes a win when it has
one, otherwise plays a random move among those that leave no immediate win to the opponent.
The benchmark's ``easy-random`` and ``easy-greedy`` match-ups measure the same over many
games; these few seeded games, both seats, keep it true.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engines
from engines.ai import Level, budget_of, choose_move, safe_moves, winning_move

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("maphex", {"size": 9}),
    ("inphexion", {"size": 7}),
    ("pathagon", {}),
    ("fixation", {}),
]


def _greedy(pos: engines.Position, rng: random.Random) -> str:
    win = winning_move(pos)
    return win if win is not None else rng.choice(safe_moves(pos))


def _easy_score(game: str, options: dict[str, Any], easy_seat: int, seed: int) -> int | None:
    """The winner's seat of one game, ``easy`` (its iterations, no wall cap, so the game is
    the same on any machine) against the greedy player; ``None`` for a draw."""
    iterations = budget_of(Level.EASY)["iterations"]
    rng = random.Random(seed)
    pos = engines.new(game, **options)
    while pos.outcome is None and pos.ply < 300:
        if pos.to_move == easy_seat:
            move = choose_move(pos, iterations=iterations, seed=rng.randrange(2**31))
        else:
            move = _greedy(pos, rng)
        pos = pos.play(move)
    assert pos.outcome is not None, "the game did not finish in 300 plies"
    return pos.outcome.winner


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_easy_beats_the_one_move_tactics_player_from_both_seats(
    game: str, options: dict[str, Any]
) -> None:
    for seat in (0, 1):
        assert _easy_score(game, options, seat, seed=11 + seat) == seat
