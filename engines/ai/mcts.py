"""Monte Carlo tree search over the :class:`~engines.base.Position` interface.

UCT with optional RAVE (all-moves-as-first values blended into young nodes) and optional
progressive widening (a node may only grow a new child every so many visits, root children
tried best first); both are switched per game by :class:`~engines.ai.knowledge.Knowledge`.
Values are kept from the point of view of the player who made the move into a node.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence

from engines.ai.knowledge import Knowledge, Played, result
from engines.base import Position

__all__ = ["Node", "search"]

#: RAVE equivalence parameter: after about this many visits a node trusts its own value
#: as much as the all-moves-as-first one.
RAVE_K = 300.0


class Node:
    """One position in the tree, reached by ``move`` from ``parent``."""

    __slots__ = (
        "amaf_n",
        "amaf_w",
        "children",
        "key",
        "lazy",
        "move",
        "parent",
        "position",
        "untried",
        "visits",
        "wins",
    )

    def __init__(
        self, position: Position, move: str | None, parent: Node | None, key: str, lazy: bool
    ) -> None:
        self.position = position
        self.lazy = lazy  # grows by drawing random moves instead of listing them all
        self.move = move
        self.parent = parent
        self.key = key
        self.children: list[Node] = []
        self.untried: list[str] | None = None  # listed when the node is first expanded
        self.visits = 0
        self.wins = 0.0  # for the player who moved into this node
        self.amaf_n = 0
        self.amaf_w = 0.0


def _select(node: Node, c: float, rave: bool) -> Node:
    """The child with the best UCT (RAVE-blended) score."""
    log_n = math.log(node.visits + 1)
    best = node.children[0]
    best_score = -math.inf
    for child in node.children:
        n = child.visits
        q = child.wins / n
        if rave and child.amaf_n:
            beta = math.sqrt(RAVE_K / (3 * n + RAVE_K))
            q = (1 - beta) * q + beta * child.amaf_w / child.amaf_n
        score = q + c * math.sqrt(log_n / n)
        if score > best_score:
            best, best_score = child, score
    return best


def _may_grow(node: Node, wide: bool) -> bool:
    """Whether ``node`` should add a child now rather than revisit one."""
    if node.lazy:
        return len(node.children) < 2 + math.sqrt(node.visits)
    if not node.untried:
        return False
    if not wide:
        return True
    # Progressive widening: about 2 + sqrt(visits) children.
    return len(node.children) < 2 + math.sqrt(node.visits)


def search(
    root_position: Position,
    moves: Sequence[str],
    knowledge: Knowledge,
    rng: random.Random,
    *,
    iterations: int | None,
    deadline: float | None,
    children: Mapping[str, Position] | None = None,
) -> tuple[str, int]:
    """The most visited of ``moves`` after searching from ``root_position``, and the number
    of iterations run.  Stops after ``iterations`` or at ``deadline`` (``time.perf_counter``
    value), whichever comes first; at least one of them is given.  ``children`` may hold
    positions already computed after some of the moves."""
    known = children or {}
    root = Node(root_position, None, None, "", False)
    lazy = knowledge.lazy_moves
    order = list(moves)
    if knowledge.wide:
        # Root children best first (evaluated once here; popped from the end).
        mover = root_position.to_move

        def value(move: str) -> float:
            child = known.get(move)
            if child is None:
                child = root_position.play(move)
            v = result(child) if child.outcome is not None else knowledge.evaluate(child)
            return v if mover == 0 else 1 - v

        scored: list[tuple[float, int, str]] = []
        for i, m in enumerate(order):
            if deadline is not None and time.perf_counter() > deadline:
                # Out of time: the moves not scored yet are tried last (popped from the end).
                scored.extend((-1.0, j, m) for j, m in enumerate(order[i:], i))
                break
            scored.append((value(m), i, m))
        scored.sort()
        order = [m for _, _, m in scored]
    else:
        rng.shuffle(order)
    root.untried = order
    c, rave, wide = knowledge.exploration, knowledge.rave, knowledge.wide
    done = 0
    while (iterations is None or done < iterations) and (
        deadline is None or done == 0 or time.perf_counter() < deadline
    ):
        done += 1
        node = root
        path = [root]
        # Selection.
        while node.position.outcome is None and not _may_grow(node, wide) and node.children:
            node = _select(node, c, rave)
            path.append(node)
        # Expansion.
        pos = node.position
        if pos.outcome is not None:
            pass
        elif node.lazy:
            move = knowledge.random_move(pos, rng)
            seen = next((ch for ch in node.children if ch.move == move), None)
            if seen is None:
                seen = Node(pos.play(move), move, node, knowledge.amaf_key(move), lazy)
                node.children.append(seen)
            node = seen
            path.append(node)
        else:
            if node.untried is None:
                node.untried = pos.legal_moves()
                rng.shuffle(node.untried)
            if node.untried:
                move = node.untried.pop()
                child_pos = known.get(move) if node is root else None
                if child_pos is None:
                    child_pos = pos.play(move)
                child = Node(child_pos, move, node, knowledge.amaf_key(move) if rave else "", lazy)
                node.children.append(child)
                node = child
                path.append(node)
        # Simulation.
        played: list[Played] = []
        if node.position.outcome is not None:
            value0 = result(node.position)
        else:
            value0, played = knowledge.playout(node.position, rng)
        # Backpropagation.
        _backpropagate(path, value0, played, rave)
    best = max(root.children, key=lambda ch: (ch.visits, ch.wins))
    assert best.move is not None
    return best.move, done


def _backpropagate(path: list[Node], value0: float, played: list[Played], rave: bool) -> None:
    """Add one result (``value0`` for seat 0) to every node of ``path`` and, with RAVE, to
    the siblings whose move the same player made later in the game."""
    for node in path[1:]:
        assert node.parent is not None
        node.visits += 1
        node.wins += value0 if node.parent.position.to_move == 0 else 1 - value0
    path[0].visits += 1
    if not rave:
        return
    # Moves made from each node on: the tree moves below it, then the playout.
    later: tuple[set[str], set[str]] = (set(), set())
    for seat, key in played:
        later[seat].add(key)
    for i in range(len(path) - 1, -1, -1):
        node = path[i]
        if i + 1 < len(path):
            later[node.position.to_move].add(path[i + 1].key)
        mover = node.position.to_move
        keys = later[mover]
        if not keys or not node.children:
            continue
        value = value0 if mover == 0 else 1 - value0
        for child in node.children:
            if child.key in keys:
                child.amaf_n += 1
                child.amaf_w += value
