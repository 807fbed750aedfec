"""Challenges: made, accepted, declined, cancelled, expired; and games against the bot, which
start at once."""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.status import ChallengeStatus
from bot.messages import Chat, Reply, User
from bot.sessions import challenges, opponent, standings
from bot.sessions.context import DEFAULT_TIME_PER_MOVE
from bot.sessions.services.base import Service, answered
from bot.sessions.validate import finite, game_options, said, some_id
from bot.storage import ChallengeRow
from engines.levels import Level

__all__ = ["Challenges"]


def _days(days: float | None) -> float | None:
    return None if days is None else finite(days, "time_per_move")


class Challenges(Service):
    """Challenges between players, and games against the bot."""

    async def challenge(
        self,
        user: User,
        chat: Chat,
        game: str,
        opponent: User | None = None,
        options: Mapping[str, object] | None = None,
        first: str = "random",
        time_per_move: float | None = DEFAULT_TIME_PER_MOVE,
        rated: bool | str = True,
        username: str | None = None,
    ) -> Reply:
        """Challenge ``opponent`` (anyone in ``chat`` when ``None``; ``username`` when the
        platform knows them only by it) to ``game`` with ``options``; ``first`` is who takes
        seat 0 (``me``, ``them`` or ``random``), ``time_per_move`` in days (``None``: no
        clock)."""
        return await answered(
            lambda: challenges.challenge(
                self._ctx,
                user,
                chat,
                said(game, "game"),
                opponent,
                game_options(options),
                said(first, "first"),
                _days(time_per_move),
                said(rated, "rated") if isinstance(rated, str) else rated,
                None if username is None else said(username, "username"),
            )
        )

    async def bot_levels(self, user: User, chat: Chat) -> Reply:
        """``challenge bot`` without a game: how to play the bot, and each of its levels'
        ratings in every pool."""
        return await answered(lambda: standings.bot_levels(self._ctx))

    async def challenge_bot(
        self,
        user: User,
        chat: Chat,
        game: str,
        level: Level | str = Level.NORMAL,
        options: Mapping[str, object] | None = None,
        first: str = "random",
        time_per_move: float | None = DEFAULT_TIME_PER_MOVE,
    ) -> Reply:
        """Start a game of ``game`` against the bot itself at ``level`` (``easy``, ``normal``
        or ``hard``) in ``chat``, at once: no challenge to accept, never rated.

        ``options`` and ``time_per_move`` are as for :meth:`challenge` (the time per move is
        the player's clock: the bot has none); ``first`` is ``me`` (the player takes seat 0),
        ``them`` (the bot does) or ``random``.  The bot's moves come as notifications (see
        :mod:`~bot.sessions.opponent`).
        """
        return await answered(
            lambda: opponent.start(
                self._ctx,
                user,
                chat,
                said(game, "game"),
                opponent.parse_level(level),
                game_options(options),
                said(first, "first"),
                _days(time_per_move),
            )
        )

    async def accept(self, user: User, chat: Chat, challenge_id: int | None = None) -> Reply:
        """Accept a challenge (the only one open to ``user`` here when no id is given)."""
        return await answered(
            lambda: challenges.accept(self._ctx, user, chat, some_id(challenge_id, "challenge"))
        )

    async def decline(self, user: User, chat: Chat, challenge_id: int | None = None) -> Reply:
        """Decline a challenge made to ``user``."""
        return await answered(
            lambda: challenges.decline(self._ctx, user, chat, some_id(challenge_id, "challenge"))
        )

    async def cancel(self, user: User, chat: Chat, challenge_id: int | None = None) -> Reply:
        """Cancel a challenge ``user`` made."""
        return await answered(
            lambda: challenges.cancel(self._ctx, user, chat, some_id(challenge_id, "challenge"))
        )

    async def expire_challenges(self) -> list[ChallengeRow]:
        """Expire the pending challenges past their time (their notices go out)."""
        return await challenges.expire_challenges(self._ctx)

    async def challenge_answered(self, challenge_id: int) -> bool:
        """Whether challenge ``challenge_id`` is no longer pending (accepted, declined,
        cancelled or expired); ``False`` when there is no such challenge."""
        row = await self._ctx.store.get_challenge(challenge_id)
        return row is not None and row.status is not ChallengeStatus.PENDING
