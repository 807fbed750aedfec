"""The last sentences a player read in English (issue 43): a record's errors, the typed
forms' refusals, the console's storage errors and Maphex's sub-board names in an illegal move
are said in the reader's language, and pass the pseudo-locale check (nothing left unwrapped)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

import engines
from bot.adapters.console import Console
from bot.adapters.typed import challenge_words, game_id_only
from bot.adapters.typed_tournament import tournament_words
from bot.core import i18n
from bot.messages import Reply, Text
from bot.sessions import texts
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.sessions.records import RecordError, parse
from bot.storage import SqliteStore, StoreFull, StoreUnavailable
from tests.bot.session_kit import ALICE, BOB, ROOM, session
from tests.bot.test_console import feeder
from tests.bot.test_i18n import _unwrapped

#: A record whose second move is outside the target sub-board (Blue chose the centre).
OUTSIDE = "Game: maphex\n\n1. 5\n2. a1"


def _refused(answer: object) -> Text | str:
    assert isinstance(answer, Reply) and not answer.ok, answer
    return answer.text


def _no_english_left(text: Text | str) -> None:
    assert not re.search(r"[A-Za-z]{2,}", _unwrapped(text)), str(text)


# -- 1. a record's errors -------------------------------------------------------------------


def test_a_records_errors_read_in_the_readers_language() -> None:
    with pytest.raises(RecordError) as caught:
        parse(OUTSIDE)
    error = caught.value
    assert str(error) == (
        "line 4: move 2 (a1) is illegal: a1 is not in the target sub-board (centre, 5)"
    )
    with i18n.use("es"):
        assert str(error) == (
            "línea 4: la jugada 2 (a1) es ilegal: a1 no está en el subtablero de destino "
            "(centro, 5)"
        )
    with i18n.use("ja"):
        assert str(error).startswith("4行目：2手目（a1）は反則です")
    for record, german in (
        ("Game: chess\n", "unbekanntes Spiel 'chess'"),
        ("Game: maphex\n\n2. 5\n", "Zug 1 erwartet, 2 gefunden"),
        ("Game: maphex\nTime per move: 2 days\n", "die Zeit pro Zug muss eines von"),
        ("Game: maphex\nResult: 2-0\n", "das Ergebnis ist 1-0, 0-1"),
        ("1. 5\n", "die Züge kommen nach dem Kopf"),
    ):
        with pytest.raises(RecordError) as wrong:
            parse(record)
        with i18n.use("de"):
            assert german in str(wrong.value), str(wrong.value)
        with i18n.use(i18n.PSEUDO):
            _no_english_left(wrong.value.said)
    with i18n.use(i18n.PSEUDO):
        _no_english_left(error.said)


async def test_an_imported_record_that_cannot_be_read_is_refused_in_the_readers_words(
    tmp_path: Path,
) -> None:
    async with session(tmp_path / "r.db") as m:
        refused = await m.games.import_record(ALICE, ROOM, OUTSIDE, BOB)
        assert not refused.ok
        with i18n.use("fr"):  # said when read, not when refused
            said = str(refused.text)
        assert said.startswith("Impossible d'importer cette notation : ligne 4 : le coup 2"), said
        assert "(centre, 5)" in said and "n'est pas dans" in said


# -- 2. the typed forms' refusals -----------------------------------------------------------


def _nobody(_: str) -> None:
    return None


def test_typed_refusals_read_in_the_players_language() -> None:
    with i18n.use("de"):
        only_id = _refused(game_id_only("board")(["#3", "x"], _nobody))
        assert only_id == "board nimmt nur eine optionale ID, z. B. board #12."
        long_name = _refused(challenge_words(["x" * 99, "maphex"], _nobody))
        assert str(long_name).startswith("Ein Spielername ist ein Wort")
    with i18n.use("fr"):
        days = _refused(challenge_words(["bot", "maphex", "days=2"], _nobody))
        assert str(days).startswith("le temps par coup doit être l'un de none, 1, 3, 7, 14")
        bare = _refused(challenge_words(["bot", "maphex", "size"], _nobody))
        assert str(bare).startswith("'size' n'est pas de la forme option=valeur. Usage : ")
    with i18n.use("ja"):
        rounds = _refused(tournament_words(["new", "maphex", "rounds=3"], _nobody))
        assert rounds == "rounds=1 か rounds=2 です。"
        most = _refused(tournament_words(["new", "maphex", "max=x"], _nobody))
        assert most == "max= には人数を指定します。例：max=8。"
        usage = _refused(tournament_words(["join", "x"], _nobody))
        assert str(usage).startswith("使い方：tournament join")
    with i18n.use(i18n.PSEUDO):
        for answer in (
            game_id_only("board")(["#3", "x"], _nobody),
            challenge_words(["bot", "maphex", "days=2"], _nobody),
            challenge_words(["bot", "maphex", "size"], _nobody),
            tournament_words(["new", "maphex", "max=x"], _nobody),
            tournament_words(["join", "x"], _nobody),
            tournament_words(["x", "y"], _nobody),
            tournament_words(["new"], _nobody),
        ):
            _no_english_left(_refused(answer))


# -- 4. the console's storage errors ----------------------------------------------------------


@pytest.mark.parametrize("failure", [StoreFull("disk"), StoreUnavailable("gone")])
async def test_the_consoles_storage_errors_are_in_the_players_language(
    tmp_path: Path, failure: StoreFull, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await SqliteStore.open(tmp_path / "h.db")
    out, err = io.StringIO(), io.StringIO()
    lines = [b"settings language es\n", b"games\n", b"quit\n"]
    try:
        manager = SessionManager(store, FakeClock())

        async def failing(*_: Any, **__: Any) -> Reply:
            raise failure  # the store failed after the player's language was read

        console = Console(manager, tmp_path / "boards", out=out, err=err, read_line=feeder(lines))
        monkeypatch.setattr(manager.games, "games", failing)
        assert await console.run() == 0
    finally:
        await store.close()
    said = texts.STORAGE_FULL if isinstance(failure, StoreFull) else texts.UNAVAILABLE
    with i18n.use("es"):
        spanish = str(said)
    assert f"! {spanish}\n" in out.getvalue() and spanish != str(said)


# -- 5. Maphex's sub-board names in an illegal move ---------------------------------------------


@pytest.mark.parametrize(
    ("size", "words"),
    [
        (9, {"es": "(centro, 5)", "de": "(Mitte, 5)", "ja": "（中央、5）"}),
        (16, {"es": "(fila 2, columna 1; 5)", "fr": "(rangée 2, colonne 1 ; 5)"}),
    ],
)
def test_the_target_sub_board_is_named_in_the_readers_words(
    size: int, words: dict[str, str]
) -> None:
    with pytest.raises(engines.IllegalMove) as caught:
        engines.new("maphex", size=size).play("5").play("a1")
    said = texts.illegal_said(caught.value)
    for code, place in words.items():
        with i18n.use(code):
            assert place in str(said), str(said)
    with i18n.use(i18n.PSEUDO):
        _no_english_left(said)


# -- 6. a game's options --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "english", "words"),
    [
        (
            {"colour": "red"},
            "Maphex has no option 'colour' (options: size)",
            {"es": "Maphex no tiene la opción 'colour'", "de": "Maphex hat keine Option"},
        ),
        (
            {"size": "11"},
            "option size must be one of 9, 16, not '11'",
            {"fr": "l'option size doit être l'une de 9, 16", "ja": "オプション size は"},
        ),
    ],
)
async def test_a_bad_option_is_refused_in_the_players_language(
    tmp_path: Path, options: dict[str, str], english: str, words: dict[str, str]
) -> None:
    """The engine names the option and what it takes (``engines.OptionError``); the refusal
    of a challenge and a record's error say it in the reader's words."""
    async with session(tmp_path / "h.db") as m:
        refused = _refused(await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, options))
        assert str(refused) == english
        for language, said in [*words.items(), (i18n.PSEUDO, "")]:
            with i18n.use(language):
                answer = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, options)
                assert said in str(_refused(answer)), str(answer.text)
                if language == i18n.PSEUDO:
                    _no_english_left(answer.text)
    record = "Game: maphex\nOptions: " + ", ".join(f"{k}={v}" for k, v in options.items())
    with pytest.raises(RecordError) as wrong:
        parse(record + "\n")
    assert str(wrong.value) == f"line 2: bad option: {english}"
    with i18n.use(i18n.PSEUDO):
        _no_english_left(wrong.value.said)


# -- 7. settings and vacations --------------------------------------------------------------


async def test_settings_and_their_refusals_read_in_the_players_language(tmp_path: Path) -> None:
    """The settings line and a bad setting or vacation are said in the reader's words (the
    checks raise ``bot.core.i18n.BadValue``: a catalog sentence and its values)."""
    async with session(tmp_path / "h.db") as m:
        shown = await m.players.settings(ALICE, "quiet", "22:00-07:00 +01:00")
        assert shown.ok and str(shown.text) == (
            "Your settings: direct messages off, reminders on, quiet hours 22:00-07:00 UTC+01:00."
        )
        with i18n.use("de"):
            listed = await m.players.settings(ALICE)
            assert str(listed.text).startswith("Deine Einstellungen: Direktnachrichten off, ")
            bad = await m.players.settings(ALICE, "quiet", "25:00-07:00")
            assert str(_refused(bad)) == "'25:00' ist keine Uhrzeit (z. B. 22:00 oder 7)."
        with i18n.use("ja"):
            away = await m.players.away(ALICE, 400)
            assert str(_refused(away)).startswith("away は 1 年に最大")
        with i18n.use(i18n.PSEUDO):
            for answer in (
                await m.players.settings(ALICE),
                await m.players.settings(ALICE, "colour", "red"),
                await m.players.settings(ALICE, "dm", "maybe"),
                await m.players.away(ALICE, 0),
            ):
                _no_english_left(answer.text)
