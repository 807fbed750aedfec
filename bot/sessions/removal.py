"""Who to tell when a chat's platform no longer lets the bot post there (a Telegram group that
removed the bot): the players of the games that live in it, and whether a direct message may
reach each (the platform never refused one: ``players.dm_refused_at``).  The games are kept;
nothing here changes the store."""

from __future__ import annotations

from dataclasses import dataclass

from bot.messages import User
from bot.sessions.context import Context

__all__ = ["ChatPlayer", "chat_players"]


@dataclass(frozen=True)
class ChatPlayer:
    """A player of an active game in a chat: the ``game_id``, the ``user``, and whether a
    direct message may reach them (``reachable``)."""

    game_id: int
    user: User
    reachable: bool


async def chat_players(ctx: Context, platform: str, chat_id: str) -> list[ChatPlayer]:
    """The players of every active game that lives in ``chat_id`` on ``platform``, by game."""
    rows = await ctx.store.chat_players(platform, chat_id)
    return [
        ChatPlayer(game_id, User(platform, user_id, name), reachable)
        for game_id, user_id, name, reachable in rows
    ]
