"""Sentences about moving by taps privately while a group plays (issue 45): the move picker
opens in the presser's private chat with the bot, so the group sees the board alone.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Text
from bot.sessions.texts.base import N_, _p

#: The answer on Move when the picker went to the presser's private chat.
PICKER_SENT_PRIVATELY = N_("Your move picker is in our private chat.")
#: The answer on Move when the bot cannot write to the presser yet (it opens our chat).
PICKER_START = N_("Press Start in our private chat: your move picker comes there.")
#: The answer on a picker's move played from the private chat (the board goes to the game).
PLAYED_BOARD_THERE = N_("Played: the board is in the game's chat.")
#: The button that leaves a tournament, on the question before leaving.
YES_LEAVE = N_("Yes, leave")


def really_leave(name: str, running: bool) -> Text:
    """The question before leaving tournament ``name`` (asked of the leaver alone)."""
    if running:
        return _p("Really leave {name}? Your unfinished games there end as losses.", name=name)
    return _p("Really leave {name}?", name=name)
