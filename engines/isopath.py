"""Hexagonal Iso-Path (pocket83, 2017): move tiles to build your path, then walk it into the
opponent's home row.  Rules: ``shared/rules/isopath.md``.

Seat 0 is White (climbs: stands on two tiles, home row ``a`` at the top), seat 1 is Black
(digs: stands on the bare board, home row at the bottom).  A turn is two actions in the order
played -- a tile move ``c1>e6``, a piece move ``a4-b4``, or a capture ``xd4`` first -- or one
action when that action already wins.  On h4 the sheet's space numbers 1..37 are accepted in
input (``19>7 2-7``); output always uses letters.

>>> p = new()
>>> p.to_move, p.legal_moves()[:2]
(0, ['b1>b2 a1-b2', 'b1>b2 a2-b2'])
>>> p = p.play("19>7 2-7")
>>> p.last_move, p.last_tile, p.last_step
('d4>b3 a2-b3', (18, 6), (1, 6))
>>> p.second_actions("f2>d4")
['g1-f2', 'g2-f2']
>>> p.completions("31>", limit=2)
['f3>b1 g2-f3', 'f3>b1 g3-f3']
"""

from __future__ import annotations

import enum
import functools
import random
import re
from bisect import insort
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any, ClassVar

from engines.base import (
    BoardShape,
    BoardView,
    Game,
    HeightKind,
    IllegalMove,
    Option,
    Outcome,
    PickerMode,
    Position,
    RatingPool,
    Termination,
    TurnTable,
    load_turn,
    normalize_move,
    shown,
    turn_dict,
)
from engines.board_view import named_cells
from engines.geometry import Hexagon
from engines.isopath_turns import TABLES_KEPT, table_of

__all__ = ["GAME", "IllegalMoveCode", "IsopathPosition", "load", "new", "setup"]

NONE = -1
WHITE, BLACK = 0, 1
#: The height each side's pieces must stand on: White climbs (+1), Black digs (-1).
STAND = (1, -1)
SIDES = ("White", "Black")

_CELL = r"[a-z]?\d+"
_ACTION = re.compile(rf"x(?P<cap>{_CELL})|(?P<a>{_CELL})(?P<sep>[->])(?P<b>{_CELL})")
_NUMBER = re.compile(r"(?<![a-z])\d+")


class IllegalMoveCode(enum.StrEnum):
    """Why a Hexagonal Iso-Path turn is refused (arguments in the comments; ``space`` a
    space's name, ``action`` an action as written canonically)."""

    #: ``space``: a sheet number on the h5 board
    NUMBERS_ONLY_ON_H4 = "isopath.numbers only on h4"
    #: ``space``, ``count``: a sheet number past the last space
    NUMBER_OUT_OF_RANGE = "isopath.number out of range"
    #: ``space``, ``size``
    NOT_A_SPACE = "isopath.not a space"
    #: ``text``
    NOT_AN_ACTION = "isopath.not an action"
    #: ``space``, ``side``: the opponent's side
    CAPTURE_NO_PIECE = "isopath.capture no piece"
    #: ``space``
    NOT_THREATENED = "isopath.not threatened"
    #: ``start``, ``end``: the same space
    TILE_MOVES_NOTHING = "isopath.tile moves nothing"
    #: ``space``
    OWN_HOME_ROW = "isopath.own home row"
    #: ``space``
    TILE_UNDER_PIECE = "isopath.tile under piece"
    #: ``space``
    TILE_ONTO_PIECE = "isopath.tile onto piece"
    #: ``space``
    NO_TILE = "isopath.no tile"
    #: ``space``
    TWO_TILES = "isopath.two tiles"
    #: ``space``, ``side``: the mover's side
    STEP_NO_PIECE = "isopath.step no piece"
    #: ``start``, ``end``
    NOT_NEXT_TO = "isopath.not next to"
    #: ``space``
    SPACE_TAKEN = "isopath.space taken"
    #: ``space``
    CLIMBER_NEEDS_TWO_TILES = "isopath.climber needs two tiles"
    #: ``space``
    DIGGER_NEEDS_BARE_BOARD = "isopath.digger needs bare board"
    TOO_MANY_ACTIONS = "isopath.too many actions"
    ONE_ACTION_ONLY = "isopath.one action only"
    CAPTURE_FIRST = "isopath.capture first"
    #: ``action``
    ALREADY_WINS = "isopath.already wins"
    #: ``action``
    NO_SECOND_ACTION = "isopath.no second action"
    #: ``action``, ``reason``: the :class:`~engines.base.IllegalMove` the second action met
    NO_SECOND_ACTION_BECAUSE = "isopath.no second action because"
    #: ``action``, ``example``: a tile move was given alone
    ADD_PIECE_MOVE = "isopath.add piece move"
    #: ``action``, ``example``: a piece move was given alone
    ADD_TILE_MOVE = "isopath.add tile move"
    #: ``action``, ``example``: a capture was given alone
    ADD_TILE_OR_PIECE_MOVE = "isopath.add tile or piece move"
    TWO_TILE_MOVES = "isopath.two tile moves"
    TWO_PIECE_MOVES = "isopath.two piece moves"


