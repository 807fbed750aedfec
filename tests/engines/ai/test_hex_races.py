"""Races in the connection games (issue 49): a side two moves from connecting against one three
moves off is stopped in time by the side to move, at the ``normal`` and ``hard`` levels.

Pathagon's evaluation is the plain distance of both sides (the square board has no two ways
round a blocker) plus the traps each side threatens; inpHeXion's is the two-distance of both
sides plus next-turn threats.  The alpha-beta search sees the faster race through them: these
tests check, by trying every answer, that the move chosen does not let the faster side connect
by force within its next two moves, while the moves that race instead do."""

from __future__ import annotations

from engines.ai import distance, think
from engines.ai.inphexion_plan import open_board
from engines.base import Position
from engines.inphexion import BLACK, WHITE, InphexionPosition
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

#: inpHeXion 5×5 (from a random game), Black (columns) to move, three discs short on the
#: board it sees (White's movable discs are open cells to it), White (rows) two.  13 of
#: Black's 16 moves let White connect by force within its next two turns, each of them
#: bringing Black one disc nearer too (every turn adds a disc of the mover's): only b2-c2,
#: b2-c1 and d3-d2 hold.
INPHEXION = InphexionPosition.from_diagram(
    """
    . b . b .
     w w . . b
      b . . w w
       . w b b w
        w w b w b
    """,
    to_move=BLACK,
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
        if all(_won_for(after.play(m), p.to_move) for m in after.legal_moves()):
            return True
    return False


def _won_for(p: Position, side: int) -> bool:
    """Whether ``side`` has won in ``p`` or, to move, connects now (a reply may also end the
    game: in inpHeXion pushing the other side's disc can join its chain)."""
    if p.outcome is not None:
        return p.outcome.winner == side
    return p.to_move == side and _wins_now(p)


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
    # At normal's 600 evaluations (hard, 12 000, chose c2 there too when measured: ~17 CPU s,
    # too dear for the suite).
    move = think(p, iterations=600, seed=1).move
    assert not _forced_within_two(p.play(move)), move


def test_inphexion_the_faster_race_is_stopped() -> None:
    p = INPHEXION
    nbrs = p.board.neighbours

    def plain(q: InphexionPosition, colour: int) -> int:
        seen = open_board(q.cells, colour, nbrs)
        return distance.potential(seen, colour, nbrs, q.edges[colour], kth=1).value

    assert (plain(p, BLACK), plain(p, WHITE)) == (4, 3)  # one more than the discs needed
    losing = [m for m in p.legal_moves() if _forced_within_two(p.play(m))]
    assert len(p.legal_moves()) == 16 and len(losing) == 13
    for level, iterations in (("normal", 600), ("hard", 12000)):
        move = think(p, iterations=iterations, seed=1).move
        assert move not in losing, (level, move)
