"""Languages: which one a player and a chat read, and the settings that change them.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Code, Text
from bot.sessions.texts.base import _p


def language_is(name: str, chosen: bool) -> Text:
    """The player's language (``chosen``: by ``settings language``, else their platform's)."""
    if chosen:
        return _p("Your language: {name} (your choice; settings language auto follows your app).",
                  name=name)  # fmt: skip
    return _p("Your language: {name} (as your app says; settings language <code> changes it).",
              name=name)  # fmt: skip


def chat_language_is(name: str) -> Text:
    """What everyone in this chat reads (boards, cards, tournament posts)."""
    return _p("This chat's language: {name} (boards, cards and posts everyone reads).", name=name)


def not_a_language(shown: str, choices: str) -> Text:
    """A language code we have no catalog for."""
    return _p("{shown} is not a language I speak: choose one of {choices}, or auto.",
              shown=Code(shown), choices=choices)  # fmt: skip


def chat_language_needs_admin() -> Text:
    """``settings chat-language`` by someone who does not manage the chat."""
    return _p("Only the server's managers or the group's administrators can change the chat's "
              "language.")  # fmt: skip


def chat_language_private() -> Text:
    """``settings chat-language`` in a private chat, which reads the player's own language."""
    return _p("A private chat reads your own language: use settings language <code>.")