# An action: ("x", cell, -1) capture, (">", from, to) tile move, ("-", from, to) piece move.
Action = tuple[str, int, int]


class _Layout:
    """Everything about one board size that never changes."""

    def __init__(self, size: int) -> None:
        self.size = size
        board = Hexagon(size)
        self.board = board
        rows: list[list[int]] = [[] for _ in range(2 * size - 1)]
        for cell in board.cells:
            rows[board.row(cell)].append(cell)
        self.rows = tuple(tuple(r) for r in rows)
        # Teleports join the two ends of the top row, the middle row and the bottom row.
        self.teleports = tuple((r[0], r[-1]) for r in (rows[0], rows[size - 1], rows[-1]))
        adj = [set(board.neighbours[c]) for c in board.cells]
        for a, b in self.teleports:
            adj[a].add(b)
            adj[b].add(a)
        self.adj: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(a)) for a in adj)
        self.home_rows = (frozenset(rows[0]), frozenset(rows[-1]))
        #: The board drawn: home rows, tiles, and the teleports a winning path may cross.
        self.shape = BoardShape(board, self.home_rows, (), frozenset(), self.adj, HeightKind.TILES)
        self.names = board.names
        self.numbered = size == 4
        heights = [0] * len(board)
        pieces = [NONE] * len(board)
        for cell in rows[0]:
            heights[cell], pieces[cell] = STAND[WHITE], WHITE
        for cell in rows[-1]:
            heights[cell], pieces[cell] = STAND[BLACK], BLACK
        self.start_heights = tuple(heights)
        self.start_pieces = tuple(pieces)

    def cell(self, token: str) -> int:
        """The cell named by ``token``: a letter name, or a sheet number on h4."""
        if token.isdigit():
            if not self.numbered:
                raise IllegalMove(IllegalMoveCode.NUMBERS_ONLY_ON_H4, space=shown(token))
            number = int(token)
            if not 1 <= number <= len(self.names):
                raise IllegalMove(
                    IllegalMoveCode.NUMBER_OUT_OF_RANGE, space=shown(token), count=len(self.names)
                )
            return number - 1
        cell = self.board.index.get(token)
        if cell is None:
            raise IllegalMove(IllegalMoveCode.NOT_A_SPACE, space=shown(token), size=self.size)
        return cell

    def parse_action(self, token: str) -> Action:
        """One action token (already normalised) as an :data:`Action`."""
        match = _ACTION.fullmatch(token)
        if match is None:
            raise IllegalMove(IllegalMoveCode.NOT_AN_ACTION, text=shown(token))
        if match["cap"] is not None:
            return ("x", self.cell(match["cap"]), NONE)
        return (match["sep"], self.cell(match["a"]), self.cell(match["b"]))

    def text(self, action: Action) -> str:
        """The canonical spelling of ``action``."""
        kind, a, b = action
        if kind == "x":
            return "x" + self.names[a]
        return self.names[a] + kind + self.names[b]

    def letter_prefixes(self, text: str) -> list[str]:
        """``text`` (a partly typed turn) with sheet numbers turned into letter names.

        A number still being typed at the very end may be the start of several numbers, so
        every letter spelling it could become is returned; a bad number gives ``[]``.
        """
        if not self.numbered:
            return [text]
        out = [""]
        pos = 0
        for match in _NUMBER.finditer(text):
            digits = match.group()
            last = match.end() == len(text)
            number = int(digits)
            if last:
                names = [n for i, n in enumerate(self.names) if str(i + 1).startswith(digits)]
            elif 1 <= number <= len(self.names):
                names = [self.names[number - 1]]
            else:
                names = []
            head = text[pos : match.start()]
            out = [o + head + n for o in out for n in names]
            pos = match.end()
        return [o + text[pos:] for o in out]


_LAYOUTS = {size: _Layout(size) for size in (4, 5)}


