"""The typed forms of the tournament commands (issue 29), read at the edge into
:class:`~bot.adapters.args.Args` (see :mod:`bot.adapters.typed` for the others):

- ``tournament new <game> [option=value ...] [days=1|3|7|14] [rounds=1|2] [rated=no] [max=N]``
- ``tournament join|leave|start|cancel [id]``
- ``tournament [id]`` (the standings)

>>> a = tournament_words(["new", "maphex", "size=16", "rounds=2", "max=6"], lambda _: None)
>>> (a.action, a.game, a.options, a.rounds, a.max_players, a.days)
('new', 'maphex', {'size': '16'}, 2, 6, 3)
>>> tournament_words(["join", "4"], lambda _: None).tournament_id
4
>>> tournament_words(["7"], lambda _: None).action
'standings'
>>> tournament_words(["join", "x"], lambda _: None).text
'Usage: tournament join|leave|start|cancel [id], e.g. tournament join 4.'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.adapters.args import Args
from bot.limits import MAX_ID, ascii_number
from bot.messages import Reply, User
from bot.sessions.clock import DEFAULT_TIME_CONTROL, parse_time_control

__all__ = ["TOURNAMENT_ACTIONS", "TOURNAMENT_USAGE", "tournament_words"]

#: What ``tournament`` can do (``standings`` when only an id, or nothing, follows).
TOURNAMENT_ACTIONS = ("new", "join", "leave", "start", "cancel", "standings")

#: The typed usage of ``tournament``.
TOURNAMENT_USAGE = (
    "tournament new <game> [option=value ...] [days=1|3|7|14] [rounds=1|2] [rated=no] [max=N]"
)

_ID_USAGE = "Usage: tournament join|leave|start|cancel [id], e.g. tournament join 4."


def _number(text: str, high: int) -> int | None:
    return ascii_number(text.removeprefix("#"), high, low=1)


def tournament_words(words: list[str], _: Callable[[str], User | None]) -> Args | Reply:
    """``tournament ...`` (see the module docstring)."""
    if not words:
        return Args(action="standings")
    head = words[0].lower()
    if head not in TOURNAMENT_ACTIONS:
        number = _number(words[0], MAX_ID)
        if number is None or len(words) > 1:
            return Reply.refuse(f"Usage: {TOURNAMENT_USAGE}, or tournament [id].")
        return Args(action="standings", tournament_id=number)
    if head != "new":
        if len(words) > 2:
            return Reply.refuse(_ID_USAGE)
        number = _number(words[1], MAX_ID) if len(words) == 2 else None
        if len(words) == 2 and number is None:
            return Reply.refuse(_ID_USAGE)
        return Args(action=head, tournament_id=number)
    if len(words) < 2:
        return Reply.refuse(f"Usage: {TOURNAMENT_USAGE}")
    options: dict[str, Any] = {}
    days: float | None = DEFAULT_TIME_CONTROL
    rounds, most, rated = 1, None, "yes"
    for item in words[2:]:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            return Reply.refuse(f"{item[:24]!r} is not option=value. Usage: {TOURNAMENT_USAGE}")
        name = name.lower()
        if name in ("days", "time"):
            try:
                days = parse_time_control(value)
            except ValueError as exc:
                return Reply.refuse(f"{exc}.")
        elif name == "rounds":
            if value not in ("1", "2"):
                return Reply.refuse("rounds=1 or rounds=2.")
            rounds = int(value)
        elif name == "max":
            most = _number(value, 1000)
            if most is None:
                return Reply.refuse("max= takes a number of players, e.g. max=8.")
        elif name == "rated":
            rated = value
        else:
            options[name] = value
    return Args(
        action="new",
        game=words[1],
        options=options,
        days=days,
        rounds=rounds,
        rated=rated,
        max_players=most,
    )
