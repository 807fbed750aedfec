"""Tournaments: made, joined, left, started, cancelled, shown."""

from __future__ import annotations

from collections.abc import Mapping

from bot.messages import Chat, Reply, User
from bot.sessions import questions, tournaments
from bot.sessions.services.base import Service, answered
from bot.sessions.tournaments import DEFAULT_MAX
from bot.sessions.validate import finite, game_options, said, some_id, whole

__all__ = ["Tournaments"]


class Tournaments(Service):
    """Round-robin tournaments in a chat."""

    async def tournament_new(
        self,
        user: User,
        chat: Chat,
        game: str,
        options: Mapping[str, object] | None = None,
        days: float | None = 3.0,
        rounds: int = 1,
        rated: bool | str = True,
        max_players: int = DEFAULT_MAX,
    ) -> Reply:
        """Open a tournament of ``game`` in ``chat`` for others to join."""
        return await answered(
            lambda: tournaments.new(
                self._ctx,
                user,
                chat,
                said(game, "game"),
                game_options(options),
                None if days is None else finite(days, "days"),
                whole(rounds, "rounds"),
                said(rated, "rated") if isinstance(rated, str) else rated,
                whole(max_players, "max_players"),
            )
        )

    async def tournament_join(
        self, user: User, chat: Chat, tournament_id: int | None = None
    ) -> Reply:
        """Join a tournament before it starts."""
        return await answered(
            lambda: tournaments.join(self._ctx, user, chat, some_id(tournament_id, "tournament"))
        )

    async def tournament_leave(
        self, user: User, chat: Chat, tournament_id: int | None = None
    ) -> Reply:
        """Leave a tournament (withdrawing from its games once it started)."""
        return await answered(
            lambda: tournaments.leave(self._ctx, user, chat, some_id(tournament_id, "tournament"))
        )

    async def tournament_leave_question(
        self, user: User, chat: Chat, tournament_id: int | None = None
    ) -> Reply:
        """ "Really leave?" for the leaver alone, its yes button leaving."""
        return await answered(
            lambda: questions.leave_question(
                self._ctx, user, chat, some_id(tournament_id, "tournament")
            )
        )

    async def tournament_start(
        self, user: User, chat: Chat, tournament_id: int | None = None
    ) -> Reply:
        """Start a tournament (its maker)."""
        return await answered(
            lambda: tournaments.start(self._ctx, user, chat, some_id(tournament_id, "tournament"))
        )

    async def tournament_cancel(
        self, user: User, chat: Chat, tournament_id: int | None = None
    ) -> Reply:
        """Cancel a tournament (its maker)."""
        return await answered(
            lambda: tournaments.cancel(self._ctx, user, chat, some_id(tournament_id, "tournament"))
        )

    async def tournament_standings(
        self, user: User, chat: Chat, tournament_id: int | None = None
    ) -> Reply:
        """A tournament's standings."""
        return await answered(
            lambda: tournaments.show(self._ctx, user, chat, some_id(tournament_id, "tournament"))
        )

    async def tournament_list(self, user: User, chat: Chat) -> Reply:
        """The tournaments of this chat."""
        return await answered(lambda: tournaments.listing(self._ctx, user, chat))

    async def tournament_of_game(self, game_id: int) -> int | None:
        """The tournament game ``game_id`` belongs to (``None``: none)."""
        return await self._ctx.store.tournament_of_game(game_id)
