"""The candidates' coverage benchmark (``benchmarks/ai_candidates.py``, issue 49): over a
recorded game, the moves of the players that search every move at the root, after the random
opening, counted against the plan's candidates in the same positions."""

from __future__ import annotations

import engines
from engines.ai.isopath_search import below_root
from engines.ai.pathagon_player import pathagon_candidates
from tests.scripts import load_script

MOVES = "d4 c4 e4 d5 d3 a1 c3".split()


def test_coverage_counts_the_searching_players_moves_after_the_opening() -> None:
    bench = load_script("benchmarks/ai_candidates.py")
    record = {
        "game": "pathagon",
        "label": "pathagon",
        "options": {},
        "matchup": "hard-easy",  # easy's moves (tree search) are not counted
        "seat": 1,  # hard is Dark: it moved at plies 1, 3 and 5
        "opening": 2,  # ply 1 was random
        "moves": MOVES,
    }
    positions = list(engines.replay("pathagon", MOVES))
    hard = [3, 5]
    expected = [
        len(hard),
        sum(MOVES[k] in pathagon_candidates(positions[k]) for k in hard),
        sum(len(pathagon_candidates(positions[k])) for k in hard),
    ]
    assert bench.coverage([record]) == {"pathagon": expected}
    assert 0 < expected[1] < len(hard)  # some of Dark's moves are candidates, not all
    # A game without a pruning plan (Maphex searches by the tree search) is not counted.
    assert bench.coverage([{**record, "game": "maphex", "label": "maphex 9x9"}]) == {}
    assert bench.coverage([record], games={"inphexion"}) == {}


def test_iso_path_counts_the_turns_its_own_search_keeps_below_the_root() -> None:
    bench = load_script("benchmarks/ai_candidates.py")
    position = engines.new("isopath")
    moves: list[str] = []
    kept: list[list[str]] = []
    for ply in range(5):
        legal = position.legal_moves()
        below = below_root(position)
        kept.append(below)
        # Normal (White) plays a kept turn at ply 2 and one the search leaves out at ply 4.
        move = below[0] if ply == 2 else next(m for m in legal if m not in below)
        moves.append(move)
        position = position.play(move)
    record = {
        "game": "isopath",
        "label": "isopath h4",
        "options": {},
        "matchup": "normal-easy",
        "seat": 0,
        "opening": 2,
        "moves": moves,
    }
    assert bench.coverage([record]) == {"isopath h4": [2, 1, len(kept[2]) + len(kept[4])]}
