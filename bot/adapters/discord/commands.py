"""Discord's slash commands, made from the command registry (:mod:`bot.adapters.commands`): one
:class:`app_commands.Command` per command offered on Discord, its options from the command's
parameters (a game id is a :class:`GameId` transformer with the caller's games to choose from,
a move a :class:`MoveText` with the legal moves), and one callback that turns the options into
:class:`~bot.adapters.args.Args` and hands them to the bot (:class:`Host`).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Sequence
from typing import Any, Optional, Protocol

import discord
from discord import app_commands

import engines
from bot.adapters.args import DAYS, Args, Kind, Param, Surface
from bot.adapters.commands import REGISTRY, Command, menu
from bot.adapters.discord.format import user_of
from bot.adapters.discord.threads import chat_here
from bot.ratings import Pool
from bot.sessions.manager import SessionManager

__all__ = [
    "OUTDATED",
    "GameId",
    "Host",
    "MoveText",
    "OptionRefused",
    "OutOfRange",
    "OutdatedOption",
    "add_commands",
    "game_id",
]

log = logging.getLogger(__name__)

#: The answer to an option of another type than the command now has: the client still shows
#: an old version of the command (Discord's clients cache the command list).
OUTDATED = (
    "Your Discord shows an older version of /{command}: reload Discord (Ctrl+R, or restart "
    "the app) and try again."
)


class OptionRefused(ValueError):
    """An option's value the command cannot take; :attr:`answer` says so in one line."""

    @property
    def answer(self) -> str:
        """The one line the person who used the command is told."""
        return str(self)


class OutdatedOption(OptionRefused):
    """An option arrived with a value of another type than the command's option has now."""

    def __init__(self, command: str, option: str) -> None:
        super().__init__(OUTDATED.format(command=command))
        self.command = command
        self.option = option


class OutOfRange(OptionRefused):
    """A number option outside its bounds (a client that does not check them, or an old
    copy of the command without them), said in the option's own name.

    >>> OutOfRange("moves", 0, 100000).answer
    'moves is a whole number from 0 to 100000.'
    """

    def __init__(self, option: str, low: int | None, high: int | None) -> None:
        super().__init__(f"{option} is a whole number from {low} to {high}.")


class Host(Protocol):
    """What the commands need of the bot: its manager, its user, and how to answer."""

    manager: SessionManager

    @property
    def user(self) -> discord.ClientUser | None:
        """The bot's own user once logged in."""
        ...

    async def run_command(
        self, interaction: discord.Interaction, command: Command, args: Args
    ) -> None:
        """Make ``command``'s manager call with ``args`` and show its reply."""
        ...


def game_id(value: str | None) -> int | None:
    """A game option as typed or chosen (``12``, ``#12``); 0 (no such game) if unreadable.

    >>> game_id("#12"), game_id(" "), game_id("x")
    (12, None, 0)
    """
    if value is None or not value.strip():
        return None
    digits = value.strip().lstrip("#")
    return int(digits) if digits.isdigit() and len(digits) < 19 else 0


def _manager(interaction: discord.Interaction) -> SessionManager | None:
    manager = getattr(interaction.client, "manager", None)
    return manager if isinstance(manager, SessionManager) else None


class GameId(app_commands.Transformer):
    """A game's number, typed (``12``, ``#12``) or chosen from the caller's active games
    (those where it is their turn first)."""

    async def transform(self, interaction: discord.Interaction, value: Any) -> int | None:
        """The number (0 for no such game) of what was typed or chosen."""
        return game_id(str(value))

    async def autocomplete(
        self, interaction: discord.Interaction, value: int | float | str, /
    ) -> list[app_commands.Choice[int | float | str]]:
        """The caller's active games whose label holds what is typed."""
        manager = _manager(interaction)
        if manager is None:
            return []
        games = await manager.games.game_choices(user_of(interaction.user), str(value), 25)
        return [
            app_commands.Choice[int | float | str](name=g.label[:100], value=str(g.game_id))
            for g in games
        ]


class MoveText(app_commands.Transformer):
    """A move, with the legal moves (or beginnings of moves) of the chosen game offered."""

    async def transform(self, interaction: discord.Interaction, value: Any) -> str:
        """The move as typed."""
        return str(value)

    async def autocomplete(
        self, interaction: discord.Interaction, value: int | float | str, /
    ) -> list[app_commands.Choice[int | float | str]]:
        """Legal moves starting with what is typed, in the chosen game, from its current
        position."""
        manager = _manager(interaction)
        if manager is None:
            return []
        typed_game = getattr(interaction.namespace, "game", None)
        game = game_id(typed_game if isinstance(typed_game, str) else None)
        # A prepared line (``/premove``) is completed along the line, not from the position.
        command = interaction.command
        suggest = manager.games.suggest_moves
        if command is not None and command.name == "premove":
            suggest = manager.games.suggest_line
        moves = await suggest(
            user_of(interaction.user),
            chat_here(interaction),
            game,
            str(value)[:100],
            25,
        )
        return [
            app_commands.Choice[int | float | str](name=m[:100], value=m[:100]) for m in moves if m
        ]


def _sizes() -> list[int]:
    return sorted(
        {
            int(v)
            for spec in engines.GAMES.values()
            for opt in spec.options
            if opt.name == "size"
            for v in opt.values
        }
    )


