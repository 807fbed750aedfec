"""The alpha-beta search, the connection potentials and the per-game plans of the computer
player (engines.ai.alphabeta, engines.ai.distance, engines.ai.<game>_player,
engines.ai.isopath_plan)."""

from __future__ import annotations

import heapq
import random
import time

import pytest

import engines
from engines.ai import NODES_PER_ITERATION, budget_of, think
from engines.ai import isopath_plan as iso
from engines.ai.alphabeta import Plan, search
from engines.ai.distance import FAR, potential, potentials
from engines.ai.hooks import plan_of
from engines.ai.pathagon_player import pathagon_candidates, pathagon_evaluate, traps
from engines.isopath import IsopathPosition
from engines.isopath import setup as isopath_setup
from engines.pathagon import PathagonPosition


def _plan(game: str) -> Plan:
    """The alpha-beta plan the game's record registers."""
    plan = plan_of(game)
    assert plan is not None
    return plan


def test_the_two_distance_needs_two_ways_on_and_the_plain_distance_one() -> None:
    hexes = engines.new("maphex", size=9)
    a, b = potentials(hexes.cells, hexes.board.neighbours, hexes.edges, (0, 1))
    assert a.value == b.value < FAR and a.moves > 1
    square = engines.new("pathagon")
    # On squares a cell has one way forward: the two-distance never reaches the far edge.
    assert potential(square.cells, 0, square.board.neighbours, square.edges[0]).value == FAR
    plain = potential(square.cells, 0, square.board.neighbours, square.edges[0], kth=1)
    assert plain.value == 8  # seven squares, the end one counted from both edges


def test_own_pieces_shorten_the_distance_and_the_opponents_block_it() -> None:
    moves = "d1 a1 d2 a2 d3 a3 d4 a4 d5 a5 d6".split()
    p = engines.position_after("pathagon", moves)
    light, dark = potentials(p.cells, p.board.neighbours, p.edges, (0, 1), kth=1)
    assert light.value == 2 and light.moves == 1  # only d7 is left
    assert dark.value > light.value
    blocked = p.play("d7")  # Dark takes the square
    after = potential(blocked.cells, 0, blocked.board.neighbours, blocked.edges[0], kth=1)
    assert after.value > 2


def test_alpha_beta_finds_a_forced_win_two_moves_deep() -> None:
    # Light has d1-d5, c7 and e7: d6 threatens d7, c6 and e6 at once, Dark meets one.
    p = PathagonPosition.from_diagram(
        """
        ..L.L..
        ......D
        ...L..D
        ...L..D
        ...L...
        ...L...
        ...L...
        """,
        to_move=0,
    )
    found = search(p, p.legal_moves(), _plan("pathagon"), nodes=20000)
    assert found.value == 1.0 and found.depth >= 2
    after = p.play(found.move)
    # Whatever Dark answers, Light then wins at once.
    for reply in after.legal_moves():
        answer = after.play(reply)
        if answer.outcome is None:
            assert any(
                (done := answer.play(m).outcome) is not None and done.winner == 0
                for m in answer.legal_moves()
            ), (found.move, reply)


def test_alpha_beta_keeps_to_its_budget_and_repeats_itself() -> None:
    p = engines.position_after("inphexion", ["d4", "d4-d3"])
    plan = _plan("inphexion")
    one = search(p, p.legal_moves(), plan, nodes=300)
    assert one == search(p, p.legal_moves(), plan, nodes=300)
    # Depth one is always finished (every root move looked at once), then the budget holds.
    assert one.nodes <= max(300, len(p.legal_moves())) + 1
    start = time.perf_counter()
    timed = search(p, p.legal_moves(), plan, deadline=start + 0.05)
    assert timed.move in p.legal_moves() and timed.depth >= 1
    with pytest.raises(ValueError, match="budget"):
        search(p, p.legal_moves(), plan)


def test_a_plan_with_a_width_looks_at_fewer_moves_below_the_root() -> None:
    p = engines.position_after("inphexion", ["d4", "d4-d3"])
    full = search(p, p.legal_moves(), Plan(_plan("inphexion").evaluate, max_depth=2), nodes=10**6)
    narrow = search(
        p, p.legal_moves(), Plan(_plan("inphexion").evaluate, width=3, max_depth=2), nodes=10**6
    )
    assert full.depth == narrow.depth == 2 and narrow.nodes < full.nodes


def test_pathagon_knows_traps_and_looks_at_them_first() -> None:
    # Light on d2, Dark on d3: Light filling d4 traps d3.
    p = PathagonPosition.from_diagram(
        """
        .......
        .......
        .......
        .......
        ...D...
        ...L...
        .......
        """,
        to_move=0,
    )
    d4 = p.board.parse("d4")
    # And Dark filling d1 traps d2.
    assert traps(p, 0) == {d4} and traps(p, 1) == {p.board.parse("d1")}
    assert pathagon_candidates(p)[0] == "d4"
    # The trap in hand is worth more to the side to move than to the side that waits.
    assert pathagon_evaluate(p) > 0.5


