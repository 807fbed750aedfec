"""The pure rules of a round-robin: pairings, first-player balance, groups, scores and
tie-breaks, against tables worked out by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.tournaments import (
    Entrant,
    Outcome,
    Played,
    first_counts,
    groups,
    half_points,
    plan,
    round_robin,
    table,
    to_withdraw,
)

W, L, D = Outcome.FIRST_WINS, Outcome.SECOND_WINS, Outcome.DRAW


@pytest.mark.parametrize("n", range(2, 13))
def test_every_pair_once_and_first_player_balanced(n: int) -> None:
    players = tuple(range(100, 100 + n))
    games = round_robin(players)
    pairs = [frozenset((g.first, g.second)) for g in games]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    counts = first_counts(games)
    # n - 1 games each: first in half of them, as near as possible.
    assert set(counts.values()) <= {(n - 1) // 2, n // 2}
    assert max(counts.values()) - min(counts.values()) <= 1
    twice = round_robin(players, rounds=2)
    assert set(first_counts(twice).values()) == {n - 1}  # exactly half of 2(n - 1)
    assert [(g.second, g.first) for g in twice[len(games) :]] == [
        (g.first, g.second) for g in games
    ]


def test_four_players_by_hand() -> None:
    a, b, c, d = 1, 2, 3, 4
    games = round_robin((a, b, c, d))
    assert [(g.first, g.second) for g in games] == [
        (a, b), (c, a), (a, d), (b, c), (d, b), (c, d),
    ]  # fmt: skip


def test_groups_by_rating_above_ten() -> None:
    ten = [Entrant(i, 1500) for i in range(10)]
    assert groups(ten) == (tuple(range(10)),)
    eleven = [Entrant(i, 1000 + 10 * i) for i in range(11)]
    # Strongest first: 10, 9, ... in a group of 6, the 5 weakest in the other.
    assert groups(eleven) == ((10, 9, 8, 7, 6, 5), (4, 3, 2, 1, 0))
    made = plan(eleven)
    assert len(made.pairings) == 15 + 10
    assert {p.group for p in made.pairings if 0 in p.players} == {1}
    with pytest.raises(ValueError, match="at least 3 players"):
        plan(eleven[:2])
    with pytest.raises(ValueError, match="rounds must be 1 or 2"):
        round_robin((1, 2, 3), rounds=3)


def test_sonneborn_berger_breaks_a_tie() -> None:
    # A beats B and D, loses to C; B beats C and D; C draws D.
    games = [Played(1, 2, W), Played(3, 1, W), Played(1, 4, W), Played(2, 3, W),
             Played(4, 2, L), Played(3, 4, D)]  # fmt: skip
    lines = table((1, 2, 3, 4), games)
    # points: A 2, B 2, C 1½, D ½.  SB: A = B's 2 + D's ½ = 2½; B = C's 1½ + D's ½ = 2;
    # C = A's 2 + ½ of D's ½ = 2¼; D = ½ of C's 1½ = ¾.
    assert [(s.player, s.points, s.sonneborn_berger, s.place) for s in lines] == [
        (1, 2, Fraction(5, 2), 1),
        (2, 2, 2, 2),
        (3, Fraction(3, 2), Fraction(9, 4), 3),
        (4, Fraction(1, 2), Fraction(3, 4), 4),
    ]


def test_head_to_head_then_time_losses() -> None:
    # Five players: 1 and 2 level on points, split by Sonneborn-Berger.
    games = [
        Played(1, 2, W), Played(3, 1, W), Played(1, 4, D), Played(5, 1, L),
        Played(2, 3, W), Played(4, 2, D), Played(2, 5, W),
        Played(3, 4, W), Played(5, 3, W),
        Played(4, 5, D),
    ]  # fmt: skip
    lines = {s.player: s for s in table((1, 2, 3, 4, 5), games)}
    # points: 1: 1+0+½+1 = 2½; 2: 0+1+½+1 = 2½; 3: 1+0+1+0 = 2; 4: ½+½+0+½ = 1½; 5: 0+0+1+½ = 1½
    assert [lines[p].points for p in (1, 2, 3, 4, 5)] == [
        Fraction(5, 2), Fraction(5, 2), 2, Fraction(3, 2), Fraction(3, 2),
    ]  # fmt: skip
    # SB 1: 2's 2½ + ½·4's 1½ + 5's 1½ = 4¾; SB 2: 3's 2 + ½·4's 1½ + 5's 1½ = 4¼
    assert lines[1].sonneborn_berger == Fraction(19, 4)
    assert lines[2].sonneborn_berger == Fraction(17, 4)
    # 4 and 5: SB 4 = ½·2½ + ½·2½ + ½·1½ = 3¼; SB 5 = 3's 2 + ½·4's 1½ = 2¾
    assert (lines[4].place, lines[5].place) == (4, 5)
    # Level on points and SB, split by the game between them.
    tied = [Played(1, 2, W), Played(2, 3, W), Played(3, 1, W)]
    lines = {s.player: s for s in table((1, 2, 3), tied)}
    assert {s.place for s in lines.values()} == {1}  # a shared first place, everything equal
    # Double round, all level: the player who lost on time is placed after the others.
    double = [Played(1, 2, W), Played(2, 1, W, on_time=True), Played(3, 1, D), Played(1, 3, D),
              Played(2, 3, D), Played(3, 2, D)]  # fmt: skip
    lines = {s.player: s for s in table((1, 2, 3), double)}
    assert {lines[p].points for p in (1, 2, 3)} == {2}
    assert {lines[p].sonneborn_berger for p in (1, 2, 3)} == {4}
    assert (lines[1].time_losses, lines[1].place, lines[2].place, lines[3].place) == (1, 3, 1, 1)


def test_head_to_head_decides_between_two() -> None:
    # 1 beats 2, 3 beats 1, 1-4 drawn, 2-3 drawn, 4 beats 2 and 3.
    games = [Played(1, 2, W), Played(3, 1, W), Played(1, 4, D), Played(2, 3, D),
             Played(4, 2, W), Played(3, 4, L)]  # fmt: skip
    lines = {s.player: s for s in table((1, 2, 3, 4), games)}
    # points: 1: 1+0+½ = 1½; 2: 0+½+0 = ½; 3: 1+½+0 = 1½; 4: ½+1+1 = 2½
    # SB 1: 2's ½ + ½·4's 2½ = 1¾; SB 3: 1's 1½ + ½·2's ½ = 1¾: level, and 3 beat 1.
    assert (lines[1].sonneborn_berger, lines[3].sonneborn_berger) == (Fraction(7, 4),) * 2
    assert (lines[3].head_to_head, lines[1].head_to_head) == (1, 0)
    assert [lines[p].place for p in (4, 3, 1, 2)] == [1, 2, 3, 4]


def test_withdrawal_after_three_losses_on_time() -> None:
    games = [Played(1, 2, W, on_time=True), Played(2, 3, L, on_time=True),
             Played(4, 2, W, on_time=True), Played(1, 3, L, on_time=True)]  # fmt: skip
    assert to_withdraw(games) == (2,)
    assert to_withdraw(games, withdrawn={2}) == ()
    assert half_points(Fraction(7, 2)) == "3½"
