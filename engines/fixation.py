"""Lines of Fixation (Kanare Kato, 2022): stacks move exactly their height in a straight line,
dropping one disk on each cell they pass; join all your stacks into one group.
Rules: ``shared/rules/fixation.md``.

Seat 0 is Light (moves first), seat 1 is Dark; a stack belongs to the colour on its top.
A move ``a2-a4`` names the stack's cell and the cell where its top disk lands.

>>> p = new()
>>> p.to_move, p.stacks[p.board.parse("a3")], p.owner(p.board.parse("i3"))
(0, (0, 0), 1)
>>> p = p.play("A3-C5")
>>> [p.board.name(c) for c in p.last_path], p.height(p.board.parse("c5"))
(['b4', 'c5'], 1)

Hand-made positions come from :func:`setup` (stacks written bottom to top, ``L``/``D``):

>>> q = setup({"e5": "LLD", "e6": "L", "a1": "D"}, to_move=DARK)
>>> q.owner(q.board.parse("e5")), q.height(q.board.parse("e5"))
(1, 3)
"""

from __future__ import annotations

import enum
import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, ClassVar

from engines.base import (
    Argument,
    BoardShape,
    BoardView,
    Game,
    HeightKind,
    IllegalMove,
    Outcome,
    Position,
    Termination,
    load_turn,
    normalize_move,
    shown,
    turn_dict,
)
from engines.board_view import named_cells
from engines.connection import is_one_group
from engines.geometry import Hexagon

__all__ = [
    "DARK",
    "GAME",
    "LIGHT",
    "MAX_HEIGHT",
    "FixationPosition",
    "IllegalMoveCode",
    "board_key",
    "new",
    "setup",
]

EMPTY = -1
LIGHT, DARK = 0, 1
SIDES = ("Light", "Dark")
#: No stack may ever be taller than this (rule 5).
MAX_HEIGHT = 6

BOARD = Hexagon(5)
#: The board drawn: stacks, whose heights count.
_SHAPE = BoardShape(BOARD, height_kind=HeightKind.STACKS)


class IllegalMoveCode(enum.StrEnum):
    """Why a Lines of Fixation move is refused (arguments in the comments; ``cell`` a
    cell's name, ``height`` a stack's)."""

    #: ``text``: not written as two cells
    NOT_A_MOVE = "fixation.not a move"
    #: ``cell``: a name that is no cell of the board
    NOT_A_CELL = "fixation.not a cell"
    #: ``cell``
    NO_STACK = "fixation.no stack"
    #: ``cell``, ``side``: the side whose disk tops the stack
    NOT_YOUR_STACK = "fixation.not your stack"
    MUST_MOVE = "fixation.must move"
    #: ``cell``, ``height``
    LEAVES_BOARD = "fixation.leaves board"
    #: ``cell``, ``landing``: a stack of one moves exactly one cell
    MOVES_ONE_CELL = "fixation.moves one cell"
    #: ``cell``, ``height``, ``landing``
    MOVES_EXACTLY = "fixation.moves exactly"
    #: ``start``, ``end``
    NOT_ON_ONE_LINE = "fixation.not on one line"
    #: ``cell``, ``height`` it would reach, ``maximum``
    TOO_HIGH = "fixation.too high"
    #: ``side``: the opponent, with the taller stack on the line
    FIXATION = "fixation.fixation"
    EQUAL_HEIGHTS = "fixation.equal heights"
    REPEATS = "fixation.repeats"
    #: ``moves``: the capturing moves, listed
    MUST_CAPTURE = "fixation.must capture"
    #: a move every rule allows but the list of moves does not hold (never expected)
    NOT_LEGAL = "fixation.not legal"


#: Why an attempted move is illegal: its code and arguments (built into an
#: :class:`IllegalMove` only when a player's move is refused).
_Refused = tuple[IllegalMoveCode, dict[str, Argument]]
_NAMES = BOARD.names
_RAYS = BOARD.rays
_NEIGHBOURS = BOARD.neighbours


def _lines() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, int, int], ...]]:
    """Every whole board line (27 of them) and, per cell, the line id along each axis."""
    ids: dict[tuple[int, ...], int] = {}
    line_of = []
    for cell in BOARD.cells:
        per_axis = []
        for axis in range(3):
            line = BOARD.line(cell, axis)
            per_axis.append(ids.setdefault(line, len(ids)))
        line_of.append((per_axis[0], per_axis[1], per_axis[2]))
    return tuple(ids), tuple(line_of)


_LINES, _LINE_OF = _lines()


