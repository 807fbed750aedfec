"""Short scripted games, one of each kind, each with a clear blunder: at ply :attr:`~Scripted.
blunder` the player to move had a winning move and played another one.  Found once with the
engines (random moves against a small search, then a move that misses the win); checked by
``test_the_scripted_blunders_miss_a_win`` in ``test_review.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engines


@dataclass(frozen=True)
class Scripted:
    """A game of ``game`` with ``options`` played as ``moves``; the move at ply ``blunder``
    missed a win (when the moves do not end the game, the player to move resigns)."""

    game: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    blunder: int

    def positions(self) -> list[engines.Position]:
        """Every position of the game, from the start."""
        return list(engines.replay(self.game, self.moves, **self.options))


#: Light misses its win at d7 (move 13) and Dark wins there.
PATHAGON = Scripted("pathagon", {}, tuple("d1 a7 d2 b7 d3 c7 d4 e7 d5 f7 d6 g7 g1 d7".split()), 12)

MAPHEX = Scripted(
    "maphex",
    {},
    tuple(
        "4 b5 e4 d3 b9 f7 h1 e1 d1 a3 b8 d4 a2 a6 c7 g2 c6 h7 e2 d5 a4 c3 i8 h5 e5 f5 i5 i4 h3 "
        "d9 a7 c2 g5 c5 i6 i7 i1 h2 f6 h8 f4 g3 b7 f2 g6 c8 h4 f3 i9 g9 a9 c9 g7 b1 d2 a5 b4 f1 "
        "g1 b3 e9 d8 b6 e8 d6 a8 c4 i3 g8 f8 h6 e7 e3 f9 h9 d7 b2 e6 i2 g4".split()
    ),
    78,
)

INPHEXION = Scripted(
    "inphexion",
    {"size": 5, "pie": False},
    tuple(
        "c3|c3-d2|c3-b3|d2-d3|b3-b4|d3-e2|b4-a4|b3-c2|a4-a3|c3-c4|b3-b2|e2-e3|b2-c1|"
        "e3-e4|d2-d1|d2-e1 e1>b1|e2-e1|b4-b5|b4-a5".split("|")
    ),
    17,
)

ISOPATH = Scripted(
    "isopath",
    {},
    tuple(
        "f5>b5 a4-b5|e3>f4 g4-f5|d2>c5 b5-c5|g1-g4 d7>c4|e1>d6 c5-d6|c4>b2 g2-g1|"
        "b1>e6 d6-e6|d6>c4 g1-g2|e5>f2 a1-b2|f4>d4 g4-g1|c1>b3 a3-b3|c3>e4 f5-e5|"
        "b3-c4 e2>c2|e5-f5 c2>e1|c4-d4 e4>e1|b5>d6 f5-e5|a2-b3 f2>b4|g3-g4 e4>c2|"
        "d5>e2 b3-c4|b5>e2 e5-f5|b2-c2 c5>e5|g2-g3 b3>f3|b2>d3 c2-d3|g1-g2 f4>c3|"
        "b3>f1 d3-e2|g2-g1 c6>f2|e2-f2 c5>d7|a3>e4 g3-f4|f1>g3 f2-f3|d6>f1 g1-g2|"
        "c4-b4 b2>b1".split("|")
    ),
    30,
)

FIXATION = Scripted(
    "fixation",
    {},
    tuple(
        "f8-h6 b6-d8 f1-f3 i3-i5 h1-f3 b1-d1 g2-g1 d1-g2 g1-g4 c1-f3 h6-e9 i4-f4 g7-g3 d8-g6 "
        "e9-f8 f7-e8 g5-f5 f3-c4 d4-e5 e3-e2 a2-a4 c4-b3 a3-d3 h4-h5 a4-a1 c7-c4 b3-b5".split()
    ),
    26,
)

#: One scripted game of each of the five kinds, by game.
SCRIPTED = {s.game: s for s in (PATHAGON, MAPHEX, INPHEXION, ISOPATH, FIXATION)}


def wins_at_once(position: engines.Position, move: str) -> bool:
    """Whether ``move`` wins the game at once for the player to move in ``position``."""
    outcome = position.play(move).outcome
    return outcome is not None and outcome.winner == position.to_move