class _Turn:
    """The mover's view of one position, computed once: everything the move generator,
    the validator and autocompletion share.  Pure data over the position's tuples."""

    def __init__(
        self, layout: _Layout, heights: tuple[int, ...], pieces: tuple[int, ...], mover: int
    ):
        self.layout = layout
        self.heights = heights
        self.pieces = pieces
        self.mover = mover
        self.stand = STAND[mover]
        self.own_home = layout.home_rows[mover]
        self.goal = layout.home_rows[1 - mover]
        adj = layout.adj
        self.theirs = [c for c, p in enumerate(pieces) if p == 1 - mover]
        self.steps = piece_moves(adj, heights, pieces, mover)
        self.sources, self.targets = tile_ends(heights, pieces, self.own_home)
        self.threatened = tuple(
            c for c in self.theirs if sum(1 for n in adj[c] if pieces[n] == mover) >= 2
        )

    # -- the second actions after a first one -------------------------------------------

    def after_tile(self, src: int, dst: int) -> list[str]:
        """Piece moves (canonical text) possible after the tile move ``src>dst``.

        Only the heights of ``src`` and ``dst`` change, so the piece moves of the position are
        kept except those into ``src`` or ``dst``, which are recomputed.
        """
        names, heights, pieces, mover, stand = (
            self.layout.names,
            self.heights,
            self.pieces,
            self.mover,
            self.stand,
        )
        out = [names[f] + "-" + names[t] for f, t in self.steps if t != src and t != dst]
        for cell, height in ((src, heights[src] - 1), (dst, heights[dst] + 1)):
            if height == stand:
                tail = "-" + names[cell]
                out.extend(names[f] + tail for f in self.layout.adj[cell] if pieces[f] == mover)
        return out

    def tile_ends_after_step(self, src: int, dst: int) -> tuple[list[int], list[int]]:
        """Tile sources and targets after the mover's piece went from ``src`` to ``dst``."""
        sources = [c for c in self.sources if c != dst]
        targets = [c for c in self.targets if c != dst]
        if src not in self.own_home:
            # The space just left counts as empty for the tile move (settled, point 6).
            if self.heights[src] >= 0:
                insort(sources, src)
            if self.heights[src] <= 0:
                insort(targets, src)
        return sources, targets

    def after_step(self, src: int, dst: int) -> list[str]:
        """Tile moves (canonical text) possible after the piece move ``src-dst``."""
        sources, targets = self.tile_ends_after_step(src, dst)
        return tile_texts(self.layout.names, sources, targets)

    def after_capture(self, cell: int) -> list[str] | None:
        """Second actions after capturing ``cell``: piece moves, then tile moves; ``None`` if
        the capture takes the last piece and so wins at once."""
        if len(self.theirs) == 1:
            return None
        pieces = list(self.pieces)
        pieces[cell] = NONE
        left = tuple(pieces)
        layout = self.layout
        steps = piece_moves(layout.adj, self.heights, left, self.mover)
        out = [layout.names[f] + "-" + layout.names[t] for f, t in steps]
        sources, targets = tile_ends(self.heights, left, self.own_home)
        out.extend(tile_texts(layout.names, sources, targets))
        return out

    def seconds(self, action: Action) -> list[str] | None:
        """Second actions after the (legal) first ``action``; ``None`` if it wins alone."""
        kind, a, b = action
        if kind == "x":
            return self.after_capture(a)
        if kind == "-":
            return None if b in self.goal else self.after_step(a, b)
        return self.after_tile(a, b)

    # -- first actions, in canonical order ------------------------------------------------

    @cached_property
    def _opens(self) -> tuple[list[bool], list[bool]]:
        """Per space: would taking a tile from it / putting one on it bring it to the
        mover's height next to one of the mover's pieces (so opening a step)?"""
        heights, pieces, adj, mover, stand = (
            self.heights,
            self.pieces,
            self.layout.adj,
            self.mover,
            self.stand,
        )
        near = [any(pieces[n] == mover for n in adj[c]) for c in range(len(heights))]
        return (
            [near[c] and heights[c] - 1 == stand for c in range(len(heights))],
            [near[c] and heights[c] + 1 == stand for c in range(len(heights))],
        )

    def firsts(self, heads: Sequence[str] = ("",)) -> Iterator[tuple[str, Action]]:
        """First actions with their text, in the order of :meth:`all_turns`: captures, piece
        moves, tile moves.  Tile moves after which no piece can move are left out, and so
        are tile moves whose text cannot agree with any of the typed ``heads``; the others
        may still be dead ends (:meth:`seconds` tells what may follow)."""
        names = self.layout.names
        for cell in self.threatened:
            yield "x" + names[cell], ("x", cell, NONE)
        for f, t in self.steps:
            yield names[f] + "-" + names[t], ("-", f, t)
        step_targets = sorted({t for _, t in self.steps})
        kept = len(step_targets) > 2  # a tile move touches two spaces: some step survives
        opens_src, opens_dst = self._opens
        for s in self.sources:
            head = names[s] + ">"
            if not any(head[: len(h)] == h[: len(head)] for h in heads):
                continue
            for d in self.targets:
                if d == s:
                    continue
                # Same test as after_tile() being non-empty, without building it.
                if (
                    kept
                    or opens_src[s]
                    or opens_dst[d]
                    or any(t != s and t != d for t in step_targets)
                ):
                    yield head + names[d], (">", s, d)

    def all_turns(self) -> list[str]:
        """Every legal turn in canonical order (the same order as :meth:`firsts`)."""
        out: list[str] = []
        add = out.append
        extend = out.extend
        names = self.layout.names
        for cell in self.threatened:
            first = "x" + names[cell]
            rest = self.after_capture(cell)
            if rest is None:
                add(first)
            else:
                extend([first + " " + r for r in rest])
        goal = self.goal
        for f, t in self.steps:
            first = names[f] + "-" + names[t]
            if t in goal:
                add(first)
            else:
                extend(self._step_first(f, t))
        for s in self.sources:
            extend(self._tile_first(s))
        return out

    def chunks(self) -> Iterator[tuple[int, Callable[[], list[str]]]]:
        """:meth:`all_turns` in pieces, in its order: per piece, how many turns it holds and
        a function listing them (only the counts are worked out as the pieces go by, from
        the spaces' numbers, without a text).  :meth:`IsopathPosition.random_move` reads
        them: one turn of thousands, without listing them all."""
        names = self.layout.names
        for cell in self.threatened:
            first = "x" + names[cell]
            rest = self.after_capture(cell)
            if rest is None:
                yield 1, functools.partial(_prefixed, first, [""])
            else:
                yield len(rest), functools.partial(_prefixed, first + " ", rest)
        goal = self.goal
        for f, t in self.steps:
            first = names[f] + "-" + names[t]
            if t in goal:
                yield 1, functools.partial(_prefixed, first, [""])
                continue
            sources, targets = self.tile_ends_after_step(f, t)
            tiles = len(sources) * len(targets) - len(set(sources).intersection(targets))
            yield tiles, functools.partial(self._step_first, f, t)
        heights, pieces, adj, mover, stand = (
            self.heights,
            self.pieces,
            self.layout.adj,
            self.mover,
            self.stand,
        )
        into: dict[int, int] = {}  # per space, the piece moves into it
        for _, t in self.steps:
            into[t] = into.get(t, 0) + 1
        steps = len(self.steps)
        # Per space, the piece moves a tile onto it (from it) opens: to the mover's height.
        onto = [
            sum(1 for f in adj[c] if pieces[f] == mover) if heights[c] + 1 == stand else 0
            for c in range(len(heights))
        ]
        off = [
            sum(1 for f in adj[c] if pieces[f] == mover) if heights[c] - 1 == stand else 0
            for c in range(len(heights))
        ]
        # A tile from ``s`` onto each target ``d``: the piece moves not into ``s`` or ``d``,
        # those it opens into ``s`` and those it opens into ``d``; summed over the targets.
        targets = self.targets
        into_targets = sum(onto[d] - into.get(d, 0) for d in targets)
        for s in self.sources:
            kept = steps - into.get(s, 0) + off[s]
            if s in targets:  # few: the spaces at the middle height
                count = kept * (len(targets) - 1) + into_targets - (onto[s] - into.get(s, 0))
            else:
                count = kept * len(targets) + into_targets
            yield count, functools.partial(self._tile_first, s)

    def _step_first(self, f: int, t: int) -> list[str]:
        """The turns of :meth:`all_turns` whose first action is the piece move ``f-t``."""
        names = self.layout.names
        return _prefixed(names[f] + "-" + names[t] + " ", self.after_step(f, t))

    @cached_property
    def _step_tails(self) -> list[tuple[int, str]]:
        """Per piece move, its target and its text after a build (`` a4-b4``)."""
        names = self.layout.names
        return [(t, " " + names[f] + "-" + names[t]) for f, t in self.steps]

    def _tile_first(self, s: int) -> list[str]:
        """The turns of :meth:`all_turns` whose first action is a tile move from ``s``: the
        piece moves that survive every tile move except those touching their target are
        shared, so only the two touched spaces are looked at per tile move."""
        names, heights, pieces, adj, mover, stand = (
            self.layout.names,
            self.heights,
            self.pieces,
            self.layout.adj,
            self.mover,
            self.stand,
        )
        out: list[str] = []
        extend = out.extend
        head = names[s] + ">"
        keep_s = [(t, text) for t, text in self._step_tails if t != s]
        extra_s: list[str] = []
        if heights[s] - 1 == stand:
            tail = "-" + names[s]
            extra_s = [" " + names[f] + tail for f in adj[s] if pieces[f] == mover]
        for d in self.targets:
            if d == s:
                continue
            first = head + names[d]
            extend([first + text for t, text in keep_s if t != d])
            if extra_s:
                extend([first + text for text in extra_s])
            if heights[d] + 1 == stand:
                tail = "-" + names[d]
                extend([first + " " + names[f] + tail for f in adj[d] if pieces[f] == mover])
        return out

    def any_turn(self) -> bool:
        """Whether the mover has at least one legal turn (cheaper than listing them)."""
        for cell in self.threatened:
            rest = self.after_capture(cell)
            if rest is None or rest:
                return True
        for f, t in self.steps:
            if t in self.goal:
                return True
            sources, targets = self.tile_ends_after_step(f, t)
            if sources and targets and (len(sources) > 1 or len(targets) > 1 or sources != targets):
                return True
        # firsts() lists exactly the tile moves after which some piece can move.
        return any(action[0] == ">" for _, action in self.firsts())

    # -- validation with reasons ------------------------------------------------------------

    def check(self, action: Action, heights: tuple[int, ...], pieces: tuple[int, ...]) -> None:
        """Raise :class:`IllegalMove` naming the rule if ``action`` cannot be played on
        ``heights``/``pieces`` (the position before it, within this turn)."""
        kind, a, b = action
        names = self.layout.names
        if kind == "x":
            if pieces[a] != 1 - self.mover:
                raise IllegalMove(
                    IllegalMoveCode.CAPTURE_NO_PIECE, space=names[a], side=SIDES[1 - self.mover]
                )
            if a not in self.threatened:
                raise IllegalMove(IllegalMoveCode.NOT_THREATENED, space=names[a])
        elif kind == ">":
            check_tile(names, heights, pieces, self.own_home, a, b)
        else:
            check_step(self.layout, heights, pieces, self.mover, a, b)


