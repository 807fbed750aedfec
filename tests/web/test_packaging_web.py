"""The page's script and style sheet ship inside the package (package data), so an installed
bot serves them wherever it runs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_static_files_are_installed(installed_site: Path) -> None:
    site = installed_site
    static = ROOT / "bot" / "webboard" / "static"
    names = sorted(p.name for p in static.iterdir() if p.is_file())
    assert {"board.js", "board.css", "host.js"} <= set(names)
    for name in names:
        installed = site / "bot" / "webboard" / "static" / name
        assert installed.read_bytes() == (static / name).read_bytes()
