"""The Iso-Path search on bare lists (engines.ai.isopath_search): its turns are legal, it
takes a win, stops a win it can stop, and its evaluation sees what decides the next turn."""

from __future__ import annotations

import dataclasses
import functools
import heapq
import random
from types import ModuleType

import pytest

import engines
from engines.ai import budget_of, choose_move, compiled, think
from engines.ai import isopath_search as iso
from engines.isopath import IsopathPosition
from engines.isopath import setup as isopath_setup


def _source() -> ModuleType:
    """A fresh copy of the search run from its source, with its own race count: a change to
    it (monkeypatch) reaches its callers, as it would not in the compiled module."""
    return compiled.sources("isopath_race", "isopath_search")["isopath_search"]


def _text(position: IsopathPosition, turn: iso.Turn) -> str:
    return iso._text(iso._layout(position), turn)


@pytest.mark.parametrize("size", [4, 5])
def test_candidate_turns_are_legal_and_play_back_exactly(size: int) -> None:
    rng = random.Random(size)
    p = engines.new("isopath", size=size)
    assert isinstance(p, IsopathPosition)
    for _ in range(24):
        if p.outcome is not None:
            break
        lay = iso._layout(p)
        h, pieces = list(p.heights), list(p.pieces)
        turns = iso._turns(lay, h, pieces, p.to_move)
        legal = set(p.legal_moves())
        texts = [_text(p, t) for t in turns]
        assert texts and set(texts) <= legal and len(texts) < len(legal)
        for turn in rng.sample(turns, min(6, len(turns))):
            undo = iso._apply(h, pieces, turn)
            after = p.play(_text(p, turn))
            # The lists after a turn are the engine's position after it; undo restores them.
            assert (tuple(h), tuple(pieces)) == (after.heights, after.pieces)
            won = after.outcome is not None and after.outcome.winner == p.to_move
            assert iso._won(lay, pieces, turn, p.to_move) == won
            iso._undo(h, pieces, turn, undo)
            assert (tuple(h), tuple(pieces)) == (p.heights, p.pieces)
        p = p.play(rng.choice(texts))


def _dijkstra(adj: tuple[tuple[int, ...], ...], sources: list[int], enter: list[int]) -> list[int]:
    """Textbook Dijkstra: per space the cheapest sum of ``enter`` over the spaces entered on
    the way from a source (the source itself free)."""
    dist = [1000] * len(adj)
    todo = [(0, s) for s in sources]
    for s in sources:
        dist[s] = 0
    heapq.heapify(todo)
    while todo:
        d, v = heapq.heappop(todo)
        if d == dist[v]:
            for u in adj[v]:
                if d + enter[u] < dist[u]:
                    dist[u] = d + enter[u]
                    heapq.heappush(todo, (dist[u], u))
    return dist


@pytest.mark.parametrize("size", [4, 5])
def test_path_costs_are_the_cheapest_ways(size: int) -> None:
    # Entering costs by Padfoot's rule; the cheapest ways to the goal row and from the
    # pieces are Dijkstra's.
    rng = random.Random(size)
    for _ in range(40):
        p = engines.new("isopath", size=size)
        for _ in range(rng.randrange(2, 40)):
            if p.outcome is None:
                p = p.play(p.random_move(rng))  # p.random_move(rng), unlisted
        assert isinstance(p, IsopathPosition)
        lay = iso._layout(p)
        h, pieces = list(p.heights), list(p.pieces)
        for side in (0, 1):
            cost = iso._costs(lay, h, pieces, side)
            goal, stand = p.home_rows[1 - side], (1, -1)[side]
            for c in range(lay.n):
                enemies = sum(1 for nb in lay.adj[c] if pieces[nb] == 1 - side)
                off = abs(h[c] - stand)
                rule = (
                    5
                    if pieces[c] != -1
                    else 4
                    if enemies >= 2 and c not in goal
                    else 1
                    if off == 0 or (c in goal and off == 1)
                    else off + 1
                )
                assert cost[c] == rule
            # From each space off the goal row, the cheapest sum over the spaces entered.
            to_goal = iso._from_goal(lay, cost, side)
            for c in set(range(lay.n)) - goal:
                dist = _dijkstra(lay.adj, [c], cost)
                assert to_goal[c] == min(dist[g] for g in goal)
            mine = [c for c in range(lay.n) if pieces[c] == side]
            assert iso._from_pieces(lay, cost, pieces, side) == _dijkstra(lay.adj, mine, cost)


