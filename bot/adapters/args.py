"""What the commands share (see :mod:`bot.adapters.commands`): where a command is offered, the
words some parameters take, and each command's arguments as a small typed value, which each
platform fills at its edge (the typed line's words, Discord's options) and the command's
manager call reads.

>>> MoveArgs("e5", game_id=3).confirm is None
True
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from bot.messages import User
from bot.sessions.clock import DEFAULT_TIME_CONTROL

__all__ = [
    "CHATS",
    "DAYS",
    "EVERYWHERE",
    "FIRST",
    "LEVELS",
    "SCOPES",
    "SETTINGS",
    "AnswerArgs",
    "AwayArgs",
    "BrowseArgs",
    "ChallengeArgs",
    "ChallengeRef",
    "GameArgs",
    "GameRef",
    "LeaderboardArgs",
    "MoveArgs",
    "Named",
    "NoArgs",
    "PageArgs",
    "Picked",
    "PremoveArgs",
    "ResignArgs",
    "SettingsArgs",
    "StatsArgs",
    "Surface",
    "TournamentNew",
    "TournamentRef",
    "Typed",
]

#: Who moves first, as a challenge may say.
FIRST = ("me", "them", "random")
#: Days per move a challenge may ask for (``none``: no clock).
DAYS = ("none", "1", "3", "7", "14")
#: The bot's levels.
LEVELS = ("easy", "normal", "hard")
#: The settings a player may change.
SETTINGS = ("dm", "reminders", "quiet", "digest", "language", "chat-language")
#: The scopes of ``leaderboard``: this server or group, or everyone on the bot.
SCOPES = ("here", "all")


class Surface(enum.Enum):
    """Where a command is offered."""

    #: typed lines: the console (and Telegram's commands, which are typed too)
    TYPED = "typed"
    #: Telegram's command menu
    TELEGRAM = "telegram"
    #: Discord's slash commands
    DISCORD = "discord"


#: Offered everywhere.
EVERYWHERE = frozenset(Surface)
#: Offered on the chat platforms' menus and typed, not as a typed console word only.
CHATS = frozenset({Surface.TELEGRAM, Surface.DISCORD})

# -- each command's arguments ----------------------------------------------------------------


@dataclass(frozen=True)
class NoArgs:
    """A command that takes nothing."""


@dataclass(frozen=True)
class GameRef:
    """A command about one game (``None``: the one here)."""

    game_id: int | None = None


@dataclass(frozen=True)
class ChallengeRef:
    """A command about one challenge (``None``: the one here)."""

    challenge_id: int | None = None


@dataclass(frozen=True)
class GameArgs:
    """A command about one of the games, by name (``rules``)."""

    game: str = ""


@dataclass(frozen=True)
class ChallengeArgs:
    """``challenge``: the game, the opponent (a person, a ``username`` the platform cannot
    look up, the bot, or nobody: anyone here), who moves first, the days per move, the bot's
    level, whether it is rated and the game's own options."""

    game: str = ""
    player: User | None = None
    #: a name the platform cannot look up (a Telegram ``@username``): invited by it
    username: str | None = None
    #: the bot itself is the opponent
    bot: bool = False
    first: str = "random"
    days: float | None = DEFAULT_TIME_CONTROL
    level: str | None = None
    rated: bool | str | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MoveArgs:
    """``move``: the move, in which game, played even if it loses (``confirm``; ``None``: the
    platform's default), or only previewed."""

    move: str = ""
    game_id: int | None = None
    confirm: bool | None = None
    preview: bool = False


@dataclass(frozen=True)
class ResignArgs:
    """``resign``: which game, and whether it is confirmed already (``None``: the default)."""

    game_id: int | None = None
    confirm: bool | None = None


@dataclass(frozen=True)
class AnswerArgs:
    """``draw`` / ``takeback``: which game, and the request or the answer to it."""

    game_id: int | None = None
    answer: str | None = None


@dataclass(frozen=True)
class PageArgs:
    """``games``: which page of finished games."""

    page: int = 1


@dataclass(frozen=True)
class SettingsArgs:
    """``settings``: which one to change, and to what (none: show them)."""

    setting: str | None = None
    value: str = ""


@dataclass(frozen=True)
class AwayArgs:
    """``away``: for how many days (as typed: the manager reads and bounds it)."""

    days: int | str = ""


@dataclass(frozen=True)
class LeaderboardArgs:
    """``leaderboard``: the rating pool (a game and its size) and whether everywhere."""

    game: str = ""
    everywhere: bool = False


@dataclass(frozen=True)
class StatsArgs:
    """``stats``: whose (``None``: the caller's; ``bot``: the bot's levels)."""

    player: User | None = None
    #: the bot itself (its levels' ratings)
    bot: bool = False


@dataclass(frozen=True)
class BrowseArgs:
    """``browse``: which game, and the position after how many moves (``None``: the latest)."""

    game_id: int | None = None
    ply: int | None = None


@dataclass(frozen=True)
class PremoveArgs:
    """``premove``: which game, and the prepared line (empty: list them; ``clear``)."""

    game_id: int | None = None
    line: str = ""


@dataclass(frozen=True)
class TournamentNew:
    """``tournament new``: the game, its options, days per move, rounds, rated, most
    players."""

    game: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    days: float | None = DEFAULT_TIME_CONTROL
    rounds: int = 1
    rated: bool | str | None = None
    max_players: int | None = None


@dataclass(frozen=True)
class TournamentRef:
    """``tournament join|leave|start|cancel|standings``: which tournament (``None``: the one
    here)."""

    tournament_id: int | None = None


A = TypeVar("A")


@dataclass(frozen=True)
class Picked(Generic[A]):
    """What a family of subcommands read from a typed line: the subcommand, by name, and
    its arguments."""

    command: str
    args: A


#: How a typed name is looked up (``None``: no one of that name).
Named = Callable[[str], User | None]

#: A command's typed parser: the words after the command word, and how to look a typed name
#: up, to its arguments (a subcommand's, :class:`Picked`) or a one-line refusal.
Typed = Callable[[list[str], Named], Any]
