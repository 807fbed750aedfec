"""A non-editable install of a copy of this checkout, shared by the packaging tests.

``pip install`` of the tree takes seconds of CPU (~5 s, ~8 s wall on two cores), and three tests
(the rules, the compiled catalogs, the web board's static files) each need such an install; the
``installed_site`` fixture of ``tests/conftest.py`` makes one per test session with
:func:`shared_install`, which every xdist worker reuses (one builds it under a file lock, the
others wait for it).  The copy's Maphex rules, English and Spanish, end with :data:`MARKER`, so a
test can tell text read from the install from text read from this checkout.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Appended to the copy's Maphex rules (English and Spanish) before it is installed.
MARKER = "(this copy was installed by test_packaging)"


#: What :func:`install_copy` copies: the packages (folders) and the files beside them.
PACKAGES = ("bot", "engines", "render")
FILES = ("pyproject.toml", "README.md")


def _ignored(path: Path) -> bool:
    return "__pycache__" in path.parts or path.suffix == ".pyc"


def source_key() -> str:
    """A digest of what :func:`install_copy` would copy (names and contents) and of the Python
    that installs it: an install made under this key is an install of this very tree."""
    digest = hashlib.sha256(sys.executable.encode())
    files = [ROOT / name for name in FILES]
    for name in PACKAGES:
        files += (p for p in (ROOT / name).rglob("*") if p.is_file() and not _ignored(p))
    for path in sorted(files):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file ``path`` (made if missing); another process asking
    for it waits until it is released (at the latest when the holder dies)."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def shared_install(root: Path) -> Path:
    """The ``site`` of an install of this tree under ``root`` (:func:`install_copy`), made by
    the first process to ask and reused by every other: the processes of one test session
    (its xdist workers) pass the same ``root``.

    The folder is named by :func:`source_key`, so a tree changed since is installed afresh; it is
    finished (``done`` written) under the lock, so a process never sees half an install, and
    one left half made by a process that died is made again."""
    home = root / f"installed-{source_key()}"
    done = home / "done"
    with _locked(root / f"{home.name}.lock"):
        if not done.exists():
            if home.exists():
                shutil.rmtree(home)
            home.mkdir(parents=True)
            install_copy(home)
            done.touch()
    return home / "site"


def install_copy(work: Path) -> Path:
    """Copy the packages to ``work/source``, mark the Maphex rules, install the copy into
    ``work/site`` (not editable, offline, no dependencies) and return ``work/site``."""
    source = work / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in PACKAGES:
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in FILES:
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
