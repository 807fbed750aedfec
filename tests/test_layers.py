"""The layer contract, over the whole tree: each layer imports only from itself and the layers
below it, every import counted (those inside functions too), read with :mod:`ast`.

From the bottom: the engines (pure rules: nothing from ``bot`` or ``render``); the shared values
(``bot/core`` and the plain modules every layer reads: messages, limits, ratings...); the
pictures (``render``); the store (``bot/storage``); delivery (``bot/delivery``, and the HTTP
plumbing in ``bot/web.py``); the sessions (``bot/sessions``); the surfaces (``bot/adapters``,
``bot/webboard``), which never reach the store, the sessions' machinery nor each other; and the
app on top (``bot/app.py``, ``bot/cli.py``).

Imports that break the contract today are listed in :data:`KNOWN_DEBT`, each named: the test
fails on any new one and on any listed one that no longer occurs, so the list only shrinks.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

from tests.scripts import ROOT

#: The layers from the bottom up: a module belongs to the first layer with a prefix of its name
#: (a package, or a module).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("engines", ("engines",)),
    (
        "shared values",
        (
            "bot.core",
            "bot.actions",
            "bot.messages",
            "bot.outcomes",
            "bot.refusal",
            "bot.limits",
            "bot.config",
            "bot.deadlines",
            "bot.ratings",
            "bot.level_ratings",
            "bot.tournaments",
            "bot.workers",
            "bot.heap",
        ),
    ),
    ("render", ("render",)),
    ("storage", ("bot.storage", "bot.metrics")),
    ("delivery", ("bot.delivery", "bot.web")),
    ("sessions", ("bot.sessions",)),
    ("surfaces", ("bot.adapters", "bot.webboard")),
    ("app", ("bot.app", "bot.cli", "bot.__main__", "bot")),
)
#: The surfaces' packages: each uses the sessions, never the store nor another surface.
SURFACES = ("bot.adapters", "bot.webboard")
#: What no surface may import, though it lies below them: the store, and the sessions' own
#: machinery (the shared context, loading rows, the values' checks, the services' base): a
#: surface calls the services the manager owns (``manager.games``...) and reads shared values.
NOT_FOR_SURFACES = (
    "bot.storage",
    "bot.sessions.context",
    "bot.sessions.loading",
    "bot.sessions.validate",
    "bot.sessions.services.base",
)

#: Imports that break the contract today, as (importing module, imported module) with what
#: they use.  Known debt: each is to be removed (never added to); the test fails once one no
#: longer occurs, so its line is deleted with it.
KNOWN_DEBT: frozenset[tuple[str, str]] = frozenset()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    """Every module of the three packages, by its dotted name."""
    found: dict[str, Path] = {}
    for top in ("engines", "render", "bot"):
        for path in sorted((ROOT / top).rglob("*.py")):
            found[_module_name(path)] = path
    return found


MODULES = _modules()


@functools.cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _statements(tree: ast.Module) -> Iterator[ast.AST]:
    """Every statement of ``tree``, at any depth (an import is one: the expressions, most of
    the nodes, are not walked)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(
            child
            for child in ast.iter_child_nodes(node)
            if isinstance(child, ast.stmt | ast.excepthandler | ast.match_case)
        )


def imports_of(name: str, path: Path) -> Iterator[str]:
    """The modules of the tree that module ``name`` (file ``path``) imports, anywhere in it:
    for ``from package import thing``, the module ``package.thing`` when ``thing`` is one."""
    return iter(_imports(name, path))


@functools.cache
def _imports(name: str, path: Path) -> tuple[str, ...]:
    """:func:`imports_of`, found once a process (the tests ask for each module's several
    times)."""
    return tuple(_found_imports(name, path))


