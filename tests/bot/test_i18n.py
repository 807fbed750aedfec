"""The catalogs stay whole (issue 43): every language that ships has every marked sentence,
translated with the same placeholders, compiled as shipped; a pseudo-locale run of the main
flows shows no sentence escapes the catalogs; whose language a message is said in."""

from __future__ import annotations

import functools
import gettext
import importlib.util
import io
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.core import i18n
from bot.delivery.speaking import language_of
from bot.messages import Mention, Text
from bot.sessions import languages, texts
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from tests.bot.session_kit import ALICE, BOB, ROOM, session, start_game
from tests.scripts import ROOT

TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.SOURCE]
_PLACEHOLDER = re.compile(r"\{(\w+)(?:!r)?\}")


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "docs/tools/catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("catalogs", module)
    spec.loader.exec_module(module)
    return module


def _po(code: str) -> Path:
    return i18n.LOCALES_DIR / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


@functools.cache
def _marked() -> frozenset[str]:
    """Every msgid marked in the code, extracted as ``pybabel extract`` does (the project's
    keywords, babel.cfg's mapping); extracted once per process (a second of CPU, and one test
    per language and test_i18n_flows ask)."""
    keywords: dict[str, tuple[int | tuple[int, str], ...] | None] = {}
    for spec in _tool().KEYWORDS:
        name, _, args = spec.partition(":")
        keywords[name] = (
            tuple((int(a[:-1]), "c") if a.endswith("c") else int(a) for a in args.split(","))
            if args
            else None
        )
    found: set[str] = set()
    for folder in ("bot", "render"):
        for _, _, message, _, _ in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=keywords
        ):
            found.add(message if isinstance(message, str) else message[0])
    return frozenset(found)


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_catalog_is_complete_compiles_and_ships_compiled(code: str) -> None:
    with _po(code).open("rb") as f:
        catalog = read_po(f, locale=code)
    untranslated = [
        m.id
        for m in catalog
        if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple) else [m.string]))
    ]
    assert untranslated == []
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    fresh = gettext.GNUTranslations(compiled)
    mo = i18n.LOCALES_DIR / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo"
    with mo.open("rb") as f:
        shipped = gettext.GNUTranslations(f)
    # The shipped .mo is the .po compiled (docs/tools/catalogs.py compile after an edit); the
    # standard library's GNUTranslations offers no public view of its table but _catalog.
    assert shipped._catalog == fresh._catalog


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_marked_sentence_is_missing_from_a_catalog(code: str) -> None:
    marked = _marked()
    assert len(marked) > 400
    with _po(code).open("rb") as f:
        have = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    assert sorted(marked - have) == []
    with (i18n.LOCALES_DIR / f"{i18n.DOMAIN}.pot").open("rb") as f:
        template = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    assert marked == template  # the template is extracted afresh (catalogs.py)


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_every_placeholder(code: str) -> None:
    with _po(code).open("rb") as f:
        catalog = read_po(f, locale=code)
    wrong = []
    for m in catalog:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        want = set(_PLACEHOLDER.findall(ids[-1]))
        for said in strings:
            got = set(_PLACEHOLDER.findall(said))
            # A plural form may leave the number to the words ("{count}" in one form only).
            if got != want and got != want - {"count"}:
                wrong.append((ids[0], said))
    assert wrong == []


# -- the pseudo-locale: nothing a player reads escapes the catalogs -------------------------


def _unwrapped(text: Text | str) -> str:
    """What is left of ``text`` once the names, the notation and every wrapped (translated)
    stretch are taken out: letters left here escaped the catalogs."""
    plain = (
        text.render(mention=lambda m: "", code=lambda c: "")
        if isinstance(text, Text)
        else str(text)
    )
    while True:
        shorter = re.sub(r"⟦[^⟦⟧]*⟧", "", plain)
        if shorter == plain:
            return plain
        plain = shorter


async def test_pseudo_locale_wraps_every_sentence_of_a_game(tmp_path: Path) -> None:
    clock = FakeClock()
    said: list[Text | str] = []
    async with session(tmp_path / "p.db", clock) as m:
        with i18n.use(i18n.PSEUDO):
            made = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, {}, "me", 3)
            accepted = await m.challenges.accept(BOB, ROOM, made.challenge_id)
            gid = accepted.game_id
            assert gid is not None
            said += [made.body, accepted.body]
            said.append((await m.games.move(BOB, ROOM, "z99", gid)).body)  # illegal
            said.append((await m.games.move(ALICE, ROOM, "5", gid)).body)  # not her turn
            said.append((await m.games.move(BOB, ROOM, "5", gid)).body)
            said.append((await m.games.board(ALICE, ROOM, gid)).body)
            said.append((await m.games.games(ALICE)).body)
            said.append((await m.players.settings(ALICE)).body)
            said.append((await m.players.settings(ALICE, "language", "xx")).body)
            said.append(texts.HELP)
            clock.advance(days=3, seconds=1)
            await m.sweep()
            player = await m.players.player(ALICE)
            notices = await m.store.notifications_for(player.id)
            said += [n.text for n in notices if n.text is not None]
            said.append((await m.games.move(ALICE, ROOM, "e5", gid)).body)  # the game is over
            assert any("⟦" in str(s) for s in said)
            for text in said:
                assert not re.search(r"[A-Za-z]{2,}", _unwrapped(text)), str(text)


