"""No sentence a player sees is written in the page's scripts (issue 43): every word the
scripts show comes from the server's catalogs (``labels`` in the API's JSON, or data
attributes written by :mod:`bot.webboard.page`).  This scans each script's string literals
for English words, so a new unmarked string fails here.

A literal passes when it is code, not words: an identifier, class, id, event or attribute
name (``reconnecting`` as a class, ``aria-label``), an address or key (``/api/games/``,
``hexhall-token:``, ``#t=``), or one of :data:`NOT_WORDS` (header names, key names, the
credentials' schemes).  Limitation: a single lowercase word passes as an identifier."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.webboard import assets

STATIC = Path(__file__).resolve().parents[2] / "bot" / "webboard" / "static"
SCRIPTS = ("board.js", "plan.js", "activity.js", "host.js", *assets.BOARD_PARTS)

#: Literals with capitals or spaces that are code, not words a player reads.
NOT_WORDS = frozenset(
    {
        "use strict",
        "tbody tr",
        "Authorization",
        "Content-Type",
        "POST",
        "Enter",
        "ArrowLeft",
        "ArrowRight",
        "ArrowUp",
        "ArrowDown",
        "Bearer ",
        "tma ",
        " => ",
        "; ",
        " (",
        ")",
        "{line}",
        "DOMContentLoaded",
        "DiscordSDK",
        "DiscordSDKMock",
    }
)
_IDENTIFIER = re.compile(r"[a-z_$-][\w$-]*")
_ADDRESS = re.compile(r"[\w\-./:#?=&%+*\[\]]*")
_MARKS = re.compile(r"[/.#:=?&\[\]]")  # what an address, a key or a selector has and a word not
_LETTERS = re.compile(r"[^\W\d_]")


def literals(source: str) -> Iterator[tuple[int, str]]:
    """Each string literal of ``source`` (quoted or template; a template's ``${...}`` parts
    left out) with its line number; comments skipped."""
    i, line, n = 0, 1, len(source)
    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
            continue
        if source.startswith("/*", i):
            end = source.find("*/", i)
            line += source.count("\n", i, end)
            i = end + 2
            continue
        if c in "\"'`":
            start, text, i = line, [], i + 1
            while i < n and source[i] != c:
                if source[i] == "\\":
                    text.append(source[i : i + 2])
                    i += 2
                    continue
                if c == "`" and source.startswith("${", i):
                    depth, i = 0, i + 1
                    while i < n:
                        depth += {"{": 1, "}": -1}.get(source[i], 0)
                        i += 1
                        if depth == 0:
                            break
                    text.append("\0")
                    continue
                if source[i] == "\n":
                    line += 1
                text.append(source[i])
                i += 1
            i += 1
            yield start, "".join(text)
            continue
        i += 1


def _is_code(literal: str) -> bool:
    # (escapes such as ``\n`` are no words)
    pieces = [p for p in re.sub(r"\\.", "", literal).split("\0") if p]
    return all(
        p in NOT_WORDS
        or not _LETTERS.search(p)
        or _IDENTIFIER.fullmatch(p) is not None
        or (" " not in p and _ADDRESS.fullmatch(p) is not None and _MARKS.search(p) is not None)
        for p in pieces
    )


def words_in(source: str) -> list[str]:
    """The literals of ``source`` that read as words for a player (``line: literal``)."""
    return [f"{line}: {text!r}" for line, text in literals(source) if not _is_code(text)]


@pytest.mark.parametrize("name", SCRIPTS)
def test_no_script_shows_words_of_its_own(name: str) -> None:
    assert words_in((STATIC / name).read_text(encoding="utf-8")) == []


def test_the_scan_finds_an_unmarked_sentence() -> None:
    source = (
        'say("Your turn.");\n'
        "// a comment: not read\n"
        "x.textContent = `${n} watching`;\n"
        "b.id = 'send'; b.textContent = 'Play';\n"
        'fetch("/api/games/" + slug, { cache: "no-store" });\n'
        "y = `${a} ${b}`;\n"
    )
    assert words_in(source) == ["1: 'Your turn.'", "3: '\\x00 watching'", "4: 'Play'"]
