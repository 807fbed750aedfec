"""Board pictures for replies: the one place the bot calls ``render``.

``render`` is imported lazily so the bot still answers in text when it is missing.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from engines import Position

__all__ = ["board_picture", "game_recap"]

log = logging.getLogger(__name__)


def board_picture(position: Position) -> tuple[bytes | None, str | None]:
    """The board PNG and its alt text, or ``(None, None)`` when ``render`` is unavailable.

    Runs in a worker thread (the manager calls it through ``asyncio.to_thread``).
    """
    try:
        import render
    except ImportError:
        return None, None
    describe = getattr(render, "describe", None)
    draw = getattr(render, "board_png", None)
    if describe is None or draw is None:  # render/ is still being written
        return None, None
    try:
        alt = describe(position)
        png = draw(position)
    except Exception:  # a drawing bug must not hide the answer to a move already committed
        log.exception("render failed for %s at ply %d", position.game, position.ply)
        return None, None
    return bytes(png), str(alt)


def game_recap(positions: Sequence[Position]) -> bytes | None:
    """The animated GIF recap of a game (one frame per position), or ``None`` when ``render``
    is unavailable or fails.  Runs in a worker thread."""
    try:
        import render
    except ImportError:
        return None
    try:
        return render.game_gif(positions)
    except Exception:  # a drawing bug must not hide the result of a finished game
        log.exception("recap failed for %s", positions[-1].game if positions else "?")
        return None
