"""What the bot says about draws in a game against it (issue 49): its own offer, its answer to
the player's, and a draw claimed after a game without progress."""

from __future__ import annotations

from bot.messages import Mention, Text
from bot.sessions.texts.base import _t


def _plies(count: int, more: str = "") -> str:
    return f"{count} {more}{'ply' if count == 1 else 'plies'}"


def bot_offers_draw(bot: Mention, game_id: int) -> Text:
    """The bot offers a draw: its evaluation says the game is held for both."""
    return _t(bot, f" offers a draw in #{game_id}: it sees the game held for both sides.")


def bot_offers_draw_no_progress(bot: Mention, game_id: int, plies: int) -> Text:
    """The bot offers a draw: the game has made no progress for ``plies`` plies."""
    return _t(bot, f" offers a draw in #{game_id}: no progress for {_plies(plies)}.")


def bot_accepts_draw(bot: Mention, game_id: int) -> Text:
    """The bot accepts the player's draw offer (the game is held for both)."""
    return _t(bot, f" accepts the draw: #{game_id} is drawn (agreement).")


def draw_claimed(me: Mention, game_id: int, plies: int) -> Text:
    """The player claims a draw against the bot after ``plies`` plies without progress."""
    return _t(
        me,
        f" claims the draw: #{game_id} made no progress for {_plies(plies)} and is drawn.",
    )


def claim_in(game_id: int, plies: int) -> Text:
    """Said after a declined draw: ``plies`` more plies without progress allow a claim."""
    return _t(
        f" After {_plies(plies, 'more ')} without progress in #{game_id} "
        "you may claim a draw with draw."
    )
