"""Hexagonal Iso-Path's turn in the move picker as a player thinks of it: two short steps, each
one board of cells.

1. **The build**: which tile to take (a cell), then where to put it (a cell); or, in its place,
   a capture (an opponent's threatened piece), or no tile at all when a lone piece move wins.
2. **The piece move**: which piece (a cell), then where it goes (a cell); or, after a build,
   a capture in its place.

A turn's notation lists its actions in the order they are played (``a4-b4 c1>e6`` when the
piece must leave ``c1`` before its tile can be taken); the picker always asks for the build
first and then finds the legal turn that holds both choices, whichever order it needs.  A choice
the rules force (one tile, one place, one piece, one step) is made for the player.  Nothing
here reads the store: a :class:`Screen` is a pure function of a position and a *selection*.

A selection is the choices so far as text, one token per choice, in the order chosen: ``c1>``
(the tile to take), ``c1>e6`` (the build), ``xd4`` (a capture), ``_`` (no tile), ``a4-`` (the
piece), ``a4-b4`` (its step).  A legal turn's own notation is a selection too (the whole turn).

>>> import engines
>>> start = engines.new("isopath")
>>> screen(start, "").stage, len(screen(start, "").cells)
(<Stage.TAKE: 'take'>, 29)
>>> s = screen(start, "b1>b2")
>>> s.stage, [c.label for c in s.cells], s.back
(<Stage.PIECE: 'piece'>, ['a1', 'a2'], 'b1>')
>>> done = screen(start, "b1>b2 a2-")
>>> done.stage, done.move, done.back
(<Stage.DONE: 'done'>, 'b1>b2 a2-b2', 'b1>b2')
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

from bot.sessions import texts
from bot.sessions.context import Refusal
from engines import Position
from engines.isopath import IsopathPosition

__all__ = [
    "NO_TILE",
    "TABLES_KEPT",
    "BoardPosition",
    "Choice",
    "Screen",
    "Stage",
    "board_position",
    "choices_for",
    "screen",
    "turn_table",
]

#: A position of the game whose picker is a board of cells (``engines.PickerMode.BOARD``).
BoardPosition = IsopathPosition


def board_position(position: Position) -> BoardPosition:
    """``position`` as a position this module builds boards for (``TypeError`` otherwise)."""
    if not isinstance(position, IsopathPosition):
        raise TypeError(f"no board picker for a {position.game} position")
    return position


#: The token of "no tile this turn" (a lone piece move that wins).
NO_TILE = "_"
# A turn as (build, other action): the build is a tile move, a capture in its place or None;
# the other action is a piece move, a capture in its place, or None (the build alone wins).
Pair = tuple[str | None, str | None]


class Stage(enum.Enum):
    """What the player chooses on a screen."""

    #: step 1: the tile to take (or a capture instead, or no tile)
    TAKE = "take"
    #: step 1: where the tile goes
    PUT = "put"
    #: step 2: the piece to move (or a capture instead)
    PIECE = "piece"
    #: step 2: where the piece goes
    STEP = "step"
    #: the whole turn is chosen
    DONE = "done"

    @property
    def step(self) -> int:
        """1 for the build, 2 for the piece move (and the whole turn)."""
        return 1 if self in (Stage.TAKE, Stage.PUT) else 2


@dataclass(frozen=True)
class Choice:
    """One thing to choose: on the board (``cell``, its index) or beside it (``cell`` None:
    a capture in place of the build, or no tile), its button ``label``, and the ``selection``
    that choosing it makes."""

    cell: int | None
    label: str
    selection: str


@dataclass(frozen=True)
class Screen:
    """One screen of the picker: its ``stage``; the ``selection`` it shows (after any forced
    choices); the ``choices``; the ``marked`` cell (the tile being taken or the piece being
    moved, shown on the board); the whole turn's notation when ``stage`` is DONE (``move``);
    and the selection of the previous real choice (``back``; ``None`` when there is none)."""

    stage: Stage
    selection: str
    choices: tuple[Choice, ...]
    marked: int | None = None
    move: str | None = None
    back: str | None = None

    @property
    def cells(self) -> tuple[Choice, ...]:
        """The choices on the board."""
        return tuple(c for c in self.choices if c.cell is not None)

    @property
    def extras(self) -> tuple[Choice, ...]:
        """The choices beside the board."""
        return tuple(c for c in self.choices if c.cell is None)


def _kind(action: str) -> str:
    """``>`` a tile move, ``-`` a piece move, ``x`` a capture (cell names hold none of them)."""
    return ">" if ">" in action else "-" if "-" in action else "x"


def _pair(move: str) -> Pair:
    """A turn's notation (canonical) as (build, other action)."""
    kinds = {_kind(a): a for a in move.split(" ")}
    tile, capture, step = kinds.get(">"), kinds.get("x"), kinds.get("-")
    if tile is not None:
        return tile, capture or step
    if capture is not None:
        return capture, step
    return None, step


