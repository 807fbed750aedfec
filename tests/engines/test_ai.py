"""The computer player: budgets, determinism, one-move tactics and legality in every game."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import Position
from engines.ai import BUDGETS, Level, budget_of, choose_move, safe_moves, think, winning_move
from engines.ai.tactics import Tactics
from engines.fixation import FixationPosition, setup
from engines.inphexion import InphexionPosition
from engines.isopath import IsopathPosition
from engines.isopath import setup as isopath_setup
from engines.maphex import MaphexPosition
from engines.pathagon import PathagonPosition

# -- budgets --------------------------------------------------------------------------------


def test_a_budget_is_required_and_checked() -> None:
    pos = engines.new("maphex")
    with pytest.raises(ValueError, match="budget"):
        choose_move(pos)
    with pytest.raises(ValueError, match="iterations"):
        choose_move(pos, iterations=0)
    with pytest.raises(ValueError, match="seconds"):
        choose_move(pos, seconds=0)
    with pytest.raises(ValueError, match="seconds"):
        choose_move(pos, seconds=-1.0)


def test_a_finished_game_has_no_move_to_choose() -> None:
    pos = engines.position_after("pathagon", [])
    won = PathagonPosition.from_diagram(
        """
        ...L...
        ...L...
        ...L...
        ...L...
        ...L...
        ...L...
        .......
        """,
        to_move=0,
    ).play("d1")
    assert won.outcome is not None and pos.outcome is None
    with pytest.raises(ValueError, match="over"):
        choose_move(won, iterations=10)


def test_levels_are_budgets_from_one_table() -> None:
    assert [lv.value for lv in Level] == ["easy", "normal", "hard"]
    for level in Level:
        args = budget_of(level)
        assert args == {
            "iterations": BUDGETS[level].iterations,
            "seconds": BUDGETS[level].seconds,
        }
        assert budget_of(level.value) == args
    iters = [BUDGETS[lv].iterations for lv in Level]
    assert iters == sorted(iters) and len(set(iters)) == 3
    with pytest.raises(ValueError):
        budget_of("impossible")


def test_a_level_budget_is_accepted_by_choose_move() -> None:
    pos = engines.position_after("maphex", ["5"])
    assert choose_move(pos, **budget_of(Level.EASY), seed=3) in pos.legal_moves()


def test_a_seconds_budget_alone_searches() -> None:
    pos = engines.position_after("maphex", ["5", "e5"])
    choice = think(pos, seconds=0.05, seed=1)
    assert choice.move in pos.legal_moves()
    assert choice.iterations >= 1


def test_the_look_ahead_stops_at_its_deadline() -> None:
    # A deadline already past: no move is looked at, every move is left to the search.
    pos = _pathagon_light_threat(1)
    late = Tactics(pos, deadline=time.perf_counter() - 1.0)
    assert late.win is None and not late.children
    assert sorted(late.best) == sorted(pos.legal_moves())
    # Without a deadline the same position has one safe move.
    assert Tactics(pos).best == ["d4"]


def test_a_tiny_time_budget_still_gives_a_legal_move() -> None:
    # The tree search (Maphex): the look-ahead gets part of the budget and the search at
    # least one iteration.
    pos = engines.position_after("maphex", ["5", "e5"])
    choice = think(pos, seconds=1e-6, seed=5)
    assert choice.move in pos.legal_moves()
    assert choice.reason == "search" and choice.iterations == 1
    # Alpha-beta (Lines of Fixation): depth one (every move looked at once) and the replies to
    # the first move are always searched.
    pos = engines.position_after("fixation", ["a3-c5", "i3-g5"])
    choice = think(pos, seconds=1e-6, seed=5)
    assert choice.move in pos.legal_moves()
    assert choice.reason == "search" and choice.iterations > len(pos.legal_moves())


# -- determinism ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "moves", "options"),
    [
        ("maphex", ["5", "e5"], {}),
        ("inphexion", ["d4", "d4-d3"], {}),
        ("pathagon", ["d4", "d5"], {}),
        ("fixation", ["a3-c5"], {}),
        ("isopath", ["19>7 2-7"], {"size": 4}),
    ],
)
def test_same_seed_and_iterations_give_the_same_move(
    game: str, moves: list[str], options: dict[str, Any]
) -> None:
    pos = engines.position_after(game, moves, **options)
    first = think(pos, iterations=40, seed=11)
    again = think(pos, iterations=40, seed=11)
    assert first == again
    assert first.move in pos.legal_moves()
    if game == "isopath":
        # Its own alpha-beta at every budget (easy's one look too): evaluations, at most
        # NODES_PER_ITERATION per iteration.
        assert first.reason == "search" and 0 < first.iterations <= 40 * 8 + 1
    else:
        assert first.iterations == 40  # the search ran the budget, not a shortcut


def test_different_seeds_can_choose_differently() -> None:
    # Two placements into an empty centre sub-board after a tiny search: not all seeds agree.
    pos = engines.position_after("maphex", ["5"])
    moves = {choose_move(pos, iterations=9, seed=s) for s in range(12)}
    assert len(moves) > 1 and moves <= set(pos.legal_moves())


# -- decisive and anti-decisive moves -------------------------------------------------------


def _maphex_threat(to_move: int, target: int) -> MaphexPosition:
    # Red holds e1 and e3..e9: e2 (top sub-board, 2) is the only cell that connects.  Blue's
    # discs sit in the top-left and top-right corners, away from Red's column.
    pos = engines.new("maphex")
    assert isinstance(pos, MaphexPosition)
    cells = list(pos.cells)
    for row in (0, *range(2, 9)):
        cells[row * 9 + 4] = 0
    for name in ("a1", "b1", "c1", "a2", "b2", "c2", "g1", "h1"):
        cells[pos.board.parse(name)] = 1
    return MaphexPosition(9, tuple(cells), target, to_move, 17, "e9", None)


def test_maphex_takes_the_winning_cell() -> None:
    pos = _maphex_threat(0, 1)
    assert winning_move(pos) == "e2"
    assert choose_move(pos, iterations=5, seed=0) == "e2"


def test_maphex_does_not_send_red_to_its_winning_sub_board() -> None:
    # Blue must play in the bottom-left sub-board; b7 would send Red to the top sub-board,
    # where e2 wins, so b7 is the one move to avoid.
    pos = _maphex_threat(1, 6)
    assert winning_move(pos.play("b7")) == "e2"
    assert "b7" not in safe_moves(pos) and len(safe_moves(pos)) == 8
    for seed in range(3):
        move = choose_move(pos, iterations=30, seed=seed)
        assert move != "b7" and winning_move(pos.play(move)) is None


def test_inphexion_takes_the_winning_push() -> None:
    pos = InphexionPosition.from_diagram(
        """
        . w . . .
         . w . . .
          . b . . .
           . w . . .
            . w . . .
        """,
        to_move=0,
    )
    win = winning_move(pos)
    assert win is not None and win.startswith("b3-")
    move = choose_move(pos, iterations=5, seed=0)
    assert pos.play(move).outcome is not None
    assert pos.play(move).outcome == engines.Outcome(0, "connection")


def test_inphexion_blocks_an_immediate_connection() -> None:
    # Black to move; White threatens to push b3 and connect b1..b5.  Every safe move leaves
    # White no winning push, and the AI plays one of them.
    pos = InphexionPosition.from_diagram(
        """
        . w . . .
         . w . . .
          . b . . b
           . w . . .
            . w b . .
        """,
        to_move=1,
    )
    threatened = {m for m in pos.legal_moves() if winning_move(pos.play(m)) is not None}
    assert threatened and len(threatened) < len(pos.legal_moves())
    move = choose_move(pos, iterations=40, seed=2)
    assert move not in threatened
    assert winning_move(pos.play(move)) is None


def _pathagon_light_threat(to_move: int) -> PathagonPosition:
    return PathagonPosition.from_diagram(
        """
        ...L...
        ...L...
        ...L...
        .......
        ...L...
        ...L...
        ...L..D
        """,
        to_move=to_move,
        in_hand=(8, 13),
        ply=7,
    )


def test_pathagon_takes_the_winning_square() -> None:
    pos = _pathagon_light_threat(0)
    assert winning_move(pos) == "d4"
    assert choose_move(pos, iterations=5, seed=0) == "d4"


def test_pathagon_blocks_the_winning_square() -> None:
    pos = _pathagon_light_threat(1)
    assert safe_moves(pos) == ["d4"]
    assert choose_move(pos, iterations=30, seed=4) == "d4"


def test_isopath_plays_a_single_winning_action() -> None:
    # White's piece next to Black's home row (g), on a bare-board... space it can climb to:
    # a lone piece move into the home row wins and is the whole turn.
    pos = isopath_setup(
        white=["f2", "a1", "a2", "a3"], black=["g4", "g3"], heights={"g1": 1}, to_move=0
    )
    assert isinstance(pos, IsopathPosition) and pos.outcome is None
    move = choose_move(pos, iterations=10, seed=0)
    assert " " not in move
    assert pos.play(move).outcome == engines.Outcome(0, "home row")


def test_fixation_forced_capture_is_respected() -> None:
    # A mono-colour stack of 3 can capture: only the forced captures are legal.
    pos = setup({"e5": "LLL", "e8": "D", "a1": "L", "i5": "D"}, to_move=0)
    assert isinstance(pos, FixationPosition)
    forced = pos.forced_captures
    assert forced and set(pos.legal_moves()) == set(forced)
    for seed in range(3):
        assert choose_move(pos, iterations=20, seed=seed) in forced


def test_inphexion_swap_is_a_choice_after_the_first_disc() -> None:
    pos = engines.new("inphexion", size=5)
    opened = pos.play("c3")
    assert "swap" in opened.legal_moves()
    picks = {choose_move(opened, iterations=30, seed=s) for s in range(4)}
    assert picks <= set(opened.legal_moves())


def test_maphex_free_placement_when_the_target_is_full() -> None:
    # Fill the centre sub-board, then send the mover there: anywhere goes.
    # Every cell played sends the opponent back to the centre until it is full.
    moves = "5 e5 d4 b2 e4 e2 f4 h2 d5 b5 f5 h5 d6 b8 e6 e8 f6 h8".split()
    pos = engines.position_after("maphex", moves)
    assert isinstance(pos, MaphexPosition)
    assert pos.free and len(pos.legal_moves()) > 9
    move = choose_move(pos, iterations=30, seed=1)
    assert move in pos.legal_moves()


# -- legality in every game and size --------------------------------------------------------

CASES: list[tuple[str, dict[str, Any]]] = [
    ("maphex", {"size": 9}),
    ("maphex", {"size": 16}),
    ("inphexion", {"size": 5}),
    ("inphexion", {"size": 7}),
    ("inphexion", {"size": 9}),
    ("inphexion", {"size": 6, "pie": False}),
    ("pathagon", {}),
    ("fixation", {}),
    ("isopath", {"size": 4}),
    ("isopath", {"size": 5}),
]


def _random_position(game: str, options: dict[str, Any], rng: random.Random) -> Position:
    """A position some random plies into a random game that is still going."""
    while True:
        pos = engines.new(game, **options)
        for _ in range(rng.randrange(0, 40)):
            if pos.outcome is not None:
                break
            pos = pos.play(pos.random_move(rng))
        if pos.outcome is None:
            return pos


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6))
def test_the_ai_only_plays_legal_moves(case: tuple[str, dict[str, Any]], seed: int) -> None:
    game, options = case
    pos = _random_position(game, options, random.Random(seed))
    move = choose_move(pos, iterations=8, seed=seed)
    assert move in pos.legal_moves()
    nxt = pos.play(move)
    mover = pos.to_move
    if nxt.outcome is not None and nxt.outcome.winner not in (None, mover):
        # A move that loses at once is only chosen when every move does.
        assert all(
            (o := pos.play(m).outcome) is not None and o.winner not in (None, mover)
            for m in pos.legal_moves()
        )
