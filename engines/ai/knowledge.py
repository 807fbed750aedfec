"""What the search knows about each game beyond its rules: playouts, evaluations and threats.

A :class:`Knowledge` answers the few questions the game-agnostic search asks; the base class
knows only the :class:`~engines.base.Position` interface (random playouts to the end), and each
game's subclass, in the game's own ``engines/ai/<game>_player.py``, adds what measurement
showed pays for itself (see :mod:`engines.ai.hooks`): random fills with RAVE for a plain
connection game, evaluations by connection distance (:func:`edge_distance`), evaluations only
where a random game goes on for hundreds of plies.

Every evaluation returns the chance that seat 0 wins, in ``[0, 1]``.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Collection, Iterable, Sequence

from engines.base import Position

__all__ = ["EMPTY", "Knowledge", "Played", "connection_value", "edge_distance", "result", "squash"]

EMPTY = -1
#: A move as RAVE sees it: who played it and its key (see :meth:`Knowledge.amaf_key`).
Played = tuple[int, str]


def result(position: Position) -> float:
    """The value of a finished game for seat 0: 1 win, 0 loss, 0.5 draw."""
    outcome = position.outcome
    assert outcome is not None
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == 0 else 0.0


def squash(score: float) -> float:
    """A score in "moves ahead" for seat 0 turned into a chance of winning."""
    return 1.0 / (1.0 + math.exp(-score))


class Knowledge:
    """What the search may ask about a game; the defaults use only the rules interface."""

    #: Random plies before a playout is cut off and evaluated (``None``: play to the end).
    playout_depth: int | None = None
    #: Longest playout when ``playout_depth`` is ``None``; a game still going is a draw.
    max_plies = 1000
    #: Whether the search shares results between moves by RAVE (all-moves-as-first).
    rave = False
    #: Whether the tree is widened progressively, root moves tried best first by evaluation.
    wide = False
    #: UCT exploration constant.
    exploration = 0.7
    #: Whether a move can lose on the spot (so every root move is played to find out).
    self_losing = True
    #: Whether tree nodes below the root draw random moves instead of listing every move.
    lazy_moves = False
    #: Search at most this many root moves, a random sample (``None``: all of them).
    root_sample: int | None = None

    def evaluate(self, position: Position) -> float:
        """The chance that seat 0 wins from ``position`` (a game still going)."""
        return 0.5

    def random_move(self, position: Position, rng: random.Random) -> str:
        """A legal move chosen at random (:meth:`~engines.base.Position.random_move`; a game's
        player overrides this with moves a playout should favour)."""
        return position.random_move(rng)

    def amaf_key(self, move: str) -> str:
        """What RAVE counts as "the same move" played later in a playout."""
        return move

    def playout(self, position: Position, rng: random.Random) -> tuple[float, list[Played]]:
        """Play on at random from ``position``; the value for seat 0 and the moves played."""
        played: list[Played] = []
        limit = self.max_plies if self.playout_depth is None else self.playout_depth
        for _ in range(limit):
            if position.outcome is not None:
                return result(position), played
            move = self.random_move(position, rng)
            if self.rave:
                played.append((position.to_move, self.amaf_key(move)))
            position = position.play(move)
        if position.outcome is not None:
            return result(position), played
        return (0.5 if self.playout_depth is None else self.evaluate(position)), played

    def win_candidates(self, position: Position) -> Iterable[str]:
        """Moves that might win at once (every legal move unless the game knows better)."""
        return position.legal_moves()

    def may_win_now(self, position: Position) -> bool:
        """A cheap test: ``False`` only if the player to move surely cannot win this turn."""
        return True

    def quiet(self, position: Position) -> bool:
        """``True`` if no move of the player to move can give the opponent a win next turn
        (so the search need not check every reply)."""
        return False


# -- connection distance ------------------------------------------------------------------


def edge_distance(
    owner: Sequence[int],
    who: int,
    neighbours: Sequence[Sequence[int]],
    edge_a: Collection[int],
    edge_b: Collection[int],
    *,
    passable: int = EMPTY,
) -> int:
    """How many more cells ``who`` must take to join ``edge_a`` to ``edge_b``: own cells cost
    0, cells holding ``passable`` (empty by default) 1, others block.  A large number when
    the edges cannot be joined."""
    far = len(owner) + 1
    dist = [far] * len(owner)
    todo: deque[int] = deque()
    for c in edge_a:
        v = owner[c]
        if v == who:
            dist[c] = 0
            todo.appendleft(c)
        elif v in (EMPTY, passable):
            dist[c] = 1
            todo.append(c)
    while todo:
        c = todo.popleft()
        d = dist[c]
        if c in edge_b:
            return d
        for nb in neighbours[c]:
            v = owner[nb]
            if v == who:
                if d < dist[nb]:
                    dist[nb] = d
                    todo.appendleft(nb)
            elif v in (EMPTY, passable) and d + 1 < dist[nb]:
                dist[nb] = d + 1
                todo.append(nb)
    return far


def connection_value(d0: int, d1: int, to_move: int, scale: float) -> float:
    """Seat 0's chance from the two sides' distances; the side to move is half a move up."""
    lead = d1 - d0 + (0.5 if to_move == 0 else -0.5)
    return squash(scale * lead)
