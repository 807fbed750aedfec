"""The words of moving by pressing (the Move button and its picker) and of a game's own thread,
as chat adapters with such things show them.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages import Code, Mention, Segment, Text
from bot.sessions.texts.base import _t

#: The label of a live board's button that opens the move picker.
MOVE_LABEL = "Move"
#: The longest thread name Discord takes (1 to 100 characters).
_THREAD_NAME_LIMIT = 100


def preview_label(move: str) -> str:
    """The picker's button that shows the board after ``move`` before it is played."""
    return f"Preview {move}"[:80]


def choose_part(first: str, last: str) -> str:
    """The placeholder of a picker menu offering the parts ``first`` to ``last``."""
    return f"Choose: {first} … {last}" if first != last else f"Choose: {first}"


def picker_closed() -> Text:
    """The picker after Cancel: nothing was played."""
    return _t("Move picker closed: nothing was played.")


def thread_name(game_id: int, title: str, first: str, second: str) -> str:
    """The name of a game's own thread, e.g. ``#12 Maphex: Alice vs Bob`` (at most 100
    characters, Discord's limit for a thread name).

    >>> thread_name(12, "Maphex", "Alice", "Bob")
    '#12 Maphex: Alice vs Bob'
    """
    name = f"#{game_id} {title}: {first} vs {second}"
    return name if len(name) <= _THREAD_NAME_LIMIT else name[: _THREAD_NAME_LIMIT - 1] + "…"


def game_in_thread(game_id: int) -> Text:
    """A challenge card's last words once its game went into a thread of its own."""
    return _t("Game ", Code(f"#{game_id}"), " is played in its thread below.")


def thread_result(name: str, result: Text) -> Text:
    """What the channel is told when a game played in its own thread ends."""
    return _t(name, ": ", result)


def unreachable(players: Sequence[Mention]) -> Text:
    """Said once in a chat where the bot cannot post by itself (only answer), when notices
    about its games reached some players neither there nor privately."""
    names: list[Segment] = []
    for i, player in enumerate(players):
        names += [", "] if i else []
        names.append(player)
    return _t(
        "I could not tell ",
        *names,
        " about their games here: I cannot post in this chat, "
        "and my direct messages were refused. Allow direct messages from me to get turn "
        "notices, reminders and results.",
    )


def user_install_card() -> Text:
    """Added to a challenge card where the bot is not a member (a DM or group DM between
    friends, a server without the bot): what the friends need to play there."""
    return _t(
        "I am not a member of this chat: anyone here can press my buttons (Accept, Move), "
        "without installing me; typing my commands needs the app on your own account. Turn "
        "notices, reminders and results come as direct messages from me: allow them."
    )
