"""Posts: the bot's own messages on the platforms (which shows what, which still has live
buttons), the chats they are in, and the platforms' updates and taps each handled once."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

from bot.core.posts import Post, PostKind
from bot.delivery.outbox import answering
from bot.sessions import leases, posts, removal
from bot.sessions.leases import Claim
from bot.sessions.removal import ChatPlayer
from bot.sessions.services.base import Service

__all__ = ["Posts"]


class Posts(Service):
    """The bot's messages on the platforms."""

    async def remember_post(
        self,
        platform: str,
        chat_id: str,
        message_id: str,
        kind: PostKind,
        *,
        game_id: int | None = None,
        challenge_id: int | None = None,
        tournament_id: int | None = None,
    ) -> list[Post]:
        """Remember a message the bot sent; for a board, the game's older boards that had live
        buttons (now marked retired: the caller takes their buttons away)."""
        return await posts.remember_post(
            self._ctx,
            platform,
            chat_id,
            message_id,
            kind,
            game_id=game_id,
            challenge_id=challenge_id,
            tournament_id=tournament_id,
        )

    async def posts_for(
        self,
        platform: str,
        *,
        game_id: int | None = None,
        challenge_id: int | None = None,
        kind: PostKind | None = None,
        live: bool | None = None,
        tournament_id: int | None = None,
    ) -> list[Post]:
        """The remembered messages of a game, a challenge or a tournament on ``platform``,
        oldest first."""
        return await posts.posts_for(
            self._ctx,
            platform,
            game_id=game_id,
            challenge_id=challenge_id,
            kind=kind,
            live=live,
            tournament_id=tournament_id,
        )

    async def retire_posts(self, retired: list[Post]) -> None:
        """Mark messages as without live buttons (after taking them away)."""
        await posts.retire_posts(self._ctx, retired)

    async def move_chat(self, platform: str, old_chat_id: str, new_chat_id: str) -> int:
        """A chat got a new id (a Telegram group became a supergroup): its games, challenges
        and posts follow; how many rows changed."""
        return await posts.move_chat(self._ctx, platform, old_chat_id, new_chat_id)

    async def chat_players(self, platform: str, chat_id: str) -> list[ChatPlayer]:
        """The players of the active games in a chat (when the bot is removed from it)."""
        return await removal.chat_players(self._ctx, platform, chat_id)

    def answering(
        self, owner: str, game_id: int | None, chat_id: str
    ) -> AbstractAsyncContextManager[None]:
        """Around a surface posting a board of ``game_id`` in ``chat_id`` as its answer: the
        game's committed boards are claimed for ``owner`` so no outbox posts them a second
        time (see :func:`bot.delivery.outbox.answering`)."""
        return answering(self._ctx.store, self._ctx.clock, owner, game_id, chat_id)

    async def claim_update(self, platform: str, update_id: int) -> Claim:
        """Claim a platform's update for this process (each is handled once)."""
        return await leases.claim_update(self._ctx, platform, update_id)

    async def finish_update(self, platform: str, update_id: int) -> None:
        """Record that this process handled an update it claimed."""
        await leases.finish_update(self._ctx, platform, update_id)

    async def claim_tap(self, platform: str, tap: str, owner: str, window: float) -> bool:
        """Claim a button tap for ``owner`` (a double tap has one effect across processes)."""
        return await leases.claim_tap(self._ctx, platform, tap, owner, window)

    async def end_tap(self, platform: str, tap: str, owner: str) -> None:
        """The tap claimed by ``owner`` is answered."""
        await leases.end_tap(self._ctx, platform, tap, owner)
