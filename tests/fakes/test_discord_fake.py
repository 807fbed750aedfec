"""The fake Discord against the real discord.py 2.7 client: login and gateway, command sync,
slash commands, autocomplete, views, dynamic items across a restart, deferral and followups,
and the limits and errors the fake enforces."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from collections.abc import AsyncIterator
from typing import Any, cast

import aiohttp
import discord
import discord.gateway
import discord.http
import discord.webhook.async_
import pytest
import yarl
from discord import app_commands

from tests.fakes.base import DEFAULT_DEADLINE, ManualClock
from tests.fakes.discord_fake import (
    CREATE_MESSAGE,
    DiscordLimits,
    FakeDiscord,
    ImpossibleInteraction,
    InteractionContext,
    ResponseKind,
    ResponseRefused,
    point_discord_py_at,
)

GUILD_ID = 1_000
CHANNEL_ID = 1_001
ALICE = 2_001
BOB = 2_002
#: Not a real PNG: the fake and the test only compare the bytes.
BOARD_BYTES = b"\x89PNG\r\n\x1a\n" + bytes(range(256))


class Board(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"board:(?P<game>[0-9]+)"
):
    """A persistent button: works after a restart through its custom id alone."""

    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Board", style=discord.ButtonStyle.secondary, custom_id=f"board:{game}"
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[discord.ui.View],
        match: re.Match[str],
    ) -> Board:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast(Bot, interaction.client)
        await interaction.response.send_message(f"board of game {self.game}", ephemeral=True)
        await bot.outcomes.put(("board", self.game, interaction.user.id))


class GameView(discord.ui.View):
    """A View stored under the response's message id (not persistent)."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Resign", style=discord.ButtonStyle.danger, custom_id="resign")
    async def resign(
        self, interaction: discord.Interaction, button: discord.ui.Button[GameView]
    ) -> None:
        assert interaction.message is not None
        await interaction.response.edit_message(content="resigned", view=None)
        await self.bot.outcomes.put(("resign", interaction.user.id, interaction.message.id))


