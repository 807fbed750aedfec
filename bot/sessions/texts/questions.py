"""Sentences about a question asked of one player before something that cannot be undone
(resigning, a move that loses): asked privately, answered by that player alone.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Text
from bot.sessions.texts.base import (
    N_,
    _p,
    _s,
)

#: The button that resigns, on the question before resigning.
YES_RESIGN = N_("Yes, resign")
#: The button that puts a question away (nothing changes).
NOT_NOW = N_("Cancel")
#: A press on a question that has lapsed.
QUESTION_LAPSED = _p("That question has lapsed: ask again if you still want to.")


def not_your_question(owner: str | None) -> Text:
    """A press on a question asked of someone else (``owner``, by name; no mention, so no one
    is pinged): it changes nothing."""
    if owner is None:
        return _p("That question was asked of someone else: only they can answer it.")
    return _p("That question is {owner}'s: only {owner} can answer it.", owner=owner)


def asked_privately(name: str) -> str:
    """The answer on the button when its question went to the presser's private chat."""
    return _s("{name}: I asked you in our private chat.", name=name)


def asked_here(name: str) -> str:
    """The answer on the button when its question is posted in the group for the presser
    alone to answer (they never opened a private chat with the bot)."""
    return _s("{name}: answer just below. Only your tap counts.", name=name)


def question_for(name: str, question: Text) -> Text:
    """A question posted in a group for the person ``name`` alone (plain name: no ping)."""
    return _p("{name}: {question}", name=name, question=question)
