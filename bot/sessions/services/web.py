"""The web board's and Discord Activity's needs: a game's page (its slug, its view, its
version, how many watch it), a player's next game, and the actions made on the page."""

from __future__ import annotations

from datetime import timedelta

from bot.messages import Chat, Reply, User
from bot.sessions import pageactions, webview
from bot.sessions.context import Context, checked_id
from bot.sessions.launches import Launches
from bot.sessions.services.base import Service, answered, or_else
from bot.sessions.validate import said
from bot.sessions.webview import GameView
from bot.storage import BadRow

__all__ = ["Web"]

#: The longest slug a page address may hold (longer ones name no page, unread).
SLUG_LIMIT = 64


class Web(Service):
    """A game's web page and what is done there."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # Which game each person last opened in Discord's Activity (bot.sessions.launches).
        self._launches = Launches()

    async def web_link(self, user: User, chat: Chat, game_id: int) -> Reply:
        """The answer to "Open board": ``user``'s own link to the game's page."""
        return await answered(
            lambda: webview.web_link(self._ctx, user, chat, checked_id(game_id, "game"))
        )

    async def web_view(self, game_id: int) -> GameView | None:
        """What game ``game_id``'s web page shows (:mod:`~bot.sessions.webview`), ``None``
        if there is no such game."""
        return await or_else(
            lambda: webview.game_view(self._ctx, checked_id(game_id, "game")), None
        )

    async def next_turn(self, player_id: int, game_id: int) -> int | None:
        """The game other than the one named where it is the player's turn (the web board's
        "next game" link; :func:`~bot.sessions.webview.next_turn`)."""
        return await webview.next_turn(self._ctx, player_id, game_id)

    async def page_action(
        self,
        user: User,
        chat: Chat,
        game_id: int,
        action: str,
        answer: str = "",
        confirm: bool = False,
    ) -> Reply:
        """A player's resign, draw or takeback made on the web board's page, told in the
        game's chat too (:func:`~bot.sessions.pageactions.page_action`)."""
        return await answered(
            lambda: pageactions.page_action(
                self._ctx,
                user,
                chat,
                checked_id(game_id, "game"),
                said(action, "action"),
                said(answer, "answer"),
                confirm,
            )
        )

    async def slug(self, game_id: int) -> str:
        """The slug of game ``game_id``'s page (made on first use; it never changes)."""
        return await self._ctx.store.web_slug(game_id, self._ctx.now())

    async def game_at(self, slug: str) -> int | None:
        """The game whose page is at ``slug`` (``None``: no such page)."""
        return None if len(slug) > SLUG_LIMIT else await self._ctx.store.game_of_slug(slug)

    async def version(self, game_id: int) -> int | None:
        """Game ``game_id``'s version (it changes with every change of the game; ``None``: no
        such game, or set aside as damaged)."""
        try:
            row = await self._ctx.store.get_game(game_id)
        except BadRow:
            return None
        return None if row is None else row.version

    async def watch_count(self, game_id: int, worker: str, watchers: int, ttl: timedelta) -> int:
        """Record that ``worker`` has ``watchers`` pages of ``game_id`` open (for ``ttl``), and
        how many watch it in all processes."""
        now = self._ctx.now()
        return await self._ctx.store.watch_count(game_id, worker, watchers, now + ttl, now)

    def launched(self, user: User, game_id: int) -> None:
        """``user`` opened game ``game_id`` in Discord's Activity: its page, once they are
        signed in, opens that game first (:mod:`~bot.sessions.launches`)."""
        self._launches.remember(user, game_id, self._ctx.now())

    def launched_game(self, user: User) -> int | None:
        """The game ``user`` last opened in Discord's Activity, if they did lately."""
        return self._launches.last(user, self._ctx.now())
