"""Text commands (``challenge bob maphex size=16``, ``move #3 e5`` ...) turned into manager calls.

The console speaks these; a chat adapter that reads plain text can use them too.  Slash-command
adapters call the manager directly with the same meanings.  The typed forms are this module's
own business: :data:`HELP` lists them, a move ending in ``!`` is played even if it loses, and a
refusal that lacks a game or challenge id says how to type one (:func:`typed_hint`).

>>> split_id(["#12", "e5"])
(12, ['e5'])
>>> split_id(["5"], digits=False)
(None, ['5'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import engines
from bot.messages import Action, Chat, NeedKind, Reply, Text, User, parse_action
from bot.sessions.clock import DEFAULT_TIME_CONTROL, parse_time_control
from bot.sessions.manager import SessionManager

__all__ = ["COMMANDS", "HELP", "execute", "split_id", "typed_action", "typed_hint"]

#: The typed commands (a game id like ``#42`` is needed only with several games in a chat).
HELP = """Commands (a game id like #42 is needed only when you have several games here):
challenge <player|open> <game> [option=value ...] [first=me|them|random] [days=none|1|3|7|14]
  [rated=no]  (games are rated unless rated=no)
accept [#challenge]   decline [#challenge]   cancel [#challenge]
move [#game] <move>   board [#game]   history [#game]   export [#game]   resign [#game]
  (a move that would lose is not played until you confirm it: end it with !)
draw [#game] [accept|decline]   takeback [#game] [accept|decline]   rematch [#game]
away <days>   back   settings [dm on|off | reminders on|off | quiet 22:00-07:00 +01:00|off]
leaderboard <game> [all]   stats [player]
games [page]   rules <game>   help"""

#: Every command word the parser knows.
COMMANDS = (
    "challenge",
    "accept",
    "decline",
    "cancel",
    "move",
    "board",
    "history",
    "resign",
    "export",
    "draw",
    "takeback",
    "rematch",
    "away",
    "back",
    "settings",
    "games",
    "rules",
    "leaderboard",
    "stats",
    "help",
)


def split_id(words: list[str], digits: bool = True) -> tuple[int | None, list[str]]:
    """Take a leading ``#42`` (or ``42`` when ``digits``) off ``words``."""
    if words:
        head = words[0]
        number = head[1:] if head.startswith("#") else head if digits else ""
        if number.isdigit() and len(number) < 12:
            return int(number), words[1:]
    return None, words


def typed_hint(reply: Reply, word: str) -> str | None:
    """How to type what a refusal says is missing (a game or challenge id), for the command
    ``word`` (``move`` for a bare move line); ``None`` if nothing is missing.

    >>> from bot.messages import Need
    >>> typed_hint(Reply.refuse("x", Need(NeedKind.GAME)), "board")
    'Give a game id, e.g. #42.'
    >>> typed_hint(Reply.refuse("x", Need(NeedKind.GAME, (3, 5))), "move")
    'Put its id first, e.g. move #3 e5.'
    """
    need = reply.need
    if need is None:
        return None
    what = "game" if need.kind is NeedKind.GAME else "challenge"
    if not need.candidates:
        return f"Give a {what} id, e.g. #42."
    example = f"{word} #{need.candidates[0]}" + (" e5" if word == "move" else "")
    return f"Put its id first, e.g. {example}."


def typed_action(action: Action) -> str | None:
    """The line to type instead of pressing ``action``, where one differs from its id.

    >>> typed_action(Action.make("Play it anyway", "mvy", 3, 8, "e5"))
    'e5 !'
    """
    parsed = parse_action(action.id)
    if parsed is not None and parsed[0] == "mvy":
        return f"{parsed[1][2]} !"
    return None


async def execute(
    manager: SessionManager,
    user: User,
    chat: Chat,
    line: str,
    user_named: Callable[[str], User],
) -> Reply:
    """Run one command line for ``user`` in ``chat``.  A line that starts with no command word
    is a move.  ``user_named`` turns a typed name into a :class:`User` (for ``challenge``)."""
    words = line.split()
    word = words[0].lower() if words else ""
    reply = await _execute(manager, user, chat, line, user_named)
    hint = typed_hint(reply, word if word in COMMANDS else "move")
    if hint is None:
        return reply
    return replace(reply, body=Text.of(reply.body, " ", hint))


async def _move(
    manager: SessionManager, user: User, chat: Chat, text: str, game_id: int | None = None
) -> Reply:
    # A move ending in "!" is played even if it loses (the typed "Play it anyway").
    confirm = text.rstrip().endswith("!")
    move = text.rstrip()[:-1] if confirm else text
    return await manager.move(user, chat, move, game_id, confirm=confirm)


async def _execute(
    manager: SessionManager,
    user: User,
    chat: Chat,
    line: str,
    user_named: Callable[[str], User],
) -> Reply:
    words = line.split()
    if not words:
        return Reply.refuse("Type a command, or help.")
    word, rest = words[0].lower(), words[1:]
    if word not in COMMANDS:
        return await _move(manager, user, chat, line)
    if word == "help":
        return Reply(Text.of(HELP))
    if word == "games":
        if rest and rest[0].isdigit():
            return await manager.games(user, int(rest[0]))
        return await manager.games(user)
    if word == "rules":
        if not rest:
            return Reply.refuse(f"Which game? rules <game> ({', '.join(engines.GAMES)}).")
        return await manager.rules(rest[0])
    if word == "challenge":
        return await _challenge(manager, user, chat, rest, user_named)
    if word == "leaderboard":
        return await _leaderboard(manager, user, chat, rest)
    if word == "stats":
        if len(rest) > 1:
            return Reply.refuse("Usage: stats [player]")
        return await manager.stats(user, chat, user_named(rest[0]) if rest else None)
    if word == "away":
        if len(rest) != 1:
            return Reply.refuse("Usage: away <days>, e.g. away 5.")
        return await manager.away(user, rest[0])
    if word == "back":
        return await manager.back(user)
    if word == "settings":
        if not rest:
            return await manager.settings(user)
        return await manager.settings(user, rest[0], " ".join(rest[1:]))
    if word in ("draw", "takeback"):
        number, extra = split_id(rest)
        answers = ("accept", "decline", "yes", "no")
        if len(extra) > 1 or (extra and extra[0].lower() not in answers):
            return Reply.refuse(f"Usage: {word} [#game] [accept|decline]")
        answer = extra[0].lower() if extra else ("offer" if word == "draw" else "ask")
        answer = {"yes": "accept", "no": "decline"}.get(answer, answer)
        if word == "draw":
            return await manager.draw(user, chat, number, answer)
        return await manager.takeback(user, chat, number, answer)
    if word == "move":
        game_id, move = split_id(rest, digits=False)
        if not move:
            return Reply.refuse("Which move? move [#game] <move>, e.g. move e5.")
        return await _move(manager, user, chat, " ".join(move), game_id)
    number, extra = split_id(rest)
    if extra:
        return Reply.refuse(f"{word} takes only an optional id, e.g. {word} #12.")
    if word == "accept":
        return await manager.accept(user, chat, number)
    if word == "decline":
        return await manager.decline(user, chat, number)
    if word == "cancel":
        return await manager.cancel(user, chat, number)
    if word == "board":
        return await manager.board(user, chat, number)
    if word == "history":
        return await manager.history(user, chat, number)
    if word == "export":
        return await manager.export(user, chat, number)
    if word == "rematch":
        return await manager.rematch(user, chat, number)
    return await manager.resign(user, chat, number)


async def _challenge(
    manager: SessionManager,
    user: User,
    chat: Chat,
    words: list[str],
    user_named: Callable[[str], User],
) -> Reply:
    usage = (
        "challenge <player|open> <game> [option=value ...] [first=me|them|random] "
        "[days=none|1|3|7|14] [rated=no]"
    )
    if len(words) < 2:
        return Reply.refuse(f"Usage: {usage}")
    who, game, settings = words[0], words[1], words[2:]
    opponent = None if who.lower() in ("open", "anyone") else user_named(who)
    options: dict[str, str] = {}
    first = "random"
    rated = "yes"
    days: float | None = DEFAULT_TIME_CONTROL
    for item in settings:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            return Reply.refuse(f"{item[:24]!r} is not option=value. Usage: {usage}")
        name = name.lower()
        if name == "first":
            first = value.lower()
        elif name == "rated":
            rated = value
        elif name in ("days", "time"):
            try:
                days = parse_time_control(value)
            except ValueError as exc:
                return Reply.refuse(f"{exc}.")
        else:
            options[name] = value
    return await manager.challenge(user, chat, game, opponent, options, first, days, rated)


async def _leaderboard(manager: SessionManager, user: User, chat: Chat, words: list[str]) -> Reply:
    """``leaderboard <game> [size] [all]``: the game may name its size (``maphex 16``)."""
    everywhere = bool(words) and words[-1].lower() in ("all", "everywhere")
    game = words[:-1] if everywhere else words
    if not game or len(game) > 2:
        return Reply.refuse("Usage: leaderboard <game> [all], e.g. leaderboard maphex 16 all.")
    return await manager.leaderboard(user, chat, " ".join(game), everywhere)