class Bot(discord.Client):
    """A tiny bot with the kinds of commands the adapter will have."""

    def __init__(self, intents: discord.Intents | None = None) -> None:
        super().__init__(intents=intents or discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.ready = asyncio.Event()
        #: Blocks /wait until the test opens it (the 3-second rule).
        self.gate = asyncio.Event()
        #: What the handlers did or caught, in order.
        self.outcomes: asyncio.Queue[Any] = asyncio.Queue()
        #: The task running ``start()`` (set by ``running``).
        self.start_task: asyncio.Task[None] | None = None
        self.add_dynamic_items(Board)
        self._add_commands()

    async def on_ready(self) -> None:
        self.ready.set()

    async def next_outcome(self) -> Any:
        """The next thing a handler reported; fails at once if the client itself crashed."""
        getter = asyncio.create_task(self.outcomes.get())
        watched = {getter} if self.start_task is None else {getter, self.start_task}
        await asyncio.wait(watched, timeout=DEFAULT_DEADLINE, return_when="FIRST_COMPLETED")
        if not getter.done():
            getter.cancel()
            if self.start_task is not None and self.start_task.done():
                self.start_task.result()  # raises what ended the client
            raise AssertionError("no outcome within the deadline")
        return getter.result()

    def _add_commands(self) -> None:
        self._add_game_commands()
        self._add_answer_commands()

    def _add_game_commands(self) -> None:
        """Commands with options: a move (choices, autocomplete), typed options, a slow one."""
        tree = self.tree

        async def game_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            if current == "gate":
                await self.gate.wait()
            if current == "many":
                return [app_commands.Choice(name=f"game {i}", value=str(i)) for i in range(26)]
            games = [g for g in ("12", "13", "120") if g.startswith(current)]
            return [app_commands.Choice(name=f"game {g}", value=g) for g in games]

        @tree.command(name="move", description="Play a move")
        @app_commands.describe(game="Game number", side="Your side")
        @app_commands.choices(
            side=[
                app_commands.Choice(name="Black", value="black"),
                app_commands.Choice(name="White", value="white"),
            ]
        )
        @app_commands.autocomplete(game=game_autocomplete)
        @app_commands.guild_only()
        async def move(
            interaction: discord.Interaction,
            game: str,
            side: app_commands.Choice[str] | None = None,
        ) -> None:
            view = GameView(self)
            view.add_item(Board(int(game)))
            await interaction.response.send_message(
                f"{interaction.user.mention} to move, <@{BOB}> waits. @everyone",
                file=discord.File(io.BytesIO(BOARD_BYTES), filename="board.png"),
                embed=discord.Embed(title=f"Game {game}").set_image(url="attachment://board.png"),
                view=view,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[interaction.user]
                ),
            )
            await self.outcomes.put(("move", game, None if side is None else side.value))

        @tree.command(name="typed", description="Options of every kind the fake sends")
        async def typed(
            interaction: discord.Interaction,
            count: app_commands.Range[int, 1, 9],
            flag: bool,
            ratio: float,
            who: discord.Member,
        ) -> None:
            await interaction.response.send_message("ok", ephemeral=True)
            await self.outcomes.put((count, flag, ratio, who.id, who.display_name))

        @tree.command(name="slow", description="Think, then answer")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("done")
            second = await interaction.followup.send("second", wait=True)
            await interaction.edit_original_response(content="done, edited")
            original = await interaction.original_response()
            await second.delete()
            await self.outcomes.put(("slow", original.content, second.content))

    def _add_answer_commands(self) -> None:
        """Commands that answer late, twice, in bursts or anywhere."""
        tree = self.tree

        @tree.command(name="wait", description="Answer when the test allows")
        async def wait(interaction: discord.Interaction) -> None:
            await self.gate.wait()
            try:
                await interaction.response.send_message("late")
            except discord.NotFound as error:
                await self.outcomes.put(error)

        @tree.command(name="ping", description="Answer twice")
        async def ping(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("pong")
            except discord.HTTPException as error:
                await self.outcomes.put(error)
                return
            try:
                await interaction.response.send_message("again")
            except discord.InteractionResponded as error:
                await self.outcomes.put(error)

        @tree.command(name="dm", description="Write to a player")
        async def dm(interaction: discord.Interaction, target: discord.User) -> None:
            try:
                await target.send("Your move")
            except discord.Forbidden as error:
                await interaction.response.send_message("cannot DM", ephemeral=True)
                await self.outcomes.put(error)
            else:
                await interaction.response.send_message("sent", ephemeral=True)
                await self.outcomes.put("sent")

        @tree.command(name="burst", description="Answer, then followups until refused")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def burst(interaction: discord.Interaction, count: int) -> None:
            await interaction.response.send_message("first")
            sent = 0
            try:
                for i in range(count):
                    await interaction.followup.send(f"followup {i}")
                    sent += 1
            except discord.HTTPException as error:
                await self.outcomes.put((sent, error))
                return
            await self.outcomes.put((sent, None))

        @tree.command(name="later", description="Answer now, edit when the test allows")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("now")
            await self.gate.wait()
            try:
                await interaction.edit_original_response(content="later")
            except discord.HTTPException as error:
                await self.outcomes.put(error)
                return
            await self.outcomes.put("edited")

        @tree.command(name="hello", description="Works anywhere")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def hello(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("hello")
            context = interaction.context
            where = "guild" if context.guild else "dm" if context.dm_channel else "private"
            await self.outcomes.put((type(interaction.user).__name__, interaction.guild_id, where))


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        guild = server.guild(GUILD_ID, "Hexhall")
        server.channel(guild, CHANNEL_ID, "games")
        server.member(guild, ALICE, "alice")
        server.member(guild, BOB, "bob")
        with point_discord_py_at(server):
            yield server


@contextlib.asynccontextmanager
async def running(
    fake: FakeDiscord, *, sync: bool = True, intents: discord.Intents | None = None
) -> AsyncIterator[Bot]:
    """A started bot (READY and GUILD_CREATE handled), closed on exit."""
    bot = Bot(intents)
    task = bot.start_task = asyncio.create_task(bot.start(fake.token))
    ready = asyncio.create_task(bot.ready.wait())
    try:
        await asyncio.wait({task, ready}, timeout=DEFAULT_DEADLINE, return_when="FIRST_COMPLETED")
        if task.done():
            task.result()  # a failed start raises here
        assert bot.ready.is_set(), "the bot did not get ready"
        if sync:
            await bot.tree.sync()
        yield bot
    finally:
        ready.cancel()
        await bot.close()
        await task


def test_canary_discord_py_url_settings() -> None:
    """The two internals the fake relies on exist with their defaults, and build the URLs."""
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    assert yarl.URL("wss://gateway.discord.gg/") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    # Interaction callbacks and followups go through the webhook adapter: same Route class.
    assert discord.webhook.async_.Route is discord.http.Route
    route = discord.http.Route("GET", "/users/{user_id}", user_id=7)
    assert route.url == "https://discord.com/api/v10/users/7"


async def test_pointing_is_restored(fake: FakeDiscord) -> None:
    assert discord.http.Route("GET", "/users/@me").url == f"{fake.url}/api/v10/users/@me"
    assert fake.gateway_url == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    with point_discord_py_at(FakeDiscord()):
        pass
    assert fake.api_base == discord.http.Route.BASE


async def test_login_ready_and_guild_create(fake: FakeDiscord) -> None:
    async with running(fake, sync=False) as bot:
        assert bot.user is not None and bot.user.id == fake.bot.id
        assert bot.application_id == fake.application_id
        guild = bot.get_guild(GUILD_ID)
        assert guild is not None and guild.name == "Hexhall"
        channel = guild.get_channel(CHANNEL_ID)
        assert isinstance(channel, discord.TextChannel) and channel.name == "games"
        assert fake.calls_to("GET /users/@me")[0].response["status"] == 200
        identify = fake.calls_to("gateway IDENTIFY")[0]
        assert identify.data["intents"] == discord.Intents.default().value
        await fake.wait_until(lambda: fake.sessions[0].heartbeats >= 1)
        assert len(fake.sessions) == 1
        shards, url, _ = await bot.http.get_bot_gateway()
        assert (shards, url) == (1, str(fake.gateway_url))


@pytest.mark.parametrize("members_intent", [False, True])
async def test_members_follow_the_members_intent(fake: FakeDiscord, members_intent: bool) -> None:
    intents = discord.Intents.default()
    intents.members = members_intent
    async with running(fake, sync=False, intents=intents) as bot:
        guild = bot.get_guild(GUILD_ID)
        assert guild is not None
        everyone = {fake.bot.id, ALICE, BOB}
        assert {m.id for m in guild.members} == (everyone if members_intent else {fake.bot.id})
        if members_intent:
            assert {m.id for m in await guild.chunk()} == everyone
            assert fake.calls_to("gateway REQUEST_GUILD_MEMBERS")


async def test_dropped_session_resumes_and_gets_what_it_missed(fake: FakeDiscord) -> None:
    async with running(fake) as bot:
        await fake.drop_sessions()
        # Dispatched while the bot is away: replayed when it resumes.
        await fake.wait_until(lambda: not fake.sessions)
        await fake.dispatch(
            "GUILD_UPDATE",
            {**fake.guilds[GUILD_ID].payload(fake.users, all_members=False), "name": "Renamed"},
        )
        await fake.wait_until(lambda: len(fake.calls_to("gateway RESUME")) == 1)
        await fake.wait_connected()
        assert len(fake.calls_to("gateway IDENTIFY")) == 1
        await fake.slash(ALICE, CHANNEL_ID, "move", {"game": "13"})
        assert await bot.next_outcome() == ("move", "13", None)
        guild = bot.get_guild(GUILD_ID)
        assert guild is not None and guild.name == "Renamed"


async def test_resume_of_an_unknown_session_is_invalidated(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(str(fake.gateway_url)) as ws:
        hello = await ws.receive_json(timeout=DEFAULT_DEADLINE)
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await ws.send_json({"op": 1, "d": None})
        assert (await ws.receive_json(timeout=DEFAULT_DEADLINE))["op"] == 11
        await ws.send_json({"op": 6, "d": {"token": fake.token, "session_id": "x", "seq": 3}})
        assert await ws.receive_json(timeout=DEFAULT_DEADLINE) == {
            "op": 9,
            "d": False,
            "s": None,
            "t": None,
        }


async def test_wrong_token_is_refused(fake: FakeDiscord) -> None:
    bot = Bot()
    with pytest.raises(discord.LoginFailure):
        await bot.login("not-the-token")
    await bot.close()


async def test_command_sync_is_validated_and_stored(fake: FakeDiscord) -> None:
    async with running(fake) as bot:
        stored = {c["name"]: c for c in fake.commands()}
        assert set(stored) == {
            "move",
            "typed",
            "slow",
            "wait",
            "ping",
            "dm",
            "burst",
            "later",
            "hello",
        }
        game, side = stored["move"]["options"]
        assert game["autocomplete"] is True and game["required"] is True
        assert [c["value"] for c in side["choices"]] == ["black", "white"]
        assert stored["move"]["contexts"] == [0]
        fetched = await bot.tree.fetch_commands()
        assert {c.name: c.id for c in fetched} == {n: int(c["id"]) for n, c in stored.items()}

        @bot.tree.command(name="toomany", description="26 choices")
        @app_commands.choices(
            pick=[app_commands.Choice(name=f"c{i}", value=str(i)) for i in range(26)]
        )
        async def toomany(interaction: discord.Interaction, pick: str) -> None:
            raise AssertionError("never synced")

        with pytest.raises(app_commands.CommandSyncFailure) as failure:
            await bot.tree.sync()
        assert (failure.value.status, failure.value.code) == (400, 50035)
        assert "toomany" in str(failure.value)
        assert {c["name"] for c in fake.commands()} == set(stored)


@pytest.mark.parametrize(
    "command",
    [
        {"name": "Move", "description": "upper case"},
        {"name": "m" * 33, "description": "too long"},
        {"name": "move", "description": ""},
        {"name": "move", "description": "d" * 101},
        {
            "name": "move",
            "description": "required after optional",
            "options": [
                {"type": 3, "name": "a", "description": "a", "required": False},
                {"type": 3, "name": "b", "description": "b", "required": True},
            ],
        },
        {
            "name": "move",
            "description": "choices and autocomplete",
            "options": [
                {
                    "type": 3,
                    "name": "a",
                    "description": "a",
                    "autocomplete": True,
                    "choices": [{"name": "x", "value": "x"}],
                }
            ],
        },
        {
            "name": "move",
            "description": "26 options",
            "options": [{"type": 3, "name": f"o{i}", "description": "o"} for i in range(26)],
        },
        {
            "name": "move",
            "description": "26 choices",
            "options": [
                {
                    "type": 3,
                    "name": "a",
                    "description": "a",
                    "choices": [{"name": f"c{i}", "value": str(i)} for i in range(26)],
                }
            ],
        },
        {
            "name": "move",
            "description": "two options of one name",
            "options": [
                {"type": 3, "name": "a", "description": "a"},
                {"type": 4, "name": "a", "description": "b"},
            ],
        },
        {"name": "move", "description": "a space", "name_localizations": {"fr": "jouer un"}},
        {"name": "move", "description": "upper case", "name_localizations": {"de": "Zug"}},
        {"name": "move", "description": "an apostrophe", "name_localizations": {"fr": "l'a"}},
        {"name": "move", "description": "a sign", "name_localizations": {"ja": "指す！"}},
        {"name": "move", "description": "long", "name_localizations": {"es": "m" * 33}},
        {
            "name": "move",
            "description": "two options of one name in Spanish",
            "options": [
                {"type": 3, "name": "a", "description": "a", "name_localizations": {"es": "b"}},
                {"type": 3, "name": "b", "description": "b"},
            ],
        },
        {
            "name": "move",
            "description": "a choice's name too long in Japanese",
            "options": [
                {
                    "type": 3,
                    "name": "a",
                    "description": "a",
                    "choices": [
                        {"name": "x", "value": "x", "name_localizations": {"ja": "x" * 101}}
                    ],
                }
            ],
        },
    ],
)
async def test_bad_command_schemas_are_refused(fake: FakeDiscord, command: dict[str, Any]) -> None:
    async with running(fake, sync=False) as bot:
        with pytest.raises(discord.HTTPException) as error:
            await bot.http.bulk_upsert_global_commands(fake.application_id, payload=[command])
        assert (error.value.status, error.value.code) == (400, 50035)
        assert fake.commands() == []


@pytest.mark.parametrize(
    "commands",
    [
        [{"name": "move", "description": "a"}, {"name": "move", "description": "b"}],
        [
            {"name": "move", "description": "a", "name_localizations": {"ja": "指す"}},
            {"name": "play", "description": "b", "name_localizations": {"ja": "指す"}},
        ],
    ],
)
async def test_commands_of_one_name_are_refused(
    fake: FakeDiscord, commands: list[dict[str, Any]]
) -> None:
    async with running(fake, sync=False) as bot:
        with pytest.raises(discord.HTTPException) as error:
            await bot.http.bulk_upsert_global_commands(fake.application_id, payload=commands)
        assert (error.value.status, error.value.code) == (400, 50035)
        assert fake.commands() == []


async def test_names_in_every_script_discord_allows_are_taken(fake: FakeDiscord) -> None:
    names = {"ja": "指す", "hi": "नमस्ते", "th": "เดิน", "ru": "ход", "de": "zurücknehmen"}
    command = {"name": "move", "description": "d", "name_localizations": names}
    async with running(fake, sync=False) as bot:
        await bot.http.bulk_upsert_global_commands(fake.application_id, payload=[command])
        assert fake.commands()[0]["name_localizations"] == names


async def test_slash_reply_with_file_embed_view_and_mentions(fake: FakeDiscord) -> None:
    async with running(fake) as bot:
        interaction = await fake.slash(
            ALICE, CHANNEL_ID, "move", {"game": "12", "side": "black"}, guild=GUILD_ID
        )
        assert await bot.next_outcome() == ("move", "12", "black")
        response = await fake.response(interaction)
        assert response.type == ResponseKind.CHANNEL_MESSAGE
        message = interaction.original
        assert message is not None and not message.ephemeral
        assert message.files == {"board.png": BOARD_BYTES}
        assert message.embeds[0]["image"]["url"] == message.attachments[0]["url"]
        assert message.custom_ids == ["resign", "board:12"]
        # Only the player to move is notified, never @everyone, although both are written.
        assert message.pinged_users == {ALICE}
        assert not message.pinged_everyone
        assert "@everyone" in message.content and f"<@{BOB}>" in message.content
        # The attachment URL serves the bytes, as Discord's CDN would.
        assert await bot.http.get_from_cdn(message.attachments[0]["url"]) == BOARD_BYTES


async def test_slash_options_are_checked_against_the_schema(fake: FakeDiscord) -> None:
    async with running(fake):
        with pytest.raises(ImpossibleInteraction):
            await fake.slash(ALICE, CHANNEL_ID, "move", {"game": "12", "side": "red"})
        with pytest.raises(ImpossibleInteraction):
            await fake.slash(ALICE, CHANNEL_ID, "move", {"side": "black"})
        with pytest.raises(ImpossibleInteraction):
            await fake.slash(ALICE, CHANNEL_ID, "nosuch", {})
        # A stale client may still send it: the bot must cope (here discord.py accepts it).
        interaction = await fake.slash(
            ALICE, CHANNEL_ID, "move", {"game": "12", "side": "red"}, strict=False
        )
        assert interaction.payload["data"]["options"][1] == {
            "name": "side",
            "type": 3,
            "value": "red",
        }


async def test_options_are_typed_per_the_schema(fake: FakeDiscord) -> None:
    async with running(fake) as bot:
        options = {"count": 3, "flag": True, "ratio": 0.5, "who": BOB}
        interaction = await fake.slash(ALICE, CHANNEL_ID, "typed", options)
        assert await bot.next_outcome() == (3, True, 0.5, BOB, "bob")
        assert (await fake.response(interaction)).ephemeral
        assert interaction.payload["data"]["resolved"]["users"][str(BOB)]["username"] == "bob"
        for wrong in ({"count": 10}, {"count": "3"}, {"flag": "yes"}):
            with pytest.raises(ImpossibleInteraction):
                await fake.slash(ALICE, CHANNEL_ID, "typed", {**options, **wrong})


async def test_autocomplete_cannot_be_deferred(fake: FakeDiscord) -> None:
    async with running(fake) as bot:
        interaction = await fake.autocomplete_interaction(
            ALICE, CHANNEL_ID, "move", {"game": "gate"}, focused="game"
        )
        url = f"{fake.api_base}/interactions/{interaction.id}/{interaction.token}/callback"
        async with aiohttp.ClientSession() as session, session.post(url, json={"type": 5}) as r:
            assert r.status == 400
            assert (await r.json())["code"] == 50035
        bot.gate.set()
        await fake.wait_until(lambda: interaction.response is not None)
        assert interaction.choices == []


async def test_autocomplete_round_trip_and_limit(fake: FakeDiscord) -> None:
    async with running(fake):
        choices = await fake.autocomplete(ALICE, CHANNEL_ID, "move", {"game": "12"}, focused="game")
        assert choices == [
            {"name": "game 12", "value": "12"},
            {"name": "game 120", "value": "120"},
        ]
        with pytest.raises(ResponseRefused) as refused:
            await fake.autocomplete(ALICE, CHANNEL_ID, "move", {"game": "many"}, focused="game")
        assert refused.value.attempt.status == 400
        assert refused.value.attempt.body["code"] == 50035


async def test_button_click_carrying_the_message_id_reaches_the_view(fake: FakeDiscord) -> None:
    async with running(fake) as bot:
        command = await fake.slash(ALICE, CHANNEL_ID, "move", {"game": "12"})
        await bot.next_outcome()
        message = await fake.original(command)
        with pytest.raises(ImpossibleInteraction):
            await fake.click(ALICE, message, "no-such-button")
        click = await fake.click(ALICE, message, "resign")
        assert await bot.next_outcome() == ("resign", ALICE, message.id)
        response = await fake.response(click)
        assert response.type == ResponseKind.UPDATE_MESSAGE
        assert message.content == "resigned" and message.components == []
        assert message.edits == 1


async def test_dynamic_item_works_after_a_restart(fake: FakeDiscord) -> None:
    async with running(fake) as first:
        command = await fake.slash(ALICE, CHANNEL_ID, "move", {"game": "12"})
        await first.next_outcome()
        message = await fake.original(command)
    await fake.wait_until(lambda: not fake.gateway_sessions)
    async with running(fake, sync=False) as second:
        click = await fake.click(BOB, message, "board:12")
        assert await second.next_outcome() == ("board", 12, BOB)
        response = await fake.response(click)
        assert response.type == ResponseKind.CHANNEL_MESSAGE
        assert click.original is not None and click.original.ephemeral
        assert click.original.content == "board of game 12"


async def test_deferral_then_followups(fake: FakeDiscord) -> None:
    async with running(fake) as bot:
        interaction = await fake.slash(ALICE, CHANNEL_ID, "slow")
        assert await bot.next_outcome() == ("slow", "done, edited", "second")
        response = await fake.response(interaction)
        assert response.type == ResponseKind.DEFERRED_CHANNEL_MESSAGE
        first, second = await fake.followups(interaction, 2)
        # The first followup after a "thinking" deferral replaces the placeholder.
        original = await fake.original(interaction, edits=2)
        assert first is original and not original.loading
        assert original.content == "done, edited"
        assert second.id != original.id and second.content == "second"
        assert second.deleted and fake.messages_in(CHANNEL_ID) == [original]


async def test_two_processes_answering_one_interaction(fake: FakeDiscord) -> None:
    async with running(fake) as one, running(fake, sync=False) as two:
        await fake.wait_connected(2)
        interaction = await fake.slash(ALICE, CHANNEL_ID, "ping")
        assert interaction.delivered_to == 2
        outcomes = [await one.next_outcome(), await two.next_outcome()]
        refused = [o for o in outcomes if isinstance(o, discord.HTTPException)]
        # The winner then tried a second response itself: discord.py refuses that locally.
        local = [o for o in outcomes if isinstance(o, discord.InteractionResponded)]
        assert len(refused) == 1 and len(local) == 1
        assert (refused[0].status, refused[0].code) == (400, 40060)
        assert sorted(a.status for a in interaction.attempts) == [200, 400]


async def test_first_response_after_the_deadline_is_refused(fake: FakeDiscord) -> None:
    fake.response_deadline = 0.2
    async with running(fake) as bot:
        interaction = await fake.slash(ALICE, CHANNEL_ID, "wait")
        await fake.wait_until(lambda: interaction.expired)
        bot.gate.set()
        error = await bot.next_outcome()
        assert isinstance(error, discord.NotFound) and error.code == 10062
        with pytest.raises(ResponseRefused) as refused:
            await fake.response(interaction)
        assert refused.value.attempt.status == 404


async def test_dm_refused_by_a_user_who_closed_them(fake: FakeDiscord) -> None:
    fake.close_dms(BOB)
    async with running(fake) as bot:
        await fake.slash(ALICE, CHANNEL_ID, "dm", {"target": BOB})
        error = await bot.next_outcome()
        assert isinstance(error, discord.Forbidden) and error.code == 50007
        await fake.slash(BOB, CHANNEL_ID, "dm", {"target": ALICE})
        assert await bot.next_outcome() == "sent"
        [dm] = fake.messages_in(fake.dm_channel(ALICE))
        assert dm.content == "Your move"
        assert fake.messages_in(fake.dm_channel(BOB)) == []


async def test_interactions_outside_a_guild(fake: FakeDiscord) -> None:
    async with running(fake) as bot:
        await fake.slash(ALICE, fake.dm_channel(ALICE), "hello")
        assert await bot.next_outcome() == ("User", None, "dm")
        friends = fake.private_channel(3_000, [ALICE, BOB])
        interaction = await fake.slash(ALICE, friends, "hello")
        assert interaction.context is InteractionContext.PRIVATE_CHANNEL
        assert interaction.payload["authorizing_integration_owners"] == {"1": str(ALICE)}
        assert await bot.next_outcome() == ("User", None, "private")
        assert [m.content for m in fake.messages_in(friends)] == ["hello"]
        with pytest.raises(ImpossibleInteraction):
            await fake.slash(ALICE, friends, "move", {"game": "12"})
        # The bot is not in that channel: it can only answer the interaction.
        channel = await bot.fetch_channel(CHANNEL_ID)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.Forbidden):
            await bot.http.send_message(friends.id, params=_params(content="x"))


def _params(**fields: Any) -> discord.http.MultipartParameters:
    return discord.http.MultipartParameters(payload=fields, multipart=None, files=None)


async def test_unknown_route_is_not_found(fake: FakeDiscord) -> None:
    async with running(fake, sync=False) as bot:
        with pytest.raises(discord.NotFound) as error:
            await bot.http.request(discord.http.Route("GET", "/nothing/here"))
        assert error.value.code == 0
        assert fake.calls_to("GET /nothing/here")[0].response["status"] == 404
        with pytest.raises(discord.NotFound):
            await bot.fetch_user(424242)
        with pytest.raises(discord.HTTPException) as wrong_method:
            await bot.http.request(discord.http.Route("DELETE", "/users/@me"))
        assert wrong_method.value.status == 405


async def test_rate_limit_is_retried_by_discord_py(fake: FakeDiscord) -> None:
    fake.rate_limit("POST /channels/{channel_id}/messages", retry_after=0.05)
    async with running(fake, sync=False) as bot:
        channel = bot.get_channel(CHANNEL_ID)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("after a pause")
        calls = fake.calls_to("POST /channels/{channel_id}/messages")
        assert [c.response["status"] for c in calls] == [429, 200]
        assert calls[0].response["body"]["retry_after"] == 0.05
        assert fake.messages[sent.id].content == "after a pause"


def _select(
    custom_id: str, count: int, *, value: str = "", label: str = "", holder: str = "pick"
) -> dict[str, Any]:
    options = [{"label": label or f"o{i}", "value": value + str(i)} for i in range(count)]
    return {"type": 3, "custom_id": custom_id, "placeholder": holder, "options": options}


async def test_a_select_offers_only_its_options(fake: FakeDiscord) -> None:
    """A user picks one to ``max_values`` of the options a string select shows, nothing
    else (Discord's component reference): the fake will not send another value."""
    async with running(fake, sync=False) as bot:
        rows = [{"type": 1, "components": [_select("menu", 3)]}]
        sent = await bot.http.send_message(CHANNEL_ID, params=_params(content="m", components=rows))
        message = fake.messages[int(sent["id"])]
        for values in (["nope"], [], ["0", "1"]):
            with pytest.raises(ImpossibleInteraction):
                await fake.click(ALICE, message, "menu", values=values)


def _button(custom_id: str, label: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"content": "x" * 2001}, 50035),
        ({"content": ""}, 50006),
        ({"embeds": [{"title": "t"}] * 11}, 50035),
        ({"embeds": [{"description": "d" * 4097}]}, 50035),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, 50035),
        ({"components": [{"type": 1, "components": [_button(f"r{i}")]} for i in range(6)]}, 50035),
        ({"components": [{"type": 1, "components": [_button(f"b{i}") for i in range(6)]}]}, 50035),
        ({"components": [{"type": 1, "components": [_button("same"), _button("same")]}]}, 50035),
        ({"components": [{"type": 1, "components": [_button("c" * 101)]}]}, 50035),
        ({"components": [{"type": 1, "components": [_button("x", "l" * 81)]}]}, 50035),
        ({"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}, 50035),
        ({"embeds": [{"fields": ["not an object"]}]}, 50035),
        # String selects (Discord's component reference): 1 to 25 options, labels and values
        # of at most 100 characters, a placeholder of at most 150, alone in its row.
        ({"components": [{"type": 1, "components": [_select("s", 26)]}]}, 50035),
        ({"components": [{"type": 1, "components": [_select("s", 0)]}]}, 50035),
        ({"components": [{"type": 1, "components": [_select("s", 2, value="v" * 101)]}]}, 50035),
        ({"components": [{"type": 1, "components": [_select("s", 2, label="l" * 101)]}]}, 50035),
        ({"components": [{"type": 1, "components": [_select("s", 2, holder="p" * 151)]}]}, 50035),
        ({"components": [{"type": 1, "components": [_select("s", 2), _button("b")]}]}, 50035),
        ({"components": [{"type": 1, "components": [_select("s" * 101, 2)]}]}, 50035),
    ],
)
async def test_message_limits(fake: FakeDiscord, payload: dict[str, Any], code: int) -> None:
    async with running(fake, sync=False) as bot:
        with pytest.raises(discord.HTTPException) as error:
            await bot.http.send_message(CHANNEL_ID, params=_params(**payload))
        assert (error.value.status, error.value.code) == (400, code)
        assert fake.messages_in(CHANNEL_ID) == []


