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
from dataclasses import replace

from bot.adapters import calls
from bot.adapters.args import (
    AnswerArgs,
    AwayArgs,
    BrowseArgs,
    ChallengeArgs,
    ChallengeRef,
    GameArgs,
    GameRef,
    LeaderboardArgs,
    MoveArgs,
    NoArgs,
    PageArgs,
    PremoveArgs,
    ResignArgs,
    SettingsArgs,
    StatsArgs,
    Surface,
    TournamentNew,
    TournamentRef,
)
from bot.adapters.command import Command, CommandOf, Run
from bot.adapters.kinds import (
    FIRST_MOVER,
    LEVEL,
    SCOPE,
    SETTING,
    Answer,
    ChallengeId,
    Days,
    Flag,
    GameId,
    GameName,
    GameOptions,
    MoveText,
    Number,
    Param,
    Player,
    PoolKey,
    Text,
)
from bot.adapters.typed import (
    CHALLENGE_USAGE,
    answered,
    away_words,
    browse_words,
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
from bot.adapters.typed_tournament import (
    MOST,
    ROUNDS,
    TOURNAMENT,
    TOURNAMENT_USAGE,
    tournament_words,
)
from bot.core.i18n import N_, NP_, gettext
from bot.limits import MAX_PAGE
from bot.messages import Chat, Reply, User
from bot.messages import Text as Said
from bot.sessions.manager import SessionManager

__all__ = ["COMMAND", "COMMANDS", "HELP", "REGISTRY", "TYPED", "help_text", "menu"]


async def _help(m: SessionManager, user: User, chat: Chat, a: NoArgs) -> Reply:
    return Reply(Said.of(help_text()))  # in the language in use (issue 43)


_GAME_ID = Param(
    NP_("option", "game"),
    GameId(),
    N_("The game (start typing: your games are listed)"),
    field="game_id",
)
_CHALLENGE_ID = Param(
    NP_("option", "challenge"), ChallengeId(), N_("The challenge's number"), field="challenge_id"
)
_GAMES = Param(NP_("option", "game"), GameName(), N_("Which game"), required=True)
#: The games' own options (one Discord option per option any game has; ``name=value`` typed).
_OPTIONS = Param("options", GameOptions(), "")
_DAYS = Days()
_DRAW = Answer(("offer", "accept", "decline"))
_TAKEBACK = Answer(("ask", "accept", "decline"))


def _private(args: object) -> bool:
    return True


def _on_a_board(name: str, summary: str, run: Run[GameRef]) -> CommandOf[GameRef]:
    """A command about one game that takes only its id (``board [#game]``)."""
    return Command(
        name,
        summary,
        f"{name} [#game]",
        (_GAME_ID,),
        GameRef,
        run,
        game_id_only(name),
    )


def _about_a_challenge(name: str, summary: str, run: Run[ChallengeRef]) -> CommandOf[ChallengeRef]:
    """A typed command about one challenge (``accept [challenge]``)."""
    return Command(
        name,
        summary,
        f"{name} [challenge]",
        (_CHALLENGE_ID,),
        ChallengeRef,
        run,
        game_id_only(name, challenge=True),
        frozenset({Surface.TYPED}),
    )


def _tournament_ref(name: str, summary: str, run: Run[TournamentRef]) -> CommandOf[TournamentRef]:
    """A tournament subcommand about one tournament (``tournament join [id]``)."""
    return Command(
        name,
        summary,
        f"tournament {name} [id]",
        (
            Param(
                NP_("option", "id"),
                TOURNAMENT,
                N_("Which tournament (empty: the one here)"),
                field="tournament_id",
            ),
        ),
        TournamentRef,
        run,
        None,
        family="tournament",
    )


async def _no_call(m: SessionManager, user: User, chat: Chat, a: NoArgs) -> Reply:
    # A family is run through its subcommands (its typed form picks one).
    raise AssertionError("a family of subcommands has no call of its own")


REGISTRY: tuple[Command, ...] = (
    Command(
        NP_("command", "challenge"),
        N_("Challenge someone (or anyone here) to a game"),
        CHALLENGE_USAGE,
        (
            _GAMES,
            Param(
                NP_("option", "opponent"),
                Player(),
                N_("Whom to challenge (empty: anyone here may accept)"),
                field="player",
            ),
            Param(NP_("option", "first"), FIRST_MOVER, N_("Who moves first"), default="random"),
            Param(NP_("option", "days"), _DAYS, N_("Days per move"), default="3"),
            _OPTIONS,
            Param(
                NP_("option", "rated"),
                Flag(),
                N_("Whether the game counts for ratings (rated unless you say no)"),
            ),
            Param(
                NP_("option", "level"),
                LEVEL,
                N_("Play the bot itself at this level (or pick the bot as the opponent)"),
            ),
        ),
        ChallengeArgs,
        calls.challenge,
        challenge_words,
        chat_usage="challenge <game> [@player|bot] [option=value ...] [first=me|them|random] "
        "[days=none|1|3|7|14] [rated=no]",
        more="challenge bot <game> [level=easy|normal|hard] [option=value ...]: a game against "
        "the bot, at once (never rated for you; challenge bot alone: its levels' ratings, "
        "stats bot: with their games); other games are rated unless rated=no",
    ),
    _about_a_challenge(
        "accept",
        N_("Accept a challenge"),
        lambda m, u, c, a: m.challenges.accept(u, c, a.challenge_id),
    ),
    _about_a_challenge(
        "decline",
        N_("Decline a challenge"),
        lambda m, u, c, a: m.challenges.decline(u, c, a.challenge_id),
    ),
    _about_a_challenge(
        "cancel",
        N_("Withdraw your challenge"),
        lambda m, u, c, a: m.challenges.cancel(u, c, a.challenge_id),
    ),
    Command(
        NP_("command", "move"),
        N_("Play a move (or preview it first)"),
        "move [#game] <move>",
        (
            # The move first: Discord lists required options before optional ones, and the
            # game is optional (empty: your one game in this chat).
            Param(
                NP_("option", "move"),
                MoveText(),
                N_("Your move (start typing: legal moves are listed)"),
                required=True,
            ),
            Param(
                NP_("option", "game"),
                GameId(),
                N_("The game (empty: your one game here; your turns come first)"),
                field="game_id",
            ),
            Param(
                NP_("option", "preview"),
                Flag(),
                N_("Show the board after the move, privately, before playing it"),
            ),
        ),
        MoveArgs,
        calls.move,
        move_words,
        private=lambda args: args.preview,
    ),
    _on_a_board(
        NP_("command", "board"),
        N_("Show a game's board"),
        lambda m, u, c, a: m.games.board(u, c, a.game_id),
    ),
    _on_a_board(
        NP_("command", "history"),
        N_("The moves of a game so far"),
        lambda m, u, c, a: m.games.history(u, c, a.game_id),
    ),
    _on_a_board(
        NP_("command", "review"),
        N_("The moves that changed a game most, and what to consider instead"),
        lambda m, u, c, a: m.games.review(u, c, a.game_id),
    ),
    _on_a_board(
        NP_("command", "rematch"),
        N_("Ask for a rematch of a finished game"),
        lambda m, u, c, a: m.games.rematch(u, c, a.game_id),
    ),
    replace(
        _on_a_board(
            NP_("command", "export"),
            N_("The record of a game as a file"),
            lambda m, u, c, a: m.games.export(u, c, a.game_id),
        ),
        record=True,
    ),
    Command(
        NP_("command", "resign"),
        N_("Resign a game (asks first)"),
        "resign [#game] [!]",
        (_GAME_ID,),
        ResignArgs,
        calls.resign,
        resign_words,
        private=_private,
    ),
    Command(
        NP_("command", "draw"),
        N_("Offer a draw, or answer your opponent's offer"),
        "draw [#game] [accept|decline]",
        (
            _GAME_ID,
            Param(NP_("option", "answer"), _DRAW, N_("What to do"), default="offer"),
        ),
        AnswerArgs,
        calls.draw,
        answered("draw", _DRAW),
    ),
    Command(
        "takeback",
        N_("Ask to take back your last move, or answer"),
        "takeback [#game] [accept|decline]",
        (
            _GAME_ID,
            Param(NP_("option", "answer"), _TAKEBACK, N_("What to do"), default="ask"),
        ),
        AnswerArgs,
        calls.takeback,
        answered("takeback", _TAKEBACK),
        chat_name=NP_("command", "undo"),
    ),
    Command(
        NP_("command", "games"),
        N_("Your games (active ones first)"),
        "games [page]",
        (
            Param(
                NP_("option", "page"),
                Number(1, MAX_PAGE),
                N_("Page of finished games"),
                default=1,
            ),
        ),
        PageArgs,
        lambda m, u, c, a: m.games.games(u, a.page),
        games_words,
        private=_private,
    ),
    Command(
        NP_("command", "rules"),
        N_("The rules of a game"),
        "rules <game>",
        (_GAMES,),
        GameArgs,
        lambda m, u, c, a: m.games.rules(a.game),
        rules_words,
        private=_private,
    ),
    Command(
        NP_("command", "settings"),
        N_("Your notification settings (or change one)"),
        "settings [dm on|off | reminders on|off | quiet 22:00-07:00 +01:00|off"
        " | digest 08:00 +01:00|off | language <code>|auto | chat-language <code>|auto]",
        (
            Param(NP_("option", "setting"), SETTING, N_("What to change (empty: show them)")),
            Param(
                NP_("option", "value"),
                Text(),
                N_(
                    "on / off, quiet hours such as 22:00-07:00 +01:00, a digest time as"
                    " 08:00 +01:00, or a language code or auto"
                ),
                default="",
            ),
        ),
        SettingsArgs,
        lambda m, u, c, a: m.players.settings(u, a.setting, a.value, c),
        settings_words,
        private=_private,
    ),
    Command(
        NP_("command", "away"),
        N_("Go on vacation: your clocks stop"),
        "away <days>",
        (Param(NP_("option", "days"), Number(1, 14), N_("How many days"), required=True),),
        AwayArgs,
        calls.away,
        away_words,
        private=_private,
    ),
    Command(
        NP_("command", "back"),
        N_("End your vacation early"),
        "back",
        (),
        NoArgs,
        lambda m, u, c, a: m.players.back(u),
        nothing,
        private=_private,
    ),
    Command(
        NP_("command", "leaderboard"),
        N_("The top rated players of a game"),
        "leaderboard <game> [all]",
        (
            Param(NP_("option", "game"), PoolKey(), N_("Which game (and size)"), required=True),
            Param(
                NP_("option", "scope"),
                SCOPE,
                N_("This server, or everyone"),
                default="here",
                field="everywhere",
            ),
        ),
        LeaderboardArgs,
        lambda m, u, c, a: m.players.leaderboard(u, c, a.game, a.everywhere),
        leaderboard_words,
    ),
    Command(
        NP_("command", "stats"),
        N_("A player's ratings, results and rating chart"),
        "stats [player]",
        (Param(NP_("option", "player"), Player(), N_("Whose (empty: yours)")),),
        StatsArgs,
        lambda m, u, c, a: m.players.stats(u, c, a.player, bot=a.bot),
        stats_words,
        chat_usage="stats [@player]",
    ),
    Command(
        NP_("command", "browse"),
        N_("Step through a game's positions"),
        "browse [#game] [moves]",
        (
            _GAME_ID,
            Param(
                NP_("option", "moves"),
                Number(0, 100_000),
                N_("The position after this many moves (empty: the latest)"),
                field="ply",
            ),
        ),
        BrowseArgs,
        lambda m, u, c, a: m.games.browse(u, c, a.game_id, a.ply),
        browse_words,
        frozenset({Surface.DISCORD}),
        private=_private,
        board_card=False,
    ),
    Command(
        NP_("command", "tournament"),
        N_("A round-robin here: open one, join, leave, start, or its standings"),
        "tournament [id]",
        (),
        NoArgs,
        _no_call,
        tournament_words,
        more=f"{TOURNAMENT_USAGE}; tournament join|leave|start|cancel [id]",
        subcommands=(
            Command(
                NP_("command", "new"),
                N_("Open a round-robin here"),
                TOURNAMENT_USAGE,
                (
                    Param(NP_("option", "game"), GameName(), N_("Which game"), required=True),
                    Param(
                        NP_("option", "days"),
                        _DAYS,
                        N_("Days per move (1, 3, 7 or 14)"),
                        default="3",
                    ),
                    Param(
                        NP_("option", "rounds"),
                        ROUNDS,
                        N_("Play each pairing twice, seats swapped"),
                    ),
                    Param(
                        NP_("option", "rated"),
                        Flag(),
                        N_("Whether its games count for ratings (rated unless no)"),
                    ),
                    Param(
                        NP_("option", "max"),
                        MOST,
                        N_("The most players (above 10: groups by rating)"),
                        field="max_players",
                    ),
                    _OPTIONS,
                ),
                TournamentNew,
                calls.tournament_new,
                None,
                family="tournament",
            ),
            _tournament_ref(
                NP_("command", "join"),
                N_("Join the tournament here"),
                lambda m, u, c, a: m.tournaments.tournament_join(u, c, a.tournament_id),
            ),
            _tournament_ref(
                NP_("command", "leave"),
                N_("Leave a tournament (asks first)"),
                lambda m, u, c, a: m.tournaments.tournament_leave(u, c, a.tournament_id),
            ),
            _tournament_ref(
                NP_("command", "start"),
                N_("Start the tournament you opened"),
                lambda m, u, c, a: m.tournaments.tournament_start(u, c, a.tournament_id),
            ),
            _tournament_ref(
                NP_("command", "cancel"),
                N_("Cancel the tournament you opened"),
                lambda m, u, c, a: m.tournaments.tournament_cancel(u, c, a.tournament_id),
            ),
            _tournament_ref(
                NP_("command", "standings"),
                N_("A tournament's standings"),
                lambda m, u, c, a: m.tournaments.tournament_standings(u, c, a.tournament_id),
            ),
        ),
    ),
    Command(
        NP_("command", "tournaments"),
        N_("This chat's tournaments"),
        "tournaments",
        (),
        NoArgs,
        lambda m, u, c, a: m.tournaments.tournament_list(u, c),
        nothing,
    ),
    Command(
        "help",
        N_("How to play here"),
        "help",
        (),
        NoArgs,
        _help,
        nothing,
        frozenset({Surface.TYPED}),
    ),
    Command(
        NP_("command", "premove"),
        N_("Prepare replies to your opponent's moves (only you see them)"),
        PREMOVE_USAGE,
        (
            _GAME_ID,
            Param(
                NP_("option", "line"),
                MoveText(line=True),
                N_("c3 => c5; d4 => d5 (empty: list; clear)"),
                field="line",
            ),
        ),
        PremoveArgs,
        lambda m, u, c, a: m.games.premove(u, c, a.game_id, a.line),
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
