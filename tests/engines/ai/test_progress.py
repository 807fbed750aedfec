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