async def test_edits_keep_limits_and_attachments(fake: FakeDiscord) -> None:
    async with running(fake, sync=False) as bot:
        channel = bot.get_channel(CHANNEL_ID)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send(
            "board", file=discord.File(io.BytesIO(BOARD_BYTES), filename="board.png")
        )
        with pytest.raises(discord.HTTPException):
            await sent.edit(content="x" * 2001)
        edited = await sent.edit(content="board, edited")
        stored = fake.messages[sent.id]
        assert stored.content == "board, edited" and stored.files == {"board.png": BOARD_BYTES}
        assert [a.filename for a in edited.attachments] == ["board.png"]
        await sent.edit(attachments=[])
        assert stored.files == {}


async def test_threads_need_the_permission_and_a_server_text_channel(fake: FakeDiscord) -> None:
    """Start Thread from Message (Discord's channel resource): 403 50013 without Create Public
    Threads; posting in the thread 403 50013 without Send Messages in Threads; a name of 1 to
    100 characters; one thread per message (400 160004); none in a DM (400 50024)."""
    async with running(fake, sync=False) as bot:
        channel = bot.get_channel(CHANNEL_ID)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("card")
        with pytest.raises(discord.Forbidden) as missing:
            await sent.create_thread(name="#1 Maphex: Alice vs Bob")
        assert missing.value.code == 50013 and fake.threads_in(CHANNEL_ID) == []
        fake.grant_threads(GUILD_ID)
        with pytest.raises(discord.HTTPException) as long_name:
            await sent.create_thread(name="n" * 101)
        assert (long_name.value.status, long_name.value.code) == (400, 50035)
        thread = await sent.create_thread(
            name="#1 Maphex: Alice vs Bob", auto_archive_duration=10080
        )
        assert thread.id == sent.id and thread.parent_id == CHANNEL_ID
        (stored,) = fake.threads_in(CHANNEL_ID)
        assert stored.name == "#1 Maphex: Alice vs Bob" and stored.archive_after == 10080
        await thread.send("board")
        assert [m.content for m in fake.messages_in(thread.id)] == ["board"]
        with pytest.raises(discord.HTTPException) as again:
            await sent.create_thread(name="again")
        assert again.value.code == 160004
        fake.grant_threads(GUILD_ID, granted=False)
        with pytest.raises(discord.Forbidden) as cannot_post:
            await thread.send("more")
        assert cannot_post.value.code == 50013
        dm = await bot.create_dm(discord.Object(ALICE))
        in_dm = await dm.send("card")
        with pytest.raises(discord.HTTPException) as no_threads:
            await bot.http.start_thread_with_message(
                dm.id, in_dm.id, name="x", auto_archive_duration=60
            )
        assert (no_threads.value.status, no_threads.value.code) == (400, 50024)


