"""Board pictures of issue 13: the result of every finished game (also one the bot decided),
what won, the players' names and clock, contrasting goal edges, forced captures and the
marks that must not hide one another.  Pixels are decoded and read back, never PNG bytes.
"""

from __future__ import annotations

import io
import math
import random
from typing import Any

import pytest
from PIL import Image

import engines
import render
from engines import Outcome, Position
from engines.fixation import setup as fixation_setup
from engines.inphexion import InphexionPosition
from engines.isopath import setup as isopath_setup
from engines.pathagon import PathagonPosition
from render import _pipeline
from render._core import BAND, band_width, blend, offset_polygon
from render.isopath import BADGE_RISE
from render.theme import RGB, Theme

THEME = Theme()
CLOSE = 14.0
PLAYERS = ("Ada", "Grace")


def decode(position: Position, **options: Any) -> Image.Image:
    """The PNG of ``position`` (with ``board_png`` options) decoded to a palette image."""
    image = Image.open(io.BytesIO(render.board_png(position, **options)))
    image.load()
    assert image.format == "PNG" and image.mode == "P"
    return image


def rgb(position: Position, **options: Any) -> Image.Image:
    return decode(position, **options).convert("RGB")


def near(image: Image.Image, centre: tuple[float, float], half: float, colour: RGB) -> int:
    """Pixels of ``image`` (RGB) in the square of ``half`` around ``centre`` close to
    ``colour``."""
    x, y = round(centre[0]), round(centre[1])
    h = round(half)
    crop = image.crop((x - h, y - h, x + h + 1, y + h + 1))
    data = crop.tobytes()
    return sum(1 for i in range(0, len(data), 3) if math.dist(data[i : i + 3], colour) <= CLOSE)


def spacing(position: Position) -> float:
    centres = render.cell_centres(position)
    return min(math.dist(centres[0], c) for c in centres[1:])


def finished(game: str, seed: int, **options: Any) -> Position:
    """The end of a random game of ``game``."""
    rng = random.Random(seed)
    pos = engines.new(game, **options)
    while pos.outcome is None:
        pos = pos.play(pos.random_move(rng))
    return pos


def winning_boards() -> list[Position]:
    """One finished board per game, each won in a way that has cells to show."""
    pathagon = PathagonPosition.from_diagram(
        """
        .......
        ...L...
        ...L.D.
        ..LL.D.
        ..L..D.
        ..L....
        ..L....
        """
    ).play("d7")
    one_group = fixation_setup({"e5": "L", "e7": "L", "a1": "D", "i5": "D"}).play("e7-e6")
    home_row = isopath_setup(white=["f2"], black=["d4"], heights={"g2": 1}).play("f2-g2")
    return [
        finished("maphex", 3),
        finished("inphexion", 3),
        pathagon,
        one_group,
        home_row,
    ]


# ---------------------------------------------------------------- 1. the result


def pixel(image: Image.Image, at: tuple[float, float]) -> tuple[int, ...]:
    """The RGB pixel of ``image`` at ``at``."""
    value = image.getpixel((round(at[0]), round(at[1])))
    assert isinstance(value, tuple)
    return value


def band_fill(image: Image.Image) -> tuple[int, ...]:
    return pixel(image, (500, 4))


