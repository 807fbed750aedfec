"""Iso-Path alpha-beta on bare height and piece lists: the hard and normal levels' search.

The shape of the Padfoot player of the jes/isopath project (negamax alpha-beta over few
candidate turns: the best few tile moves of each kind combined with every piece step), made
deeper in the same time: turns are played and taken back on two lists instead of building
positions from text, iterative deepening with a transposition table, captures and the
table's move first, the rest ordered by a one-look evaluation (each position is evaluated
once a search: an iteration orders its turns by what the one before judged at its horizon).
A node searches the best few by that look (a turn the look cannot tell from a better one, the
same step with the same score, counted after the others: three places to take a tile from far
from anything would otherwise fill the few with one idea), and from three plies off the
horizon each threatening step too (a runner next to a goal space, a second piece next to one
of the other side's); the turns it left out are searched when every kept one loses, so that
a loss (and the other side's win) is only proven when no turn escapes it.

Candidate tile moves are ranked without an evaluation each: a space matters to a side by
how far it lies off that side's cheapest way to the goal (the cost of the best way through
it, from a piece and to the goal row, less the best way's), and a tile move helps the mover
by making its own way cheaper there and the opponent's dearer.

The evaluation (for the side to move) is Padfoot's: per side the best and all pieces' path
scores (1000 over the path cost, a side not to move a step further off), material; with the
advance of each piece (Padfoot's copy of the Sirius evaluation: row squared) so that a quiet
position does not shuffle; the mover's captures in hand; and the race at the home rows, where
the owner may never move a tile, so that a piece next to an empty space of the other side's
home row is stopped only by a capture (or by the owner stepping onto that space): a win in
hand for the mover, such a piece of the other side one tile from entering (lost unless the
mover captures it), or two tiles (:data:`TWO`), and the other side's steps next to that row
next turn (:func:`_entries`; one at its height or two one tile off cannot all be spoilt by
the mover's one tile move); and the races of one or two steps, and the free runs of any
length, that the other side can stop neither by a tile, a block, a capture nor a faster race
(:mod:`engines.ai.isopath_race`), worth nearly a won or a lost game, so that a race is seen
before it is forced.  Candidate tile moves include the tiles on a goal space next to the
mover's piece and the tiles that spoil such a step.  Pieces next to a piece of the other side
count half a capture each (:data:`PRESSURE`), so that they gather round a defender.

The rules have no repetition rule, so two sides can repeat the same few positions for ever.
Given the game's earlier positions (``history``), a turn back to one of them, at once or
further on, scores as a draw: the side ahead looks for a way forward, the side behind takes
the draw.  The pieces go round too while the tiles do not (each tile threat answered by a
tile somewhere else): a turn that leaves both sides' pieces as the mover's turns left them
:data:`WORN` times before costs :data:`ROUND` (:func:`_worn`), so the side ahead stops
stepping one piece back and forth and brings its pieces somewhere new, though not at the
price of a piece; a turn taking back the mover's own last tile move or step costs :data:`UNDO`
(:func:`_own_undoing`).  Both charges fall on the side ahead only (its best turn at one look
above :data:`AHEAD`): the side behind may hold the game by a shuffle.  Without a history a
position still carries its last turn: the side ahead does not take back the opponent's last
tile move (:func:`_undoing`).

>>> import engines
>>> p = engines.new("isopath")
>>> found = search(p, nodes=400)
>>> found.move in p.legal_moves()
True
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from engines.ai import isopath_race as races
from engines.ai.alphabeta import TABLE_LIMIT, Bound
from engines.base import Position
from engines.isopath import STAND, IsopathPosition

__all__ = ["Found", "below_root", "evaluate", "search"]

NONE: Final = -1
#: The score of a won game for the winner, less one per ply until it is won.
WIN: Final = 1_000_000.0
#: Tile moves of each kind (take, put) combined with the piece steps.
TILE_CHOICES: Final = 3
#: Path score numerator and per-piece material (Padfoot's constants 7 and 5).
PATH: Final = 1000.0
MATERIAL: Final = 6.0
#: Weight of all pieces' path scores next to the best one (Padfoot's constant 9).
ALL_PATHS: Final = 2.0
#: Weight of each piece's advance, row squared: a fifth of Padfoot's Sirius share (0.5 x 10),
#: which made the side with pieces further on count itself ahead in positions it went on to
#: lose (against the Padfoot-like reference at 0.25 s a move: 9 of 16 lost at 5, 2 of 24 at 1).
ADVANCE: Final = 1.0
#: A win on the next turn that the side to move cannot stop (short of a won game).
SURE: Final = 50_000.0
#: A piece next to an empty goal space two tiles off, out of capture (see :func:`_score`).
TWO: Final = 10_000.0
#: One of the side's pieces next to a piece of the other side: half a capture.
PRESSURE: Final = 150.0
#: Turns searched deeper at a node two or more plies from the horizon, best first by one
#: look; at the root from the third ply on, the best by the previous iteration.
WIDTH: Final = 8
ROOT_WIDTH: Final = 10
#: Nodes this many plies or more from the horizon also keep each threatening step's best turn
#: (an answer to a threat needs two plies under the threat to be seen).
THREATS_FROM: Final = 3
#: Evaluation budgets below this look one turn ahead only (the easy level's 1 200).
ONE_LOOK_BELOW: Final = 2_000
#: Kept evaluations before they are cleared.
EVAL_LIMIT: Final = 200_000
#: Times the game's earlier turns of the mover left both sides' pieces as they stand after
#: a turn, from which that turn costs :data:`ROUND` (see :func:`_worn`).  Two already
#: changed turns in the opening's manoeuvres (ply 21 of the Padfoot-like reference's game 7).
WORN: Final = 3
#: What such a turn costs: less than a piece.  Scoring it as a draw instead (from two times
#: on) lost that game at ply 117, which the search without either held to the 600-ply cap.
ROUND: Final = 100.0
#: What a root turn that takes back the mover's own last tile move or step costs.
UNDO: Final = 100.0
#: The mover counts as ahead when its best root turn at one look (before any charge) scores
#: above this; only the side ahead pays :data:`ROUND` and :data:`UNDO` (issue 49: charged to
#: a side behind, they pushed it off a shuffle that held the game).
AHEAD: Final = 0.0

# An action: (kind, a, b): ">" tile a to b, "-" piece a to b, "x" capture on a.
Action = tuple[str, int, int]
Turn = tuple[Action, ...]
# A position as the search keys it: heights, pieces, the side to move.
Key = tuple[tuple[int, ...], tuple[int, ...], int]
# Where the pieces stand, and the side to move.
Placement = tuple[tuple[int, ...], int]


class _Layout:
    """Everything the search needs about one board size."""

    def __init__(self, position: IsopathPosition) -> None:
        self.adj = position.adjacent
        self.n = len(self.adj)
        self.names = position.board.names
        self.home = position.home_rows
        # Row of each space counted from each side's own home row (0 at home).
        rows = [0] * self.n
        for r, row in enumerate(position._layout.rows):
            for c in row:
                rows[c] = r
        last = len(position._layout.rows) - 1
        self.advance = (tuple(rows), tuple(last - r for r in rows))
        # entry[side][c][height]: the cost of entering space c at that height on ``side``'s
        # way, before pieces (see :func:`_costs`; index -1 is the last of the three).
        self.entry = tuple(
            tuple(
                tuple(
                    1
                    if x == STAND[side] or (c in self.home[1 - side] and abs(x - STAND[side]) == 1)
                    else (2 if abs(x - STAND[side]) == 1 else 3)
                    for x in (0, 1, -1)
                )
                for c in range(self.n)
            )
            for side in (0, 1)
        )
        # to_go[side][c]: the steps from space c to ``side``'s goal row at least (its row).
        self.to_go = (tuple(last - r for r in rows), tuple(rows))
        # near[side]: the spaces two steps or fewer off ``side``'s goal row.
        self.near = tuple(
            tuple(c for c in range(self.n) if 0 < self.to_go[side][c] <= 2) for side in (0, 1)
        )
        # far[a][b]: the steps between two spaces, whatever the heights and pieces.
        self.far = tuple(_steps(self.adj, a) for a in range(self.n))
        # ring[side]: per space off ``side``'s goal row, the goal spaces next to it.
        self.ring = tuple(
            tuple(
                tuple(g for g in self.adj[c] if g in self.home[1 - side])
                if c not in self.home[1 - side]
                else ()
                for c in range(self.n)
            )
            for side in (0, 1)
        )
        # rim[side]: the spaces off ``side``'s goal row next to it.
        self.rim = tuple(tuple(c for c in range(self.n) if self.ring[side][c]) for side in (0, 1))


def _steps(adj: tuple[tuple[int, ...], ...], start: int) -> tuple[int, ...]:
    """The steps from ``start`` to every space (breadth first, teleports included)."""
    dist = [len(adj)] * len(adj)
    dist[start] = 0
    frontier = [start]
    while frontier:
        later = []
        for v in frontier:
            for u in adj[v]:
                if dist[u] > dist[v] + 1:
                    dist[u] = dist[v] + 1
                    later.append(u)
        frontier = later
    return tuple(dist)


_LAYOUTS: dict[int, _Layout] = {}


def _layout(position: IsopathPosition) -> _Layout:
    found = _LAYOUTS.get(position.size)
    if found is None:
        found = _LAYOUTS[position.size] = _Layout(position)
    return found


def _costs(lay: _Layout, h: list[int], p: list[int], side: int) -> list[int]:
    """The cost of entering each space on ``side``'s way (Padfoot's: 1 at its height, 2 at the
    middle, 3 at the other's, 4 threatened, 5 occupied; a goal space one tile off costs 1)."""
    enemy = 1 - side
    entry = lay.entry[side]
    adj = lay.adj
    near = [0] * lay.n
    for c in range(lay.n):
        if p[c] == enemy:
            for nb in adj[c]:
                near[nb] += 1
    goal = lay.home[enemy]
    out = [0] * lay.n
    for c in range(lay.n):
        if p[c] != NONE:
            out[c] = 5
        elif near[c] >= 2 and c not in goal:
            out[c] = 4
        else:
            out[c] = entry[c][h[c]]
    return out


