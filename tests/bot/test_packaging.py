"""The package stands on its own: ``pip install .`` (not editable) gives a ``hexhall`` whose
``rules`` read the texts shipped inside the package, not the source tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import engines
from bot.sessions.context import RULES_DIR

ROOT = Path(__file__).resolve().parents[2]
MARKER = "(this copy was installed by test_packaging)"


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
    tmp_path: Path,
) -> None:
    # Install a copy of the source whose Maphex rules carry a marker: the marker in the output
    # proves the text came from the installed package, not from this checkout.
    source = tmp_path / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("bot", "engines", "render"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    rules = source / "bot" / "sessions" / "rules" / "maphex.md"
    rules.write_text(rules.read_text(encoding="utf-8") + f"\n{MARKER}\n", encoding="utf-8")
    spanish = rules.parent / "es" / "maphex.md"  # a translation ships too (issue 43)
    spanish.write_text(spanish.read_text(encoding="utf-8") + f"\n{MARKER}\n", encoding="utf-8")
    site = tmp_path / "site"
    # The dependencies are already in this test's environment: install only the project,
    # offline, with the setuptools at hand.
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(site), str(source)],
        check=True, capture_output=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
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