def _zobrist(cell: int, level: int, colour: int) -> int:
    # blake2b, not hash(): keys (and so stored histories) must be the same in every process.
    data = f"fixation {cell} {level} {colour}".encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


#: ``_KEY[(cell * MAX_HEIGHT + level) * 2 + colour]``: the key of one disk at one place.
_KEY = tuple(
    _zobrist(cell, level, colour)
    for cell in BOARD.cells
    for level in range(MAX_HEIGHT)
    for colour in (LIGHT, DARK)
)


def _stack_key(cell: int, stack: tuple[int, ...]) -> int:
    key = 0
    base = cell * MAX_HEIGHT
    for level, colour in enumerate(stack):
        key ^= _KEY[(base + level) * 2 + colour]
    return key


def board_key(stacks: tuple[tuple[int, ...], ...]) -> int:
    """A 64-bit key of a whole board (every cell's ordered stack), the same in every process.

    It is the XOR of one blake2b-derived key per disk (cell, level, colour), so a move updates
    it cheaply; equal boards always have equal keys.
    """
    key = 0
    for cell, stack in enumerate(stacks):
        if stack:
            key ^= _stack_key(cell, stack)
    return key


@dataclass(frozen=True, slots=True)
class _Move:
    """One otherwise-legal move (every rule but the semi-mandatory capture checked)."""

    text: str
    start: int
    path: tuple[int, ...]
    captures: tuple[int, ...]
    merges: tuple[int, ...]
    key: int
    forcing: bool  # a capture by a mono-colour stack of 3 or more (rule 8)


_MOVE_TEXT = re.compile(r"^([a-z][0-9]{1,2})-([a-z][0-9]{1,2})$")