def test_it_steps_into_the_goal_row_and_the_turn_ends_there() -> None:
    p = isopath_setup(white=["f2", "a1", "a2"], black=["g4", "g3"], heights={"g1": 1})
    found = iso.search(p, nodes=500)
    assert " " not in found.move and p.play(found.move).outcome == engines.Outcome(0, "home row")


def test_it_wins_with_a_tile_then_a_step_onto_a_goal_space_one_tile_off() -> None:
    # g2 holds one tile (the middle height): White puts a second one there and climbs in.
    p = isopath_setup(white=["f2", "a1"], black=["g4", "d4"], heights={"g2": 0})
    found = iso.search(p, nodes=2000)
    outcome = p.play(found.move).outcome
    assert outcome is not None and outcome.winner == 0


def test_it_captures_a_piece_that_would_win_next_turn() -> None:
    # Black on b2 next to a1 dug to the middle: Black enters next turn, and White may not
    # touch its own home row; two White pieces next to b2 can take it first.
    p = isopath_setup(white=["a2", "b1", "e3"], black=["b2", "g3"], heights={"a1": 0}, to_move=0)
    assert p.board.index["b2"] in p.threatened
    assert iso.evaluate(p) > 0  # the threat is one the mover can remove
    found = iso.search(p, nodes=3000)
    assert found.move.startswith("xb2")
    # Without the capture (one White piece next to b2 only) the position is lost.
    lost = isopath_setup(white=["a2", "e3"], black=["b2", "g3"], heights={"a1": 0}, to_move=0)
    assert not lost.threatened and iso.evaluate(lost) < -iso.SURE / 2


def test_a_piece_further_on_scores_higher() -> None:
    home = isopath_setup(white=["a1", "a2"], black=["g1", "g2"])
    on = isopath_setup(white=["c1", "a2"], black=["g1", "g2"], heights={"b1": 1, "c1": 1})
    assert iso.evaluate(on) > iso.evaluate(home)


def test_the_same_budget_gives_the_same_move_and_the_levels_use_it() -> None:
    p = engines.position_after("isopath", ["19>7 2-7"])
    one, two = iso.search(p, nodes=3000), iso.search(p, nodes=3000)
    assert one == two and one.depth >= 2 and one.nodes <= 3000 + 1
    choice = think(p, **budget_of("normal"), seed=3)
    assert choice.reason == "search" and choice.move in p.legal_moves()
    assert 0 < choice.iterations <= budget_of("normal")["iterations"] * 8 + 1


def test_a_piece_next_to_the_home_row_is_taken_before_its_two_tiles() -> None:
    # Black on b1 next to a1 (White's home row, raised): Black digs a1 twice and enters, and
    # White may never put a tile back there: only taking the piece (or standing on a1) stops it.
    quiet = isopath_setup(white=["a3", "c3", "d1"], black=["e2", "g3"], to_move=0)
    near = isopath_setup(white=["a3", "c3", "d1"], black=["b1", "g3"], to_move=0)
    assert iso.evaluate(near) < iso.evaluate(quiet) - iso.TWO / 4
    # White on c1 and c2 next to b1: the capture comes first.
    held = isopath_setup(white=["c1", "c2", "a3"], black=["b1", "g3"], to_move=0)
    assert iso.search(held, nodes=4000).move.startswith("xb1")


