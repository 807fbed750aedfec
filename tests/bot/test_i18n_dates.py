"""Dates a player reads are said in their language (issue 43): a vacation's end, a deadline's
reminder, a tournament's start, kept unsaid in the outbox (:class:`bot.messages.Moment`) and
said when delivered, in the recipient's words."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.core import i18n
from bot.messages import Mention, Moment, Text
from bot.sessions import texts

ADA = Mention("telegram", "1", "Ada")
WHEN = datetime(2026, 3, 9, 14, 5, 31, tzinfo=UTC)

#: 9 March 2026, 14:05 UTC, as each language writes it.
DATES = {
    "en": "Mar 9, 2026, 14:05 UTC",
    "es": "9 mar 2026, 14:05 UTC",
    "ja": "2026年3月9日 14:05 UTC",
    "de": "9. März 2026, 14:05 UTC",
    "fr": "9 mars 2026, 14:05 UTC",
    "pt_BR": "9 de mar. de 2026 14:05 UTC",
}


@pytest.mark.parametrize("code", list(DATES))
def test_a_stored_notices_date_is_said_in_its_readers_words(code: str) -> None:
    note = texts.away_note(ADA, WHEN, 7, "Maphex")
    kept = Text.from_json(note.to_json())  # as the outbox keeps it
    assert '["d", "2026-03-09T14:05:00+00:00"]' in note.to_json()
    with i18n.use(code):
        said = str(kept)
    assert DATES[code] in said, said
    assert ("2026-03-09" in said) is False


def test_every_date_sentence_is_localized() -> None:
    with i18n.use("de"):
        reminder = str(texts.reminder_note(7, "Maphex", 12, WHEN))
        away = str(texts.away(ADA, WHEN, 2, 10))
        card = str(texts.tournament_card(3, "Maphex 9×9", "3 Tage", [ADA], WHEN, 3))
    for said in (reminder, away, card):
        assert "9. März 2026, 14:05 UTC" in said, said


def test_a_time_in_another_zone_is_said_in_utc() -> None:
    evening = datetime(2026, 3, 9, 23, 30, tzinfo=timezone(timedelta(hours=-5)))
    with i18n.use("fr"):
        assert str(Text.of(Moment.of(evening))) == "10 mars 2026, 04:30 UTC"


def test_the_pseudo_locale_wraps_a_date_and_a_bad_stored_one_stays_readable() -> None:
    with i18n.use(i18n.PSEUDO):
        assert str(Text.of(Moment.of(WHEN))) == "⟦Mar 9, 2026, 14:05 UTC⟧"
    assert str(Text.from_json('[["d", "not a date"]]')) == "not a date"
    with pytest.raises(ValueError, match="moment"):
        Text.from_json('[["d", 5]]')


def test_the_days_of_a_chart_and_a_date_alone() -> None:
    assert i18n.day(WHEN) == "Mar 9, 2026"
    with i18n.use("pt_BR"):
        assert i18n.day(WHEN, "yMMM") == "mar. de 2026"
        assert i18n.moment(WHEN, "MMMd") == "9 de mar. 14:05"
