"""The move picker's logic for all five games: walking parts from the engines' completions
reaches exactly the legal moves."""

from __future__ import annotations

import random

import pytest

import engines
from bot.sessions.picker import matches, next_parts, page_count, split_parts
from engines import Position


def _walk(position: Position, prefix: str = "") -> set[str]:
    step = next_parts(position, prefix)
    found = {prefix} if step.complete else set()
    for part in step.parts:
        found |= _walk(position, prefix + part)
    return found


def _positions(game: str, plies: int, seed: int = 5) -> list[Position]:
    rng = random.Random(seed)
    position, out = engines.new(game), []
    for _ in range(plies):
        out.append(position)
        if position.outcome is not None:
            break
        position = position.play(position.random_move(rng))
    return out


@pytest.mark.parametrize("game", ["pathagon", "fixation", "maphex", "inphexion"])
def test_the_parts_reach_exactly_the_legal_moves(game: str) -> None:
    for position in _positions(game, 8):
        assert _walk(position) == set(position.legal_moves())


def test_isopath_turns_are_reached_part_by_part() -> None:
    for position in _positions("isopath", 3):
        legal = position.legal_moves()
        for move in random.Random(1).sample(legal, 20):
            prefix = ""
            for part in split_parts(move):
                assert part in next_parts(position, prefix).parts
                prefix += part
            assert next_parts(position, prefix).complete


def test_a_prefix_that_starts_no_move_is_not_legal() -> None:
    step = next_parts(engines.new("pathagon"), "z9")
    assert not step.legal and step.parts == ()


def test_matches_give_whole_moves_or_one_part_more() -> None:
    isopath = _positions("isopath", 3)[-1]
    beginnings = matches(isopath, "", 25)
    assert 0 < len(beginnings) <= 25
    assert all(
        " " not in b and b in {split_parts(m)[0] for m in isopath.legal_moves()} for b in beginnings
    )
    assert matches(engines.new("maphex"), "", 25) == engines.new("maphex").legal_moves()
    assert matches(engines.new("maphex"), "", 0) == []


def test_page_count() -> None:
    assert [page_count(n, 48) for n in (0, 1, 48, 49, 96, 97)] == [1, 1, 1, 2, 2, 3]
