"""The review on a game's page (issue 30): the moves that changed the game most, as JSON for the
page's script, computed once per state of a game.

The computation is the chat command's own (:meth:`Games.costliest
<bot.sessions.services.games.Games.costliest>`, :func:`bot.sessions.reviews.costliest`): in
the bot's worker pool, in the fair queue with the bot's moves, never on the event loop, and
only when :func:`bot.sessions.reviews.reviewable` allows it.  :class:`Reviews` keeps the
answers of the last :data:`KEPT` games as played (a reload, another visitor, reads it back;
a game's moves are what a review depends on, not the other changes of its stored row) and runs
at most one computation per game as played: a request that comes while one runs waits for
that one.  A computation goes on when the page that asked for it is closed (the next one finds
it done).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Hashable
from typing import Any

from bot.core.lru import Lru
from bot.sessions import presentation, texts
from bot.sessions.manager import SessionManager
from bot.sessions.thinker import Reviewed
from bot.sessions.webview import GameView
from bot.webboard import view

__all__ = ["KEPT", "Reviews", "answer"]

log = logging.getLogger(__name__)

#: How many reviews are kept in this process (the least recently read go first).
KEPT = 128

#: A game as played: its id and its moves.
Key = tuple[int, tuple[str, ...]]


def _cells(g: GameView, move: str) -> list[str]:
    """The cells of the board ``move`` names, in order, each once."""
    names = {c["n"] for c in view.geometry(g.row.game, dict(g.row.options))["cells"]}
    found: list[str] = []
    for name in view.CELL.findall(move):
        if name in names and name not in found:
            found.append(name)
    return found


def answer(g: GameView, found: list[Reviewed]) -> dict[str, Any]:
    """The review of ``g`` as the page gets it: ``id``, ``ply`` (how many moves it looked
    at), ``text`` (its first line), ``hint`` and ``moves``, each with ``ply`` (the moves
    before it: the position shown is frame ``ply``), ``number``, ``seat``, ``player``,
    ``side``, ``played``, ``better``, the mover's chances ``before`` and ``after`` and the
    ``cost`` (whole percentages), the ``cells`` of the better move and the ``played_cells``,
    and ``text`` (the chat's sentence for it)."""
    row = g.row
    sides = g.position.seat_sides
    moves = []
    for ply, seat, played, better, before, after in found:
        player, side = g.players[seat], sides[seat]
        name = player.name
        who = texts.side(presentation.mention(player), side)
        moves.append(
            {
                "ply": ply,
                "number": ply + 1,
                "seat": seat,
                "player": name,
                "side": texts.side_word(side),
                "played": played,
                "better": better,
                "before": round(100 * before),
                "after": round(100 * after),
                "cost": round(100 * before) - round(100 * after),
                "cells": _cells(g, better),
                "played_cells": _cells(g, played),
                "text": str(texts.review_line(ply + 1, who, played, better, before, after)),
            }
        )
    if found:
        head = texts.review_head(row.id, presentation.title(row))
    else:
        head = texts.review_nothing(row.id)
    return {
        "ok": True,
        "id": row.id,
        "ply": len(g.moves),
        "text": str(head),
        "hint": str(texts.web_review_hint()) if found else "",
        "moves": moves,
    }


class Reviews:
    """The reviews of this process's pages, made through ``manager`` (see the module
    docstring); ``kept`` answers are remembered."""

    def __init__(self, manager: SessionManager, kept: int = KEPT) -> None:
        self.manager = manager
        # The moves found, kept unsaid: each asker reads them in their own language.
        self._done: Lru[Key, list[Reviewed]] = Lru(kept)
        self._running: dict[Key, asyncio.Task[list[Reviewed]]] = {}
        #: How many reviews were asked for in this process, and how many of them were started
        #: (computed, not read back or joined to one being made).
        self.asked = 0
        self.started = 0

    def fresh(self, g: GameView) -> bool:
        """Whether a review of ``g`` would start a computation (none is kept or being made)."""
        key = (g.row.id, g.moves)
        return key not in self._done and key not in self._running

    async def review(self, g: GameView, owner: Hashable) -> dict[str, Any]:
        """The review of ``g`` (kept, being made, or started now for ``owner``'s turn in the
        queue).  :class:`~bot.refusal.Refusal` when it may not be reviewed now or a
        worker died."""
        self.asked += 1
        key = (g.row.id, g.moves)
        kept = self._done.get(key)
        if kept is not None:
            return answer(g, kept)
        task = self._running.get(key)
        if task is None:
            task = asyncio.create_task(self._make(key, g, owner))
            self._running[key] = task
            self.started += 1
            task.add_done_callback(lambda done: self._finished(key, done))
        # The page may go away: the computation goes on for the next one.
        return answer(g, await asyncio.shield(task))

    async def _make(self, key: Key, g: GameView, owner: Hashable) -> list[Reviewed]:
        found = list(await self.manager.games.costliest(g.row, g.moves, owner))
        self._done[key] = found
        return found

    def _finished(self, key: Key, task: asyncio.Task[list[Reviewed]]) -> None:
        if self._running.get(key) is task:
            del self._running[key]
        if not task.cancelled() and task.exception() is not None:
            # Its askers got the error; nobody else needs to hear of it.
            log.debug("review of #%d failed: %s", key[0], task.exception())

    async def close(self) -> None:
        """Stop the reviews being made."""
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
