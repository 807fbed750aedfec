"""The computer player's knowledge of Pathagon: short random playouts scored by connection
distance and pieces in hand, RAVE keyed by the square filled; and its alpha-beta plan: the
plain distance of both sides (the square board has no two ways round a blocker, but traps
reopen it), traps each side could spring next turn (a trap takes a piece off the board and
forbids its square to the victim for a turn: a threat of two), and only the squares on or
next to the shortest paths below the root.  Registered through the game's record
(``GAME.ai``, :mod:`engines.ai.hooks`).

>>> import engines
>>> p = engines.position_after("pathagon", "d1 a1 d2 a2 d3 a3 d4 a4 d5 a5 d6".split())
>>> pathagon_evaluate(p) > 0.9  # Light one square from its top edge, Dark far off
True
>>> "d7" in pathagon_candidates(p)[:3]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engines.ai.alphabeta import Plan
from engines.ai.bitboard import cells_of, masks, shifts_of
from engines.ai.distance import FAR, Potential, plain_reaches, potentials
from engines.ai.hooks import Player
from engines.ai.knowledge import EMPTY, Knowledge, connection_value, edge_distance, squash
from engines.ai.plans import lead
from engines.base import Position
from engines.pathagon import PathagonPosition

__all__ = ["PLAYER", "PathagonKnowledge", "pathagon_candidates", "pathagon_evaluate", "traps"]


class PathagonKnowledge(Knowledge):
    """Short random playouts scored by connection distance and pieces in hand.

    RAVE is not shown to pay here: at 600 iterations, AI without RAVE against AI with it
    won 9 of 16 games (a sample too small to tell either way); it stays on, as measured in
    the benchmark, until a larger sample says otherwise.
    """

    playout_depth = 6
    rave = True
    exploration = 0.4

    def amaf_key(self, move: str) -> str:
        return move.rsplit("-", 1)[-1]  # the square filled

    def evaluate(self, position: Position) -> float:
        assert isinstance(position, PathagonPosition)
        nb = position.board.neighbours
        d = [edge_distance(position.cells, s, nb, *position.edges[s]) for s in (0, 1)]
        return connection_value(d[0], d[1], position.to_move, 0.5)

    def may_win_now(self, position: Position) -> bool:
        assert isinstance(position, PathagonPosition)
        s = position.to_move
        return edge_distance(position.cells, s, position.board.neighbours, *position.edges[s]) <= 1


def trap_mask(masks: tuple[int, int, int], side: int, nbrs: Sequence[Sequence[int]]) -> int:
    """The empty squares where ``side`` would trap an opponent piece by filling them (whether
    or not it may fill them on its next turn; the rules, point 5), as a mask: those with an
    opponent piece next to them and one of ``side``'s beyond it in the same line, two steps of
    one neighbour offset (:class:`~engines.ai.bitboard.Shifts`), from the squares' ``masks``
    (:func:`~engines.ai.bitboard.masks`).

    >>> import engines
    >>> p = engines.position_after("pathagon", "d4 d5 d3 e5 a1 c5".split())
    >>> [
    ...     [p.board.name(c) for c in cells_of(trap_mask(masks(p.cells), s, p.board.neighbours))]
    ...     for s in (0, 1)
    ... ]
    [['d6'], []]
    """
    shifts = shifts_of(nbrs)
    empty, enemy, own = masks[0], masks[2 - side], masks[1 + side]
    found = 0
    for d, m in shifts.down:
        found |= (enemy >> d) & m & ((((own >> d) & m) >> d) & m)
    for d, m in shifts.up:
        found |= (enemy << d) & m & ((((own << d) & m) << d) & m)
    return found & empty


def traps(position: PathagonPosition, side: int) -> set[int]:
    """The squares of :func:`trap_mask` in ``position``."""
    return set(cells_of(trap_mask(masks(position.cells), side, position.board.neighbours)))


#: Potentials already worked out, by board size and squares: the search evaluates a position
#: and soon after lists its candidates (:func:`pathagon_candidates`), which need them again.
_KEPT: dict[tuple[int, tuple[int, ...]], tuple[Potential, Potential]] = {}
#: The most potentials :data:`_KEPT` holds (about 1 kB each) before it is emptied.
KEPT: Final = 4096


def _pathagon_potentials(position: PathagonPosition) -> tuple[Potential, Potential]:
    key = (position.board.n, position.cells)
    found = _KEPT.get(key)
    if found is None:
        if len(_KEPT) >= KEPT:
            _KEPT.clear()
        found = _KEPT[key] = potentials(
            position.cells, position.board.neighbours, position.edges, (0, 1), kth=1
        )
    return found


def pathagon_evaluate(position: Position) -> float:
    """Seat 0's chance in a Pathagon position: distances, trap threats, the move."""
    assert isinstance(position, PathagonPosition)
    nbrs = position.board.neighbours
    squares = masks(position.cells)
    # The value and moves of _pathagon_potentials, without their per-square sums (which only
    # the candidates read): a level of squares at a time, in half the time.
    p0, p1 = plain_reaches(squares, nbrs, position.edges)
    ahead = lead(p0, p1, position.to_move, 0.05)
    mover = position.to_move
    mine = trap_mask(squares, mover, nbrs).bit_count()
    theirs = trap_mask(squares, 1 - mover, nbrs).bit_count()
    # The mover springs one trap now; the other side's threats wait a turn and can be met.
    swing = 0.8 * min(mine, 2) - 0.3 * min(theirs, 2)
    ahead += swing if mover == 0 else -swing
    return squash(0.6 * ahead)


