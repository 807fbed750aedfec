"""Players: who they are, their settings and languages, their time away, their ratings."""

from __future__ import annotations

from bot.messages import Chat, Reply, User
from bot.sessions import clocks, languages, loading, players, standings
from bot.sessions.languages import Speakers
from bot.sessions.services.base import Service, answered
from bot.sessions.validate import said, whole
from bot.storage import PlayerRow, RebuildSummary

__all__ = ["PlayerRow", "Players"]


class Players(Service):
    """The players and what they set."""

    async def player(self, user: User) -> PlayerRow:
        """The stored player for ``user`` (created on first contact)."""
        return await loading.player(self._ctx, user)

    async def find(self, platform: str, user_id: str) -> PlayerRow | None:
        """The stored player ``user_id`` of ``platform``, if they were ever seen (reads only,
        creating no one)."""
        return await self._ctx.store.find_player(platform, user_id)

    async def player_name(self, player_id: int) -> str | None:
        """The name of the player ``player_id`` (``None``: no such player)."""
        row = await self._ctx.store.get_player(player_id)
        return None if row is None else row.name

    async def settings(
        self, user: User, name: str | None = None, value: str = "", chat: Chat | None = None
    ) -> Reply:
        """Show your notification settings, or change one (see
        :func:`bot.sessions.players.settings`)."""
        return await answered(
            lambda: players.settings(
                self._ctx,
                user,
                None if name is None else said(name, "name"),
                said(value, "value"),
                chat,
            )
        )

    async def away(self, user: User, days: int | str) -> Reply:
        """Away for ``days`` days: the clocks of ``user``'s games stop."""
        return await answered(
            lambda: clocks.away(
                self._ctx,
                user,
                said(days, "days") if isinstance(days, str) else whole(days, "days"),
            )
        )

    async def back(self, user: User) -> Reply:
        """Back before the time away ends."""
        return await answered(lambda: clocks.back(self._ctx, user))

    async def speakers(
        self, user: User, chat: Chat, said: str | None = None, chat_default: str | None = None
    ) -> Speakers:
        """The languages of ``user`` asking in ``chat`` (see
        :func:`bot.sessions.languages.speakers`)."""
        return await languages.speakers(self._ctx, user, chat, said, chat_default)

    async def recipient_language(self, platform: str, user_id: str) -> str:
        """The language a notice to ``user_id`` is said in."""
        return await languages.recipient(self._ctx, platform, user_id)

    async def chat_language(self, platform: str, chat_id: str, default: str | None = None) -> str:
        """The language posts in ``chat_id`` are said in."""
        return await languages.chat(self._ctx, platform, chat_id, default)

    async def direct_reachable(self, user: User) -> None:
        """``user`` opened a private chat with the bot: direct messages the platform refused
        before may reach them now (the refusal remembered in ``players.dm_refused_at``)."""
        await self._ctx.store.direct_reachable(user.platform, user.user_id)

    async def direct_refused(self, user: User) -> None:
        """The platform refused a direct message to ``user``: remembered in the store
        (``players.dm_refused_at``), so no outbox tries again until they open a private chat
        with the bot (:meth:`direct_reachable`)."""
        player = await self.player(user)
        await self._ctx.store.direct_refused(player.id, self._ctx.now())

    async def leaderboard(
        self, user: User, chat: Chat, game: str, everywhere: bool = False
    ) -> Reply:
        """The top rated players of ``game`` (``maphex``, ``maphex 16``, ``isopath h5``,
        ``maphex16`` ...): this chat's community's ratings (from the rated games played in
        this group or server: ``chat.community``), or each player's best community rating
        when ``everywhere``.  Each line: rank, name, rating (``?`` while provisional), rated
        games."""

        async def run() -> Reply:
            await loading.player(self._ctx, user)
            return await standings.leaderboard(self._ctx, chat, said(game, "game"), everywhere)

        return await answered(run)

    async def stats(
        self, user: User, chat: Chat, player: User | None = None, *, bot: bool = False
    ) -> Reply:
        """A player's ratings and results (``user``'s own when ``player`` is ``None``); with
        ``bot``, the bot's: its levels' ratings in every pool."""
        if bot:
            return await answered(lambda: standings.bot_stats(self._ctx, chat))
        return await answered(lambda: standings.stats(self._ctx, user, chat, player))

    async def rebuild_ratings(self) -> RebuildSummary:
        """Every rating computed again from the rated games, in order."""
        return await standings.rebuild(self._ctx)
