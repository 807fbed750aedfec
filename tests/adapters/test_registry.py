"""The command registry is the one description of the commands: a command added to it appears
in the console's help, in Telegram's menu (and answers there), and in Discord's command tree
(and answers there), with no other edit; and each surface offers what the registry says."""

from __future__ import annotations

from pathlib import Path

from bot.adapters.args import GameRef
from bot.adapters.commands import REGISTRY, Command, Surface, help_text, menu
from bot.adapters.kinds import GameId, Param
from bot.adapters.typed import game_id_only
from bot.messages import Chat, Reply, Text, User
from bot.sessions.manager import SessionManager
from tests.adapters import discord_kit, telegram_kit
from tests.fakes.discord_fake import FakeDiscord


async def _pong(manager: SessionManager, user: User, chat: Chat, args: GameRef) -> Reply:
    return Reply(Text.of(f"pong #{args.game_id}"))


PING = Command(
    "ping",
    "Say pong about a game",
    "ping [#game]",
    (Param("game", GameId(), "The game", field="game_id"),),
    GameRef,
    _pong,
    game_id_only("ping"),
)
REGISTRY_WITH_PING = (*REGISTRY, PING)


def test_a_command_added_to_the_registry_is_in_the_console_help() -> None:
    assert "ping [#game]  (say pong about a game)" in help_text(REGISTRY_WITH_PING)
    assert "ping" not in help_text(REGISTRY)


async def test_a_command_added_to_the_registry_is_on_telegram(tmp_path: Path) -> None:
    async with telegram_kit.running(
        tmp_path / "t.db", pictures=False, registry=REGISTRY_WITH_PING
    ) as bot:
        fake = bot.fake
        await fake.wait_for(lambda c: c.method == "setMyCommands")
        assert "ping" in [c.command for c in fake.commands()]
        alice = fake.user(11, "Alice", "alice")
        group = fake.group(-100, "Hex club")
        answer = await bot.say(alice, group, "/ping #7")
        assert answer.text == "pong #7"


async def test_a_command_added_to_the_registry_is_on_discord(tmp_path: Path) -> None:
    async with (
        discord_kit.fake_discord() as fake,
        discord_kit.running(fake, tmp_path / "d.db", registry=REGISTRY_WITH_PING) as run,
    ):
        assert isinstance(fake, FakeDiscord)
        slash = run.bot.tree.get_command("ping")
        assert slash is not None
        answer = await run.answer(discord_kit.ALICE, "ping", {"game": "#7"})
        assert answer.content == "pong #7"


def test_each_surface_offers_what_the_registry_says() -> None:
    typed = {c.name for c in menu(Surface.TYPED)}
    assert {"accept", "decline", "cancel", "help", "move", "games"} <= typed
    assert "browse" not in typed
    discord = [c.slash for c in menu(Surface.DISCORD)]
    assert "undo" in discord and "takeback" not in discord and "browse" in discord
    telegram = [c.slash for c in menu(Surface.TELEGRAM)]
    assert "games" in telegram and "mygames" not in telegram and "accept" not in telegram
