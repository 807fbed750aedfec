"""A game is named only in its own modules and the two registries (issue 42, "a game is
described once"); ``tests/test_toy_game.py`` shows a copy of a game needs nothing else.

Read in code, not in prose: every name and string of the Python modules under ``engines/``,
``render/`` and ``bot/``, skipping comments and docstrings (a docstring's example may play any
game), and the web board's script. A game's own modules are ``engines/<game>*``,
``engines/ai/<game>*``, ``render/<game>*`` and its illegal-move sentences,
``bot/sessions/texts/illegal/<game>.py`` (they may name their own game only); its rules file is
``bot/sessions/rules/<game>.md``; the registries are ``engines/__init__.py`` and
``render/__init__.py``.

:data:`STILL_NAMED` lists the places that still name a game, each with why. It may only
shrink: an entry that names no game any more fails too, so it is taken off.
"""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from pathlib import Path

import engines

ROOT = Path(__file__).resolve().parent.parent
REGISTRIES = frozenset({"engines/__init__.py", "render/__init__.py"})
#: The games known when the test was written, besides those registered now: a name that
#: drops out of the registry still may not linger elsewhere.
GAMES = frozenset({"maphex", "pathagon", "fixation", "inphexion", "isopath", *engines.GAMES})

#: The folders of a game's own modules: ``<folder><game>*`` in the first three; exactly
#: ``<game>.py`` in the last (its illegal-move sentences, found by the game's name).
OWN_FOLDERS = ("engines/ai/", "engines/", "render/")
SENTENCES_FOLDER = "bot/sessions/texts/illegal/"

#: Files that still name a game outside its own modules: file -> the games named, and why.
STILL_NAMED: dict[str, tuple[frozenset[str], str]] = {}

_PATTERN = re.compile("|".join(sorted(GAMES, key=len, reverse=True)), re.IGNORECASE)


def _own_game(path: str) -> str | None:
    """The game whose own module ``path`` is, if it is one."""
    for folder in OWN_FOLDERS:
        if path.startswith(folder) and "/" not in path[len(folder) :]:
            stem = path[len(folder) :]
            return next((g for g in GAMES if stem.startswith(g)), None)
    if path.startswith(SENTENCES_FOLDER):
        return next((g for g in GAMES if path == f"{SENTENCES_FOLDER}{g}.py"), None)
    return None


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines.add(first.value.lineno)
    return lines


def names_in_python(source: str) -> set[str]:
    """The games named by the code of ``source``: its names and strings, less comments and
    docstrings.

    >>> sorted(names_in_python('"Doc: maphex."\\nx = "pathagon"  # isopath\\n'))
    ['pathagon']
    """
    docs = _docstring_lines(ast.parse(source))
    found: set[str] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.STRING and token.start[0] in docs:
            continue
        if token.type in (tokenize.NAME, tokenize.STRING):
            found.update(m.lower() for m in _PATTERN.findall(token.string))
    return found


def names_in_script(source: str) -> set[str]:
    """The games named by a script (its line comments skipped)."""
    code = "\n".join(line.split("//", 1)[0] for line in source.splitlines())
    return {m.lower() for m in _PATTERN.findall(code)}


def _named() -> dict[str, set[str]]:
    """Every file outside the registries that names a game not its own, with those games (read
    once a process: both tests ask; each caller gets its own copy)."""
    return {path: set(games) for path, games in _named_once(ROOT).items()}


@functools.cache
def _named_once(root: Path) -> dict[str, frozenset[str]]:
    named: dict[str, frozenset[str]] = {}
    files = [p for top in ("engines", "render", "bot") for p in (root / top).rglob("*.py")]
    files += list((root / "bot" / "webboard" / "static").glob("*.js"))
    for file in sorted(files):
        path = file.relative_to(root).as_posix()
        if path in REGISTRIES:
            continue
        text = file.read_text(encoding="utf-8")
        # Every name or string of the code is a piece of the text: a file whose text holds no
        # game's name but its own's needs no parsing (most files).
        own = _own_game(path)
        lower = text.lower()
        if not any(g in lower for g in GAMES if g != own):
            continue
        games = set(names_in_python(text) if file.suffix == ".py" else names_in_script(text))
        games.discard(own or "")
        if games:
            named[path] = frozenset(games)
    return named


def test_games_are_named_only_in_their_own_modules_and_the_registries() -> None:
    named = _named()
    new = {
        path: sorted(games - STILL_NAMED.get(path, (frozenset(), ""))[0])
        for path, games in named.items()
    }
    new = {path: games for path, games in new.items() if games}
    assert not new, f"a game is named outside its own modules: {new}"


def test_the_list_of_places_still_naming_a_game_only_shrinks() -> None:
    named = _named()
    gone = {
        path: sorted(games - named.get(path, set()))
        for path, (games, _) in STILL_NAMED.items()
        if games - named.get(path, set())
    }
    assert not gone, f"take these off STILL_NAMED, they no longer name the game: {gone}"


if __name__ == "__main__":
    # The count for docs/architecture.md: python -m tests.test_game_names [tree]
    import sys

    if len(sys.argv) > 1:
        ROOT = Path(sys.argv[1]).resolve()
    found = _named()
    print(len(found), sorted(found))
