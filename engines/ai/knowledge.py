"""What the search knows about each game beyond its rules: playouts, evaluations and threats.

A :class:`Knowledge` answers the few questions the game-agnostic search asks; the base class
knows only the :class:`~engines.base.Position` interface (random playouts to the end), and each
game's subclass adds what measurement showed pays for itself:

* Maphex fills the board at random on plain lists (a full Hex board has exactly one winner,
  so the playout needs no connection test per disc) and uses RAVE;
* inpHeXion scores a new leaf by connection distance at once, Pathagon after a few random
  plies; inpHeXion keys RAVE by the cell the mover placed on, Pathagon by the square it
  filled;
* Lines of Fixation and Iso-Path search with evaluations only (a random game goes on for
  hundreds of plies and one ply costs a full move listing), order the root moves by their
  evaluation and widen the tree progressively.

Every evaluation returns the chance that seat 0 wins, in ``[0, 1]``.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Collection, Iterable, Sequence

from engines.base import Position
from engines.connection import edge_touches
from engines.fixation import MAX_HEIGHT, FixationPosition
from engines.inphexion import InphexionPosition
from engines.isopath import IsopathPosition, piece_moves, tile_ends
from engines.maphex import MaphexPosition
from engines.pathagon import PathagonPosition

__all__ = ["KNOWLEDGE", "Knowledge", "knowledge_of", "result"]

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


def _squash(score: float) -> float:
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
        """A legal move chosen at random (games override this when listing is slow)."""
        return rng.choice(position.legal_moves())

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


def _connection_value(d0: int, d1: int, to_move: int, scale: float) -> float:
    """Seat 0's chance from the two sides' distances; the side to move is half a move up."""
    lead = d1 - d0 + (0.5 if to_move == 0 else -0.5)
    return _squash(scale * lead)


# -- Maphex ---------------------------------------------------------------------------------


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
        return _connection_value(d[0], d[1], position.to_move, 0.6)

    def may_win_now(self, position: Position) -> bool:
        assert isinstance(position, MaphexPosition)
        if position.target is None:
            return False
        s = position.to_move
        return edge_distance(position.cells, s, position.board.neighbours, *position.edges[s]) <= 1


# -- inpHeXion ------------------------------------------------------------------------------


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
        return _connection_value(dist[0], dist[1], position.to_move, 0.6)

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


# -- Pathagon -------------------------------------------------------------------------------


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
        return _connection_value(d[0], d[1], position.to_move, 0.5)

    def may_win_now(self, position: Position) -> bool:
        assert isinstance(position, PathagonPosition)
        s = position.to_move
        return edge_distance(position.cells, s, position.board.neighbours, *position.edges[s]) <= 1


# -- Lines of Fixation ----------------------------------------------------------------------


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
        return _squash(lead)

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


# -- Hexagonal Iso-Path ---------------------------------------------------------------------


class IsopathKnowledge(Knowledge):
    """Evaluation only (material, distance to the goal row, threats); cheap random turns;
    a sample of the root turns (a position has thousands, mostly alike).

    Measured on h4, AI against AI over 6 games: 6 random turns before the evaluation
    against none, both at 300 iterations, 3 of 6 (no better, twice the time per move);
    random playouts to the end (25 iterations, already more time than the cut-off search)
    against the cut-off at 300 iterations, 1 of 6.  Scoring a piece of the side not to move
    next to its goal and out of capture as winning for it, at 600 iterations: 12 of 20
    against the evaluation without it, not clearly better, so not kept.
    """

    playout_depth = 0
    wide = True
    exploration = 0.3
    self_losing = False  # a turn that leaves the opponent stuck wins for the mover
    root_sample = 400
    lazy_moves = True

    def __init__(self) -> None:
        self._distances: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def _goal_distance(self, position: IsopathPosition) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per seat, the steps from every space to that seat's goal (the other home row)."""
        found = self._distances.get(position.size)
        if found is None:
            adj = position.adjacent
            per_seat = []
            for seat in (0, 1):
                goal = position.home_rows[1 - seat]
                dist = [len(adj)] * len(adj)
                todo = deque(goal)
                for c in goal:
                    dist[c] = 0
                while todo:
                    c = todo.popleft()
                    for nb in adj[c]:
                        if dist[nb] > dist[c] + 1:
                            dist[nb] = dist[c] + 1
                            todo.append(nb)
                per_seat.append(tuple(dist))
            found = (per_seat[0], per_seat[1])
            self._distances[position.size] = found
        return found

    def evaluate(self, position: Position) -> float:
        assert isinstance(position, IsopathPosition)
        dist = self._goal_distance(position)
        pieces = position.pieces
        score = [0.0, 0.0]
        for seat in (0, 1):
            mine = [c for c, p in enumerate(pieces) if p == seat]
            if not mine:
                score[seat] -= 20.0
                continue
            ds = sorted(dist[seat][c] for c in mine)
            score[seat] += 2.5 * len(mine) - 0.9 * ds[0] - 0.25 * sum(ds)
        mover = position.to_move
        # The mover may capture what it threatens, and wins with a piece next to the goal.
        score[mover] += 1.5 * len(position.threatened)
        if self.may_win_now(position):
            score[mover] += 6.0
        return _squash(0.8 * (score[0] - score[1]))

    def random_move(self, position: Position, rng: random.Random) -> str:
        assert isinstance(position, IsopathPosition)
        mover = position.to_move
        heights, pieces = position.heights, position.pieces
        names = position.board.names
        goal = position.home_rows[1 - mover]
        steps = piece_moves(position.adjacent, heights, pieces, mover)
        sources, targets = tile_ends(heights, pieces, position.home_rows[mover])
        captures = sorted(position.threatened)
        for _ in range(20):
            kind = rng.randrange(3)
            if kind == 0 and captures:
                cell = rng.choice(captures)
                first = "x" + names[cell]
                if sum(1 for p in pieces if p == 1 - mover) == 1:
                    return first
            elif kind == 1 and steps:
                f, t = rng.choice(steps)
                first = names[f] + "-" + names[t]
                if t in goal:
                    return first
            elif kind == 2 and sources and targets:
                s, d = rng.choice(sources), rng.choice(targets)
                if s == d:
                    continue
                first = names[s] + ">" + names[d]
            else:
                continue
            seconds = position.second_actions(first)
            if seconds:
                return first + " " + rng.choice(seconds)
        return rng.choice(position.legal_moves())

    def win_candidates(self, position: Position) -> Iterable[str]:
        assert isinstance(position, IsopathPosition)
        goal = {position.board.names[c] for c in position.home_rows[1 - position.to_move]}
        out = []
        for move in position.legal_moves():
            last = move.rsplit(" ", 1)[-1]
            if last.startswith("x") or last.rsplit("-", 1)[-1] in goal:
                out.append(move)
        return out

    def may_win_now(self, position: Position) -> bool:
        assert isinstance(position, IsopathPosition)
        mover = position.to_move
        pieces, heights = position.pieces, position.heights
        if position.threatened and sum(1 for p in pieces if p == 1 - mover) == 1:
            return True
        stand = (1, -1)[mover]
        adj = position.adjacent
        for c in position.home_rows[1 - mover]:
            # A tile move then a step wins too, so a goal space one tile off is enough.
            if (
                pieces[c] == EMPTY
                and abs(heights[c] - stand) <= 1
                and any(pieces[nb] == mover for nb in adj[c])
            ):
                return True
        return False

    def quiet(self, position: Position) -> bool:
        assert isinstance(position, IsopathPosition)
        mover = position.to_move
        pieces = position.pieces
        if sum(1 for p in pieces if p == mover) < 2:
            return False
        adj = position.adjacent
        # The opponent's pieces stay put during this turn: only one already next to the
        # mover's home row can step into it next turn.
        return not any(pieces[nb] == 1 - mover for c in position.home_rows[mover] for nb in adj[c])


#: The knowledge of every game, by game name.
KNOWLEDGE: dict[str, Knowledge] = {
    "maphex": MaphexKnowledge(),
    "inphexion": InphexionKnowledge(),
    "pathagon": PathagonKnowledge(),
    "fixation": FixationKnowledge(),
    "isopath": IsopathKnowledge(),
}

_PLAIN = Knowledge()


def knowledge_of(position: Position) -> Knowledge:
    """The knowledge for ``position``'s game (rules-only knowledge for an unknown game)."""
    return KNOWLEDGE.get(position.game, _PLAIN)
