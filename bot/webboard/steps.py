"""The page's move builder: what the player may tap next, as data the page draws without
knowing the game (issue 44).

A *step* answers "after these choices (the ``prefix``), what can I choose?": each choice is a
cell of the board (``c``), a region of it (``r``: Maphex's opening sub-board) or a button
beside it (neither), with the prefix that choosing it makes (``next``).  Most games build a
move from the parts of its notation (:func:`~bot.sessions.picker.next_parts`); Hexagonal
Iso-Path builds its turn as the chat's picker does (:mod:`bot.sessions.building`): take a tile,
put it, move a piece, with only the cells that matter lit and the chat's own prompts.

>>> import engines
>>> s = step(engines.new("pathagon"), "", 1)
>>> s["choices"][0], s["complete"], s["prompt"]
({'c': 'a1', 'r': None, 'label': 'a1', 'next': 'a1'}, False, 'Tap where your move starts.')
>>> iso = step(engines.new("isopath"), "b1>b2", 1)
>>> [c["c"] for c in iso["choices"]], iso["marked"]
(['a1', 'a2'], None)
>>> step(engines.new("maphex"), "", 1)["choices"][4]["r"]
4
"""

from __future__ import annotations

from typing import Any

import engines
from bot.refusal import Refusal
from bot.sessions import building, texts
from bot.sessions.picker import next_parts, part_label, readable, split_parts
from bot.webboard import view
from engines import PickerMode, Position

__all__ = ["step"]

_JOINERS = " >-"


def step(position: Position, prefix: str, game_id: int) -> dict[str, Any]:
    """The step after ``prefix`` in ``position`` (game ``game_id``, named in Iso-Path's
    prompts): ``choices``, ``complete`` (the prefix is a whole move: ``move``), ``prompt``,
    ``chosen`` (cells chosen so far), ``marked`` (the tile or piece being moved),
    ``after`` (the position after the whole move, as :func:`~bot.webboard.view.frame`),
    ``selection`` (the prefix with any choice the rules force made) and ``back`` (the
    prefix one real choice back; ``None`` at the start).
    ``ValueError`` for a prefix no legal move starts with."""
    if engines.GAMES[position.game].picker is PickerMode.BOARD:
        answer = _board(building.board_position(position), prefix, game_id)
    else:
        answer = _parts(position, prefix)
    move = answer["move"]
    answer["after"] = None if move is None else view.frame(position.play(move))
    return answer


def _parts(position: Position, prefix: str) -> dict[str, Any]:
    step = next_parts(position, prefix)
    if not step.legal:
        raise ValueError(prefix)
    shown: Any = position
    names = set(shown.board.names)
    subboard = getattr(shown, "subboard", None) or (0,)
    regions = (
        {str(i + 1): i for i in range(max(subboard) + 1)} if hasattr(shown, "subboard") else {}
    )
    choices = []
    for part in step.parts:
        bare = part.lstrip(_JOINERS)
        cell = bare if bare in names else None
        region = regions.get(bare) if cell is None else None
        choices.append({"c": cell, "r": region, "label": part_label(part), "next": prefix + part})
    chosen = [p.lstrip(_JOINERS) for p in split_parts(prefix) if p.lstrip(_JOINERS) in names]
    if step.complete:
        prompt = texts.web_move_ready(prefix, bool(step.parts))
    elif not prefix:
        regional = bool(choices) and all(c["r"] is not None for c in choices)
        prompt = texts.web_choose_region() if regional else texts.web_start_move()
    else:
        prompt = texts.web_next_part(readable(prefix))
    return {
        "choices": choices,
        "complete": step.complete,
        "move": prefix if step.complete else None,
        "prompt": str(prompt),
        "chosen": chosen,
        "marked": None,
        "back": "".join(split_parts(prefix)[:-1]) if prefix else None,
        "selection": prefix,
    }


def _board(position: building.BoardPosition, prefix: str, game_id: int) -> dict[str, Any]:
    """The step of a game whose picker is a board of cells (the chat's own picker screens)."""
    try:
        shown = building.screen(position, prefix)
    except Refusal as refusal:
        raise ValueError(prefix) from refusal
    board = position.board_view().shape.board
    number = position.ply + 1
    choices = [
        {
            "c": None if c.cell is None else board.name(c.cell),
            "r": None,
            "label": c.label,
            "next": c.selection,
        }
        for c in shown.choices
    ]
    marked = None if shown.marked is None else board.name(shown.marked)
    build = shown.selection.split(" ")[0] if shown.selection else ""
    words = texts.NO_TILE_LABEL if build == building.NO_TILE else readable(build)
    captures = any(c.selection.split(" ")[-1].startswith("x") for c in shown.choices)
    stage = shown.stage
    if stage is building.Stage.DONE:
        prompt = str(texts.web_move_ready(str(shown.move), False))
    elif stage is building.Stage.TAKE:
        prompt = texts.take_tile(game_id, number, captures)
    elif stage is building.Stage.PUT:
        prompt = texts.put_tile(game_id, number, str(marked))
    elif stage is building.Stage.PIECE:
        prompt = texts.move_piece(game_id, number, words, captures)
    else:
        prompt = texts.step_piece(game_id, number, words, str(marked))
    chosen = sorted(set(view.CELL.findall(shown.selection)))
    return {
        "choices": choices,
        "complete": shown.move is not None,
        "move": shown.move,
        "prompt": str(prompt),
        "chosen": chosen,
        "marked": marked,
        "back": shown.back,
        "selection": shown.selection,
    }