def _found_imports(name: str, path: Path) -> Iterator[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in _statements(_tree(path)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            targets = [
                f"{module}.{alias.name}" if f"{module}.{alias.name}" in MODULES else module
                for alias in node.names
            ]
        else:
            continue
        yield from (t for t in targets if t.partition(".")[0] in ("engines", "render", "bot"))


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def layer_of(name: str) -> int:
    """The rank of module ``name``'s layer (0 is the bottom)."""
    for rank, (_, prefixes) in enumerate(LAYERS):
        if any(_within(name, p) for p in prefixes if p != "bot") or name in prefixes:
            return rank
    raise AssertionError(f"{name} belongs to no layer: add it to LAYERS")


def _surface(name: str) -> str | None:
    return next((s for s in SURFACES if _within(name, s)), None)


def broken(importer: str, imported: str) -> bool:
    """Whether ``importer`` importing ``imported`` breaks the contract."""
    if layer_of(imported) > layer_of(importer):
        return True
    surface = _surface(importer)
    if surface is None:
        return False
    other = _surface(imported)
    if other is not None and other != surface:
        return True
    return any(_within(imported, p) for p in NOT_FOR_SURFACES)


def violations() -> set[tuple[str, str]]:
    """Every import in the tree that breaks the contract."""
    return set(_violations())


@functools.cache
def _violations() -> frozenset[tuple[str, str]]:
    return frozenset(
        {
            (name, imported)
            for name, path in MODULES.items()
            for imported in imports_of(name, path)
            if broken(name, imported)
        }
    )


def store_reaches(path: Path) -> int:
    """How many times the module at ``path`` reads an attribute named ``store`` (the store
    reached through the session manager)."""
    return sum(
        1 for n in ast.walk(_tree(path)) if isinstance(n, ast.Attribute) and n.attr == "store"
    )


def test_every_module_has_a_layer() -> None:
    for name in MODULES:
        layer_of(name)


def test_each_layer_imports_only_from_the_layers_below_it() -> None:
    found = violations()
    new = sorted(found - KNOWN_DEBT)
    assert not new, f"imports breaking the layer contract: {new}"


def test_known_debt_only_shrinks() -> None:
    gone = sorted(KNOWN_DEBT - violations())
    assert not gone, f"no longer imported: delete these entries from KNOWN_DEBT: {gone}"


def test_the_checker_sees_function_level_and_relative_imports(tmp_path: Path) -> None:
    """The reader finds an import written inside a function, and resolves a relative one."""
    source = tmp_path / "m.py"
    source.write_text(
        "def late():\n    from engines import GAMES\n    return GAMES\n"
        "from . import alphabeta\nfrom .. import base\nimport json\n",
        encoding="utf-8",
    )
    found = sorted(imports_of("engines.ai.m", source))
    assert found == ["engines", "engines.ai.alphabeta", "engines.base"]
    assert broken("engines.base", "bot.core.ending") and broken("render.theme", "bot.storage.rows")
    assert broken("bot.webboard.view", "bot.storage.rows")
    assert broken("bot.adapters.console", "bot.webboard.page")
    assert broken("bot.adapters.console", "bot.sessions.context")
    assert not broken("bot.adapters.console", "bot.sessions.manager")
    assert not broken("bot.core.ending", "engines.base")
    assert not broken("bot.sessions.moves", "bot.storage.rows")


def test_the_engines_import_nothing_of_the_bot_or_the_pictures() -> None:
    """The bottom layer stands alone (the function-level import of ``engines`` in
    ``engines/base.py`` is gone: a position knows its sides itself)."""
    for name, path in MODULES.items():
        if _within(name, "engines"):
            assert all(_within(i, "engines") for i in imports_of(name, path)), name
    base = MODULES["engines.base"]
    assert "engines" not in set(imports_of("engines.base", base))


def test_no_surface_reaches_the_store() -> None:
    """A surface never uses the store, not even through the session manager
    (``manager.store``): it calls the manager's services, and gets delivery over the store
    from the manager (``manager.outbox()``, ``manager.recaps()``)."""
    found = {
        name: count
        for name, path in MODULES.items()
        if _surface(name) is not None and (count := store_reaches(path))
    }
    assert found == {}, f"a surface reaches the store (``.store``): {found}"
