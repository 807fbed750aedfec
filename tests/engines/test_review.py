"""The review after the game (engines.ai.review) on finished games of every kind."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engines
from engines.ai import winning_move
from engines.ai.review import MIN_COST, review

GAMES: list[tuple[str, dict[str, Any], int]] = [
    # The first seeds whose random games hold the blunder (see blunder_game); for Pathagon and
    # Iso-Path later ones whose games are shorter (33 moves, not 112; 40, not 182), so the
    # review judges fewer positions.
    ("maphex", {"size": 9}, 4),
    ("inphexion", {"size": 7}, 0),
    ("pathagon", {}, 1989),
    ("fixation", {}, 1345),
    ("isopath", {"size": 4}, 4492),
]


def blunder_game(game: str, options: dict[str, Any], seed: int) -> tuple[list[str], int]:
    """:func:`one_game` of the first seed from ``seed`` on whose game has such a blunder."""
    while True:
        found = one_game(game, options, seed)
        if found is not None:
            return found
        seed += 1


def one_game(game: str, options: dict[str, Any], seed: int) -> tuple[list[str], int] | None:
    """A finished game of random moves in which both sides take a win when there is one,
    except once: at the returned ply the mover misses its win and plays a move after which
    the opponent wins at once (and does); ``None`` if the game ended without one."""
    rng = random.Random(seed)
    pos = engines.new(game, **options)
    moves: list[str] = []
    blunder = -1
    while pos.outcome is None:
        if len(moves) == 200:
            return None  # random play can go on for long: take another seed
        win = winning_move(pos)
        legal = pos.legal_moves()
        move = win if win is not None else rng.choice(legal)
        if blunder < 0 and win is not None:
            for m in rng.sample(legal, min(40, len(legal))):
                after = pos.play(m)
                if after.outcome is None and winning_move(after) is not None:
                    move, blunder = m, len(moves)
                    break
        moves.append(move)
        pos = pos.play(move)
    if blunder < 0:
        return None
    assert blunder == len(moves) - 2
    return moves, blunder


@pytest.mark.parametrize(("game", "options", "seed"), GAMES, ids=[g for g, _, _ in GAMES])
def test_a_review_names_a_missed_win_that_lets_the_opponent_win(
    game: str, options: dict[str, Any], seed: int
) -> None:
    moves, blunder = blunder_game(game, options, seed)
    found = review(game, moves, options=options, nodes=10, count=len(moves))
    assert [m.ply for m in found] == sorted(m.ply for m in found)
    at = {m.ply: m for m in found}
    assert blunder in at, f"ply {blunder} (a blunder) is not among {sorted(at)}"
    moment = at[blunder]
    assert moment.played == moves[blunder] and moment.after == 0.0
    assert moment.before == 1.0 and moment.cost == 1.0
    won = moment.position.play(moment.better).outcome
    assert won is not None and won.winner == moment.mover
    # The game's positions replayed once (position_after of each prefix, not a replay each).
    positions = list(engines.replay(game, moves, **options))
    for m in found:
        position = positions[m.ply]
        assert m.position == position and m.mover == position.to_move
        assert m.better in position.legal_moves() and m.better != m.played
        assert 0.0 <= m.after < m.before <= 1.0 and m.cost >= MIN_COST


@pytest.mark.parametrize(("game", "options", "seed"), GAMES[:3], ids=[g for g, _, _ in GAMES[:3]])
def test_the_count_kept_are_the_costliest_of_the_whole_review(
    game: str, options: dict[str, Any], seed: int
) -> None:
    """``count`` keeps the costliest moves of the whole review (on the games whose review is
    quick: the same code for every game)."""
    moves, _ = blunder_game(game, options, seed)
    found = review(game, moves, options=options, nodes=10, count=len(moves))
    top = review(game, moves, options=options, nodes=10, count=2)
    assert len(top) == 2 and set(top) <= set(found)
    assert min(m.cost for m in top) >= max(m.cost for m in found if m not in top)


def test_a_review_is_the_same_every_time() -> None:
    moves, _ = blunder_game("inphexion", {"size": 7}, 1)
    first = review("inphexion", moves, options={"size": 7}, nodes=50)
    assert first == review("inphexion", moves, options={"size": 7}, nodes=50)


def test_a_review_ranks_the_costliest_moves() -> None:
    # Dark leaves d7 open (ply 11) although Light wins there; Light then misses the win
    # (ply 12) and Dark takes d7 and wins.
    moves = "d1 a7 d2 b7 d3 c7 d4 e7 d5 f7 d6 g7 g1 d7".split()
    best = review("pathagon", moves, nodes=200, count=1)
    assert [(m.ply, m.played, m.better, m.cost) for m in best] == [(12, "g1", "d7", 1.0)]
    more = review("pathagon", moves, nodes=200, count=10)
    assert 11 in {m.ply for m in more} and len(more) <= 10
    costs = {m.ply: m.cost for m in more}
    assert all(costs[12] >= c for c in costs.values())


def test_a_review_of_a_well_played_move_names_nothing() -> None:
    # The only moves: each side's win at once is taken.
    moves = "d1 a7 d2 b7 d3 c7 d4 e7 d5 f7 d6 g7 d7".split()
    found = review("pathagon", moves, nodes=200, count=10)
    assert 12 not in {m.ply for m in found}


def test_a_review_refuses_an_illegal_record() -> None:
    with pytest.raises(engines.IllegalMove):
        review("pathagon", ["d1", "d1"])
    with pytest.raises(ValueError, match="unknown game"):
        review("chess", ["e4"])