def _prefixed(head: str, rest: list[str]) -> list[str]:
    """Each of ``rest`` after ``head``."""
    return [head + r for r in rest]


def piece_moves(
    adj: Sequence[Sequence[int]], heights: Sequence[int], pieces: Sequence[int], mover: int
) -> list[tuple[int, int]]:
    """Every (from, to) piece move of ``mover``: to an adjacent empty space at its height."""
    stand = STAND[mover]
    return [
        (f, t)
        for f, p in enumerate(pieces)
        if p == mover
        for t in adj[f]
        if pieces[t] == NONE and heights[t] == stand
    ]


def tile_ends(
    heights: Sequence[int], pieces: Sequence[int], own_home: frozenset[int]
) -> tuple[list[int], list[int]]:
    """The spaces a tile may be taken from and put on: no piece, not the mover's home row,
    at least one tile to take / room for one more."""
    free = [c for c, p in enumerate(pieces) if p == NONE and c not in own_home]
    return [c for c in free if heights[c] >= 0], [c for c in free if heights[c] <= 0]


def tile_texts(names: Sequence[str], sources: Iterable[int], targets: Sequence[int]) -> list[str]:
    """Canonical texts of every tile move from ``sources`` to ``targets`` (not in place)."""
    out: list[str] = []
    for s in sources:
        head = names[s] + ">"
        out.extend([head + names[d] for d in targets if d != s])
    return out


