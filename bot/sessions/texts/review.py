"""The review after the game.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Code, Text
from bot.sessions.texts.base import (
    _p,
)

# -- review -----------------------------------------------------------------------------------


def review_head(game_id: int, title: str) -> Text:
    """The first line of a review."""
    return _p(
        "#{game_id} {title}, the moves that changed the game most:", game_id=game_id, title=title
    )


def review_line(
    number: int, mover: Text, played: str, better: str, before: float, after: float
) -> Text:
    """One reviewed move: who played what, the better move, the mover's chances."""
    return _p(
        "Move {number}: {mover} played {played}; consider {better} (chance of winning {value} % "
        "with it, {value2} % after the move played).",
        number=number,
        mover=mover,
        played=Code(played),
        better=Code(better),
        value=round(100 * before),
        value2=round(100 * after),
    )


def review_picture(number: int) -> Text:
    """What the picture of a review shows."""
    return _p("The picture shows the position before move {number}.", number=number)


def review_nothing(game_id: int) -> Text:
    """A review that found no move worth naming."""
    return _p(
        "#{game_id}: no move changed the game much, as far as the bot can see.", game_id=game_id
    )


def review_not_yet(game_id: int) -> Text:
    """A review asked for a rated game between people that is still going."""
    return _p(
        "#{game_id} is still going: a review is for finished games (or games against the bot and "
        "unrated games).",
        game_id=game_id,
    )


def review_unavailable(game_id: int) -> Text:
    """The review's search failed (a worker died); the game is unchanged."""
    return _p(
        "The review of #{game_id} could not be made just now: try again later.", game_id=game_id
    )
