"""Compiles the computer player's busiest modules with mypyc (``engines/ai/compiled.py`` says
why, and how each stays in step with its source); everything else is in ``pyproject.toml``.

Set ``HEXHALL_COMPILE=0`` to install without compiling.  Without a C compiler the extensions
are skipped (``optional``) and the sources run as they are."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
AI = HERE / "engines" / "ai"
# Each after those it imports (engines/ai/compiled.py loads their sources in this order).
COMPILED = (
    "isopath_race",
    "isopath_search",
    "bitboard",
    "distance",
    "pathagon_player",
)


def _extensions() -> list[object]:
    # An earlier build's modules go first: one this build does not compile must not be left
    # standing for a source it was not compiled from.
    for old in AI.glob("*.so"):
        old.unlink()
    (AI / "compiled.json").unlink(missing_ok=True)
    if os.environ.get("HEXHALL_COMPILE", "1") == "0":
        return []
    from mypyc.build import mypycify

    paths = [f"engines/ai/{name}.py" for name in COMPILED]
    extensions = mypycify(paths, opt_level="3", group_name="engines.ai.compiled_group")
    for extension in extensions:
        extension.optional = True
    built = {n: hashlib.sha256((AI / f"{n}.py").read_bytes()).hexdigest() for n in COMPILED}
    (AI / "compiled.json").write_text(json.dumps(built, indent=1) + "\n", encoding="utf-8")
    return list(extensions)


setup(ext_modules=_extensions())
