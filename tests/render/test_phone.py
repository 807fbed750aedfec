"""Board pictures read on a phone (issue 26, "Pictures for phones").

A Telegram chat shows a photo about 330 dp wide on a phone, a Discord embed about 400 px wide
(Discord fits an embedded image in a 400 x 300 box: the pictures are landscape, no taller
than 4:3, so they get the full width in both).  Every text of every picture — header,
players, coordinates, cell names, stack heights, legend — must be at least 9 dp at 330 dp
and 11 px at 400 px (font size as displayed), lie inside the picture, overlap no other text
and be whole: the header is never cut, and only a player's name too long for its room is
shortened (with an ellipsis, keeping its first characters; the caption has it whole).

The texts come from ``render.board_texts``, which reports what the drawing code drew.
"""

from __future__ import annotations

import itertools

import pytest

import engines
import render
from engines import Outcome
from render import _pipeline
from render._core import BAND
from render._words import result_text
from tests.render.phone_cases import LONG_NAMES, VARIANTS, VIEWS, Case, variant_cases

#: a shortened name keeps at least this many characters
KEPT = 8


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("view", VIEWS, ids=[v[0] for v in VIEWS])
def test_no_text_is_smaller_than_readable_on_a_phone(
    variant: str, view: tuple[str, int, str, float]
) -> None:
    """Every text of every case, scaled to the view's width, is at least the view's minimum
    font size; icons drawn as glyphs (``+``, ``−``, ``↺``) are pictures, not words."""
    name, shown, unit, least = view
    for case in variant_cases(variant):
        (width, _), texts = case.texts()
        assert texts
        for text in texts:
            if not text.icon:
                size = text.size * shown / width
                assert size >= least, f"{case.label}: {text.text!r} is {size:.2f} {unit} ({name})"


def _inside(box: tuple[float, float, float, float], size: tuple[int, int]) -> bool:
    x0, y0, x1, y1 = box
    return x0 >= 0 and y0 >= 0 and x1 <= size[0] and y1 <= size[1]


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    # Anti-aliased edges may touch: boxes must share more than a pixel each way.
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_texts_are_whole_inside_the_picture_and_apart(variant: str) -> None:
    """No text leaves the picture or overlaps another; only a long player's name is cut,
    keeping its start."""
    for case in variant_cases(variant):
        size, texts = case.texts()
        for text in texts:
            assert _inside(text.box, size), f"{case.label}: {text.text!r} at {text.box}"
            if "…" in text.text:
                names = case.players or ()
                kept = text.text.removesuffix("…")
                assert any(n.startswith(kept) for n in names), f"{case.label}: {text.text!r}"
                assert len(kept) >= KEPT, f"{case.label}: {text.text!r}"
        for a, b in itertools.combinations(texts, 2):
            assert not _overlap(a.box, b.box), f"{case.label}: {a.text!r} over {b.text!r}"


def _header(case: Case) -> list[str]:
    size, texts = case.texts()
    band = BAND * size[1] / 700
    return [t.text for t in texts if t.box[3] <= band]


@pytest.mark.parametrize("game", list(engines.GAMES))
def test_the_header_says_everything_uncut(game: str) -> None:
    """Whose turn, the clock, the move number, the last move and the game's hint while the
    game goes on; the whole result, the number of moves and the last move once it is over —
    none of it cut."""
    variants = (name for name, (of, _) in VARIANTS.items() if of == game)
    for case in (c for name in variants for c in variant_cases(name)):
        position, header = case.position, _header(case)
        words = " ".join(header)
        assert "…" not in words, case.label
        outcome = case.outcome or position.outcome
        if outcome is None:
            assert f"{position.seat_sides[position.to_move]} to move" in words
            assert f"move {position.ply + 1}" in words
            if case.clock:
                assert case.clock in words
            detail = _pipeline.art_for(position).detail(position)
            assert detail in words, case.label
        else:
            assert "★ " + result_text(outcome, position.seat_sides) in words
            assert f"{position.ply} moves" in words
        if position.last_move is not None:
            assert f"last: {position.last_move}" in words


def test_the_issues_cut_headers_now_read_whole() -> None:
    """The two headers issue 26 found cut, on the same kind of position: Maphex's target
    hint after a move and inpHeXion's clock."""
    maphex = engines.new("maphex").play("9").play("i9")
    header = " ".join(_header(Case("maphex", maphex, LONG_NAMES, "2 days 23 h left", None)))
    assert "play in bottom-right, 9" in header and "last: i9" in header
    assert "2 days 23 h left" in header
    inphexion = engines.new("inphexion").play("d4")
    header = " ".join(_header(Case("inphexion", inphexion, LONG_NAMES, "2 days 23 h left", None)))
    assert "2 days 23 h left" in header and "last: d4" in header


def test_board_texts_match_the_picture_drawn() -> None:
    """``board_texts`` reports the picture ``board_image`` draws: same size, and a text's
    box holds ink of a colour other than the ground around it."""
    position = engines.new("pathagon").play("d4")
    size, texts = render.board_texts(position, players=("Ada", "Grace"), clock="1 h left")
    image = render.board_image(position, players=("Ada", "Grace"), clock="1 h left")
    assert image.size == size
    rgb = image.convert("RGB")
    for text in texts:
        x0, y0 = (max(0, round(v)) for v in text.box[:2])
        x1, y1 = min(size[0], round(text.box[2])), min(size[1], round(text.box[3]))
        colours = {rgb.getpixel((x, y)) for x in range(x0, x1) for y in range(y0, y1)}
        assert len(colours) > 2, text
    shown = " | ".join(t.text for t in texts)
    for words in ("Ada", "Grace", "Dark to move", "1 h left", "last: d4", "place a piece"):
        assert words in shown


def test_cell_names_are_shown_on_empty_cells_only() -> None:
    """Fixation and Iso-Path name their cells inside them: an empty cell shows its name, an
    occupied one does not (its stack or piece would hide it)."""
    for game in ("fixation", "isopath"):
        position = engines.new(game)
        _, texts = render.board_texts(position)
        named = {t.cell for t in texts if t.cell is not None}
        board = position.board
        if game == "fixation":
            empty = {c for c, stack in enumerate(position.stacks) if not stack}
        else:
            empty = {c for c, p in enumerate(position.pieces) if p < 0}
        flat_empty = {c for c in empty if game == "fixation" or position.heights[c] == 0}
        assert flat_empty <= named <= empty
        for t in texts:
            if t.cell is not None:
                assert t.text == board.name(t.cell)


def test_a_finished_game_header_has_no_turn() -> None:
    """A result the bot decided replaces whose turn it is, uncut."""
    position = engines.new("inphexion").play("d4")
    outcome = Outcome(1, "resignation")
    header = _header(Case("x", position, LONG_NAMES, "1 h left", outcome))
    assert "★ Black wins by resignation" in header
    assert not any("to move" in t or "h left" in t for t in header)
