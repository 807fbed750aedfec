"""The computer player's knowledge of Lines of Fixation: evaluations only (a random game goes
on for hundreds of plies and one ply costs a full move listing), fewer groups, disks on top,
tall mixed stacks; the alpha-beta plan searches every legal move with the same evaluation
(measured at ``benchmarks/ai.py --time-scale 0.025``, normal 0.075 s a move, easy 0.05 s:
``normal`` by alpha-beta won 10 of 12 against ``easy``, where by tree search it had won 10
of 20).  Registered through the game's record (``GAME.ai``, :mod:`engines.ai.hooks`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engines.ai.alphabeta import Plan
from engines.ai.hooks import Player
from engines.ai.knowledge import EMPTY, Knowledge, squash
from engines.base import Position
from engines.fixation import MAX_HEIGHT, FixationPosition

__all__ = ["PLAYER", "FixationKnowledge"]


def _groups(position: FixationPosition, side: int) -> int:
    """How many separate groups ``side``'s stacks form."""
    owner = [s[-1] if s else EMPTY for s in position.stacks]
    return _groups_of(owner, side, position.board.neighbours)


def _groups_of(owner: Sequence[int], side: int, nbrs: Sequence[Sequence[int]]) -> int:
    """How many separate groups the cells ``side`` owns form."""
    mine = {c for c, v in enumerate(owner) if v == side}
    count = 0
    while mine:
        count += 1
        todo = [mine.pop()]
        while todo:
            c = todo.pop()
            for nb in nbrs[c]:
                if nb in mine:
                    mine.remove(nb)
                    todo.append(nb)
    return count


class FixationKnowledge(Knowledge):
    """Evaluation only: fewer groups, more disks on top and tall mixed stacks."""

    playout_depth = 0
    wide = True
    exploration = 0.3

    def _score(self, position: FixationPosition, side: int) -> float:
        """How well ``side`` stands: few groups first, then material on top."""
        tops = 0
        tall = 0
        for stack in position.stacks:
            if stack and stack[-1] == side:
                tops += len(stack)
                if len(stack) == MAX_HEIGHT and (1 - side) in stack:
                    tall += 1
        return -1.2 * _groups(position, side) + 0.08 * tops + 1.5 * tall

    def evaluate(self, position: Position) -> float:
        assert isinstance(position, FixationPosition)
        lead = self._score(position, 0) - self._score(position, 1)
        lead += 0.3 if position.to_move == 0 else -0.3
        return squash(lead)

    def win_candidates(self, position: Position) -> Iterable[str]:
        assert isinstance(position, FixationPosition)
        # Work out who owns each cell after a move on a plain list (playing it would list
        # every reply to see whether the opponent is left without one): a move can only win
        # if it leaves one group or builds a 6-high stack.
        side = position.to_move
        stacks = position.stacks
        board = position.board
        index, rays = board.index, board.rays
        owner = [s[-1] if s else EMPTY for s in stacks]
        out = []
        for move in position.legal_moves():
            start_name, end_name = move.split("-")
            start, end = index[start_name], index[end_name]
            stack = stacks[start]
            path = next(r[: len(stack)] for r in rays[start] if end in r)
            after = owner.copy()
            after[start] = EMPTY
            tall = False
            for colour, cell in zip(stack, path, strict=True):
                after[cell] = colour
                tall = tall or len(stacks[cell]) + 1 == MAX_HEIGHT
            if tall or _groups_of(after, side, board.neighbours) == 1:
                out.append(move)
        return out


#: The computer player of Lines of Fixation.
def fixation_progress(position: Position) -> tuple[int, int]:
    """Lines of Fixation's progress mark: each side's disks, so a capture makes progress and
    a move that only spreads or merges stacks does not (the rules forbid a board coming
    round again, but not a long game without captures)."""
    assert isinstance(position, FixationPosition)
    disks = [0, 0]
    for stack in position.stacks:
        for disk in stack:
            disks[disk] += 1
    return disks[0], disks[1]


PLAYER = Player(FixationKnowledge(), Plan(FixationKnowledge().evaluate), fixation_progress)
