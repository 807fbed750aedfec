"""Discord's slash commands, made from the command registry (:mod:`bot.adapters.commands`): one
:class:`app_commands.Command` per command offered on Discord, and a family of subcommands
(``tournament``) as an :class:`app_commands.Group` of them.  Each option comes from its
parameter's kind (:mod:`bot.adapters.kinds`: the option's type, choices, bounds and what
completes it), and one callback turns the options given into the command's arguments and
hands them to the bot (:class:`Host`).

discord.py reads a command's options from its callback's signature: the callback takes the
options as keywords, and its signature is written from the kinds' options (:func:`_signature`).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Protocol

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.adapters.args import Surface
from bot.adapters.commands import REGISTRY, Command, menu
from bot.adapters.discord.format import user_of
from bot.adapters.discord.threads import chat_here
from bot.adapters.kinds import (
    Completion,
    OptionSpec,
    OptionType,
    Param,
    Person,
    game_number,
)
from bot.sessions.manager import SessionManager

__all__ = [
    "OUTDATED",
    "GameChoices",
    "Host",
    "MoveChoices",
    "OptionRefused",
    "OutOfRange",
    "OutdatedOption",
    "add_commands",
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
        self, interaction: discord.Interaction, command: Command, args: Any
    ) -> None:
        """Make ``command``'s manager call with ``args`` and show its reply."""
        ...


def _manager(interaction: discord.Interaction) -> SessionManager | None:
    manager = getattr(interaction.client, "manager", None)
    return manager if isinstance(manager, SessionManager) else None


class GameChoices(app_commands.Transformer):
    """A game's number as typed, with the caller's active games offered (those where it is
    their turn first)."""

    async def transform(self, interaction: discord.Interaction, value: Any) -> str:
        """What was typed or chosen (the kind reads the number)."""
        return str(value)

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


class MoveChoices(app_commands.Transformer):
    """A move, with the legal moves (or beginnings of moves) of the chosen game offered; or
    with ``line`` a prepared line, completed along the line."""

    def __init__(self, line: bool = False) -> None:
        self.line = line

    async def transform(self, interaction: discord.Interaction, value: Any) -> str:
        """The move as typed."""
        return str(value)

    async def autocomplete(
        self, interaction: discord.Interaction, value: int | float | str, /
    ) -> list[app_commands.Choice[int | float | str]]:
        """Legal moves starting with what is typed, in the chosen game, from its current
        position (along the prepared line for ``line``)."""
        manager = _manager(interaction)
        if manager is None:
            return []
        typed_game = getattr(interaction.namespace, "game", None)
        game = game_number(typed_game if isinstance(typed_game, str) else None)
        suggest = manager.games.suggest_line if self.line else manager.games.suggest_moves
        moves = await suggest(
            user_of(interaction.user), chat_here(interaction), game, str(value)[:100], 25
        )
        return [
            app_commands.Choice[int | float | str](name=m[:100], value=m[:100]) for m in moves if m
        ]


#: The Python type discord.py reads each option type from.
_TYPES: Mapping[OptionType, Any] = {
    OptionType.STRING: str,
    OptionType.INTEGER: int,
    OptionType.BOOLEAN: bool,
    OptionType.USER: discord.User,
}
#: What completes an option as it is typed.
_COMPLETERS: Mapping[Completion, Any] = {
    Completion.GAMES: app_commands.Transform[str, GameChoices],
    Completion.MOVES: app_commands.Transform[str, MoveChoices],
    Completion.LINE: app_commands.Transform[str, MoveChoices(line=True)],
}


def _annotation(spec: OptionSpec) -> Any:
    """The annotation discord.py reads ``spec``'s option from."""
    shape = spec.shape
    if shape.completion is not Completion.NONE:
        return _COMPLETERS[shape.completion]
    if shape.type is OptionType.INTEGER and not shape.choices and shape.low is not None:
        return app_commands.Range[int, shape.low, shape.high]
    return _TYPES[shape.type]


def _of_its_type(kind: OptionType, value: Any) -> bool:
    """Whether ``value`` is of the type its option now has (a client with an old copy of the
    command can send another: discord.py passes it on as it came)."""
    if kind is OptionType.USER:
        return isinstance(value, discord.User | discord.Member)
    if kind is OptionType.BOOLEAN:
        return isinstance(value, bool)
    if kind is OptionType.INTEGER:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)


