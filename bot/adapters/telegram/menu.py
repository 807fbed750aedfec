"""What the Telegram bot offers by name: the command menu registered with ``setMyCommands``
and what ``/help`` says, both read from the command registry
(:data:`~bot.adapters.commands.REGISTRY`)."""

from __future__ import annotations

from collections.abc import Sequence

import engines
from bot.adapters.commands import REGISTRY, Command, Surface, menu
from bot.core.i18n import fill, gettext

__all__ = ["COMMANDS", "HELP", "description", "help_of", "menu_of"]


def menu_of(registry: Sequence[Command]) -> tuple[tuple[str, str], ...]:
    """The command menu registered with ``setMyCommands`` (name, what the menu says): start
    and help, then the registry's commands offered on Telegram."""
    offered = menu(Surface.TELEGRAM, registry)
    return (
        ("start", gettext("Start the bot (and get your turns privately)")),
        ("help", gettext("How to play here")),
        *((c.slash, f"{gettext(c.summary)}: /{c.slash}{_arguments(c)}"[:256]) for c in offered),
    )


def description() -> str:
    """What the bot's profile says before anyone starts it (``setMyDescription``)."""
    return gettext("Play hex games by correspondence with your friends.")


def help_of(registry: Sequence[Command]) -> str:
    """What ``/help`` says: how to play here, and each command offered on Telegram."""
    lines = [
        description(),
        "",
        gettext(
            "Challenge with /challenge <game> [@username|bot] (or reply to someone's message "
            "with /challenge <game>; with nobody named anyone can accept; games are rated "
            "unless rated=no). Tap Accept on the challenge card to start the game."
        ),
        gettext(
            "To move: tap Move under the board and choose the parts of your move, or reply to "
            "the board with your move, or /move [#game] <move> (in a private chat with me, "
            "just type the move)."
        ),
        "",
    ]
    offered = menu(Surface.TELEGRAM, registry)
    lines += [f"/{c.slash}{_arguments(c)}  {gettext(c.summary)}" for c in offered]
    games = ", ".join(f"{spec.title} ({name})" for name, spec in engines.GAMES.items())
    lines += ["", fill(gettext("The games: {games}."), {"games": games})]
    return "\n".join(lines)


def _arguments(command: Command) -> str:
    """What follows the command word in its typed usage (`` [#game]`` ...)."""
    rest = (command.chat_usage or command.usage).partition(" ")[2]
    return f" {rest}" if rest else ""


#: The command menu of the registry's commands (see :func:`menu_of`).
COMMANDS: tuple[tuple[str, str], ...] = menu_of(REGISTRY)
#: What ``/help`` says (see :func:`help_of`).
HELP = help_of(REGISTRY)
