"""Every illegal-move code the engines give has its sentence, once, and each reads.

The engines raise :class:`engines.IllegalMove` with a code and arguments; the sentences live in
:mod:`bot.sessions.texts.illegal`.  Checked here: the mapping holds exactly the codes of the
engines; every raise in the engines whose code is written out passes exactly the arguments its
sentence names; every sentence formats with such arguments; and the errors real play meets read
as sentences.
"""

from __future__ import annotations

import ast
import enum
import random
import string
from pathlib import Path
from typing import Any

import pytest

import engines
from bot.sessions import texts
from bot.sessions.texts.illegal import ILLEGAL_MOVES, READ_ALSO, illegal_move
from engines import IllegalMove, IllegalMoveCode
from tests.scripts import ROOT

#: Every code an engine may give: the shared ones and each game's own.
CODES: tuple[enum.StrEnum, ...] = (
    *IllegalMoveCode,
    *(code for game in engines.GAMES.values() for code in game.codes),
)


def fields(template: str) -> set[str]:
    """The argument names ``template`` formats."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def example(name: str) -> Any:
    """A value such as an engine gives for the argument ``name``."""
    if name == "cells":
        return ("b3", "c4")
    if name == "reason":
        return IllegalMove(IllegalMoveCode.EMPTY)
    if name in ("count", "size", "height", "maximum", "length", "number"):
        return 7
    return "c3"


def test_every_code_has_exactly_one_sentence() -> None:
    assert len(set(CODES)) == len(CODES), "two codes share a value"
    assert set(ILLEGAL_MOVES) == set(CODES)
    assert texts.ILLEGAL_MOVES is ILLEGAL_MOVES and texts.illegal_move is illegal_move


@pytest.mark.parametrize("code", CODES, ids=str)
def test_each_sentence_formats_with_its_arguments(code: enum.StrEnum) -> None:
    template = ILLEGAL_MOVES[code]
    exc = IllegalMove(code, {name: example(name) for name in fields(template)})
    sentence = illegal_move(exc)
    assert sentence and "\n" not in sentence and "{" not in sentence and "}" not in sentence
    # str() reads the same sentence (the texts set the engines' explainer when loaded).
    assert str(exc) == sentence


def _raises_in_engines() -> list[tuple[str, str, set[str]]]:
    """Every place in ``engines/`` that writes out a code with its arguments: a raise
    ``IllegalMove(SomeCode.NAME, name=...)`` or a ``(SomeCode.NAME, {"name": ...})`` pair, as
    (where, code name, argument names)."""
    found = []
    for path in sorted((ROOT / "engines").rglob("*.py")):
        where = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "IllegalMove"
                and node.args
                and isinstance(node.args[0], ast.Attribute)
                and len(node.args) == 1
            ):
                names = {k.arg for k in node.keywords if k.arg is not None}
                found.append((where, node.args[0].attr, names))
            elif (
                isinstance(node, ast.Tuple)
                and len(node.elts) == 2
                and isinstance(node.elts[0], ast.Attribute)
                and isinstance(node.elts[0].value, ast.Name)
                and node.elts[0].value.id == "IllegalMoveCode"
                and isinstance(node.elts[1], ast.Dict)
            ):
                keys = {k.value for k in node.elts[1].keys if isinstance(k, ast.Constant)}
                found.append((where, node.elts[0].attr, keys))
    return found


def test_each_raise_in_the_engines_passes_what_its_sentence_names() -> None:
    by_module = {f"engines/{game.name}.py": game.codes for game in engines.GAMES.values()} | {
        "engines/base.py": IllegalMoveCode,
        "engines/__init__.py": IllegalMoveCode,
    }
    raises = _raises_in_engines()
    assert len(raises) > 60  # most codes are written out where they are raised
    for where, name, given in raises:
        codes = by_module[where]
        code = codes[name] if name in codes.__members__ else IllegalMoveCode[name]
        assert given == fields(ILLEGAL_MOVES[code]) | READ_ALSO.get(code, set()), (where, name)


def _attempts(position: engines.Position, rng: random.Random) -> list[str]:
    """Moves a player might type: legal ones cut short, glued, doubled or garbled."""
    legal = position.legal_moves() or ["a1"]
    move = rng.choice(legal)
    other = rng.choice(legal)
    return [
        move[:-1],
        move + move,
        f"{move} {other}",
        f"{other} {move} {move}",
        move.replace("-", ">"),
        move.replace(">", "-"),
        "z9",
        "x" + move,
        "a1-a1",
        "swap",
        "99",
        "",
        "é",
        "a" * 90,
    ]


def test_errors_met_in_play_read_as_sentences() -> None:
    rng = random.Random(42)
    seen: set[enum.StrEnum] = set()
    for game in engines.GAMES.values():
        for seed in range(12):
            rng.seed(seed)
            options = {o.name: rng.choice(o.values) for o in game.options}
            position = engines.new(game.name, **options)
            for _ in range(rng.randrange(0, 40)):
                if position.outcome is not None:
                    break
                position = position.play(position.random_move(rng))
            for text in _attempts(position, rng):
                try:
                    position.play(text)
                except IllegalMove as exc:
                    seen.add(exc.code)
                    sentence = illegal_move(exc)
                    assert sentence and "{" not in sentence and "\n" not in sentence
    # Real play meets a good share of the codes (the others are covered by the engines' tests).
    assert len(seen) >= 25, sorted(seen)


def test_a_move_of_a_list_names_its_number_and_the_inner_reason() -> None:
    with pytest.raises(IllegalMove) as caught:
        engines.position_after("maphex", ["5", "a1"])
    assert caught.value.code is IllegalMoveCode.IN_LIST
    assert illegal_move(caught.value) == (
        "move 2 (a1) is illegal: a1 is not in the target sub-board (centre, 5)"
    )


def test_the_engines_hold_no_sentence() -> None:
    """No raise in the engines carries text: each gives a code first."""
    for path in sorted((ROOT / "engines").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalMove":
                first = node.args[0] if node.args else None
                assert not isinstance(first, ast.Constant | ast.JoinedStr), (
                    f"{Path(path).name}:{node.lineno}"
                )