def test_two_steps_towards_the_home_row_at_once_are_worse_than_one() -> None:
    # Black on c2 may step onto b1 (dug) next to a1; on c2 and c4 it has two such steps, and
    # White's one tile move spoils only one.
    one = isopath_setup(white=["a3", "e5", "e6"], black=["c2", "g3"], heights={"b1": -1})
    two = isopath_setup(
        white=["a3", "e5", "e6"], black=["c2", "c5", "g3"], heights={"b1": -1, "b5": -1}
    )
    assert iso.evaluate(two) < iso.evaluate(one) - iso.TWO / 8
    # White's candidates spoil the step: a tile put on b1.
    lay = iso._layout(one)
    texts = [_text(one, t) for t in iso._turns(lay, list(one.heights), list(one.pieces), 0)]
    assert any(">b1" in t for t in texts)


def test_a_step_next_to_the_home_row_at_the_others_height_cannot_be_spoilt_by_a_tile() -> None:
    # b1 dug to Black's height: one White tile leaves it one tile off, still a step for Black
    # (tile and step in one turn); b1 one tile off: White's tile puts it two off.
    dug = isopath_setup(white=["a3", "e5", "e6"], black=["c2", "g3"], heights={"b1": -1})
    half = isopath_setup(white=["a3", "e5", "e6"], black=["c2", "g3"], heights={"b1": 0})
    assert iso.evaluate(dug) < iso.evaluate(half) - iso.TWO / 10
    # Two White pieces next to b1 would take a piece stepping there: no threat then.
    guarded = isopath_setup(white=["a1", "b2", "e6"], black=["c2", "g3"], heights={"b1": -1})
    lay = iso._layout(guarded)
    assert iso._entries(lay, list(guarded.heights), list(guarded.pieces), 1) == []


def _after_random_plies(seed: int, plies: int = 10) -> IsopathPosition:
    rng = random.Random(seed)
    position = engines.new("isopath")
    for _ in range(plies):
        position = position.play(position.random_move(rng))  # as rng.choice(legal_moves())
    assert isinstance(position, IsopathPosition)
    return position


#: White to move and ahead by the evaluation; its best turn is ``a3-a4 d7>g1``.
_AHEAD = _after_random_plies(2)


def test_the_side_ahead_does_not_take_back_the_opponents_last_tile_move() -> None:
    found = iso.search(_AHEAD, nodes=6000)
    assert found.score > 0 and "d7>g1" in found.move
    # Had Black's last turn moved that tile from g1 to d7, White would not move it back.
    after = dataclasses.replace(_AHEAD, last_move="g1>d7")
    lay = iso._layout(after)
    roots = iso._turns(lay, list(after.heights), list(after.pieces), 0)
    back = iso._undoing(after, roots)
    assert back and all("d7>g1" in _text(after, t) for t in back)
    again = iso.search(after, nodes=6000)
    assert "d7>g1" not in again.move and again.move in after.legal_moves()
    assert iso._undoing(_AHEAD, roots) == set()


def test_easy_looks_one_turn_ahead_at_the_best_turn_by_the_evaluation() -> None:
    p = engines.new("isopath")
    choice = think(p, **budget_of("easy"), seed=5)
    assert choice.reason == "search"
    lay = iso._layout(p)
    texts = {_text(p, t) for t in iso._turns(lay, list(p.heights), list(p.pieces), 0)}
    best = max(-iso.evaluate(p.play(m)) for m in texts & set(p.legal_moves()))
    assert -iso.evaluate(p.play(choice.move)) == best
    assert iso.search(p, nodes=1200, max_depth=1).move == choice.move


def test_easy_captures_a_piece_next_to_its_home_row() -> None:
    # Black on b1 next to White's home row, White's c1 and c2 next to it: easy takes it.
    held = isopath_setup(white=["c1", "c2", "a3"], black=["b1", "g3"], to_move=0)
    assert think(held, **budget_of("easy"), seed=1).move.startswith("xb1")


