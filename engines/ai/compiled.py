"""Modules of the computer player compiled to C with mypyc (issue 49: ``hard`` within 10 s a
move), named in ``setup.py``: Iso-Path's search and its race count, and the bit boards, the
two-distance and Pathagon's evaluation that the Pathagon and inpHeXion players use.

``pip install -e .`` compiles them (``setup.py``): the same source, typed for strict mypy
already, run as C with the same results: Iso-Path's search 3.5 times as fast, with the same
moves, scores and evaluation counts (``benchmarks/ai_eval.py --compare``), Pathagon's about
twice.  Each compiled module lies beside its source as an
extension module, which Python imports in its place, and the build writes :data:`BUILT`: the
modules it compiled, each with the digest of its source.

Compiled code calls its own functions directly, so a source edited since the build would
not be run: when any source's digest differs from the build's, :func:`use_sources` (called
by :mod:`engines.ai` before anything imports them) loads the sources instead, with a warning
to build again.  Without a C compiler the build skips them and the sources run as they are.

>>> fresh = sources("isopath_race", "isopath_search")
>>> [is_compiled(module) for module in fresh.values()]
[False, False]
>>> fresh["isopath_search"].races is fresh["isopath_race"]
True
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
import warnings
from pathlib import Path
from types import ModuleType

__all__ = ["BUILT", "built", "is_compiled", "sources", "stale", "use_sources"]

HERE = Path(__file__).resolve().parent
#: Written by the build: ``{module: sha256 of the source it compiled}``, each module after
#: those it imports.
BUILT = HERE / "compiled.json"
PACKAGE = __name__.rpartition(".")[0]


def digest(name: str) -> str:
    """The sha256 of the source of this package's module ``name``."""
    return hashlib.sha256((HERE / f"{name}.py").read_bytes()).hexdigest()


def built() -> dict[str, str]:
    """The modules the last build compiled, each with its source's digest then."""
    try:
        found = json.loads(BUILT.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _extensions(name: str) -> list[Path]:
    return sorted(HERE.glob(f"{name}.*.so")) + sorted(HERE.glob(f"{name}.*.pyd"))


def stale() -> list[str]:
    """The modules compiled from a source other than the one here now."""
    return [n for n, d in built().items() if _extensions(n) and d != digest(n)]


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` (as imported) runs compiled."""
    return not str(getattr(module, "__file__", "")).endswith(".py")


def _load(names: tuple[str, ...], register: bool) -> dict[str, ModuleType]:
    package = sys.modules[PACKAGE]
    before = {n: (sys.modules.get(f"{PACKAGE}.{n}"), getattr(package, n, None)) for n in names}
    out: dict[str, ModuleType] = {}
    try:
        for name in names:
            full = f"{PACKAGE}.{name}"
            spec = importlib.util.spec_from_file_location(full, HERE / f"{name}.py")
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            # Registered while the next ones load, so that they import this one.
            sys.modules[full] = module
            setattr(package, name, module)
            spec.loader.exec_module(module)
            out[name] = module
    finally:
        if not register:
            for name, (imported, attribute) in before.items():
                full = f"{PACKAGE}.{name}"
                if imported is None:
                    sys.modules.pop(full, None)
                else:
                    sys.modules[full] = imported
                if attribute is None:
                    if hasattr(package, name):
                        delattr(package, name)
                else:
                    setattr(package, name, attribute)
    return out


def sources(*names: str) -> dict[str, ModuleType]:
    """Fresh modules run from the sources of this package's modules ``names`` (each after
    those it imports), each importing the others' fresh copies, without replacing the modules
    imported: to compare the two, or to change a module's function for a test (compiled
    callers would not see the change)."""
    return _load(names, register=False)


def use_sources() -> None:
    """Import the compiled modules from their sources when any was compiled from another
    version of its source (:func:`stale`)."""
    old = stale()
    if old:
        warnings.warn(
            f"{', '.join(old)} changed since compiled: running the sources "
            "(pip install -e . compiles them again)",
            stacklevel=2,
        )
        _load(tuple(built()), register=True)
