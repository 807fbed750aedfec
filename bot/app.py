"""The bot process: settings, store, session manager, clock sweeper and the adapters whose
tokens are set, wired together; and the local commands of ``hexhall`` (``play``, ``import``,
``render``, ``games``, ``rules``, ``migrate``, ``copy-db``).  :mod:`bot.cli` only parses
arguments and calls these.

Every failure a user can cause is an :class:`AppError`: one line and an exit status.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import engines
from bot.adapters.console import CHAT, PLATFORM, Console, console_user
from bot.adapters.redact import hide
from bot.config import ConfigError, Settings, load_env, settings
from bot.core import i18n
from bot.core.i18n import N_
from bot.core.status import GameStatus
from bot.heap import few_arenas, give_back_every, keep_large_blocks_mapped
from bot.limits import TEXT_LIMIT
from bot.sessions import rulebook, texts
from bot.sessions.clock import Clock, FileClock
from bot.sessions.context import RULES_DIR
from bot.sessions.manager import SessionManager
from bot.sessions.records import parse
from bot.storage import StoreError, StoreFull, open_store, redact_url, sqlite_path
from bot.storage.copy import copy_database
from engines.base import option_text

if TYPE_CHECKING:
    from bot.web import HttpEndpoint
    from bot.webboard import WebEndpoint

__all__ = [
    "FILE_CLOCK_SWEEP_EVERY",
    "SWEEP_EVERY",
    "UNAVAILABLE_EXIT",
    "USAGE_EXIT",
    "AppError",
    "clock_of",
    "copy_db",
    "games_text",
    "http_endpoint",
    "import_file",
    "migrate",
    "opened",
    "render_position",
    "rules_text",
    "run",
    "serve",
    "serve_chat",
    "sweep_every",
    "web_board",
]

USAGE_EXIT = 2
UNAVAILABLE_EXIT = 3
#: How often the clock sweeper looks for reminders, timeouts and expired challenges (seconds).
SWEEP_EVERY = 30.0
#: How often it looks when the time comes from ``HEXHALL_CLOCK_FILE`` (tests only): a test that
#: moves that clock sees the sweep's answer within a second rather than half a minute.
FILE_CLOCK_SWEEP_EVERY = 1.0


def _said(msgid: str, /, **values: str) -> str:
    """A sentence of the command line (marked with ``N_`` where it is written), said in the
    language in use: the console player's, else the environment's."""
    return i18n.fill(i18n.gettext(msgid), values)


class AppError(Exception):
    """A failure to report in one line (exit status in ``code``)."""

    def __init__(self, message: str, code: int = USAGE_EXIT) -> None:
        super().__init__(message)
        self.code = code


def _store_failed(exc: StoreError) -> AppError:
    """A database that cannot be opened or used: a full storage said as players are told it,
    in the language in use; anything else in the store's own words (a path, a server's
    refusal: a diagnostic for whoever runs the bot, as the log says it)."""
    if isinstance(exc, StoreFull):
        return AppError(str(texts.STORAGE_FULL))
    return AppError(str(exc))


def loaded_settings() -> Settings:
    """The settings of the environment after reading ``.env`` (a bad file is an AppError)."""
    try:
        load_env()
        return settings()
    except ConfigError as exc:
        raise AppError(str(exc)) from None


def sweep_every(config: Settings) -> float:
    """Seconds between clock sweeps: :data:`SWEEP_EVERY`, or :data:`FILE_CLOCK_SWEEP_EVERY`
    when the clock is a file a test moves.

    >>> from bot.config import settings
    >>> sweep_every(settings({})), sweep_every(settings({"HEXHALL_CLOCK_FILE": "/tmp/now"}))
    (30.0, 1.0)
    """
    return FILE_CLOCK_SWEEP_EVERY if config.clock_file else SWEEP_EVERY


def clock_of(config: Settings) -> Clock | None:
    """The clock ``HEXHALL_CLOCK_FILE`` names (tests only, see
    :class:`~bot.sessions.clock.FileClock`), else ``None``: the real one.  A file holding
    no time is a one-line AppError."""
    if not config.clock_file:
        return None
    try:
        return FileClock(Path(config.clock_file))
    except (OSError, ValueError) as exc:
        raise AppError(f"HEXHALL_CLOCK_FILE: {exc}") from None


@asynccontextmanager
async def opened(db_path: str, clock: Clock | None = None) -> AsyncIterator[SessionManager]:
    """A manager on the database ``db_path`` names, an SQLite path or a PostgreSQL URL,
    migrated to this bot's schema (a bad one is a one-line AppError, never with the
    password); ``clock``: see :func:`clock_of` (``None``: the real one)."""
    try:
        store = await open_store(db_path)
    except StoreError as exc:
        raise _store_failed(exc) from None
    manager = SessionManager(store, clock)
    try:
        yield manager
    finally:
        # The bot's moves in the works stop with its workers; the next start's sweep makes them.
        await manager.close()
        await store.close()


async def serve(config: Settings, play: tuple[str, dict[str, Any]] | None = None) -> int:
    """Run the bot until its input ends: the chat adapters whose tokens are set (Telegram,
    Discord, or both), else the console, with the clock sweeper alongside.
    ``play`` starts a local game at once (then tokens are ignored).  Every secret of the
    settings goes to the process's one log redactor first (:mod:`bot.adapters.redact`)."""
    hide(*config.secrets)
    if play is None and (config.telegram_token or config.discord_token):
        return await serve_chat(config)
    async with (
        opened(config.db_path, clock_of(config)) as manager,
        http_endpoint(config, manager),
        web_board(config, manager),
    ):
        # Pictures go beside an SQLite file, or into the working folder for PostgreSQL.
        db_file = sqlite_path(config.db_path)
        home = Path(db_file).expanduser().resolve().parent if db_file else Path.cwd()
        console = Console(manager, home / "hexhall-boards", prompt=sys.stdin.isatty())
        with i18n.use(await console.speaking()):  # the local player's language
            welcome = i18n.gettext(
                "Hexhall console (database {database}). You are {name}; type help for the commands."
            )
            said = {"database": redact_url(config.db_path), "name": console.user.name}
            console.say(i18n.fill(welcome, said))
            if play is not None:
                game, options = play
                one, two = console_user("player1"), console_user("player2")
                made = await manager.challenges.challenge(one, CHAT, game, two, options, "me", None)
                if not made.ok or made.challenge_id is None:
                    raise AppError(made.text)
                await console.show(await manager.challenges.accept(two, CHAT, made.challenge_id))
        # The clocks: overdue work found at start-up is handled (paced), then every 30 s.
        stop = asyncio.Event()
        clocks = asyncio.create_task(manager.run_clocks(stop, sweep_every(config)))
        # What the clocks cause between commands (reminders, timeouts) is delivered too.
        outbox = asyncio.create_task(console.outbox.run(PLATFORM, console, stop=stop))
        heap = asyncio.create_task(give_back_every(stop))  # free heap pages go back now and then
        try:
            return await console.run()
        finally:
            stop.set()
            await clocks
            await outbox
            await heap