@pytest.mark.parametrize("game", list(engines.GAMES))
def test_an_outcome_the_bot_decided_replaces_whose_turn_it_is(game: str) -> None:
    """Resigned, timed-out, drawn or aborted: a result banner, no "to move" band."""
    position = engines.new(game)
    sides = THEME.sides(game)
    plain = rgb(position)
    band = blend(THEME.page, THEME.text, 0.07)  # the "to move" band: a tint of the page
    assert math.dist(band_fill(plain), band) <= CLOSE
    for outcome, fill in (
        (Outcome(1, "resignation"), sides[1]),
        (Outcome(0, "time"), sides[0]),
    ):
        image = rgb(position, outcome=outcome)
        assert math.dist(band_fill(image), fill) <= CLOSE, outcome
        assert math.dist(pixel(image, (500, BAND - 2)), THEME.accent) <= CLOSE
    for outcome in (Outcome(None, "agreement"), Outcome(None, "aborted")):
        image = rgb(position, outcome=outcome)
        # Neither side's colour: the neutral banner.
        assert all(math.dist(band_fill(image), side) > 40 for side in sides)
        assert math.dist(band_fill(image), band) > 40
        top = (0, 0, 1000, BAND - 4)
        assert image.crop(top).tobytes() != plain.crop(top).tobytes()


def test_maphex_target_highlight_goes_when_the_bot_ends_the_game() -> None:
    """A resigned Maphex game no longer shows the target sub-board."""
    position: Any = engines.new("maphex").play("5").play("e5")
    target = [
        c
        for c in range(len(position.cells))
        if position.subboard[c] == position.target and position.cells[c] < 0
    ]
    probes = render.probe_points(position)
    plain = (THEME.cell, THEME.cell_alt)
    live = rgb(position)
    over = rgb(position, outcome=Outcome(1, "resignation"))
    for cell in target:
        at = probes[cell]
        assert min(math.dist(pixel(live, at), c) for c in plain) > 20
        assert min(math.dist(pixel(over, at), c) for c in plain) <= CLOSE


def test_maphex_opening_choice_is_not_shown_once_aborted() -> None:
    """An aborted game (no move made) drops the sub-board numbers of the opening choice."""
    position = engines.new("maphex")
    centre = render.cell_centres(position)[40]  # e5, the middle of sub-board 5
    live = rgb(position)
    aborted = rgb(position, outcome=Outcome(None, "aborted"))
    half = spacing(position) * 0.45
    assert near(live, centre, half, THEME.accent) > 20
    assert near(aborted, centre, half, THEME.accent) == 0


def test_the_gif_shows_the_bots_outcome_on_its_last_frame_only() -> None:
    """game_gif(outcome=...): the last frame carries the result banner."""
    positions = list(engines.replay("maphex", ["5", "e5", "d4"]))
    data = render.game_gif(positions, outcome=Outcome(0, "resignation"), players=PLAYERS)
    gif = Image.open(io.BytesIO(data))
    assert getattr(gif, "n_frames", 1) == len(positions) == 4
    gif.seek(3)
    last = gif.convert("RGB")
    assert math.dist(band_fill(last), THEME.red) <= CLOSE
    gif.seek(2)
    assert math.dist(band_fill(gif.convert("RGB")), THEME.red) > 40


# ---------------------------------------------------------------- 2. what won


@pytest.mark.parametrize("position", winning_boards(), ids=lambda p: p.game)
def test_what_won_is_marked_on_the_final_board(position: Any) -> None:
    """The winning chain, group or piece carries the win colour; other cells do not."""
    won = position.winning_cells
    assert won, position.outcome
    image = rgb(position)
    centres = render.cell_centres(position)
    half = spacing(position) * 0.5
    for cell in won:
        assert near(image, centres[cell], half, THEME.win) >= 25, position.board.name(cell)
    # The same board before the last move shows no win colour on its cells.
    for cell, centre in enumerate(centres):
        if cell not in won and all(
            math.dist(centre, centres[w]) > spacing(position) * 1.1 for w in won
        ):
            assert near(image, centre, half * 0.6, THEME.win) == 0, position.board.name(cell)


# ---------------------------------------------------------------- 3. names and clock


def heading_box(position: Position) -> tuple[int, int, int, int]:
    """Where the side headings are: the top-right corner or the side panel."""
    theme = _pipeline.theme_of(position)
    top = round(BAND * theme.height / 700) + 2
    return (round(theme.width * 0.62), top, theme.width, top + 200)