def _from_goal(lay: _Layout, cost: list[int], side: int) -> list[int]:
    """Per space, the cheapest cost of the spaces entered from it to ``side``'s goal row."""
    return races.way_costs(lay.adj, cost, lay.home[1 - side])


def _from_pieces(lay: _Layout, cost: list[int], p: list[int], side: int) -> list[int]:
    """Per space, the cheapest cost of reaching it (entering it included) from a piece (relaxed
    a frontier at a time, as :func:`.isopath_race.way_costs`)."""
    adj = lay.adj
    dist = [1000] * lay.n
    frontier = [c for c, x in enumerate(p) if x == side]
    for c in frontier:
        dist[c] = 0
    while frontier:
        later = []
        for v in frontier:
            d = dist[v]
            for u in adj[v]:
                nd = d + cost[u]
                if nd < dist[u]:
                    dist[u] = nd
                    later.append(u)
        frontier = later
    return dist


def _threatened(lay: _Layout, p: list[int], side: int, theirs: list[int]) -> list[int]:
    """The other side's pieces (``theirs``, all of them) that ``side`` may capture (two of its
    pieces next to each)."""
    adj = lay.adj
    return [c for c in theirs if sum(1 for nb in adj[c] if p[nb] == side) >= 2]


def _wins_now(lay: _Layout, h: list[int], p: list[int], side: int) -> bool:
    """Whether ``side`` (to move) can win this turn by a step into the goal row (after one
    tile move if needed) or by capturing the last piece."""
    enemy = 1 - side
    theirs = p.count(enemy)
    if theirs == 0:
        return True
    if theirs == 1 and _threatened(lay, p, side, [p.index(enemy)]):
        return True
    stand = STAND[side]
    adj = lay.adj
    for g in lay.home[enemy]:
        if p[g] == NONE and -1 <= h[g] - stand <= 1 and any(p[nb] == side for nb in adj[g]):
            return True
    return False


