"""The commands, each described once: its name, its parameters as typed values, the manager call,
its help line and where it is offered.  From :data:`REGISTRY` come the typed parser (the
console's lines, Telegram's commands: :func:`execute`), the console's help (:func:`help_text`),
Telegram's command menu and handlers (:mod:`bot.adapters.telegram.adapter`) and Discord's
command tree (:mod:`bot.adapters.discord.commands`).

A command's :class:`Param` says what kind of value it takes (:class:`Kind`: a game, a game id,
a player, who moves first, a level, days per move, an answer ...).  Each platform parses at its
edge into :class:`Args` (typed values), and :attr:`Command.run` hands them to the manager.

``/games`` means the same everywhere: your games (active ones first); the five games and their
rules are ``rules``.

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

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import engines
from bot.adapters.args import (
    DAYS,
    EVERYWHERE,
    FIRST,
    LEVELS,
    SCOPES,
    SETTINGS,
    Args,
    Kind,
    Param,
    Surface,
    Typed,
)
from bot.adapters.typed import (
    CHALLENGE_USAGE,
    MAX_NAME,
    answered,
    away_words,
    bare_move,
    challenge_words,
    command_word,
    game_id_only,
    games_words,
    leaderboard_words,
    move_words,
    nothing,
    resign_words,
    rules_words,
    settings_words,
    split_id,
    stats_words,
    typed_action,
    typed_hint,
    unknown,
)
from bot.adapters.typed_premove import PREMOVE_USAGE, premove_words
from bot.adapters.typed_tournament import TOURNAMENT_ACTIONS, TOURNAMENT_USAGE, tournament_words
from bot.core.i18n import N_, gettext
from bot.messages import Chat, NeedKind, Reply, Text, User
from bot.sessions import texts
from bot.sessions.manager import SessionManager
from bot.sessions.tournaments import DEFAULT_MAX, MOST_PLAYERS

__all__ = [
    "COMMAND",
    "COMMANDS",
    "HELP",
    "MAX_NAME",
    "REGISTRY",
    "Args",
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

#: A command's manager call.
Run = Callable[[SessionManager, User, Chat, Args], Awaitable[Reply]]


@dataclass(frozen=True)
class Command:
    """One command (see the module docstring): ``name`` (typed and on Telegram),
    ``chat_name`` (its name on the chat platforms when another), a one-line ``summary``
    (menus, Discord's description), the typed ``usage``, its ``params``, where it is offered
    (``surfaces``), ``run`` (the manager call), ``typed`` (the typed parser), ``private``
    (answered only to the caller where the platform can) and ``record`` (the answer is a
    file)."""

    name: str
    summary: str
    usage: str
    params: tuple[Param, ...]
    run: Run
    typed: Typed
    surfaces: frozenset[Surface] = EVERYWHERE
    chat_name: str = ""
    private: Callable[[Args], bool] = lambda args: False
    record: bool = False
    #: a board in the answer gets the platform's board card (not a past position's picture)
    board_card: bool = True
    #: more on the typed form, for the help (a line of its own under the usage)
    more: str = ""
    #: the usage on the chat platforms when it reads otherwise than typed
    chat_usage: str = ""

    @property
    def slash(self) -> str:
        """The command's name on the chat platforms."""
        return self.chat_name or self.name


# -- the manager calls ---------------------------------------------------------------------


async def _challenge(m: SessionManager, user: User, chat: Chat, a: Args) -> Reply:
    game = a.game or ""
    if a.level is not None and a.player is not None and not a.bot:
        return Reply.refuse(texts.level_is_for_the_bot())
    first = seat_first(game, a.options, a.first)
    if a.bot or a.level is not None:
        return await m.challenge_bot(
            user, chat, game, a.level or "normal", a.options, first, a.days
        )
    rated = True if a.rated is None else a.rated
    return await m.challenge(
        user, chat, game, a.player, a.options, first, a.days, rated, username=a.username
    )


def seat_first(game: str, options: Mapping[str, Any] | None, first: str) -> str:
    """Who takes seat 0 (what the manager reads) from who moves first (what the ``first``
    option says: "Who moves first"). In a game whose first move is seat 1's (Maphex: Blue
    opens, Red is seat 0), the one who moves first takes seat 1.

    >>> seat_first("maphex", None, "me"), seat_first("pathagon", None, "me")
    ('them', 'me')
    >>> seat_first("maphex", {"size": 16}, "random"), seat_first("chess", None, "me")
    ('random', 'me')
    """
    if first not in ("me", "them"):
        return first
    try:
        opener = engines.new(game, **(options or {})).to_move
    except (ValueError, TypeError, KeyError):
        return first  # an unknown game or option: the manager refuses it in its own words
    if opener == 0:
        return first
    return "them" if first == "me" else "me"


async def _move(m: SessionManager, user: User, chat: Chat, a: Args) -> Reply:
    if a.preview:
        return await m.preview(user, chat, a.move or "", a.game_id)
    return await m.move(user, chat, a.move or "", a.game_id, confirm=bool(a.confirm))


async def _resign(m: SessionManager, user: User, chat: Chat, a: Args) -> Reply:
    # A slash command naming a game asks first (Discord's); one naming none resigns the only
    # game here at once, as it always has.
    confirm = a.game_id is None if a.confirm is None else a.confirm
    return await m.resign(user, chat, a.game_id, confirm=confirm)


async def _draw(m: SessionManager, user: User, chat: Chat, a: Args) -> Reply:
    return await m.draw(user, chat, a.game_id, a.answer or "offer")


async def _takeback(m: SessionManager, user: User, chat: Chat, a: Args) -> Reply:
    return await m.takeback(user, chat, a.game_id, a.answer or "ask")


async def _away(m: SessionManager, user: User, chat: Chat, a: Args) -> Reply:
    return await m.away(user, a.count if a.count is not None else "")


async def _tournament(m: SessionManager, user: User, chat: Chat, a: Args) -> Reply:
    action, number = a.action or "standings", a.tournament_id
    if action == "new":
        rated = True if a.rated is None else a.rated
        most = DEFAULT_MAX if a.max_players is None else a.max_players
        game = a.game or ""
        return await m.tournament_new(
            user, chat, game, a.options, a.days, a.rounds or 1, rated, most
        )
    if action == "join":
        return await m.tournament_join(user, chat, number)
    if action == "leave":
        return await m.tournament_leave(user, chat, number)
    if action == "start":
        return await m.tournament_start(user, chat, number)
    if action == "cancel":
        return await m.tournament_cancel(user, chat, number)
    return await m.tournament_standings(user, chat, number)


async def _help(m: SessionManager, user: User, chat: Chat, a: Args) -> Reply:
    return Reply(Text.of(help_text()))  # in the language in use (issue 43)


# -- the registry --------------------------------------------------------------------------

_GAME_ID = Param(
    "game", Kind.GAME_ID, N_("The game (start typing: your games are listed)"), field="game_id"
)
_CHALLENGE_ID = Param(
    "challenge", Kind.CHALLENGE_ID, N_("The challenge's number"), field="challenge_id"
)
_GAMES = Param("game", Kind.GAME, N_("Which game"), required=True, choices=tuple(engines.GAMES))


def _private(args: Args) -> bool:
    return True


REGISTRY: tuple[Command, ...] = (
    Command(
        "challenge",
        N_("Challenge someone (or anyone here) to a game"),
        CHALLENGE_USAGE,
        (
            _GAMES,
            Param(
                "opponent",
                Kind.PLAYER,
                N_("Whom to challenge (empty: anyone here may accept)"),
                field="player",
            ),
            Param("first", Kind.FIRST, N_("Who moves first"), choices=FIRST, default="random"),
            Param("days", Kind.DAYS, N_("Days per move"), choices=DAYS, default="3"),
            Param("size", Kind.SIZE, N_("Board size (games that have sizes)"), field="options"),
            Param("pie", Kind.FLAG, N_("Pie rule (inpHeXion)"), field="options"),
            Param(
                "rated",
                Kind.FLAG,
                N_("Whether the game counts for ratings (rated unless you say no)"),
            ),
            Param(
                "level",
                Kind.LEVEL,
                N_("Play the bot itself at this level (or pick the bot as the opponent)"),
                choices=LEVELS,
            ),
        ),
        _challenge,
        challenge_words,
        chat_usage="challenge <game> [@player|bot] [option=value ...] [first=me|them|random] "
        "[days=none|1|3|7|14] [rated=no]",
        more="challenge bot <game> [level=easy|normal|hard] [option=value ...]: a game against "
        "the bot, at once (never rated); other games are rated unless rated=no",
    ),
    Command(
        "accept",
        N_("Accept a challenge"),
        "accept [challenge]",
        (_CHALLENGE_ID,),
        lambda m, u, c, a: m.accept(u, c, a.challenge_id),
        game_id_only("accept", challenge=True),
        frozenset({Surface.TYPED}),
    ),
    Command(
        "decline",
        N_("Decline a challenge"),
        "decline [challenge]",
        (_CHALLENGE_ID,),
        lambda m, u, c, a: m.decline(u, c, a.challenge_id),
        game_id_only("decline", challenge=True),
        frozenset({Surface.TYPED}),
    ),
    Command(
        "cancel",
        N_("Withdraw your challenge"),
        "cancel [challenge]",
        (_CHALLENGE_ID,),
        lambda m, u, c, a: m.cancel(u, c, a.challenge_id),
        game_id_only("cancel", challenge=True),
        frozenset({Surface.TYPED}),
    ),
    Command(
        "move",
        N_("Play a move (or preview it first)"),
        "move [#game] <move>",
        (
            # The move first: Discord lists required options before optional ones, and the
            # game is optional (empty: your one game in this chat).
            Param(
                "move",
                Kind.MOVE,
                N_("Your move (start typing: legal moves are listed)"),
                required=True,
            ),
            Param(
                "game",
                Kind.GAME_ID,
                N_("The game (empty: your one game here; your turns come first)"),
                field="game_id",
            ),
            Param(
                "preview",
                Kind.FLAG,
                N_("Show the board after the move, privately, before playing it"),
            ),
        ),
        _move,
        move_words,
        private=lambda args: args.preview,
    ),
    Command(
        "board",
        N_("Show a game's board"),
        "board [#game]",
        (_GAME_ID,),
        lambda m, u, c, a: m.board(u, c, a.game_id),
        game_id_only("board"),
    ),
    Command(
        "history",
        N_("The moves of a game so far"),
        "history [#game]",
        (_GAME_ID,),
        lambda m, u, c, a: m.history(u, c, a.game_id),
        game_id_only("history"),
    ),
    Command(
        "review",
        N_("The moves that changed a game most, and what to consider instead"),
        "review [#game]",
        (_GAME_ID,),
        lambda m, u, c, a: m.review(u, c, a.game_id),
        game_id_only("review"),
    ),
    Command(
        "rematch",
        N_("Ask for a rematch of a finished game"),
        "rematch [#game]",
        (_GAME_ID,),
        lambda m, u, c, a: m.rematch(u, c, a.game_id),
        game_id_only("rematch"),
    ),
    Command(
        "export",
        N_("The record of a game as a file"),
        "export [#game]",
        (_GAME_ID,),
        lambda m, u, c, a: m.export(u, c, a.game_id),
        game_id_only("export"),
        record=True,
    ),
    Command(
        "resign",
        N_("Resign a game (asks first)"),
        "resign [#game] [!]",
        (_GAME_ID,),
        _resign,
        resign_words,
        private=_private,
    ),
    Command(
        "draw",
        N_("Offer a draw, or answer your opponent's offer"),
        "draw [#game] [accept|decline]",
        (
            _GAME_ID,
            Param(
                "answer",
                Kind.ANSWER,
                N_("What to do"),
                choices=("offer", "accept", "decline"),
                default="offer",
            ),
        ),
        _draw,
        answered("draw", "offer"),
    ),
    Command(
        "takeback",
        N_("Ask to take back your last move, or answer"),
        "takeback [#game] [accept|decline]",
        (
            _GAME_ID,
            Param(
                "answer",
                Kind.ANSWER,
                N_("What to do"),
                choices=("ask", "accept", "decline"),
                default="ask",
            ),
        ),
        _takeback,
        answered("takeback", "ask"),
        chat_name="undo",
    ),
    Command(
        "games",
        N_("Your games (active ones first)"),
        "games [page]",
        (Param("page", Kind.NUMBER, N_("Page of finished games"), low=1, high=100_000, default=1),),
        lambda m, u, c, a: m.games(u, a.page),
        games_words,
        private=_private,
    ),
    Command(
        "rules",
        N_("The rules of a game"),
        "rules <game>",
        (_GAMES,),
        lambda m, u, c, a: m.rules(a.game or ""),
        rules_words,
        private=_private,
    ),
    Command(
        "settings",
        N_("Your notification settings (or change one)"),
        "settings [dm on|off | reminders on|off | quiet 22:00-07:00 +01:00|off"
        " | digest 08:00 +01:00|off | language <code>|auto | chat-language <code>|auto]",
        (
            Param(
                "setting", Kind.CHOICE, N_("What to change (empty: show them)"), choices=SETTINGS
            ),
            Param(
                "value",
                Kind.TEXT,
                N_(
                    "on / off, quiet hours such as 22:00-07:00 +01:00, a digest time as"
                    " 08:00 +01:00, or a language code or auto"
                ),
                default="",
            ),
        ),
        lambda m, u, c, a: m.settings(u, a.setting, a.value, c),
        settings_words,
        private=_private,
    ),
    Command(
        "away",
        N_("Go on vacation: your clocks stop"),
        "away <days>",
        (
            Param(
                "days",
                Kind.NUMBER,
                N_("How many days"),
                required=True,
                low=1,
                high=14,
                field="count",
            ),
        ),
        _away,
        away_words,
        private=_private,
    ),
    Command(
        "back",
        N_("End your vacation early"),
        "back",
        (),
        lambda m, u, c, a: m.back(u),
        nothing,
        private=_private,
    ),
    Command(
        "leaderboard",
        N_("The top rated players of a game"),
        "leaderboard <game> [all]",
        (
            Param("game", Kind.POOL, N_("Which game (and size)"), required=True),
            Param(
                "scope",
                Kind.CHOICE,
                N_("This server, or everyone"),
                choices=SCOPES,
                default="here",
                field="everywhere",
            ),
        ),
        lambda m, u, c, a: m.leaderboard(u, c, a.game or "", a.everywhere),
        leaderboard_words,
    ),
    Command(
        "stats",
        N_("A player's ratings, results and rating chart"),
        "stats [player]",
        (Param("player", Kind.PLAYER, N_("Whose (empty: yours)")),),
        lambda m, u, c, a: m.stats(u, c, a.player),
        stats_words,
        chat_usage="stats [@player]",
    ),
    Command(
        "browse",
        N_("Step through a game's positions"),
        "browse [#game] [moves]",
        (
            _GAME_ID,
            Param(
                "moves",
                Kind.NUMBER,
                N_("The position after this many moves (empty: the latest)"),
                low=0,
                high=100_000,
                field="ply",
            ),
        ),
        lambda m, u, c, a: m.browse(u, c, a.game_id, a.ply),
        nothing,
        frozenset({Surface.DISCORD}),
        private=_private,
        board_card=False,
    ),
    Command(
        "tournament",
        N_("A round-robin here: open one, join, leave, start, or its standings"),
        "tournament [id]",
        (
            Param(
                "action",
                Kind.CHOICE,
                N_("What to do (empty: the standings)"),
                choices=TOURNAMENT_ACTIONS,
                default="standings",
            ),
            Param("game", Kind.GAME, N_("Which game (to open one)"), choices=tuple(engines.GAMES)),
            Param(
                "id",
                Kind.NUMBER,
                N_("Which tournament (empty: the one here)"),
                low=1,
                high=1_000_000_000,
                field="tournament_id",
            ),
            Param(
                "days", Kind.DAYS, N_("Days per move (1, 3, 7 or 14)"), choices=DAYS, default="3"
            ),
            Param(
                "rounds", Kind.NUMBER, N_("Play each pairing twice, seats swapped"), low=1, high=2
            ),
            Param("rated", Kind.FLAG, N_("Whether its games count for ratings (rated unless no)")),
            Param(
                "max",
                Kind.NUMBER,
                N_("The most players (above 10: groups by rating)"),
                low=3,
                high=MOST_PLAYERS,
                field="max_players",
            ),
            Param("size", Kind.SIZE, N_("Board size (games that have sizes)"), field="options"),
            Param("pie", Kind.FLAG, N_("Pie rule (inpHeXion)"), field="options"),
        ),
        _tournament,
        tournament_words,
        more=f"{TOURNAMENT_USAGE}; tournament join|leave|start|cancel [id]",
    ),
    Command(
        "tournaments",
        N_("This chat's tournaments"),
        "tournaments",
        (),
        lambda m, u, c, a: m.tournament_list(u, c),
        nothing,
    ),
    Command("help", N_("How to play here"), "help", (), _help, nothing, frozenset({Surface.TYPED})),
    Command(
        "premove",
        N_("Prepare replies to your opponent's moves (only you see them)"),
        PREMOVE_USAGE,
        (
            _GAME_ID,
            Param("line", Kind.MOVE, N_("c3 => c5; d4 => d5 (empty: list; clear)"), field="value"),
        ),
        lambda m, u, c, a: m.premove(u, c, a.game_id, a.value),
        premove_words,
        private=_private,
    ),
)

#: Each command by its typed name.
COMMAND: dict[str, Command] = {command.name: command for command in REGISTRY}

#: The typed commands by name.
TYPED: dict[str, Command] = {c.name: c for c in REGISTRY if Surface.TYPED in c.surfaces}

#: Every command word the typed parser knows.
COMMANDS: tuple[str, ...] = tuple(c.name for c in REGISTRY if Surface.TYPED in c.surfaces)


def help_text(registry: Sequence[Command] = REGISTRY) -> str:
    """The typed commands' help: one line each (a game id like ``#42`` is needed only with
    several games in a chat)."""
    lines = [
        gettext("Commands (a game id like #42 is needed only when you have several games here):")
    ]
    for command in registry:
        if Surface.TYPED in command.surfaces:
            summary = gettext(command.summary)
            lines.append(f"{command.usage}  ({summary[:1].lower()}{summary[1:]})")
            if command.more:
                lines.append(f"  {command.more}")
    lines.append(
        gettext(
            "(resigning, and a move that would lose, are done only when confirmed: end the line "
            "with !)"
        )
    )
    return "\n".join(lines)


#: The typed commands' help (see :func:`help_text`).
HELP = help_text()


def menu(surface: Surface, registry: Sequence[Command] = REGISTRY) -> list[Command]:
    """The commands offered on ``surface``, in the registry's order."""
    return [command for command in registry if surface in command.surfaces]


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
    invites by username (see :meth:`SessionManager.challenge`).
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
        args: Args | Reply = bare_move(word)
        command = COMMAND["move"]
    else:
        args = command.typed(words, user_named)
    if isinstance(args, Reply):
        return args
    return await command.run(manager, user, chat, args)
