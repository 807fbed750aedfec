"""The bot process: settings, store, session manager, clock sweeper and the adapters whose
tokens are set, wired together; and the local commands of ``hexhall`` (``play``, ``import``,
``render``, ``games``, ``rules``).  :mod:`bot.cli` only parses arguments and calls these.

Every failure a user can cause is an :class:`AppError`: one line and an exit status.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import engines
from bot.adapters.console import CHAT, PLATFORM, Console, console_user
from bot.config import ConfigError, Settings, load_env, settings
from bot.delivery.outbox import Outbox
from bot.sessions.context import RULES_DIR
from bot.sessions.manager import SessionManager
from bot.sessions.records import parse
from bot.storage import SqliteStore, StoreError

__all__ = [
    "UNAVAILABLE_EXIT",
    "USAGE_EXIT",
    "AppError",
    "games_text",
    "import_file",
    "opened",
    "render_position",
    "rules_text",
    "run",
    "serve",
]

USAGE_EXIT = 2
UNAVAILABLE_EXIT = 3
#: How often the clock sweeper looks for reminders, timeouts and expired challenges (seconds).
SWEEP_EVERY = 30.0


class AppError(Exception):
    """A failure to report in one line (exit status in ``code``)."""

    def __init__(self, message: str, code: int = USAGE_EXIT) -> None:
        super().__init__(message)
        self.code = code


def loaded_settings() -> Settings:
    """The settings of the environment after reading ``.env`` (a bad file is an AppError)."""
    try:
        load_env()
        return settings()
    except ConfigError as exc:
        raise AppError(str(exc)) from None


@asynccontextmanager
async def opened(db_path: str) -> AsyncIterator[SessionManager]:
    """A manager on the database at ``db_path`` (a bad path is a one-line AppError)."""
    try:
        store = await SqliteStore.open(db_path)
    except StoreError as exc:
        raise AppError(str(exc)) from None
    try:
        yield SessionManager(store)
    finally:
        await store.close()


async def serve(config: Settings, play: tuple[str, dict[str, Any]] | None = None) -> int:
    """Run the bot until its input ends: the adapters whose tokens are set (Telegram,
    Discord, or both), else the console, with the clock sweeper alongside.
    ``play`` starts a local game at once (then tokens are ignored)."""
    if play is None and config.telegram_token:
        return await serve_telegram(config)
    if play is None and config.discord_token:
        return await serve_discord(config)
    async with opened(config.db_path) as manager:
        board_dir = Path(config.db_path).expanduser().resolve().parent / "hexhall-boards"
        console = Console(manager, board_dir, prompt=sys.stdin.isatty())
        console.say(
            f"Hexhall console (database {config.db_path}). You are {console.user.name}; "
            "type help for the commands."
        )
        if play is not None:
            game, options = play
            one, two = console_user("player1"), console_user("player2")
            made = await manager.challenge(one, CHAT, game, two, options, "me", None)
            if not made.ok or made.challenge_id is None:
                raise AppError(made.text)
            await console.show(await manager.accept(two, CHAT, made.challenge_id))
        # The clocks: overdue work found at start-up is handled (paced), then every 30 s.
        stop = asyncio.Event()
        clocks = asyncio.create_task(manager.run_clocks(stop, SWEEP_EVERY))
        # What the clocks cause between commands (reminders, timeouts) is delivered too.
        outbox = asyncio.create_task(console.outbox.run(PLATFORM, console, stop=stop))
        try:
            return await console.run()
        finally:
            stop.set()
            await clocks
            await outbox


async def serve_telegram(config: Settings) -> int:
    """Run the Telegram adapter with the clock sweeper and the outbox until SIGINT/SIGTERM
    (with DISCORD_TOKEN also set, the Discord adapter beside it on the same manager)."""
    from bot.adapters.telegram import TelegramAdapter, TelegramUnavailable
    from bot.adapters.telegram.format import PLATFORM as TELEGRAM
    from bot.adapters.telegram.sender import TelegramSender

    async with opened(config.db_path) as manager:
        adapter = TelegramAdapter.build(
            manager,
            config.telegram_token.reveal(),
            api_url=config.telegram_api_url,
            file_url=config.telegram_file_url,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        outbox = Outbox(manager.store, manager.clock)
        clocks = asyncio.create_task(manager.run_clocks(stop, SWEEP_EVERY))
        sender = TelegramSender(adapter.application.bot)
        delivery = asyncio.create_task(outbox.run(TELEGRAM, sender, stop=stop))
        # With DISCORD_TOKEN also set, Discord runs beside Telegram on the same manager.
        discord = (
            asyncio.create_task(_discord(config, manager, stop)) if config.discord_token else None
        )
        try:
            await adapter.run(stop)
        except TelegramUnavailable as exc:
            raise AppError(str(exc), UNAVAILABLE_EXIT) from None
        finally:
            stop.set()
            await clocks
            await delivery
            if discord is not None:
                await discord
        return 0


async def _discord(config: Settings, manager: SessionManager, stop: asyncio.Event) -> None:
    """The Discord adapter on ``manager`` until ``stop`` is set (a login or connection that
    fails for good is an AppError)."""
    from bot.adapters.discord import DiscordUnavailable
    from bot.adapters.discord import serve as serve_discord_bot

    try:
        await serve_discord_bot(
            manager,
            config.discord_token.reveal(),
            stop,
            api_url=config.discord_api_url,
            gateway_url=config.discord_gateway_url,
            guild_id=config.discord_guild_id,
        )
    except DiscordUnavailable as exc:
        stop.set()
        raise AppError(str(exc), UNAVAILABLE_EXIT) from None


async def serve_discord(config: Settings) -> int:
    """Run the Discord adapter with the clock sweeper until SIGINT/SIGTERM."""
    async with opened(config.db_path) as manager:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        clocks = asyncio.create_task(manager.run_clocks(stop, SWEEP_EVERY))
        try:
            await _discord(config, manager, stop)
        finally:
            stop.set()
            await clocks
        return 0


def run(play: tuple[str, dict[str, Any]] | None = None) -> int:
    """``hexhall run`` (and ``play``): read the settings and serve; the exit status."""
    return asyncio.run(serve(loaded_settings(), play))


def _console_name(name: str, fallback: str) -> str:
    # Console players are one word: keep letters, digits and a few signs of the record's name.
    word = "".join(ch for ch in name if ch.isalnum() or ch in "_-.")[:32]
    return word or fallback


async def _import(db_path: str, text: str) -> int:
    try:
        record = parse(text)
    except ValueError as exc:
        raise AppError(f"cannot import: {exc}") from None
    one = _console_name(record.players[0], "player1")
    two = _console_name(record.players[1], "player2")
    if one.lower() == two.lower():
        one, two = f"{one}1", f"{two}2"
    async with opened(db_path) as manager:
        reply = await manager.import_record(console_user(one), CHAT, text, console_user(two))
    if not reply.ok:
        raise AppError(reply.text)
    print(reply.text)
    if reply.alt:
        print(reply.alt)
    print("Continue it with: hexhall run")
    return 0


async def _rebuild_ratings(db_path: str) -> int:
    async with opened(db_path) as manager:
        done = await manager.rebuild_ratings()
    print(
        f"Ratings rebuilt from {done.games} finished games: {done.rated} rated, "
        f"{done.ratings} ratings."
    )
    return 0


def rebuild_ratings() -> int:
    """``hexhall ratings rebuild``: recompute every rating from the stored games in order."""
    return asyncio.run(_rebuild_ratings(loaded_settings().db_path))


def import_file(path: str) -> int:
    """``hexhall import <file>``: store a record's game as a console game."""
    db_path = loaded_settings().db_path
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        raise AppError(f"cannot read {path}: {reason}") from None
    return asyncio.run(_import(db_path, text))


def render_position(position: engines.Position, output: str) -> str:
    """Draw ``position`` to the PNG file ``output``; its description."""
    try:
        import render
    except ImportError:
        raise AppError("drawing is not available: the render package is missing", 3) from None
    png = render.board_png(position)
    try:
        Path(output).write_bytes(png)
    except OSError as exc:
        raise AppError(f"cannot write {output}: {exc.strerror or exc}") from None
    return render.describe(position)


def games_text() -> str:
    """The games and their options, one game per paragraph."""
    lines = []
    for spec in engines.GAMES.values():
        lines.append(f"{spec.name}: {spec.title} ({spec.sides[0]} vs {spec.sides[1]})")
        for opt in spec.options:
            values = "|".join(str(v) for v in opt.values)
            lines.append(f"  {opt.name}={values} (default {opt.default}): {opt.help}")
    return "\n".join(lines)


def rules_text(game: str) -> str:
    """The rules of ``game`` as shipped inside the package."""
    name = game.strip().lower()
    if name not in engines.GAMES:
        raise AppError(f"unknown game {game!r} (games: {', '.join(engines.GAMES)})")
    try:
        return (RULES_DIR / f"{name}.md").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        raise AppError(f"the rules of {engines.GAMES[name].title} are not available", 3) from None