async def serve_chat(config: Settings) -> int:
    """Run the chat adapters whose tokens are set, side by side on one manager, with the clock
    sweeper, until SIGINT/SIGTERM (or until one of them fails for good: an AppError)."""
    async with (
        opened(config.db_path, clock_of(config)) as manager,
        http_endpoint(config, manager),
        web_board(config, manager),
    ):
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        clocks = asyncio.create_task(manager.run_clocks(stop, sweep_every(config)))
        # Free heap pages (the pictures' worker threads' arenas) go back now and then.
        heap = asyncio.create_task(give_back_every(stop))
        adapters = []
        if config.telegram_token:
            adapters.append(asyncio.create_task(_telegram(config, manager, stop)))
        if config.discord_token:
            adapters.append(asyncio.create_task(_discord(config, manager, stop)))
        try:
            # Each adapter sets ``stop`` when it ends, so the others end with it.
            results = await asyncio.gather(*adapters, return_exceptions=True)
        finally:
            stop.set()
            await clocks
            await heap
        for result in results:
            if isinstance(result, BaseException):
                raise result
        return 0


@asynccontextmanager
async def http_endpoint(
    config: Settings, manager: SessionManager
) -> AsyncIterator[HttpEndpoint | None]:
    """The health check and metrics at ``HEXHALL_HTTP_ADDR`` (:mod:`bot.web`) while the bot
    runs, ``None`` when it is unset; an address it cannot listen on is an AppError."""
    if config.http_addr is None:
        yield None
        return
    # Imported here: the local commands (render, import ...) need no web server.
    from bot.web import HttpUnavailable, serve_http

    address = config.http_addr
    try:
        endpoint = await serve_http(manager.store, manager.clock, address.host, address.port)
    except HttpUnavailable as exc:
        raise AppError(str(exc), UNAVAILABLE_EXIT) from None
    try:
        yield endpoint
    finally:
        await endpoint.close()