@pytest.mark.parametrize("game", list(engines.GAMES))
def test_players_names_are_drawn_and_long_ones_cut_to_fit(game: str) -> None:
    """Names appear next to their colour; a long (Unicode) name is cut before the edge."""
    position = engines.new(game)
    box = heading_box(position)
    plain = rgb(position).crop(box)
    short = rgb(position, players=PLAYERS).crop(box)
    long = rgb(position, players=("Ÿolanda Ñúñez-Øvergård of the Long Name", "Grace")).crop(box)
    assert short.tobytes() != plain.tobytes()
    assert long.tobytes() != short.tobytes()

    def ink(image: Image.Image) -> int:
        data = image.tobytes()
        return sum(1 for i in range(0, len(data), 3) if math.dist(data[i : i + 3], THEME.text) < 30)

    assert ink(long) > ink(short)
    # Cut with an ellipsis: the last few pixels of the picture stay page-coloured.
    edge = rgb(position, players=("W" * 80, "M" * 80))
    width = edge.width
    strip = edge.crop((width - 4, BAND + 2, width, 250)).tobytes()
    assert all(math.dist(strip[i : i + 3], THEME.page) < 10 for i in range(0, len(strip), 3))


def test_inphexion_names_follow_the_colours_after_a_swap() -> None:
    """After a swap, the name of seat 0 goes with Black: the headings say who is who."""
    first = engines.new("inphexion").play("d4")
    swapped = first.play("swap")
    assert isinstance(swapped, InphexionPosition) and swapped.swapped
    box = heading_box(first)
    after = rgb(swapped, players=("Ada", "Grace")).crop(box)
    # The same headings as an unswapped game with the seats' names exchanged.
    assert after.tobytes() == rgb(first, players=("Grace", "Ada")).crop(box).tobytes()
    assert after.tobytes() != rgb(first, players=("Ada", "Grace")).crop(box).tobytes()


def test_the_clock_is_shown_while_the_game_goes_on() -> None:
    """The clock text sits in the band; a finished game shows no clock."""
    position = engines.new("pathagon").play("d4")
    band = (0, 0, 1000, BAND - 4)
    plain = rgb(position).crop(band)
    clocked = rgb(position, clock="2 days 4 h left").crop(band)
    assert clocked.tobytes() != plain.tobytes()
    over = Outcome(1, "time")
    assert (
        rgb(position, outcome=over, clock="2 days 4 h left").crop(band).tobytes()
        == rgb(position, outcome=over).crop(band).tobytes()
    )


# ---------------------------------------------------------------- 4. goal edges


@pytest.mark.parametrize("game", ["maphex", "inphexion"])
def test_a_dark_goal_edge_carries_a_light_line(game: str) -> None:
    """Black's (and Blue's) edges stand out from the dark page: a light line runs along
    them, and a light edge carries a dark one."""
    position = engines.new(game)
    lay = _pipeline.layout_of(position)[1]
    inset = offset_polygon(lay.corners, lay.radius + band_width(lay) * 0.62)
    image = rgb(position)
    dark, light = THEME.sides(game)[1], THEME.sides(game)[0]
    # Corners clockwise from the top-left: the left side (3 -> 0) is colour 1's edge, the
    # top side (0 -> 1) colour 0's.
    for (a, b), colour, line in (((3, 0), dark, THEME.light_rim), ((0, 1), light, THEME.dark_rim)):
        assert math.dist(colour, line) > 150  # the line contrasts with its strip
        for t in (0.3, 0.5, 0.7):
            x = inset[a][0] + (inset[b][0] - inset[a][0]) * t
            y = inset[a][1] + (inset[b][1] - inset[a][1]) * t
            assert near(image, (x, y), 3, line) >= 3, (game, t)


