"""Drawn parts are kept within a byte budget, however many moves are drawn (issue 48: the
status band's text is new at almost every move, and a count bound let a long-running bot keep
hundreds of MiB of text and arrow sprites).

Structural checks on the caches' own bookkeeping (entries and bytes of the pixels kept), never
a timing or the process's resident memory, which depends on the machine
(``benchmarks/memory.py`` measures that).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import render
from render import _core, _pipeline
from render._budget import budgeted
from tests.engines.properties import random_game

#: a budget small enough that a few dozen boards overflow it
SMALL = 256 * 1024


@pytest.fixture
def small_budgets() -> Iterator[None]:
    """The text and arrow caches with a small byte budget, empty before and after."""
    _pipeline.clear_caches(cuts=False)
    saved = (_core.text_sprite.most_bytes, _core.arrow.most_bytes)
    _core.text_sprite.most_bytes = _core.arrow.most_bytes = SMALL
    try:
        yield
    finally:
        _core.text_sprite.most_bytes, _core.arrow.most_bytes = saved
        _pipeline.clear_caches(cuts=False)


def test_the_weight_never_passes_the_budget_and_the_recent_ones_stay() -> None:
    @budgeted(100, weigh=len, most=50)
    def word(n: int) -> str:
        return "x" * (n % 30)

    for n in range(1_000):
        word(n)
        assert word.weight <= 100 and word.cache_info().currsize <= 50
        word(max(0, n - 1))  # the one before stays: it was used again
    info = word.cache_info()
    assert info.weight == word.weight <= 100 and info.currsize < 1_000
    assert info.misses + info.hits == 2_000


def test_the_entry_limit_holds_as_well() -> None:
    @budgeted(10**9, weigh=lambda _: 1, most=8)
    def same(n: int) -> int:
        return n

    for n in range(100):
        same(n)
    assert same.cache_info().currsize == 8
    assert same.cache_info().misses == 100
    same(99)
    assert same.cache_info().hits == 1


def test_a_result_heavier_than_the_budget_is_kept_alone() -> None:
    @budgeted(10, weigh=len)
    def word(n: int) -> str:
        return "y" * n

    word(3)
    word(4)
    assert word(50) == "y" * 50
    assert word.cache_info().currsize == 1 and word.weight == 50
    word(2)  # the heavy one goes as soon as anything else comes
    assert word.cache_info().currsize == 1 and word.weight == 2


def test_clearing_forgets_the_bytes_too() -> None:
    @budgeted(100, weigh=len)
    def word(n: int) -> str:
        return "z" * n

    word(5)
    word.cache_clear()
    assert word.weight == 0 and word.cache_info().currsize == 0


@pytest.mark.usefixtures("small_budgets")
@pytest.mark.parametrize(("game", "options"), [("isopath", {}), ("fixation", {})])
def test_boards_of_a_long_game_keep_the_sprites_within_budget(
    game: str, options: dict[str, int]
) -> None:
    """Every move of a long game writes a new status text and arrows of many lengths: the
    caches forget old ones instead of growing with the moves."""
    positions = random_game(game, options, seed=3, max_plies=80)
    assert len(positions) > 40
    for position in positions:
        render.board_png(position)
        for cache in (_core.text_sprite, _core.arrow):
            assert cache.weight <= SMALL
    texts = _core.text_sprite.cache_info()
    # More text was drawn than the budget holds, so some was forgotten: the bound did work.
    assert texts.currsize < texts.misses


def test_the_real_budgets_are_bytes_of_mib() -> None:
    assert _core.text_sprite.most_bytes == _core.TEXT_BYTES <= 16 * 2**20
    assert _core.arrow.most_bytes == _core.ARROW_BYTES <= 32 * 2**20
