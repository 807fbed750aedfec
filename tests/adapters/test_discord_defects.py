"""The smaller Discord defects of issue 25, each through the real discord.py client against the
fake: no gateway intents, options of an outdated type or out of range, first:me in Maphex,
/move without its game, and a gateway failure that is no connection error."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import discord
import pytest

import engines
from bot.adapters.commands import REGISTRY
from bot.adapters.discord import DiscordUnavailable
from bot.adapters.discord.service import serve
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CHANNEL,
    DEADLINE,
    GUILD,
    Run,
    button,
    running,
)
from tests.fakes.discord_fake import FakeDiscord, StaleOption


@pytest.fixture
async def run(fake: FakeDiscord, tmp_path: Path) -> Any:
    async with running(fake, tmp_path / "hexhall.db") as started:
        yield started


async def test_no_gateway_intents(run: Run) -> None:
    """The bot identifies with no intents: everything it acts on arrives as an interaction,
    which Discord sends whatever the intents (GUILD_CREATE and messages are intent-gated, and
    the fake does not send them then); a game still goes from challenge to board."""
    [identify] = run.fake.calls_to("gateway IDENTIFY")
    assert identify.data["intents"] == 0
    card = await run.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
    await run.click(BOB, card, "Accept")
    await run.fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("challenge", {"game": "maphex", "opponent": StaleOption(3, "bob")}),
        ("challenge", {"game": "maphex", "rated": StaleOption(3, "no")}),
        ("challenge", {"game": "maphex", "size": StaleOption(3, "nine")}),
        ("stats", {"player": StaleOption(3, "bob")}),
        ("away", {"days": StaleOption(3, "three")}),
    ],
)
async def test_an_option_of_an_outdated_type_gets_a_clear_answer(
    run: Run, caplog: pytest.LogCaptureFixture, command: str, options: dict[str, Any]
) -> None:
    """A client with an old copy of a command sends an option in its old type (a name where
    a user now goes, "no" where a boolean does): a private one-liner says to reload Discord;
    nothing is created, nothing is logged as an error (it used to end in a traceback, or in
    a rated game for "rated: no")."""
    with caplog.at_level(logging.INFO):
        answer = await run.answer(ALICE, command, options, strict=False)
    assert answer.ephemeral
    assert answer.content.startswith(f"Your Discord shows an older version of /{command}")
    assert "reload Discord" in answer.content
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert await run.manager.store.pending_challenges(1, run.manager.clock.now()) == []


async def test_browse_out_of_range_names_the_option(run: Run) -> None:
    card = await run.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
    await run.click(BOB, card, "Accept")
    answer = await run.answer(ALICE, "browse", {"game": "1", "moves": -5}, strict=False)
    assert answer.ephemeral and answer.content == "moves is a whole number from 0 to 100000."
    assert "ply" not in answer.content


async def test_first_me_in_maphex_is_the_colour_that_moves_first(run: Run) -> None:
    """The option reads "Who moves first": in Maphex Blue opens, so first:me makes the
    challenger Blue, and the challenger's turn comes first."""
    schema = {c["name"]: c for c in run.fake.commands()}["challenge"]
    first = next(o for o in schema["options"] if o["name"] == "first")
    assert first["description"] == "Who moves first"
    card = await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB, "first": "me"})
    assert "the challenger plays Blue and opens" in card.content
    await run.click(BOB, card, "Accept")
    gid = int(button(card, "Board").split(":")[1])
    assert await run.to_move(gid) == ALICE
    assert engines.new("maphex").to_move == 1  # Blue, seat 1, opens


async def test_move_without_its_game_when_one_game_is_here(run: Run) -> None:
    card = await run.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
    await run.click(BOB, card, "Accept")
    gid = int(button(card, "Board").split(":")[1])
    mover = await run.to_move(gid)
    move = engines.new("pathagon").legal_moves()[0]
    board = await run.answer(mover, "move", {"move": move})
    assert not board.ephemeral and f"`{move}`" in board.content
    # With two games here, the game is asked for.
    other = await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB})
    await run.click(BOB, other, "Accept")
    asked = await run.answer(ALICE, "move", {"move": "e5"})
    assert asked.ephemeral and "#" in asked.content


async def test_a_gateway_error_that_is_no_connection_error_is_logged_with_its_stack(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord closing the gateway with 4014 (disallowed intents) ends discord.py with
    PrivilegedIntentsRequired, no connection error: the process stops with its stack in the
    log, not one bare line."""
    store = await SqliteStore.open(tmp_path / "hexhall.db")
    manager = SessionManager(store, pictures=False, rng=random.Random(7))
    try:
        task = asyncio.create_task(
            serve(
                manager,
                fake.token,
                asyncio.Event(),
                api_url=fake.api_base,
                gateway_url=str(fake.gateway_url),
                guild_ready_timeout=0.05,
            )
        )
        await fake.wait_connected(timeout=DEADLINE)
        await fake.wait_for(lambda c: c.method.startswith("PUT /applications"), timeout=DEADLINE)
        with caplog.at_level(logging.ERROR):
            await fake.drop_sessions(4014)
            with pytest.raises(DiscordUnavailable, match="PrivilegedIntentsRequired") as ended:
                await asyncio.wait_for(task, DEADLINE)
        assert isinstance(ended.value.__cause__, discord.PrivilegedIntentsRequired)
        # The stack is in the record (as text: the redactor keeps tracebacks as text only).
        [record] = [r for r in caplog.records if "the Discord client failed" in r.getMessage()]
        stack = record.exc_text or ""
        assert "Traceback" in stack and "PrivilegedIntentsRequired" in stack
    finally:
        await manager.close()
        await store.close()


async def test_commands_are_uploaded_only_when_they_changed(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Syncing on every start uploads the whole list each time (a crash loop would do it at
    every restart); the bot compares its list with the one Discord holds and uploads only a
    changed one."""
    put = "PUT /applications/{application_id}/commands"
    db = tmp_path / "hexhall.db"
    async with running(fake, db):
        pass
    assert len(fake.calls_to(put)) == 1
    async with running(fake, db):
        pass
    assert len(fake.calls_to(put)) == 1  # unchanged: looked at, not uploaded
    assert len(fake.calls_to("GET /applications/{application_id}/commands")) == 2
    fewer = [c for c in REGISTRY if c.name != "browse"]
    async with running(fake, db, registry=fewer) as run:
        assert len(fake.calls_to(put)) == 2
        assert "browse" not in {c["name"] for c in run.fake.commands()}


async def test_a_guild_sync_carries_no_global_only_fields(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """``contexts``, ``integration_types`` (and ``dm_permission``) are "only for
    globally-scoped commands": the development server's copy goes without them, and its
    commands answer there."""
    async with running(fake, tmp_path / "hexhall.db", guild_id=GUILD) as run:
        [call] = fake.calls_to("PUT /applications/{application_id}/guilds/{guild_id}/commands")
        body = call.data["body"]
        assert body and not any(
            set(c) & {"contexts", "integration_types", "dm_permission"} for c in body
        )
        assert fake.calls_to("PUT /applications/{application_id}/commands") == []
        rules = await run.answer(ALICE, "rules", {"game": "pathagon"}, channel=CHANNEL)
        assert rules.ephemeral and "Pathagon" in rules.content
