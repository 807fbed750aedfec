"""The command registry (see :mod:`bot.adapters.commands`): :data:`REGISTRY`, every command
described once, its lookups by name (:data:`COMMAND`, :data:`TYPED`, :data:`COMMANDS`) and what
is rendered from it for people: the typed help (:func:`help_text`) and each surface's menu
(:func:`menu`).

>>> COMMAND["board"].usage
'board [#game]'
>>> [command.name for command in menu(Surface.TYPED)][:3]
['challenge', 'accept', 'decline']
"""

from __future__ import annotations

from collections.abc import Sequence

import engines
from bot.adapters import calls
from bot.adapters.args import DAYS, FIRST, LEVELS, SCOPES, SETTINGS, Args, Kind, Param, Surface
from bot.adapters.command import Command
from bot.adapters.typed import (
    CHALLENGE_USAGE,
    answered,
    away_words,
    challenge_words,
    game_id_only,
    games_words,
    leaderboard_words,
    move_words,
    nothing,
    resign_words,
    rules_words,
    settings_words,
    stats_words,
)
from bot.adapters.typed_premove import PREMOVE_USAGE, premove_words
from bot.adapters.typed_tournament import TOURNAMENT_ACTIONS, TOURNAMENT_USAGE, tournament_words
from bot.core.i18n import N_, gettext
from bot.messages import Chat, Reply, Text, User
from bot.sessions.manager import SessionManager
from bot.sessions.tournaments import MOST_PLAYERS

__all__ = ["COMMAND", "COMMANDS", "HELP", "REGISTRY", "TYPED", "help_text", "menu"]


async def _help(m: SessionManager, user: User, chat: Chat, a: Args) -> Reply:
    return Reply(Text.of(help_text()))  # in the language in use (issue 43)


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
        calls.challenge,
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
        lambda m, u, c, a: m.challenges.accept(u, c, a.challenge_id),
        game_id_only("accept", challenge=True),
        frozenset({Surface.TYPED}),
    ),
    Command(
        "decline",
        N_("Decline a challenge"),
        "decline [challenge]",
        (_CHALLENGE_ID,),
        lambda m, u, c, a: m.challenges.decline(u, c, a.challenge_id),
        game_id_only("decline", challenge=True),
        frozenset({Surface.TYPED}),
    ),
    Command(
        "cancel",
        N_("Withdraw your challenge"),
        "cancel [challenge]",
        (_CHALLENGE_ID,),
        lambda m, u, c, a: m.challenges.cancel(u, c, a.challenge_id),
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
        calls.move,
        move_words,
        private=lambda args: args.preview,
    ),
    Command(
        "board",
        N_("Show a game's board"),
        "board [#game]",
        (_GAME_ID,),
        lambda m, u, c, a: m.games.board(u, c, a.game_id),
        game_id_only("board"),
    ),
    Command(
        "history",
        N_("The moves of a game so far"),
        "history [#game]",
        (_GAME_ID,),
        lambda m, u, c, a: m.games.history(u, c, a.game_id),
        game_id_only("history"),
    ),
    Command(
        "review",
        N_("The moves that changed a game most, and what to consider instead"),
        "review [#game]",
        (_GAME_ID,),
        lambda m, u, c, a: m.games.review(u, c, a.game_id),
        game_id_only("review"),
    ),
    Command(
        "rematch",
        N_("Ask for a rematch of a finished game"),
        "rematch [#game]",
        (_GAME_ID,),
        lambda m, u, c, a: m.games.rematch(u, c, a.game_id),
        game_id_only("rematch"),
    ),
    Command(
        "export",
        N_("The record of a game as a file"),
        "export [#game]",
        (_GAME_ID,),
        lambda m, u, c, a: m.games.export(u, c, a.game_id),
        game_id_only("export"),
        record=True,
    ),
    Command(
        "resign",
        N_("Resign a game (asks first)"),
        "resign [#game] [!]",
        (_GAME_ID,),
        calls.resign,
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
        calls.draw,
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
        calls.takeback,
        answered("takeback", "ask"),
        chat_name="undo",
    ),
    Command(
        "games",
        N_("Your games (active ones first)"),
        "games [page]",
        (Param("page", Kind.NUMBER, N_("Page of finished games"), low=1, high=100_000, default=1),),
        lambda m, u, c, a: m.games.games(u, a.page),
        games_words,
        private=_private,
    ),
    Command(
        "rules",
        N_("The rules of a game"),
        "rules <game>",
        (_GAMES,),
        lambda m, u, c, a: m.games.rules(a.game or ""),
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
        lambda m, u, c, a: m.players.settings(u, a.setting, a.value, c),
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
        calls.away,
        away_words,
        private=_private,
    ),
    Command(
        "back",
        N_("End your vacation early"),
        "back",
        (),
        lambda m, u, c, a: m.players.back(u),
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
        lambda m, u, c, a: m.players.leaderboard(u, c, a.game or "", a.everywhere),
        leaderboard_words,
    ),
    Command(
        "stats",
        N_("A player's ratings, results and rating chart"),
        "stats [player]",
        (Param("player", Kind.PLAYER, N_("Whose (empty: yours)")),),
        lambda m, u, c, a: m.players.stats(u, c, a.player),
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
        lambda m, u, c, a: m.games.browse(u, c, a.game_id, a.ply),
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
        calls.tournament,
        tournament_words,
        more=f"{TOURNAMENT_USAGE}; tournament join|leave|start|cancel [id]",
    ),
    Command(
        "tournaments",
        N_("This chat's tournaments"),
        "tournaments",
        (),
        lambda m, u, c, a: m.tournaments.tournament_list(u, c),
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
        lambda m, u, c, a: m.games.premove(u, c, a.game_id, a.value),
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
