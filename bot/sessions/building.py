"""The move picker of a game whose picker is a board of cells (``engines.PickerMode.BOARD``):
its turn as a player thinks of it, two short steps, each one board of cells.

1. **The first step** (Iso-Path's build): a relocation, chosen as two cells (which tile to
   take, then where to put it); or, in its place, a one-cell action beside the board (a
   capture), or nothing at all when the second step alone makes a turn.
2. **The second step** (the piece move): a step, chosen as two cells (which piece, then where
   it goes); or a one-cell action (a capture) in its place.

Which turns exist, by their two steps, is the game's own knowledge: its record's
:attr:`~engines.Game.turns` gives the table of a position (:data:`engines.base.TurnTable`);
nothing here knows a game.  A turn's notation lists its actions in the order they are played
(``a4-b4 c1>e6`` when the piece must leave ``c1`` before its tile can be taken); the picker
always asks for the first step first and then finds the legal turn that holds both choices,
whichever order it needs.  A choice the rules force (one tile, one place, one piece, one step)
is made for the player.  Nothing here reads the store: a :class:`Screen` is a pure function of
a position and a *selection*.

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
from collections.abc import Callable
from dataclasses import dataclass

import engines
from bot.core.lru import Lru
from bot.refusal import Refusal
from bot.sessions import texts
from engines import PickerMode, Position
from engines.base import TurnSteps, TurnTable, action_kind

__all__ = [
    "NO_TILE",
    "BoardPosition",
    "Choice",
    "Screen",
    "Stage",
    "board_position",
    "choices_for",
    "screen",
    "turn_table",
]

#: A position of a game whose picker is a board of cells (``engines.PickerMode.BOARD``).
BoardPosition = Position


def _turns(position: Position) -> Callable[[Position], TurnTable]:
    """The turn table of ``position``'s game (``TypeError`` when its picker is no board)."""
    game = engines.GAMES.get(position.game)
    if game is None or game.picker is not PickerMode.BOARD or game.turns is None:
        raise TypeError(f"no board picker for a {position.game} position")
    return game.turns


def board_position(position: Position) -> BoardPosition:
    """``position`` as a position this module builds boards for (``TypeError`` otherwise)."""
    _turns(position)
    return position


#: The token of "no tile this turn" (a lone piece move that wins).
NO_TILE = "_"
# A turn as (build, other action): the build is a tile move, a capture in its place or None;
# the other action is a piece move, a capture in its place, or None (the build alone wins).
Pair = TurnSteps


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


_kind = action_kind


def _pair(table: TurnTable, text: str) -> Pair | None:
    """The turn of ``table`` whose actions are those of ``text`` (a turn's notation, its
    actions in either order), if there is one: a turn's two steps are its actions."""
    actions = text.split()
    if len(actions) == 1:
        candidates: list[Pair] = [(actions[0], None), (None, actions[0])]
    elif len(actions) == 2:
        candidates = [(actions[0], actions[1]), (actions[1], actions[0])]
    else:
        return None
    return next((c for c in candidates if c in table), None)


def choices_for(position: Position, move: str) -> list[str]:
    """The selections a player passes through to enter the turn ``move`` (its notation) in
    ``position``, one per choice, forced ones included; ``ValueError`` if it is no turn of it.

    >>> choices_for(engines.new("isopath"), "a2-b2 b1>b2")
    ['b1>', 'b1>b2', 'b1>b2 a2-', 'b1>b2 a2-b2']
    """
    pair = _pair(turn_table(position), " ".join(move.split()))
    if pair is None:
        raise ValueError(move)
    picks = _pair_picks(pair)
    return [_join(picks[: i + 1]) for i in range(len(picks))]


def turn_table(position: Position) -> TurnTable:
    """Every legal turn of ``position`` as (build, other action) with its notation, as its
    game's record gives it (:attr:`engines.Game.turns`); ``TypeError`` for a game whose
    picker is no board."""
    return _turns(position)(position)


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