@pytest.mark.parametrize("game", ["maphex", "inphexion"])
def test_rhombus_games_have_a_legend(game: str) -> None:
    """Maphex and inpHeXion explain their marks in the empty bottom-left corner."""
    image = rgb(engines.new(game))
    corner = image.crop((0, 540, 200, 700)).tobytes()
    muted = sum(
        1 for i in range(0, len(corner), 3) if math.dist(corner[i : i + 3], THEME.muted) < 40
    )
    assert muted > 200


# ---------------------------------------------------------------- 5. texts and forced captures


DESCRIBE_CASES: list[tuple[str, list[str], dict[str, Any], list[str], list[str]]] = [
    (
        "maphex",
        [],
        {"players": PLAYERS},
        [
            "Ada plays Red, Grace plays Blue.",
            "Blue opens by choosing the sub-board (1-9) where Red places the first disc",
            "Blue to move",
        ],
        ["Game over"],
    ),
    (
        "maphex",
        ["5", "e5"],
        {"outcome": Outcome(1, "resignation")},
        ["after 2 moves.", "Game over. Blue wins by resignation."],
        ["to move", "opens"],
    ),
    (
        "pathagon",
        ["d4", "d5"],
        {"outcome": Outcome(None, "agreement")},
        ["Game over. Drawn by agreement."],
        ["to move"],
    ),
    ("isopath", [], {"outcome": Outcome(None, "aborted")}, ["Aborted: no move was made."], []),
    (
        "fixation",
        ["a3-c5"],
        {"outcome": Outcome(1, "time")},
        ["Game over. Dark wins on time."],
        ["to move"],
    ),
    ("pathagon", ["d4"], {"clock": "2 days 4 h left"}, ["Dark to move", "2 days 4 h left."], []),
    (
        "pathagon",
        ["d4"],
        {"clock": "2 days 4 h left", "outcome": Outcome(0, "time")},
        ["Light wins on time"],
        ["h left"],
    ),
    ("inphexion", ["d4"], {}, ["Black to move, or answer swap"], []),
    (
        "inphexion",
        ["d4", "swap"],
        {"players": PLAYERS},
        ["Ada plays Black, Grace plays White.", "Black to move."],
        ["swap to"],
    ),
]


@pytest.mark.parametrize(("game", "moves", "options", "present", "absent"), DESCRIBE_CASES)
def test_describe_says_the_result_players_clock_and_turn_hints(
    game: str, moves: list[str], options: dict[str, Any], present: list[str], absent: list[str]
) -> None:
    """describe(): results the bot decided, names, clock, the swap offer, who opens."""
    text = render.describe(engines.position_after(game, moves), **options)
    for words in present:
        assert words in text, (words, text)
    for words in absent:
        assert words not in text, (words, text)


@pytest.mark.parametrize(
    ("game", "outcome", "words"),
    [
        ("maphex", Outcome(0, "connection"), "Red wins by connection"),
        ("fixation", Outcome(0, "one group"), "Light wins with all stacks in one group"),
        ("fixation", Outcome(1, "two 6-high stacks"), "Dark wins with two 6-high stacks"),
        ("fixation", Outcome(0, "no legal move"), "Light wins (Dark has no legal move)"),
        ("isopath", Outcome(1, "home row"), "Black wins on the home row"),
        ("isopath", Outcome(0, "last piece captured"), "White wins by capturing the last piece"),
        ("inphexion", Outcome(1, "relocation impossible"), "Black wins (White could not relocate)"),
        ("pathagon", Outcome(None, "repetition"), "Draw (repetition)"),
        ("pathagon", Outcome(1, "stalemate"), "Dark wins (stalemate)"),
    ],
)
def test_result_words_for_every_reason(game: str, outcome: Outcome, words: str) -> None:
    """Every reason reads as a sentence; an unknown one is still shown."""
    assert render.result_text(outcome, engines.GAMES[game].sides) == words