def choices_for(move: str) -> list[str]:
    """The selections a player passes through to enter the turn ``move`` (canonical
    notation), one per choice, forced ones included.

    >>> choices_for("a4-b4 c1>e6")
    ['c1>', 'c1>e6', 'c1>e6 a4-', 'c1>e6 a4-b4']
    """
    picks = _pair_picks(_pair(move))
    return [_join(picks[: i + 1]) for i in range(len(picks))]


def turn_table(position: IsopathPosition) -> dict[Pair, str]:
    """Every legal turn as (build, other action) with its notation; a turn legal in both
    orders is noted build first.  The tables of the last :data:`TABLES_KEPT` positions are
    kept (a picker's steps all read the same position; mid-game an h5 position has ~20,000
    turns); do not change the dict returned."""
    if position.outcome is not None:
        return {}
    return _table(position.size, position.heights, position.pieces, position.to_move)


#: How many positions' turn tables are kept (see :func:`turn_table`): a table of a busy h5
#: position is ~10,000 turns, ~2.5 MB, so at most ~20 MB.
TABLES_KEPT = 8


@functools.lru_cache(maxsize=TABLES_KEPT)
def _table(
    size: int, heights: tuple[int, ...], pieces: tuple[int, ...], to_move: int
) -> dict[Pair, str]:
    position = IsopathPosition(size, heights, pieces, to_move, 0, None, None)
    table: dict[Pair, str] = {}
    for move in position.legal_moves():
        actions = move.split(" ")
        pair = _pair(move)
        known = table.get(pair)
        if known is None or (_kind(known.split(" ")[0]) != ">" and _kind(actions[0]) == ">"):
            table[pair] = move
    return table


def _pair_picks(pair: Pair) -> list[str]:
    """The choices that make the turn ``pair``, in the picker's order."""
    build, other = pair
    picks: list[str] = []
    if build is None:
        picks.append(NO_TILE)
    elif _kind(build) == ">":
        picks += [build.split(">")[0] + ">", build]
    else:
        picks.append(build)
    if other is not None:
        picks += [other.split("-")[0] + "-", other] if _kind(other) == "-" else [other]
    return picks


def _options(table: dict[Pair, str], picks: list[str]) -> tuple[Stage, list[str]]:
    """The stage after ``picks`` (assumed valid) and the choices it offers, in order."""
    if not picks:
        out: dict[str, None] = {}
        for tile, _ in table:
            if tile is not None and _kind(tile) == ">":
                out[tile.split(">")[0] + ">"] = None
        extras = sorted({b for b, _ in table if b is not None and _kind(b) == "x"})
        if any(b is None for b, _ in table):
            extras.append(NO_TILE)
        return Stage.TAKE, [*out, *extras]
    first = picks[0]
    if first.endswith(">"):
        if len(picks) == 1:
            return Stage.PUT, list(dict.fromkeys(b for b, _ in table if b and b.startswith(first)))
        build: str | None = picks[1]
        rest = picks[2:]
    else:
        build = None if first == NO_TILE else first
        rest = picks[1:]
    others = [o for b, o in table if b == build]
    if not rest:
        if others == [None]:
            return Stage.DONE, []
        pieces = {o.split("-")[0] + "-": None for o in others if o and _kind(o) == "-"}
        captures = list(dict.fromkeys(o for o in others if o and _kind(o) == "x"))
        return Stage.PIECE, [*pieces, *captures]
    if rest[0].endswith("-") and len(rest) == 1:
        return Stage.STEP, [o for o in others if o and o.startswith(rest[0])]
    return Stage.DONE, []