@dataclass(frozen=True)
class _Index:
    """A turn table read once for :func:`_options`: the first screen's choices, the builds
    (first occurrence order) and each build's other actions (table order).  A screen asks
    several questions of one table (each choice made so far, the forced ones, the way back),
    and a player's screens of one turn all ask them of the same table: Iso-Path's has hundreds
    to thousands of turns, which each question scanned."""

    take: list[str]
    builds: dict[str | None, list[str | None]]

    @classmethod
    def of(cls, table: TurnTable) -> _Index:
        """The index of ``table`` (the last few tables' are kept: tables are cached per
        position, and a player's screens of one turn share one)."""
        kept = _INDEXES.get(id(table))
        if kept is not None and kept[0] is table:
            return kept[1]
        builds: dict[str | None, list[str | None]] = {}
        for tile, other in table:
            others = builds.get(tile)
            if others is None:
                others = builds[tile] = []
            others.append(other)
        out = {b.split(">")[0] + ">": None for b in builds if b is not None and _kind(b) == ">"}
        extras = sorted(b for b in builds if b is not None and _kind(b) == "x")
        if None in builds:
            extras.append(NO_TILE)
        index = cls([*out, *extras], builds)
        # The table itself is kept with its index, so its id names no other table meanwhile.
        _INDEXES[id(table)] = (table, index)
        return index


#: The indexes of the last tables read, by the table's id.
_INDEXES: Lru[int, tuple[TurnTable, _Index]] = Lru(8)


def _options(index: _Index, picks: list[str]) -> tuple[Stage, list[str]]:
    """The stage after ``picks`` (assumed valid) and the choices it offers, in order."""
    if not picks:
        return Stage.TAKE, list(index.take)
    first = picks[0]
    if first.endswith(">"):
        if len(picks) == 1:
            return Stage.PUT, [b for b in index.builds if b and b.startswith(first)]
        build: str | None = picks[1]
        rest = picks[2:]
    else:
        build = None if first == NO_TILE else first
        rest = picks[1:]
    others = index.builds.get(build, [])
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


def _valid(index: _Index, picks: list[str]) -> bool:
    for i, pick in enumerate(picks):
        stage, options = _options(index, picks[:i])
        if stage is Stage.DONE or pick not in options:
            return False
    return True


def _forced(index: _Index, picks: list[str]) -> bool:
    """Whether the screen after ``picks`` leaves exactly one choice (made for the player)."""
    stage, options = _options(index, picks)
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


def screen(position: Position, selection: str) -> Screen:
    """The picker's screen after ``selection`` in ``position`` (see the module docstring);
    raises :class:`~bot.refusal.Refusal` when it is not a choice the turn allows."""
    table = turn_table(position)
    text = " ".join(selection.split())
    tokens = text.split()
    whole = bool(tokens) and not any(t == NO_TILE or t[-1] in ">-" for t in tokens)
    # A whole turn, in whichever order its notation gives the actions, or the choices so far.
    pair = _pair(table, text) if whole else None
    picks = _expand(text) if pair is None else _pair_picks(pair)
    index = _Index.of(table)
    if not _valid(index, picks):
        raise Refusal(texts.web_no_such_start(text))
    while _forced(index, picks):
        picks.append(_options(index, picks)[1][0])
    stage, options = _options(index, picks)
    back_picks = list(picks)
    back: str | None = None
    while back_picks:
        back_picks.pop()
        if not _forced(index, back_picks):
            back = _join(back_picks)
            break
    if stage is Stage.DONE:
        move = table[_pair_of(picks)]
        return Screen(stage, move, (), None, move, back)
    board = position.board_view().shape.board
    choices = []
    for option in options:
        # A capture in place of the build is beside the board: its cell may also be a tile
        # to take (after the capture, the tile under it is free).
        beside = stage is Stage.TAKE and not option.endswith(">")
        cell = None if beside else board.parse(_name(option))
        choices.append(Choice(cell, _label(option), _join([*picks, option])))
    marked = None
    if stage in (Stage.PUT, Stage.STEP):
        marked = board.parse(_name(picks[-1]))
    return Screen(stage, _join(picks), tuple(choices), marked, None, back)
