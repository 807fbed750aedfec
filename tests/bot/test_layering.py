"""The shape of ``bot/``: imports point one way.

Every ``import`` of a ``bot`` module counts as an edge, at the top of a module or inside a
function alike; only imports under ``if TYPE_CHECKING:`` do not (they never run).  Edges are
read from the source with :mod:`ast`, so a cycle hidden behind a function-level import is found
as surely as one at the top.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"

#: The packages and modules of ``bot/`` whose imports this test holds free of cycles.
CHECKED = (
    "bot.core",
    "bot.storage",
    "bot.delivery",
    "bot.workers",
    "bot.deadlines",
    "bot.limits",
    "bot.ratings",
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(BOT.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run: anywhere but under ``if TYPE_CHECKING:``."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def module_edges() -> dict[str, set[str]]:
    """For each module of ``bot/``, the ``bot`` modules it imports (``from package import
    name`` counts as importing the submodule when ``name`` is one, else the package): a
    copy of what :func:`_read_edges` read, the caller's to change."""
    return {name: set(targets) for name, targets in _read_edges().items()}


@functools.cache
def _read_edges() -> dict[str, set[str]]:
    """:func:`module_edges`, read from the source once per process (parsing every module of
    ``bot/`` is a second of CPU, and five tests ask)."""
    modules = _modules()
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets: Iterable[str] = (alias.name for alias in node.names)
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges[name].add(target)
    return edges


def unit_of(module: str) -> str:
    """The package a module belongs to (``bot.storage.sql`` -> ``bot.storage``), or the module
    itself for a module directly in ``bot/`` (``bot.ratings``)."""
    parts = module.split(".")
    return ".".join(parts[:2])


def package_edges() -> dict[str, set[str]]:
    """The module edges collapsed onto packages (and top-level modules) of ``bot/``."""
    edges: dict[str, set[str]] = {}
    for source, targets in module_edges().items():
        unit = unit_of(source)
        edges.setdefault(unit, set())
        edges[unit] |= {unit_of(t) for t in targets if unit_of(t) != unit}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def _checked(name: str) -> bool:
    return any(name == c or name.startswith(c + ".") for c in CHECKED)


def test_the_edges_are_read_from_function_level_imports_too() -> None:
    edges = module_edges()
    # bot.app imports the Telegram adapter and the web endpoint inside functions,
    # bot.storage.sqlite its errors at the top; a name imported from a package counts as its
    # submodule when it is one.
    assert "bot.adapters.telegram.service" in edges["bot.app"]
    assert "bot.web" in edges["bot.app"]
    assert "bot.storage.errors" in edges["bot.storage.sqlite"]
    tree = ast.parse("if TYPE_CHECKING:\n    import a\nelse:\n    import b\ndef f():\n import c\n")
    assert sorted(a.name for n in _imports(tree) for a in n.names) == ["b", "c"]


def test_no_module_import_cycle_touches_the_bottom_packages() -> None:
    tangled = [c for c in cycles(module_edges()) if any(_checked(m) for m in c)]
    assert tangled == []


def test_no_package_import_cycle_touches_the_bottom_packages() -> None:
    tangled = [c for c in cycles(package_edges()) if any(_checked(m) for m in c)]
    assert tangled == []


def test_the_core_imports_nothing_of_bot_above_it() -> None:
    above = {
        target
        for source, targets in package_edges().items()
        if source == "bot.core"
        for target in targets
    }
    # bot.messages and bot.limits are leaf value modules the notification is made of.
    assert above <= {"bot.messages", "bot.limits"}


def test_importing_the_storage_loads_no_search_code() -> None:
    code = (
        "import sys, bot.storage\n"
        "print(sorted(m for m in sys.modules if m.startswith(('engines.ai', 'render'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