# -- whose language ---------------------------------------------------------------------------


async def test_a_japanese_and_a_spanish_player_in_an_english_server(tmp_path: Path) -> None:
    async with session(tmp_path / "s.db") as m:
        gid, _ = await start_game(m, "maphex")
        ja = await m.players.speakers(ALICE, ROOM, "ja", "en-US")
        es = await m.players.speakers(BOB, ROOM, "es-ES", "en-US")
        assert (ja.player, ja.chat, es.player, es.chat) == ("ja", "en", "es", "en")
        refused = await m.games.move(BOB, ROOM, "z99", gid)  # Blue (Bob) opens Maphex
        with i18n.use(ja.player):
            assert str(refused.text).startswith(f"#{gid} で反則の手です")
        with i18n.use(es.player):
            assert str(refused.text).startswith(f"Jugada ilegal en la partida #{gid}")
        with i18n.use(ja.chat):
            assert str(refused.text).startswith(f"Illegal move in #{gid}")
        # Notices delivered later: in the language each platform said last.
        assert await m.players.recipient_language(ALICE.platform, ALICE.user_id) == "ja"
        assert await m.players.recipient_language(BOB.platform, BOB.user_id) == "es"


async def test_settings_language_and_chat_language(tmp_path: Path) -> None:
    async with session(tmp_path / "s.db") as m:
        chosen = await m.players.settings(ALICE, "language", "de", ROOM)
        assert chosen.ok
        assert (await m.players.speakers(ALICE, ROOM, "ja")).player == "de"  # the choice wins
        with i18n.use("de"):
            assert "Deutsch" in str(chosen.text) and "deine Wahl" in str(chosen.text)
        assert (await m.players.settings(ALICE, "language", "auto", ROOM)).ok
        assert (await m.players.speakers(ALICE, ROOM, "ja")).player == "ja"  # the app's again
        bad = await m.players.settings(ALICE, "language", "klingon", ROOM)
        assert not bad.ok and "klingon" in str(bad.text)
        # The chat's language is for those who manage it, as the platform says.
        refused = await m.players.settings(BOB, "chat-language", "fr", ROOM)
        assert not refused.ok and "administrators" in str(refused.text)
        assert (await m.players.speakers(BOB, ROOM)).chat == "en"
        token = languages.MANAGES.set(True)
        try:
            assert (await m.players.settings(BOB, "chat-language", "fr", ROOM)).ok
        finally:
            languages.MANAGES.reset(token)
        assert (await m.players.speakers(BOB, ROOM, "es")).chat == "fr"
        assert await m.players.chat_language(ROOM.platform, ROOM.chat_id) == "fr"
        # A private chat reads its player's language: there is no chat language to set.
        direct = ROOM.__class__(ROOM.platform, "dm", direct=True)
        private = await m.players.settings(BOB, "chat-language", "fr", direct)
        assert not private.ok


async def test_a_stored_notice_is_said_in_its_readers_language(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "n.db", clock) as m:
        made = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, {}, "me", 3)
        gid = (await m.challenges.accept(BOB, ROOM, made.challenge_id)).game_id
        assert (await m.games.move(BOB, ROOM, "5", gid)).ok
        assert (await m.players.settings(BOB, "dm", "on")).ok  # the notice is a direct message
        await m.players.speakers(BOB, ROOM, "pt-BR")
        clock.advance(days=3, seconds=1)
        await m.sweep()
        player = await m.players.player(BOB)
        note = next(n for n in await m.store.notifications_for(player.id) if n.kind == "game_over")
        assert note.text is not None
        # Kept unsaid in the outbox: a message id and its arguments, not English.
        assert '"p"' in note.text.to_json() and "You win on time" in note.text.to_json()
        assert await language_of(m.store, note) == "pt_BR"
        for code, words in WIN_ON_TIME.items():
            with i18n.use(code):
                assert words in str(note.text), code


#: "You win on time", as each language says it in the timeout notice.
WIN_ON_TIME = {
    "en": "You win on time",
    "es": "Ganas por tiempo",
    "ja": "あなたの時間切れ勝ちです",
    "de": "Du gewinnst auf Zeit",
    "fr": "Vous gagnez au temps",
    "pt_BR": "Você vence por tempo",
}