@dataclass(frozen=True)
class FixationPosition(Position):
    """A Lines of Fixation position.

    Render-facing attributes: ``board`` (:class:`~engines.geometry.Hexagon` of side 5),
    ``stacks`` (per cell, bottom to top, 0 Light / 1 Dark; ``()`` empty), :meth:`owner`,
    :meth:`height`, and the last move's ``last_from``, ``last_path`` (cells where disks were
    dropped, in order; the last is where the top disk landed), ``last_captures`` and
    ``last_merges``.  ``history`` holds the :func:`board_key` of every board of the game so
    far, this one and the set-up included (rule 9).
    """

    stacks: tuple[tuple[int, ...], ...]
    to_move: int
    ply: int
    last_move: str | None
    outcome: Outcome | None
    history: frozenset[int]
    last_from: int | None = None
    last_path: tuple[int, ...] = ()
    last_captures: tuple[int, ...] = ()
    last_merges: tuple[int, ...] = ()
    game: str = "fixation"
    sides: ClassVar[tuple[str, str]] = SIDES

    @property
    def board(self) -> Hexagon:
        """The board geometry (hexagon of side 5, 61 cells)."""
        return BOARD

    def board_view(self) -> BoardView:
        """Each stack's top piece and height."""
        tops = tuple(s[-1] if s else -1 for s in self.stacks)
        heights, last = tuple(map(len, self.stacks)), named_cells(BOARD, self.last_move)
        return BoardView(_SHAPE, tops, heights, last, self.winning_cells)

    def owner(self, cell: int) -> int:
        """Who controls the stack on ``cell``: 0 Light, 1 Dark, -1 empty (rule 4)."""
        stack = self.stacks[cell]
        return stack[-1] if stack else EMPTY

    def height(self, cell: int) -> int:
        """How many disks (of both colours) are on ``cell``."""
        return len(self.stacks[cell])

    def is_mono(self, cell: int) -> bool:
        """Whether the stack on ``cell`` is all one colour (``False`` for an empty cell)."""
        stack = self.stacks[cell]
        return bool(stack) and (DARK if stack[0] == LIGHT else LIGHT) not in stack

    @cached_property
    def key(self) -> int:
        """The :func:`board_key` of this board."""
        return board_key(self.stacks)

    @cached_property
    def _line_tops(self) -> tuple[tuple[int, int], ...]:
        """Per line id: the tallest stack Light controls on it and the tallest Dark controls."""
        stacks = self.stacks
        out = []
        for line in _LINES:
            tops = [0, 0]
            for cell in line:
                stack = stacks[cell]
                if stack and len(stack) > tops[stack[-1]]:
                    tops[stack[-1]] = len(stack)
            out.append((tops[0], tops[1]))
        return tuple(out)

    def _attempt(self, start: int, direction: int, lifted: int | None = None) -> _Move | _Refused:
        """The move of the stack on ``start`` along ``direction`` with every rule but the
        semi-mandatory capture checked, or why it is illegal.  ``lifted`` is the board's key
        without the stack on ``start`` when the caller has it (it is the same for the six
        directions)."""
        stacks = self.stacks
        stack = stacks[start]
        h = len(stack)
        ray = _RAYS[start][direction]
        if len(ray) < h:
            return IllegalMoveCode.LEAVES_BOARD, {"cell": _NAMES[start], "height": h}
        path = ray[:h]
        for cell in path:
            if len(stacks[cell]) >= MAX_HEIGHT:
                high = len(stacks[cell]) + 1
                return IllegalMoveCode.TOO_HIGH, {
                    "cell": _NAMES[cell],
                    "height": high,
                    "maximum": MAX_HEIGHT,
                }
        me = self.to_move
        tops = self._line_tops[_LINE_OF[start][direction >> 1]]
        mine, theirs = tops[me], tops[1 - me]
        if theirs > mine:
            return IllegalMoveCode.FIXATION, {"side": SIDES[1 - me]}
        captures = []
        merges = []
        key = (self.key ^ _stack_key(start, stack)) if lifted is None else lifted
        for colour, cell in zip(stack, path, strict=True):
            target = stacks[cell]
            if target:
                # The cell's owner becomes the colour of the disk dropped on it (rule 6).
                if target[-1] == colour:
                    merges.append(cell)
                else:
                    captures.append(cell)
            key ^= _KEY[(cell * MAX_HEIGHT + len(target)) * 2 + colour]
        if captures and theirs == mine:
            return IllegalMoveCode.EQUAL_HEIGHTS, {}
        if key in self.history:
            return IllegalMoveCode.REPEATS, {}
        forcing = bool(captures) and h >= 3 and (1 - me) not in stack
        text = f"{_NAMES[start]}-{_NAMES[path[-1]]}"
        return _Move(text, start, path, tuple(captures), tuple(merges), key, forcing)

    def _each_move(self) -> Iterator[_Move]:
        """The otherwise-legal moves (before the semi-mandatory capture), one by one."""
        me = self.to_move
        for start, stack in enumerate(self.stacks):
            if not stack or stack[-1] != me:
                continue
            h = len(stack)
            lifted = None
            for direction, ray in enumerate(_RAYS[start]):
                if len(ray) < h:
                    continue  # cheap early out for the most common illegal move
                if lifted is None:
                    lifted = self.key ^ _stack_key(start, stack)
                move = self._attempt(start, direction, lifted)
                if isinstance(move, _Move):
                    yield move

    @cached_property
    def _moves(self) -> dict[str, _Move]:
        """Every otherwise-legal move (before the semi-mandatory capture), by its text."""
        if self.outcome is not None:
            return {}
        return {move.text: move for move in self._each_move()}

    def _has_move(self) -> bool:
        """Whether the player to move has any legal move: :meth:`_each_move` stopped at the
        first one (a game-tree leaf needs its outcome, rarely its whole list of moves)."""
        if "_moves" in self.__dict__:
            return bool(self._moves)
        return next(self._each_move(), None) is not None

    @cached_property
    def _forcing(self) -> tuple[str, ...]:
        """The capturing moves of mono-colour stacks of 3 or more (rule 8): when there are
        any, they are the only legal moves."""
        return tuple(text for text, move in self._moves.items() if move.forcing)

    @cached_property
    def _legal(self) -> tuple[str, ...]:
        return self._forcing or tuple(self._moves)

    @property
    def forced_captures(self) -> tuple[str, ...]:
        """The capturing moves the player to move must choose from (rule 8: a legal capture
        by a mono-colour stack of 3 or more); empty when no capture is forced."""
        return self._forcing

    @cached_property
    def forced_stacks(self) -> frozenset[int]:
        """The cells of the stacks that :attr:`forced_captures` move."""
        return frozenset(self._moves[text].start for text in self._forcing)

    @cached_property
    def forced_targets(self) -> frozenset[int]:
        """The cells of the stacks that :attr:`forced_captures` would capture."""
        return frozenset(c for text in self._forcing for c in self._moves[text].captures)

    @cached_property
    def winning_cells(self) -> frozenset[int]:
        """What won (rule 10): every stack of the winner when they form one group, or the
        winner's 6-high bi-colour stacks; empty while the game goes on and after a win by
        the opponent having no legal move."""
        out = self.outcome
        if out is None or out.winner is None:
            return frozenset()
        who = out.winner
        mine = [c for c, stack in enumerate(self.stacks) if stack and stack[-1] == who]
        if out.termination is Termination.ONE_GROUP:
            return frozenset(mine)
        if out.termination is Termination.TWO_TALL_STACKS:
            return frozenset(
                c for c in mine if self.height(c) == MAX_HEIGHT and not self.is_mono(c)
            )
        return frozenset()

    def legal_moves(self) -> list[str]:
        return list(self._legal)

    def play(self, move: str) -> FixationPosition:
        self._over_check()
        text = normalize_move(move)
        found = self._moves.get(text)
        if found is None:
            raise IllegalMove(*self._explain(text))
        if self._forcing and not found.forcing:
            listed = ", ".join(self._forcing[:4]) + (", ..." if len(self._forcing) > 4 else "")
            raise IllegalMove(IllegalMoveCode.MUST_CAPTURE, moves=listed)
        return self._after(found)

    def _explain(self, text: str) -> _Refused:
        """Why ``text`` (normalised) is not an otherwise-legal move."""
        match = _MOVE_TEXT.match(text)
        if match is None:
            return IllegalMoveCode.NOT_A_MOVE, {"text": shown(text)}
        cells = []
        for name in match.groups():
            if name not in BOARD.index:
                return IllegalMoveCode.NOT_A_CELL, {"cell": name}
            cells.append(BOARD.index[name])
        start, end = cells
        stack = self.stacks[start]
        if not stack:
            return IllegalMoveCode.NO_STACK, {"cell": _NAMES[start]}
        me = self.to_move
        if stack[-1] != me:
            return IllegalMoveCode.NOT_YOUR_STACK, {"cell": _NAMES[start], "side": SIDES[stack[-1]]}
        if start == end:
            return IllegalMoveCode.MUST_MOVE, {}
        h = len(stack)
        for direction, ray in enumerate(_RAYS[start]):
            if end in ray:
                if ray.index(end) + 1 == h:
                    found = self._attempt(start, direction)
                    # Every legal move is in _moves, so this is always a reason.
                    return found if isinstance(found, tuple) else (IllegalMoveCode.NOT_LEGAL, {})
                if len(ray) < h:
                    return IllegalMoveCode.LEAVES_BOARD, {"cell": _NAMES[start], "height": h}
                landing = _NAMES[ray[h - 1]]
                if h == 1:
                    one: dict[str, Argument] = {"cell": _NAMES[start], "landing": landing}
                    return IllegalMoveCode.MOVES_ONE_CELL, one
                return IllegalMoveCode.MOVES_EXACTLY, {
                    "cell": _NAMES[start],
                    "height": h,
                    "landing": landing,
                }
        return IllegalMoveCode.NOT_ON_ONE_LINE, {"start": _NAMES[start], "end": _NAMES[end]}

    def _after(self, move: _Move) -> FixationPosition:
        """The position after the otherwise-legal ``move``, with the outcome decided."""
        stacks = list(self.stacks)
        moving = stacks[move.start]
        stacks[move.start] = ()
        for colour, cell in zip(moving, move.path, strict=True):
            stacks[cell] = (*stacks[cell], colour)
        new_stacks = tuple(stacks)
        mover = self.to_move
        winner = _winner(new_stacks, mover)
        nxt = FixationPosition(
            new_stacks,
            1 - mover,
            self.ply + 1,
            move.text,
            winner,
            self.history | {move.key},
            move.start,
            move.path,
            move.captures,
            move.merges,
        )
        # The board's key is known already (the move worked it out for rule 9).
        nxt.__dict__["key"] = move.key
        if winner is None and not nxt._has_move():
            return replace(nxt, outcome=Outcome(mover, Termination.NO_LEGAL_MOVE))
        return nxt

    def to_dict(self) -> dict[str, Any]:
        names = _NAMES
        return {
            "game": self.game,
            "stacks": {
                names[c]: "".join("ld"[colour] for colour in stack)
                for c, stack in enumerate(self.stacks)
                if stack
            },
            **turn_dict(self),
            "history": [f"{k:016x}" for k in sorted(self.history)],
            "last_from": None if self.last_from is None else names[self.last_from],
            "last_path": [names[c] for c in self.last_path],
            "last_captures": [names[c] for c in self.last_captures],
            "last_merges": [names[c] for c in self.last_merges],
        }


