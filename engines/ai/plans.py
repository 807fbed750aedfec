"""The alpha-beta search's knowledge of the connection games: evaluations by connection
potential (:mod:`engines.ai.distance`) and the moves worth a look below the root.

* inpHeXion: :mod:`engines.ai.inphexion_plan` (the two-distance potentials with the
  opponent's movable discs open, and the one-turn threats); :func:`inphexion_evaluate`, the
  two-distance potentials of both colours with every opponent disc a wall (the earlier
  plan), stays as the plain measure.
* Pathagon: the plain distance of both sides (the square board has no two ways round a
  blocker, but traps reopen it), traps each side could spring next turn (a trap takes a piece
  off the board and forbids its square to the victim for a turn: a threat of two), and only
  the squares on or next to the shortest paths below the root.

* Lines of Fixation: the tree search's evaluation
  (:class:`engines.ai.knowledge.FixationKnowledge`: fewer groups, disks on top, tall mixed
  stacks) over every legal move.  Measured at ``benchmarks/ai.py --time-scale 0.025``
  (normal 0.075 s a move, easy 0.05 s), ``normal`` searching by alpha-beta won 10 of 12
  against ``easy`` (tree search), where ``normal`` by tree search had won 10 of 20.

Every evaluation returns seat 0's chance of winning, in ``[0, 1]``.

>>> import engines
>>> p = engines.position_after("pathagon", "d1 a1 d2 a2 d3 a3 d4 a4 d5 a5 d6".split())
>>> pathagon_evaluate(p) > 0.9  # Light one square from its top edge, Dark far off
True
>>> "d7" in pathagon_candidates(p)[:3]
True
"""

from __future__ import annotations

import math

from engines.ai import inphexion_plan, isopath_plan
from engines.ai.alphabeta import Plan
from engines.ai.distance import EMPTY, FAR, Potential, potentials
from engines.ai.knowledge import FixationKnowledge
from engines.base import Position
from engines.geometry import Square
from engines.inphexion import InphexionPosition
from engines.pathagon import PathagonPosition

__all__ = [
    "PLANS",
    "inphexion_evaluate",
    "pathagon_candidates",
    "pathagon_evaluate",
    "traps",
]

#: A potential counted at most this high (a blocked side is far behind, not infinitely).
CAP = 16


def _squash(score: float) -> float:
    """A lead in moves for seat 0 turned into a chance of winning."""
    return 1.0 / (1.0 + math.exp(-score))


def _lead(p0: Potential, p1: Potential, to_move: int, mobility: float) -> float:
    """Seat 0's lead in moves: the potentials, the cells reaching them, half a move to move."""
    lead = float(min(p1.value, CAP) - min(p0.value, CAP))
    lead += mobility * (min(p0.moves, 8) - min(p1.moves, 8))
    return lead + (0.5 if to_move == 0 else -0.5)


# -- inpHeXion ------------------------------------------------------------------------------


def inphexion_evaluate(position: Position) -> float:
    """Seat 0's chance in an inpHeXion position by two-distance potentials."""
    assert isinstance(position, InphexionPosition)
    c0, c1 = position.colours
    p0, p1 = potentials(
        position.cells,
        position.board.neighbours,
        (position.edges[c0], position.edges[c1]),
        (c0, c1),
    )
    return _squash(0.7 * _lead(p0, p1, position.to_move, 0.1))


# -- Pathagon -------------------------------------------------------------------------------

_LINES: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {}


def _trap_lines(board: Square) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per square, the (next, beyond) square pairs in each direction (see the rules, point 5)."""
    lines = _LINES.get(board.n)
    if lines is None:
        lines = tuple(
            tuple(
                (one, two)
                for d in range(len(Square.DIRECTIONS))
                if (one := board.step(cell, d)) is not None
                and (two := board.step(one, d)) is not None
            )
            for cell in board.cells
        )
        _LINES[board.n] = lines
    return lines


def traps(position: PathagonPosition, side: int) -> set[int]:
    """The empty squares where ``side`` would trap an opponent piece by filling them (whether
    or not it may fill them on its next turn)."""
    cells = position.cells
    enemy = 1 - side
    lines = _trap_lines(position.board)
    return {
        c
        for c, v in enumerate(cells)
        if v == EMPTY and any(cells[a] == enemy and cells[b] == side for a, b in lines[c])
    }


def _pathagon_potentials(position: PathagonPosition) -> tuple[Potential, Potential]:
    return potentials(position.cells, position.board.neighbours, position.edges, (0, 1), kth=1)


def pathagon_evaluate(position: Position) -> float:
    """Seat 0's chance in a Pathagon position: distances, trap threats, the move."""
    assert isinstance(position, PathagonPosition)
    p0, p1 = _pathagon_potentials(position)
    lead = _lead(p0, p1, position.to_move, 0.05)
    mover = position.to_move
    mine, theirs = len(traps(position, mover)), len(traps(position, 1 - mover))
    # The mover springs one trap now; the other side's threats wait a turn and can be met.
    swing = 0.8 * min(mine, 2) - 0.3 * min(theirs, 2)
    lead += swing if mover == 0 else -swing
    return _squash(0.6 * lead)


def pathagon_candidates(position: Position) -> list[str]:
    """The Pathagon moves worth a look below the root, best guess first: filling the squares
    on either side's shortest paths and the squares that spring a trap."""
    assert isinstance(position, PathagonPosition)
    p0, p1 = _pathagon_potentials(position)
    mover = position.to_move
    springs = traps(position, mover)
    cells = position.cells
    forbidden = position.forbidden
    ranked = sorted(
        (c for c, v in enumerate(cells) if v == EMPTY and c not in forbidden),
        key=lambda c: (
            c not in springs,
            min(p0.through[c], p1.through[c], FAR) - (0.5 if c in springs else 0),
            c,
        ),
    )
    squares = ranked[:6]
    names = position.board.names
    if position.placing:
        return [names[c] for c in squares]
    lock = position.locked[mover]
    own = [c for c, v in enumerate(cells) if v == mover and c != lock]
    mine = p0 if mover == 0 else p1
    # Pieces off the mover's own shortest paths leave first.
    own.sort(key=lambda c: (-min(_through_around(mine, c, position), FAR), c))
    return [f"{names[s]}-{names[d]}" for d in squares for s in own[:5]]


def _through_around(mine: Potential, cell: int, position: PathagonPosition) -> int:
    """The best path sum through the empty squares next to ``cell`` (a piece there matters
    when that sum is low)."""
    return min((mine.through[nb] for nb in position.board.neighbours[cell]), default=FAR)


#: The alpha-beta plan of each game that searches by alpha-beta, by game name.
PLANS: dict[str, Plan] = {
    "inphexion": Plan(inphexion_plan.evaluate),
    "pathagon": Plan(pathagon_evaluate, pathagon_candidates, width=None),
    "isopath": isopath_plan.HARD,
    "fixation": Plan(FixationKnowledge().evaluate),
}