def test_one_piece_next_to_a_defender_is_half_a_capture() -> None:
    # Black's f2 guards g1 and g2; White's e2 next to it presses it, e2 and e3 threaten it (a
    # capture, judged by the capture terms instead).
    def pressed(white: list[str]) -> int:
        p = isopath_setup(white=[*white, "a1"], black=["f2", "g4"], to_move=0)
        return iso._pressure(iso._layout(p), list(p.pieces), 0, set(), _black(p))

    assert pressed(["c1"]) == 0
    assert pressed(["e2"]) == 1
    assert pressed(["e2", "e3"]) == 0
    assert pressed(["e1"]) == 0  # e1 is next to f1, not f2
    # A piece about to be lost presses nothing.
    p = isopath_setup(white=["e2", "a1"], black=["f2", "g4"], to_move=0)
    lost = {p.board.names.index("e2")}
    assert iso._pressure(iso._layout(p), list(p.pieces), 0, lost, _black(p)) == 0


def _black(position: IsopathPosition) -> list[int]:
    return [c for c, x in enumerate(position.pieces) if x == 1]


def _key(position: IsopathPosition) -> tuple[object, ...]:
    return position.heights, position.pieces, position.to_move


def test_the_side_ahead_does_not_go_back_to_an_earlier_position() -> None:
    found = iso.search(_AHEAD, nodes=6000)
    assert found.score > 0
    earlier = [_AHEAD.play(found.move)]
    again = iso.search(_AHEAD, nodes=6000, history=earlier)
    assert again.move != found.move and again.move in _AHEAD.legal_moves()
    assert _key(_AHEAD.play(again.move)) not in {_key(p) for p in earlier}
    # The levels get the history through think() and choose_move().
    budget = budget_of("normal")
    assert think(_AHEAD, **budget, seed=3).move == found.move
    assert think(_AHEAD, **budget, seed=3, history=earlier).move == again.move
    assert choose_move(_AHEAD, **budget, seed=3, history=earlier) == again.move


def test_the_side_behind_goes_back_to_an_earlier_position_a_draw() -> None:
    behind = _after_random_plies(1)
    found = iso.search(behind, nodes=3000)
    assert found.score < 0
    lay = iso._layout(behind)
    roots = [
        m
        for m in (
            _text(behind, t)
            for t in iso._turns(lay, list(behind.heights), list(behind.pieces), behind.to_move)
        )
        if m in behind.legal_moves() and m != found.move
    ]
    back = roots[0]
    again = iso.search(behind, nodes=3000, history=[behind.play(back)])
    assert again.move == back and again.score == 0


def _retiled(position: IsopathPosition, take: int, put: int) -> IsopathPosition:
    """``position`` with one tile moved from the ``take``-th empty space that has one to the
    ``put``-th that has room: the pieces as they stand, the tiles not."""
    h = list(position.heights)
    free = [c for c, x in enumerate(position.pieces) if x == iso.NONE]
    src = [c for c in free if h[c] > -1][take]
    dst = [c for c in free if h[c] < 1 and c != src][put]
    h[src] -= 1
    h[dst] += 1
    return dataclasses.replace(position, heights=tuple(h))


def _worn_out(position: IsopathPosition) -> list[IsopathPosition]:
    """Earlier positions with the pieces as ``position`` has them, :data:`iso.WORN` of them,
    each with other tiles."""
    return [_retiled(position, i, i) for i in range(iso.WORN)]


def test_pieces_left_where_the_movers_turns_left_them_worn_times_are_worn() -> None:
    after = _AHEAD.play("a3-a4 d7>g1")  # Black to move
    earlier = _worn_out(after)
    assert len({e.heights for e in earlier}) == iso.WORN >= 2
    assert iso._worn(earlier[:-1], 0) == set()
    assert iso._worn(earlier, 0) == {(after.pieces, 1)}
    # Only the positions the mover's own turns left count.
    assert iso._worn(earlier, 1) == set()
    assert iso._worn([_AHEAD] * iso.WORN, 0) == set()


