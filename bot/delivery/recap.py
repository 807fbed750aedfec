"""The animated recap of a finished game, drawn when its notification is delivered.

The game-over reply does not wait for it: the sessions queue a :attr:`~bot.delivery.notify.
Kind.RECAP` notification with the move that ends the game, and an adapter's sender asks
:class:`Recaps` for the GIF when it delivers that notification.

A whole game's frames are seconds of CPU, so each recap is drawn in a child process (in a
thread it would hold the interpreter lock and slow every move).  The child dies with the bot:
it is a plain subprocess (no multiprocessing pool, so no resource tracker), its standard
input, output and error are pipes of its own (never the bot's), and on Linux the kernel kills
it when the bot dies (``PR_SET_PDEATHSIG``), so a supervisor reading the bot's output sees its
end as soon as the bot is gone.

Run as ``python -m bot.delivery.recap <parent pid>``, this module is that child: it reads
``{"game", "options", "moves", "outcome", "players"}`` as JSON on its standard input and
writes the GIF to its standard output.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import engines
from bot.core.errors import StoreError
from bot.workers import die_with_parent
from engines import Outcome, Termination

if TYPE_CHECKING:  # the child imports this module: not the whole store for three types
    from bot.storage.rows import GameRow, MoveRow, PlayerRow

__all__ = ["RecapStore", "Recaps", "draw_recap", "game_recap"]

log = logging.getLogger(__name__)

#: A recap that takes longer than this (seconds) is abandoned and its child killed.
TIMEOUT = 120.0


def game_recap(
    game: str,
    options: Mapping[str, Any],
    moves: Sequence[str],
    *,
    outcome: Outcome | None = None,
    players: Sequence[str] | None = None,
) -> bytes | None:
    """The animated GIF recap of a game (one frame per position, replayed from ``moves``; the
    last frame shows ``outcome`` and every frame the ``players``' names), or ``None`` if drawing
    it failed.  Runs in the child process."""
    import render

    try:
        positions = list(engines.replay(game, moves, **options))
        return bytes(render.game_gif(positions, outcome=outcome, players=players))
    except Exception:  # a drawing bug must not hide the result of a finished game
        log.exception("recap failed for %s after %d moves", game, len(moves))
        return None


async def draw_recap(
    game: str,
    options: Mapping[str, Any],
    moves: Sequence[str],
    *,
    outcome: Outcome | None = None,
    players: Sequence[str] | None = None,
    timeout: float = TIMEOUT,
) -> bytes | None:
    """:func:`game_recap` drawn in a child process (see the module docstring); ``None`` if it
    failed or took longer than ``timeout`` seconds."""
    ending = None if outcome is None else [outcome.winner, str(outcome.termination)]
    request = json.dumps(
        {
            "game": game,
            "options": dict(options),
            "moves": list(moves),
            "outcome": ending,
            "players": None if players is None else list(players),
        }
    )
    try:
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.delivery.recap",
            str(os.getpid()),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError:
        log.exception("cannot start the recap worker; no recap")
        return None
    try:
        gif, errors = await asyncio.wait_for(child.communicate(request.encode()), timeout)
    except TimeoutError:
        log.error("the recap of %s after %d moves took too long", game, len(moves))
        return None
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
    if child.returncode != 0 or not gif:
        log.error("the recap worker failed (%s): %s", child.returncode, errors.decode()[-500:])
        return None
    return gif


class RecapStore(Protocol):
    """What a recap needs of the store: the game with its moves, and its players."""

    async def game_with_moves(self, game_id: int) -> tuple[GameRow, list[MoveRow]] | None:
        """A game and its moves read in one transaction (``None``: no such game)."""
        ...

    async def get_player(self, player_id: int) -> PlayerRow | None:
        """The player with this id, if any."""
        ...


class Recaps:
    """Draws the recap of a stored game (what a sender calls for a RECAP notification)."""

    def __init__(self, store: RecapStore, *, timeout: float = TIMEOUT, at_once: int = 2) -> None:
        self.store = store
        self.timeout = timeout
        # Recaps drawn at once: each is a process busy with one CPU.
        self._slots = asyncio.Semaphore(at_once)

    async def gif(self, game_id: int) -> bytes | None:
        """The recap GIF of game ``game_id`` as stored, or ``None`` if it cannot be drawn."""
        try:
            both = await self.store.game_with_moves(game_id)
        except StoreError as exc:
            log.error("no recap of game #%d: %s", game_id, exc)
            return None
        if both is None:
            return None
        row, moves = both
        try:
            seats = [await self.store.get_player(seat) for seat in row.seats]
        except StoreError as exc:
            log.error("recap of game #%d without names: %s", game_id, exc)
            seats = [None, None]
        names = None if None in seats else [p.name for p in seats if p is not None]
        async with self._slots:
            return await draw_recap(
                row.game,
                row.options,
                [m.move for m in moves],
                outcome=row.outcome,
                players=names,
                timeout=self.timeout,
            )


def main(argv: Sequence[str]) -> int:
    """The child: read the request, write the GIF; the exit status."""
    if argv:
        die_with_parent(int(argv[0]))
    request = json.loads(sys.stdin.buffer.read())
    ending = request.get("outcome")
    gif = game_recap(
        request["game"],
        request["options"],
        request["moves"],
        outcome=None if ending is None else Outcome(ending[0], Termination(ending[1])),
        players=request.get("players"),
    )
    if gif is None:
        return 1
    sys.stdout.buffer.write(gif)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
