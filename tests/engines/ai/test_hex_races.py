"""Races in the connection games (issue 49): a side two moves from connecting against one three
moves off is stopped in time by the side to move, at the ``normal`` and ``hard`` levels.

Pathagon's evaluation is the plain distance of both sides (the square board has no two ways
round a blocker) plus the traps each side threatens; inpHeXion's is the two-distance of both
sides plus next-turn threats.  The alpha-beta search sees the faster race through them: these
tests check, by trying every answer, that the move chosen does not let the faster side connect
by force within its next two moves, while the moves that race instead do."""

from __future__ import annotations

from engines.ai import distance, think
from engines.base import Position
from engines.pathagon import PathagonPosition

#: Light (rows 1 to 7) to move, three squares short (f2, f3, f4); Dark (columns a to g) two:
#: f3 and then any of g3, f2 or f4.  Light's own squares lose: on f3 it is trapped at once
#: by g3 (between e3 and g3), and f2 or f4 leave Dark f3 with two ways in.  What holds is a
#: trap of its own threatened under or over Dark's row (a2..e2, a4..e4): the piece next to it
#: would take one of Dark's row away.
PATHAGON = PathagonPosition.from_diagram(
    """
    LLL..L.
    .....L.
    .....L.
    ......D
    DDDDD..
    ......D
    .....L.
    """,
    to_move=0,
)


def _wins_now(p: Position) -> bool:
    return any(
        (after := p.play(m)).outcome is not None and after.outcome.winner == p.to_move
        for m in p.legal_moves()
    )


def _forced_within_two(p: Position) -> bool:
    """Whether the side to move in ``p`` connects by force within its next two moves."""
    if _wins_now(p):
        return True
    for first in p.legal_moves():
        after = p.play(first)
        if after.outcome is not None:
            if after.outcome.winner == p.to_move:
                return True
            continue
        if all(
            (reply := after.play(m)).outcome is None and _wins_now(reply)
            for m in after.legal_moves()
        ):
            return True
    return False


def test_pathagon_the_faster_race_is_stopped() -> None:
    p = PATHAGON
    plain = [
        distance.potential(p.cells, side, p.board.neighbours, p.edges[side], kth=1).value
        for side in (0, 1)
    ]
    # The two walks from the edges meet on a square counted by both: one more than the
    # squares still needed (three for Light, two for Dark).
    assert plain == [4, 3]
    for racing in ("f2", "f3", "f4"):
        assert _forced_within_two(p.play(racing)), racing
    for level, iterations in (("normal", 600), ("hard", 12000)):
        move = think(p, iterations=iterations, seed=1).move
        assert not _forced_within_two(p.play(move)), (level, move)
