"""The ``hexhall`` command.

- ``hexhall run``: start the adapters whose tokens are set; with none, the console adapter.
- ``hexhall play <game> [option=value ...]``: a local game at one keyboard, straight away.
- ``hexhall render <game> "<moves>" [option=value ...] -o board.png``: draw a position.
- ``hexhall games``: the games and their options.
- ``hexhall rules <game>``: the rules of a game (as shipped inside the package).
- ``hexhall import <file>``: store the game of a plain-text record (from ``export``) as a
  console game between its two players, finished as recorded or ready to continue.
- ``hexhall ratings rebuild``: recompute every rating from the stored games in order, the
  bot's level ratings too (the same numbers the games gave as they ended; run it once after
  upgrading an older database).
- ``hexhall migrate [DB]``: bring the database (``HEXHALL_DB`` by default) to this version's
  schema (the bot does it too when it starts).
- ``hexhall copy-db FROM TO``: copy a database into a new, empty one, e.g. an SQLite file to
  PostgreSQL (``postgresql://user:password@host/db``) or back; stop the bot first.

Settings come from the environment and ``.env`` (see ``.env.example``).  Every failure is one
clear line on standard error and a non-zero exit status, never a traceback.  This module only
parses arguments: what each command does is in :mod:`bot.app`.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
from typing import Any

import engines
from bot import app
from bot.app import USAGE_EXIT, AppError
from bot.core import i18n
from bot.sessions.texts.illegal import illegal_move

__all__ = ["main", "parse_moves"]


class CliError(AppError):
    """Arguments that cannot be used (exit status 2 unless told)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse prints usage and exits 2 by itself
        raise CliError(f"{message} (see hexhall --help)")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="hexhall", description="Hex and connection games by correspondence.")
    sub = parser.add_subparsers(dest="command", metavar="command", parser_class=_Parser)
    sub.add_parser("run", help="start the bot (the console when no chat token is set)")
    play = sub.add_parser("play", help="play a local game at one keyboard")
    play.add_argument("game")
    play.add_argument("options", nargs="*", default=[], metavar="option=value")
    draw = sub.add_parser("render", help="draw a position to a PNG file")
    draw.add_argument("game")
    draw.add_argument("moves", help='the moves, e.g. "5 e5 d4" (separate with ; if in doubt)')
    draw.add_argument("options", nargs="*", default=[], metavar="option=value")
    draw.add_argument(
        "-o", "--output", required=True, help="picture file to write (.png, .jpg; - for stdout)"
    )
    sub.add_parser("games", help="list the games and their options")
    rules = sub.add_parser("rules", help="show the rules of a game")
    rules.add_argument("game")
    rules.add_argument(
        "--language", default=None, help="a language code (es, ja, de, fr, pt_BR; default en)"
    )
    imp = sub.add_parser("import", help="store a game record (from export) as a console game")
    imp.add_argument("file", help="the record file (plain text)")
    ratings = sub.add_parser("ratings", help="rating tools: rebuild")
    ratings.add_argument("action", choices=["rebuild"], help="recompute from the stored games")
    migrate = sub.add_parser("migrate", help="bring a database to this version's schema")
    migrate.add_argument("db", nargs="?", metavar="DB", help="the database (default HEXHALL_DB)")
    copy = sub.add_parser(
        "copy-db", help="copy a database into a new, empty one (SQLite <-> PostgreSQL)"
    )
    copy.add_argument("source", metavar="FROM", help="the database to copy (stop the bot first)")
    copy.add_argument("target", metavar="TO", help="a new, empty database (created if SQLite)")
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
    # A word of the game's own (inpHeXion's swap) is always a turn of its own.
    alone = set(engines.GAMES[position.game].words)
    number, i = 0, 0
    while i < len(words):
        number += 1
        try:
            position = position.play(words[i])
            i += 1
        except engines.IllegalMove as single:
            if i + 1 >= len(words) or {words[i].lower(), words[i + 1].lower()} & alone:
                why = illegal_move(single)
                raise CliError(f"move {number} ({words[i]!r}) is illegal: {why}") from None
            position = _play(position, f"{words[i]} {words[i + 1]}", number)
            i += 2
    return position


def _play(position: engines.Position, move: str, number: int) -> engines.Position:
    try:
        return position.play(move)
    except engines.IllegalMove as exc:
        why = illegal_move(exc)
        raise CliError(f"move {number} ({move.strip()!r}) is illegal: {why}") from None


def _render(game: str, moves: str, options: list[str], output: str) -> int:
    resolved = _options(game, options)
    position = parse_moves(engines.new(game.lower(), **resolved), moves)
    described = app.render_position(position, output)
    # With -o - the picture is on standard output: the description goes beside it.
    print(f"{output}: {described}", file=sys.stderr if output == "-" else sys.stdout)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hexhall`` console script; returns the exit status."""
    logging.basicConfig(level=logging.WARNING, format="hexhall: %(levelname)s %(message)s")
    args_list = sys.argv[1:] if argv is None else argv
    # What the command line says (its errors, an import's answer) is in the environment's
    # language (``LANG``...); at the console, a player's ``settings language`` wins.
    with i18n.use(i18n.from_environment(os.environ)):
        return _main(args_list)


def _main(args_list: list[str]) -> int:
    try:
        args = _parser().parse_args(args_list)
        if args.command == "run":
            return app.run()
        if args.command == "play":
            return app.run((args.game.lower(), _options(args.game, args.options)))
        if args.command == "render":
            return _render(args.game, args.moves, args.options, args.output)
        if args.command == "import":
            return app.import_file(args.file)
        if args.command == "ratings":
            return app.rebuild_ratings()
        if args.command == "migrate":
            return app.migrate(args.db)
        if args.command == "copy-db":
            return app.copy_db(args.source, args.target)
        if args.command == "games":
            print(app.games_text())
            return 0
        if args.command == "rules":
            print(app.rules_text(args.game, args.language))
            return 0
        _parser().print_help()
        return USAGE_EXIT
    except AppError as exc:
        print(f"hexhall: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