def _annotation(param: Param) -> Any:
    """The Python type discord.py reads the option's Discord type from."""
    kind = param.kind
    if kind is Kind.GAME_ID:
        # typing.Optional: discord.py reads this annotation at runtime, and `X | None` is not
        # defined on its Transform metadata objects.
        return app_commands.Transform[Optional[int], GameId]  # noqa: UP045
    if kind is Kind.MOVE:
        return app_commands.Transform[str, MoveText]
    if kind is Kind.PLAYER:
        return discord.User
    if kind is Kind.FLAG:
        return bool
    if kind is Kind.SIZE:
        return int
    if kind is Kind.NUMBER:
        return app_commands.Range[int, param.low, param.high]
    return str


def _choices(param: Param) -> list[app_commands.Choice[Any]] | None:
    """The option's choices (``None``: any value)."""
    kind = param.kind
    if kind is Kind.GAME:
        return [
            app_commands.Choice(name=spec.title[:100], value=name)
            for name, spec in engines.GAMES.items()
        ]
    if kind is Kind.POOL:
        return [app_commands.Choice(name=pool.title, value=pool.key) for pool in Pool]
    if kind is Kind.DAYS:
        return [app_commands.Choice(name="no clock" if d == "none" else d, value=d) for d in DAYS]
    if kind is Kind.SIZE:
        return [app_commands.Choice(name=str(v), value=v) for v in _sizes()]
    if param.choices:
        return [app_commands.Choice(name=str(c), value=c) for c in param.choices]
    return None


def _days(value: str) -> float | None:
    if value == "none":
        return None
    try:
        return int(value)
    except ValueError:
        return -1  # the manager refuses it, in its words


def _of_its_type(param: Param, value: Any) -> bool:
    """Whether ``value`` is of the type ``param``'s option now has (a client with an old copy
    of the command can send another: discord.py passes it on as it came)."""
    kind = param.kind
    if kind is Kind.GAME_ID:
        return value is None or isinstance(value, int)
    if kind is Kind.PLAYER:
        return isinstance(value, discord.User | discord.Member)
    if kind is Kind.FLAG:
        return isinstance(value, bool)
    if kind in (Kind.SIZE, Kind.NUMBER):
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)


def _args(host: Host, params: Sequence[Param], values: dict[str, Any], command: str = "") -> Args:
    """The options as given turned into the command's typed values; :class:`OutdatedOption`
    for a value of another type than its option has now."""
    fields: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for param in params:
        value = values.get(param.name, param.default)
        if value is None:
            continue
        if not _of_its_type(param, value):
            raise OutdatedOption(command, param.name)
        if param.kind is Kind.NUMBER and not (
            (param.low is None or value >= param.low)
            and (param.high is None or value <= param.high)
        ):
            raise OutOfRange(param.name, param.low, param.high)
        if param.target == "options":
            options[param.name] = value
        elif param.kind is Kind.PLAYER:
            me = host.user
            if me is not None and value.id == me.id:
                fields["bot"] = True  # the bot itself as the opponent: a game against it
            else:
                fields["player"] = user_of(value)
        elif param.kind is Kind.DAYS:
            fields["days"] = _days(value)
        elif param.target == "everywhere":
            fields["everywhere"] = value == "all"
        else:
            fields[param.target] = value
    if options:
        fields["options"] = options
    return Args(**fields)


def _slash(host: Host, command: Command) -> app_commands.Command[Any, ..., None]:
    params = command.params

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        try:
            args = _args(host, params, values, command.slash)
        except OptionRefused as refused:
            log.info("interaction %s: /%s: %s", interaction.id, command.slash, refused)
            await interaction.response.send_message(refused.answer, ephemeral=True)
            return
        await host.run_command(interaction, command, args)

    signature = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                          annotation=discord.Interaction),
    ]  # fmt: skip
    for param in params:
        annotation = _annotation(param)
        default: Any = inspect.Parameter.empty
        if not param.required:
            default = param.default
            if default is None:
                # typing.Optional, as above: `annotation` may be a Transform object without `|`.
                annotation = Optional[annotation]  # noqa: UP045
        signature.append(
            inspect.Parameter(
                param.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default
            )
        )
    # discord.py reads the options from the callback's signature; a function object takes
    # the attribute at runtime, but typeshed's FunctionType does not declare it.
    callback.__signature__ = inspect.Signature(signature)  # type: ignore[attr-defined]
    callback.__qualname__ = callback.__name__ = f"slash_{command.slash}"
    # Described and given their choices on the callback, before the command is made: the
    # command then takes every description as a translatable string (issue 43's Translator).
    described = {p.name: p.description[:100] for p in params}
    if described:
        callback = app_commands.describe(**described)(callback)
    chosen = {p.name: c for p in params if (c := _choices(p)) is not None}
    if chosen:
        callback = app_commands.choices(**chosen)(callback)
    cmd: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=command.slash, description=command.summary[:100], callback=callback
    )
    return cmd


def add_commands(
    host: Host, tree: app_commands.CommandTree[Any], registry: Sequence[Command] = REGISTRY
) -> None:
    """Add a slash command to ``tree`` for every command of ``registry`` offered on Discord."""
    for command in menu(Surface.DISCORD, registry):
        tree.add_command(_slash(host, command))
