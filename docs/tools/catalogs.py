"""Keeps the message catalogs (``bot/locales``) in step with the sentences in the code.

    .venv/bin/python docs/tools/catalogs.py            # extract, update every .po, compile
    .venv/bin/python docs/tools/catalogs.py init xx    # start a new language's .po
    .venv/bin/python docs/tools/catalogs.py compile    # only compile the .po files to .mo

It runs Babel's own ``pybabel`` commands with the project's settings (``babel.cfg`` and the
marking functions below), so the same can be typed by hand:

    pybabel extract -F babel.cfg -k _p -k _pn:1,2 ... -o bot/locales/hexhall.pot .
    pybabel update -i bot/locales/hexhall.pot -d bot/locales -D hexhall
    pybabel compile -d bot/locales -D hexhall
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "bot" / "locales"
TEMPLATE = LOCALES / "hexhall.pot"
#: The marking functions: lazy sentences (say/_p, say_n/_pn), sentences said at once (_s, _sn,
#: gettext, ngettext) and plain marks (N_, and NP_ with a context: a Discord name) whose strings
#: are said where they are used.
KEYWORDS = (
    "_p",
    "_pn:1,2",
    "say",
    "say_n:1,2",
    "_s",
    "_sn:1,2",
    "_f",
    "N_",
    "NP_:1c,2",
    "pgettext:1c,2",
    "gettext",
    "ngettext:1,2",
)


def pybabel(*args: str) -> None:
    """Run one ``pybabel`` command."""
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract() -> None:
    """Write the template of every marked sentence."""
    keywords = [arg for k in KEYWORDS for arg in ("-k", k)]
    pybabel(
        "extract", "--no-default-keywords", *keywords, "-F", str(ROOT / "babel.cfg"),
        "--sort-by-file", "--no-wrap", "--project", "hexhall", "--copyright-holder", "Hexhall",
        "-o", str(TEMPLATE), "bot", "render",
    )  # fmt: skip


def update() -> None:
    """Merge the template into every language's ``.po`` (new sentences come in empty)."""
    pybabel("update", "--no-wrap", "-i", str(TEMPLATE), "-d", str(LOCALES), "-D", "hexhall")


def compile_all() -> None:
    """Compile every ``.po`` to the ``.mo`` the bot reads."""
    pybabel("compile", "-d", str(LOCALES), "-D", "hexhall", "--statistics")


def main(argv: list[str]) -> None:
    """``[init <code> | compile]``: with no argument, extract, update and compile."""
    import os

    os.chdir(ROOT)
    if argv[:1] == ["init"]:
        extract()
        pybabel("init", "--no-wrap", "-i", str(TEMPLATE), "-d", str(LOCALES), "-D", "hexhall",
                "-l", argv[1])  # fmt: skip
        return
    if argv[:1] != ["compile"]:
        extract()
        update()
    compile_all()


if __name__ == "__main__":
    main(sys.argv[1:])