def test_the_side_ahead_does_not_leave_the_pieces_where_it_left_them_worn_times() -> None:
    ahead = _after_random_plies(3)  # White ahead with other steps that keep it ahead
    found = iso.search(ahead, nodes=6000)
    assert found.score > 0
    after = ahead.play(found.move)
    earlier = _worn_out(after)
    # One time fewer is not going round: the same search, the same turn.
    once = iso.search(ahead, nodes=6000, history=earlier[:-1])
    assert (once.move, once.score) == (found.move, found.score)
    # WORN times: a turn that leaves them so again costs ROUND, so the side ahead plays another.
    again = iso.search(ahead, nodes=6000, history=earlier)
    assert again.move in ahead.legal_moves() and again.score > 0
    assert ahead.play(again.move).pieces != after.pieces
    assert think(ahead, **budget_of("normal"), seed=3, history=earlier).move != found.move
    # So at one look (easy) too.
    look = iso.search(ahead, nodes=1200, max_depth=1)
    there = ahead.play(look.move)
    again = iso.search(ahead, nodes=1200, max_depth=1, history=_worn_out(there))
    assert look.score > 0 and ahead.play(again.move).pieces != there.pieces


def _one_look(p: IsopathPosition, move: str, worn: IsopathPosition) -> float:
    """``move``'s value at one look when the pieces as ``worn`` has them are worn (a charge
    only for the side ahead: its best turn at one look scores above :data:`iso.AHEAD`)."""
    after = p.play(move)
    return -iso.evaluate(after) - iso.ROUND * (_ahead(p) and after.pieces == worn.pieces)


@functools.cache
def _ahead(p: IsopathPosition) -> bool:
    """Whether the side to move's best turn at one look scores above :data:`iso.AHEAD`
    (worked out once a position: every turn's value asks it)."""
    return max(-iso.evaluate(p.play(m)) for m in _candidates(p)) > iso.AHEAD


def _candidates(p: IsopathPosition) -> list[str]:
    lay = iso._layout(p)
    texts = {_text(p, t) for t in iso._turns(lay, list(p.heights), list(p.pieces), p.to_move)}
    return sorted(texts & set(p.legal_moves()))


def test_going_round_costs_less_than_a_piece_at_one_look() -> None:
    moved = []
    for seed in range(4):
        p = _after_random_plies(seed)
        lay = iso._layout(p)
        texts = {_text(p, t) for t in iso._turns(lay, list(p.heights), list(p.pieces), 0)}
        turns = sorted(texts & set(p.legal_moves()))
        look = iso.search(p, nodes=1200, max_depth=1)
        there = p.play(look.move)
        earlier = _worn_out(there)
        # Every turn leaving the pieces as ``there`` has them costs ROUND, the rest nothing.
        again = iso.search(p, nodes=1200, max_depth=1, history=earlier)
        best = max(_one_look(p, m, there) for m in turns)
        assert _one_look(p, again.move, there) == best == again.score
        moved.append(p.play(again.move).pieces != there.pieces)
    assert any(moved) and not all(moved)  # it went elsewhere, and once it was worth going round
    # A piece is worth more than going round: taking away any one of the side's pieces costs
    # it more than ROUND.
    for seed in range(4):
        p = _after_random_plies(seed)
        for c, side in enumerate(p.pieces):
            if side == p.to_move:
                fewer = list(p.pieces)
                fewer[c] = iso.NONE
                less = dataclasses.replace(p, pieces=tuple(fewer))
                assert iso.evaluate(p) - iso.evaluate(less) > iso.ROUND


def test_going_round_costs_on_every_turn_of_the_mover_in_the_search() -> None:
    p = _after_random_plies(3)
    lay = iso._layout(p)
    h, pieces = list(p.heights), list(p.pieces)
    turns = iso._turns(lay, h, pieces, 0)

    def placed(t: iso.Turn) -> iso.Placement:
        u = iso._apply(h, pieces, t)
        after = (tuple(pieces), 1)
        iso._undo(h, pieces, t, u)
        return after

    def state(worn: set[iso.Placement]) -> iso._Search:
        return iso._Search(lay, h, pieces, None, None, set(), worn)

    def look(t: iso.Turn) -> float:
        u = iso._apply(h, pieces, t)
        after = state(set()).static((tuple(h), tuple(pieces), 1))
        iso._undo(h, pieces, t, u)
        return after

    # Every turn worn: the node is worth exactly ROUND less.
    plain = state(set()).negamax(0, 1, -2 * iso.WIN, 2 * iso.WIN, 0)
    worn = state({placed(t) for t in turns}).negamax(0, 1, -2 * iso.WIN, 2 * iso.WIN, 0)
    assert worn == plain - iso.ROUND
    # The one look that orders a node's turns counts it too.
    first = state(set()).ranked(turns, 0, 0)
    gone = placed(first[0])
    keyed = sorted((look(t) + iso.ROUND * (placed(t) == gone), i, t) for i, t in enumerate(turns))
    again = state({gone}).ranked(turns, 0, 0)
    assert again == _alike_last(keyed)
    assert again[0] != first[0]


