"""inpHeXion (Masahiro Nakajima, 2014): a connection game where every turn pushes one of your
opponent's discs aside and takes its place.  Rules: ``shared/rules/inphexion.md``.

White (seat 0 at the start) connects the top and bottom rows, Black the left and right columns.
White opens by placing one disc anywhere; with the pie option Black may then answer ``swap``
and the two players exchange colours.  After that a turn is ``c3-c4`` (push the opponent's disc
from c3 to the empty neighbour c4 and place your own disc on c3) followed by one ``from>to``
part per opponent disc the turn newly surrounds, which you must send to an empty cell.

Seats and colours are kept apart: ``to_move`` and ``outcome.winner`` are seats, ``cells`` holds
colours, and ``colours[seat]`` says which colour a seat plays now.

>>> p = new(size=7, pie=True)
>>> p = p.play("D4")
>>> p.to_move, p.legal_moves()[:3]
(1, ['swap', 'd4-c4', 'd4-e4'])
>>> p = p.play("swap")
>>> p.to_move, p.colours, p.seat_sides
(0, (1, 0), ('Black', 'White'))
>>> p = p.play("d4-d3")
>>> p.last_from == p.board.parse("d4"), p.last_to == p.board.parse("d3"), p.relocations
(True, True, ())
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import permutations
from typing import Any, ClassVar

from engines.base import (
    BoardShape,
    BoardView,
    Game,
    IllegalMove,
    Option,
    Outcome,
    Position,
    Termination,
    load_turn,
    normalize_move,
    shown,
    turn_dict,
)
from engines.board_view import named_cells
from engines.connection import chain_connects, connects, edge_touches, shortest_link
from engines.geometry import Rhombus

__all__ = ["BLACK", "EMPTY", "GAME", "WHITE", "IllegalMoveCode", "InphexionPosition", "new"]

EMPTY = -1
WHITE, BLACK = 0, 1
COLOUR_NAMES = ("White", "Black")
SIZES = (5, 6, 7, 8, 9)


class IllegalMoveCode(enum.StrEnum):
    """Why an inpHeXion move is refused (arguments in the comments; ``cell`` a cell's name,
    ``move`` the push as written, ``size`` the board's)."""

    #: ``text``, ``size``: the opening disc's cell
    NOT_A_CELL_OPENING = "inphexion.not a cell opening"
    #: ``text``, ``size``: a cell of the push
    NOT_A_CELL_PUSH = "inphexion.not a cell push"
    #: ``text``, ``size``: a cell of a relocation
    NOT_A_CELL_RELOCATION = "inphexion.not a cell relocation"
    PIE_OFF = "inphexion.pie off"
    SWAP_TOO_LATE = "inphexion.swap too late"
    #: ``text``
    NOT_A_MOVE = "inphexion.not a move"
    #: ``cell``, ``opponent``: the colour to push
    PUSH_FROM_EMPTY = "inphexion.push from empty"
    #: ``cell``, ``opponent``
    PUSH_OWN_DISC = "inphexion.push own disc"
    #: ``start``, ``end``
    NOT_NEXT_TO = "inphexion.not next to"
    #: ``cell``
    PUSH_NOT_EMPTY = "inphexion.push not empty"
    #: ``move``, ``colour``: the push completes that colour's connection
    ENDS_BY_CONNECTION = "inphexion.ends by connection"
    #: ``move``: too few empty cells to relocate into
    ENDS_WITHOUT_ROOM = "inphexion.ends without room"
    #: ``text``
    NOT_A_RELOCATION = "inphexion.not a relocation"
    #: ``cell``
    RELOCATED_TWICE = "inphexion.relocated twice"
    #: ``cell``
    NOT_RELOCATED_OWN = "inphexion.not relocated own"
    #: ``cell``
    NOT_RELOCATED_EMPTY = "inphexion.not relocated empty"
    #: ``cell``
    NOT_RELOCATED_NOT_NEW = "inphexion.not relocated not new"
    #: ``move``
    SURROUNDS_NOTHING = "inphexion.surrounds nothing"
    #: ``cell``, ``move``, ``example``: the relocations a complete move would add
    ONE_SURROUNDED = "inphexion.one surrounded"
    #: ``cells`` (several), ``move``, ``example``
    SEVERAL_SURROUNDED = "inphexion.several surrounded"
    #: ``cell``
    BEING_VACATED = "inphexion.being vacated"
    #: ``cell``
    RELOCATION_NOT_EMPTY = "inphexion.relocation not empty"
    #: ``cell``
    SAME_DESTINATION = "inphexion.same destination"


_STEP = re.compile(r"([a-z][0-9]{1,2})-([a-z][0-9]{1,2})")
_RELOCATION = re.compile(r"([a-z][0-9]{1,2})>([a-z][0-9]{1,2})")
_SYMBOLS = {EMPTY: ".", WHITE: "w", BLACK: "b"}
_VALUES = {".": EMPTY, "w": WHITE, "b": BLACK}


class _Layout:
    """Everything about one board size that never changes, including ready-made move text
    (building strings is most of the cost of listing moves)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.board = Rhombus(size)
        b = self.board
        self.count = size * size
        self.neighbours = b.neighbours
        #: ``edges[colour]``: White top/bottom, Black left/right
        self.edges = ((b.top, b.bottom), (b.left, b.right))
        #: The board drawn: each colour's goal edges.
        self.shape = BoardShape(b, goals=tuple(one | other for one, other in self.edges))
        names = b.names
        #: ``step[a][b]``: the text ``"a-b"`` for neighbours a, b
        self.step: tuple[dict[int, str], ...] = tuple(
            {nb: f"{names[a]}-{names[nb]}" for nb in b.neighbours[a]} for a in b.cells
        )
        #: ``part[a][d]``: the relocation text ``"a>d"``
        self.part: tuple[tuple[str, ...], ...] = tuple(
            tuple(f"{names[a]}>{names[d]}" for d in b.cells) for a in b.cells
        )


_LAYOUTS = {size: _Layout(size) for size in SIZES}


def _surrounded(cell: int, cells: tuple[int, ...] | list[int], layout: _Layout) -> bool:
    """Whether the disc on ``cell`` is surrounded: every neighbour on the board holds a disc of
    the other colour (which also makes it isolated; the board edge counts as surrounding)."""
    enemy = 1 - cells[cell]
    return all(cells[nb] == enemy for nb in layout.neighbours[cell])


@dataclass(frozen=True)
class _Turn:
    """What a regular move ``a-b`` does before any relocation is chosen."""

    cells: tuple[int, ...]  # after the push and the placement
    winner_colour: int | None  # point 8a: a connection exists now
    surrounded: tuple[int, ...]  # opponent discs newly surrounded, in reading order
    too_many: bool  # point 8b: more of them than empty cells


@dataclass(frozen=True)
class InphexionPosition(Position):
    """An inpHeXion position.

    Render-facing attributes: ``board`` (:class:`~engines.geometry.Rhombus`), ``size``,
    ``cells`` (by colour: -1 empty, 0 White, 1 Black), ``colours`` (the colour each seat plays
    now), ``swapped``, ``edges[colour]``, ``last_from``, ``last_to``, ``last_placed``,
    ``relocations``.  ``to_move`` and ``outcome.winner`` are seats.

    Build a hand-made position with :meth:`from_diagram`.
    """

    size: int
    cells: tuple[int, ...]
    colours: tuple[int, int]
    pie: bool
    to_move: int
    ply: int
    last_move: str | None
    outcome: Outcome | None
    game: str = "inphexion"
    sides: ClassVar[tuple[str, str]] = COLOUR_NAMES

    # -- attributes -------------------------------------------------------------------------

    @property
    def _layout(self) -> _Layout:
        return _LAYOUTS[self.size]

    @property
    def board(self) -> Rhombus:
        """The board geometry."""
        return self._layout.board

    def board_view(self) -> BoardView:
        """The discs, the last move's cells and a winning path."""
        last = named_cells(self.board, self.last_move)
        shape = self._layout.shape
        return BoardView(shape, self.cells, last=last, winning=self.winning_cells)

    @property
    def edges(self) -> tuple[tuple[frozenset[int], frozenset[int]], ...]:
        """``edges[colour]``: the two edges that colour connects (White top and bottom rows,
        Black left and right columns)."""
        return self._layout.edges

    @property
    def swapped(self) -> bool:
        """Whether the pie rule was used: seat 0 now plays Black and seat 1 White."""
        return self.colours != (WHITE, BLACK)

    @property
    def seat_sides(self) -> tuple[str, str]:
        """The colour each seat plays now, e.g. ``("Black", "White")`` after a swap."""
        return (COLOUR_NAMES[self.colours[0]], COLOUR_NAMES[self.colours[1]])

    def seat_of(self, colour: int) -> int:
        """The seat that plays ``colour`` now."""
        return self.colours.index(colour)

    @property
    def can_swap(self) -> bool:
        """Whether the player to move may answer ``swap`` (the pie rule, right after the first
        disc)."""
        return self.outcome is None and self.ply == 1 and self.pie and not self.swapped

    @cached_property
    def winning_cells(self) -> frozenset[int]:
        """A shortest chain of the winner's discs joining their colour's two edges (empty
        while the game goes on, and after a win by a blocked or impossible move)."""
        out = self.outcome
        if out is None or out.winner is None or out.termination is not Termination.CONNECTION:
            return frozenset()
        colour = self.colours[out.winner]
        layout = self._layout
        return frozenset(
            shortest_link(self.cells, colour, layout.neighbours, *layout.edges[colour])
        )

    @cached_property
    def _last_parts(self) -> _Parts:
        """(from, to, relocations) of the last move, read back from its canonical text."""
        return _read_last(self.board, self.last_move)

    @property
    def last_from(self) -> int | None:
        """The cell the last move pushed the opponent's disc from (where the mover placed)."""
        return self._last_parts[0]

    @property
    def last_to(self) -> int | None:
        """The cell the pushed disc went to (before any relocation of it)."""
        return self._last_parts[1]

    @property
    def relocations(self) -> tuple[tuple[int, int], ...]:
        """The (from, to) cells of the discs the last move relocated, in reading order."""
        return self._last_parts[2]

    @property
    def last_placed(self) -> int | None:
        """The cell of the disc placed by the last move: the first move's cell or last_from."""
        if self.last_move is not None and self.ply == 1 and self.last_move != "swap":
            return self.board.index[self.last_move]
        return self.last_from

    # -- the surround rule and the end of a turn ---------------------------------------------

    def _turn(self, a: int, b: int) -> _Turn:
        """Push the opponent's disc from ``a`` to its empty neighbour ``b``, place on ``a``,
        and work out points 7 and 8a-b (``a``/``b`` are assumed checked)."""
        layout = self._layout
        mover = self.colours[self.to_move]
        opp = 1 - mover
        new = list(self.cells)
        new[a] = mover
        new[b] = opp
        cells = tuple(new)
        winner: int | None = None
        if chain_connects(a, cells, layout.neighbours, *layout.edges[mover]):
            winner = mover
        elif chain_connects(b, cells, layout.neighbours, *layout.edges[opp]):
            winner = opp  # the mover completed the opponent's connection
        # Only the pushed disc and the opponent discs next to the vacated cell can have become
        # surrounded; every other opponent disc kept its neighbourhood, and those next to a
        # were not surrounded before (a held a disc of their colour).  The pushed disc had an
        # empty neighbour (b) before, so it was not surrounded either.
        found = [nb for nb in layout.neighbours[a] if cells[nb] == opp]  # b among them
        surrounded = tuple(sorted(c for c in found if _surrounded(c, cells, layout)))
        empties = cells.count(EMPTY)
        return _Turn(cells, winner, surrounded, len(surrounded) > empties)

    def _after(self, cells: tuple[int, ...], winner_colour: int | None) -> Outcome | None:
        """The outcome once a turn has produced ``cells`` (point 8, then point 9)."""
        if winner_colour is not None:
            return Outcome(self.seat_of(winner_colour), Termination.CONNECTION)
        # The next player moves the discs of the colour that just moved.
        if _movable(cells, self.colours[self.to_move], self._layout.neighbours):
            return None
        return Outcome(self.to_move, Termination.NO_LEGAL_MOVE)

    # -- moves --------------------------------------------------------------------------------

    @cached_property
    def _legal(self) -> tuple[str, ...]:
        if self.outcome is not None:
            return ()
        layout = self._layout
        if self.ply == 0:
            return layout.board.names
        moves: list[str] = []
        if self.ply == 1 and self.pie and not self.swapped:
            moves.append("swap")
        cells = self.cells
        nbrs = layout.neighbours
        mover = self.colours[self.to_move]
        opp = 1 - mover
        empties = [c for c, v in enumerate(cells) if v == EMPTY]
        spare = len(empties) - 1  # empty cells left after the push
        m_a, m_b = layout.edges[mover]
        o_a, o_b = layout.edges[opp]
        groups = edge_touches(cells, opp, nbrs, o_a, o_b)
        own_groups = edge_touches(cells, mover, nbrs, m_a, m_b)
        step, part = layout.step, layout.part
        for a, v in enumerate(cells):
            if v != opp:
                continue
            targets = [nb for nb in nbrs[a] if cells[nb] == EMPTY]
            if not targets:
                continue  # point 5: a disc with no empty neighbour cannot be moved
            texts = step[a]
            # Placing on a joins the mover's chains around a, which the push leaves alone
            # (b is empty before and the opponent's after), so this test is exact.
            reach = (1 if a in m_a else 0) | (2 if a in m_b else 0)
            for nb in nbrs[a]:
                if cells[nb] == mover:
                    reach |= own_groups[nb]
            if reach == 3:
                moves.extend(texts[b] for b in targets)  # point 8a: the mover connects
                continue
            new = list(cells)
            new[a] = mover
            # Opponent discs next to a that are surrounded once a is the mover's (for any b:
            # a disc next to b still has b empty beside it).
            around = [
                nb
                for nb in nbrs[a]
                if cells[nb] == opp and all(cells[m] == mover or m == a for m in nbrs[nb])
            ]
            for b in targets:
                head = texts[b]
                reach = (1 if b in o_a else 0) | (2 if b in o_b else 0)
                for nb in nbrs[b]:
                    if nb != a and cells[nb] == opp:
                        reach |= groups[nb]
                if reach == 3:
                    # Cheap test says it might join; a's removal may split a group, so check.
                    new[b] = opp
                    joined = chain_connects(b, new, nbrs, o_a, o_b)
                    new[b] = EMPTY
                    if joined:
                        moves.append(head)  # point 8a: completes the opponent's connection
                        continue
                if all(cells[m] == mover or m == a for m in nbrs[b]):
                    found = sorted([*around, b])
                else:
                    found = around
                k = len(found)
                if k == 0 or k > spare:
                    moves.append(head)  # nothing to relocate, or point 8b: the mover loses
                    continue
                dests = [e for e in empties if e != b]
                if k == 1:
                    row = part[found[0]]
                    head += " "
                    moves.extend([head + row[d] for d in dests])
                else:
                    rows = [part[s] for s in found]
                    moves.extend(
                        head + " " + " ".join(r[d] for r, d in zip(rows, ds, strict=True))
                        for ds in permutations(dests, k)
                    )
        return tuple(moves)

    def legal_moves(self) -> list[str]:
        return list(self._legal)

    def play(self, move: str) -> InphexionPosition:
        self._over_check()
        text = normalize_move(move)
        layout = self._layout
        if self.ply == 0:
            cell = self._cell(text, IllegalMoveCode.NOT_A_CELL_OPENING)
            cells = list(self.cells)
            cells[cell] = self.colours[self.to_move]
            done = tuple(cells)
            return self._next(done, text, self._after(done, None))
        if text == "swap":
            if not self.pie:
                raise IllegalMove(IllegalMoveCode.PIE_OFF)
            if self.ply != 1 or self.swapped:
                raise IllegalMove(IllegalMoveCode.SWAP_TOO_LATE)
            return InphexionPosition(
                self.size,
                self.cells,
                (self.colours[1], self.colours[0]),
                self.pie,
                1 - self.to_move,
                self.ply + 1,
                "swap",
                None,
            )
        parts = text.split(" ")
        # The push may be written anywhere among the parts; canonical text puts it first.
        steps = [i for i, part in enumerate(parts) if "-" in part]
        if len(steps) == 1:
            parts.insert(0, parts.pop(steps[0]))
        head, *rest = parts
        found = _STEP.fullmatch(head)
        if found is None:
            raise IllegalMove(IllegalMoveCode.NOT_A_MOVE, text=shown(head))
        mover = self.colours[self.to_move]
        opp_name = COLOUR_NAMES[1 - mover]
        a = self._cell(found[1], IllegalMoveCode.NOT_A_CELL_PUSH)
        b = self._cell(found[2], IllegalMoveCode.NOT_A_CELL_PUSH)
        va = self.cells[a]
        if va == EMPTY:
            raise IllegalMove(IllegalMoveCode.PUSH_FROM_EMPTY, cell=found[1], opponent=opp_name)
        if va == mover:
            raise IllegalMove(IllegalMoveCode.PUSH_OWN_DISC, cell=found[1], opponent=opp_name)
        if b not in layout.neighbours[a]:
            raise IllegalMove(IllegalMoveCode.NOT_NEXT_TO, start=found[1], end=found[2])
        if self.cells[b] != EMPTY:
            raise IllegalMove(IllegalMoveCode.PUSH_NOT_EMPTY, cell=found[2])
        turn = self._turn(a, b)
        if turn.winner_colour is not None or turn.too_many:
            if rest:
                if turn.winner_colour is not None:
                    raise IllegalMove(
                        IllegalMoveCode.ENDS_BY_CONNECTION,
                        move=head,
                        colour=COLOUR_NAMES[turn.winner_colour],
                    )
                raise IllegalMove(IllegalMoveCode.ENDS_WITHOUT_ROOM, move=head)
            if turn.winner_colour is not None:
                return self._next(turn.cells, head, self._after(turn.cells, turn.winner_colour))
            impossible = Outcome(1 - self.to_move, Termination.RELOCATION_IMPOSSIBLE)
            return self._next(turn.cells, head, impossible)
        pairs = self._relocations(head, rest, turn)
        opp = 1 - mover
        cells = list(turn.cells)
        # All leave before any arrives: destinations are cells empty after the push anyway.
        for s, _ in pairs:
            cells[s] = EMPTY
        for _, d in pairs:
            cells[d] = opp
        winner = None
        for _, d in pairs:
            if chain_connects(d, cells, layout.neighbours, *layout.edges[opp]):
                winner = opp  # point 8c: a relocation completed the opponent's connection
                break
        done = tuple(cells)
        canonical = head + "".join(" " + layout.part[s][d] for s, d in pairs)
        return self._next(done, canonical, self._after(done, winner))

    def _relocations(self, head: str, rest: list[str], turn: _Turn) -> list[tuple[int, int]]:
        """Check the ``from>to`` parts against the discs ``turn`` surrounds (point 7)."""
        layout = self._layout
        names = layout.board.names
        mover = self.colours[self.to_move]
        needed = turn.surrounded
        pairs: dict[int, int] = {}
        for text in rest:
            found = _RELOCATION.fullmatch(text)
            if found is None:
                raise IllegalMove(IllegalMoveCode.NOT_A_RELOCATION, text=shown(text))
            s = self._cell(found[1], IllegalMoveCode.NOT_A_CELL_RELOCATION)
            d = self._cell(found[2], IllegalMoveCode.NOT_A_CELL_RELOCATION)
            if s in pairs:
                raise IllegalMove(IllegalMoveCode.RELOCATED_TWICE, cell=found[1])
            if s not in needed:
                owner = turn.cells[s]
                if owner == mover:
                    why = IllegalMoveCode.NOT_RELOCATED_OWN
                elif owner == EMPTY:
                    why = IllegalMoveCode.NOT_RELOCATED_EMPTY
                elif needed:
                    why = IllegalMoveCode.NOT_RELOCATED_NOT_NEW
                else:
                    raise IllegalMove(IllegalMoveCode.SURROUNDS_NOTHING, move=head)
                raise IllegalMove(why, cell=found[1])
            pairs[s] = d
        missing = [names[s] for s in needed if s not in pairs]
        if missing:
            # Suggest a complete move: keep what was written, fill the rest with free cells.
            spare = iter(
                c for c, v in enumerate(turn.cells) if v == EMPTY and c not in pairs.values()
            )
            example = " ".join(
                layout.part[s][pairs[s] if s in pairs else next(spare)] for s in needed
            )
            if len(missing) == 1:
                raise IllegalMove(
                    IllegalMoveCode.ONE_SURROUNDED, cell=missing[0], move=head, example=example
                )
            raise IllegalMove(
                IllegalMoveCode.SEVERAL_SURROUNDED,
                cells=tuple(missing),
                move=head,
                example=example,
            )
        used: set[int] = set()
        for s in needed:
            d = pairs[s]
            if d in needed:
                raise IllegalMove(IllegalMoveCode.BEING_VACATED, cell=names[d])
            if turn.cells[d] != EMPTY:
                raise IllegalMove(IllegalMoveCode.RELOCATION_NOT_EMPTY, cell=names[d])
            if d in used:
                raise IllegalMove(IllegalMoveCode.SAME_DESTINATION, cell=names[d])
            used.add(d)
        return [(s, pairs[s]) for s in needed]

    def _cell(self, text: str, code: IllegalMoveCode) -> int:
        try:
            return self._layout.board.parse(text)
        except ValueError:
            raise IllegalMove(code, text=shown(text), size=self.size) from None

    def _next(
        self, cells: tuple[int, ...], move: str, outcome: Outcome | None
    ) -> InphexionPosition:
        return InphexionPosition(
            self.size,
            cells,
            self.colours,
            self.pie,
            1 - self.to_move,
            self.ply + 1,
            move,
            outcome,
        )

    # -- storage ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        n = self.size
        rows = ["".join(_SYMBOLS[v] for v in self.cells[r * n : (r + 1) * n]) for r in range(n)]
        return {
            "game": self.game,
            "size": n,
            "rows": rows,
            "colours": list(self.colours),
            "pie": self.pie,
            **turn_dict(self),
        }

    @classmethod
    def from_diagram(
        cls,
        diagram: str,
        to_move: int = BLACK,
        *,
        pie: bool = False,
        ply: int | None = None,
    ) -> InphexionPosition:
        """A hand-made position (for tests and puzzles) from a text picture of the board.

        ``diagram`` has one line per row, top to bottom, one character per cell: ``.`` empty,
        ``w`` White, ``b`` Black (any case); spaces and blank lines are ignored, so the rows
        may be drawn shifted like a real Hex board.  ``to_move`` is the *colour* to move;
        seats are unswapped (seat 0 White).  ``ply`` defaults to the number of discs.  The
        outcome is worked out: an existing connection wins, a player to move with no move
        loses.

        >>> p = InphexionPosition.from_diagram('''
        ...     w . . . .
        ...      b . . . .
        ...       . . . . .
        ...        . . . . .
        ...         . . . . .
        ... ''', to_move=WHITE)
        >>> p.size, p.to_move, p.ply, p.legal_moves()
        (5, 0, 2, ['a2-b2', 'a2-b1', 'a2-a3'])
        """
        rows = ["".join(line.split()).lower() for line in diagram.splitlines()]
        rows = [r for r in rows if r]
        size = len(rows)
        if size not in _LAYOUTS or any(len(r) != size for r in rows):
            raise ValueError(f"a diagram needs N rows of N cells, N in {SIZES}")
        try:
            cells = tuple(_VALUES[ch] for row in rows for ch in row)
        except KeyError as exc:
            raise ValueError(f"unexpected character {exc.args[0]!r} in the diagram") from None
        if ply is None:
            ply = sum(1 for v in cells if v != EMPTY)
        pos = cls(size, cells, (WHITE, BLACK), pie, to_move, ply, None, None)
        layout = pos._layout
        # Seats play their own colours here (no swap), so a colour is also a seat.
        for colour in (WHITE, BLACK):
            if connects(cells, colour, layout.neighbours, *layout.edges[colour]):
                return replace(pos, outcome=Outcome(colour, Termination.CONNECTION))
        if ply > 0 and not _movable(cells, 1 - to_move, layout.neighbours):
            return replace(pos, outcome=Outcome(1 - to_move, Termination.NO_LEGAL_MOVE))
        return pos


_Parts = tuple[int | None, int | None, tuple[tuple[int, int], ...]]


def _read_last(board: Rhombus, move: str | None) -> _Parts:
    """(from, to, relocations) of a canonical move text; ``ValueError`` if it is not one."""
    if move is None or move == "swap" or move in board.index:
        return None, None, ()
    index = board.index
    head, *rest = move.split(" ")
    try:
        a, b = head.split("-")
        pairs = tuple((index[s], index[d]) for s, d in (p.split(">") for p in rest))
        return index[a], index[b], pairs
    except (KeyError, ValueError):
        raise ValueError(f"not an inpHeXion move: {move!r}") from None


def _movable(cells: tuple[int, ...], colour: int, nbrs: tuple[tuple[int, ...], ...]) -> bool:
    """Whether some disc of ``colour`` has an empty neighbour (so it can be pushed)."""
    for c, v in enumerate(cells):
        if v == colour:
            for nb in nbrs[c]:
                if cells[nb] == EMPTY:
                    return True
    return False


def new(size: int = 7, pie: bool = True) -> InphexionPosition:
    """The start position: an empty board, White (seat 0) to place the first disc."""
    return InphexionPosition(size, (EMPTY,) * (size * size), (WHITE, BLACK), pie, 0, 0, None, None)


def load(d: Mapping[str, Any]) -> InphexionPosition:
    """Rebuild a position from :meth:`InphexionPosition.to_dict` output (``ValueError`` if it
    is not a consistent inpHeXion position)."""
    size = d["size"]
    if size not in _LAYOUTS or isinstance(size, bool):
        raise ValueError(f"bad inpHeXion size {size!r}")
    rows = d["rows"]
    if len(rows) != size or any(not isinstance(r, str) or len(r) != size for r in rows):
        raise ValueError("inpHeXion rows do not match the board size")
    cells = tuple(_VALUES[ch] for row in rows for ch in row)
    colours = tuple(d["colours"])
    if colours not in ((WHITE, BLACK), (BLACK, WHITE)):
        raise ValueError(f"bad inpHeXion colours {colours!r}")
    pie = d["pie"]
    if not isinstance(pie, bool):
        raise ValueError("bad inpHeXion pie option")
    to_move, ply, last, outcome = load_turn(d, "inpHeXion")
    _read_last(_LAYOUTS[size].board, last)
    return InphexionPosition(
        size, cells, (colours[0], colours[1]), pie, to_move, ply, last, outcome
    )


GAME = Game(
    name="inphexion",
    title="inpHeXion",
    sides=COLOUR_NAMES,
    options=(
        Option("size", SIZES, 7, "board size: 5 to 9 (7 is the official board)"),
        Option("pie", (True, False), True, "pie rule: Black may swap after White's first disc"),
    ),
    start=new,
    load=load,
    words=("swap",),
    terminations=frozenset(
        {Termination.CONNECTION, Termination.NO_LEGAL_MOVE, Termination.RELOCATION_IMPOSSIBLE}
    ),
    codes=IllegalMoveCode,
    ai="engines.ai.inphexion_player",
)
