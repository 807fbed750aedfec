"""Board pictures: every game at its start, mid-game and end, read back pixel by pixel.

Tests run for every game in ``engines.GAMES`` (a game is covered as soon as its engine lands)
and compare decoded pixels, never PNG bytes.  Each test names the point of issue 7 it checks.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import math
import random
from typing import Any

import pytest
from PIL import Image

import engines
import render
from engines import Position
from render._core import BAND
from render.theme import RGB, Theme
from tests.engines.properties import random_game

THEME = Theme()
SMALL = Theme(width=500, height=350)
#: option sets drawn for each game (the default first)
OPTIONS: dict[str, tuple[dict[str, Any], ...]] = {
    "maphex": ({}, {"size": 16}),
    "isopath": ({}, {"size": 5}),
    "inphexion": ({}, {"size": 5}),
}
CASES = [
    pytest.param(game, options, id=f"{game}{options.get('size', '')}")
    for game in engines.GAMES
    for options in OPTIONS.get(game, ({},))
]
GAME_IDS = list(engines.GAMES)
#: a colour read back from a palette picture is within this distance of the one drawn
CLOSE = 14.0


def test_all_five_games_are_drawn() -> None:
    """Issue 7 is done when all five games are drawn: every engine that exists has a drawing."""
    for game in engines.GAMES:
        render.board_image(engines.new(game))
    assert set(engines.GAMES) <= {"maphex", "inphexion", "pathagon", "fixation", "isopath"}


def distance(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    return math.dist(a[:3], b[:3])


def decode(position: Position, theme: Theme = THEME) -> Image.Image:
    """The PNG of ``position`` decoded back to RGB pixels."""
    data = render.board_png(position, theme=theme)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def rgb(position: Position) -> Image.Image:
    return decode(position).convert("RGB")


def colour_of(position: Any, colour: int) -> RGB:
    return THEME.sides(position.game)[colour]


def seat_colour(position: Any, seat: int) -> int:
    colours = getattr(position, "colours", None)
    return seat if colours is None else int(colours[seat])


def occupant(position: Any, cell: int) -> int:
    """-1 empty, else the colour on top of ``cell`` (from the position, not the picture)."""
    game = position.game
    if game == "fixation":
        return int(position.owner(cell))
    if game == "isopath":
        return int(position.pieces[cell])
    return int(position.cells[cell])


def mark_cell(position: Any) -> int | None:
    """The cell the last move's main mark sits on."""
    game = position.game
    if game == "maphex":
        return position.last_cell
    if game == "inphexion":
        return position.last_placed
    if game == "pathagon":
        return position.last_to
    if game == "fixation":
        return position.last_path[-1] if position.last_path else None
    step = position.last_step
    return None if step is None else int(step[1])


def arrows(position: Any) -> list[tuple[int, int]]:
    """The (from, to) cells of the arrows the last move draws."""
    game = position.game
    if game in ("pathagon", "inphexion"):
        out = []
        if position.last_from is not None and position.last_to is not None:
            out.append((position.last_from, position.last_to))
        if game == "inphexion":
            out.extend(position.relocations)
        return out
    if game == "fixation":
        if position.last_from is None or not position.last_path:
            return []
        return [(position.last_from, position.last_path[-1])]
    if game == "isopath" and position.last_step is not None:
        return [tuple(position.last_step)]
    return []


def under_arrow(position: Position, point: tuple[int, int]) -> bool:
    """Whether ``point`` may be covered by one of the last move's arrows."""
    centres = render.cell_centres(position)
    limit = cell_spacing(position) * 0.2
    for a, b in arrows(position):
        (ax, ay), (bx, by) = centres[a], centres[b]
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((point[0] - ax) * dx + (point[1] - ay) * dy) / (dx * dx + dy * dy)))
        if math.dist(point, (ax + t * dx, ay + t * dy)) < limit:
            return True
    return False


