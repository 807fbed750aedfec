"""Discord's gateway shards spread over processes: ``DISCORD_SHARD_COUNT`` and
``DISCORD_SHARD_IDS``, and two bots (each :func:`bot.adapters.discord.serve` on its own
manager over one SQLite file) with one shard each of two, against the fake Discord routing
every server's events to the shard that holds it.

The two-process test on PostgreSQL lives elsewhere; here both "processes" share one event
loop, which is enough to show who receives what and who sends what."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot.adapters.discord import DiscordUnavailable, ShardedDiscordBot, build_bot, serve
from bot.adapters.discord.format import PLATFORM
from bot.config import ConfigError, settings
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from tests.adapters.discord_kit import ALICE, BOB, CAROL, DEADLINE, button
from tests.fakes.discord_fake import (
    FakeDiscord,
    InteractionRecord,
    StoredMessage,
    guild_on_shard,
    point_discord_py_at,
    shard_of,
)

SHARDS = 2
#: Server A is on shard 0, server B on shard 1.
GUILD_A = guild_on_shard(0, SHARDS)
GUILD_B = guild_on_shard(1, SHARDS)
CHANNEL_A = 5_001
CHANNEL_B = 5_002
SYNC = "PUT /applications/{application_id}/commands"


@dataclass
class Process:
    """One bot "process": its manager, its stop switch and the running :func:`serve`."""

    manager: SessionManager
    stop: asyncio.Event
    task: asyncio.Task[None]

    async def end(self) -> None:
        """Stop it and wait until it has closed its gateway connection."""
        self.stop.set()
        await self.task


@contextlib.asynccontextmanager
async def sharded_fake() -> AsyncIterator[FakeDiscord]:
    """The fake recommending two shards, with server A (#a-games) on shard 0 and server B
    (#b-games) on shard 1; Alice, Bob and Carol are members of both."""
    async with FakeDiscord(shard_count=SHARDS) as fake:
        for guild_id, channel_id, name in ((GUILD_A, CHANNEL_A, "A"), (GUILD_B, CHANNEL_B, "B")):
            guild = fake.guild(guild_id, f"Hall {name}")
            fake.channel(guild, channel_id, f"{name.lower()}-games")
            for uid, who in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")):
                fake.member(guild, uid, who)
        with point_discord_py_at(fake):
            yield fake


@contextlib.asynccontextmanager
async def process(
    fake: FakeDiscord, db: Path, clock: FakeClock, shard_ids: Sequence[int] | None
) -> AsyncIterator[Process]:
    """A bot running ``shard_ids`` of two on its own manager over ``db``; yields once its
    shards have identified (stopped on exit if the test did not stop it)."""
    async with contextlib.AsyncExitStack() as stack:
        store = await SqliteStore.open(db)
        stack.push_async_callback(store.close)
        manager = SessionManager(store, clock, pictures=False, rng=random.Random(7))
        stack.push_async_callback(manager.close)
        stop = asyncio.Event()
        task = asyncio.create_task(
            serve(
                manager,
                fake.token,
                stop,
                api_url=fake.api_base,
                gateway_url=str(fake.gateway_url),
                guild_ready_timeout=0.05,
                shard_count=SHARDS,
                shard_ids=shard_ids,
            )
        )
        proc = Process(manager, stop, task)
        stack.push_async_callback(proc.end)
        wanted = range(SHARDS) if shard_ids is None else shard_ids
        waiting = asyncio.create_task(fake.wait_shards(*wanted, timeout=DEADLINE))
        await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            waiting.cancel()
            task.result()  # raises what made it end
            raise AssertionError("the bot ended before its shards identified")
        await waiting
        yield proc


async def answered(fake: FakeDiscord, record: InteractionRecord) -> StoredMessage:
    """The loaded answer to an interaction."""
    await fake.response(record, timeout=DEADLINE)
    return await fake.original(record, timeout=DEADLINE)


def notes_in(fake: FakeDiscord, channel: int) -> list[StoredMessage]:
    """The bot's channel messages that are not interaction answers (the outbox's)."""
    return [m for m in fake.messages_in(channel) if m.interaction_id is None]


async def test_each_process_gets_and_answers_only_the_servers_on_its_shard(
    tmp_path: Path,
) -> None:
    db, clock = tmp_path / "hexhall.db", FakeClock()
    async with (
        sharded_fake() as fake,
        process(fake, db, clock, [0]) as first,
        process(fake, db, clock, [1]),
    ):
        identified = sorted(c.data["shard"] for c in fake.calls_to("gateway IDENTIFY"))
        assert identified == [[0, SHARDS], [1, SHARDS]]
        [zero], [one] = fake.sessions_on(0), fake.sessions_on(1)
        assert (zero.guilds, one.guilds) == ({GUILD_A}, {GUILD_B})
        # Only the process running shard 0 syncs the command tree, once.
        await fake.wait_until(lambda: len(fake.commands()) >= 10, timeout=DEADLINE)
        assert [c.response["status"] for c in fake.calls_to(SYNC)] == [200]

        in_a = await fake.slash(ALICE, CHANNEL_A, "games", {})
        in_b = await fake.slash(BOB, CHANNEL_B, "games", {})
        in_dm = await fake.slash(CAROL, fake.dm_channel(CAROL), "games", {})
        assert (in_a.shards, in_b.shards, in_dm.shards) == ([0], [1], [0])
        for record in (in_a, in_b, in_dm):
            answer = await answered(fake, record)
            assert answer.content == "You have no games yet: challenge someone!"
            # One process got it, so one answered: no second (refused) response.
            assert [a.status for a in record.attempts] == [200]

        # With shard 0's process gone, server A's commands reach nobody; server B's are
        # still answered by shard 1's process.
        await first.end()
        await fake.wait_until(lambda: not fake.sessions_on(0), timeout=DEADLINE)
        lost = await fake.slash(ALICE, CHANNEL_A, "games", {})
        kept = await fake.slash(ALICE, CHANNEL_B, "games", {})
        assert (lost.shards, kept.shards) == ([], [1])
        assert "no games yet" in (await answered(fake, kept)).content
        assert lost.attempts == []


async def test_a_server_s_notifications_go_out_once_from_a_process_without_its_shard(
    tmp_path: Path,
) -> None:
    db, clock = tmp_path / "hexhall.db", FakeClock()
    async with (
        sharded_fake() as fake,
        process(fake, db, clock, [0]) as first,
        process(fake, db, clock, [1]) as second,
    ):
        await fake.wait_until(lambda: len(fake.commands()) >= 10, timeout=DEADLINE)
        for uid in (ALICE, BOB):
            quiet = await answered(
                fake,
                await fake.slash(uid, CHANNEL_A, "settings", {"setting": "dm", "value": "off"}),
            )
            assert quiet.ephemeral
        # A game in server A (shard 0), with a day per move; both processes deliver.
        card = await answered(
            fake,
            await fake.slash(
                ALICE, CHANNEL_A, "challenge", {"game": "pathagon", "opponent": BOB, "days": "1"}
            ),
        )
        click = await fake.click(BOB, card, button(card, "Accept"))
        await fake.response(click, timeout=DEADLINE)
        assert click.shards == [0]
        gid = int(button(card, "Board").split(":")[1])
        # The card and the first board (answers) are the channel's notices (issue 24): with
        # direct messages off nothing else is queued for the channel.
        assert await first.manager.store.due_notifications(PLATFORM, clock.now()) == []

        # Server A's shard goes down; shard 1's process never had server A in its cache.
        await first.end()
        assert fake.sessions_on(1)[0].guilds == {GUILD_B}
        player = await second.manager.games.player_to_move(gid)
        assert player is not None
        # The reminder falls due: shard 1's process queues it and delivers it by REST.
        clock.advance(hours=22)
        assert await second.manager.sweep() >= 1
        reminder = await fake.wait_message(
            lambda m: (
                m.interaction_id is None and m.content.startswith(f"<@{player.user_id}>: Reminder")
            ),
            timeout=DEADLINE,
        )
        assert reminder.channel_id == CHANNEL_A
        assert reminder.pinged_users == {int(player.user_id)}
        assert f"#{gid}" in reminder.content
        # The game's one notification went out exactly once, whoever claimed it.
        contents = [m.content for m in notes_in(fake, CHANNEL_A)]
        assert len(contents) == 1 and "Reminder" in contents[0], contents
        assert notes_in(fake, CHANNEL_B) == []


async def test_the_process_running_every_shard_syncs_and_holds_both_servers(
    tmp_path: Path,
) -> None:
    async with (
        sharded_fake() as fake,
        process(fake, tmp_path / "hexhall.db", FakeClock(), None),
    ):
        assert sorted(s.shard for s in fake.sessions) == [(0, SHARDS), (1, SHARDS)]
        await fake.wait_until(lambda: len(fake.commands()) >= 10, timeout=DEADLINE)
        for channel in (CHANNEL_A, CHANNEL_B):
            record = await fake.slash(ALICE, channel, "games", {})
            assert record.shards == [shard_of(fake.channels[channel].guild_id, SHARDS)]
            assert "no games yet" in (await answered(fake, record)).content
        assert len(fake.calls_to(SYNC)) == 1


async def test_the_bot_is_sharded_only_with_a_shard_count(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "hexhall.db")
    manager = SessionManager(store, FakeClock(), pictures=False)
    try:
        plain = build_bot(manager)
        assert not isinstance(plain, discord.AutoShardedClient) and plain.sync_commands
        one = build_bot(manager, shard_count=4, shard_ids=[3, 1])
        assert isinstance(one, ShardedDiscordBot)
        assert (one.shard_count, one.shard_ids, one.sync_commands) == (4, [3, 1], False)
        every = build_bot(manager, shard_count=4)
        assert isinstance(every, ShardedDiscordBot) and every.shard_ids is None
        assert every.sync_commands
        with pytest.raises(ValueError, match="shard_ids need a shard_count"):
            build_bot(manager, shard_ids=[0])
        with pytest.raises(ValueError, match=r"shard_ids must be some of 0 to 1, not \[2\]"):
            build_bot(manager, shard_count=2, shard_ids=[2])
    finally:
        await manager.close()
        await store.close()


async def test_a_sharded_bot_with_a_wrong_token_fails_in_one_line(tmp_path: Path) -> None:
    async with sharded_fake() as fake:
        store = await SqliteStore.open(tmp_path / "hexhall.db")
        manager = SessionManager(store, FakeClock(), pictures=False)
        try:
            with pytest.raises(DiscordUnavailable, match=r"^Discord refused the token"):
                await serve(
                    manager,
                    "not-the-token",
                    asyncio.Event(),
                    api_url=fake.api_base,
                    gateway_url=str(fake.gateway_url),
                    shard_count=SHARDS,
                    shard_ids=[1],
                )
        finally:
            await manager.close()
            await store.close()
        assert fake.calls_to("gateway IDENTIFY") == []


# ---- the fake's side of sharding


async def test_fake_recommends_its_shard_count_and_refuses_an_invalid_shard() -> None:
    async with sharded_fake() as fake, aiohttp.ClientSession() as http:
        auth = {"Authorization": f"Bot {fake.token}"}
        async with http.get(f"{fake.api_base}/gateway/bot", headers=auth) as response:
            assert (await response.json())["shards"] == SHARDS
        async with http.ws_connect(fake.gateway_url) as ws:
            hello = await ws.receive_json()
            assert hello["op"] == 10
            identify: dict[str, Any] = {"token": fake.token, "intents": 0, "shard": [2, 2]}
            await ws.send_json({"op": 2, "d": identify})
            closed = await ws.receive()
            assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4010
        assert fake.sessions == []


def test_guild_ids_land_on_the_shard_asked_for() -> None:
    ids = {guild_on_shard(s, 3, n) for s in range(3) for n in range(4)}
    assert len(ids) == 12
    assert all(shard_of(guild_on_shard(s, 3, n), 3) == s for s in range(3) for n in range(4))
    with pytest.raises(ValueError, match=r"shard 3 is not one of 0\.\.2"):
        guild_on_shard(3, 3)


# ---- settings


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("", "", (None, None)),
        ("4", "", (4, None)),
        (" 4 ", "0,2", (4, (0, 2))),
        ("4", " 3 , 1 ", (4, (3, 1))),
        ("1", "0", (1, (0,))),
    ],
)
def test_shard_settings(count: str, ids: str, expected: tuple[Any, Any]) -> None:
    got = settings({"DISCORD_SHARD_COUNT": count, "DISCORD_SHARD_IDS": ids})
    assert (got.discord_shard_count, got.discord_shard_ids) == expected