# ---- Platform refusals (issue 25): one test per rule, each citing where Discord states it.


async def test_duplicate_ids_in_allowed_mentions_are_refused(fake: FakeDiscord) -> None:
    """Discord treats ``allowed_mentions.users`` (and ``roles``) as sets: an id listed twice is
    400, 50035 ``SET_TYPE_ALREADY_CONTAINS_VALUE`` and nothing is posted
    (discord/discord-api-docs#5484 "clarify uniqueness of mentions"; bots hit it in the wild:
    skyra-project/skyra#1277 "avoid duplicate allowed_mentions")."""
    async with running(fake, sync=False) as bot:
        twice = {"parse": [], "users": [str(ALICE), str(BOB), str(ALICE)]}
        with pytest.raises(discord.HTTPException) as error:
            await bot.http.send_message(
                CHANNEL_ID,
                params=_params(content=f"<@{ALICE}> vs <@{BOB}>", allowed_mentions=twice),
            )
        assert (error.value.status, error.value.code) == (400, 50035)
        [call] = fake.calls_to("POST /channels/{channel_id}/messages")
        errors = call.response["body"]["errors"]["allowed_mentions"]["users"]["2"]["_errors"]
        assert errors[0]["code"] == "SET_TYPE_ALREADY_CONTAINS_VALUE"
        assert fake.messages_in(CHANNEL_ID) == []
        # discord.py itself does not de-duplicate: AllowedMentions(users=[a, a]) sends both.
        channel = bot.get_channel(CHANNEL_ID)
        assert isinstance(channel, discord.TextChannel)
        alice = discord.Object(ALICE)
        with pytest.raises(discord.HTTPException):
            await channel.send(
                f"<@{ALICE}>", allowed_mentions=discord.AllowedMentions(users=[alice, alice])
            )
        sent = await channel.send(
            f"<@{ALICE}> <@{ALICE}>", allowed_mentions=discord.AllowedMentions(users=[alice])
        )
        assert fake.messages[sent.id].pinged_users == {ALICE}


