"""Lines of Fixation, one test (or more) per numbered point of shared/rules/fixation.md.

Hand-made positions come from ``engines.fixation.setup``: stacks are written bottom to top,
``L`` Light and ``D`` Dark.  Board picture (rows a..i, the three line axes are the rows and
the two diagonals)::

            a1  a2  a3  a4  a5
          b1  b2  b3  b4  b5  b6
        c1  c2  c3  c4  c5  c6  c7
      d1  d2  d3  d4  d5  d6  d7  d8
    e1  e2  e3  e4  e5  e6  e7  e8  e9
      f1  f2  f3  f4  f5  f6  f7  f8
        g1  g2  g3  g4  g5  g6  g7
          h1  h2  h3  h4  h5  h6
            i1  i2  i3  i4  i5
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import IllegalMove, Outcome
from engines.connection import is_one_group
from engines.fixation import BOARD, FixationPosition, board_key, new, setup
from tests.engines.properties import GameProperties


class TestProperties(GameProperties):
    game, option_sets = "fixation", ({},)
    # Superko makes every game finite, but random games run to ~2000 plies; cap the playouts.
    max_plies = 300


def cell(name: str) -> int:
    return BOARD.parse(name)


def stacks_of(pos: FixationPosition) -> dict[str, str]:
    return {BOARD.name(c): "".join("LD"[x] for x in s) for c, s in enumerate(pos.stacks) if s}


def names(cells: tuple[int, ...]) -> list[str]:
    return [BOARD.name(c) for c in cells]


def play(pos: FixationPosition, *moves: str) -> FixationPosition:
    for m in moves:
        pos = pos.play(m)
    return pos


# -- 1. Board -------------------------------------------------------------------------------


def test_point1_board_is_a_hexagon_of_side_5() -> None:
    p = new()
    assert p.board is BOARD and len(p.board) == 61 and len(p.stacks) == 61
    assert p.board.row_lengths == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    assert p.board.names[:5] == ("a1", "a2", "a3", "a4", "a5")
    assert p.board.parse("e9") == 34 and p.board.parse("i5") == 60
    with pytest.raises(IllegalMove, match="j1 is not a cell of the board"):
        p.play("j1-a1")


# -- 2. Set-up ------------------------------------------------------------------------------


def test_point2_set_up_nine_2_high_stacks_each_on_alternate_sides() -> None:
    p = new()
    light = "a2 a3 a4 f8 g7 h6 f1 g1 h1".split()
    dark = "i2 i3 i4 b6 c7 d8 b1 c1 d1".split()
    assert stacks_of(p) == {**{n: "LL" for n in light}, **{n: "DD" for n in dark}}
    for c in BOARD.corners:
        assert p.stacks[c] == ()
    edge = {c for c in BOARD.cells if len(BOARD.neighbours[c]) < 6}
    assert all(p.stacks[c] == () for c in BOARD.cells if c not in edge)


# -- 3. Who starts --------------------------------------------------------------------------


def test_point3_light_starts() -> None:
    p = new()
    assert p.to_move == 0 and p.seat_sides == ("Light", "Dark")
    assert engines.GAMES["fixation"].sides == ("Light", "Dark")
    assert all(p.owner(cell(m.split("-")[0])) == 0 for m in p.legal_moves())
    with pytest.raises(IllegalMove, match="the stack on i3 is Dark's"):
        p.play("i3-g3")
    assert p.play("a3-c5").to_move == 1


# -- 4. Control -----------------------------------------------------------------------------


def test_point4_the_top_disk_decides_control() -> None:
    p = setup({"e5": "LLD", "e7": "DL", "a1": "L", "i5": "DD"}, to_move=0)
    assert (p.owner(cell("e5")), p.height(cell("e5")), p.is_mono(cell("e5"))) == (1, 3, False)
    assert (p.owner(cell("e7")), p.height(cell("e7")), p.is_mono(cell("e7"))) == (0, 2, False)
    assert (p.owner(cell("a1")), p.height(cell("a1")), p.is_mono(cell("a1"))) == (0, 1, True)
    assert (p.owner(cell("i5")), p.is_mono(cell("i5"))) == (1, True)
    assert (p.owner(cell("e1")), p.height(cell("e1")), p.is_mono(cell("e1"))) == (-1, 0, False)
    starts = {m.split("-")[0] for m in p.legal_moves()}
    assert starts == {"e7", "a1"}  # Light moves the stacks with Light on top, and only those
    with pytest.raises(IllegalMove, match="the stack on e5 is Dark's"):
        p.play("e5-e8")
    with pytest.raises(IllegalMove, match="there is no stack on e1"):
        p.play("e1-e2")


# -- 5. Move --------------------------------------------------------------------------------


def test_point5_a_stack_moves_its_height_dropping_bottom_disk_first() -> None:
    p = setup({"e5": "DLL", "a1": "D", "i5": "D"})
    q = p.play("e5-e8")
    assert q.stacks[cell("e5")] == ()
    assert names(q.last_path) == ["e6", "e7", "e8"] and q.last_from == cell("e5")
    assert (q.stacks[cell("e6")], q.stacks[cell("e7")], q.stacks[cell("e8")]) == ((1,), (0,), (0,))
    assert q.last_move == "e5-e8"
    # The move is named by where the top disk lands, in any of the six directions.
    assert sorted(p.legal_moves()) == sorted(["e5-e8", "e5-e2", "e5-h5", "e5-b2", "e5-b5", "e5-h2"])


def test_point5_a_seventh_disk_is_illegal() -> None:
    p = setup({"e5": "LL", "e7": "DDDLLL", "a1": "D"})
    with pytest.raises(IllegalMove, match=r"^e7 would be 7 high \(maximum 6\)$"):
        p.play("e5-e7")
    assert "e5-e7" not in p.legal_moves() and "e5-e3" in p.legal_moves()
    # A 5-high stack may still grow to 6.
    q = setup({"e5": "LL", "e7": "DDLLL", "a1": "D"})
    assert q.play("e5-e7").height(cell("e7")) == 6


def test_point5_a_move_that_leaves_the_board_is_illegal() -> None:
    p = setup({"a2": "LL", "i5": "D"})
    with pytest.raises(
        IllegalMove,
        match=r"^the stack on a2 is 2 high: a move of 2 along that line leaves the board$",
    ):
        p.play("a2-a1")
    assert sorted(p.legal_moves()) == ["a2-a4", "a2-c2", "a2-c4"]
    with pytest.raises(IllegalMove, match=r"it moves exactly 2 cells \(a2-a4\)"):
        p.play("a2-a5")
    with pytest.raises(IllegalMove, match="a2 and c5 are not on one line"):
        p.play("a2-c5")
    with pytest.raises(IllegalMove, match="a stack must move"):
        p.play("a2-a2")
    with pytest.raises(IllegalMove, match="not a move"):
        p.play("a2a4")
    # A single disk on the corner still moves one cell.
    assert setup({"a1": "L", "i5": "D"}).play("a1-a2").owner(cell("a2")) == 0


# -- 6. Capture and merge -------------------------------------------------------------------


def test_point6_capture_merge_and_new_stacks() -> None:
    p = setup({"e5": "DLL", "e6": "L", "e7": "D", "e8": "L", "a1": "D"})
    q = p.play("e5-e8")
    # e6: Light's own stack gets the Dark bottom disk and is captured (now Dark's);
    # e7: Dark's single disk is captured; e8: Light's disk grows, keeps its owner: merged.
    assert names(q.last_captures) == ["e6", "e7"]
    assert names(q.last_merges) == ["e8"]
    assert stacks_of(q) == {"e6": "LD", "e7": "DL", "e8": "LL", "a1": "D"}
    # Disks dropped on empty cells start new stacks: never a capture, whatever their colour.
    r = p.play("e5-h5")
    assert r.last_captures == () and r.last_merges == ()
    assert stacks_of(r)["f5"] == "D" and r.owner(cell("f5")) == 1
    # Height counts every disk of both colours.
    assert q.height(cell("e6")) == 2


# -- 7. Fixation ----------------------------------------------------------------------------


def test_point7_a_taller_opponent_stack_fixes_the_whole_line() -> None:
    # Dark's 3-high stack at the far end of row e is taller than Light's 2-high on e5.
    p = setup({"e5": "LL", "e9": "DDD"})
    with pytest.raises(IllegalMove, match=r"^Dark has a taller stack on this line \(fixation\)$"):
        p.play("e5-e3")  # away from the Dark stack: the whole line counts
    with pytest.raises(IllegalMove, match=r"fixation"):
        p.play("e5-e7")
    # Along the two other axes e5 is free.
    assert sorted(p.legal_moves()) == ["e5-c3", "e5-c5", "e5-g3", "e5-g5"]
    # Light's tallest stack on the line counts, not the moving one: a 4-high on e1 frees e5.
    assert "e5-e7" in setup({"e5": "LL", "e9": "DDD", "e1": "DDDL"}).legal_moves()
    # ...but only when Light controls it: with Dark on top, Dark has the tallest stack.
    assert "e5-e7" not in setup({"e5": "LL", "e9": "DDD", "e1": "LLLD"}).legal_moves()


def test_point7_equal_heights_allow_a_merge_but_not_a_capture() -> None:
    p = setup({"e5": "LL", "e9": "DD", "e6": "D", "e4": "L"})
    with pytest.raises(IllegalMove, match=r"^equal heights on this line: you may not capture$"):
        p.play("e5-e7")  # the Light disk on e6 would capture Dark's disk
    q = p.play("e5-e3")  # merges onto e4, new stack on e3
    assert names(q.last_merges) == ["e4"] and q.last_captures == ()
    legal = p.legal_moves()
    assert "e5-e3" in legal and "e5-e7" not in legal


def test_point7_a_tie_forbids_dropping_your_opponents_disk_on_your_own_stack() -> None:
    tied = {"e5": "DL", "e9": "DD", "e6": "L"}
    p = setup(tied)
    # e5's bottom disk is Dark: dropping it on Light's e6 would hand e6 to Dark.
    with pytest.raises(IllegalMove, match="equal heights on this line: you may not capture"):
        p.play("e5-e7")
    # Landing both disks on empty cells is fine, whatever their colour.
    assert "e5-e3" in p.legal_moves()
    # Without the tie the same move is legal, and e6 counts as captured.
    free = setup({"e5": "DL", "e9": "D", "e6": "L"})
    q = free.play("e5-e7")
    assert names(q.last_captures) == ["e6"] and q.owner(cell("e6")) == 1


# -- 8. Semi-mandatory capture --------------------------------------------------------------


def test_point8_a_mono_colour_3_stack_that_can_capture_must_do_so() -> None:
    p = setup({"e5": "LLL", "e7": "D", "a3": "LL", "i5": "DD"})
    assert p.legal_moves() == ["e5-e8"]
    with pytest.raises(
        IllegalMove, match=r"^you must capture with a mono-colour stack of 3 or more \(e5-e8\)$"
    ):
        p.play("a3-a5")
    with pytest.raises(IllegalMove, match="you must capture"):
        p.play("e5-e2")
    assert names(p.play("e5-e8").last_captures) == ["e7"]


def test_point8_any_forcing_capture_may_be_chosen() -> None:
    p = setup({"e5": "LLL", "e7": "D", "e3": "D", "c3": "DD", "a3": "LL"})
    assert sorted(p.legal_moves()) == ["e5-b2", "e5-e2", "e5-e8"]
    with pytest.raises(IllegalMove, match=r"\((e5-\w+, ){2}e5-\w+\)$"):
        p.play("a3-a5")


def test_point8_captures_forbidden_by_other_rules_do_not_force() -> None:
    base = {"e5": "LLL", "e7": "D", "a3": "LL"}
    # Fixed: Dark's 4-high on row e forbids every move of e5 along it, so nothing is forced.
    fixed = setup({**base, "e1": "DDDD"})
    assert "e5-e8" not in fixed.legal_moves()
    assert "a3-a5" in fixed.legal_moves() and "e5-h5" in fixed.legal_moves()
    # Tied: a capture is not allowed, so nothing is forced either.
    tied = setup({**base, "e1": "DDD"})
    assert "e5-e8" not in tied.legal_moves() and "a3-a5" in tied.legal_moves()
    # Repeating: the capture would recreate an earlier board.
    after = stacks_of(setup(base).play("e5-e8"))
    repeat = setup(base, earlier=[after])
    assert "e5-e8" not in repeat.legal_moves() and "a3-a5" in repeat.legal_moves()


def test_point8_bi_colour_and_lower_stacks_do_not_force() -> None:
    assert len(setup({"e5": "DLL", "e7": "D", "a3": "LL"}).legal_moves()) > 1
    assert len(setup({"e5": "LL", "e6": "D", "a3": "LL"}).legal_moves()) > 1


# -- 9. No repetition -----------------------------------------------------------------------


def test_point9_a_move_may_not_recreate_an_earlier_board() -> None:
    start = setup({"e5": "L", "a1": "L", "i5": "D", "i1": "D"})
    p = play(start, "e5-e6", "i5-i4", "e6-e5")
    assert "i4-i5" not in p.legal_moves() and "i4-i3" in p.legal_moves()
    with pytest.raises(IllegalMove, match=r"^this would repeat an earlier position$"):
        p.play("i4-i5")


def test_point9_whoever_was_to_move() -> None:
    start = setup({"e5": "L", "a1": "L", "i5": "D", "i1": "D"})
    # Light walks a triangle (3 moves) while Dark goes and comes back (2 moves): the set-up
    # board would come back with Dark to move instead of Light.  Still forbidden.
    p = play(start, "e5-e6", "i5-i4", "e6-d5", "i4-i5")
    with pytest.raises(IllegalMove, match="repeat an earlier position"):
        p.play("d5-e5")
    # The history survives serialisation.
    back = engines.from_dict(json.loads(json.dumps(p.to_dict())))
    assert back == p and "d5-e5" not in back.legal_moves()
    with pytest.raises(IllegalMove, match="repeat an earlier position"):
        back.play("d5-e5")


def test_point9_board_keys_are_stable_across_processes() -> None:
    # blake2b-based, not Python's salted hash(): this number must never change.
    assert board_key(new().stacks) == 0xAF75CA9702FEB3B4
    assert new().history == frozenset({board_key(new().stacks)})


# -- 10. Win --------------------------------------------------------------------------------


def test_point10_all_your_stacks_in_one_group_wins() -> None:
    p = setup({"e5": "L", "e7": "L", "a1": "D", "i5": "D"})
    q = p.play("e7-e6")
    assert q.outcome == Outcome(0, "one group")
    assert q.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        q.play("a1-a2")


def test_point10_simultaneous_win_goes_to_the_mover() -> None:
    # Capturing Dark's stray e7 joins Light's stacks and leaves Dark's a1-a2 as one group.
    p = setup({"e5": "LL", "e7": "D", "a1": "D", "a2": "D"})
    q = p.play("e5-e7")
    assert is_one_group({cell("a1"), cell("a2")}, BOARD.neighbours)
    assert q.outcome == Outcome(0, "one group")


def test_point10_a_capture_that_connects_only_the_opponent_loses() -> None:
    p = setup({"e5": "LL", "a5": "L", "e7": "D", "a1": "D", "a2": "D"})
    q = p.play("e5-e7")
    assert q.outcome == Outcome(1, "one group")


def test_point10_two_6_high_bi_colour_stacks_win() -> None:
    p = setup({"e1": "DDDDDL", "e5": "L", "e6": "DDDDD", "a1": "D", "i5": "D"})
    q = p.play("e5-e6")
    assert q.outcome == Outcome(0, "two 6-high stacks")
    # A merge can make the second one too; a mono-colour 6-high stack does not count.
    merge = {"e6": "DDDDL", "e5": "L", "i5": "D", "i1": "D"}
    r = setup({**merge, "a1": "DDDDDL"}).play("e5-e6")
    assert r.outcome == Outcome(0, "two 6-high stacks") and names(r.last_merges) == ["e6"]
    assert setup({**merge, "a1": "LLLLLL"}).play("e5-e6").outcome is None


# -- 11. No legal move ----------------------------------------------------------------------


def test_point11_a_player_with_no_legal_move_loses() -> None:
    # Dark's single disks on a1 and a5 are fixed along all their lines by Light 2-stacks.
    board = {"a1": "D", "a5": "D", "a3": "LL", "e5": "LL", "c1": "LL", "c7": "LL", "i3": "L"}
    q = setup(board).play("i3-i4")
    assert q.outcome == Outcome(0, "no legal move")
    assert q.legal_moves() == []
    assert setup(board, to_move=1).outcome == Outcome(0, "no legal move")


# -- 12. Invariant --------------------------------------------------------------------------


def test_point12_eighteen_disks_of_each_colour_stay_on_the_board() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        p = new()
        while p.outcome is None:
            counts = [0, 0]
            for stack in p.stacks:
                for colour in stack:
                    counts[colour] += 1
                assert len(stack) <= 6
            assert counts == [18, 18]
            p = p.play(p.random_move(rng))
        assert p.outcome.termination in ("one group", "two 6-high stacks", "no legal move")


# -- the rules read plainly, checked against the engine on random positions ------------------


def plain_legal_moves(pos: FixationPosition) -> set[str]:
    """Rules 5-9 written out directly, with no caching or incremental keys."""
    me = pos.to_move
    ok: list[tuple[str, bool]] = []
    for start in BOARD.cells:
        stack = pos.stacks[start]
        if not stack or stack[-1] != me:
            continue
        for direction in range(6):
            path = []
            at: int | None = start
            for _ in stack:
                at = BOARD.step(at, direction) if at is not None else None
                path.append(at)
            if None in path:
                continue
            cells = [c for c in path if c is not None]
            if any(len(pos.stacks[c]) + 1 > 6 for c in cells):
                continue
            line = BOARD.line(start, direction // 2)
            tops = [
                max((len(pos.stacks[c]) for c in line if pos.owner(c) == s), default=0)
                for s in (0, 1)
            ]
            if tops[1 - me] > tops[me]:
                continue
            after = list(pos.stacks)
            after[start] = ()
            captured = False
            for colour, c in zip(stack, cells, strict=True):
                if after[c] and after[c][-1] != colour:
                    captured = True
                after[c] = (*after[c], colour)
            if captured and tops[1 - me] == tops[me]:
                continue
            if board_key(tuple(after)) in pos.history:
                continue
            forcing = captured and len(stack) >= 3 and len(set(stack)) == 1
            ok.append((f"{BOARD.name(start)}-{BOARD.name(cells[-1])}", forcing))
    forced = {m for m, f in ok if f}
    return forced or {m for m, _ in ok}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 400))
def test_legal_moves_match_the_plain_reading_of_the_rules(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    p = new()
    while p.outcome is None and p.ply < plies:
        p = p.play(p.random_move(rng))
    if p.outcome is None:
        assert set(p.legal_moves()) == plain_legal_moves(p)
        assert len(p.legal_moves()) == len(set(p.legal_moves()))


def test_to_dict_keeps_the_last_move_details() -> None:
    p = setup({"e5": "DLL", "e6": "L", "e7": "D", "e8": "L", "a1": "D"}).play("e5-e8")
    d = json.loads(json.dumps(p.to_dict()))
    assert d["last_from"] == "e5" and d["last_path"] == ["e6", "e7", "e8"]
    assert d["last_captures"] == ["e6", "e7"] and d["last_merges"] == ["e8"]
    assert engines.from_dict(d) == p
    bad = {**d, "history": []}
    with pytest.raises(ValueError, match="history"):
        engines.from_dict(bad)
    with pytest.raises(ValueError, match="stack"):
        engines.from_dict({**d, "stacks": {"e5": "lldlldl"}})


# -- render-facing: forced captures and what won -------------------------------------------------


def test_forced_captures_name_the_moves_stacks_and_targets_of_rule_8() -> None:
    p = setup({"e5": "LLL", "e6": "D", "a1": "D"})
    assert p.forced_captures == ("e5-e8",)
    assert p.legal_moves() == ["e5-e8"]
    assert names(tuple(p.forced_stacks)) == ["e5"]
    assert names(tuple(p.forced_targets)) == ["e6"]
    # A bi-colour stack does not force: nothing to show.
    q = setup({"e5": "DLL", "e6": "D", "a1": "D"})
    assert q.forced_captures == () and q.forced_stacks == q.forced_targets == frozenset()


def test_winning_cells_are_the_group_or_the_two_6_high_stacks() -> None:
    p = setup({"e5": "L", "e7": "L", "a1": "D", "i5": "D"})
    assert p.winning_cells == frozenset()
    group = p.play("e7-e6")
    assert group.outcome == Outcome(0, "one group")
    assert names(tuple(sorted(group.winning_cells))) == ["e5", "e6"]
    tall = setup({"e1": "DDDDDL", "e5": "L", "e6": "DDDDD", "a1": "D", "i5": "D"}).play("e5-e6")
    assert tall.outcome == Outcome(0, "two 6-high stacks")
    assert names(tuple(sorted(tall.winning_cells))) == ["e1", "e6"]
