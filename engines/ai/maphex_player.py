"""The computer player's knowledge of Maphex: random fills of the board on plain lists (a full
Hex board has exactly one winner, so the playout needs no connection test per disc) and RAVE.
Registered through the game's record (``GAME.ai``, :mod:`engines.ai.hooks`)."""

from __future__ import annotations

import random

from engines.ai.hooks import Player
from engines.ai.knowledge import EMPTY, Knowledge, Played, connection_value, edge_distance, result
from engines.base import Position
from engines.maphex import MaphexPosition

__all__ = ["PLAYER", "MaphexKnowledge"]


class MaphexKnowledge(Knowledge):
    """Random fills of the board on plain lists, RAVE on cells."""

    rave = True
    exploration = 0.25

    def __init__(self) -> None:
        self._sends: dict[int, tuple[int, ...]] = {}

    def _sends_of(self, size: int, block: int) -> tuple[int, ...]:
        sends = self._sends.get(size)
        if sends is None:
            # The sub-board a disc sends the opponent to: its place within its own sub-board.
            sends = tuple(
                ((c // size) % block) * block + (c % size) % block for c in range(size * size)
            )
            self._sends[size] = sends
        return sends

    def playout(self, position: Position, rng: random.Random) -> tuple[float, list[Played]]:
        assert isinstance(position, MaphexPosition)
        if position.outcome is not None:
            return result(position), []
        size, block = position.size, position.block
        sends = self._sends_of(size, block)
        cells = list(position.cells)
        subboard = position.subboard
        free: list[list[int]] = [[] for _ in range(block * block)]
        for c, v in enumerate(cells):
            if v == EMPTY:
                free[subboard[c]].append(c)
        left = sum(len(f) for f in free)
        target = position.target
        mover = position.to_move
        if target is None:  # Blue still chooses the opening sub-board
            target = rng.randrange(block * block)
            mover = 1 - mover
        while left:
            pool = free[target]
            if not pool:  # the target is full: anywhere goes
                pool = free[rng.choice([s for s, f in enumerate(free) if f])]
            cell = pool.pop(rng.randrange(len(pool)))
            cells[cell] = mover
            left -= 1
            target = sends[cell]
            mover = 1 - mover
        board = position.board
        # A full Hex board has exactly one connection, and it is the first one made.
        top, bottom = position.edges[0]
        red = edge_distance(cells, 0, board.neighbours, top, bottom) == 0
        names = board.names
        played = [(cells[c], names[c]) for c, v in enumerate(position.cells) if v == EMPTY]
        return (1.0 if red else 0.0), played

    def evaluate(self, position: Position) -> float:
        assert isinstance(position, MaphexPosition)
        nb = position.board.neighbours
        d = [edge_distance(position.cells, s, nb, *position.edges[s]) for s in (0, 1)]
        return connection_value(d[0], d[1], position.to_move, 0.6)

    def may_win_now(self, position: Position) -> bool:
        assert isinstance(position, MaphexPosition)
        if position.target is None:
            return False
        s = position.to_move
        return edge_distance(position.cells, s, position.board.neighbours, *position.edges[s]) <= 1


#: The computer player of Maphex: the tree search with this knowledge, no alpha-beta plan.
PLAYER = Player(MaphexKnowledge())
