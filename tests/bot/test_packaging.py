"""The package stands on its own: ``pip install .`` (not editable) gives a ``hexhall`` whose
``rules`` read the texts shipped inside the package, not the source tree."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import engines
from bot.sessions.context import RULES_DIR
from tests.installed import MARKER

ROOT = Path(__file__).resolve().parents[2]


def _pages(folder: Path) -> dict[str, str]:
    # Every rules page under ``folder``: the English ones and each language's (``es/maphex.md``).
    return {str(p.relative_to(folder)): p.read_text(encoding="utf-8") for p in folder.rglob("*.md")}


def test_the_rules_shipped_in_the_package_are_the_ones_in_docs() -> None:
    shipped = _pages(Path(str(RULES_DIR)))
    docs = _pages(ROOT / "docs" / "rules")
    assert sorted(p for p in shipped if "/" not in p) == sorted(f"{g}.md" for g in engines.GAMES)
    assert "es/maphex.md" in shipped and "pt_BR/maphex.md" in shipped
    assert shipped == docs


def test_a_non_editable_install_shows_the_rules_from_the_installed_package(
    installed_site: Path, tmp_path: Path
) -> None:
    # The installed copy's Maphex rules carry a marker: the marker in the output proves the
    # text came from the installed package, not from this checkout.
    site = installed_site
    assert not (site / "bot" / "__editable__").exists()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONPATH"] = str(site)
    done = subprocess.run(
        [str(site / "bin" / "hexhall"), "rules", "maphex"],
        capture_output=True, cwd=elsewhere, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert out.startswith("# Maphex") and out.rstrip().endswith(MARKER)
    read = subprocess.run(
        [str(site / "bin" / "hexhall"), "rules", "maphex", "--language", "es"],
        capture_output=True, cwd=elsewhere, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert read.returncode == 0, read.stderr
    said = read.stdout.decode()
    assert "Un juego de Néstor Romeral Andrés." in said and said.rstrip().endswith(MARKER)
    where = subprocess.run(
        [sys.executable, "-c", "import bot.sessions.context as c; print(c.RULES_DIR)"],
        capture_output=True, cwd=elsewhere, env=env, timeout=120, check=True,
    )  # fmt: skip
    assert where.stdout.decode().strip() == str(site / "bot" / "sessions" / "rules")
