"""A command's value type (see :mod:`bot.adapters.commands`): :class:`Command`, one command
described once, with its parameters (:class:`~bot.adapters.args.Param`), its manager call
(:data:`Run`) and its typed parser."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.adapters.args import EVERYWHERE, Args, Param, Surface, Typed
from bot.messages import Chat, Reply, User
from bot.sessions.manager import SessionManager

__all__ = ["Command", "Run"]

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
