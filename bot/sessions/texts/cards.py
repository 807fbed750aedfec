"""The words of a challenge's card once answered on another of its copies, and of an answer too
long for the messages a chat allows it, as chat adapters with such limits show them.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Code, Text
from bot.sessions.texts.base import (
    _p,
)


def game_begun(game_id: int) -> Text:
    """Added to the copies of a challenge's card (the channel's, the opponent's private one)
    other than the game's board, once the challenge is accepted: where the game stands."""
    return _p("Game {game_id} has begun: Board shows where it stands.", game_id=Code(f"#{game_id}"))


def rest_attached() -> Text:
    """The last message of an answer the chat would not take in full (it allows an answer
    only a few messages): the rest is in the attached file."""
    return _p(
        "The rest of this answer is in the attached file: this chat allows me only a few messages "
        "per answer."
    )