def _given(host: Host, command: Command, values: Mapping[str, Any]) -> dict[str, Any]:
    """The options given, checked against the options the command has now, a person as a
    :class:`Person`: :class:`OutdatedOption` for a value of another type, :class:`OutOfRange`
    for a number beyond its bounds."""
    given: dict[str, Any] = {}
    for param in command.params:
        for spec in param.kind.options(param):
            value = values.get(spec.name)
            if value is None:
                continue
            shape = spec.shape
            if not _of_its_type(shape.type, value):
                raise OutdatedOption(command.qualified, spec.name)
            if shape.type is OptionType.INTEGER and not (
                (shape.low is None or value >= shape.low)
                and (shape.high is None or value <= shape.high)
            ):
                raise OutOfRange(spec.name, shape.low, shape.high)
            if shape.type is OptionType.USER:
                me = host.user
                value = Person(user_of(value), me is not None and value.id == me.id)
            given[spec.name] = value
    return given


def arguments(host: Host, command: Command, values: Mapping[str, Any]) -> Any:
    """The command's arguments from the options given (see :func:`_given`)."""
    given = _given(host, command, values)
    fields: dict[str, Any] = {}
    for param in command.params:
        param.kind.take(param, given, fields)
    return command.make(fields)


def _specs(params: Sequence[Param]) -> list[OptionSpec]:
    return [spec for param in params for spec in param.kind.options(param)]


def _signature(specs: Sequence[OptionSpec]) -> inspect.Signature:
    """The callback's signature discord.py reads the options from."""
    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    for spec in specs:
        annotation = _annotation(spec)
        default: Any = inspect.Parameter.empty
        if not spec.required:
            default = spec.default
            if default is None:
                # typing.Optional: discord.py reads this annotation at runtime, and `X | None`
                # is not defined on its Transform metadata objects.
                annotation = Optional[annotation]  # noqa: UP045
        parameters.append(
            inspect.Parameter(
                spec.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default
            )
        )
    return inspect.Signature(parameters)


def _slash(host: Host, command: Command) -> app_commands.Command[Any, ..., None]:
    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        try:
            args = arguments(host, command, values)
        except OptionRefused as refused:
            log.info("interaction %s: /%s: %s", interaction.id, command.qualified, refused)
            await interaction.response.send_message(refused.answer, ephemeral=True)
            return
        await host.run_command(interaction, command, args)

    specs = _specs(command.params)
    # discord.py reads the options from the callback's signature; a function object takes
    # the attribute at runtime, but typeshed's FunctionType does not declare it.
    callback.__signature__ = _signature(specs)  # type: ignore[attr-defined]
    callback.__qualname__ = callback.__name__ = f"slash_{command.slash}"
    # Described and given their choices on the callback, before the command is made: the
    # command then takes every name, description and choice as a translatable string (the
    # tree's translator, :mod:`bot.adapters.discord.translator`).
    described = {spec.name: _description(spec) for spec in specs}
    if described:
        callback = app_commands.describe(**described)(callback)
    chosen = {
        spec.name: [app_commands.Choice(name=c.name, value=c.value) for c in spec.shape.choices]
        for spec in specs
        if spec.shape.choices
    }
    if chosen:
        callback = app_commands.choices(**chosen)(callback)
    return app_commands.Command(
        name=command.slash, description=locale_str(command.summary[:100]), callback=callback
    )


def _description(spec: OptionSpec) -> locale_str:
    """An option's description, with its catalog template when it is filled in."""
    said = spec.description
    return locale_str(said.text[:100], template=said.template, values=dict(said.values))


def _group(host: Host, command: Command) -> app_commands.Group:
    group = app_commands.Group(name=command.slash, description=locale_str(command.summary[:100]))
    for sub in command.subcommands:
        group.add_command(_slash(host, sub))
    return group


def add_commands(
    host: Host, tree: app_commands.CommandTree[Any], registry: Sequence[Command] = REGISTRY
) -> None:
    """Add to ``tree`` a slash command (a group, for a family) for every command of
    ``registry`` offered on Discord."""
    for command in menu(Surface.DISCORD, registry):
        tree.add_command(_group(host, command) if command.subcommands else _slash(host, command))
