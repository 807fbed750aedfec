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
from bot.limits import ECHO_LIMIT, MAX_ID, MAX_PAGE, NAME_LIMIT, ascii_number
from bot.messages import Action, ActionKind, Chat, NeedKind, Reply, Text, User
from bot.sessions import texts
from bot.sessions.clock import DEFAULT_TIME_CONTROL, parse_time_control
from bot.sessions.manager import SessionManager
from engines.base import shown

__all__ = [
    "COMMANDS",
    "HELP",
    "MAX_NAME",
    "command_word",
    "execute",
    "split_id",
    "typed_action",
    "typed_hint",
    "unknown",
]

#: The typed commands (a game id like ``#42`` is needed only with several games in a chat).
HELP = """Commands (a game id like #42 is needed only when you have several games here):
challenge <player|open> <game> [option=value ...] [first=me|them|random] [days=none|1|3|7|14]
  [rated=no]  (games are rated unless rated=no)
challenge bot <game> [level=easy|normal|hard] [option=value ...] [first=...] [days=...]
  (a game against the bot starts at once; never rated)
accept [challenge]   decline [challenge]   cancel [challenge]   (challenges are numbered: 8)
move [#game] <move>   board [#game]   history [#game]   export [#game]   resign [#game]
  (resigning, and a move that would lose, are done only when confirmed: end the line with !)
draw [#game] [accept|decline]   takeback [#game] [accept|decline]   rematch [#game]
away <days>   back   settings [dm on|off | reminders on|off | quiet 22:00-07:00 +01:00|off]
leaderboard <game> [all]   stats [player]
games [page]   rules <game>   help"""

#: The longest name a typed player may have (``as <name>``, ``challenge <name> ...``): the
#: one limit on names (:data:`bot.limits.NAME_LIMIT`).
MAX_NAME = NAME_LIMIT

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
        # ASCII digits in range only (``isdigit`` takes "²", ``int`` takes "٣").
        value = ascii_number(number, MAX_ID, low=1)
        if value is not None:
            return value, words[1:]
    return None, words


def bad_id(words: list[str]) -> str | None:
    """The refusal for a leading ``#...`` that is not an id (``#²``, ``#x``, ``#0``, an id
    beyond :data:`~bot.limits.MAX_ID`), else ``None``.

    >>> bad_id(["#\u00b2"])
    "'#²' is not an id: an id is # and digits 0-9, e.g. #12."
    >>> bad_id(["#12", "e5"]) is None
    True
    """
    if words and words[0].startswith("#") and split_id(words[:1])[0] is None:
        return str(texts.not_an_id(shown(words[0], ECHO_LIMIT)))
    return None


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
    if need.kind is NeedKind.CHALLENGE:
        # Challenges are numbered without "#", which marks games.
        if not need.candidates:
            return f"Give a challenge number, e.g. {word} 8."
        return f"Put its number first, e.g. {word} {need.candidates[0]}."
    if not need.candidates:
        return "Give a game id, e.g. #42."
    example = f"{word} #{need.candidates[0]}" + (" e5" if word == "move" else "")
    return f"Put its id first, e.g. {example}."


def typed_action(action: Action) -> str | None:
    """The line to type instead of pressing ``action``, where one differs from its id (it
    names the game, so it can be followed as written with several games in the chat).

    >>> typed_action(Action.make("Play it anyway", ActionKind.MOVE_ANYWAY, 3, 8, "e5"))
    'move #3 e5 !'
    >>> typed_action(Action.make("Yes, resign", ActionKind.RESIGN_CONFIRMED, 3))
    'resign #3 !'
    """
    if action.kind is ActionKind.MOVE_ANYWAY:
        return f"move #{action.subject} {action.fields[2]} !"
    if action.kind is ActionKind.RESIGN_CONFIRMED:
        return f"resign #{action.subject} !"
    return None


def command_word(line: str) -> str:
    """The first word of ``line`` as a command word: lower case, without the ``/`` chat bots'
    users type before it (nor a Telegram-style ``@botname`` after it).

    >>> command_word("/Board@hexhall_bot #3"), command_word("e5"), command_word("")
    ('board', 'e5', '')
    """
    words = line.split()
    if not words:
        return ""
    return words[0].lower().removeprefix("/").partition("@")[0]


