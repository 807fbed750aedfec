"""A command's value type (see :mod:`bot.adapters.commands`): :class:`CommandOf` (``Command``
when its arguments' type does not matter), one command
described once, with its parameters (:class:`~bot.adapters.kinds.Param`), the type of its
arguments, its manager call (:attr:`Command.run`) and its typed form; or a family of
subcommands (``tournament new|join|...``: a group of slash commands on Discord, the first
word after the command word when typed)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.adapters.args import EVERYWHERE, Named, Picked, Surface
from bot.adapters.kinds import Param
from bot.messages import Chat, Reply, User
from bot.sessions.manager import SessionManager

__all__ = ["Command", "CommandOf", "Run"]

A = TypeVar("A")

#: A command's manager call, with its arguments.
Run = Callable[[SessionManager, User, Chat, A], Awaitable[Reply]]


def _public(args: Any) -> bool:
    return False


@dataclass(frozen=True)
class CommandOf(Generic[A]):
    """One command (see the module docstring): ``name`` (typed and on Telegram; a
    subcommand's after its family's), a one-line ``summary`` (menus, Discord's
    description), the typed ``usage``, its ``params``, the type of its arguments (``args``:
    a dataclass whose fields the params fill), ``run`` (the manager call), ``typed`` (the
    typed form: the words after the command word to its arguments, a chosen subcommand's
    :class:`~bot.adapters.args.Picked`, or a refusal; ``None`` for a subcommand, which its
    family's typed form reads), where it is offered (``surfaces``),
    ``private`` (answered only to the caller where the platform can) and ``record`` (the
    answer is a file).  A family has ``subcommands`` and no call of its own."""

    name: str
    summary: str
    usage: str
    params: tuple[Param, ...]
    args: type[A]
    run: Run[A]
    typed: Callable[[list[str], Named], A | Picked[Any] | Reply] | None
    surfaces: frozenset[Surface] = EVERYWHERE
    chat_name: str = ""
    private: Callable[[A], bool] = _public
    record: bool = False
    #: a board in the answer gets the platform's board card (not a past position's picture)
    board_card: bool = True
    #: more on the typed form, for the help (a line of its own under the usage)
    more: str = ""
    #: the usage on the chat platforms when it reads otherwise than typed
    chat_usage: str = ""
    #: a family's subcommands (each a command of its own on Discord, under this one)
    subcommands: tuple[CommandOf[Any], ...] = ()
    #: a subcommand's family (``tournament``), set by the family's registry entry
    family: str = ""

    @property
    def slash(self) -> str:
        """The command's name on the chat platforms."""
        return self.chat_name or self.name

    @property
    def qualified(self) -> str:
        """Its whole name, a subcommand's after its family's (``tournament leave``)."""
        return f"{self.family} {self.name}" if self.family else self.name

    def pick(self, name: str) -> CommandOf[Any]:
        """Its subcommand named ``name``."""
        return next(sub for sub in self.subcommands if sub.name == name)

    def make(self, fields: dict[str, Any]) -> A:
        """Its arguments with ``fields`` filled (the others at their defaults)."""
        return self.args(**fields)


#: A command whose arguments' type does not matter where it is used (the registry's
#: entries, the platforms' menus).
Command = CommandOf[Any]
