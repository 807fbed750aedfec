"""The move picker: a move built part by part (a cell, then where it goes, ...) from the engines'
completions, for players who would rather tap than type.

A move's canonical notation splits into *parts* at its joining signs: ``b1>b2 a1-b2`` is
``b1``, ``>b2``, `` a1``, ``-b2``; ``e5`` is one part.  From a position and the parts chosen so
far (the *prefix*), :func:`next_parts` lists the parts that can follow and says whether the
prefix is already a whole legal move.  It works for every game because it only reads
``Position.completions``.  :func:`matches` serves typed autocompletion (Discord): whole moves
when they fit, else the prefixes one part further.

>>> import engines
>>> step = next_parts(engines.new("maphex"), "")
>>> step.parts[:3], step.complete
(('1', '2', '3'), False)
>>> split_parts("b1>b2 a1-b2")
['b1', '>b2', ' a1', '-b2']
>>> matches(engines.new("pathagon"), "g", 3)
['g1', 'g2', 'g3']

Hexagonal Iso-Path is picked differently: its turn is two short steps, each a board of cells
(the build, then the piece move; :mod:`bot.sessions.building`, :func:`board_step`), its
choices being cells rather than parts of the notation, ending in the whole turn
(:attr:`Picker.move`) for the adapter to preview.

:func:`open_picker` is the session side: it checks that the player is to move at the ply the
buttons were made for and answers with a :class:`Picker` (the buttons of the next step), which
adapters lay out as a keyboard.  Button ids: ``pk:<game>`` opens the picker at the current ply,
``pp:<game>:<ply>:<page>:=<prefix>`` shows a step, ``mv:<game>:<ply>:<move>`` plays the move and
``pc:<game>`` closes the picker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import engines
from bot.messages import Action, ActionKind, Chat, User, parse_action
from bot.sessions import building, loading, texts, turns
from bot.sessions.context import Context, Refusal, checked_id
from engines import PickerMode, Position

__all__ = [
    "PAGE_SIZE",
    "Picker",
    "Step",
    "board_step",
    "matches",
    "next_parts",
    "open_picker",
    "page_count",
    "part_label",
    "pick",
    "readable",
    "split_parts",
    "suggestions",
]

#: Parts shown on one page of the picker (Telegram allows 100 buttons per keyboard; the rest
#: of the keyboard is Back, Cancel, Play it and the page buttons).
PAGE_SIZE = 48
# Every move, however many there are (Iso-Path has thousands of turns).
_ALL = 1_000_000
# A part: an optional joining sign, then the text up to the next sign.
_PART = re.compile(r"[ >\-]?[^ >\-]+")
_JOINERS = " >-"
# What a picker step's prefix field starts with (an action field may not be empty).
PREFIX_MARK = "="


def split_parts(move: str) -> list[str]:
    """The parts of a move (or of a prefix) in canonical notation, joining signs kept."""
    return _PART.findall(move)


@dataclass(frozen=True)
class Step:
    """What can follow a prefix: the next ``parts`` (distinct, in the engine's move order),
    whether the prefix is already a ``complete`` legal move, and which of the parts are
    ``final`` (each makes a whole move that nothing can follow: choosing it plays it)."""

    parts: tuple[str, ...]
    complete: bool
    final: frozenset[str] = frozenset()

    @property
    def legal(self) -> bool:
        """Whether the prefix starts (or is) a legal move at all."""
        return self.complete or bool(self.parts)


def next_parts(position: Position, prefix: str) -> Step:
    """The parts that can follow ``prefix`` (canonical parts joined) in ``position``."""
    parts: dict[str, None] = {}
    ends: set[str] = set()
    goes_on: set[str] = set()
    complete = False
    for move in position.completions(prefix, _ALL):
        if not move.startswith(prefix):
            continue  # completions may read a prefix more loosely than part by part
        rest = move[len(prefix) :]
        if not rest:
            complete = True
        elif not prefix or rest[0] in _JOINERS:
            head = _PART.match(rest)
            part = head.group() if head else rest
            parts[part] = None
            (ends if part == rest else goes_on).add(part)
    return Step(tuple(parts), complete, frozenset(ends - goes_on))


def part_label(part: str) -> str:
    """A part as a player reads it on a button: a cell as itself, where a piece or a tile goes
    as an arrow to its cell (``>b2`` and ``-b2`` are "→ b2"), a capture as "take d4".

    >>> part_label(" a1"), part_label(">b2"), part_label("-f4"), part_label("xd4")
    ('a1', '→ b2', '→ f4', 'take d4')
    """
    bare = part.strip()
    if bare[:1] in (">", "-"):
        return f"→ {bare[1:]}"
    if bare[:1] == "x" and len(bare) > 1 and bare[1].isalpha():
        return texts.take_label(bare[1:])
    return bare


def matches(position: Position, typed: str, limit: int = 25) -> list[str]:
    """Suggestions for a partly typed move, most useful first: every whole legal move that
    starts with ``typed`` when at most ``limit`` do, else the distinct beginnings one part
    beyond ``typed`` (so choosing one narrows the list)."""
    if limit <= 0:
        return []
    text = " ".join(typed.lower().split())
    found = [m for m in position.completions(text, _ALL) if m.startswith(text)]
    if len(found) <= limit:
        return found
    out: dict[str, None] = {}
    for move in found:
        rest = move[len(text) :]
        # Finish the part being typed, or take the next one when a part just ended.
        head = _PART.match(rest)
        cut = len(text) + (head.end() if head else len(rest))
        out[move[:cut]] = None
        if len(out) >= limit:
            break
    return list(out)


def page_count(total: int, size: int = PAGE_SIZE) -> int:
    """How many pages ``total`` parts fill (at least one)."""
    return max(1, -(-total // size))


@dataclass(frozen=True)
class Picker:
    """One step of the move picker for a game: a one-line ``text`` saying where the player is,
    the ``parts`` to choose from (this page), and the ``controls`` (Play it, Back, the page
    buttons, Cancel), all as actions.

    Iso-Path's steps (:mod:`bot.sessions.building`) are boards of cells: ``board`` holds the
    board's rows, one action per cell (a live cell is one of ``parts``; any other re-shows
    this step), for adapters that can lay buttons out as a board; ``parts`` also lists the
    choices beside the board (a capture instead of the build).  When the whole turn is chosen
    ``move`` is its notation (and ``prefix`` too): the adapter shows its preview."""

    text: str
    game_id: int
    ply: int
    prefix: str
    parts: tuple[Action, ...]
    controls: tuple[Action, ...]
    board: tuple[tuple[Action, ...], ...] = ()
    move: str | None = None


def readable(prefix: str) -> str:
    """A prefix as the picker's buttons showed it: its parts' labels.

    >>> readable("b1>b2 a1")
    'b1 → b2, a1'
    """
    parts = split_parts(prefix)
    said = ""
    for part in parts:
        label = part_label(part)
        said += (" " if label.startswith("→") else ", ") + label if said else label
    return said


def _forced(step: Step) -> bool:
    """Whether a step leaves one choice that does not end the move (taken at once)."""
    return len(step.parts) == 1 and not step.complete and step.parts[0] not in step.final


def _step_action(label: str, game_id: int, ply: int, page: int, prefix: str) -> Action:
    return Action.make(label, ActionKind.PICK_STEP, game_id, ply, page, PREFIX_MARK + prefix)


async def open_picker(
    ctx: Context,
    user: User,
    chat: Chat,
    game_id: int,
    ply: int | None = None,
    prefix: str = "",
    page: int = 0,
    page_size: int = PAGE_SIZE,
) -> Picker:
    """The picker step for ``user`` in game ``game_id`` after choosing ``prefix``.

    ``ply`` is the ply the buttons were made for (``None``: the game's current ply).  Raises
    :class:`Refusal` unless ``user`` may move in that game at that ply (the one decision of
    :func:`~bot.sessions.turns.may_move`, with its code) and ``prefix`` starts a legal move.
    """
    gid = checked_id(game_id, "game")
    me = await loading.player(ctx, user)
    loaded = await loading.load(ctx, gid)
    row, position = loaded.row, loaded.position
    decided = turns.may_move(row, position, me.id, ctx.now(), ply)
    if isinstance(decided, turns.Refused):
        raise await turns.refusal_calling_time(ctx, row, position, decided)
    if engines.GAMES[position.game].picker is PickerMode.BOARD:
        return board_step(gid, row.ply, building.board_position(position), prefix)
    step = next_parts(position, prefix)
    if not step.legal:
        raise Refusal(texts.no_move_starts(gid, prefix))
    # A part that is the only choice is taken at once (the rules leave nothing to choose).
    while _forced(step):
        prefix += step.parts[0]
        step = next_parts(position, prefix)
    pages = page_count(len(step.parts), page_size)
    page = min(max(page, 0), pages - 1)
    shown = step.parts[page * page_size : (page + 1) * page_size]
    parts = tuple(
        # A part that ends the move plays it: no "Play" tap after it.
        Action.make(part_label(part), ActionKind.MOVE, gid, row.ply, prefix + part)
        if part in step.final
        else _step_action(part_label(part), gid, row.ply, 0, prefix + part)
        for part in shown
    )
    controls: list[Action] = []
    if step.complete:
        play = texts.play_label(prefix)
        controls.append(Action.make(play, ActionKind.MOVE, gid, row.ply, prefix))
    if pages > 1:
        if page > 0:
            controls.append(_step_action("◀", gid, row.ply, page - 1, prefix))
        if page < pages - 1:
            controls.append(_step_action("▶", gid, row.ply, page + 1, prefix))
    if prefix:
        # Back to the last real choice (the parts taken for the player are skipped too).
        pieces = split_parts(prefix)[:-1]
        while pieces and _forced(next_parts(position, "".join(pieces))):
            pieces.pop()
        back = "".join(pieces)
        controls.append(_step_action("Back", gid, row.ply, 0, back))
    controls.append(Action.make("Cancel", ActionKind.PICK_CLOSE, gid))
    if not prefix:
        text = texts.picker_start(gid, row.ply + 1)
    elif step.parts:
        text = texts.picker_so_far(gid, row.ply + 1, readable(prefix), step.complete)
    else:
        text = texts.picker_complete(gid, row.ply + 1, readable(prefix))
    if pages > 1:
        text = texts.picker_page(text, page + 1, pages)
    return Picker(text, gid, row.ply, prefix, parts, tuple(controls))


def board_step(gid: int, ply: int, position: building.BoardPosition, selection: str) -> Picker:
    """A board picker's step (``PickerMode.BOARD``) in game ``gid`` at ``ply`` after
    ``selection``: the build, then the piece move, each a board of cells (see
    :mod:`bot.sessions.building`); raises :class:`Refusal` for a selection no legal turn
    allows."""
    shown = building.screen(position, selection)
    stage, number = shown.stage, ply + 1
    cancel = Action.make("Cancel", ActionKind.PICK_CLOSE, gid)
    back = None if shown.back is None else _step_action("Back", gid, ply, 0, shown.back)
    if shown.move is not None:
        play = Action.make(texts.play_label(shown.move), ActionKind.MOVE, gid, ply, shown.move)
        text = texts.picker_complete(gid, number, readable(shown.move))
        done = (play, back, cancel) if back is not None else (play, cancel)
        return Picker(text, gid, ply, shown.move, (), done, (), shown.move)
    parts = tuple(_step_action(c.label, gid, ply, 0, c.selection) for c in shown.choices)
    by_cell = {c.cell: part for c, part in zip(shown.choices, parts, strict=True)}
    view = position.board_view()
    board = view.shape.board
    rows: dict[int, list[Action]] = {}
    for cell in board.cells:
        action = by_cell.get(cell)
        if action is None:
            name = board.name(cell)
            # A cell that is no choice shows this step again; the marked one goes back.
            target = shown.selection if shown.back is None else shown.back
            if cell == shown.marked:
                label = f"({name})"
            else:
                label, target = texts.cell_mark(view.pieces[cell]), shown.selection
            action = _step_action(label, gid, ply, 0, target)
        rows.setdefault(board.row(cell), []).append(action)
    build = shown.selection.split(" ")[0]
    words = texts.NO_TILE_LABEL if build == building.NO_TILE else readable(build)
    marked = "" if shown.marked is None else board.name(shown.marked)
    captures = any(c.selection.split(" ")[-1].startswith("x") for c in shown.choices)
    if stage is building.Stage.TAKE:
        text = texts.take_tile(gid, number, captures)
    elif stage is building.Stage.PUT:
        text = texts.put_tile(gid, number, marked)
    elif stage is building.Stage.PIECE:
        text = texts.move_piece(gid, number, words, captures)
    else:
        text = texts.step_piece(gid, number, words, marked)
    controls = (back, cancel) if back is not None else (cancel,)
    laid = tuple(tuple(rows[r]) for r in sorted(rows))
    return Picker(text, gid, ply, shown.selection, parts, controls, laid)


async def pick(ctx: Context, user: User, chat: Chat, action_id: str) -> Picker:
    """The picker step a ``pk`` or ``pp`` button asks for (see the module docstring)."""
    parsed = parse_action(action_id)
    if parsed is None or parsed[0] not in (ActionKind.PICK, ActionKind.PICK_STEP):
        raise Refusal(texts.NOT_MY_BUTTON)
    kind, fields = parsed
    numbers = fields[:3] if kind is ActionKind.PICK_STEP else fields
    if not all(f.isdigit() and len(f) < 12 for f in numbers):
        raise Refusal(texts.NOT_MY_BUTTON)
    if kind is ActionKind.PICK:
        return await open_picker(ctx, user, chat, int(fields[0]))
    if not fields[3].startswith(PREFIX_MARK):
        raise Refusal(texts.NOT_MY_BUTTON)
    prefix = fields[3][len(PREFIX_MARK) :]
    return await open_picker(
        ctx, user, chat, int(fields[0]), int(fields[1]), prefix, int(fields[2])
    )


async def suggestions(
    ctx: Context, user: User, chat: Chat, game_id: int | None, typed: str, limit: int = 25
) -> list[str]:
    """:func:`matches` in ``user``'s game (their only active one in ``chat`` when no id is
    given); empty when they are not to move in it (autocompletion never refuses)."""
    try:
        me = await loading.player(ctx, user)
        gid = await loading.pick_game(ctx, me, chat, game_id)
        loaded = await loading.load(ctx, gid)
    except Refusal:
        return []
    row, position = loaded.row, loaded.position
    if not isinstance(turns.may_move(row, position, me.id, ctx.now()), turns.MayMove):
        return []
    return matches(position, typed, limit)
