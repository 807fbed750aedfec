"""Shared pieces of the Discord adapter tests: the real :class:`DiscordBot` on a real SQLite
file, logged in to the fake Discord; helpers that act as users and wait for what the bot did."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.adapters.commands import REGISTRY, Command
from bot.adapters.discord import DiscordBot, DiscordSender
from bot.adapters.discord.format import PLATFORM
from bot.delivery.outbox import Outbox
from bot.delivery.recap import Recaps
from bot.messages import Chat, User
from bot.sessions.clock import Clock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from tests.fakes.base import ManualClock
from tests.fakes.discord_fake import (
    FakeDiscord,
    InteractionRecord,
    ResponseKind,
    StoredMessage,
    point_discord_py_at,
)

GUILD = 1_000
CHANNEL = 1_001
ALICE = 2_001
BOB = 2_002
CAROL = 2_003
#: What the bot does may take a while under load (board pictures): wait this long.
DEADLINE = 20.0


@contextlib.asynccontextmanager
async def fake_discord(clock: ManualClock | None = None) -> AsyncIterator[FakeDiscord]:
    """The fake with one server (#games) where Alice, Bob and Carol are members; ``clock``
    times its interaction tokens (see :class:`FakeDiscord`)."""
    async with FakeDiscord(clock=clock) as fake:
        guild = fake.guild(GUILD, "Hexhall")
        fake.channel(guild, CHANNEL, "games")
        for uid, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")):
            fake.member(guild, uid, name)
        with point_discord_py_at(fake):
            yield fake


@dataclass
class Run:
    """A running bot, its manager and the fake it talks to."""

    fake: FakeDiscord
    bot: DiscordBot
    manager: SessionManager

    async def slash(
        self, user: int, command: str, options: dict[str, Any] | None = None, **kw: Any
    ) -> InteractionRecord:
        """``user`` runs a slash command in #games (or ``channel=``); waits for the answer."""
        channel = kw.pop("channel", CHANNEL)
        record = await self.fake.slash(user, channel, command, options, **kw)
        await self.fake.response(record, timeout=DEADLINE)
        return record

    async def answer(
        self, user: int, command: str, options: dict[str, Any] | None = None, **kw: Any
    ) -> StoredMessage:
        """The (loaded) message answering ``user``'s slash command."""
        record = await self.slash(user, command, options, **kw)
        return await self.fake.original(record, timeout=DEADLINE)

    async def click(self, user: int, message: StoredMessage, label: str) -> InteractionRecord:
        """``user`` presses the button called ``label``; waits for the first response."""
        edits = message.edits
        record = await self.fake.click(user, message, button(message, label))
        response = await self.fake.response(record, timeout=DEADLINE)
        if response.type == ResponseKind.DEFERRED_UPDATE_MESSAGE:
            # A busy bot deferred: wait for what it then did (an edit, or a new message).
            await self.fake.wait_until(
                lambda: message.edits > edits or bool(record.followups), timeout=DEADLINE
            )
        elif response.type == ResponseKind.DEFERRED_CHANNEL_MESSAGE:
            await self.fake.original(record, timeout=DEADLINE)
        return record

    async def autocomplete(
        self, user: int, command: str, options: dict[str, Any], focused: str
    ) -> list[dict[str, Any]]:
        """The choices the bot offers ``user`` typing option ``focused``."""
        return await self.fake.autocomplete(
            user, CHANNEL, command, options, focused=focused, timeout=DEADLINE
        )

    async def to_move(self, game_id: int) -> int:
        """The Discord id of the player to move in a game."""
        player = await self.manager.games.player_to_move(game_id)
        assert player is not None, f"nobody is to move in #{game_id}"
        return int(player.user_id)


def button(message: StoredMessage, label: str) -> str:
    """The custom id of the button called ``label`` on a message as it is now."""
    for component in message.walk_components():
        if component.get("type") == 2 and component.get("label") == label:
            return str(component["custom_id"])
    raise AssertionError(f"no button {label!r} (has {labels(message)})")


def labels(message: StoredMessage) -> list[str]:
    """The labels of a message's buttons as it is now."""
    return [str(c.get("label")) for c in message.walk_components() if c.get("type") == 2]


def as_user(uid: int, name: str) -> User:
    """The manager's user for a fake Discord user."""
    return User(PLATFORM, str(uid), name)


def as_chat(channel: int = CHANNEL) -> Chat:
    """The manager's chat for a channel."""
    return Chat(PLATFORM, str(channel))


@contextlib.asynccontextmanager
async def running(
    fake: FakeDiscord,
    path: Path,
    *,
    pictures: bool = False,
    sync: bool = True,
    outbox: bool = False,
    defer_after: float = 1.5,
    clock: Clock | None = None,
    registry: Sequence[Command] = REGISTRY,
    guild_id: int | None = None,
    poll: float = 0.2,
) -> AsyncIterator[Run]:
    """The bot on a fresh manager over the SQLite file ``path``, logged in to ``fake``; with
    ``outbox``, its notifications are delivered through the outbox as in production (looking
    every ``poll`` seconds when nothing wakes it);
    ``clock`` is the manager's (and the outbox's) clock; ``guild_id`` syncs the commands to
    that one server."""
    async with contextlib.AsyncExitStack() as stack:
        store = await SqliteStore.open(path)
        stack.push_async_callback(store.close)
        manager = SessionManager(store, clock, pictures=pictures, rng=random.Random(7))
        stack.push_async_callback(manager.close)
        box = Outbox(manager.store, manager.clock, poll=poll, bell=manager.bell) if outbox else None
        bot = DiscordBot(
            manager,
            outbox=box,
            sync_commands=sync,
            defer_after=defer_after,
            guild_ready_timeout=0.05,
            registry=registry,
            guild_id=guild_id,
        )
        await bot.login(fake.token)
        task = asyncio.create_task(bot.connect())
        stack.push_async_callback(_stop, bot, task)
        ready = asyncio.create_task(bot.wait_until_ready())
        await asyncio.wait({task, ready}, timeout=DEADLINE, return_when="FIRST_COMPLETED")
        if task.done():
            task.result()
        assert ready.done(), "the bot did not get ready"
        if box is not None:
            stop = asyncio.Event()
            sender = DiscordSender(bot, Recaps(store))
            delivery = asyncio.create_task(box.run(PLATFORM, sender, stop=stop))

            async def end_delivery() -> None:
                stop.set()
                await delivery

            stack.push_async_callback(end_delivery)
        yield Run(fake, bot, manager)


async def _stop(bot: DiscordBot, task: asyncio.Task[None]) -> None:
    await bot.close()
    await task
