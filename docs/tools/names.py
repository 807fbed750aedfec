"""Draw ``docs/img/names-<code>.png``: a Maphex board whose players have names in one script
each (Japanese, Korean, Chinese, Arabic, Hebrew, Cyrillic, Greek, emoji), with a clock text in
the same script, so anyone can see that every script is drawn as glyphs.  The names are
``tests/render/script_cases.py``'s, which ``tests/render/test_scripts.py`` checks glyph by glyph.

Run from the repository: ``.venv/bin/python docs/tools/names.py``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engines
import render
from tests.render.script_cases import SAMPLES

DOCS = ROOT / "docs" / "img"


def main() -> None:
    rng = random.Random(4)
    position = engines.new("maphex")
    for _ in range(12):
        position = position.play(rng.choice(position.legal_moves()))
    for sample in SAMPLES:
        path = DOCS / f"names-{sample.code}.png"
        path.write_bytes(render.board_png(position, players=sample.names, clock=sample.clock))
        print(f"{path.relative_to(ROOT)}: {sample.script}: {' / '.join(sample.names)}")


if __name__ == "__main__":
    main()