def test_forced_capture_is_said_and_marked_until_the_game_is_over() -> None:
    """Lines of Fixation: the stack that must capture and its target are marked."""
    position: Any = fixation_setup({"e5": "LLL", "e6": "D", "a1": "D"})
    text = render.describe(position)
    assert "must capture with a mono-colour stack of 3 or more: e5-e8 (taking e6)" in text
    centres = render.cell_centres(position)
    half = spacing(position) * 0.55
    live = rgb(position)
    over = rgb(position, outcome=Outcome(1, "resignation"))
    for name in ("e5", "e6"):
        centre = centres[position.board.parse(name)]
        assert near(live, centre, half, THEME.alert) >= 30, name
        assert near(over, centre, half, THEME.alert) == 0, name
    free = fixation_setup({"e5": "DLL", "e6": "D", "a1": "D"})
    assert near(rgb(free), centres[free.board.parse("e5")], half, THEME.alert) == 0


# ---------------------------------------------------------------- 6. marks that hid others


def test_isopath_tile_badges_stay_visible_over_the_arrow() -> None:
    """Iso-Path: the last move's arrow never covers a +/- tile badge."""
    badges = 0
    for seed in range(3):
        rng = random.Random(seed)
        pos: Any = engines.new("isopath")
        for _ in range(20):
            if pos.outcome is not None:
                break
            pos = pos.play(pos.random_move(rng))
            image = rgb(pos)
            lay = _pipeline.layout_of(pos)[1]
            for cell in pos.last_tile or ():
                x, y = lay.centres[cell]
                at = (x, y - lay.radius * BADGE_RISE)
                assert near(image, at, lay.inner * 0.12, THEME.second) >= 12, pos.last_move
                badges += 1
    assert badges > 20


def test_isopath_threat_on_the_piece_just_moved_shows_around_its_ring() -> None:
    """Iso-Path: a piece that just stepped into danger keeps both marks: the last-move
    ring and, outside it, the threat crosshair."""
    before = isopath_setup(white=["e2"], black=["c2", "c3"], heights={"d2": 1, "d3": 1})
    pos: Any = before.play("e2-d3 b1>b2")
    step = pos.last_step
    assert step is not None and step[1] in pos.threatened
    lay = _pipeline.layout_of(pos)[1]
    image = rgb(pos)
    centre = lay.centres[step[1]]
    assert near(image, centre, lay.inner * 0.95, THEME.alert) >= 60
    assert near(image, centre, lay.inner * 0.7, THEME.accent) >= 60


def test_fixation_dropped_disks_and_origin_label_read_clearly() -> None:
    """Fixation: a dot centred above each stack a disk was dropped on; the emptied cell's
    name stays readable inside the origin ring."""
    position: Any = engines.position_after("fixation", ["a3-c5", "i3-g5", "a4-c6"])
    assert len(position.last_path) >= 2
    lay = _pipeline.layout_of(position)[1]
    image = rgb(position)
    ry = lay.inner * 0.76 * 0.42  # a stack's top face: half-height (render/fixation.py)
    for cell in position.last_path[:-1]:
        x, y = lay.centres[cell]
        at = (x, y - lay.radius * 0.12 - ry - lay.inner * 0.25)
        assert near(image, at, lay.inner * 0.12, THEME.accent) >= 15
    origin = lay.centres[position.last_from]
    assert near(image, origin, lay.inner * 0.3, THEME.label) >= 15
    assert near(image, origin, lay.inner * 0.3, THEME.accent) == 0


def test_maphex_16_cells_are_larger_and_no_picture_passes_1280() -> None:
    """16x16 Maphex cells get a larger canvas; every board fits Telegram's 1280 px."""
    big = engines.new("maphex", size=16)
    image = decode(big)
    assert image.size == (1280, 896)
    assert spacing(big) >= 27
    for game in engines.GAMES:
        for options in ({}, {"size": 5}, {"size": 16}):
            try:
                position = engines.new(game, **options)
            except ValueError:
                continue
            assert max(decode(position).size) <= 1280
