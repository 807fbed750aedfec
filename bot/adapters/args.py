"""The values the commands share (see :mod:`bot.adapters.commands`): where a command is
offered, the kinds of parameter, a parameter, and a command's parameters as typed values
(:class:`Args`), which each platform parses at its edge."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.messages import Reply, User
from bot.sessions.clock import DEFAULT_TIME_CONTROL

__all__ = [
    "CHATS",
    "DAYS",
    "EVERYWHERE",
    "FIRST",
    "LEVELS",
    "SCOPES",
    "SETTINGS",
    "Args",
    "Kind",
    "Param",
    "Surface",
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


class Kind(enum.Enum):
    """The kind of value a parameter takes (each platform shows and parses it its way)."""

    #: one of the five games, by name
    GAME = "game"
    #: a rating pool (a game and its size), by key
    POOL = "pool"
    #: a game's number (``#42`` typed; chosen from your games on Discord)
    GAME_ID = "game id"
    #: a challenge's number
    CHALLENGE_ID = "challenge id"
    #: a move in a game's notation
    MOVE = "move"
    #: a person on the platform
    PLAYER = "player"
    #: who moves first: me, them or random
    FIRST = "first"
    #: days per move: none, 1, 3, 7 or 14
    DAYS = "days"
    #: the bot's level
    LEVEL = "level"
    #: a board size
    SIZE = "size"
    #: yes or no
    FLAG = "flag"
    #: an answer to a request (accept, decline; or the request itself)
    ANSWER = "answer"
    #: a whole number
    NUMBER = "number"
    #: one word of a few
    CHOICE = "choice"
    #: free text
    TEXT = "text"


@dataclass(frozen=True)
class Param:
    """One parameter of a command: its ``name`` (the option's name on Discord), what ``kind``
    of value, whether it is ``required``, a ``description`` for the platforms that show one,
    the ``choices`` to pick from (empty: any), the ``low`` / ``high`` bounds of a number,
    its ``default``, and the :class:`Args` ``field`` it fills (the name by default)."""

    name: str
    kind: Kind
    description: str
    required: bool = False
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None
    default: Any = None
    field: str = ""

    @property
    def target(self) -> str:
        """The :class:`Args` field this parameter fills."""
        return self.field or self.name


@dataclass(frozen=True)
class Args:
    """A command's parameters as typed values (``None``: not given)."""

    game: str | None = None
    game_id: int | None = None
    challenge_id: int | None = None
    move: str | None = None
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
    answer: str | None = None
    page: int = 1
    count: int | str | None = None
    ply: int | None = None
    setting: str | None = None
    value: str = ""
    everywhere: bool = False
    #: a move that loses played anyway, resigning without asking (typed ``!``); ``None``:
    #: the platform's default
    confirm: bool | None = None
    preview: bool = False
    #: ``tournament``: what to do (new, join, leave, start, cancel, standings)
    action: str | None = None
    #: ``tournament``: which tournament (``None``: the one here)
    tournament_id: int | None = None
    #: ``tournament new``: each pairing once or twice
    rounds: int | None = None
    #: ``tournament new``: the most players
    max_players: int | None = None


#: A command's typed parser: the words after the command word, and how to look a typed name
#: up, to its arguments or a refusal.
Typed = Callable[[list[str], Callable[[str], User | None]], "Args | Reply"]