@asynccontextmanager
async def web_board(config: Settings, manager: SessionManager) -> AsyncIterator[WebEndpoint | None]:
    """The public web board at ``HEXHALL_WEB_ADDR`` (:mod:`bot.webboard`) while the bot runs,
    ``None`` when it is unset; an address it cannot listen on is an AppError.  Personal links
    are signed with ``HEXHALL_WEB_SECRET``, else with a key derived from the chat tokens (the
    same on every process of one bot), else (the console alone) with a key of this process."""
    if config.web_addr is None:
        yield None
        return
    import secrets

    from bot.webboard import WebBoard, WebUnavailable, serve_web
    from bot.webboard.activity import ActivityConfig

    secret = config.web_secret.reveal() or (
        config.discord_token.reveal() + config.telegram_token.reveal()
    )
    board = WebBoard(
        manager,
        config.public_url,
        telegram_token=config.telegram_token.reveal(),
        link_secret=secret or secrets.token_hex(32),
        trusted_proxies=config.web_trusted_proxies,
        activity=ActivityConfig(
            config.discord_client_id,
            config.discord_client_secret.reveal(),
            config.discord_oauth_url,
        )
        if config.discord_activity
        else None,
    )
    try:
        endpoint = await serve_web(board, config.web_addr.host, config.web_addr.port)
    except WebUnavailable as exc:
        raise AppError(str(exc), UNAVAILABLE_EXIT) from None
    manager.web_pages = board  # boards carry their page; "Open board" answers with a link
    try:
        yield endpoint
    finally:
        manager.web_pages = None
        await endpoint.close()


async def _telegram(config: Settings, manager: SessionManager, stop: asyncio.Event) -> None:
    """The Telegram adapter (with its outbox worker) on ``manager`` until ``stop`` is set (a
    token or connection that fails for good is an AppError)."""
    from bot.adapters.telegram.service import TelegramUnavailable
    from bot.adapters.telegram.service import serve as serve_telegram

    listen = config.telegram_webhook_listen
    try:
        await serve_telegram(
            manager,
            config.telegram_token.reveal(),
            stop,
            api_url=config.telegram_api_url,
            file_url=config.telegram_file_url,
            webhook_url=config.telegram_webhook_url,
            webhook_secret=config.telegram_webhook_secret.reveal(),
            host=listen.host,
            port=listen.port,
            web_app=config.telegram_web_app,
            pace=config.telegram_pace,
        )
    except TelegramUnavailable as exc:
        raise AppError(str(exc), UNAVAILABLE_EXIT) from None
    finally:
        stop.set()


async def _discord(config: Settings, manager: SessionManager, stop: asyncio.Event) -> None:
    """The Discord adapter (with its outbox worker) on ``manager`` until ``stop`` is set (a
    login or connection that fails for good is an AppError)."""
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
            shard_count=config.discord_shard_count,
            shard_ids=config.discord_shard_ids,
            activity=config.discord_activity,
        )
    except DiscordUnavailable as exc:
        raise AppError(str(exc), UNAVAILABLE_EXIT) from None
    finally:
        stop.set()


def run(play: tuple[str, dict[str, Any]] | None = None) -> int:
    """``hexhall run`` (and ``play``): read the settings and serve; the exit status.  The
    pictures' large buffers are given back when freed, and the threads share few malloc
    arenas (:mod:`bot.heap`)."""
    keep_large_blocks_mapped()
    few_arenas()
    return asyncio.run(serve(loaded_settings(), play))


def _console_name(name: str, fallback: str) -> str:
    # Console players are one word: keep letters, digits and a few signs of the record's name.
    word = "".join(ch for ch in name if ch.isalnum() or ch in "_-.")[:32]
    return word or fallback