def _alike_last(keyed: list[tuple[float, int, iso.Turn]]) -> list[iso.Turn]:
    """Turns sorted by their one look, each turn with the step and the score of one before it
    moved after all the others (in order)."""
    marks = [(iso._step(t), v) for v, _, t in keyed]
    first = [t for k, (_, _, t) in enumerate(keyed) if marks[k] not in marks[:k]]
    return first + [t for _, _, t in keyed if t not in first]


def _recorded(
    moves: list[str], to_move: int, search: ModuleType = iso
) -> tuple[IsopathPosition, iso._Layout, list[int], list[int], iso._Search]:
    """The position of a recorded h4 game after ``moves``, ``to_move`` to move, and as the
    search (the module ``search``) holds it: layout, heights, pieces, and a search of it without
    a budget or history."""
    p = engines.position_after("isopath", moves, size=4)
    assert isinstance(p, IsopathPosition) and p.to_move == to_move
    lay, h, pieces = search._layout(p), list(p.heights), list(p.pieces)
    return p, lay, h, pieces, search._Search(lay, h, pieces, None, None, set(), set())


def test_a_node_looks_at_different_steps_before_turns_the_one_look_cannot_tell_apart() -> None:
    # Game 17 of the h4 series against the depth-3 Padfoot-like player, ply 42: three
    # places to take a tile from, far from everything, gave the same look to each of two
    # steps, and the node's eight turns held only those two steps; the step that won (c6-d7,
    # a runner to the home row) came tenth.
    moves = (
        "b3>b2 a1-b2,f3>b3 g2-f3,b5>c2 b2-c2,e3>b4 f3-e3,c2-b2 b3>d2,g3-f3 c2>c6,f5>b1 b2-b1,"
        "d4>d7 e3-d4,b1-b2 c1>c2,c3>f5 d4-c3,b2-a1 c4>g2,f4>e6 g4-f4,a1-b2 d3>g4,f3-e3 a1>d4,"
        "a4-b4 e5>f5,f4-e5 c5>f3,b4-a4 f3>b5,e3-d3 b5>d4,b2-b1 d2>b5,d2>f3 d3-d2,d4>b5 a4-b5,"
        "d6>e3 e5-d6,b5-c6 d4>g4,d1>f1 d2-d1,a3-b4 e1>c5,f2>f4 g1-f2,a2-b2 f1>b3,c3-c4 e6>f1,"
        "b1-c2 f1>e6,e3>e4 f2-e3,c2-b1 e4>b3,e3-d4 a2>c5,b1-c2 e4>d3,d3>c3 d4-d3,b2-b3 d5>c1,"
        "c4-d5 b1>d4,c5>c3 b3-c3,d3-d2 b1>e5,c3-b3 c5>b1,d5-e4 b1>e1,b3-c3 e1>b1,d1-e1 b1>e5"
    ).split(",")
    _, lay, h, pieces, state = _recorded(moves, 0)
    ranked = state.ranked(iso._turns(lay, h, pieces, 0), 0, 1)
    kept, _ = iso._kept(lay, pieces, 0, ranked, iso.THREATS_FROM)
    steps = [iso._step(t) for t in kept[: iso.WIDTH]]
    assert len(set(steps)) >= 5
    assert "c6-d7" in {iso._text(lay, t).split()[0] for t in kept}


