"""The shape of the whole of ``bot/`` (issue 23): no import cycle between its modules or its
packages, and no module over 900 lines.  The edges are read as :mod:`tests.bot.test_layering`
reads them (function-level imports count)."""

from __future__ import annotations

from tests.bot.test_layering import BOT, cycles, module_edges, package_edges

#: The longest a module of ``bot/`` may be, in lines.
LONGEST = 900


def test_no_import_cycle_between_modules_of_bot() -> None:
    assert cycles(module_edges()) == []


def test_no_import_cycle_between_packages_of_bot() -> None:
    assert cycles(package_edges()) == []


def test_no_module_of_bot_is_over_900_lines() -> None:
    sizes = {str(p.relative_to(BOT)): len(p.read_text().splitlines()) for p in BOT.rglob("*.py")}
    assert {name: n for name, n in sizes.items() if n > LONGEST} == {}