def check_tile(
    names: Sequence[str],
    heights: Sequence[int],
    pieces: Sequence[int],
    own_home: frozenset[int],
    src: int,
    dst: int,
) -> None:
    """Raise :class:`IllegalMove` if a tile cannot go from ``src`` to ``dst``."""
    if src == dst:
        raise IllegalMove(IllegalMoveCode.TILE_MOVES_NOTHING, start=names[src], end=names[dst])
    for cell in (src, dst):
        if cell in own_home:
            raise IllegalMove(IllegalMoveCode.OWN_HOME_ROW, space=names[cell])
    if pieces[src] != NONE:
        raise IllegalMove(IllegalMoveCode.TILE_UNDER_PIECE, space=names[src])
    if pieces[dst] != NONE:
        raise IllegalMove(IllegalMoveCode.TILE_ONTO_PIECE, space=names[dst])
    if heights[src] < 0:
        raise IllegalMove(IllegalMoveCode.NO_TILE, space=names[src])
    if heights[dst] > 0:
        raise IllegalMove(IllegalMoveCode.TWO_TILES, space=names[dst])


def check_step(
    layout: _Layout,
    heights: Sequence[int],
    pieces: Sequence[int],
    mover: int,
    src: int,
    dst: int,
) -> None:
    """Raise :class:`IllegalMove` if ``mover``'s piece cannot step from ``src`` to ``dst``."""
    names = layout.names
    if pieces[src] != mover:
        raise IllegalMove(IllegalMoveCode.STEP_NO_PIECE, space=names[src], side=SIDES[mover])
    if dst not in layout.adj[src]:
        raise IllegalMove(IllegalMoveCode.NOT_NEXT_TO, start=names[src], end=names[dst])
    if pieces[dst] != NONE:
        raise IllegalMove(IllegalMoveCode.SPACE_TAKEN, space=names[dst])
    if heights[dst] != STAND[mover]:
        if mover == WHITE:
            raise IllegalMove(IllegalMoveCode.CLIMBER_NEEDS_TWO_TILES, space=names[dst])
        raise IllegalMove(IllegalMoveCode.DIGGER_NEEDS_BARE_BOARD, space=names[dst])