def test_the_root_searches_different_steps_deeper_before_turns_the_search_cannot_tell_apart() -> (
    None
):
    # Game 3 of the h4 series against the depth-3 Padfoot-like player at c57f14b, ply 37
    # (lost as Black at ply 45; White's d7-d1 began the runner's way): the root's turns by
    # their depth-2 scores, as the search orders them for depth 3, of which it searches
    # ROOT_WIDTH deeper.  They were two steps, each with five places for its tile.
    moves = (
        "e4>b3 a2-b3,f3>d4 g2-f3,a3-a2 f5>g2,e3>e1 f3-e3,b5>c3 b3-c3,g3-f3 d3>c6,b1>c2 c3-c2,"
        "f1>d1 g1-f1,a2-b3 f2>d2,f3-e4 d2>d7,c1>d2 c2-d2,e3-d3 e1>f3,d2-c2 d1>d5,e2>b1 f1-e2,"
        "b3-c3 b2>e1,d3-e3 c4>b2,c2-d2 f3>f1,g4-g1 d5>b2,c3-b3 b2>d5,e3-d3 c3>e6,e1>d1 d2-d1,"
        "e2-f2 e6>e3,d1-d7 g2>g4,f2-f3 e6>e1,d1>c3 b3-c3,e5>f2 e4-e5,b3>d6 d7-d6,e5-f5 a2>d1,"
        "c6>b3 c3-b3,f3-e4 c2>f2,d6-d5 c5>c2,f1>b4 g1-f1,d5-d6 b4>b2,f1-e2 c2>e3,d6-d7 f4>f1,"
        "f5-e5 c2>f3,d7-d1 c6>f1"
    ).split(",")
    _, lay, h, pieces, state = _recorded(moves, 1)
    results = []
    for i, t in enumerate(iso._turns(lay, h, pieces, 1)):
        u = iso._apply(h, pieces, t)
        results.append((-state.negamax(0, 1, -2 * iso.WIN, 2 * iso.WIN, 1), i, t))
        iso._undo(h, pieces, t, u)
    results.sort(key=lambda r: (-r[0], r[1]))
    plain = [t for _, _, t in results][: iso.ROOT_WIDTH]
    order = iso._next_order(results, [])
    deeper = order[: iso.ROOT_WIDTH]
    assert sorted(order) == sorted(t for _, _, t in results) and order[0] == plain[0]
    assert len({iso._step(t) for t in plain}) == 2
    assert len({iso._step(t) for t in deeper}) >= 5
    # No two of them alike: a step's turns among them differ in their scores.
    score = {t: v for v, _, t in results}
    assert len({(iso._step(t), score[t]) for t in deeper}) == iso.ROOT_WIDTH


@pytest.mark.parametrize("seed", range(4))
def test_the_answer_is_an_odd_depths_unless_a_deeper_one_settles_the_game(seed: int) -> None:
    position = _after_random_plies(seed, plies=8)
    found = iso.search(position, nodes=8000)
    assert found.depth % 2 == 1 or abs(found.score) >= iso.WIN / 2
    assert found.move in position.legal_moves()
    # Depth 2 finished but only depth 1 answers, unless depth 2 found a win or a loss.
    two = iso.search(position, nodes=100_000, max_depth=2)
    one = iso.search(position, nodes=100_000, max_depth=1)
    assert two.move == one.move or abs(two.score) >= iso.WIN / 2 or one.score <= -iso.WIN / 2