def _score(lay: _Layout, h: list[int], p: list[int], mover: int) -> float:
    """The evaluation for ``mover`` (to move), in points."""
    enemy = 1 - mover
    if _wins_now(lay, h, p, mover):
        return SURE * 2
    adj = lay.adj
    pieces: tuple[list[int], list[int]] = ([], [])
    for c, x in enumerate(p):
        if x != NONE:
            pieces[x].append(c)
    capturable = set(_threatened(lay, p, mover, pieces[enemy]))
    total = 0.0
    # Per side: its pieces on a free run's first space (:func:`.isopath_race.run`), with
    # the costs and the way to the goal row it was read from.
    runs: list[tuple[list[int], list[int], list[int]]] = []
    for side, sign in ((mover, 1.0), (enemy, -1.0)):
        cost = _costs(lay, h, p, side)
        dist = _from_goal(lay, cost, side)
        extra = 0 if side == mover else 1
        advance = lay.advance[side]
        values = {
            c: PATH / max(1, dist[c] + extra) + ADVANCE * (4 + advance[c]) ** 2 + MATERIAL
            for c in pieces[side]
        }
        if side == enemy and capturable:
            # The mover takes the most valuable threatened piece.
            del values[max(capturable, key=values.__getitem__)]
        to_go = lay.to_go[side]
        runs.append(([c for c in values if dist[c] == to_go[c]], cost, dist))
        if not values:
            return SURE * 2 if side == enemy else -SURE * 2
        total += sign * (max(values.values()) + ALL_PATHS * sum(values.values()))
    # A piece next to an empty goal space: the goal row is the other side's home row, where
    # that side may never move a tile, so only a capture (or its own piece stepping onto the
    # space while it is at its height) stops it.  One tile off and the other side to move:
    # it enters next turn; two tiles off: in two turns.
    in_danger = set(_threatened(lay, p, enemy, pieces[mover]))  # those the enemy may take
    total += PRESSURE * (
        _pressure(lay, p, mover, in_danger, pieces[enemy])
        - _pressure(lay, p, enemy, capturable, pieces[mover])
    )
    mine_two = theirs_two = False
    for side in (mover, enemy):
        stand = STAND[side]
        for g in lay.home[1 - side]:
            if p[g] != NONE:
                continue
            need = abs(h[g] - stand)
            for nb in adj[g]:
                if p[nb] != side:
                    continue
                if side == enemy and nb not in capturable:
                    if need <= 1:
                        return total - SURE
                    if not any(p[m] == mover for m in adj[g]):
                        theirs_two = True
                elif side == mover and need == 2 and nb not in in_danger:
                    mine_two = True
    # The races that the other side cannot stop (:mod:`.isopath_race`): of one or two steps,
    # and free runs of any length.
    mine = races.ways(lay, h, p, mover)
    theirs = races.ways(lay, h, p, enemy)
    if mine or theirs or runs[0][0] or runs[1][0]:
        for i, side in enumerate((mover, enemy)):
            first = side == mover
            ways, others = (mine, theirs) if first else (theirs, mine)
            other = races.fastest(lay, p, 1 - side, others)
            catchers = races.Catchers(lay, h, pieces[1 - side], 1 - side)
            turns = [
                races.race(lay, p, side, ways, first, other, catchers) if ways else 0,
                races.run(lay, side, *runs[i], first, other, catchers) if runs[i][0] else 0,
            ]
            if any(turns):
                won = SURE - races.RACE_TURN * min(t for t in turns if t)
                return total + won if first else total - won
    if mine_two:
        total += TWO
    if theirs_two:
        total -= TWO / 2
    # The other side's pieces one step from such a space next to an empty goal space: at its
    # height already the mover cannot spoil the step with one tile (it would still be one
    # tile off); one tile off, the mover spoils one such step, not two.
    hard = soft = 0
    for r in _entries(lay, h, p, enemy):
        if h[r] == STAND[enemy]:
            hard += 1
        else:
            soft += 1
    level = hard + soft / 2
    if level >= 1:
        total -= TWO / 4 * min(level, 2)
    elif level:
        total -= TWO / 40
    return total