def _expand(selection: str) -> list[str]:
    """A selection's tokens as single choices (``c1>e6`` is ``c1>`` then ``c1>e6``)."""
    picks: list[str] = []
    for token in selection.split():
        for sign in (">", "-"):
            head, joined, tail = token.partition(sign)
            if joined and tail and head:
                picks.append(head + sign)
        picks.append(token)
    return picks


def _valid(table: dict[Pair, str], picks: list[str]) -> bool:
    for i, pick in enumerate(picks):
        stage, options = _options(table, picks[:i])
        if stage is Stage.DONE or pick not in options:
            return False
    return True


def _forced(table: dict[Pair, str], picks: list[str]) -> bool:
    """Whether the screen after ``picks`` leaves exactly one choice (made for the player)."""
    stage, options = _options(table, picks)
    return stage is not Stage.DONE and len(options) == 1


def _pair_of(picks: list[str]) -> Pair:
    """The turn that complete ``picks`` make."""
    if picks[0].endswith(">"):
        build: str | None = picks[1]
        rest = picks[2:]
    else:
        build = None if picks[0] == NO_TILE else picks[0]
        rest = picks[1:]
    return build, (rest[-1] if rest else None)


def _join(picks: list[str]) -> str:
    tokens: list[str] = []
    for pick in picks:
        if tokens and tokens[-1][-1:] in (">", "-") and pick.startswith(tokens[-1]):
            tokens[-1] = pick
        else:
            tokens.append(pick)
    return " ".join(tokens)


def _name(pick: str) -> str:
    """The cell a choice is made on: the tile's or piece's cell (``c1>``, ``a4-``), where it
    goes (``c1>e6``, ``a4-b4``), the piece captured (``xd4``)."""
    return pick.removeprefix("x").rstrip(">-").split(">")[-1].split("-")[-1]


def _label(pick: str) -> str:
    """How a choice reads on its button: a cell's name; a capture "✕ d4"; no tile."""
    if pick == NO_TILE:
        return texts.NO_TILE_LABEL
    if _kind(pick) == "x":
        return texts.capture_label(pick[1:])
    return _name(pick)


def screen(position: IsopathPosition, selection: str) -> Screen:
    """The picker's screen after ``selection`` in ``position`` (see the module docstring);
    raises :class:`~bot.sessions.context.Refusal` when it is not a choice the turn allows."""
    table = turn_table(position)
    text = " ".join(selection.split())
    tokens = text.split()
    whole = bool(tokens) and not any(t == NO_TILE or t[-1] in ">-" for t in tokens)
    # A whole turn, in whichever order its notation gives the actions, or the choices so far.
    picks = _pair_picks(_pair(text)) if whole and _pair(text) in table else _expand(text)
    if not _valid(table, picks):
        raise Refusal(f"No legal turn starts with {text}.")
    while _forced(table, picks):
        picks.append(_options(table, picks)[1][0])
    stage, options = _options(table, picks)
    back_picks = list(picks)
    back: str | None = None
    while back_picks:
        back_picks.pop()
        if not _forced(table, back_picks):
            back = _join(back_picks)
            break
    if stage is Stage.DONE:
        move = table[_pair_of(picks)]
        return Screen(stage, move, (), None, move, back)
    choices = []
    for option in options:
        # A capture in place of the build is beside the board: its cell may also be a tile
        # to take (after the capture, the tile under it is free).
        beside = stage is Stage.TAKE and not option.endswith(">")
        cell = None if beside else position.board.parse(_name(option))
        choices.append(Choice(cell, _label(option), _join([*picks, option])))
    marked = None
    if stage in (Stage.PUT, Stage.STEP):
        marked = position.board.parse(_name(picks[-1]))
    return Screen(stage, _join(picks), tuple(choices), marked, None, back)
