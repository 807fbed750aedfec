"""When the computer player knows a draw: a held game, and a game that makes no progress.

Pure: no I/O.  Two questions the bot asks about a game against it (issue 49):

- **Held** (:func:`held`): the bot offers a draw, and accepts one, when its evaluation says
  the game is held for both: each of its last :data:`HELD_TURNS` assessments (the positions
  where it was to move, the current one included) gives seat 0 a chance within
  :data:`HELD_MARGIN` of one half.  An assessment (:func:`assess`) is a short search of
  :data:`ASSESS_NODES` evaluations by the game's own player (its own ``assess`` hook when it
  has one, else its alpha-beta plan; the static evaluation plus one ply for a game searched
  by the tree search).
  A game shorter than that many turns of the bot is never held: the opening is not a draw.
- **No progress** (:func:`quiet_plies`): a ply makes progress when it reaches a *mark*
  (:attr:`engines.ai.hooks.Player.progress`: the game's measure of material and advance)
  not seen before in the game; a game whose player names no mark makes progress every ply
  (a stone is added every turn and never goes).  After :data:`OFFER_AFTER` plies without
  progress the bot offers a draw; after :data:`CLAIM_AFTER` the player may claim one.

>>> import engines
>>> start = engines.new(next(iter(engines.GAMES)))
>>> quiet_plies([start]), held([start], 0)
(0, False)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from engines.ai import alphabeta
from engines.ai.hooks import knowledge_of, player_of
from engines.base import Position

__all__ = [
    "ASSESS_NODES",
    "CLAIM_AFTER",
    "HELD_MARGIN",
    "HELD_TURNS",
    "OFFER_AFTER",
    "assess",
    "held",
    "quiet_plies",
    "should_offer",
]

#: Seat 0's chance within this of one half counts as held (0.40 to 0.60).
HELD_MARGIN = 0.10
#: How many of the bot's turns in a row (the last ones) must be held.
HELD_TURNS = 6
#: Evaluations of one assessment search.
ASSESS_NODES = 600
#: Plies without progress after which the bot offers a draw.
OFFER_AFTER = 100
#: Plies without progress after which the player may claim a draw.
CLAIM_AFTER = 150


def assess(
    position: Position, history: Sequence[Position] = (), nodes: int = ASSESS_NODES
) -> float:
    """Seat 0's chance of winning from ``position`` by a short search of ``nodes``
    evaluations (``history``: the game's earlier positions, for a player that uses them); a
    finished game's result (1, 0 or one half for a draw)."""
    outcome = position.outcome
    if outcome is not None:
        return 0.5 if outcome.winner is None else 1.0 - outcome.winner
    player = player_of(position.game)
    if player.assess is not None:
        return player.assess(position, history, nodes)
    plan = player.plan
    if plan is None:
        plan = alphabeta.Plan(knowledge_of(position).evaluate, max_depth=1)
    moves = plan.candidates(position) if plan.candidates and plan.root_candidates else None
    best = alphabeta.search(position, moves or position.legal_moves(), plan, nodes=nodes)
    return best.value if position.to_move == 0 else 1.0 - best.value


def held(
    positions: Sequence[Position],
    seat: int,
    *,
    turns: int = HELD_TURNS,
    margin: float = HELD_MARGIN,
    nodes: int = ASSESS_NODES,
) -> bool:
    """Whether the game whose positions are ``positions`` (the first to the current one) is
    held for both by ``seat``'s evaluation: each of the last ``turns`` positions where
    ``seat`` was to move (or the current one, whoever moves) is assessed within ``margin`` of
    an even game.  Fewer such positions: not held."""
    if not positions:
        return False
    current = len(positions) - 1
    at = [i for i, p in enumerate(positions) if p.to_move == seat and p.outcome is None]
    if not at or at[-1] != current:
        at.append(current)
    if len(at) < turns:
        return False
    for i in reversed(at[-turns:]):
        value = assess(positions[i], positions[:i], nodes)
        if abs(value - 0.5) > margin:
            return False
    return True


def _marks(positions: Sequence[Position]) -> list[Hashable] | None:
    if not positions:
        return None
    mark = player_of(positions[0].game).progress
    if mark is None:
        return None
    return [mark(p) for p in positions]


def quiet_plies(positions: Sequence[Position]) -> int:
    """Plies since the game (its positions from the first to the current one) last made
    progress: reached a mark of its player's ``progress`` not seen before (0 for a game
    without marks, where every ply is progress)."""
    marks = _marks(positions)
    if marks is None:
        return 0
    seen: set[Hashable] = set()
    quiet = 0
    for mark in marks:
        if mark in seen:
            quiet += 1
        else:
            seen.add(mark)
            quiet = 0
    return quiet


def should_offer(positions: Sequence[Position], seat: int, nodes: int = ASSESS_NODES) -> bool:
    """Whether ``seat`` (the bot, having just moved: the last position is the one after its
    move) offers a draw now: once when the game has gone :data:`OFFER_AFTER` plies without
    progress (at its first turn from then on), or when the game has just become held
    (:func:`held` now, not at its turn before), so that it does not offer every turn."""
    if not positions or positions[-1].outcome is not None:
        return False
    quiet = quiet_plies(positions)
    if OFFER_AFTER <= quiet < OFFER_AFTER + 2:
        return True
    before = [i for i, p in enumerate(positions[:-1]) if p.to_move == seat]
    if not before:
        return False
    now = held(positions[: before[-1] + 1], seat, nodes=nodes)
    if not now:
        return False
    earlier = [i for i in before[:-1]]
    return not earlier or not held(positions[: earlier[-1] + 1], seat, nodes=nodes)