def _pressure(lay: _Layout, p: list[int], side: int, lost: set[int], theirs: list[int]) -> int:
    """The other side's pieces (``theirs``, all of them) with one of ``side``'s pieces next to
    them (not one about to be lost): half a capture each, so that pieces gather round a
    defender."""
    adj = lay.adj
    return sum(
        1 for c in theirs if sum(1 for nb in adj[c] if p[nb] == side and nb not in lost) == 1
    )


def _entries(lay: _Layout, h: list[int], p: list[int], side: int) -> list[int]:
    """Empty spaces at most one tile from ``side``'s height next to an empty goal space of
    ``side``'s and to one of its pieces (from off the goal row's edge), where fewer than two
    pieces of the other side would stand next to it: a step there next turn threatens the
    goal."""
    stand = STAND[side]
    ring = lay.ring[side]
    adj = lay.adj
    enemy = 1 - side
    return [
        r
        for r in lay.rim[side]
        if p[r] == NONE
        and -1 <= h[r] - stand <= 1
        and any(p[g] == NONE for g in ring[r])
        and any(p[f] == side and not ring[f] for f in adj[r])
        and sum(1 for f in adj[r] if p[f] == enemy) < 2
    ]


def evaluate(position: Position) -> float:
    """The evaluation of ``position`` for its player to move, in points (a won game for the
    player to move: a large positive number)."""
    assert isinstance(position, IsopathPosition)
    return _score(
        _layout(position), list(position.heights), list(position.pieces), position.to_move
    )


def _tiles(
    lay: _Layout, h: list[int], p: list[int], mover: int, k: int
) -> tuple[list[int], list[int]]:
    """The ``k`` best spaces to take a tile from and to put one on, for ``mover``."""
    enemy = 1 - mover
    own = lay.home[mover]
    weights = []
    for side in (mover, enemy):
        cost = _costs(lay, h, p, side)
        to_goal = _from_goal(lay, cost, side)
        from_pieces = _from_pieces(lay, cost, p, side)
        best = min((to_goal[c] for c in range(lay.n) if p[c] == side), default=1000)
        weights.append(
            [1.0 / (1 + max(0, from_pieces[c] + to_goal[c] - best)) for c in range(lay.n)]
        )
    w_me, w_you = weights
    s_me, s_you = STAND[mover], STAND[enemy]
    takes: list[tuple[float, int]] = []
    puts: list[tuple[float, int]] = []
    for c in range(lay.n):
        if p[c] != NONE or c in own:
            continue
        hc = h[c]
        for delta, out in ((-1, takes), (1, puts)):
            nh = hc + delta
            if not -1 <= nh <= 1:
                continue
            # Nearer the side's height is cheaper for it (by one per tile).
            mine = abs(hc - s_me) - abs(nh - s_me)
            yours = abs(nh - s_you) - abs(hc - s_you)
            out.append((-(mine * w_me[c] + yours * w_you[c]), c))
    takes.sort()
    puts.sort()
    return [c for _, c in takes[:k]], [c for _, c in puts[:k]]


