"""Board pictures for replies: the one place the sessions call ``render``."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import render
from engines import Outcome, Position

__all__ = ["board_picture"]

log = logging.getLogger(__name__)


def board_picture(
    position: Position,
    *,
    outcome: Outcome | None = None,
    players: Sequence[str] | None = None,
    clock: str | None = None,
) -> tuple[bytes | None, str | None]:
    """The board PNG and its alt text, or ``(None, None)`` if drawing failed.

    ``outcome`` is the stored result (:attr:`~bot.storage.GameRow.outcome`), ``players`` the
    players' names by seat, ``clock`` the time the player to move has left, in words.  Runs in
    a worker thread (the manager calls it through ``asyncio.to_thread``).
    """
    try:
        png = render.board_png(position, outcome=outcome, players=players, clock=clock)
        alt = render.describe(position, outcome=outcome, players=players, clock=clock)
        return png, alt
    except Exception:  # a drawing bug must not hide the answer to a move already committed
        log.exception("render failed for %s at ply %d", position.game, position.ply)
        return None, None