def _wins(stacks: tuple[tuple[int, ...], ...], side: int) -> Termination | None:
    """How ``side`` meets a win condition of rule 10 on this board, or ``None``."""
    mine = {c for c, stack in enumerate(stacks) if stack and stack[-1] == side}
    if is_one_group(mine, _NEIGHBOURS):
        return Termination.ONE_GROUP
    tall = sum(1 for c in mine if len(stacks[c]) == MAX_HEIGHT and (1 - side) in stacks[c])
    return Termination.TWO_TALL_STACKS if tall >= 2 else None


def _winner(stacks: tuple[tuple[int, ...], ...], mover: int) -> Outcome | None:
    """Rule 10 after ``mover``'s move: the mover wins if they meet a condition (even when the
    opponent does too); otherwise the opponent wins if they meet one."""
    reason = _wins(stacks, mover)
    if reason is not None:
        return Outcome(mover, reason)
    reason = _wins(stacks, 1 - mover)
    return None if reason is None else Outcome(1 - mover, reason)


def _parse_stack(text: object, letters: str) -> tuple[int, ...]:
    if not isinstance(text, str) or not 1 <= len(text) <= MAX_HEIGHT:
        raise ValueError(f"bad Lines of Fixation stack {text!r}")
    try:
        return tuple(letters.index(ch) for ch in text.lower())
    except ValueError:
        raise ValueError(f"bad Lines of Fixation stack {text!r}") from None


