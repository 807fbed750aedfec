"""The computer player's knowledge of inpHeXion: a new leaf scored by connection distance at
once, RAVE keyed by the cell the mover placed on, and the alpha-beta plan of
:mod:`engines.ai.inphexion_plan`.  :func:`inphexion_evaluate`, the two-distance potentials of
both colours with every opponent disc a wall (the earlier plan), stays as the plain measure.
Registered through the game's record (``GAME.ai``, :mod:`engines.ai.hooks`)."""

from __future__ import annotations

from collections.abc import Iterable

from engines.ai import inphexion_plan
from engines.ai.alphabeta import Plan
from engines.ai.distance import potentials
from engines.ai.hooks import Player
from engines.ai.knowledge import EMPTY, Knowledge, connection_value, edge_distance, squash
from engines.ai.plans import lead
from engines.base import Position
from engines.connection import edge_touches
from engines.inphexion import InphexionPosition

__all__ = ["PLAYER", "InphexionKnowledge", "inphexion_evaluate"]


class InphexionKnowledge(Knowledge):
    """Evaluation only, by connection distance; RAVE keyed by the placed cell.

    Measured at 600 iterations, 7x7, AI against AI over 20-48 games (win % of the first):
    evaluating at once instead of after 4 random plies 50 % (as strong, a third of the time
    per move, so the level's time goes further); pricing cells for the distance, in a turn
    taking an opponent's disc and an empty cell needing a pushed disc first, against the
    plain distance (opponent discs block): empty 2 / opponent 1 33 %, 1/1 54 %, 1/2 38 %;
    scoring "the mover can connect at once" as a win 25 %.  None of those kept.  Without
    RAVE 42 % (10/24), exploration 0.2 instead of 0.4 54 %: kept as they were.
    """

    playout_depth = 0
    rave = True
    exploration = 0.4

    def amaf_key(self, move: str) -> str:
        # "c3-c4 d5>a1": the mover's disc lands on c3, where RAVE looks for it.
        return move.split("-", 1)[0]

    def evaluate(self, position: Position) -> float:
        assert isinstance(position, InphexionPosition)
        nb = position.board.neighbours
        cells = position.cells
        dist = []
        for seat in (0, 1):
            colour = position.colours[seat]
            dist.append(edge_distance(cells, colour, nb, *position.edges[colour]))
        return connection_value(dist[0], dist[1], position.to_move, 0.6)

    def _winning_cells(self, position: InphexionPosition) -> set[int]:
        """Opponent discs the mover could push and replace to complete a connection."""
        if position.ply < 2:
            return set()
        cells = position.cells
        colour = position.colours[position.to_move]
        opp = 1 - colour
        nbrs = position.board.neighbours
        edge_a, edge_b = position.edges[colour]
        groups = edge_touches(cells, colour, nbrs, edge_a, edge_b)
        out = set()
        for a, v in enumerate(cells):
            if v != opp or all(cells[nb] != EMPTY for nb in nbrs[a]):
                continue
            reach = (1 if a in edge_a else 0) | (2 if a in edge_b else 0)
            for nb in nbrs[a]:
                if cells[nb] == colour:
                    reach |= groups[nb]
            if reach == 3:
                out.add(a)
        return out

    def may_win_now(self, position: Position) -> bool:
        assert isinstance(position, InphexionPosition)
        return bool(self._winning_cells(position))

    def win_candidates(self, position: Position) -> Iterable[str]:
        assert isinstance(position, InphexionPosition)
        names = position.board.names
        heads = {names[a] for a in self._winning_cells(position)}
        return [m for m in position.legal_moves() if m.split("-", 1)[0] in heads]


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
    return squash(0.7 * lead(p0, p1, position.to_move, 0.1))


#: The computer player of inpHeXion.
PLAYER = Player(InphexionKnowledge(), Plan(inphexion_plan.evaluate))
