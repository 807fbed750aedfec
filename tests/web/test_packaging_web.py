"""The page's script and style sheet ship inside the package (package data), so an installed
bot serves them wherever it runs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_static_files_are_installed(tmp_path: Path) -> None:
    source = tmp_path / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("bot", "engines", "render"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(site), str(source)],
        check=True, capture_output=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    static = ROOT / "bot" / "webboard" / "static"
    names = sorted(p.name for p in static.iterdir() if p.is_file())
    assert {"board.js", "board.css", "host.js"} <= set(names)
    for name in names:
        installed = site / "bot" / "webboard" / "static" / name
        assert installed.read_bytes() == (static / name).read_bytes()