def _parse_stacks(cells: Mapping[str, str], letters: str) -> tuple[tuple[int, ...], ...]:
    stacks: list[tuple[int, ...]] = [()] * len(BOARD)
    for name, text in cells.items():
        cell = BOARD.index.get(str(name).lower())
        if cell is None:
            raise ValueError(f"{name!r} is not a cell of the Lines of Fixation board")
        stacks[cell] = _parse_stack(text, letters)
    return tuple(stacks)


def setup(
    stacks: Mapping[str, str],
    to_move: int = LIGHT,
    earlier: Iterable[Mapping[str, str]] = (),
) -> FixationPosition:
    """A hand-made position (for tests and puzzles), with ply 0 and no last move.

    ``stacks`` maps cell names to stacks written bottom to top with ``L`` (Light) and ``D``
    (Dark), e.g. ``{"e5": "LLD"}``; other cells are empty.  ``earlier`` lists boards (in the
    same form) that count as already seen for the no-repetition rule.  It need not hold 18
    disks of each colour.  No win is checked (nobody has just moved), but a side to move
    with no legal move has lost.
    """
    if to_move not in (LIGHT, DARK):
        raise ValueError(f"to_move must be 0 (Light) or 1 (Dark), not {to_move!r}")
    board = _parse_stacks(stacks, "ld")
    history = frozenset({board_key(board)} | {board_key(_parse_stacks(e, "ld")) for e in earlier})
    pos = FixationPosition(board, to_move, 0, None, None, history)
    if not pos._legal:
        return replace(pos, outcome=Outcome(1 - to_move, Termination.NO_LEGAL_MOVE))
    return pos


#: The set-up of rule 2: nine 2-high stacks each on the middle cells of alternate sides.
START = {
    **{name: "LL" for name in "a2 a3 a4 f8 g7 h6 f1 g1 h1".split()},
    **{name: "DD" for name in "i2 i3 i4 b6 c7 d8 b1 c1 d1".split()},
}


def new() -> FixationPosition:
    """The start position: the set-up of rule 2, Light to move."""
    return setup(START)


def load(d: Mapping[str, Any]) -> FixationPosition:
    """Rebuild a position from :meth:`FixationPosition.to_dict` output (``ValueError`` if it
    is not a consistent Lines of Fixation position)."""
    raw = d["stacks"]
    if not isinstance(raw, Mapping):
        raise ValueError("Lines of Fixation stacks must be a mapping")
    stacks = _parse_stacks(raw, "ld")
    to_move, ply, last, outcome = load_turn(d, "Lines of Fixation")
    history = frozenset(int(k, 16) for k in d["history"])
    if board_key(stacks) not in history:
        raise ValueError("Lines of Fixation history does not hold the current board")

    def cells(names: Any) -> tuple[int, ...]:
        return tuple(BOARD.parse(str(n)) for n in names)

    last_from = d["last_from"]
    return FixationPosition(
        stacks,
        to_move,
        ply,
        last,
        outcome,
        history,
        None if last_from is None else BOARD.parse(str(last_from)),
        cells(d["last_path"]),
        cells(d["last_captures"]),
        cells(d["last_merges"]),
    )


GAME = Game(
    name="fixation",
    title="Lines of Fixation",
    sides=SIDES,
    options=(),
    start=new,
    load=load,
    terminations=frozenset(
        {Termination.ONE_GROUP, Termination.TWO_TALL_STACKS, Termination.NO_LEGAL_MOVE}
    ),
    codes=IllegalMoveCode,
    ai="engines.ai.fixation_player",
)
