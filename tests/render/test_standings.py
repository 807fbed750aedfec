"""The standings picture read on a phone, by the measure the board pictures keep to
(tests/render/test_phone.py): shown 330 dp wide (Telegram) or 400 px wide (Discord), every
text is at least 9 dp / 11 px, lies inside the picture and overlaps no other text; a group of
ten fits 4:3, so Discord's 400 x 300 box shows it at full width."""

from __future__ import annotations

import itertools

from render.standings import SMALLEST, WIDTH, StandingsRow, standings_png, standings_texts

LONG = "Maximiliana-Wilhelmina von Hohenzollern-Sigmaringen"


def _ten(withdrawn: int = 9) -> tuple[StandingsRow, ...]:
    names = [LONG, "Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
    return tuple(
        StandingsRow(i + 1, name, 18, 17, 1, 0, "17½", "150¾", withdrawn=i == withdrawn)
        for i, name in enumerate(names)
    )


def test_a_group_of_ten_is_readable_on_a_phone() -> None:
    (width, height), drawn = standings_texts(
        "Tournament 12: Maphex 16×16", [("", _ten())], "90 of 90 games played"
    )
    assert width == WIDTH and height <= WIDTH * 3 // 4
    for text, size, (x0, y0, x1, y1) in drawn:
        assert size >= SMALLEST and size * 330 / width >= 9 and size * 400 / width >= 11, text
        assert x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height, text
    for (a, _, box_a), (b, _, box_b) in itertools.combinations(drawn, 2):
        apart = (
            box_a[2] <= box_b[0]
            or box_b[2] <= box_a[0]
            or box_a[3] <= box_b[1]
            or box_b[3] <= box_a[1]
        )
        assert apart, (a, b)
    shown = [text for text, _, _ in drawn]
    long = next(t for t in shown if t.startswith(LONG[:8]))
    assert long.endswith("…") and len(long) >= 9  # shortened, its start kept
    assert "Ivy (withdrawn)" in shown  # said in words, not by colour alone


def test_groups_each_get_their_heading() -> None:
    rows = _ten(withdrawn=-1)
    (_, _), drawn = standings_texts("T", [("Group A", rows[:5]), ("Group B", rows[5:])])
    shown = [text for text, _, _ in drawn]
    assert shown.count("Player") == 2 and "Group A" in shown and "Group B" in shown
    assert standings_png("T", [("", rows)])[:8] == b"\x89PNG\r\n\x1a\n"