async def _import(db_path: str, text: str) -> int:
    try:
        record = parse(text)
    except ValueError as exc:
        raise AppError(_said(N_("cannot import: {reason}"), reason=str(exc))) from None
    one = _console_name(record.players[0], "player1")
    two = _console_name(record.players[1], "player2")
    if one.lower() == two.lower():
        # Console players are told apart by name: renaming them would record other players.
        words = N_(
            "cannot import: both players are called {name}, and console players are told "
            "apart by name; give one of them another name in the record and import it again"
        )
        raise AppError(_said(words, name=repr(one)))
    async with opened(db_path) as manager:
        # Said in the first player's language (their ``settings language`` at the console,
        # else the environment's).
        player = console_user(one)
        said = await manager.players.speakers(player, CHAT, i18n.from_environment(os.environ))
        with i18n.use(said.player):
            reply = await manager.games.import_record(player, CHAT, text, console_user(two))
            row = None if reply.game_id is None else await manager.store.get_game(reply.game_id)
            if not reply.ok:
                raise AppError(reply.text)
            print(reply.text)
            if reply.alt:
                print(reply.alt)
            if row is not None and row.status == GameStatus.ACTIVE:
                print(i18n.gettext("Continue it with: hexhall run"))
    return 0


async def _rebuild_ratings(db_path: str) -> int:
    async with opened(db_path) as manager:
        try:
            done = await manager.players.rebuild_ratings()
        except StoreError as exc:  # one transaction: nothing was written
            reason = str(_store_failed(exc))
            raise AppError(
                _said(N_("ratings not rebuilt, nothing was changed: {reason}"), reason=reason)
            ) from None
    print(
        _said(
            N_("Ratings rebuilt from {games} finished games: {rated} rated, {ratings} ratings."),
            games=str(done.games),
            rated=str(done.rated),
            ratings=str(done.ratings),
        )
    )
    print(
        _said(
            N_("The bot's levels: {levels} ratings from {games} games against the bot."),
            levels=str(done.levels),
            games=str(done.bot_games),
        )
    )
    return 0


def rebuild_ratings() -> int:
    """``hexhall ratings rebuild``: recompute every rating from the stored games in order."""
    return asyncio.run(_rebuild_ratings(loaded_settings().db_path))


async def _migrate(db_url: str) -> int:
    where = redact_url(db_url)
    try:
        store = await open_store(db_url)  # opening applies what is missing
        try:
            after = await store.schema_version()
        finally:
            await store.close()
    except StoreError as exc:
        raise _store_failed(exc) from None
    applied = store.migrated
    if not applied:
        print(f"database {where} already at schema {after}")
    else:
        steps = str(applied[0]) if len(applied) == 1 else f"{applied[0]}..{applied[-1]}"
        print(f"database {where} at schema {after} (applied {steps})")
    return 0


def migrate(db_url: str | None = None) -> int:
    """``hexhall migrate [DB]``: bring the database (``HEXHALL_DB`` by default) to this
    bot's schema and say what was applied.  (The bot does the same when it starts.)"""
    return asyncio.run(_migrate(db_url or loaded_settings().db_path))


def _same_database(one: str, two: str) -> bool:
    path_one, path_two = sqlite_path(one), sqlite_path(two)
    if path_one is None or path_two is None:
        return one.strip() == two.strip()
    return Path(path_one).expanduser().resolve() == Path(path_two).expanduser().resolve()


async def _copy_db(source_url: str, target_url: str) -> int:
    source_name, target_name = redact_url(source_url), redact_url(target_url)
    source_path = sqlite_path(source_url)
    # Opening a missing SQLite file would create an empty one, and copy nothing from it.
    if source_path is not None and (
        source_path == ":memory:" or not Path(source_path).expanduser().is_file()
    ):
        raise AppError(f"cannot copy: no database at {source_name}")
    if _same_database(source_url, target_url):
        raise AppError(f"cannot copy database {source_name} onto itself")
    try:
        async with contextlib.AsyncExitStack() as stack:
            source = await open_store(source_url)
            stack.push_async_callback(source.close)
            target = await open_store(target_url)
            stack.push_async_callback(target.close)
            counts = await copy_database(source, target)
            schema = await target.schema_version()
    except StoreError as exc:
        raise _store_failed(exc) from None
    print(f"copied {source_name} to {target_name} (schema {schema}):")
    width = max(len(name) for name in counts)
    for name, count in counts.items():
        print(f"  {name:<{width}}  {count:>9}")
    print(f"  {'total':<{width}}  {sum(counts.values()):>9} rows")
    return 0


