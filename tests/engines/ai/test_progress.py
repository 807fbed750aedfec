"""Progress when ahead (issue 49): Iso-Path's search charges the side ahead, and only it, for
going round (pieces left where its turns left them :data:`~engines.ai.isopath_search.WORN`
times) and for taking back its own last tile move or step."""

from __future__ import annotations

import engines
import engines.ai.isopath_search as iso
from engines.ai import choose_move
from engines.ai.draws import quiet_plies
from engines.isopath import IsopathPosition
from tests.engines.ai.test_draws import WON
from tests.engines.test_isopath_search import _after_random_plies, _worn_out


def _key(p: engines.Position) -> tuple[object, ...]:
    assert isinstance(p, IsopathPosition)
    return p.heights, p.pieces, p.to_move


#: Four turns from the 11th ply of the won line that bring its position back: Black's tile
#: and step, White's (the bot's: its search's choice there, ahead by some 260 points) and both
#: taken back.
SHUFFLE = ["e3>b3 f3-e3", "b4>d3 c3-d3", "e3-f3 b3>e3", "d3-c3 d3>b4"]


def test_a_repeated_shuffle_makes_the_side_ahead_choose_progress() -> None:
    start = WON["isopath"].split(",")[:11]
    positions = list(engines.replay("isopath", [*start, *(SHUFFLE * 3), SHUFFLE[0]]))
    *history, p = positions
    assert isinstance(p, IsopathPosition) and p.to_move == 0 and quiet_plies(positions) >= 8
    # Without the game's history White plays its shuffle turn again, which takes back its own
    # last tile move and step (both charged: UNDO)...
    assert iso.search(p, nodes=2000).move == SHUFFLE[1]
    lay = iso._layout(p)
    roots = iso._turns(lay, list(p.heights), list(p.pieces), 0)
    back = {iso._text(lay, t) for t in iso._own_undoing(history, roots)}
    assert SHUFFLE[1] in back
    # ...with it, the side ahead goes somewhere new, still ahead.
    found = iso.search(p, nodes=2000, history=history)
    assert found.score > 0
    for move in (found.move, choose_move(p, iterations=250, seed=1, history=history)):
        assert move != SHUFFLE[1] and move not in back
        assert _key(p.play(move)) not in {_key(e) for e in history}
    # The side behind, Black, keeps the shuffle that holds the game: its turn back to a
    # position of the game is a draw, better than the rest, and costs it nothing.
    behind, before = positions[-2], positions[:-2]
    held = iso.search(behind, nodes=2000, history=before)
    assert (held.move, held.score) == (SHUFFLE[0], 0.0)


def test_the_side_behind_pays_nothing_for_going_round_or_back() -> None:
    behind = _after_random_plies(1)  # White to move, behind
    look = iso.search(behind, nodes=1200, max_depth=1)
    assert look.score < 0
    there = behind.play(look.move)
    # The pieces as its best turn leaves them, worn out: the side ahead would pay ROUND for
    # that turn; the side behind pays nothing and keeps it.
    again = iso.search(behind, nodes=1200, max_depth=1, history=_worn_out(there))
    assert (again.move, again.score) == (look.move, look.score)
    ahead = _after_random_plies(3)
    first = iso.search(ahead, nodes=1200, max_depth=1)
    assert first.score > 0
    worn = iso.search(ahead, nodes=1200, max_depth=1, history=_worn_out(ahead.play(first.move)))
    assert worn.score < first.score


