"""The commands' manager calls that say more than one line (see :mod:`bot.adapters.commands`):
each turns a command's arguments (its dataclass in :mod:`bot.adapters.args`) into the
:class:`SessionManager` call that answers it (the registry, :mod:`bot.adapters.registry`,
names them as :attr:`Command.run`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engines
from bot.adapters.args import (
    AnswerArgs,
    AwayArgs,
    ChallengeArgs,
    MoveArgs,
    ResignArgs,
    TournamentNew,
)
from bot.messages import Chat, Reply, User
from bot.sessions import texts
from bot.sessions.manager import SessionManager
from bot.sessions.tournaments import DEFAULT_MAX

__all__ = [
    "away",
    "challenge",
    "draw",
    "move",
    "resign",
    "seat_first",
    "takeback",
    "tournament_new",
]


async def challenge(m: SessionManager, user: User, chat: Chat, a: ChallengeArgs) -> Reply:
    game = a.game
    if a.bot and not game and a.level is None:
        return await m.challenges.bot_levels(user, chat)
    if a.level is not None and a.player is not None and not a.bot:
        return Reply.refuse(texts.level_is_for_the_bot())
    first = seat_first(game, a.options, a.first)
    if a.bot or a.level is not None:
        return await m.challenges.challenge_bot(
            user, chat, game, a.level or "normal", a.options, first, a.days
        )
    rated = True if a.rated is None else a.rated
    return await m.challenges.challenge(
        user, chat, game, a.player, a.options, first, a.days, rated, username=a.username
    )


def seat_first(game: str, options: Mapping[str, Any] | None, first: str) -> str:
    """Who takes seat 0 (what the manager reads) from who moves first (what the ``first``
    option says: "Who moves first"). In a game whose first move is seat 1's (Maphex: Blue
    opens, Red is seat 0), the one who moves first takes seat 1.

    >>> seat_first("maphex", None, "me"), seat_first("pathagon", None, "me")
    ('them', 'me')
    >>> seat_first("maphex", {"size": 16}, "random"), seat_first("chess", None, "me")
    ('random', 'me')
    """
    if first not in ("me", "them"):
        return first
    try:
        opener = engines.new(game, **(options or {})).to_move
    except (ValueError, TypeError, KeyError):
        return first  # an unknown game or option: the manager refuses it in its own words
    if opener == 0:
        return first
    return "them" if first == "me" else "me"


async def move(m: SessionManager, user: User, chat: Chat, a: MoveArgs) -> Reply:
    if a.preview:
        return await m.games.preview(user, chat, a.move, a.game_id)
    return await m.games.move(user, chat, a.move, a.game_id, confirm=bool(a.confirm))


async def resign(m: SessionManager, user: User, chat: Chat, a: ResignArgs) -> Reply:
    # A slash command naming a game asks first (Discord's); one naming none resigns the only
    # game here at once, as it always has.
    confirm = a.game_id is None if a.confirm is None else a.confirm
    return await m.games.resign(user, chat, a.game_id, confirm=confirm)


async def draw(m: SessionManager, user: User, chat: Chat, a: AnswerArgs) -> Reply:
    return await m.games.draw(user, chat, a.game_id, a.answer or "offer")


async def takeback(m: SessionManager, user: User, chat: Chat, a: AnswerArgs) -> Reply:
    return await m.games.takeback(user, chat, a.game_id, a.answer or "ask")


async def away(m: SessionManager, user: User, chat: Chat, a: AwayArgs) -> Reply:
    return await m.players.away(user, a.days)


async def tournament_new(m: SessionManager, user: User, chat: Chat, a: TournamentNew) -> Reply:
    rated = True if a.rated is None else a.rated
    most = DEFAULT_MAX if a.max_players is None else a.max_players
    return await m.tournaments.tournament_new(
        user, chat, a.game, a.options, a.days, a.rounds, rated, most
    )
