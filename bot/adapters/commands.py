"""The commands, each described once: its name, its parameters as typed values, the manager call,
its help line and where it is offered.  From :data:`REGISTRY` come the typed parser (the
console's lines, Telegram's commands: :func:`execute`), the console's help (:func:`help_text`),
Telegram's command menu and handlers (:mod:`bot.adapters.telegram.adapter`) and Discord's
command tree (:mod:`bot.adapters.discord.commands`).

A command's :class:`Param` says what kind of value it takes (a :class:`Kind` of
:mod:`bot.adapters.kinds`: a game, a game id, a player, who moves first, a level, days per
move, an answer ...); each kind reads a typed word and describes its option on the platforms
that show options.  Each platform fills the command's own arguments (its dataclass in
:mod:`bot.adapters.args`) at its edge, and :attr:`Command.run` hands them to the manager.
``tournament`` is a family of subcommands (``tournament new|join|...``): typed, its first word
picks one; on Discord it is a group of slash commands.

``/games`` means the same everywhere: your games (active ones first); the five games and their
rules are ``rules``.

The parts live by concern: :class:`Command` in :mod:`bot.adapters.command`, the manager calls
in :mod:`bot.adapters.calls`, :data:`REGISTRY` and the help rendered from it in
:mod:`bot.adapters.registry`; this module runs typed lines and names them all (``__all__``).

Typed forms: :func:`help_text` lists them, a move ending in ``!`` is played even if it loses,
and a refusal that lacks a game or challenge id says how to type one (:func:`typed_hint`).

>>> split_id(["#12", "e5"])
(12, ['e5'])
>>> split_id(["5"], digits=False)
(None, ['5'])
>>> COMMAND["board"].usage
'board [#game]'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import engines
from bot.adapters.args import Picked, Surface
from bot.adapters.command import Command
from bot.adapters.kinds import Kind, Param
from bot.adapters.registry import COMMAND, COMMANDS, HELP, REGISTRY, TYPED, help_text, menu
from bot.adapters.typed import (
    MAX_NAME,
    bare_move,
    command_word,
    split_id,
    typed_action,
    typed_hint,
    unknown,
)
from bot.core.i18n import gettext
from bot.messages import Chat, NeedKind, Reply, Text, User
from bot.sessions.manager import SessionManager

__all__ = [
    "COMMAND",
    "COMMANDS",
    "HELP",
    "MAX_NAME",
    "REGISTRY",
    "Command",
    "Kind",
    "Param",
    "Surface",
    "command_word",
    "execute",
    "help_text",
    "menu",
    "run_words",
    "split_id",
    "typed_action",
    "typed_hint",
    "unknown",
]


# -- running typed lines ---------------------------------------------------------------------


async def execute(
    manager: SessionManager,
    user: User,
    chat: Chat,
    line: str,
    user_named: Callable[[str], User | None],
    current_game: int | None = None,
) -> Reply:
    """Run one command line for ``user`` in ``chat``.  A line that starts with no command word
    is a move.  ``user_named`` turns a typed name into a :class:`User` (for ``challenge`` and
    ``stats``); ``None`` for an ``@username`` the adapter cannot look up: ``challenge`` then
    invites by username (see :meth:`~bot.sessions.services.challenges.Challenges.challenge`).
    ``current_game`` is the game the adapter is showing: a line that names no game goes to
    it when the player has several that would do and it is one of them."""
    words = line.split()
    if not words:
        return Reply.refuse(gettext("Type a command, or help."))
    word = command_word(line)
    if word not in COMMANDS:  # a move: the line as typed
        word, words = line, []
    return await run_words(
        manager, user, chat, word, words[1:] if words else [], user_named, current_game
    )


async def run_words(
    manager: SessionManager,
    user: User,
    chat: Chat,
    word: str,
    words: list[str],
    user_named: Callable[[str], User | None],
    current_game: int | None = None,
    commands: Mapping[str, Command] | None = None,
) -> Reply:
    """Run the command ``word`` with the words after it (as :func:`execute`; a chat platform
    that splits its commands itself calls this).  A ``word`` that is no command is a move
    (``words`` then empty: the move as typed is ``word``).  ``commands`` are the commands
    by name (the typed ones by default)."""
    command = (TYPED if commands is None else commands).get(word)
    reply = await _run(manager, user, chat, command, word, words, user_named)
    need = reply.need
    if (
        current_game is not None
        and need is not None
        and need.kind is NeedKind.GAME
        and current_game in need.candidates
    ):
        named = _naming(command, word, words, current_game)
        again = command if command is not None else COMMAND["move"]
        reply = await _run(manager, user, chat, again, *named, user_named)
    hint = typed_hint(reply, command.name if command is not None else "move")
    if hint is None:
        return reply
    return replace(reply, body=Text.of(reply.body, " ", hint))


def _naming(
    command: Command | None, word: str, words: list[str], game_id: int
) -> tuple[str, list[str]]:
    """The words with the game id put in (``board`` -> ``board #3``, ``e5`` -> ``move #3
    e5``).

    >>> _naming(COMMAND["draw"], "draw", ["accept"], 3), _naming(None, "e5 !", [], 3)
    (('draw', ['#3', 'accept']), ('move', ['#3', 'e5', '!']))
    """
    if command is not None:
        return word, [f"#{game_id}", *words]
    return "move", [f"#{game_id}", *word.split(), *words]


async def _run(
    manager: SessionManager,
    user: User,
    chat: Chat,
    command: Command | None,
    word: str,
    words: list[str],
    user_named: Callable[[str], User | None],
) -> Reply:
    if command is None:
        # A line that is not written like a move of any game is a mistyped command.
        if not engines.looks_like_move(word.strip().removesuffix("!")):
            return Reply.refuse(unknown(word.split()[0], tuple(COMMAND)))
        args: Any = bare_move(word)
        command = COMMAND["move"]
    else:
        assert command.typed is not None  # a typed command (a subcommand is picked below)
        args = command.typed(words, user_named)
    if isinstance(args, Reply):
        return args
    if isinstance(args, Picked):
        command, args = command.pick(args.command), args.args
    return await command.run(manager, user, chat, args)
