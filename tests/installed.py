"""A non-editable install of a copy of this checkout, shared by the packaging tests.

``pip install`` of the tree takes seconds of CPU, and three tests (the rules, the compiled
catalogs, the web board's static files) each need such an install; the ``installed_site``
fixture of ``tests/conftest.py`` makes one per session (per xdist worker) with
:func:`install_copy`.  The copy's Maphex rules, English and Spanish, end with :data:`MARKER`, so
a test can tell text read from the install from text read from this checkout.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Appended to the copy's Maphex rules (English and Spanish) before it is installed.
MARKER = "(this copy was installed by test_packaging)"


def install_copy(work: Path) -> Path:
    """Copy the packages to ``work/source``, mark the Maphex rules, install the copy into
    ``work/site`` (not editable, offline, no dependencies) and return ``work/site``."""
    source = work / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("bot", "engines", "render"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    rules = source / "bot" / "sessions" / "rules" / "maphex.md"
    spanish = rules.parent / "es" / "maphex.md"  # a translation ships too (issue 43)
    for page in (rules, spanish):
        page.write_text(page.read_text(encoding="utf-8") + f"\n{MARKER}\n", encoding="utf-8")
    site = work / "site"
    # The dependencies are already in this environment: install only the project, offline,
    # with the setuptools at hand.
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(site), str(source)],
        check=True, capture_output=True, timeout=300, cwd=work,
    )  # fmt: skip
    return site