def _apply(
    action: Action, heights: tuple[int, ...], pieces: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    kind, a, b = action
    if kind == ">":
        h = list(heights)
        h[a] -= 1
        h[b] += 1
        return tuple(h), pieces
    p = list(pieces)
    if kind == "x":
        p[a] = NONE
    else:
        p[b], p[a] = p[a], NONE
    return heights, tuple(p)


#: What a turn's first action given alone still needs (by kind: tile, piece move, capture).
_ADD = {
    ">": IllegalMoveCode.ADD_PIECE_MOVE,
    "-": IllegalMoveCode.ADD_TILE_MOVE,
    "x": IllegalMoveCode.ADD_TILE_OR_PIECE_MOVE,
}


@dataclass(frozen=True)
class IsopathPosition(Position):
    """A Hexagonal Iso-Path position.

    Render-facing attributes: ``board`` (:class:`~engines.geometry.Hexagon`), ``size`` (4|5),
    ``heights`` (per space: -1 bare board, 0 one tile, +1 two tiles), ``pieces`` (-1 none,
    0 White, 1 Black), ``home_rows`` (White's row ``a``, Black's last row), ``teleports``,
    ``threatened`` (opponent pieces the mover may capture now), ``last_tile``, ``last_step``,
    ``last_capture``, ``space_number(cell)``.  Bot helpers: ``second_actions(first)`` and a
    cheap ``completions(prefix, limit)``.
    """

    size: int
    heights: tuple[int, ...]
    pieces: tuple[int, ...]
    to_move: int
    ply: int
    last_move: str | None
    outcome: Outcome | None
    game: str = "isopath"
    sides: ClassVar[tuple[str, str]] = SIDES

    @property
    def _layout(self) -> _Layout:
        return _LAYOUTS[self.size]

    @cached_property
    def _turn(self) -> _Turn:
        return _Turn(self._layout, self.heights, self.pieces, self.to_move)

    @property
    def board(self) -> Hexagon:
        """The board geometry (a hexagon of side 4 or 5)."""
        return self._layout.board

    def board_view(self) -> BoardView:
        """The pieces, the tiles under every space, the last turn's spaces, what won."""
        last, won = named_cells(self.board, self.last_move), self.winning_cells
        return BoardView(self._layout.shape, self.pieces, self.heights, last, won)

    @property
    def home_rows(self) -> tuple[frozenset[int], frozenset[int]]:
        """``home_rows[seat]``: White's is row ``a`` (top), Black's the last row."""
        return self._layout.home_rows

    @property
    def teleports(self) -> tuple[tuple[int, int], ...]:
        """The three pairs of spaces that count as adjacent across the board."""
        return self._layout.teleports

    @property
    def adjacent(self) -> tuple[tuple[int, ...], ...]:
        """``adjacent[cell]``: the spaces next to ``cell``, teleport partners included."""
        return self._layout.adj

    @cached_property
    def threatened(self) -> frozenset[int]:
        """Opponent pieces under threat, which the player to move may capture this turn: each
        has at least two of the mover's pieces next to it (teleports included).  (A capture
        is still refused in the freak case where no second action could follow it.)  Empty
        once the game is over."""
        if self.outcome is not None:
            return frozenset()
        return frozenset(self._turn.threatened)

    def space_number(self, cell: int) -> int | None:
        """The rule sheet's number of ``cell`` (1..37 on h4, row by row); ``None`` on h5."""
        return cell + 1 if self._layout.numbered else None

    @cached_property
    def _last_actions(self) -> tuple[Action, ...]:
        if self.last_move is None:
            return ()
        return tuple(self._layout.parse_action(t) for t in self.last_move.split(" "))

    @property
    def last_tile(self) -> tuple[int, int] | None:
        """The last turn's tile move as (from, to), if it had one."""
        return next(((a, b) for k, a, b in self._last_actions if k == ">"), None)

    @property
    def last_step(self) -> tuple[int, int] | None:
        """The last turn's piece move as (from, to), if it had one."""
        return next(((a, b) for k, a, b in self._last_actions if k == "-"), None)

    @cached_property
    def winning_cells(self) -> frozenset[int]:
        """The winner's piece on the opponent's home row after a "home row" win; empty while
        the game goes on and after other wins."""
        out = self.outcome
        if out is None or out.winner is None or out.termination is not Termination.HOME_ROW:
            return frozenset()
        who = out.winner
        goal = self._layout.home_rows[1 - who]
        return frozenset(c for c in goal if self.pieces[c] == who)

    @property
    def last_capture(self) -> int | None:
        """The space of the piece captured in the last turn, if any."""
        return next((a for k, a, _ in self._last_actions if k == "x"), None)

    @cached_property
    def _legal(self) -> tuple[str, ...]:
        return tuple(self.listed_turns())

    def legal_moves(self) -> list[str]:
        return list(self._legal)

    def listed_turns(self) -> list[str]:
        """The legal moves, as :meth:`legal_moves` gives them, listed afresh and not kept on
        the position: a search whose table keeps many positions would otherwise keep every
        one's list (some 300 kB a position)."""
        if self.outcome is not None:
            return []
        return self._turn.all_turns()

    def random_move(self, rng: random.Random) -> str:
        """``rng.choice(self.legal_moves())``, the same turn by the same draw from ``rng``,
        without listing the thousands of turns: only their count and the few turns that share
        the chosen one's first action (:meth:`_Turn.chunks`).  A random game's turn at a
        fraction of the price.

        >>> p = new()
        >>> p.random_move(random.Random(3)) == random.Random(3).choice(p.legal_moves())
        True
        """
        chunks = list(self._turn.chunks()) if self.outcome is None else []
        index = rng.choice(range(sum(count for count, _ in chunks)))
        for count, listed in chunks:
            if index < count:
                return listed()[index]
            index -= count
        raise AssertionError("the chunks hold fewer turns than they count")

    def _parse(self, move: object) -> list[Action]:
        text = normalize_move(move)
        tokens = text.split(" ")
        merged: list[str] = []
        for token in tokens:
            # "x d4" is a capture too: glue a lone x to the space after it.
            if merged and merged[-1] == "x":
                merged[-1] += token
            else:
                merged.append(token)
        if len(merged) > 2:
            raise IllegalMove(IllegalMoveCode.TOO_MANY_ACTIONS)
        return [self._layout.parse_action(t) for t in merged]

    def _first(self, action: Action) -> tuple[tuple[int, ...], tuple[int, ...], list[str] | None]:
        """Check ``action`` as a first action; the heights and pieces after it and its
        second actions (``None`` when it wins alone)."""
        turn = self._turn
        turn.check(action, self.heights, self.pieces)
        heights, pieces = _apply(action, self.heights, self.pieces)
        return heights, pieces, turn.seconds(action)

    def second_actions(self, first: str) -> list[str]:
        """The second actions that complete a legal turn after the action ``first`` (any
        spelling :meth:`play` accepts), in canonical text.

        ``[]`` when ``first`` wins on its own (the turn ends there) or when nothing can follow
        it (then it is not a legal start).  Raises :class:`IllegalMove` if ``first`` is not a
        single action that can be played now.
        """
        self._over_check()
        actions = self._parse(first)
        if len(actions) != 1:
            raise IllegalMove(IllegalMoveCode.ONE_ACTION_ONLY)
        _, _, rest = self._first(actions[0])
        return [] if rest is None else rest

    def completions(self, prefix: str, limit: int = 25) -> list[str]:
        """The first ``limit`` legal turns (in :meth:`legal_moves` order) that start with the
        partly typed ``prefix``, built without listing every turn.  Sheet numbers in the
        prefix are read as their letter names on h4."""
        if self.outcome is not None or limit <= 0:
            return []
        try:
            text = normalize_move(prefix)
        except IllegalMove:
            text = ""
        text = re.sub(r"(?:^| )x ", lambda m: m.group().rstrip(), text)
        alternatives = self._layout.letter_prefixes(text)
        out: list[str] = []
        turn = self._turn
        for first, action in turn.firsts(alternatives):
            if any(first.startswith(a) for a in alternatives):
                partial = None  # every turn starting with this action matches
            else:
                spaced = first + " "
                partial = [a for a in alternatives if a.startswith(spaced)]
                if not partial:
                    continue
            seconds = turn.seconds(action)
            if seconds is None:
                if partial is None:
                    out.append(first)
            elif partial is None:
                out.extend(first + " " + second for second in seconds[: limit - len(out)])
            else:
                for second in seconds:
                    text = first + " " + second
                    if any(text.startswith(a) for a in partial):
                        out.append(text)
                        if len(out) >= limit:
                            break
            if len(out) >= limit:
                return out
        return out

    def play(self, move: str) -> IsopathPosition:
        self._over_check()
        actions = self._parse(move)
        layout = self._layout
        first = actions[0]
        if first[0] != "x" and len(actions) == 2 and actions[1][0] == "x":
            raise IllegalMove(IllegalMoveCode.CAPTURE_FIRST)
        heights, pieces, rest = self._first(first)
        first_text = layout.text(first)
        mover = self.to_move
        outcome: Outcome | None = None
        if rest is None:
            if len(actions) > 1:
                raise IllegalMove(IllegalMoveCode.ALREADY_WINS, action=first_text)
            outcome = Outcome(
                mover,
                Termination.LAST_PIECE_CAPTURED if first[0] == "x" else Termination.HOME_ROW,
            )
            text = first_text
        else:
            if len(actions) == 1:
                if not rest:
                    raise IllegalMove(IllegalMoveCode.NO_SECOND_ACTION, action=first_text)
                raise IllegalMove(_ADD[first[0]], action=first_text, example=rest[0])
            second = actions[1]
            if second[0] == "x":
                raise IllegalMove(IllegalMoveCode.CAPTURE_FIRST)
            if second[0] == first[0]:
                raise IllegalMove(
                    IllegalMoveCode.TWO_TILE_MOVES
                    if first[0] == ">"
                    else IllegalMoveCode.TWO_PIECE_MOVES
                )
            try:
                self._turn.check(second, heights, pieces)
            except IllegalMove as exc:
                if not rest:
                    raise IllegalMove(
                        IllegalMoveCode.NO_SECOND_ACTION_BECAUSE, action=first_text, reason=exc
                    ) from None
                raise
            heights, pieces = _apply(second, heights, pieces)
            if second[0] == "-" and second[2] in layout.home_rows[1 - mover]:
                outcome = Outcome(mover, Termination.HOME_ROW)
            text = first_text + " " + layout.text(second)
        nxt = IsopathPosition(self.size, heights, pieces, 1 - mover, self.ply + 1, text, outcome)
        if outcome is None and not nxt._turn.any_turn():
            nxt = IsopathPosition(
                self.size, heights, pieces, 1 - mover, self.ply + 1, text,
                Outcome(mover, Termination.NO_LEGAL_TURN),
            )  # fmt: skip
        return nxt

    def to_dict(self) -> dict[str, Any]:
        symbol = {(1, WHITE): "w", (-1, BLACK): "b", (1, NONE): "+", (0, NONE): ".",
                  (-1, NONE): "-"}  # fmt: skip
        rows = [
            "".join(symbol[(self.heights[c], self.pieces[c])] for c in row)
            for row in self._layout.rows
        ]
        return {
            "game": self.game,
            "size": self.size,
            "rows": rows,
            **turn_dict(self),
        }


def new(size: int = 4) -> IsopathPosition:
    """The start position: White's home row raised (+1), Black's dug (-1), every piece home,
    White to move."""
    layout = _LAYOUTS[size]
    return IsopathPosition(size, layout.start_heights, layout.start_pieces, WHITE, 0, None, None)


def setup(
    white: Iterable[str | int] = (),
    black: Iterable[str | int] = (),
    heights: Mapping[str | int, int] | None = None,
    to_move: int = WHITE,
    size: int = 4,
) -> IsopathPosition:
    """A hand-made position, for tests, puzzles and examples.

    Spaces are letter names (``"d4"``) or, on h4, the sheet's numbers (``19``).  Heights start
    as in the start position (White's home row +1, Black's -1, the rest 0); ``heights`` then
    overrides single spaces (-1, 0 or +1) and every piece's space gets its side's height
    (+1 White, -1 Black).  The tile total is not kept: the rules never depend on it.  The
    outcome is filled in when the game is already decided (a piece on the opponent's home
    row, a side with no piece, or no legal turn for the player to move).

    >>> p = setup(white=[7], black=[12, 13], to_move=1)
    >>> sorted(p.board.name(c) for c in p.threatened)
    ['b3']
    """
    layout = _LAYOUTS[size]

    def cell(ref: str | int) -> int:
        return layout.cell(str(ref).lower())

    h = [0] * len(layout.names)
    for c in layout.home_rows[WHITE]:
        h[c] = STAND[WHITE]
    for c in layout.home_rows[BLACK]:
        h[c] = STAND[BLACK]
    for ref, value in (heights or {}).items():
        if value not in (-1, 0, 1):
            raise ValueError(f"height of {ref} must be -1, 0 or 1, not {value!r}")
        h[cell(ref)] = value
    p = [NONE] * len(layout.names)
    for side, refs in ((WHITE, white), (BLACK, black)):
        for ref in refs:
            c = cell(ref)
            if p[c] != NONE:
                raise ValueError(f"two pieces on {layout.names[c]}")
            p[c], h[c] = side, STAND[side]
    return _decided(IsopathPosition(size, tuple(h), tuple(p), to_move, 0, None, None))


def _decided(pos: IsopathPosition) -> IsopathPosition:
    """``pos`` with its outcome filled in if the game is already over."""
    layout = pos._layout
    outcome = None
    for side in (WHITE, BLACK):
        if any(pos.pieces[c] == side for c in layout.home_rows[1 - side]):
            outcome = Outcome(side, Termination.HOME_ROW)
        elif side not in pos.pieces:
            outcome = Outcome(1 - side, Termination.LAST_PIECE_CAPTURED)
    if outcome is None and not pos._turn.any_turn():
        outcome = Outcome(1 - pos.to_move, Termination.NO_LEGAL_TURN)
    if outcome is None:
        return pos
    return IsopathPosition(
        pos.size, pos.heights, pos.pieces, pos.to_move, pos.ply, pos.last_move, outcome
    )


def load(d: Mapping[str, Any]) -> IsopathPosition:
    """Rebuild a position from :meth:`IsopathPosition.to_dict` output (``ValueError`` if it
    is not a consistent Iso-Path position)."""
    size = d["size"]
    if size not in _LAYOUTS or isinstance(size, bool):
        raise ValueError(f"bad Iso-Path size {size!r}")
    layout = _LAYOUTS[size]
    rows = d["rows"]
    if not isinstance(rows, list) or [len(r) for r in rows] != [len(r) for r in layout.rows]:
        raise ValueError("Iso-Path rows do not match the board size")
    values = {"w": (1, WHITE), "b": (-1, BLACK), "+": (1, NONE), ".": (0, NONE), "-": (-1, NONE)}
    cells = [values[ch] for row in rows for ch in row]
    heights = tuple(h for h, _ in cells)
    pieces = tuple(p for _, p in cells)
    if pieces.count(WHITE) > size or pieces.count(BLACK) > size:
        raise ValueError("too many Iso-Path pieces")
    to_move, ply, last, outcome = load_turn(d, "Iso-Path")
    if last is not None:
        try:
            for token in last.split(" "):
                layout.parse_action(token)
        except IllegalMove as exc:
            raise ValueError(f"bad Iso-Path last move: {exc}") from None
    return IsopathPosition(size, heights, pieces, to_move, ply, last, outcome)


def turn_table(position: Position) -> TurnTable:
    """Every legal turn of ``position`` by its two steps (:mod:`engines.isopath_turns`), the
    board picker's data.  The tables of the last :data:`~engines.isopath_turns.TABLES_KEPT`
    positions are kept (a picker's steps all read the same position; mid-game an h5 position
    has ~20,000 turns)."""
    if not isinstance(position, IsopathPosition):
        raise TypeError(f"not an Iso-Path position: {position.game}")
    if position.outcome is not None:
        return {}
    return _table(position.size, position.heights, position.pieces, position.to_move)


@functools.lru_cache(maxsize=TABLES_KEPT)
def _table(size: int, heights: tuple[int, ...], pieces: tuple[int, ...], to_move: int) -> TurnTable:
    return MappingProxyType(
        table_of(IsopathPosition(size, heights, pieces, to_move, 0, None, None).legal_moves())
    )


GAME = Game(
    name="isopath",
    title=(TITLE := "Hexagonal Iso-Path"),
    sides=SIDES,
    options=(
        Option("size", (4, 5), 4, "board: 4 (h4, 37 spaces, 4 pieces each) or 5 (h5, 61, 5 each)"),
    ),
    start=new,
    load=load,
    terminations=frozenset(
        {Termination.HOME_ROW, Termination.LAST_PIECE_CAPTURED, Termination.NO_LEGAL_TURN}
    ),
    codes=IllegalMoveCode,
    rating_pools=tuple(RatingPool(f"isopath{n}", f"{TITLE} h{n}", (("size", n),)) for n in (4, 5)),
    picker=PickerMode.BOARD,
    turns=turn_table,
    ai="engines.ai.isopath_player",
)
