"""What the bot says about draws in a game against it (issue 49): its own offer, its answer to
the player's, and a draw claimed after a game without progress."""

from __future__ import annotations

from bot.messages import Mention, Text
from bot.sessions.texts.base import _p, _pn, _t


def bot_offers_draw(bot: Mention, game_id: int) -> Text:
    """The bot offers a draw: its evaluation says the game is held for both."""
    return _p(
        "{bot} offers a draw in #{game}: it sees the game held for both sides.",
        bot=bot,
        game=game_id,
    )


def bot_offers_draw_no_progress(bot: Mention, game_id: int, plies: int) -> Text:
    """The bot offers a draw: the game has made no progress for ``plies`` plies."""
    return _pn(
        "{bot} offers a draw in #{game}: no progress for {count} ply.",
        "{bot} offers a draw in #{game}: no progress for {count} plies.",
        plies,
        bot=bot,
        game=game_id,
    )


def bot_accepts_draw(bot: Mention, game_id: int) -> Text:
    """The bot accepts the player's draw offer (the game is held for both)."""
    return _p("{bot} accepts the draw: #{game} is drawn (agreement).", bot=bot, game=game_id)


def draw_claimed(me: Mention, game_id: int, plies: int) -> Text:
    """The player claims a draw against the bot after ``plies`` plies without progress."""
    return _pn(
        "{player} claims the draw: #{game} made no progress for {count} ply and is drawn.",
        "{player} claims the draw: #{game} made no progress for {count} plies and is drawn.",
        plies,
        player=me,
        game=game_id,
    )


def claim_in(game_id: int, plies: int) -> Text:
    """Said after a declined draw: ``plies`` more plies without progress allow a claim."""
    return _t(
        " ",
        _pn(
            "After {count} more ply without progress in #{game} you may claim a draw with draw.",
            "After {count} more plies without progress in #{game} you may claim a draw with draw.",
            plies,
            game=game_id,
        ),
    )