def _turns(
    lay: _Layout, h: list[int], p: list[int], mover: int, k: int = TILE_CHOICES
) -> list[Turn]:
    """The candidate turns of ``mover``: captures first, then steps with the ``k`` best tile
    moves of each kind and the tile moves that make a step possible (with every tile move
    when those give none)."""
    enemy = 1 - mover
    stand = STAND[mover]
    adj = lay.adj
    goal = lay.home[enemy]
    own = lay.home[mover]
    takes, puts = _tiles(lay, h, p, mover, k)
    # A tile on a goal space next to one of the mover's pieces brings it nearer for good.
    for g in goal:
        if p[g] == NONE and h[g] != stand and any(p[nb] == mover for nb in adj[g]):
            side_ends = puts if stand == 1 else takes
            if g not in side_ends:
                side_ends.insert(0, g)
    # A tile that spoils the other side's step next to the mover's home row.
    for r in _entries(lay, h, p, enemy):
        side_ends = puts if stand == 1 else takes
        if r not in side_ends and r not in own:
            side_ends.insert(0, r)
    tiles = [(s, d) for s in takes for d in puts if s != d]
    out: list[Turn] = []
    steps: list[tuple[int, int]] = []
    openings: list[Turn] = []
    for f in range(lay.n):
        if p[f] != mover:
            continue
        for t in adj[f]:
            if p[t] != NONE:
                continue
            if h[t] == stand:
                steps.append((f, t))
            elif h[t] == 0 and t not in own:
                if stand == 1:
                    ends = [(s, t) for s in takes if s != t]
                else:
                    ends = [(t, d) for d in puts if d != t]
                openings.extend(((">", s, d), ("-", f, t)) for s, d in ends)
    for c in _threatened(lay, p, mover, [c for c, x in enumerate(p) if x == 1 - mover]):
        cap: Action = ("x", c, NONE)
        out.extend((cap, ("-", f, t)) for f, t in steps)
        out.extend((cap, (">", s, d)) for s, d in tiles)
    for f, t in steps:
        step: Action = ("-", f, t)
        if t in goal:
            out.append((step,))
            continue
        out.extend((step, (">", s, d)) for s, d in tiles if t != s and t != d)
    out.extend(openings)
    if not out and k < lay.n:
        return _turns(lay, h, p, mover, lay.n)
    return out


def _kept(
    lay: _Layout, p: list[int], mover: int, ranked: list[Turn], depth: int
) -> tuple[list[Turn], list[Turn]]:
    """The turns a node ``depth`` plies from the horizon searches of ``ranked`` (its turns,
    best first by one look), and the rest (searched only when every kept one loses).

    The best :data:`WIDTH` are kept (the rest looked worse than them even before the reply);
    from :data:`THREATS_FROM` plies on also the best turn of each threatening step
    (:func:`_threatens`), which the one look may misjudge: the runner's way in a tile or two
    off, a capture the other side must answer."""
    kept = ranked[:WIDTH]
    if depth < THREATS_FROM:
        return kept, ranked[WIDTH:]
    rest = []
    steps = {_step(t) for t in kept}
    for t in ranked[WIDTH:]:
        step = _step(t)
        if step is not None and step not in steps and _threatens(lay, p, step, mover):
            steps.add(step)
            kept.append(t)
        else:
            rest.append(t)
    return kept, rest


def _step(turn: Turn) -> tuple[int, int] | None:
    """``turn``'s piece step (from, to), or None for a turn without one."""
    for kind, a, b in turn:
        if kind == "-":
            return a, b
    return None


def _threatens(lay: _Layout, p: list[int], step: tuple[int, int], mover: int) -> bool:
    """Whether ``mover``'s piece ``step`` (not yet played) ends next to an empty goal space,
    or next to a piece of the other side that then has two of the mover's pieces beside it."""
    f, t = step
    if any(p[g] == NONE for g in lay.ring[mover][t]):
        return True
    adj = lay.adj
    enemy = 1 - mover
    return any(p[c] == enemy and any(p[nb] == mover and nb != f for nb in adj[c]) for c in adj[t])


def _apply(h: list[int], p: list[int], turn: Turn) -> list[int]:
    """Play ``turn``; returns what :func:`_undo` needs (the captured side, or -1)."""
    undo = []
    for kind, a, b in turn:
        if kind == ">":
            h[a] -= 1
            h[b] += 1
        elif kind == "-":
            p[b] = p[a]
            p[a] = NONE
        else:
            undo.append(p[a])
            p[a] = NONE
    return undo


def _undo(h: list[int], p: list[int], turn: Turn, undo: list[int]) -> None:
    for kind, a, b in reversed(turn):
        if kind == ">":
            h[a] += 1
            h[b] -= 1
        elif kind == "-":
            p[a] = p[b]
            p[b] = NONE
        else:
            p[a] = undo[0]


def _won(lay: _Layout, p: list[int], turn: Turn, mover: int) -> bool:
    """Whether ``turn`` (just played by ``mover``) won the game."""
    last = turn[-1]
    if last[0] == "-" and last[2] in lay.home[1 - mover]:
        return True
    return last[0] == "x" and (1 - mover) not in p


class _Stop(Exception):
    """The node budget or the deadline ran out."""


@dataclass(frozen=True)
class Found:
    """The search's answer: ``move`` (text), its ``score`` for the player to move (points),
    the ``depth`` of the deepest finished iteration and the ``nodes`` evaluated."""

    move: str
    score: float
    depth: int
    nodes: int


def _key(position: Position) -> Key:
    assert isinstance(position, IsopathPosition)
    return position.heights, position.pieces, position.to_move