@pytest.mark.parametrize("seed", range(3))
def test_each_position_is_evaluated_once_a_search(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    position = _after_random_plies(seed, plies=8)
    kept = iso.search(position, nodes=10**7, max_depth=4)
    # Without the kept evaluations (cleared before each new one): the same answer, dearer.
    source = _source()
    monkeypatch.setattr(source, "EVAL_LIMIT", -1)
    made_again = source.search(position, nodes=10**7, max_depth=4)
    assert (kept.move, kept.score, kept.depth) == (
        made_again.move,
        made_again.score,
        made_again.depth,
    )
    assert kept.nodes < made_again.nodes * 0.8


def test_the_kept_evaluations_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []
    source = _source()
    real = source._Search.static

    def static(self: iso._Search, key: iso.Key) -> float:
        score = real(self, key)
        sizes.append(len(self.evals))
        return score

    monkeypatch.setattr(source, "EVAL_LIMIT", 500)
    monkeypatch.setattr(source._Search, "static", static)
    source.search(_after_random_plies(1, plies=8), nodes=5000)
    # Cleared on the way: never more than the limit and the one just made.
    assert max(sizes) == 501 and sizes.count(1) >= 5


# A game `hard` lost to `normal` (the benchmark's hard-vs-normal game 16, from its random
# two-ply opening): after White's d2-e1 d1>e6, Black's b2>c1 c3-b2 puts a runner next to a1,
# two tiles off, and wins by force; the one look ranks it 56th of Black's 102 turns.
_RUNNER_GAME = (
    "b3>b2 a1-b2,f3>b3 g2-f3,c4>c2 b2-c2,e3>d7 f3-e3,f4>d2 c2-d2,e2>d6 e3-e2,a2-b2 b3>e1,"
    "f1>f4 g1-f1,f4>b5 a4-b5,g3-f3 c3>c6,b5-c6 c1>e5,d3>d1 e2-d3,d2-d1 b5>c3,c3>f2 d3-c3,"
    "b2-a2 f2>b4,g4-g1 b2>e3,d1-d2 f2>b2,f1-e2 b2>e3,c6-d7 e3>g4,g1-f2 d6>f1,d2-e1 d1>e6"
).split(",")
_RUNNER = "b2>c1 c3-b2"


def _runner_node(
    search: ModuleType = iso,
) -> tuple[IsopathPosition, iso._Search, list[iso.Turn]]:
    """Black to move after d2-e1 d1>e6; a search over it (by the module ``search``); Black's
    turns best first by one look."""
    p, lay, h, pieces, state = _recorded(_RUNNER_GAME, 1, search)
    turns = state.ranked(search._turns(lay, h, pieces, 1), 1, 0)
    assert [_text(p, t) for t in turns].index(_RUNNER) >= iso.WIDTH
    return p, state, turns


def test_a_loss_counts_only_when_every_turn_loses(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the threatening steps kept, Black's node keeps 8 turns by one look, and White's
    # attack beats all 8 within five plies; the runner is then searched too, and escapes.
    source = _source()
    monkeypatch.setattr(source, "THREATS_FROM", 99)
    _, state, _ = _runner_node(source)
    assert state.negamax(1, 5, -2 * iso.WIN, 2 * iso.WIN, 0) > -iso.WIN / 2


def test_a_threatening_step_is_searched_from_three_plies() -> None:
    p, state, turns = _runner_node()
    lay = iso._layout(p)
    pieces = list(p.pieces)
    runner = lay.names.index("c3"), lay.names.index("b2")
    kept, rest = iso._kept(lay, pieces, 1, turns, 3)
    assert runner in {iso._step(t) for t in kept} and len(kept) + len(rest) == len(turns)
    assert runner not in {iso._step(t) for t in iso._kept(lay, pieces, 1, turns, 2)[0]}
    # So four plies see the runner's win (the one-look eight alone see White ahead by 50 000).
    assert state.negamax(1, 4, -2 * iso.WIN, 2 * iso.WIN, 0) >= iso.WIN / 2


def test_a_step_threatens_a_goal_space_or_a_capture() -> None:
    p = isopath_setup(white=["e1", "d4", "e6", "a1"], black=["d6", "g4"])
    lay = iso._layout(p)
    pieces = list(p.pieces)

    def threatens(step: str) -> bool:
        a, b = (lay.names.index(s) for s in step.split("-"))
        return iso._threatens(lay, pieces, (a, b), 0)

    assert threatens("e1-f1")  # next to g1, an empty space of Black's home row
    assert threatens("d4-d5")  # a second piece next to d6 (e6 is the first)
    assert not threatens("e1-e2") and not threatens("d4-c4")
    # The one piece next to d6 stepping round it is still the only one.
    lone = isopath_setup(white=["c5", "a1"], black=["d6", "g4"])
    a, b = lay.names.index("c5"), lay.names.index("d5")
    assert not iso._threatens(lay, list(lone.pieces), (a, b), 0)
