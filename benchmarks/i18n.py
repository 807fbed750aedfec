"""What the catalogs cost and cover (issue 43): the time to say a typical reply (a move's
answer with a mention, a move and a side) in English and in each language, per call, and how
much of each catalog is translated.

    nice .venv/bin/python benchmarks/i18n.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from babel.messages.pofile import read_po

# The repository first: benchmarks/engines.py is not the engines package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core import i18n
from bot.messages import Mention
from bot.sessions import texts

ROUNDS = 20_000


def _said(code: str) -> float:
    ada = Mention("telegram", "7", "Ada")
    text = texts.moved(12, "Maphex", 7, texts.side(ada, "Red"), "e5") + texts.to_move(
        texts.side(Mention("telegram", "8", "Bo"), "Blue")
    )
    with i18n.use(code):
        str(text)
        start = time.perf_counter()
        for _ in range(ROUNDS):
            text.render(mention=lambda m: m.name)
        return (time.perf_counter() - start) / ROUNDS * 1e6


def main() -> None:
    """Print the figures."""
    for code in i18n.LANGUAGES:
        print(f"render a move's answer, {code:5}: {_said(code):6.1f} µs per call")
    for code in i18n.LANGUAGES[1:]:
        po = i18n.LOCALES_DIR / code / "LC_MESSAGES" / "hexhall.po"
        with Path(po).open("rb") as f:
            catalog = read_po(f)
        ids = [m for m in catalog if m.id]
        done = [m for m in ids if (all(m.string) if isinstance(m.string, tuple) else m.string)]
        print(f"catalog {code:5}: {len(done)}/{len(ids)} translated ({len(done) / len(ids):.0%})")


if __name__ == "__main__":
    main()
