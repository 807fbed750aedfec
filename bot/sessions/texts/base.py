"""The pieces every sentence is made of: players, sides and results, and the refusals
several commands share.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from datetime import datetime

from bot.core.status import GameResult
from bot.messages import Mention, Segment, Text

#: A button id that is not one of ours (or from a version that no longer exists).
NOT_MY_BUTTON = Text.of("That button is not one of mine (or is too old).")


def _t(*parts: Segment | Text) -> Text:
    return Text.of(*parts)


def _when(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def _plural(count: int | float, word: str) -> str:
    return f"{count:g} {word}{'s' if count != 1 else ''}"


def _ids(ids: list[int] | tuple[int, ...]) -> str:
    return ", ".join(f"#{i}" for i in ids[:10])


# -- players and results ------------------------------------------------------------------


def side(player: Mention, side_name: str) -> Text:
    """A player with the side they play, e.g. ``Ada (Red)``."""
    return _t(player, f" ({side_name})")


def result(
    game_id: int, result: GameResult | None, reason: str | None, winner: Text | None
) -> Text:
    """How a finished game ended: ``result`` is the stored result (win, draw, none)."""
    if result == GameResult.DRAW:
        return _t(f"#{game_id} is drawn ({reason}).")
    if result == GameResult.NONE:
        return _t(f"#{game_id} was aborted ({reason}).")
    if winner is None:
        return _t(f"#{game_id} is over ({reason}).")
    return _t(winner, f" wins #{game_id} ({reason}).")


# -- refusals shared by several commands -------------------------------------------------


def no_such(what: str, shown_id: str) -> Text:
    """There is no game (challenge) with that id (``#`` marks games only)."""
    return _t(f"There is no {what} {'#' if what == 'game' else ''}{shown_id}.")


def no_game_here(game_id: int) -> Text:
    """A game of another chat asked about by someone who does not play in it."""
    return _t(f"There is no game #{game_id} here.")


def no_challenge_here(challenge_id: int) -> Text:
    """A challenge of another chat, not addressed to the one asking (or not in their direct
    chat with the bot)."""
    return _t(f"There is no challenge {challenge_id} here.")


def no_such_game_name(shown_name: str, games: list[str]) -> Text:
    """A game name that is not one of ours."""
    return _t(f"There is no game {shown_name!r}: choose one of {', '.join(games)}.")


def set_aside(game_id: int) -> Text:
    """A game damaged in storage."""
    return _t(f"Game #{game_id} is damaged in storage and has been set aside.")


def cannot_be_read(game_id: int, reason: str) -> Text:
    """A game found damaged just now."""
    return _t(
        f"Game #{game_id} cannot be read (damaged in storage: {reason}); it has been set aside."
    )


#: The answer when the database stayed locked longer than the busy timeout.
BUSY = Text.of("The database is busy, try again.")
#: The answer when the database cannot take a request (a full disk, an unreachable server).
UNAVAILABLE = Text.of("The database is unavailable, try again.")
#: The answer when the database's storage is full (a full disk, a quota): it lasts until
#: whoever runs the bot frees space, so "try again" would mislead.
STORAGE_FULL = Text.of(
    "The bot's storage is full: nothing was changed. Please tell whoever runs the bot."
)
#: The answer to a tap whose chat the platform's flood control holds back (what it changed is
#: stored; a board it made follows through the outbox).
FLOOD_WAIT = "Telegram holds my messages in this chat back for a moment: nothing is lost."


def row_unreadable(table: str, row_id: object) -> Text:
    """A stored row that cannot be read: a game or challenge is set aside, anything else is
    only reported."""
    what = {"games": "Game #", "challenges": "Challenge "}.get(table)
    if what is None:
        return _t(f"Something stored cannot be read ({table} #{row_id}).")
    return _t(f"{what}{row_id} cannot be read (damaged in storage); it has been set aside.")


def player_missing(player_id: int) -> Text:
    """A game names a player the store does not have."""
    return _t(f"player {player_id} is missing from the database")


def no_active_game_here() -> Text:
    """No game id given and none to guess (the adapter says how to name one)."""
    return _t("You have no active game here.")


def which_game(count: int, ids: list[int]) -> Text:
    """No game id given and several would do."""
    return _t(f"You have {count} active games here ({_ids(ids)}): which one?")


def changed_meanwhile(game_id: int | None = None) -> Text:
    """The game changed between reading and writing it."""
    if game_id is None:
        return _t("The game moved on meanwhile: look at it and try again.")
    return _t(f"The game #{game_id} moved on meanwhile: look at it and try again.")


def not_playing(game_id: int, what: str | None = None) -> Text:
    """Only a game's players may do this."""
    if what is None:
        return _t(f"You are not playing in #{game_id}.")
    return _t(f"You are not playing in #{game_id}: only its players can {what}.")


def is_over(game_id: int, outcome: Text) -> Text:
    """The game has ended already."""
    return _t(f"#{game_id} is over: ", outcome)
