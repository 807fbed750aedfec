"""Board pictures for replies: the one place the bot calls ``render``."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import engines
import render
from engines import Position

__all__ = ["board_picture", "game_recap", "recap_in_worker"]

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


def game_recap(game: str, options: Mapping[str, Any], moves: Sequence[str]) -> bytes | None:
    """The animated GIF recap of a game (one frame per position, replayed from ``moves``), or
    ``None`` if drawing it failed.

    Runs in a worker process (see :func:`recap_in_worker`): a whole game's frames are seconds
    of CPU, which in a thread would hold the interpreter lock and slow every other move.
    """
    try:
        return bytes(render.game_gif(list(engines.replay(game, moves, **options))))
    except Exception:  # a drawing bug must not hide the result of a finished game
        log.exception("recap failed for %s after %d moves", game, len(moves))
        return None


_POOL: ProcessPoolExecutor | None = None


async def recap_in_worker(
    game: str, options: Mapping[str, Any], moves: Sequence[str]
) -> bytes | None:
    """:func:`game_recap` computed in a worker process (started on first use, "spawn" so the
    bot's threads are not forked); ``None`` if the worker cannot be used."""
    global _POOL
    loop = asyncio.get_running_loop()
    try:
        if _POOL is None:
            _POOL = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return await loop.run_in_executor(_POOL, game_recap, game, dict(options), list(moves))
    except (BrokenProcessPool, OSError, RuntimeError):
        log.exception("the recap worker failed; no recap for this game")
        _POOL = None
        return None