async def test_posting_and_editing_where_the_bot_is_not_a_member(fake: FakeDiscord) -> None:
    """In a DM or group DM between users the bot is not part of, only the interaction's own
    webhook works: REST posts and edits are 403, 50001 "Missing Access", the bot user not
    being able to see the channel (discord/discord-api-docs#6723 documents user-installed apps
    answering through interactions where the bot user is absent; the 403 50001 is what issue
    25 saw for every post and edit there)."""
    async with running(fake) as bot:
        friends = fake.private_channel(3_000, [ALICE, BOB])
        interaction = await fake.slash(ALICE, friends, "hello")
        await bot.next_outcome()
        answer = await fake.original(interaction)
        with pytest.raises(discord.Forbidden) as posting:
            await bot.http.send_message(friends.id, params=_params(content="your turn"))
        assert (posting.value.status, posting.value.code) == (403, 50001)
        with pytest.raises(discord.Forbidden) as editing:
            await bot.http.edit_message(friends.id, answer.id, params=_params(content="x"))
        assert (editing.value.status, editing.value.code) == (403, 50001)
        assert [m.content for m in fake.messages_in(friends)] == ["hello"]


async def test_interaction_tokens_expire_after_15_minutes(fake: FakeDiscord) -> None:
    """An interaction token lasts 15 minutes; after that its webhook (edits, followups) is
    401, 50027 "Invalid Webhook Token" ("Interaction tokens are only valid for 15 minutes",
    discordeno's sendFollowupMessage citing Discord's create-followup-message docs). Time is
    moved with a ManualClock, not slept."""
    clock = ManualClock()
    fake.clock = clock
    async with running(fake) as bot:
        interaction = await fake.slash(ALICE, CHANNEL_ID, "later")
        await fake.original(interaction)
        clock.advance(fake.token_lifetime - 1)
        assert fake.token_lifetime == 900.0
        await bot.http.request(  # still valid one second before the end
            discord.http.Route(
                "GET",
                "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                webhook_id=fake.application_id,
                webhook_token=interaction.token,
            )
        )
        clock.advance(2)
        bot.gate.set()
        error = await bot.next_outcome()
        assert isinstance(error, discord.HTTPException)
        assert (error.status, error.code) == (401, 50027)
        assert (await fake.original(interaction)).content == "now"


