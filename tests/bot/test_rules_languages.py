"""The rules in the reader's language (issue 43): ``bot/sessions/rules/<code>/<game>.md`` for
each translation, English (``rules/<game>.md``) where a language has no page; every translation
keeps the English page's shape (its headings and every notation example)."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

import engines
from bot import app
from bot.adapters.discord.format import markdown, markdown_sections
from bot.core import i18n
from bot.messages import MESSAGE_LIMITS
from bot.sessions import rulebook, texts
from bot.sessions.clock import FakeClock
from bot.sessions.context import RULES_DIR
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from tests.bot.test_console import run_console

SOURCE_DIR = Path(str(RULES_DIR))
#: The languages that ship, but English (whose page is the source).
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.SOURCE]
#: Words from the top of each translated Maphex page (its first line after the title).
MAPHEX_OPENING = {
    "es": "Un juego de Néstor Romeral Andrés.",
    "pt_BR": "Um jogo de Néstor Romeral Andrés.",
}
ENGLISH_OPENING = "A game by Néstor Romeral Andrés."
_CODE = re.compile(r"`([^`\n]+)`")
#: Code spans that name a shape rather than show one (``from>to``): said in the language's words.
PLACEHOLDERS = {"from>to"}


def _translations() -> list[Path]:
    return sorted(p for d in SOURCE_DIR.iterdir() if d.is_dir() for p in d.glob("*.md"))


def _headings(markdown: str) -> list[int]:
    return [len(line) - len(line.lstrip("#")) for line in markdown.splitlines() if line[:1] == "#"]


def _table_rows(markdown: str) -> int:
    return sum(1 for line in markdown.splitlines() if line.startswith("|"))


def test_every_language_directory_is_a_language_that_ships_with_every_game() -> None:
    folders = [d for d in SOURCE_DIR.iterdir() if d.is_dir() and d.name != "__pycache__"]
    assert {"es", "pt_BR"} <= {d.name for d in folders}
    for folder in folders:
        assert folder.name in TRANSLATED, folder.name
        assert sorted(p.name for p in folder.iterdir()) == sorted(f"{g}.md" for g in engines.GAMES)


@pytest.mark.parametrize("page", _translations(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_translation_keeps_the_english_pages_shape(page: Path) -> None:
    english = (SOURCE_DIR / page.name).read_text(encoding="utf-8")
    translated = page.read_text(encoding="utf-8")
    # The same headings at the same levels, and the same title (a game's name stays as it is).
    assert _headings(translated) == _headings(english)
    assert translated.splitlines()[0] == english.splitlines()[0]
    # Every notation example (code span) the English has, as many times; none made up (a
    # placeholder's words are the language's own, in as many spans).
    theirs, ours = _CODE.findall(translated), _CODE.findall(english)
    known = set(ours) - PLACEHOLDERS
    assert Counter(s for s in theirs if s in known) == Counter(s for s in ours if s in known)
    assert len(theirs) == len(ours)
    assert _table_rows(translated) == _table_rows(english)
    assert translated.count("**") % 2 == 0 and translated.count("`") % 2 == 0


@pytest.mark.parametrize("code", ["es", "pt_BR"])
async def test_the_rules_read_at_the_console_in_the_players_language(
    tmp_path: Path, code: str
) -> None:
    script = [b"as alice\n", f"settings language {code}\n".encode(), b"rules maphex\n"]
    script += [b"rules isopath\n", b"quit\n"]
    status, out, _ = await run_console(tmp_path, script)
    assert status == 0
    assert MAPHEX_OPENING[code] in out and ENGLISH_OPENING not in out
    isopath = (SOURCE_DIR / code / "isopath.md").read_text(encoding="utf-8")
    assert isopath.split("\n\n")[1].split(".")[0].lstrip("*") in out  # its first sentence
    assert "d4>b3 a2-b3" in out  # notation as typed


async def test_a_language_without_its_page_reads_the_english_one(tmp_path: Path) -> None:
    # A package whose Spanish pages are all there but Maphex's, and no French pages at all.
    rules = tmp_path / "rules"
    shutil.copytree(SOURCE_DIR, rules, ignore=shutil.ignore_patterns("__pycache__"))
    (rules / "es" / "maphex.md").unlink()
    shutil.rmtree(rules / "fr", ignore_errors=True)
    store = await SqliteStore.open(tmp_path / "h.db")
    try:
        manager = SessionManager(store, FakeClock(), rules_dir=rules)
        maphex, pathagon = (
            await manager.games.rules("maphex"),
            await manager.games.rules("pathagon"),
        )
    finally:
        await store.close()
    for code in ("es", "fr"):
        with i18n.use(code):
            assert str(maphex.text).startswith("Maphex\n\nA game by Néstor")
    with i18n.use("es"):
        assert "Un juego de Mark Fuchs" in str(pathagon.text)
    with i18n.use("fr"):
        assert "A game by Mark Fuchs" in str(pathagon.text)


async def test_the_page_is_chosen_when_the_answer_is_read(tmp_path: Path) -> None:
    # A surface may make the call in the chat's language and show the answer in the player's
    # (Discord's private answers in an English server): the page follows the reader.
    store = await SqliteStore.open(tmp_path / "h.db")
    try:
        manager = SessionManager(store, FakeClock())
        with i18n.use("en"):
            reply = await manager.games.rules("pathagon")
    finally:
        await store.close()
    with i18n.use("pt_BR"):
        assert "Um jogo de Mark Fuchs" in str(reply.text)
    with i18n.use("es"):
        assert "Un juego de Mark Fuchs" in str(reply.text)
    assert "A game by Mark Fuchs" in str(reply.text)


def test_the_command_line_shows_a_language_on_request() -> None:
    assert MAPHEX_OPENING["es"] in app.rules_text("maphex", "es")
    assert MAPHEX_OPENING["pt_BR"] in app.rules_text("maphex", "pt-BR")
    assert app.rules_text("maphex", "ko") == app.rules_text("maphex")
    assert ENGLISH_OPENING in app.rules_text("maphex")


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_every_page_fits_discords_messages_as_sent(code: str) -> None:
    # Discord counts the markdown's marks and escapes: a page cut at 2000 plain characters
    # could be refused (the Spanish Maphex page was), so the cut is made on the text as sent.
    for game in engines.GAMES:
        page = rulebook.page(RULES_DIR, game, code)
        assert page is not None
        with i18n.use(code):
            sent = markdown_sections(texts.rules(page))
        assert all(len(s) <= MESSAGE_LIMITS["discord"] for s in sent)
        assert "".join(sent).count("**") == markdown(texts.rules(page)).count("**")