def unknown(word: str) -> str:
    """The refusal of a line that is neither a command nor written like a move."""
    return f"Unknown command {shown(word)!r}; help lists them."


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
    invites by username (see :meth:`SessionManager.challenge`).
    ``current_game`` is the game the adapter is showing: a line that names no game goes to
    it when the player has several that would do and it is one of them."""
    word = command_word(line)
    reply = await _execute(manager, user, chat, line, user_named)
    need = reply.need
    if (
        current_game is not None
        and need is not None
        and need.kind is NeedKind.GAME
        and current_game in need.candidates
    ):
        named = _naming(line, word, current_game)
        reply = await _execute(manager, user, chat, named, user_named)
    hint = typed_hint(reply, word if word in COMMANDS else "move")
    if hint is None:
        return reply
    return replace(reply, body=Text.of(reply.body, " ", hint))


def _naming(line: str, word: str, game_id: int) -> str:
    """``line`` with the game id put in (``board`` -> ``board #3``, ``e5`` -> ``move #3 e5``).

    >>> _naming("draw accept", "draw", 3), _naming("e5 !", "e5", 3)
    ('draw #3 accept', 'move #3 e5 !')
    """
    if word in COMMANDS:
        first, _, rest = line.strip().partition(" ")
        return f"{first} #{game_id} {rest}".rstrip()
    return f"move #{game_id} {line.strip()}"


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
    user_named: Callable[[str], User | None],
) -> Reply:
    words = line.split()
    if not words:
        return Reply.refuse("Type a command, or help.")
    word, rest = command_word(line), words[1:]
    if word not in COMMANDS:
        # A line that is not written like a move of any game is a mistyped command.
        if not engines.looks_like_move(line.strip().removesuffix("!")):
            return Reply.refuse(unknown(words[0]))
        return await _move(manager, user, chat, line)
    if word == "help":
        return Reply(Text.of(HELP))
    if word == "games":
        if rest:
            page = ascii_number(rest[0], MAX_PAGE, low=1)
            if page is None or len(rest) > 1:
                return Reply.refuse(texts.page_usage(shown(rest[0], ECHO_LIMIT)))
            return await manager.games(user, page)
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
        player = user_named(rest[0]) if rest else None
        if rest and player is None:
            return Reply.refuse(texts.not_met(rest[0].removeprefix("@")))
        return await manager.stats(user, chat, player)
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
    wrong_id = bad_id(rest)
    if wrong_id is not None:
        return Reply.refuse(wrong_id)
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
    if word == "resign":
        # Resigning asks first; a trailing "!" is the typed "Yes, resign".
        tail = " ".join(rest).rstrip()
        number, extra = split_id(tail.removesuffix("!").split())
        if extra:
            return Reply.refuse("Usage: resign [#game] [!], e.g. resign #12.")
        return await manager.resign(user, chat, number, confirm=tail.endswith("!"))
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
    return await manager.rematch(user, chat, number)


async def _challenge(
    manager: SessionManager,
    user: User,
    chat: Chat,
    words: list[str],
    user_named: Callable[[str], User | None],
) -> Reply:
    usage = (
        "challenge <player|open> <game> [option=value ...] [first=me|them|random] "
        "[days=none|1|3|7|14] [rated=no]"
    )
    if len(words) < 2:
        return Reply.refuse(f"Usage: {usage}")
    who, game, settings = words[0], words[1], words[2:]
    if len(who) > MAX_NAME or not who.isprintable():
        # Such a player could never type "as <name>" to accept.
        return Reply.refuse(f"A player's name is one word of at most {MAX_NAME} characters.")
    against_bot = who.lower() == "bot"
    opponent = None if against_bot or who.lower() in ("open", "anyone") else user_named(who)
    # A name the adapter cannot look up: invited by username (matched when they accept).
    username = who if opponent is None and who.startswith("@") else None
    if opponent is None and username is None and not against_bot and who.lower() not in (
        "open", "anyone"
    ):  # fmt: skip
        return Reply.refuse(texts.not_met(who))
    options: dict[str, str] = {}
    first = "random"
    rated: str | None = None
    level = "normal"
    days: float | None = DEFAULT_TIME_CONTROL
    for item in settings:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            return Reply.refuse(f"{item[:24]!r} is not option=value. Usage: {usage}")
        name = name.lower()
        if name == "first":
            first = value.lower()
        elif name == "level" and against_bot:
            level = value
        elif name == "rated":
            rated = value
        elif name in ("days", "time"):
            try:
                days = parse_time_control(value)
            except ValueError as exc:
                return Reply.refuse(f"{exc}.")
        else:
            options[name] = value
    if against_bot:
        if rated is not None and rated.lower() != "no":
            return Reply.refuse("Games against the bot are never rated: leave out rated=.")
        return await manager.challenge_bot(user, chat, game, level, options, first, days)
    return await manager.challenge(
        user, chat, game, opponent, options, first, days, "yes" if rated is None else rated,
        username=username,
    )  # fmt: skip


async def _leaderboard(manager: SessionManager, user: User, chat: Chat, words: list[str]) -> Reply:
    """``leaderboard <game> [size] [all]``: the game may name its size (``maphex 16``)."""
    everywhere = bool(words) and words[-1].lower() in ("all", "everywhere")
    game = words[:-1] if everywhere else words
    if not game or len(game) > 2:
        return Reply.refuse("Usage: leaderboard <game> [all], e.g. leaderboard maphex 16 all.")
    return await manager.leaderboard(user, chat, " ".join(game), everywhere)
