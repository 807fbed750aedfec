"""Board pictures for replies: the one place the sessions call ``render``."""

from __future__ import annotations

import logging

import render
from engines import Position

__all__ = ["board_picture"]

log = logging.getLogger(__name__)


def board_picture(position: Position) -> tuple[bytes | None, str | None]:
    """The board PNG and its alt text, or ``(None, None)`` if drawing failed.

    Runs in a worker thread (the manager calls it through ``asyncio.to_thread``).
    """
    try:
        return render.board_png(position), render.describe(position)
    except Exception:  # a drawing bug must not hide the answer to a move already committed
        log.exception("render failed for %s at ply %d", position.game, position.ply)
        return None, None
