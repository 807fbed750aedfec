"""One-move tactics shared by the search and the benchmark's greedy player: take a win that is
there (decisive move), and do not leave the opponent one (anti-decisive move).

>>> import engines
>>> moves = "d1 a1 d2 a2 d3 a3 d4 a4 d5 a5 d6".split()
>>> before = engines.position_after("pathagon", moves)
>>> safe_moves(before)
['d7']
>>> winning_move(before.play("g1"))
'd7'
"""

from __future__ import annotations

import random
import time

from engines.ai.hooks import knowledge_of
from engines.ai.knowledge import Knowledge
from engines.base import Position

__all__ = ["Tactics", "loses_at_once", "safe_moves", "tactics", "winning_move"]


class _OutOfTime(Exception):
    """The deadline passed before a look-ahead was finished."""


def _winning_move(position: Position, known: Knowledge, deadline: float | None) -> str | None:
    """:func:`winning_move`, raising :class:`_OutOfTime` once ``deadline`` has passed."""
    if position.outcome is not None or not known.may_win_now(position):
        return None
    mover = position.to_move
    for move in known.win_candidates(position):
        if deadline is not None and time.perf_counter() > deadline:
            raise _OutOfTime
        out = position.play(move).outcome
        if out is not None and out.winner == mover:
            return move
    return None


def winning_move(position: Position, knowledge: Knowledge | None = None) -> str | None:
    """A move that wins the game at once for the player to move, or ``None``."""
    return _winning_move(position, knowledge or knowledge_of(position), None)


def loses_at_once(position: Position, mover: int) -> bool:
    """Whether ``position`` (just reached by ``mover``'s move) is a game ``mover`` lost."""
    out = position.outcome
    return out is not None and out.winner is not None and out.winner != mover


class Tactics:
    """The root moves of ``position`` sorted by what one move of look-ahead says.

    ``win`` is a move that wins at once (or ``None``); ``safe`` the moves after which the
    opponent has no immediate win; ``unsafe`` those after which it has one; ``losing`` the
    moves that lose on the spot; ``unchecked`` the moves not looked at because ``deadline``
    (a ``time.perf_counter`` value) passed first.  ``children`` holds the positions played
    to find out.  With a ``sample`` generator, a game with more moves than its knowledge's
    ``root_sample`` only has a random sample of them sorted (a win is still looked for
    among all of them).
    """

    def __init__(
        self,
        position: Position,
        knowledge: Knowledge | None = None,
        sample: random.Random | None = None,
        deadline: float | None = None,
    ) -> None:
        known = knowledge or knowledge_of(position)
        mover = position.to_move
        self.children: dict[str, Position] = {}
        self.win: str | None = None
        self.safe: list[str] = []
        self.unsafe: list[str] = []
        self.losing: list[str] = []
        self.unchecked: list[str] = []
        moves = position.legal_moves()
        try:
            self.win = _winning_move(position, known, deadline)
        except _OutOfTime:
            self.unchecked = moves  # no time even to look for a win
            return
        if self.win is not None:
            return
        limit = known.root_sample
        if sample is not None and limit is not None and len(moves) > limit:
            # Thousands of turns (Iso-Path): look at a random sample of them.
            moves = sample.sample(moves, limit)
        if known.quiet(position) and not known.self_losing:
            self.safe = moves  # nothing to find by playing them
            return
        for i, move in enumerate(moves):
            if deadline is not None and time.perf_counter() > deadline:
                self.unchecked = moves[i:]
                return
            child = position.play(move)
            self.children[move] = child
            if loses_at_once(child, mover):
                self.losing.append(move)
                continue
            try:
                threat = child.outcome is None and _winning_move(child, known, deadline)
            except _OutOfTime:
                self.unchecked = moves[i:]
                return
            if threat:
                self.unsafe.append(move)
            else:
                self.safe.append(move)

    @property
    def best(self) -> list[str]:
        """The moves worth searching: the safe ones, else those not looked at in time (never
        an unchecked move while a checked safe one exists), else those that do not lose at
        once, else every move."""
        return self.safe or self.unchecked or self.unsafe or self.losing


def tactics(position: Position) -> Tactics:
    """:class:`Tactics` of ``position`` with its game's knowledge."""
    return Tactics(position)


def safe_moves(position: Position) -> list[str]:
    """The moves of ``position`` that neither lose at once nor leave the opponent an
    immediate win; if there are none, those that do not lose at once; else every move."""
    return Tactics(position).best
