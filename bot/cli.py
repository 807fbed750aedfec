"""The ``hexhall`` command.

- ``hexhall run``: start the adapters whose tokens are set; with none, the console adapter.
- ``hexhall play <game> [option=value ...]``: a local game at one keyboard, straight away.
- ``hexhall render <game> "<moves>" [option=value ...] -o board.png``: draw a position.
- ``hexhall games``: the games and their options.
- ``hexhall import <file>``: store the game of a plain-text record (from ``export``) as a
  console game between its two players, finished as recorded or ready to continue.

Settings come from the environment and ``.env`` (see ``.env.example``).  Every failure is one
clear line on standard error and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import engines
from bot.config import ConfigError, load_env, settings
from bot.store import Store, StoreError

if TYPE_CHECKING:
    from bot.manager import SessionManager

__all__ = ["main", "parse_moves"]

USAGE_EXIT = 2
UNAVAILABLE_EXIT = 3


class CliError(Exception):
    """A failure to report in one line (exit status in ``code``)."""

    def __init__(self, message: str, code: int = USAGE_EXIT) -> None:
        super().__init__(message)
        self.code = code


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse prints usage and exits 2 by itself
        raise CliError(f"{message} (see hexhall --help)")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="hexhall", description="Hex and connection games by correspondence.")
    sub = parser.add_subparsers(dest="command", metavar="command", parser_class=_Parser)
    sub.add_parser("run", help="start the bot (the console when no chat token is set)")
    play = sub.add_parser("play", help="play a local game at one keyboard")
    play.add_argument("game")
    play.add_argument("options", nargs="*", metavar="option=value")
    draw = sub.add_parser("render", help="draw a position to a PNG file")
    draw.add_argument("game")
    draw.add_argument("moves", help='the moves, e.g. "5 e5 d4" (separate with ; if in doubt)')
    draw.add_argument("options", nargs="*", metavar="option=value")
    draw.add_argument("-o", "--output", required=True, help="PNG file to write")
    sub.add_parser("games", help="list the games and their options")
    imp = sub.add_parser("import", help="store a game record (from export) as a console game")
    imp.add_argument("file", help="the record file (plain text)")
    return parser


def _options(game: str, items: list[str]) -> dict[str, Any]:
    spec = engines.GAMES.get(game.lower())
    if spec is None:
        raise CliError(f"unknown game {game!r} (games: {', '.join(engines.GAMES)})")
    raw: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise CliError(f"{item!r} is not option=value")
        raw[name.lower()] = value
    try:
        return spec.resolve_options(**raw)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def parse_moves(position: engines.Position, text: str) -> engines.Position:
    """Play ``text`` from ``position``: moves separated by ``;``, ``,`` or new lines, or else
    by spaces (a move that needs two words, as in Iso-Path, is found by trying one word first).

    >>> parse_moves(engines.new("maphex"), "5; E5; d4").last_move
    'd4'
    """
    chunks = [c for c in re.split(r"[;,\n]", text) if c.strip()]
    if len(chunks) > 1:
        for number, chunk in enumerate(chunks, 1):
            position = _play(position, chunk, number)
        return position
    words = text.split()
    number, i = 0, 0
    while i < len(words):
        number += 1
        try:
            position = position.play(words[i])
            i += 1
        except engines.IllegalMove as single:
            if i + 1 >= len(words):
                raise CliError(f"move {number} ({words[i]!r}) is illegal: {single}") from None
            position = _play(position, f"{words[i]} {words[i + 1]}", number)
            i += 2
    return position


def _play(position: engines.Position, move: str, number: int) -> engines.Position:
    try:
        return position.play(move)
    except engines.IllegalMove as exc:
        raise CliError(f"move {number} ({move.strip()!r}) is illegal: {exc}") from None


def _games_text() -> str:
    lines = []
    for spec in engines.GAMES.values():
        lines.append(f"{spec.name}: {spec.title} ({spec.sides[0]} vs {spec.sides[1]})")
        for opt in spec.options:
            values = "|".join(str(v) for v in opt.values)
            lines.append(f"  {opt.name}={values} (default {opt.default}): {opt.help}")
    return "\n".join(lines)


def _render(game: str, moves: str, options: list[str], output: str) -> int:
    resolved = _options(game, options)
    position = parse_moves(engines.new(game.lower(), **resolved), moves)
    try:
        import render
    except ImportError:
        raise CliError("drawing is not available: the render package is missing", 3) from None
    png = render.board_png(position)
    try:
        Path(output).write_bytes(png)
    except OSError as exc:
        raise CliError(f"cannot write {output}: {exc.strerror or exc}") from None
    print(f"{output}: {render.describe(position)}")
    return 0


@asynccontextmanager
async def _opened(db_path: str) -> AsyncIterator[SessionManager]:
    """A manager on the database at ``db_path`` (a bad path is a one-line CliError)."""
    from bot.manager import SessionManager

    try:
        store = await Store.open(db_path)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    try:
        yield SessionManager(store)
    finally:
        await store.close()


async def _console(db_path: str, play: tuple[str, dict[str, Any]] | None) -> int:
    from bot.console import CHAT, Console, console_user

    async with _opened(db_path) as manager:
        board_dir = Path(db_path).expanduser().resolve().parent / "hexhall-boards"
        console = Console(manager, board_dir, prompt=sys.stdin.isatty())
        console.say(
            f"Hexhall console (database {db_path}). You are {console.user.name}; "
            "type help for the commands."
        )
        if play is not None:
            game, options = play
            one, two = console_user("player1"), console_user("player2")
            made = await manager.challenge(one, CHAT, game, two, options, "me", None)
            if not made.ok:
                raise CliError(made.text)
            created = made.actions[0].id.split(":")[1]
            await console.show(await manager.accept(two, CHAT, int(created)))
        # The clocks: overdue work found at start-up is handled (paced), then every 30 s.
        stop = asyncio.Event()
        clocks = asyncio.create_task(manager.run_clocks(stop))
        try:
            return await console.run()
        finally:
            stop.set()
            await clocks


def _console_name(name: str, fallback: str) -> str:
    # Console players are one word: keep letters, digits and a few signs of the record's name.
    word = "".join(ch for ch in name if ch.isalnum() or ch in "_-.")[:32]
    return word or fallback


async def _import(db_path: str, text: str) -> int:
    from bot.console import CHAT, console_user
    from bot.records import parse

    try:
        record = parse(text)
    except ValueError as exc:
        raise CliError(f"cannot import: {exc}") from None
    one = _console_name(record.players[0], "player1")
    two = _console_name(record.players[1], "player2")
    if one.lower() == two.lower():
        one, two = f"{one}1", f"{two}2"
    async with _opened(db_path) as manager:
        reply = await manager.import_record(console_user(one), CHAT, text, console_user(two))
    if not reply.ok:
        raise CliError(reply.text)
    print(reply.text)
    if reply.alt:
        print(reply.alt)
    print("Continue it with: hexhall run")
    return 0


def _import_file(path: str) -> int:
    try:
        load_env()
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        raise CliError(f"cannot read {path}: {reason}") from None
    return asyncio.run(_import(settings().db_path, text))


def _run(play: tuple[str, dict[str, Any]] | None = None) -> int:
    try:
        load_env()
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    config = settings()
    if play is None:
        for name, token in (("Discord", config.discord_token), ("Telegram", config.telegram_token)):
            if token:
                raise CliError(
                    f"the {name} adapter is not available yet; unset {name.upper()}_TOKEN "
                    "to play in the terminal",
                    UNAVAILABLE_EXIT,
                )
    return asyncio.run(_console(config.db_path, play))


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hexhall`` console script; returns the exit status."""
    logging.basicConfig(level=logging.WARNING, format="hexhall: %(levelname)s %(message)s")
    args_list = sys.argv[1:] if argv is None else argv
    try:
        args = _parser().parse_args(args_list)
        if args.command == "run":
            return _run()
        if args.command == "play":
            return _run((args.game.lower(), _options(args.game, args.options)))
        if args.command == "render":
            return _render(args.game, args.moves, args.options, args.output)
        if args.command == "import":
            return _import_file(args.file)
        if args.command == "games":
            print(_games_text())
            return 0
        _parser().print_help()
        return USAGE_EXIT
    except CliError as exc:
        print(f"hexhall: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
