"""Shared pieces of the Discord Activity's tests: the real Discord adapter on the fake Discord
(with its outbox), the web board with the Activity on the same manager, and the fake OAuth2
token endpoint the Activity's sign-in is exchanged at."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from bot.webboard import WebBoard, serve_web
from bot.webboard.activity import ActivityConfig
from tests.adapters import discord_kit
from tests.adapters.discord_kit import ALICE, BOB, Run, fake_discord
from tests.fakes.discord_fake import FakeDiscord, StoredMessage
from tests.fakes.discord_oauth import FakeDiscordOAuth

#: The outbox's own poll: only a wake-up delivers a web move in time.
HOUR = 3600.0


@dataclass
class Activity:
    """A bot on the fake Discord with its web board (the Activity on): ``url`` is the board."""

    fake: FakeDiscord
    run: Run
    board: WebBoard
    oauth: FakeDiscordOAuth

    @property
    def url(self) -> str:
        """The board's base address (where Discord's URL mapping ``/`` points)."""
        return self.board.public_url

    async def game(self, game: str = "pathagon") -> tuple[int, StoredMessage]:
        """A game between Alice and Bob in #games, and its board in the channel."""
        card = await self.run.answer(ALICE, "challenge", {"game": game, "opponent": BOB})
        await self.run.click(BOB, card, "Accept")
        return int(discord_kit.button(card, "Board").split(":")[1]), card


@contextlib.asynccontextmanager
async def activity(
    path: Path, *, activities: bool = True, launches: bool = True, mock: bool = True
) -> AsyncIterator[Activity]:
    """The bot on ``path`` with its web board and the Activity: ``activities`` is whether the
    app has Activities enabled at Discord, ``launches`` whether the bot answers "Open board"
    with the Activity (``HEXHALL_DISCORD_ACTIVITY``), ``mock`` whether the page uses the SDK's
    mock (always, outside Discord's client)."""
    async with FakeDiscordOAuth() as oauth, fake_discord() as fake:
        if activities:
            fake.enable_activities()  # before the bot syncs its commands, as in production
        async with discord_kit.running(fake, path, outbox=True, poll=HOUR) as run:
            run.bot.open_in_activity = launches
            config = ActivityConfig(oauth.client_id, oauth.client_secret, oauth.api_base, mock)
            board = WebBoard(run.manager, "http://127.0.0.1", link_secret="x", activity=config)
            endpoint = await serve_web(board, "127.0.0.1", 0)
            board.public_url = f"http://127.0.0.1:{endpoint.port}"
            run.manager.web_pages = board
            try:
                yield Activity(fake, run, board, oauth)
            finally:
                run.manager.web_pages = None
                await endpoint.close()
