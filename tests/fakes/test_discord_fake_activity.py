"""The fake Discord's rule for the Activity launch (interaction callback ``LAUNCH_ACTIVITY``,
type 12): "Only available for apps with Activities enabled" (Discord's Receiving and Responding,
Interaction Callback Type).  Discord documents the rule, not the error it answers: the fake
refuses with its answer to a response type the interaction may not have (400, 50035,
``INTERACTION_RESPONSE_TYPE_INVALID`` under ``type``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakes.base import DEFAULT_DEADLINE
from tests.fakes.discord_fake import (
    FakeDiscord,
    InteractionRecord,
    ResponseKind,
    point_discord_py_at,
)

GUILD_ID = 1_000
CHANNEL_ID = 1_001
ALICE = 2_001


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        guild = server.guild(GUILD_ID, "Hexhall")
        server.channel(guild, CHANNEL_ID, "games")
        server.member(guild, ALICE, "alice")
        with point_discord_py_at(server):
            yield server


@contextlib.asynccontextmanager
async def connected(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A bare discord.py client logged in to the fake (it answers no interaction itself)."""
    client = discord.Client(intents=discord.Intents.none(), guild_ready_timeout=0.05)
    task = asyncio.create_task(client.start(fake.token))
    try:
        await asyncio.wait_for(client.wait_until_ready(), DEFAULT_DEADLINE)
        yield client
    finally:
        await client.close()
        await task


async def _pressed(fake: FakeDiscord, http: aiohttp.ClientSession) -> InteractionRecord:
    """Alice presses a button of a message the bot posted (through REST, as a bot does)."""
    button = {"type": 2, "style": 2, "label": "Open board", "custom_id": "wb:1"}
    body = {"content": "board", "components": [{"type": 1, "components": [button]}]}
    url = f"{fake.api_base}/channels/{CHANNEL_ID}/messages"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with http.post(url, json=body, headers=headers) as answer:
        assert answer.status == 200, await answer.text()
        posted = await answer.json()
    return await fake.click(ALICE, fake.messages[int(posted["id"])], "wb:1")


async def _launch(
    fake: FakeDiscord, http: aiohttp.ClientSession, record: InteractionRecord
) -> tuple[int, Any]:
    url = f"{fake.api_base}/interactions/{record.id}/{record.token}/callback?with_response=true"
    async with http.post(url, json={"type": 12}) as answer:
        return answer.status, await answer.json()


async def test_launch_activity_is_refused_without_activities(fake: FakeDiscord) -> None:
    async with connected(fake), aiohttp.ClientSession() as http:
        record = await _pressed(fake, http)
        status, body = await _launch(fake, http, record)
    assert status == 400
    assert body["code"] == 50035
    assert body["errors"]["type"]["_errors"][0]["code"] == "INTERACTION_RESPONSE_TYPE_INVALID"
    assert record.response is None and not fake.launched


async def test_launch_activity_for_an_app_with_activities(fake: FakeDiscord) -> None:
    fake.enable_activities()
    async with connected(fake), aiohttp.ClientSession() as http:
        first = await _pressed(fake, http)
        status, body = await _launch(fake, http, first)
        assert status == 200, body
        assert body["resource"]["type"] == ResponseKind.LAUNCH_ACTIVITY
        instance = body["resource"]["activity_instance"]["id"]
        assert body["interaction"]["activity_instance_id"] == instance
        # A second launch in the channel joins the instance running there.
        second = await _pressed(fake, http)
        status, body = await _launch(fake, http, second)
        assert body["resource"]["activity_instance"]["id"] == instance
    assert [r.id for r, _ in fake.launched] == [first.id, second.id]
    assert first.response is not None and first.response.type == ResponseKind.LAUNCH_ACTIVITY


@pytest.mark.parametrize("activities", [False, True])
async def test_the_app_is_embedded_only_with_activities(
    fake: FakeDiscord, activities: bool
) -> None:
    """The application flags (at login and in READY): ``EMBEDDED`` (1 << 17) for an app
    with an Activity."""
    if activities:
        fake.enable_activities()
    async with connected(fake) as client:
        assert client.application_flags.embedded is activities


async def test_entry_point_commands_need_activities_and_are_global(fake: FakeDiscord) -> None:
    launch = {"name": "launch", "type": 4, "handler": 2, "description": ""}
    base = f"{fake.api_base}/applications/{fake.application_id}"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.put(f"{base}/commands", json=[launch]) as answer:
            assert answer.status == 400  # no Activities: no Entry Point command
        fake.enable_activities()
        (default,) = fake.synced[None]
        assert (default["type"], default["name"], default["handler"]) == (4, "launch", 2)
        async with http.put(f"{base}/guilds/{GUILD_ID}/commands", json=[launch]) as answer:
            assert answer.status == 400  # only global
        async with http.put(f"{base}/commands", json=[launch, {**launch, "name": "b"}]) as answer:
            assert answer.status == 400  # one per app
        async with http.put(f"{base}/commands", json=[{**launch, "handler": 3}]) as answer:
            assert answer.status == 400
        async with http.put(f"{base}/commands", json=[{**launch, "handler": 1}]) as answer:
            assert answer.status == 200
        assert [(c["type"], c["handler"]) for c in fake.synced[None]] == [(4, 1)]
