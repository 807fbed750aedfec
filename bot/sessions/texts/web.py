"""The web board's sentences (:mod:`bot.webboard`): refusals of its requests, the link button.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Text
from bot.sessions.texts.base import (
    N_,
    _p,
    _s,
)

#: The label of the button that opens a game's page.
OPEN_BOARD = N_("Open board")


def web_no_game() -> Text:
    """A page address that names no game."""
    return _p("There is no game at this address.")


def web_sign_in() -> Text:
    """A move sent without credentials."""
    return _p("Open the board from the chat to play: this page only watches.")


def web_too_fast() -> Text:
    """Too many moves sent from one player or one address."""
    return _p("Too many moves at once: wait a few seconds and try again.")


def web_bad_move_request() -> Text:
    """A move request that is not ``{"move": "<notation>", "ply": <number>}``."""
    return _p('A move is sent as {{"move": "<notation>", "ply": <ply before the move>}}.')


def web_play_failed() -> Text:
    """On the game's page: Play's request failed (no answer, or the server's error)."""
    return _p("Your move was not sent: the board did not answer. It is kept: tap Play again.")


def web_review_too_fast() -> Text:
    """Too many reviews asked for from one address (each holds a worker for seconds)."""
    return _p("Too many reviews asked for at once: wait a minute and try again.")


def web_review_hint() -> Text:
    """Under a review on the game's page: what a row does."""
    return _p("Tap a move to see the position it was played in, with the better move marked.")


def web_link(game_id: int, link: str) -> Text:
    """The private answer to "Open board" for a player: their own link."""
    return _p(
        "Your board for #{game_id} (it lets you move for an hour: keep it to yourself):\n{link}",
        game_id=game_id,
        link=link,
    )


def web_watch_link(game_id: int, link: str) -> Text:
    """The answer to "Open board" for someone who does not play in the game."""
    return _p("Watch #{game_id} here:\n{link}", game_id=game_id, link=link)


def web_off() -> Text:
    """ "Open board" while the web board is off."""
    return _p("The web board is off on this bot.")


def board_page(link: str) -> Text:
    """The line the console prints under a board: its page."""
    return _p("On the web: {link}", link=link)


def web_too_many_pages() -> Text:
    """A live page refused: its address (or everyone together) holds the most allowed."""
    return _p("Too many live pages are open from here: close some, then reload this one.")


def web_downloads_too_fast() -> Text:
    """Too many new pictures or animations asked for from one address."""
    return _p("Too many downloads at once: wait a few seconds and try again.")


#: Why a web board sign-in proves nothing (:mod:`bot.webboard.auth`), by its reason.
SIGN_IN_REFUSALS: dict[str, str] = {
    "not_set_up": N_("Telegram sign-in is not set up on this bot."),
    "too_long": N_("The Telegram sign-in data is too long."),
    "unreadable": N_("The Telegram sign-in data cannot be read."),
    "repeats": N_("The Telegram sign-in data repeats a field."),
    "not_signed": N_("The Telegram sign-in data is not signed by this bot."),
    "no_user": N_("The Telegram sign-in data names no user."),
    "too_old": N_("The Telegram sign-in is too old: open the board from the chat again."),
    "not_mine": N_("That board link is not one of mine."),
    "other_game": N_("That board link is for another game."),
    "expired": N_("That board link has expired: ask the chat for a new one."),
    "unknown": N_("Unknown sign-in: open the board from the chat again."),
}


def web_sign_in_refused(reason: str) -> str:
    """The page's line for a sign-in refused for ``reason`` (a key of
    :data:`SIGN_IN_REFUSALS`), said in the language in use."""
    return _s(SIGN_IN_REFUSALS[reason])