async def test_user_install_only_interactions_allow_five_followups(fake: FakeDiscord) -> None:
    """Interactions authorised only by a user install may have at most 5 followups; the sixth
    is 400, 40094 (Discord change log 2024-06-27, "User-installed apps are now limited to
    creating a maximum of 5 follow-ups … apps installed to the server are unaffected";
    discord/discord-api-docs#6958)."""
    async with running(fake) as bot:
        friends = fake.private_channel(3_000, [ALICE, BOB])
        interaction = await fake.slash(ALICE, friends, "burst", {"count": 7})
        assert interaction.user_install_only
        sent, error = await bot.next_outcome()
        assert sent == 5
        assert isinstance(error, discord.HTTPException)
        assert (error.status, error.code) == (400, 40094)
        assert len(interaction.followups) == 5
        # The server install is unaffected.
        in_guild = await fake.slash(ALICE, CHANNEL_ID, "burst", {"count": 7})
        assert not in_guild.user_install_only
        assert await bot.next_outcome() == (7, None)


async def test_opening_a_dm_with_a_user_who_cannot_be_dmed(fake: FakeDiscord) -> None:
    """Opening the DM channel itself can be refused: ``POST /users/@me/channels`` answers
    400, 50007 "Cannot send messages to this user" (aiko-chan-ai/discord.js-selfbot-v13#550
    shows that route and status; lexicalunit/spellbot#659 the same from discord.py's
    ``create_dm``). It is not transient: retrying gets the same answer."""
    fake.refuse_dm_channel(BOB)
    async with running(fake, sync=False) as bot:
        bob = await bot.fetch_user(BOB)
        for _ in range(2):
            with pytest.raises(discord.HTTPException) as error:
                await bob.create_dm()
            assert (error.value.status, error.value.code) == (400, 50007)
        alice = await bot.fetch_user(ALICE)
        assert (await alice.create_dm()).recipient == alice


