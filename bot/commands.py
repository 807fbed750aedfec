"""Text commands (``challenge bob maphex size=16``, ``move #3 e5`` ...) turned into manager calls.

The console speaks these; a chat adapter that reads plain text can use them too.  Slash-command
adapters call the manager directly with the same meanings.

>>> split_id(["#12", "e5"])
(12, ['e5'])
>>> split_id(["5"], digits=False)
(None, ['5'])
"""

from __future__ import annotations

from collections.abc import Callable

import engines
from bot.clock import DEFAULT_TIME_CONTROL, parse_time_control
from bot.manager import HELP, SessionManager
from bot.messages import Chat, Reply, User

__all__ = ["COMMANDS", "execute", "split_id"]

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
    if not words:
        return Reply.refuse("Type a command, or help.")
    word, rest = words[0].lower(), words[1:]
    if word not in COMMANDS:
        return await manager.move(user, chat, line)
    if word == "help":
        return Reply(HELP)
    if word == "games":
        return await manager.games(user)
    if word == "rules":
        if not rest:
            return Reply.refuse(f"Which game? rules <game> ({', '.join(engines.GAMES)}).")
        return await manager.rules(rest[0])
    if word == "challenge":
        return await _challenge(manager, user, chat, rest, user_named)
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
        return await manager.move(user, chat, " ".join(move), game_id)
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
        "[days=none|1|3|7|14]"
    )
    if len(words) < 2:
        return Reply.refuse(f"Usage: {usage}")
    who, game, settings = words[0], words[1], words[2:]
    opponent = None if who.lower() in ("open", "anyone") else user_named(who)
    options: dict[str, str] = {}
    first = "random"
    days: float | None = DEFAULT_TIME_CONTROL
    for item in settings:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            return Reply.refuse(f"{item[:24]!r} is not option=value. Usage: {usage}")
        name = name.lower()
        if name == "first":
            first = value.lower()
        elif name in ("days", "time"):
            try:
                days = parse_time_control(value)
            except ValueError as exc:
                return Reply.refuse(f"{exc}.")
        else:
            options[name] = value
    return await manager.challenge(user, chat, game, opponent, options, first, days)