#: The empty squares :func:`pathagon_candidates` fills below the root.
SQUARES: Final = 8
#: The pieces it moves there, once all are placed.
SOURCES: Final = 6


def pathagon_candidates(position: Position) -> list[str]:
    """The Pathagon moves worth a look below the root, best guess first: filling the squares
    that spring a trap, then those nearest to either side's shortest paths.

    A square's slack for a side is how much longer than that side's shortest path the best
    path through it is (0: on a shortest path).  Squares go by their smaller slack, then the
    larger, so a square on both sides' shortest paths comes first and each side's paths are
    looked at however far apart the two sides are: ranked by the path sums themselves, the
    side nearer to its goal took every place while the other side's squares waited (and
    squares tied by the cell's index). Of the moves ``normal`` and ``hard`` chose at the root
    (where every move is searched) in the recorded series games, 31 % were among six such
    candidates, 42 % are among these (README, "Pathagon's candidates")."""
    assert isinstance(position, PathagonPosition)
    p0, p1 = _pathagon_potentials(position)
    mover = position.to_move
    springs = traps(position, mover)
    cells = position.cells
    forbidden = position.forbidden
    t0, t1 = p0.through, p1.through  # each at most FAR
    v0, v1 = min(p0.value, FAR), min(p1.value, FAR)
    ranked = sorted(
        (c not in springs, min(t0[c] - v0, t1[c] - v1), max(t0[c] - v0, t1[c] - v1), c)
        for c, v in enumerate(cells)
        if v == EMPTY and c not in forbidden
    )
    squares = [c for *_, c in ranked[:SQUARES]]
    names = position.board.names
    if position.placing:
        return [names[c] for c in squares]
    lock = position.locked[mover]
    own = [c for c, v in enumerate(cells) if v == mover and c != lock]
    mine = p0 if mover == 0 else p1
    # Pieces off the mover's own shortest paths leave first.
    own.sort(key=lambda c: (-min(_through_around(mine, c, position), FAR), c))
    return [f"{names[s]}-{names[d]}" for d in squares for s in own[:SOURCES]]


def _through_around(mine: Potential, cell: int, position: PathagonPosition) -> int:
    """The best path sum through the empty squares next to ``cell`` (a piece there matters
    when that sum is low)."""
    return min((mine.through[nb] for nb in position.board.neighbours[cell]), default=FAR)


#: The computer player of Pathagon.
def pathagon_progress(position: Position) -> tuple[int, int, int, int]:
    """Pathagon's progress mark: the pieces each side has on the board and in hand, so a
    piece placed or trapped makes progress and a piece moved does not."""
    assert isinstance(position, PathagonPosition)
    cells = position.cells
    return cells.count(0), cells.count(1), position.in_hand[0], position.in_hand[1]


PLAYER = Player(
    PathagonKnowledge(),
    Plan(pathagon_evaluate, pathagon_candidates, width=None),
    pathagon_progress,
)