async def test_user_install_commands_are_offered_only_to_who_installed(fake: FakeDiscord) -> None:
    """A user install belongs to the user who made it: "users install an app to their profile
    and access its commands in any server or in a dm" (Rapptz/discord.py#9757 quoting
    Discord's announcement; discord/discord-api-docs#6723). A friend without the app is not
    offered its commands in a private channel, yet may press the buttons on the messages it
    posted there, which the installer's install authorises."""
    fake.uninstall_app(BOB)
    async with running(fake) as bot:
        friends = fake.private_channel(3_000, [ALICE, BOB])
        with pytest.raises(ImpossibleInteraction):
            await fake.slash(BOB, friends, "hello")
        await fake.slash(ALICE, friends, "hello")
        assert await bot.next_outcome() == ("User", None, "private")
        # The guild install still offers the command to Bob in the server.
        await fake.slash(BOB, CHANNEL_ID, "hello")
        assert await bot.next_outcome() == ("Member", GUILD_ID, "guild")
        answer = fake.messages_in(friends)[0]
        assert answer.interaction_metadata is not None
        assert answer.interaction_metadata["authorizing_integration_owners"] == {"1": str(ALICE)}


async def test_a_server_without_the_bot_answers_only_user_installed_commands(
    fake: FakeDiscord,
) -> None:
    """In a server the app is not installed to, a user install still brings its commands
    (Rapptz/discord.py#9757: "access its commands in any server … even if the bot isn't
    installed in the server"); the interaction is authorised by the user install only, and the
    bot user, not a member, can neither post nor edit there (403, 50001)."""
    elsewhere = fake.guild(5_000, "Elsewhere", with_bot=False)
    lounge = fake.channel(elsewhere, 5_001, "lounge")
    fake.member(elsewhere, ALICE, "alice")
    fake.member(elsewhere, BOB, "bob")
    fake.uninstall_app(BOB)
    async with running(fake) as bot:
        assert [g.id for g in bot.guilds] == [GUILD_ID]  # no GUILD_CREATE for it
        interaction = await fake.slash(ALICE, lounge, "hello")
        assert interaction.payload["authorizing_integration_owners"] == {"1": str(ALICE)}
        assert await bot.next_outcome() == ("Member", 5_000, "guild")
        answer = await fake.original(interaction)
        with pytest.raises(ImpossibleInteraction):  # a guild-install-only command
            await fake.slash(ALICE, lounge, "move", {"game": "12"})
        with pytest.raises(ImpossibleInteraction):  # Bob has not installed the app
            await fake.slash(BOB, lounge, "hello")
        with pytest.raises(discord.Forbidden) as posting:
            await bot.http.send_message(lounge.id, params=_params(content="your turn"))
        assert (posting.value.status, posting.value.code) == (403, 50001)
        with pytest.raises(discord.Forbidden) as editing:
            await bot.http.edit_message(lounge.id, answer.id, params=_params(content="x"))
        assert editing.value.code == 50001


