"""Board pictures for the five Hexhall games: pure drawing, no I/O and no rules logic.

Everything drawn comes from the position's attributes (the engines' render-facing attributes):

>>> import engines, render
>>> pos = engines.new("maphex").play("5").play("e5")
>>> png = render.board_png(pos)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> render.board_image(pos).size
(1000, 700)
>>> render.describe(pos)
'Maphex 9x9, move 3. Red: e5; Blue: none. Last: Red e5. Blue to move, in centre, 5.'
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engines.base import Outcome, Position
from render import _pipeline
from render._core import scene_of
from render._describe import describe
from render._texts import TextMark, recording
from render._words import result_text
from render.theme import Theme

__all__ = [
    "TextMark",
    "Theme",
    "board_image",
    "board_png",
    "board_texts",
    "cell_centres",
    "describe",
    "game_gif",
    "probe_points",
    "result_text",
]

# Each game's picture registers itself from its own module (render/<game>.py): these imports
# are for that side effect only, hence the noqa.
from render import fixation, inphexion, isopath, maphex, pathagon  # noqa: F401


def board_image(
    position: Position,
    *,
    theme: Theme | None = None,
    outcome: Outcome | None = None,
    players: Sequence[str] | None = None,
    clock: str | None = None,
) -> Image.Image:
    """The picture of ``position``: a palette ("P") image, ``theme.width`` x ``theme.height``
    (1000x700 by default; a 16x16 Maphex board ``theme.large_board_scale`` times larger, at
    most 1280 wide by default).  ``.convert("RGB")`` it for further drawing.

    ``outcome`` is a result the bot decided (``Outcome(winner_seat_or_None, reason)`` with
    reason ``"resignation"``, ``"agreement"``, ``"time"``, ``"aborted"``...): it overrides
    ``position.outcome``, and a finished game shows no "to move" text and no hint for a next
    move.  ``players`` names the players by seat (0, 1); ``clock`` is a short text such as
    ``"2 days 4 h left"`` shown for the player to move."""
    return _pipeline.picture(position, theme, scene_of(position, outcome, players, clock))


def board_png(
    position: Position,
    *,
    theme: Theme | None = None,
    outcome: Outcome | None = None,
    players: Sequence[str] | None = None,
    clock: str | None = None,
) -> bytes:
    """The picture of ``position`` as PNG bytes, ready to post (options as
    :func:`board_image`)."""
    scene = scene_of(position, outcome, players, clock)
    return _pipeline.picture_png(position, theme, scene)


def board_texts(
    position: Position,
    *,
    theme: Theme | None = None,
    outcome: Outcome | None = None,
    players: Sequence[str] | None = None,
    clock: str | None = None,
) -> tuple[tuple[int, int], list[TextMark]]:
    """The size of ``position``'s picture (options as :func:`board_image`) and every text
    it shows, with its place and font size in the picture's pixels: the header, the players,
    the coordinates, the legend, cell names, stack heights...

    >>> import engines
    >>> size, texts = board_texts(engines.new("pathagon"))
    >>> size, min(t.size for t in texts) >= 10
    ((1000, 700), True)
    """
    scene = scene_of(position, outcome, players, clock)
    _pipeline.warm(position, theme)  # the cached parts are built outside the recording
    with recording() as found:
        # Drawn as the picture is, the pixels aside: the texts are noted as they are drawn.
        size = _pipeline.texts(position, theme, scene)
    return size, found


def game_gif(
    positions: Sequence[Position],
    *,
    theme: Theme | None = None,
    outcome: Outcome | None = None,
    players: Sequence[str] | None = None,
) -> bytes:
    """An animated GIF recap: one frame per position (one per ply), the last frame held.

    ``outcome`` (a result the bot decided) is shown on the last frame; ``players`` names the
    players by seat on every frame.  Frames store only what changed, so a 100-ply game stays
    far under 8 MB."""
    last = len(positions) - 1
    scenes = [
        scene_of(p, outcome if i == last else None, players, None) for i, p in enumerate(positions)
    ]
    return _pipeline.gif(positions, theme, scenes)


def cell_centres(position: Position, *, theme: Theme | None = None) -> list[tuple[int, int]]:
    """The pixel centre of every cell of ``position``'s picture (index = cell)."""
    _, lay = _pipeline.layout_of(position, theme)
    return [(round(x), round(y)) for x, y in lay.centres]


def probe_points(position: Position, *, theme: Theme | None = None) -> list[tuple[int, int]]:
    """For every cell, a pixel that shows the colour of what occupies it (a piece, the top
    disk of a stack, or the bare cell / tile), clear of labels and marks."""
    art, lay = _pipeline.layout_of(position, theme)
    points = (art.probe(position, cell, lay) for cell in range(len(lay.centres)))
    return [(round(x), round(y)) for x, y in points]
