"""Names in every script drawn as glyphs, never as a font's missing-glyph box: each character
of a drawn text is in the ``cmap`` (read by fontTools) of the font chosen for it, and that
font draws it differently from its ``.notdef`` glyph; Arabic is joined and, like Hebrew,
drawn right to left; the pictures are the same whether or not Pillow can use Raqm."""

from __future__ import annotations

import json
import unicodedata
from datetime import UTC, datetime

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

import engines
import render
from render import _fonts
from render._fonts import CHAINS, FOLDER, chain_for, face, face_for
from render._glyphs import REPLACEMENT, Line, ellipsis_after, line, visual
from render.chart import rating_chart_image
from render.standings import StandingsRow, standings_texts
from tests.render.script_cases import SAMPLES, Sample

#: a code point no font maps (the last private-use one of plane 16): FreeType draws .notdef
UNMAPPED = "\U0010fffd"


def _cmap(name: str) -> set[int]:
    with TTFont(FOLDER / name) as font:
        return set(font.getBestCmap())


def _mask(font: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask(char)
    return mask.size, bytes(mask)


def assert_real_glyphs(laid: Line) -> None:
    """Every character of ``laid`` is mapped by its run's font (fontTools ``cmap``) and drawn
    differently from that font's ``.notdef``; none is the replacement character."""
    assert laid.runs, laid.text
    for (chars, name), font in zip(laid.runs, laid.fonts, strict=True):
        cmap = _cmap(name)
        assert ord(UNMAPPED) not in cmap
        notdef = _mask(font, UNMAPPED)
        for char in chars:
            assert char != REPLACEMENT, (laid.text, name)
            assert ord(char) in cmap, (laid.text, name, hex(ord(char)))
            assert _mask(font, char) != notdef, (laid.text, name, hex(ord(char)))


def _name_marks(sample: Sample) -> tuple[Image.Image, list[render.TextMark]]:
    position = engines.new("maphex").play("5").play("e5")
    players = sample.names
    image = render.board_image(position, players=players, clock=sample.clock).convert("RGB")
    _, texts = render.board_texts(position, players=players, clock=sample.clock)
    marks = [t for t in texts if t.text in (*players, f"  ·  {sample.clock}")]
    return image, marks


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.code for s in SAMPLES])
def test_names_and_clock_are_drawn_in_fonts_that_have_them(sample: Sample) -> None:
    image, marks = _name_marks(sample)
    assert {m.text for m in marks} == {*sample.names, f"  ·  {sample.clock}"}
    page = image.getpixel((0, image.height - 1))
    for mark in marks:
        bold = mark.text in sample.names
        assert_real_glyphs(line(mark.text, round(mark.size), bold))
        # ink where the text was placed, inside the picture
        x0, y0, x1, y1 = (round(v) for v in mark.box)
        assert 0 <= x0 < x1 <= image.width and 0 <= y0 < y1 <= image.height, mark
        colours = image.crop((x0, y0, x1, y1)).getcolors(maxcolors=4096) or []
        assert len(colours) > 2 and any(c != page for _, c in colours), mark


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.code for s in SAMPLES])
def test_the_names_leave_the_first_font_only_where_it_lacks_the_character(
    sample: Sample,
) -> None:
    for name in sample.names:
        for bold in (False, True):
            for chars, font_name in line(name, 30, bold).runs:
                for char in chars:
                    chain = chain_for(char, bold=bold)
                    for earlier in chain[: chain.index(font_name)]:
                        assert ord(char) not in _cmap(earlier), (name, char, earlier)


def test_cjk_common_characters_are_bold_and_a_rarer_one_falls_back_to_regular() -> None:
    for char in "山田太郎民준张伟":
        assert face_for(char, bold=True) == "NotoSansCJK-Bold.otf", char
    # 镕 (in Zhu Rongji's name) is in no legacy character set of the common subset
    rare = "\u9555"
    assert face_for(rare, bold=True) == "NotoSansCJK-Regular.otf"
    assert_real_glyphs(line(f"朱{rare}基", 24, bold=True))
    # an Extension A ideograph and a plane-2 one Noto Sans CJK has (𠮷, "tsuchi-yoshi")
    assert_real_glyphs(line("\u3400\U00020bb7野家", 24, bold=True))


def test_arabic_is_joined_and_drawn_right_to_left() -> None:
    name = "محمد"
    shown = visual(name)
    # presentation forms: initial meem, medial hah, medial meem, final dal, in display order
    # (right to left: the last letter is drawn first, leftmost)
    assert shown == "\ufeaa\ufee4\ufea4\ufee3"
    assert all(unicodedata.name(c).startswith("ARABIC LETTER") for c in shown)
    assert [unicodedata.name(c).split()[-1] for c in shown] == [
        "FORM", "FORM", "FORM", "FORM",
    ]  # fmt: skip
    assert [unicodedata.name(c) for c in shown] == [
        "ARABIC LETTER DAL FINAL FORM",
        "ARABIC LETTER MEEM MEDIAL FORM",
        "ARABIC LETTER HAH MEDIAL FORM",
        "ARABIC LETTER MEEM INITIAL FORM",
    ]
    assert visual("لا") == "\ufefb"  # lam-alef ligature
    laid = line(name, 40, bold=True)
    assert_real_glyphs(laid)
    # The joined drawing differs from the isolated letters laid left to right.
    joined = _draw(laid)
    loose = Image.new("L", joined.size, 0)
    ImageDraw.Draw(loose).text((4, 4), name, 255, face("DejaVuSans-Bold.ttf", 40))
    assert joined.tobytes() != loose.tobytes()
    # Left to right paragraph: a Latin name before an Arabic one stays first.
    assert visual("Ada محمد").startswith("Ada ")