#: The drawn game of the deeper-Padfoot series (``benchmarks/results/ai_series.jsonl``,
#: ``padfoot3`` game 0: ``hard`` White, the Padfoot-like player at depth 3 Black), its first
#: 72 plies; from ply 72 on both sides repeated :data:`SERIES_CYCLE` until the draw was
#: claimed at ply 215.  White, ``hard``, stepped c1↔b1 rated behind (about -470 at one
#: look, a draw by its search): a shuffle that held the game.  Black, ahead (about +400 for
#: it), stepped e6↔d7: the shuffle of the side ahead that the bot must not play.
SERIES_GAME = (
    "d1>b2 a2-b2,f2>c2 g2-f2,c1>b4 a4-b4,f4>e2 g3-f4,b2-c2 d7>d5,f5>b1 g4-f5,b1>d2 c2-d2,"
    "f1>b1 g1-f1,b4-a4 b1>e1,f1-g1 b3>b5,d2-e2 b5>e4,g1-f1 e3>b1,e2-e1 d6>g2,e6>b5 f5-e6,"
    "a3-a2 e5>c3,e6-d6 b4>d1,a4-b5 d1>c5,f2-e3 a3>d1,a1-a4 b1>c4,d6-d7 d3>c6,c6>b4 a4-b4,"
    "d1>c6 d7-d1,e1-d2 e4>c1,f4-e5 c1>d4,a2-a1 c6>c1,e3-d3 a3>c6,b1>c1 d2-c1,f1-f2 c3>b1,"
    "a1-b2 e2>c3,f3>b1 f2-f3,b2-c3 e4>b3,f3-e4 c2>f4,f4>c2 c1-c2,e2>e3 d3-e2,b4-c4 e1>f3,"
    "e5-d6 b1>b3,c3-d4 b2>b1,f3>b2 e4-f3,c4-d5 d2>e4,d6-e6 b1>d7,c2-b2 b3>g4,e6-f5 a1>b3,"
    "b5-c6 e1>f4,f3-f2 b1>d7,d4-c3 c4>g4,f2-f3 e4>e6,c6-d7 c5>e4,e4>e3 f3-e4,c3-c2 b5>e6,"
    "f5-e5 d4>f1,f4>d4 d5-d4,e5-f5 c1>c4,d7-e6 f1>c1,e4-e5 a1>e1,d4-e3 d2>c5,xe6 e5-e4,"
    "e3-d4 d7>f2,f2>f1 e2-f2,c2-c1 c3>f3,f5-e5 e1>a1,b2-c2 f1>d6,d6>b1 e5-d6,d4-c4 b2>f4,"
    "f2-e2 d4>b1,e6>d4 c4-d4,d7>e5 d1-d7,c1-b1 e6>g2,e2-f2 c5>a1,b1-c1 b2>c5,d7-e6 c6>e5,"
    "c1-b1 c3>c6,e6-d7 c6>b2"
).split(",")
SERIES_CYCLE = ["b1-c1 b2>c6", "d7-e6 c5>b2", "c1-b1 b2>c5", "e6-d7 c6>b2"]


def _series_positions(cycles: int) -> list[engines.Position]:
    """The series game's positions through ``cycles`` repetitions of its shuffle, less the
    last of them (ply 99 with seven: Black to move, its step back e6-d7 next)."""
    return list(engines.replay("isopath", [*SERIES_GAME, *(SERIES_CYCLE * cycles)][:-1]))


def test_from_the_series_shuffle_the_side_ahead_goes_somewhere_new() -> None:
    positions = _series_positions(7)
    *history, p = positions
    assert isinstance(p, IsopathPosition) and p.ply == 99 and p.to_move == 1
    assert quiet_plies(positions) >= 30
    step = SERIES_CYCLE[3].split()[0]  # e6-d7, taking back its own last step d7-e6
    lay = iso._layout(p)
    roots = iso._turns(lay, list(p.heights), list(p.pieces), 1)
    back = {iso._text(lay, t) for t in iso._own_undoing(history, roots)}
    assert back and all(step in t.split() for t in back)
    # The bot playing Black there (hard's search, and the normal level's budget): ahead, it
    # neither steps back nor brings the game back to one of its positions.
    found = iso.search(p, nodes=2000, history=history)
    assert found.score > 0
    seen = {_key(e) for e in history}
    for move in (found.move, choose_move(p, iterations=600, seed=1, history=history)):
        assert step not in move.split()
        assert _key(p.play(move)) not in seen
    # Already at the shuffle's first step back (ply 71), before any round was worn.
    early = _series_positions(0)
    early_found = iso.search(early[-1], nodes=2000, history=early[:-1])
    assert early_found.score > 0 and step not in early_found.move.split()


def test_in_the_series_shuffle_the_side_behind_keeps_its_hold() -> None:
    # White (hard in the series) at ply 100, behind: its step back to c1 returns to a
    # position of the game, a draw, which it keeps (no charge: it is not ahead).
    *before, p = engines.replay("isopath", [*SERIES_GAME, *(SERIES_CYCLE * 7)])
    assert isinstance(p, IsopathPosition) and p.ply == 100 and p.to_move == 0
    assert iso.evaluate(p) < 0
    held = iso.search(p, nodes=2000, history=before)
    assert (held.move, held.score) == (SERIES_CYCLE[0], 0.0)