def test_numbers_and_times_in_each_languages_words() -> None:
    assert texts.time_left(2 * 86400 + 4 * 3600) == "2 days 4 hr left"
    with i18n.use("de"):
        assert texts.time_left(2 * 86400 + 4 * 3600) == "noch 2 Tg. 4 Std."
        assert i18n.number(1.5) == "1,5"
    with i18n.use("ja"):
        assert texts.time_left(3000) == "残り 50 分"
    with i18n.use("fr"):
        ada = Mention("x", "1", "Ada")
        assert str(texts.challenged(ada, None, "Maphex", 4, 1.5)).endswith("dans 1,5 heures.")
    assert i18n.language_name("ja") == "日本語" and i18n.language_name("pt-BR").startswith("Portu")


def test_unknown_languages_fall_back_to_english() -> None:
    assert i18n.supported("ko") is None and i18n.supported(None) is None
    with i18n.use("ko"):
        assert str(texts.no_active_game_here()) == "You have no active game here."
    assert i18n.current() == i18n.SOURCE


def test_a_phrase_survives_storage() -> None:
    ada = Mention("telegram", "7", "Ada")
    text = texts.declined(ada, 4, Mention("telegram", "8", "Bo")) + " " + texts.CASUAL
    back = Text.from_json(text.to_json())
    assert back == text
    with i18n.use("es"):
        assert str(back) == "Ada rechazó el desafío 4 de Bo.  Partida amistosa (no puntuable)."
        assert list(back.mentions()) == [ada, Mention("telegram", "8", "Bo")]


async def test_the_console_speaks_the_players_choice(tmp_path: Path) -> None:
    async with session(tmp_path / "c.db") as m:
        await _console_language(m)


async def _console_language(m: SessionManager) -> None:
    from bot.adapters.console import CHAT, console_user

    ada = console_user("ada")
    assert (await m.players.settings(ada, "language", "ja", CHAT)).ok
    said = await m.players.speakers(ada, CHAT)
    assert (said.player, said.chat) == ("ja", "ja")


#: The head of a tournament's standings, as each language says it.
STANDINGS = {
    "es": "Clasificación de torneo",
    "ja": "の順位表",
    "de": "Tabelle von Turnier",
    "fr": "Classement de tournoi",
    "pt_BR": "Classificação de torneio",
}


async def test_tournament_standings_in_each_language(tmp_path: Path) -> None:
    from tests.bot.tournaments.test_manager import ROOM as CLUB
    from tests.bot.tournaments.test_manager import A, B, C, _open

    async with session(tmp_path / "t.db") as m:
        tid = await _open(m, (A, B, C), 1.0)
        for code, head in STANDINGS.items():
            with i18n.use(code):
                # The chat reads its language: the words inside the picture's alt and the
                # names of things (tournament 1) are said as the reply is made.
                started = (
                    await m.tournaments.tournament_start(A, CLUB, tid) if code == "es" else None
                )
                standings = await m.tournaments.tournament_standings(A, CLUB, tid)
                assert standings.ok, standings.text
                assert head in standings.text, standings.text
                if started is not None:
                    assert "¡Suerte!" in started.text, started.text


def test_a_plain_install_ships_the_compiled_catalogs(installed_site: Path, tmp_path: Path) -> None:
    """The ``.mo`` files are package data: a non-editable install speaks every language
    without a build step (no pybabel on the target)."""
    import os
    import subprocess

    site = installed_site
    for code in TRANSLATED:
        assert (site / "bot" / "locales" / code / "LC_MESSAGES" / "hexhall.mo").is_file()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONPATH"] = str(site)
    said = subprocess.run(
        [sys.executable, "-c",
         "from bot.core import i18n\n"
         "print(i18n.LOCALES_DIR)\n"
         "with i18n.use('ja'):\n    print(i18n.gettext('Accept a challenge'))"],
        capture_output=True, cwd=tmp_path, env=env, timeout=120, check=True,
    )  # fmt: skip
    where, words = said.stdout.decode().splitlines()
    assert where == str(site / "bot" / "locales") and words == "挑戦を受ける"


#: The picture's status band in each language: whose turn (Red, after Blue chose the centre
#: sub-board), the move, the last move.
BAND = {
    "es": ("Mueve Rojo", "jugada 2", "última: 5"),
    "ja": ("赤 の番", "2手目", "最後：5"),
    "de": ("Rot am Zug", "Zug 2", "zuletzt: 5"),
    "fr": ("Au tour de Rouge", "coup 2", "dernier : 5"),
    "pt_BR": ("Vez de Vermelho", "lance 2", "último: 5"),
}


@pytest.mark.parametrize("code", list(BAND))
def test_the_board_picture_carries_the_languages_words(code: str) -> None:
    import engines
    from render import board_texts

    position = engines.new("maphex").play("5")
    assert position.seat_sides[position.to_move] == "Red"
    with i18n.use(code):
        _, marks = board_texts(position)
    drawn = " | ".join(m.text for m in marks)
    for words in BAND[code]:
        assert words in drawn, drawn
    assert " to move" not in drawn and "last:" not in drawn