def test_pathagon_candidates_take_both_sides_shortest_paths() -> None:
    # Ply 11 of a series game (hard against normal from two random plies), Dark to move;
    # each side five squares short. f4 and g4 lie on both sides' shortest paths; f5 to g6 on
    # Light's, a2 and b2 on Dark's. Ranked by the path sums themselves, with ties by the
    # square's index, the six candidates were a2, b2, a3, b3, f4 and g4: nothing of Light's
    # way up the g and f files, where the game was played (Dark e5, f5, f6 next).
    p = PathagonPosition.from_diagram(
        """
        .......
        .......
        .......
        ...DD..
        ..DDLLL
        ..D.L..
        ..L.L..
        """,
        to_move=1,
    )
    found = pathagon_candidates(p)
    assert set(found[:2]) == {"f4", "g4"}
    assert {"f5", "g5", "a2", "b2"} <= set(found)


def test_the_levels_search_by_alpha_beta_where_there_is_a_plan() -> None:
    p = engines.position_after("pathagon", ["d4", "c4"])
    normal = think(p, iterations=budget_of("normal")["iterations"], seed=1)
    assert normal.reason == "search" and normal.move in p.legal_moves()
    assert normal.iterations <= budget_of("normal")["iterations"] * NODES_PER_ITERATION + 50
    easy = think(p, **budget_of("easy"), seed=1)
    assert easy.iterations == budget_of("easy")["iterations"]  # the tree search


def test_iso_path_candidates_are_legal_turns_wins_first() -> None:
    rng = random.Random(5)
    p = engines.new("isopath")
    for _ in range(8):
        turns = iso.candidates(p)
        legal = set(p.legal_moves())
        assert turns and set(turns) <= legal and len(turns) < len(legal)
        assert iso.reference_candidates(p) and set(iso.reference_candidates(p)) <= legal
        p = p.play(rng.choice(turns))
    # White on f1 next to Black's home row, g1 raised: stepping in wins, and comes first.
    near = isopath_setup(white=["f1"], black=["c1", "c2"], heights={"g1": 1})
    first = iso.candidates(near)[0]
    won = near.play(first).outcome
    assert won is not None and won.winner == 0


def test_iso_path_counts_a_home_row_space_raised_against_its_owner() -> None:
    base = isopath_setup(white=["a1", "c3"], black=["g1", "e3"])
    raised = isopath_setup(white=["a1", "c3"], black=["g1", "e3"], heights={"g4": 1})
    # g4 is Black's home row raised to White's height: a way in for White for good.
    assert iso.evaluate(raised) > iso.evaluate(base)
    assert iso.reference_evaluate(raised) == pytest.approx(iso.reference_evaluate(base), abs=0.2)


def test_iso_path_hard_searches_real_turns_within_its_time() -> None:
    p = engines.position_after("isopath", ["19>7 2-7"])
    choice = think(p, seconds=0.3, seed=1)
    assert choice.reason == "search" and choice.move in p.legal_moves()


def test_iso_path_costs_go_round_a_space_between_two_enemy_pieces() -> None:
    one = isopath_setup(white=["a2"], black=["d3"])
    two = isopath_setup(white=["a2"], black=["d3", "d5"])  # d4 now between two Black pieces
    names = one.board.names
    before = iso.path_costs(one, one.heights, one.pieces, 0)
    after = iso.path_costs(two, two.heights, two.pieces, 0)
    c4, d4 = names.index("c4"), names.index("d4")
    # Entering d4 costs 3 more (a piece there could be taken): from c4 the way goes round it.
    assert before[c4] == 9 and after[c4] == 11
    # d4's own way on is unchanged, and the goal row never counts as threatened.
    assert before[d4] == after[d4] == 7
    assert all(after[g] == 0 for g in two.home_rows[1])


def _heap_path_costs(
    position: IsopathPosition, heights: list[int], pieces: list[int], side: int
) -> list[int]:
    """:func:`engines.ai.isopath_plan.path_costs` as it was written first: Dijkstra's search
    with a heap from the goal row, on the same costs of entering a space."""
    adj, stand, enemy = position.adjacent, (1, -1)[side], 1 - side
    goal = position.home_rows[enemy]
    near = [sum(1 for nb in adj[c] if pieces[nb] == enemy) for c in range(len(heights))]
    cost = [1 if h == stand else 2 if h == 0 else 3 for h in heights]
    for c, p in enumerate(pieces):
        if p != -1:
            cost[c] += 4
        elif near[c] >= 2 and c not in goal:
            cost[c] += 3
    dist = [1000] * len(heights)
    todo = [(0, g) for g in goal]
    for g in goal:
        dist[g] = 0
    heapq.heapify(todo)
    while todo:
        d, v = heapq.heappop(todo)
        if d > dist[v]:
            continue
        for u in adj[v]:
            if d + cost[v] < dist[u]:
                dist[u] = d + cost[v]
                heapq.heappush(todo, (dist[u], u))
    return dist


@pytest.mark.parametrize("size", [4, 5])
def test_iso_path_costs_are_dijkstras_on_random_boards(size: int) -> None:
    """The frontier-by-frontier relaxing gives the heap's costs on random heights and pieces
    (any layout: the costs do not ask whether a game could reach it)."""
    rng = random.Random(size)
    position = engines.new("isopath", size=size)
    assert isinstance(position, IsopathPosition)
    n = len(position.heights)
    for _ in range(500):
        heights = [rng.choice((-1, 0, 1)) for _ in range(n)]
        pieces = [-1] * n
        for c in rng.sample(range(n), rng.randrange(0, 2 * size + 3)):
            pieces[c] = rng.choice((0, 1))
        for side in (0, 1):
            expected = _heap_path_costs(position, heights, pieces, side)
            assert iso.path_costs(position, heights, pieces, side) == expected