def test_a_right_to_left_name_cut_short_ends_at_the_left() -> None:
    assert visual(ellipsis_after("Ada Lovel")).endswith("…")
    assert visual(ellipsis_after("فاطمة الز")).startswith("…")
    assert visual(ellipsis_after("יוסף כ")) == "…כ ףסוי"
    position = engines.new("maphex")
    long = "فاطمة الزهراء بنت محمد بن عبد الله"
    _, texts = render.board_texts(position, players=(long, "Ada"))
    (cut,) = [t.text for t in texts if t.text.startswith("فاطمة")]
    assert cut != long and visual(cut).startswith("…")
    assert_real_glyphs(line(cut, 30, bold=True))


def test_hebrew_is_drawn_right_to_left() -> None:
    assert visual("שרה") == "הרש"
    assert visual("יוסף כהן") == "ןהכ ףסוי"
    assert_real_glyphs(line("יוסף כהן", 30))


def test_emoji_sequences_draw_their_emoji_and_drop_the_invisible_joiners() -> None:
    laid = line("👍🏽 ❤️ 👨\u200d👩\u200d👧", 30)
    assert_real_glyphs(laid)
    drawn = "".join(chars for chars, _ in laid.runs)
    assert "\u200d" not in drawn and "\ufe0f" not in drawn
    assert "👍" in drawn and "🏽" in drawn and "❤" in drawn and "👧" in drawn
    assert face_for("🎲", bold=True) == "NotoEmoji-Bold.ttf"
    # DejaVu Sans has 😀 too, in its own style: Noto Emoji draws it, like the other emoji
    assert ord("😀") in _cmap("DejaVuSans.ttf")
    assert face_for("😀", bold=False) == "NotoEmoji-Regular.ttf"


def test_a_character_no_bundled_font_has_is_the_replacement_character_not_a_box() -> None:
    unknown = "\U00030000"  # CJK Extension G: after Noto Sans CJK's version
    assert all(unknown not in map(chr, _cmap(name)) for name in CHAINS[False])
    laid = line(f"A{unknown}B", 30)
    assert laid.runs == ((f"A{REPLACEMENT}B", "DejaVuSans.ttf"),)
    font = laid.fonts[0]
    assert _mask(font, REPLACEMENT) != _mask(font, UNMAPPED)


def test_latin_text_is_one_run_in_the_first_font_and_laid_out_once() -> None:
    laid = line("Ada to move", 24)
    assert laid.simple and laid is line("Ada to move", 24)
    assert laid.width == face("DejaVuSans.ttf", 24).getlength("Ada to move")
    assert line("Ada · café", 24).simple


def test_every_font_uses_the_basic_layout_whatever_the_machine_has() -> None:
    for name in CHAINS[True]:
        assert face(name, 20).layout_engine == ImageFont.Layout.BASIC, name


def test_the_runs_of_a_mixed_line_sit_on_one_baseline_and_in_order() -> None:
    laid = line("Ada 山田", 40)
    assert [name for _, name in laid.runs] == ["DejaVuSans.ttf", "NotoSansCJK-Regular.otf"]
    x0, _, x1, _ = laid.bbox((0, 0), "ls")
    assert x0 >= 0 and x1 <= laid.width + 1
    # anchored at its middle, the line's ink is centred on the point
    left, _, right, _ = laid.bbox((100, 100), "mm")
    assert abs((left + right) / 2 - 100) < 4
    image = _draw(laid)
    assert image.getbbox() is not None


def test_standings_and_chart_draw_names_in_every_script() -> None:
    rows = tuple(
        StandingsRow(i + 1, sample.names[0], 3, 2, 0, 1, "2", "1")
        for i, sample in enumerate(SAMPLES)
    )
    long = "فاطمة الزهراء بنت محمد بن عبد الله بن عبد المطلب"
    rows += (StandingsRow(len(rows) + 1, long, 3, 0, 0, 3, "0", "0"),)
    _, drawn = standings_texts("大会 1: Maphex 9×9", [("", rows)])
    texts = {text for text, _, _ in drawn}
    (cut,) = [text for text in texts if text.startswith("فاطمة")]
    assert cut != long and visual(cut).startswith("…") and visual(cut)[1] != " "
    for sample in SAMPLES:
        assert sample.names[0] in texts
        assert_real_glyphs(line(sample.names[0], 26, bold=sample is SAMPLES[0]))
    day = datetime(2026, 3, 1, tzinfo=UTC)
    chart = rating_chart_image([(day, 1500.0), (day.replace(day=9), 1540.0)], title="김민준")
    assert chart.size == (800, 400)
    assert_real_glyphs(line("김민준", 52, bold=True))


def test_the_coverage_file_is_each_fonts_cmap() -> None:
    for name in dict.fromkeys(CHAINS[True]):
        cmap = _cmap(name)
        assert _fonts.ranges(cmap) == json.loads(_fonts.COVERAGE.read_text())[name], name
        assert all(_fonts.covers(name, code) for code in cmap), name
        gaps = set(range(0x20, 0x30000)) - cmap
        assert not any(_fonts.covers(name, code) for code in gaps), name


def test_clearing_the_caches_forgets_the_coverage_and_the_lines() -> None:
    line("山田", 20)
    assert _fonts._coverage.cache_info().currsize == 1
    render._pipeline.clear_caches()
    assert _fonts._coverage.cache_info().currsize == 0
    assert face_for("山", bold=False) == "NotoSansCJK-Regular.otf"


def _draw(laid: Line) -> Image.Image:
    box = laid.bbox((0, 0), "la")
    image = Image.new("L", (round(box[2]) + 8, round(box[3]) + 8), 0)
    laid.draw(ImageDraw.Draw(image), (4, 4), 255, "la")
    return image