def test_shard_settings_default_to_no_sharding() -> None:
    got = settings({})
    assert (got.discord_shard_count, got.discord_shard_ids) == (None, None)


COUNT_IS = "DISCORD_SHARD_COUNT must be a whole number of shards, 1 or more, not "
IDS_ARE = "DISCORD_SHARD_IDS must be shard numbers separated by commas (e.g. 0,2), not "


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [
        ("0", "", COUNT_IS + "'0'"),
        ("two", "", COUNT_IS + "'two'"),
        ("-2", "", COUNT_IS + "'-2'"),
        ("\u00b2", "", COUNT_IS + "'\u00b2'"),  # a superscript two is a digit to str.isdigit
        ("1000000", "", COUNT_IS + "'1000000'"),
        ("", "0", "DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT (how many shards there are in all)"),
        ("2", "0,2", "DISCORD_SHARD_IDS names shard 2, but with DISCORD_SHARD_COUNT=2 the "
         "shards are 0 to 1"),
        ("4", "1,3,1", "DISCORD_SHARD_IDS names shard 1 twice"),
        ("4", "0,,1", IDS_ARE + "'0,,1'"),
        ("4", "0;1", IDS_ARE + "'0;1'"),
        ("4", "-1", IDS_ARE + "'-1'"),
        ("4", "0,1,", IDS_ARE + "'0,1,'"),
    ],
)  # fmt: skip
def test_bad_shard_settings_are_refused(count: str, ids: str, message: str) -> None:
    with pytest.raises(ConfigError) as refused:
        settings({"DISCORD_SHARD_COUNT": count, "DISCORD_SHARD_IDS": ids})
    assert str(refused.value) == message
