"""The words on the pictures and in their alt text are said in the reader's language (issue 43):
legends, goals, hints, side headings, the standings table, the rating chart and
``render.describe``, in each language that ships; under the pseudo-locale no word on a picture
or in its alt text escapes the catalogs."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import engines
import render
from bot.core import i18n
from engines.base import Outcome, Position
from render.chart import _date_ticks, rating_chart_image
from render.standings import StandingsRow, standings_texts
from tests.engines.properties import random_game

TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.SOURCE]
GAMES = list(engines.GAMES)


def _unwrapped(text: str) -> str:
    """``text`` without its wrapped (translated) stretches, innermost first."""
    while True:
        shorter = re.sub(r"⟦[^⟦⟧]*⟧", "", text)
        if shorter == text:
            return text
        text = shorter


def _words(position: Position, **scene: Any) -> list[str]:
    _, marks = render.board_texts(position, **scene)
    return [m.text for m in marks]


def _positions(game: str) -> list[Position]:
    """A game's start, a few middle positions and its end (random legal moves)."""
    played = random_game(game, {}, 11, 160)
    return [played[0], *played[1 : len(played) : max(1, len(played) // 6)], played[-1]]


#: A word of each game's legend or side panel, in each language (the background's words).
LEGEND = {
    "maphex": {"ja": "直前の石", "de": "letzte Scheibe", "es": "última ficha"},
    "inphexion": {"ja": "移設された石", "de": "umgesetzt", "fr": "déplacé"},
    "fixation": {
        "ja": "目標：ひとつの群れ",
        "de": "Ziel: eine Gruppe",
        "pt_BR": "Objetivo: um só grupo",
    },
    "isopath": {"ja": "テレポート", "de": "Plättchen versetzt", "es": "loseta movida"},
    "pathagon": {"ja": "今は置けない", "de": "Spalten a ↔ g", "fr": "pas ici pour l'instant"},
}
#: The same words in English, which the translated pictures no longer show.
LEGEND_EN = {
    "maphex": "last disc",
    "inphexion": "relocated",
    "fixation": "Goal: one group",
    "isopath": "tile moved",
    "pathagon": "not here now",
}


@pytest.mark.parametrize("game", GAMES)
def test_each_legend_is_drawn_in_the_readers_language(game: str) -> None:
    position = engines.new(game)
    english = " | ".join(_words(position))
    assert LEGEND_EN[game] in english
    for code, words in LEGEND[game].items():
        with i18n.use(code):
            drawn = " | ".join(_words(position))
        assert words in drawn, (code, drawn)
        assert LEGEND_EN[game] not in drawn, (code, drawn)
    # A language's background never leaks into another's (the cache keeps one per language).
    assert " | ".join(_words(position)) == english


def test_the_side_headings_and_goals_are_translated() -> None:
    with i18n.use("de"):
        fixation = _words(engines.new("fixation"))
        maphex = _words(engines.new("maphex"))
    assert "Hell" in fixation and "Dunkel" in fixation and "Light" not in fixation
    assert "oben ↔ unten" in maphex and "links ↔ rechts" in maphex
    with i18n.use("ja"):
        pathagon = _words(engines.new("pathagon").play("d4"))
    assert "明" in pathagon and "持ち駒 13" in pathagon and "駒を置く" in " ".join(pathagon)


def test_a_maphex_hint_names_the_target_in_the_readers_words() -> None:
    position = engines.new("maphex").play("5").play("e5")
    assert "play in centre, 5" in " | ".join(_words(position))
    expected = {
        "es": "destino: centro, 5",
        "ja": "中央、5 に打つ",
        "de": "Ziel: Mitte, 5",
    }
    for code, words in expected.items():
        with i18n.use(code):
            drawn = " | ".join(_words(position))
            alt = render.describe(position)
        assert words in drawn, drawn
        assert "centre" not in drawn and "centre" not in alt


#: The start of each language's alt text for Maphex after Blue's choice and Red's e5.
ALT = {
    "en": "Maphex 9x9, move 3. Red: e5; Blue: none. Last: Red e5. Blue to move, in centre, 5.",
    "es": "Maphex 9x9, jugada 3. Rojo: e5; Azul: ninguna. Última: Rojo e5. "
    "Mueve Azul, subtablero centro, 5.",
    "ja": "Maphex 9x9、3手目。 赤: e5; 青: なし. 直前の手：赤 e5。 青 の番、中央、5。",
    "de": "Maphex 9x9, Zug 3. Rot: e5; Blau: keine. Zuletzt: Rot e5. "
    "Blau am Zug, Teilbrett Mitte, 5.",
    "fr": "Maphex 9x9, coup 3. Rouge: e5; Bleu: aucune. Dernier coup : Rouge e5. "
    "Au tour de Bleu, sous-plateau centre, 5.",
    "pt_BR": "Maphex 9x9, lance 3. Vermelho: e5; Azul: nenhuma. Último: Vermelho e5. "
    "Vez de Azul, subtabuleiro centro, 5.",
}


@pytest.mark.parametrize("code", list(ALT))
def test_the_alt_text_in_each_language(code: str) -> None:
    position = engines.new("maphex").play("5").play("e5")
    with i18n.use(code):
        assert render.describe(position) == ALT[code]


def test_alt_text_of_a_finished_game_with_players_and_a_clock() -> None:
    position = engines.new("pathagon").play("d4")
    resigned = Outcome(0, "resignation")
    with i18n.use("de"):
        over = render.describe(position, outcome=resigned, players=("Ada", "Bo"))
        clocked = render.describe(position, players=("Ada", "Bo"), clock="noch 2 Tage")
    assert over.startswith("Pathagon 7x7, nach 1 Zug. Ada spielt Hell, Bo spielt Dunkel.")
    assert over.endswith("Partie beendet. Hell gewinnt durch Aufgabe.")
    assert "Auf der Hand: Hell 13, Dunkel 14." in over
    assert clocked.endswith("Dunkel am Zug. Uhr: noch 2 Tage.")
    with i18n.use("ja"):
        fixation = render.describe(engines.new("fixation"))
    assert fixation.startswith("Lines of Fixation、一辺 5、1手目。 山（下から上へ、明/暗）：")


@pytest.mark.parametrize("game", GAMES)
def test_pseudo_locale_no_word_on_a_picture_or_its_alt_escapes(game: str) -> None:
    """Every word drawn or described is wrapped: only names, cells, numbers and the clock
    (given by the caller, in its own words) are left once the wrapped stretches go."""
    for position in _positions(game):
        with i18n.use(i18n.PSEUDO):
            drawn = _words(position, players=("Ada", "Bo"), clock="⟦2 days⟧")
            over = _words(position, outcome=Outcome(None, "agreement"))
            alt = render.describe(position, players=("Ada", "Bo"), clock="⟦2 days⟧")
        for text in [*drawn, *over]:
            assert text in ("Ada", "Bo") or not re.search(r"[A-Za-z]{2,}", _unwrapped(text)), text
        left = _unwrapped(alt).replace("Ada", "").replace("Bo", "")
        # The game's title and board size are names, not sentences (``Maphex 9x9``).
        left = left.replace(engines.GAMES[game].title, "")
        assert not re.search(r"[A-Za-z]{2,}", left), alt


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_games_alt_text_reads_without_english_words(code: str) -> None:
    english_words = {"to move", "Last:", "Game over", "capturing", "In hand", "Stacks", "tiles"}
    for game in GAMES:
        for position in _positions(game):
            with i18n.use(code):
                alt = render.describe(position)
            assert not [w for w in english_words if w in alt], (game, alt)


def test_the_standings_picture_in_each_language() -> None:
    rows = (
        StandingsRow(1, "Ada", 2, 2, 0, 0, "2", "1"),
        StandingsRow(2, "Bo", 2, 0, 0, 2, "0", "0", True),
    )
    heads = {
        "en": ("Player", "Pts", "Bo (withdrawn)"),
        "es": ("Jugador", "Pts", "Bo (retirado)"),
        "ja": ("プレイヤー", "点", "Bo（棄権）"),
        "de": ("Spieler", "Pkt", "Bo (zurückgezogen)"),
        "fr": ("Joueur", "Pts", "Bo (retiré)"),
        "pt_BR": ("Jogador", "Pts", "Bo (desistiu)"),
    }
    for code, words in heads.items():
        with i18n.use(code):
            _, drawn = standings_texts("T", [("", rows)])
        texts = [text for text, _, _ in drawn]
        for word in words:
            assert word in texts, (code, texts)
    with i18n.use(i18n.PSEUDO):
        _, drawn = standings_texts("⟦T⟧", [("⟦A⟧", rows)], "⟦note⟧")
    for text, _, _ in drawn:
        left = _unwrapped(text)
        assert left in ("Ada", "Bo", "#") or not re.search(r"[A-Za-z]{2,}", left), text


def test_the_rating_charts_dates_in_each_language() -> None:
    start = datetime(2026, 3, 2, tzinfo=UTC)
    days = [t.label for t in _date_ticks(start, start + timedelta(days=9))]
    months = [t.label for t in _date_ticks(start, start + timedelta(days=200))]
    assert days[0] == "Mar 2" and months[0] == "Apr 2026"
    with i18n.use("de"):
        assert _date_ticks(start, start + timedelta(days=9))[0].label == "2. März"
        assert _date_ticks(start, start + timedelta(days=200))[0].label == "Apr. 2026"
    with i18n.use("ja"):
        assert _date_ticks(start, start + timedelta(days=9))[0].label == "3月2日"
        hours = _date_ticks(start, start + timedelta(hours=10))
        assert hours[0].label == "3月2日 0:00"


def test_the_rating_charts_words_follow_the_language() -> None:
    points = [
        (datetime(2026, 3, 1, tzinfo=UTC), 1500.0),
        (datetime(2026, 3, 9, tzinfo=UTC), 1540.0),
    ]
    english = rating_chart_image(points, title="Maphex").tobytes()
    with i18n.use("ja"):
        japanese = rating_chart_image(points, title="Maphex").tobytes()
        empty_ja = rating_chart_image([], title="Maphex").tobytes()
    assert japanese != english
    assert empty_ja != rating_chart_image([], title="Maphex").tobytes()


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_every_word_stays_inside_the_picture_in_each_language(code: str) -> None:
    """A translation never runs off the picture: legends, goals, hints and the band."""
    for game in GAMES:
        for position in _positions(game)[:4]:
            with i18n.use(code):
                size, marks = render.board_texts(position, players=("Ada", "Bo"))
            for mark in marks:
                x0, y0, x1, y1 = mark.box
                assert x0 >= 0 and y0 >= 0 and x1 <= size[0] and y1 <= size[1], (game, mark)