def stages(game: str, options: dict[str, Any], seed: int = 1) -> list[Position]:
    """Start, mid-game and end (or a late position) of a random game."""
    played = random_game(game, options, seed, 160)
    return [played[0], played[len(played) // 2], played[-1]]


def cell_spacing(position: Position) -> float:
    centres = render.cell_centres(position)
    a = centres[0]
    return min(math.dist(a, b) for b in centres[1:])


def count_near(image: Image.Image, centre: tuple[int, int], radius: float, colour: RGB) -> int:
    """Pixels within ``radius`` of ``centre`` (a square box) that show ``colour``."""
    x0, y0 = centre
    r = int(radius)
    return count_in(image, (x0 - r, y0 - r, x0 + r + 1, y0 + r + 1), colour, CLOSE)


def count_in(image: Image.Image, box: tuple[int, int, int, int], colour: RGB, limit: float) -> int:
    """Pixels in ``box`` of a palette picture within ``limit`` of ``colour``."""
    assert image.mode == "P"
    palette = image.getpalette() or []
    counts = image.crop(box).histogram()
    return sum(
        n
        for index, n in enumerate(counts)
        if n and distance(tuple(palette[3 * index : 3 * index + 3]), colour) <= limit
    )


def expected_size(position: Any, theme: Theme = THEME) -> tuple[int, int]:
    """1000x700 (the theme's size); the crowded 16x16 Maphex board is drawn larger."""
    if position.game == "maphex" and position.size == 16:
        k = theme.large_board_scale
        return round(theme.width * k), round(theme.height * k)
    return theme.width, theme.height


@pytest.mark.parametrize(("game", "options"), CASES)
def test_picture_size_and_mode_at_start_middle_end(game: str, options: dict[str, Any]) -> None:
    """Look: a ~1000x700 landscape palette picture at every stage of a game (the 16x16
    Maphex board 1280x896, so its cells read on a phone); never over 1280 px, the longest
    side Telegram keeps."""
    for position in stages(game, options):
        image = decode(position)
        assert image.size == expected_size(position)
        assert max(image.size) <= 1280
        assert image.mode == "P"


@pytest.mark.parametrize(("game", "options"), CASES)
def test_pixel_at_each_cell_shows_its_occupant(game: str, options: dict[str, Any]) -> None:
    """Boards: each cell shows empty / colour 0 / colour 1 (and tile heights on Iso-Path)."""
    for seed in (1, 2):
        for position in stages(game, options, seed):
            image = rgb(position)
            probes = render.probe_points(position)
            pos: Any = position
            for cell, point in enumerate(probes):
                if under_arrow(position, point):
                    continue  # the arrow of the last move legitimately covers this spot
                pixel = image.getpixel(point)
                assert isinstance(pixel, tuple)
                who = occupant(pos, cell)
                name = pos.board.name(cell)
                if who >= 0:
                    want = colour_of(pos, who)
                    assert distance(pixel, want) <= CLOSE, (name, pixel, want, pos.ply)
                else:
                    for side in THEME.sides(game):
                        assert distance(pixel, side) > 40, (name, pixel, pos.ply)
                if game == "isopath" and who < 0:
                    height = pos.heights[cell]
                    want = (THEME.trench, THEME.ground, THEME.mountain)[height + 1]
                    assert distance(pixel, want) <= CLOSE, (name, height, pixel)


@pytest.mark.parametrize("game", GAME_IDS)
def test_last_move_is_marked_by_shape_and_colour(game: str) -> None:
    """On every board: the last move is marked (accent ring / dot / outline) at its cell."""
    checked = 0
    for position in random_game(game, {}, 3, 40)[1:]:
        cell = mark_cell(position)
        if cell is None:
            continue
        picture = decode(position)
        centre = render.cell_centres(position)[cell]
        spacing = cell_spacing(position)
        assert count_near(picture, centre, spacing * 0.62, THEME.accent) >= 30, position.last_move
        if game != "fixation":
            # The dot in the middle of the piece just placed or moved.
            pixel = picture.convert("RGB").getpixel(centre)
            assert distance(pixel, THEME.accent) <= CLOSE
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("game", [g for g in GAME_IDS if g != "maphex"])
def test_start_position_has_no_last_move_mark(game: str) -> None:
    """The accent colour means "last move": a fresh board shows none of it."""
    position = engines.new(game)
    image = decode(position)
    for centre in render.cell_centres(position):
        assert count_near(image, centre, 6, THEME.accent) == 0


def _effects(position: Any) -> list[tuple[int, RGB]]:
    """(cell, colour) of every capture / trap / relocation / threat mark the position needs."""
    game = position.game
    if game == "pathagon":
        return [(c, THEME.alert) for c in position.trapped]
    if game == "fixation":
        return [(c, THEME.alert) for c in position.last_captures]
    if game == "isopath":
        marks = [(c, THEME.alert) for c in position.threatened]
        if position.last_capture is not None:
            marks.append((position.last_capture, THEME.alert))
        return marks
    if game == "inphexion":
        return [(a, THEME.second) for a, _ in position.relocations]
    return []


@pytest.mark.parametrize("game", [g for g in GAME_IDS if g != "maphex"])
def test_captures_traps_relocations_threats_are_shown(game: str) -> None:
    """On every board: what the last move captured, trapped or relocated is marked."""
    found = 0
    for seed in range(40):
        for position in random_game(game, {}, seed, 120):
            marks = _effects(position)
            if not marks:
                continue
            image = decode(position)
            centres = render.cell_centres(position)
            spacing = cell_spacing(position)
            for cell, colour in marks:
                assert count_near(image, centres[cell], spacing * 0.7, colour) >= 12, cell
            found += 1
            if found >= 6:
                return
    assert found > 0, f"no random {game} game produced a capture, trap or relocation"


@pytest.mark.parametrize(("game", "options"), CASES)
def test_status_band_shows_whose_turn_and_result_banner(game: str, options: dict[str, Any]) -> None:
    """On every board: whose turn it is (a disc of their colour), and a result banner."""
    for position in stages(game, options):
        pos: Any = position
        image = rgb(position)
        if pos.outcome is None:
            want = colour_of(pos, seat_colour(pos, pos.to_move))
            assert distance(image.getpixel((33, 32)), want) <= CLOSE
        elif pos.outcome.winner is not None:
            # The banner is filled with the winner's colour.
            want = colour_of(pos, seat_colour(pos, pos.outcome.winner))
            assert distance(image.getpixel((500, 4)), want) <= CLOSE
            assert distance(image.getpixel((500, BAND - 2)), THEME.accent) <= CLOSE


@pytest.mark.parametrize("game", GAME_IDS)
def test_many_random_positions_render(game: str) -> None:
    """Thousands of random positions across all games render without an exception: each
    game's share of 2000 (one test per game, so the workers share them)."""
    rng = random.Random(f"7-{game}")
    per_game = 2000 // max(1, len(engines.GAMES))
    done = 0
    seed = 0
    while done < per_game:
        options = rng.choice(OPTIONS.get(game, ({},)))
        for position in random_game(game, options, seed, 200):
            # Half size: the same drawing code, a quarter of the pixels to push.
            image = render.board_image(position, theme=SMALL)
            assert image.size == expected_size(position, SMALL)
            done += 1
        seed += 1
    assert done >= per_game


@pytest.mark.parametrize("game", GAME_IDS)
def test_describe_mentions_last_move_and_turn(game: str) -> None:
    """describe(): a short text with the last move and whose turn it is (or the result)."""
    for position in random_game(game, {}, 5, 120):
        pos: Any = position
        text = render.describe(position)
        assert len(text) < 1024  # fits Discord's alt-text limit
        if pos.last_move is not None:
            assert f"Last: {pos.seat_sides[1 - pos.to_move]} {pos.last_move}" in text
        if pos.outcome is None:
            assert f"{pos.seat_sides[pos.to_move]} to move" in text
        else:
            assert "Game over" in text


def test_gif_has_one_frame_per_ply_matching_the_pictures() -> None:
    """game_gif: one frame per ply, each equal to the board picture, the last one held."""
    positions = random_game("maphex", {}, 4, 24)
    data = render.game_gif(positions)
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == len(positions)
    durations = []
    for i, position in enumerate(positions):
        gif.seek(i)
        durations.append(gif.info["duration"])
        frame = gif.convert("RGB")
        expected = render.board_image(position).convert("RGB")
        assert frame.tobytes() == expected.tobytes(), i
    assert durations[-1] > durations[0]


def test_gif_of_100_plies_is_under_8_mb() -> None:
    """game_gif: small enough to post in chat, under 8 MB for a 100-ply game."""
    positions = random_game("pathagon", {}, 1, 100)
    assert len(positions) == 101
    assert len(render.game_gif(positions)) < 8_000_000


def test_theme_is_a_frozen_dataclass_with_keyword_options() -> None:
    """Look: the theme is a frozen dataclass; a smaller picture keeps every game drawable."""
    small = Theme(width=800, height=560)
    with pytest.raises(dataclasses.FrozenInstanceError):
        small.width = 5
    for game in engines.GAMES:
        position = engines.new(game)
        assert decode(position, small).size == expected_size(position, small)


def test_sides_differ_in_lightness_not_hue_alone() -> None:
    """Look: the two sides of every game differ clearly in lightness."""
    for game in engines.GAMES:
        a, b = THEME.sides(game)
        luma_a = 0.299 * a[0] + 0.587 * a[1] + 0.114 * a[2]
        luma_b = 0.299 * b[0] + 0.587 * b[1] + 0.114 * b[2]
        assert abs(luma_a - luma_b) > 60


def test_unknown_game_is_refused() -> None:
    """render draws only the games it knows and says so clearly."""

    @dataclasses.dataclass(frozen=True)
    class Other:
        game: str = "chess"

    with pytest.raises(ValueError, match="chess"):
        render.board_png(Other())


def _crop_pixels(image: Image.Image, centre: tuple[int, int], half: int) -> list[tuple[int, ...]]:
    x, y = centre
    data = image.crop((x - half, y - half, x + half + 1, y + half + 1)).tobytes()
    return [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]


def test_fixation_stack_shows_disks_bottom_to_top_and_height() -> None:
    """Lines of Fixation: every disk of a stack in its colour, bottom to top, and its height."""
    from engines.fixation import setup

    others = {"a1": "L", "i5": "D"}
    light_under = setup({"e5": "LD", **others})
    dark_under = setup({"e5": "DD", **others})
    cell = light_under.board.parse("e5")
    centre = render.cell_centres(light_under)[cell]
    half = round(cell_spacing(light_under) * 0.45)
    # The top disk is Dark in both: the owner's colour is read at the probe point.
    for position in (light_under, dark_under):
        probe = render.probe_points(position)[cell]
        assert distance(rgb(position).getpixel(probe), THEME.black) <= CLOSE
    # Only the first shows a Light disk under the Dark one.
    # A Light disk's side, seen below the top disk: its colour shaded a little.
    wall = tuple(
        round(w + (d - w) * 0.22) for w, d in zip(THEME.white, THEME.dark_rim, strict=True)
    )
    lit = [px for px in _crop_pixels(rgb(light_under), centre, half) if distance(px, wall) < 4]
    dim = [px for px in _crop_pixels(rgb(dark_under), centre, half) if distance(px, wall) < 4]
    assert len(lit) > 40, len(lit)
    assert len(dim) < 10, len(dim)
    # Heights 1..6 all look different (the height is written on the top disk).
    crops = set()
    for h in range(1, 7):
        position = setup({"e5": "L" * h, **others})
        box = (centre[0] - half, centre[1] - half, centre[0] + half, centre[1] + half)
        crops.add(rgb(position).crop(box).tobytes())
    assert len(crops) == 6


def test_pathagon_hands_show_pieces_in_hand_with_returned_ones_apart() -> None:
    """Pathagon: each side's pieces in hand are drawn, returned ones marked apart."""
    seen: dict[int, dict[int, set[int]]] = {0: {}, 1: {}}
    returned_seen = 0
    for seed in range(12):
        for position in random_game("pathagon", {}, seed, 70)[::3]:
            pos: Any = position
            image = decode(position)
            panel = (660, 66, 1000, 505)
            counts = (
                count_in(image, panel, THEME.white, 3),
                count_in(image, panel, THEME.black, 3),
            )
            for seat in (0, 1):
                seen[seat].setdefault(pos.in_hand[seat], set()).add(counts[seat])
            marked = count_in(image, panel, THEME.second, 10)
            if any(pos.returned):
                returned_seen += 1
                assert marked > 30
            else:
                assert marked == 0
    assert returned_seen > 0
    for seat in (0, 1):
        # More pieces in hand always means more pixels of that colour in the panel.
        ladder = [(k, min(v), max(v)) for k, v in sorted(seen[seat].items())]
        assert len(ladder) >= 5
        for (_, _, high), (_, low, _) in itertools.pairwise(ladder):
            assert high < low, ladder


def test_pathagon_piece_that_may_not_move_is_marked() -> None:
    """Pathagon: the piece its owner may not move next turn carries a mark."""
    from engines.pathagon import PathagonPosition

    diagram = """
        .......
        .......
        .......
        ...D...
        ..L....
        .......
        .......
    """
    free = PathagonPosition.from_diagram(diagram)
    locked = PathagonPosition.from_diagram(diagram, locked=("c3", "d4"))
    for name in ("c3", "d4"):
        cell = free.board.parse(name)
        x, y = render.cell_centres(free)[cell]
        half = round(cell_spacing(free) * 0.48)
        box = (x - half, y - half, x + half, y + half)
        assert rgb(free).crop(box).tobytes() != rgb(locked).crop(box).tobytes()
    # Elsewhere the two pictures are the same.
    e5 = render.cell_centres(free)[free.board.parse("e5")]
    box = (e5[0] - 20, e5[1] - 20, e5[0] + 20, e5[1] + 20)
    assert rgb(free).crop(box).tobytes() == rgb(locked).crop(box).tobytes()