class _Search:
    def __init__(
        self,
        lay: _Layout,
        h: list[int],
        p: list[int],
        nodes: int | None,
        deadline: float | None,
        seen: set[Key],
        worn: set[Placement],
    ) -> None:
        self.lay = lay
        self.h = h
        self.p = p
        self.budget = nodes
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[Key, tuple[int, float, Bound, Turn | None]] = {}
        # Evaluations already made, by the position's hash (a position's two tuples would
        # take some 800 bytes an entry; two positions sharing a 64-bit hash are a chance of
        # about one in 10^9 a search, and would only misjudge one leaf): an iteration orders
        # its turns by the evaluations the iteration before made at its horizon.
        self.evals: dict[int, float] = {}
        # The game's earlier positions: reaching one again goes round (the rules have no
        # repetition rule), so it scores as a draw.  (Not the positions on the line being
        # searched: a kept score would then depend on the way there.)
        self.seen = seen
        # The placements the mover's turns have worn out (:func:`_worn`); emptied when the
        # mover is not ahead at the root (see :func:`search`).
        self.worn = worn

    def static(self, key: Key) -> float:
        """The evaluation of the position ``key`` (the board as it stands), made once."""
        tag = hash(key)
        found = self.evals.get(tag)
        if found is not None:
            return found
        self.nodes += 1
        if (self.budget is not None and self.nodes > self.budget) or (
            self.deadline is not None
            and self.nodes % 32 == 0
            and time.perf_counter() > self.deadline
        ):
            raise _Stop
        if len(self.evals) > EVAL_LIMIT:
            self.evals.clear()
        score = self.evals[tag] = _score(self.lay, self.h, self.p, key[2])
        return score

    def round(self, mover: int) -> float:
        """What the turn ``mover`` just played costs for going round: :data:`ROUND` when it
        left the pieces as :data:`WORN` of ``mover``'s earlier turns did, else nothing."""
        return ROUND if self.worn and (tuple(self.p), 1 - mover) in self.worn else 0.0

    def ranked(self, turns: list[Turn], mover: int, ply: int) -> list[Turn]:
        """``turns`` of ``mover`` (to move, ``ply`` plies into the search) best first by one
        look: the evaluation after each for the other side, a win first."""
        lay, h, p = self.lay, self.h, self.p
        keyed = []
        for i, t in enumerate(turns):
            u = _apply(h, p, t)
            if _won(lay, p, t, mover):
                v = -(WIN - ply)
            else:
                v = self.static((tuple(h), tuple(p), 1 - mover)) + self.round(mover)
            _undo(h, p, t, u)
            keyed.append((v, i, t))
        keyed.sort()
        # A turn the one look cannot tell from a better one (the same step, the same score:
        # its tile move elsewhere changed nothing the look sees) goes after the others.
        first, alike = _alike_apart(keyed)
        return first + alike

    def negamax(self, mover: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        lay, h, p = self.lay, self.h, self.p
        if _wins_now(lay, h, p, mover):
            return WIN - ply
        key = (tuple(h), tuple(p), mover)
        if key in self.seen:
            return 0.0
        if depth == 0:
            return self.static(key)
        entry = self.table.get(key)
        first: Turn | None = None
        if entry is not None:
            d, score, bound, first = entry
            if d >= depth and bound.settles(score, alpha, beta):
                return score
        turns = _turns(lay, h, p, mover)
        if not turns:
            return -(WIN - ply)  # no candidate turn: counted as stuck
        rest: list[Turn] = []
        if depth >= 2:
            turns, rest = _kept(lay, p, mover, self.ranked(turns, mover, ply), depth)
        if first is not None and first in turns:
            turns.remove(first)
            turns.insert(0, first)
        start_alpha = alpha
        best = -2 * WIN
        best_turn: Turn | None = None
        i = 0
        while i < len(turns):
            t = turns[i]
            i += 1
            u = _apply(h, p, t)
            try:
                if _won(lay, p, t, mover):
                    score = WIN - ply - 1
                else:
                    cost = self.round(mover)
                    score = (
                        -self.negamax(1 - mover, depth - 1, -beta - cost, -alpha - cost, ply + 1)
                        - cost
                    )
            finally:
                _undo(h, p, t, u)
            if score > best:
                best, best_turn = score, t
            if score > alpha:
                alpha = score
            if alpha >= beta:
                break
            if i == len(turns) and rest and best <= -WIN / 2:
                # Every kept turn loses: a loss is only proven once no turn escapes it, so
                # the turns that looked worse are searched too (a threat the one look
                # misjudged, such as a runner next to a goal space two tiles off).
                turns += rest
                rest = []
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (depth, best, Bound.of(best, start_alpha, beta), best_turn)
        return best


def _score_of(results: list[tuple[float, int, Turn]], turn: Turn) -> float:
    """``turn``'s score among an iteration's ``results`` (0 when it was not searched)."""
    return next((score for score, _, t in results if t == turn), 0.0)


def _settles(depth: int, top: float, answer: float) -> bool:
    """Whether an iteration at ``depth`` whose best turn scored ``top`` and the answer so far
    ``answer`` gives the answer: an odd depth always; an even one when it finds a win, or a
    loss for the answer so far."""
    return depth % 2 == 1 or top >= WIN / 2 or answer <= -WIN / 2


def _next_order(results: list[tuple[float, int, Turn]], rest: list[Turn]) -> list[Turn]:
    """The root's turns in the order the next iteration searches them: those an iteration
    searched (``results``, best first), then ``rest`` (not searched at its depth, in the
    order before); a searched turn with the step and the score of a better one (its tile
    move elsewhere changed nothing the search saw) after all of them, so the few turns
    searched deeper (:data:`ROOT_WIDTH`) hold different steps.

    >>> a, b = (("-", 0, 1),), (("-", 0, 2),)
    >>> twin = (("-", 0, 1), (">", 5, 6))
    >>> _next_order([(3.0, 0, a), (3.0, 1, twin), (1.0, 2, b)], [(("-", 4, 5),)])
    [(('-', 0, 1),), (('-', 0, 2),), (('-', 4, 5),), (('-', 0, 1), ('>', 5, 6))]
    """
    first, alike = _alike_apart(results)
    return first + rest + alike


def _alike_apart(scored: list[tuple[float, int, Turn]]) -> tuple[list[Turn], list[Turn]]:
    """``scored``'s turns (best first) apart: those whose step and score no better one has, and
    the others (both in order)."""
    first: list[Turn] = []
    alike: list[Turn] = []
    looked: set[tuple[tuple[int, int] | None, float]] = set()
    for score, _, t in scored:
        mark = (_step(t), score)
        if mark in looked:
            alike.append(t)
        else:
            looked.add(mark)
            first.append(t)
    return first, alike


def _text(lay: _Layout, turn: Turn) -> str:
    return " ".join(
        "x" + lay.names[a] if kind == "x" else lay.names[a] + kind + lay.names[b]
        for kind, a, b in turn
    )


def _undoing(position: IsopathPosition, roots: list[Turn]) -> set[Turn]:
    """The root turns whose tile move takes back the opponent's last one (that tile put back
    where it came from): two sides doing so turn after turn repeat the same few positions
    for ever, so the side ahead counts such a turn as a draw (score 0) at best."""
    last = position.last_tile
    if last is None:
        return set()
    back = (">", last[1], last[0])
    return {t for t in roots if back in t}


def _own_undoing(history: list[Position], roots: list[Turn]) -> set[Turn]:
    """The root turns that take back the mover's own last tile move or step (its last turn
    made the last of ``history``): going back and forth, the side ahead pays :data:`UNDO`."""
    if not history or not isinstance(history[-1], IsopathPosition):
        return set()
    own = history[-1]
    back = set()
    if own.last_tile is not None:
        back.add((">", own.last_tile[1], own.last_tile[0]))
    if own.last_step is not None:
        back.add(("-", own.last_step[1], own.last_step[0]))
    return {t for t in roots if back.intersection(t)}


def _worn(history: list[Position], mover: int) -> set[Placement]:
    """The placements of both sides' pieces that ``mover``'s turns have left :data:`WORN`
    times or more in ``history`` (the positions with the other side to move).

    The other side can answer each tile threat with a tile somewhere else, so the tiles
    differ while the pieces go round: a turn leaving the pieces as they stood that often
    before costs :data:`ROUND`, for the side ahead not to shuffle for ever."""
    placed = Counter(
        (e.pieces, e.to_move)
        for e in history
        if isinstance(e, IsopathPosition) and e.to_move != mover
    )
    return {k for k, n in placed.items() if n >= WORN}


def search(
    position: Position,
    *,
    nodes: int | None = None,
    deadline: float | None = None,
    max_depth: int = 12,
    history: Iterable[Position] = (),
) -> Found:
    """The best candidate turn of ``position`` (an Iso-Path game still going) by
    iterative-deepening alpha-beta within ``nodes`` evaluations and/or until ``deadline`` (a
    ``time.perf_counter`` value).  Depth 1 is always finished.  A turn back to one of the
    positions of ``history`` (the game's earlier positions), at once or further on, scores as
    a draw, and a turn leaving the pieces as the mover's turns have left them :data:`WORN`
    times costs :data:`ROUND` (:func:`_worn`): the side ahead looks for a way forward instead
    of going round."""
    assert isinstance(position, IsopathPosition)
    if nodes is None and deadline is None:
        raise ValueError("give a search budget: nodes, deadline or both")
    lay = _layout(position)
    h, p = list(position.heights), list(position.pieces)
    mover = position.to_move
    legal = set(position.legal_moves())
    roots = [t for t in _turns(lay, h, p, mover) if _text(lay, t) in legal]
    if not roots:
        move = position.legal_moves()[0]
        return Found(move, 0.0, 0, 0)
    earlier = list(history)
    seen = {_key(e) for e in earlier}
    worn = _worn(earlier, mover)
    state = _Search(lay, h, p, nodes, deadline, seen, worn)
    undoing = _undoing(position, roots)
    looks = []
    for i, t in enumerate(roots):
        u = _apply(h, p, t)
        if _won(lay, p, t, mover):
            _undo(h, p, t, u)
            return Found(_text(lay, t), WIN, 1, state.nodes)
        state.nodes += 1
        again = (tuple(h), tuple(p), 1 - mover) in seen
        v = 0.0 if again else -_score(lay, h, p, 1 - mover)
        looks.append((v, 0.0 if again else state.round(mover), i, t))
        _undo(h, p, t, u)
    # Only the side ahead (its best turn at one look, before any charge, above AHEAD) pays for
    # going round or back: the side behind may hold the game by a shuffle.
    ahead = max(v for v, _, _, _ in looks) > AHEAD
    if not ahead:
        state.worn = set()
    own_back = _own_undoing(earlier, roots) if ahead else set()
    scored = []
    for v, cost, i, t in looks:
        if ahead:
            v -= cost + (UNDO if t in own_back else 0.0)
        if t in undoing and v > 0:
            v = 0.0
        scored.append((-v, i, t))
    scored.sort()
    order = [t for _, _, t in scored]
    best_turn, best_score, done = order[0], -scored[0][0], 1
    # The answer is the last odd depth's (its leaves are judged with the other side to move,
    # as depth 1's are): an even depth judges its leaves with the mover to move, whose next
    # tile move and step the evaluation counts only in part, so the two depths disagree and
    # a search one depth deeper played worse.  An even depth only orders the next one, or
    # settles the answer when it finds a win, or a loss for the odd depth's answer.
    for depth in range(2, max_depth + 1):
        if best_score >= WIN / 2:
            break
        alpha = -2 * WIN
        results: list[tuple[float, int, Turn]] = []
        try:
            for i, t in enumerate(order):
                if depth >= 3 and i >= ROOT_WIDTH and alpha > -WIN / 2:
                    break  # the rest only when every turn searched loses
                u = _apply(h, p, t)
                try:
                    cost = state.round(mover)
                    score = -state.negamax(1 - mover, depth - 1, -2 * WIN, -alpha - cost, 1) - cost
                finally:
                    _undo(h, p, t, u)
                if t in undoing and score > 0:
                    score = 0.0  # a step back towards the position before: a draw at best
                if t in own_back:
                    score -= UNDO
                results.append((score, i, t))
                if score > alpha:
                    alpha = score
        except _Stop:
            if results:
                # The previous best was searched first, so fully: a turn that beat it counts.
                top = max(results, key=lambda r: (r[0], -r[1]))
                if _settles(depth, top[0], _score_of(results, best_turn)):
                    best_score, best_turn = top[0], top[2]
            break
        results.sort(key=lambda r: (-r[0], r[1]))
        top = results[0]
        if _settles(depth, top[0], _score_of(results, best_turn)):
            best_score, best_turn = top[0], top[2]
            done = depth
        order = _next_order(results, order[len(results) :])
        if all(s <= -WIN / 2 for s, _, _ in results):
            break
    return Found(_text(lay, best_turn), best_score, done, state.nodes)


def below_root(position: Position) -> list[str]:
    """The turns the search looks at in ``position`` when it meets it a few plies below its
    root (:data:`THREATS_FROM` or more plies from the horizon): the best :data:`WIDTH` by one
    look and each threatening step's best, the others only when all of those lose.  For the
    candidates' benchmark (``benchmarks/ai_candidates.py``).

    >>> import engines
    >>> p = engines.new("isopath")
    >>> kept = below_root(p)
    >>> WIDTH <= len(kept) < len(p.legal_moves()) and set(kept) <= set(p.legal_moves())
    True
    """
    assert isinstance(position, IsopathPosition)
    lay = _layout(position)
    h, p = list(position.heights), list(position.pieces)
    mover = position.to_move
    state = _Search(lay, h, p, None, None, set(), set())
    ranked = state.ranked(_turns(lay, h, p, mover), mover, 1)
    kept, _ = _kept(lay, p, mover, ranked, THREATS_FROM)
    return [_text(lay, t) for t in kept]


def choose(
    position: Position,
    nodes: int | None,
    deadline: float | None,
    history: Iterable[Position] = (),
) -> tuple[str, int]:
    """:func:`search`'s move and evaluations (the levels' ``own_search``); a budget under
    :data:`ONE_LOOK_BELOW` evaluations (``easy``) looks one turn ahead only: every candidate
    turn judged by the evaluation after it (an immediate win, a piece left to be captured
    and a step the opponent may not be allowed are seen; the opponent's plans are not)."""
    one_look = nodes is not None and nodes < ONE_LOOK_BELOW
    found = search(
        position,
        nodes=nodes,
        deadline=deadline,
        max_depth=1 if one_look else 12,
        history=history,
    )
    return found.move, found.nodes
