"""Plain scripts of the repository (benchmarks, the docs' tools) loaded as modules, so a test
can call their functions: they are not packages, so they are loaded from their files."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

#: The repository's top folder.
ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str) -> ModuleType:
    """The script at ``relative`` (to the repository's top, e.g. ``benchmarks/ai.py``), run
    as a module named after its folder and file (``benchmarks_ai``); a second load runs it
    again."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(f"{path.parent.name}_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module