def copy_db(source_url: str, target_url: str) -> int:
    """``hexhall copy-db FROM TO``: copy every player, game, move, challenge, setting,
    vacation, rating and pending notification of the database FROM into the new, empty
    database TO (SQLite to PostgreSQL or back); the rows per table.  All or nothing; stop
    the bot on FROM first."""
    return asyncio.run(_copy_db(source_url, target_url))


def import_file(path: str) -> int:
    """``hexhall import <file>``: store a record's game as a console game."""
    db_path = loaded_settings().db_path
    # A record is at most TEXT_LIMIT characters, so at most 4 bytes each in UTF-8: a bigger
    # file is refused before it is read, and no more than that is ever read (a pipe, say).
    most = 4 * TEXT_LIMIT
    words = N_("cannot import {path}: a record is at most {count} characters")
    too_big = AppError(_said(words, path=path, count=str(TEXT_LIMIT)))
    try:
        with Path(path).open("rb") as file:
            if os.fstat(file.fileno()).st_size > most:
                raise too_big
            data = file.read(most + 1)
        if len(data) > most:
            raise too_big
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        if isinstance(exc, OSError) and exc.strerror:
            reason = exc.strerror
        else:
            reason = i18n.gettext("not UTF-8 text")
        raise AppError(
            _said(N_("cannot read {path}: {reason}"), path=path, reason=reason)
        ) from None
    if len(text) > TEXT_LIMIT:
        raise too_big
    return asyncio.run(_import(db_path, text))


#: The picture formats ``hexhall render`` writes, by file suffix (Pillow's format names).
PICTURE_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}


def render_position(position: engines.Position, output: str) -> str:
    """Draw ``position`` to the file ``output`` in the format its suffix names (PNG or
    JPEG; ``-`` writes PNG to standard output); its description."""
    try:
        import render
    except ImportError:
        missing = i18n.gettext("drawing is not available: the render package is missing")
        raise AppError(missing, 3) from None
    if output == "-":
        sys.stdout.buffer.write(render.board_png(position))
        sys.stdout.buffer.flush()
        return render.describe(position)
    kind = PICTURE_FORMATS.get(Path(output).suffix.lower())
    if kind is None:
        known = ", ".join(PICTURE_FORMATS)
        raise AppError(f"cannot write {output}: name a picture file ending in {known} (or -)")
    if kind == "PNG":
        data = render.board_png(position)
    else:
        out = io.BytesIO()
        render.board_image(position).convert("RGB").save(out, kind, quality=92)
        data = out.getvalue()
    try:
        Path(output).write_bytes(data)
    except OSError as exc:
        raise AppError(f"cannot write {output}: {exc.strerror or exc}") from None
    return render.describe(position)


def games_text() -> str:
    """The games and their options, one game per paragraph."""
    lines = []
    for spec in engines.GAMES.values():
        lines.append(f"{spec.name}: {spec.title} ({spec.sides[0]} vs {spec.sides[1]})")
        for opt in spec.options:
            values = "|".join(option_text(v) for v in opt.values)
            default = option_text(opt.default)
            lines.append(f"  {opt.name}={values} (default {opt.name}={default}): {opt.help}")
    return "\n".join(lines)


def rules_text(game: str, language: str | None = None) -> str:
    """The rules of ``game`` as shipped inside the package, in ``language`` (a language code;
    English when it has no page or is ``None``)."""
    name = game.strip().lower()
    if name not in engines.GAMES:
        raise AppError(f"unknown game {game!r} (games: {', '.join(engines.GAMES)})")
    text = rulebook.page(RULES_DIR, name, language or i18n.SOURCE)
    if text is None:
        raise AppError(f"the rules of {engines.GAMES[name].title} are not available", 3)
    return text.strip()