# -- rate limits and nonces (issue 24): each rule of DiscordLimits, cited in its docstring ------

OTHER_CHANNEL = 1_002


@contextlib.asynccontextmanager
async def limited(
    limits: DiscordLimits, clock: ManualClock | None = None
) -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(limits=limits, clock=clock) as server:
        guild = server.guild(GUILD_ID, "Hexhall")
        server.channel(guild, CHANNEL_ID, "games")
        server.channel(guild, OTHER_CHANNEL, "more games")
        with point_discord_py_at(server):
            yield server


async def _raw(server: FakeDiscord, method: str, path: str, body: Any = None) -> Any:
    """One REST request as Discord sees it, without discord.py's own pacing and retries."""
    headers = {"Authorization": f"Bot {server.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, server.api_base + path, json=body, headers=headers) as answer,
    ):
        return answer.status, await answer.json(), answer.headers


async def test_five_messages_per_five_seconds_per_channel() -> None:
    """Per-route limits are per top-level resource: a sixth message in one channel within the
    window is refused with 429 (non-global), another channel is not; discord.py waits out
    ``retry_after`` and the sixth goes through."""
    async with limited(DiscordLimits(channel_period=0.5)) as server:
        path = f"/channels/{CHANNEL_ID}/messages"
        for i in range(5):
            assert (await _raw(server, "POST", path, {"content": str(i)}))[0] == 200
        status, body, headers = await _raw(server, "POST", path, {"content": "6th"})
        assert status == 429 and body["global"] is False and 0 < body["retry_after"] <= 0.5
        assert headers["X-RateLimit-Scope"] == "user"
        elsewhere = await _raw(
            server, "POST", f"/channels/{OTHER_CHANNEL}/messages", {"content": "x"}
        )
        assert elsewhere[0] == 200
        async with running(server, sync=False) as bot:
            channel = bot.get_channel(CHANNEL_ID)
            assert isinstance(channel, discord.TextChannel)
            await channel.send("after the window")
        assert [m.content for m in server.messages_in(CHANNEL_ID)][-1] == "after the window"
        assert len(server.messages_in(CHANNEL_ID)) == 6


async def test_fifty_requests_a_second_globally() -> None:
    """ "All bots can make up to 50 requests per second": the 51st within a second is refused
    with a global 429 whatever its route; a second later it is answered again.  (The fake's
    clock stands still: on a loaded machine 51 real requests may take over a second.)"""
    clock = ManualClock(running=False)
    async with limited(DiscordLimits(), clock) as server:
        answers = [await _raw(server, "GET", "/users/@me") for _ in range(50)]
        assert {status for status, _, _ in answers} == {200}
        status, body, headers = await _raw(server, "GET", "/users/@me")
        assert status == 429 and body["global"] is True and 0 < body["retry_after"] <= 1
        assert headers["X-RateLimit-Global"] == "true"
        clock.advance(body["retry_after"])
        assert (await _raw(server, "GET", "/users/@me"))[0] == 200


async def test_enforced_nonce_returns_the_first_message() -> None:
    """Create Message, ``enforce_nonce``: a second message with the same nonce from the same
    author returns the first and creates nothing; without ``enforce_nonce`` it is a new one."""
    async with limited(DiscordLimits()) as server, running(server, sync=False) as bot:
        channel = bot.get_channel(CHANNEL_ID)
        assert isinstance(channel, discord.TextChannel)
        first = await channel.send("board", nonce="note-7")  # discord.py sets enforce_nonce
        again = await channel.send("board", nonce="note-7")
        assert again.id == first.id
        assert server.calls_to(CREATE_MESSAGE)[0].data["body"]["enforce_nonce"] is True
        path = f"/channels/{CHANNEL_ID}/messages"
        loose = await _raw(server, "POST", path, {"content": "board", "nonce": "note-7"})
        assert loose[0] == 200 and int(loose[1]["id"]) != first.id
        assert len(server.messages_in(CHANNEL_ID)) == 2
