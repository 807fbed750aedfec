"""The Discord Activity's sentences (:mod:`bot.webboard.activity`): what its page says while it
signs a player in, and why a sign-in was refused.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Text
from bot.sessions.texts.base import _p


def activity_signing_in() -> Text:
    """The Activity's page while Discord signs the player in."""
    return _p("Signing in with Discord…")


def activity_not_in_discord() -> Text:
    """The Activity's page opened outside Discord (no Activity launch in its address)."""
    return _p("This page is the board inside Discord: open it from the game's Open board button.")


def activity_refused() -> Text:
    """The player declined Discord's sign-in, or Discord could not ask them."""
    return _p("Discord did not sign you in: close the board and open it again to retry.")


def activity_bad_request() -> Text:
    """A sign-in request that is not ``{"code": "<code>"}``."""
    return _p('A sign-in is sent as {{"code": "<code from Discord>"}}.')


def activity_code_refused() -> Text:
    """Discord refused the sign-in code (used already, expired, or not this app's)."""
    return _p("Discord did not accept this sign-in: close the board and open it again.")


def activity_unavailable() -> Text:
    """Discord's sign-in could not be reached or answered unexpectedly."""
    return _p("Discord's sign-in is not answering right now: try again in a minute.")


def activity_off() -> Text:
    """A sign-in sent while the Activity is off on this bot."""
    return _p("The board inside Discord is off on this bot.")


def activity_too_fast() -> Text:
    """Too many sign-ins from one address."""
    return _p("Too many sign-ins at once: wait a few seconds and try again.")


def activity_no_games() -> Text:
    """A signed-in player with no game in progress."""
    return _p("You have no game in progress: challenge someone in the chat first.")


def activity_games() -> Text:
    """Above the list of the player's games, to switch boards."""
    return _p("Your games:")


def activity_game_label(game_id: int, title: str, first: str, second: str) -> Text:
    """A game someone watches, in the Activity's list of games (``#12 Maphex: Ada v Bo``)."""
    return _p(
        "#{game} {title}: {first} v {second}", game=game_id, title=title, first=first, second=second
    )
