"""The examples in the session modules' docstrings run (bot/ is not in pytest's testpaths)."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from bot import cli, commands, config, messages, store


@pytest.mark.parametrize("module", [cli, commands, config, messages, store])
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
