"""One path for every ending of a game (issue 42): the rating, the result, who is told and how,
the dedupe key of their notice, the animated recap and the stored row, decided here once.

Each kind of ending is an :class:`Ending` stating its differences:

========================  ===========  ====================================  =======
ending                    stored as    told                                  recap
========================  ===========  ====================================  =======
by the rules (a move)     finished     the opponent (privately, if they      yes
                                       asked; the bot's move: in the chat)
resignation               finished     the opponent, privately if they asked yes
draw by agreement         finished     the opponent, privately if they asked yes
loss on time              finished     both players, in the game's chat      no
no first move (clock)     aborted      both players, in the game's chat      no
tournament withdrawal     finished     nobody (the tournament's notice)      no
========================  ===========  ====================================  =======

A rated game's rating changes are settled here (:func:`bot.sessions.standings.settle`) and
follow every notice, as stored; the result is a win, a draw (no winner) or none (aborted).
An ending by the rules is stored with its move (``apply_move``, through :func:`settled`);
every other ending by :func:`finish`.  A tournament's bookkeeping needs nothing more at a
game's end: its standings are worked out from its games when asked for, and its sweep
replays aborted games, withdraws a player's third loss on time and posts the result
(:mod:`bot.sessions.tournaments`); a withdrawal ends the player's games here, as
:data:`WITHDRAWAL`.

>>> RESIGNATION.result(1), AGREEMENT.result(None), NO_FIRST_MOVE.result(None)
(<GameResult.WIN: 'win'>, <GameResult.DRAW: 'draw'>, <GameResult.NONE: 'none'>)
>>> game_over_key(12, 7)
'game_over:12:7'
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.core.notification import Kind, Notification
from bot.core.status import GameResult, GameStatus
from bot.messages import Text
from bot.sessions import policy, standings
from bot.sessions.context import Context
from bot.storage import GameRow, PlayerRow, RatingEnd
from engines import Position, Termination

__all__ = [
    "AGREEMENT",
    "NO_FIRST_MOVE",
    "RESIGNATION",
    "TIMEOUT",
    "WITHDRAWAL",
    "Ending",
    "Settled",
    "Told",
    "by_the_rules",
    "finish",
    "game_over_key",
    "settled",
]


class Told(enum.Enum):
    """Who hears of an ending, and how."""

    #: the opponent of the player who ended it: the answer in the chat says it, so only
    #: privately, and only if they asked for direct messages (the bot's own move: in the chat)
    OPPONENT = "opponent"
    #: both players, by a notice in the game's chat (nobody answered: the clock ended it)
    BOTH = "both"
    #: nobody (a withdrawal: the tournament's own notice says it)
    NOBODY = "nobody"


@dataclass(frozen=True)
class Ending:
    """One kind of ending: how it is stored, who is told, whether the recap follows."""

    termination: Termination
    told: Told
    recap: bool
    status: GameStatus = GameStatus.FINISHED

    def result(self, winner: int | None) -> GameResult:
        """The stored result: none for an aborted game, else a win or (no winner) a draw."""
        if self.status is GameStatus.ABORTED:
            return GameResult.NONE
        return GameResult.DRAW if winner is None else GameResult.WIN


RESIGNATION = Ending(Termination.RESIGNATION, Told.OPPONENT, recap=True)
AGREEMENT = Ending(Termination.AGREEMENT, Told.OPPONENT, recap=True)
TIMEOUT = Ending(Termination.TIMEOUT, Told.BOTH, recap=False)
NO_FIRST_MOVE = Ending(Termination.NO_FIRST_MOVE, Told.BOTH, recap=False, status=GameStatus.ABORTED)
#: A withdrawn tournament player's unfinished games end as their losses, as a resignation.
WITHDRAWAL = Ending(Termination.RESIGNATION, Told.NOBODY, recap=False)


def by_the_rules(termination: Termination) -> Ending:
    """The ending a move made (a connection, one group, the home row...)."""
    return Ending(termination, Told.OPPONENT, recap=True)


def game_over_key(game_id: int, player_id: int) -> str:
    """The dedupe key of ``player_id``'s notice that game ``game_id`` is over (one per player
    and game, whichever way it ended)."""
    return f"game_over:{game_id}:{player_id}"


@dataclass(frozen=True)
class Settled:
    """An ending worked out, before it is stored: the result, the rating changes (``None``
    for an unrated game), the line saying them, and the notices to store with it."""

    winner: int | None
    result: GameResult
    rated: RatingEnd | None
    changed: Text
    notes: tuple[Notification, ...]


async def settled(
    ctx: Context,
    row: GameRow,
    ending: Ending,
    winner: int | None,
    said: Sequence[tuple[PlayerRow, Text]],
    now: datetime,
    *,
    by: PlayerRow | None = None,
    in_chat: bool = False,
    at: datetime | None = None,
) -> Settled:
    """The rating, result and notices of ``row`` ending as ``ending`` with ``winner``:
    ``said`` is what each player told hears (the rating line follows it), ``by`` the player
    whose act ended it (the recap is theirs), ``in_chat`` tells the opponent in the chat
    (the bot's own move, which has no answer of its own), ``at`` the paced delivery time."""
    result = ending.result(winner)
    rated = await standings.settle(ctx, row, winner, result)
    changed = await standings.change_line(ctx, row, rated)
    notes: list[Notification] = []
    for player, text in said if ending.told is not Told.NOBODY else ():
        key = game_over_key(row.id, player.id)
        if ending.told is Told.BOTH:
            notes.append(
                policy.note(
                    ctx,
                    player,
                    Kind.GAME_OVER,
                    text + changed,
                    now,
                    game_id=row.id,
                    chat_id=row.chat_id,
                    dedupe=key,
                    at=at,
                )
            )
        elif in_chat:
            notes += policy.note_for_chat(
                ctx, player, Kind.GAME_OVER, text + changed, now,
                chat_id=row.chat_id, game_id=row.id, dedupe=key,
            )  # fmt: skip
        else:
            notes += policy.private_notes(
                ctx, player, Kind.GAME_OVER, text + changed, now, game_id=row.id, dedupe=key
            )
    if ending.recap and by is not None:
        notes += policy.recap_notes(ctx, row, by, now)
    return Settled(winner, result, rated, changed, tuple(notes))


async def finish(
    ctx: Context,
    row: GameRow,
    position: Position | None,
    ending: Ending,
    winner: int | None,
    said: Sequence[tuple[PlayerRow, Text]],
    now: datetime,
    *,
    by: PlayerRow | None = None,
    at: datetime | None = None,
) -> GameRow | None:
    """End active game ``row`` without a move, as ``ending`` with ``winner`` (see
    :func:`settled` for ``said``, ``by`` and ``at``): stored in one transaction with its
    rating changes and notices.  The stored game, or ``None`` if it changed meanwhile.

    The positions cache keeps the ended game with ``position`` (or the position it held)."""
    done = await settled(ctx, row, ending, winner, said, now, by=by, at=at)
    updated = await ctx.store.finish_game(
        row,
        ending.status,
        winner,
        done.result,
        ending.termination,
        now,
        list(done.notes),
        rating=done.rated,
    )
    cached = ctx.positions.get(row.id)
    kept = position if position is not None else None if cached is None else cached[1]
    if updated is not None and kept is not None:
        ctx.positions[row.id] = (updated, kept)
    else:
        ctx.positions.pop(row.id, None)
    return updated
