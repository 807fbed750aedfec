"""Sentences for onlookers and for chats that change under the bot: a spectator's taps answered
privately, the move picker kept to its player, a group that removed the bot.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Code, Text
from bot.sessions.texts.base import (
    N_,
    _p,
)

#: The answer on the button when a spectator's look was sent to them privately.
SENT_PRIVATELY = N_("Sent to you in our private chat.")
#: Added to a spectator's alert when the bot cannot write to them privately.
WATCH_PRIVATELY = N_("Start a private chat with me to see more there.")
#: A press on the move picker by someone who is not the player to move.
NOT_YOUR_PICKER = N_("This move picker belongs to the player to move.")


def removed_from_chat(game_id: int) -> Text:
    """A player told privately that the bot can no longer post in their game's chat (it was
    removed from it): the game is kept and goes on in private."""
    return _p(
        "I can no longer post in the group of #{game_id} (I was removed from it). The game is "
        "kept: play it here, e.g. {game_id2}.",
        game_id=game_id,
        game_id2=Code(f"#{game_id} <move>"),
    )
