"""The typed forms of the tournament commands (issue 29), read at the edge into the chosen
subcommand and its arguments (see :mod:`bot.adapters.typed` for the others):

- ``tournament new <game> [option=value ...] [days=1|3|7|14] [rounds=1|2] [rated=no] [max=N]``
- ``tournament join|leave|start|cancel [id]``
- ``tournament [id]`` (the standings)

>>> a = tournament_words(["new", "maphex", "size=16", "rounds=2", "max=6"], lambda _: None)
>>> a.command, a.args.game, a.args.options, a.args.rounds, a.args.max_players, a.args.days
('new', 'maphex', {'size': '16'}, 2, 6, 3)
>>> tournament_words(["join", "4"], lambda _: None).args.tournament_id
4
>>> tournament_words(["7"], lambda _: None).command
'standings'
>>> tournament_words(["join", "x"], lambda _: None).text
'Usage: tournament join|leave|start|cancel [id], e.g. tournament join 4.'
"""

from __future__ import annotations

from typing import Any

from bot.adapters.args import Named, Picked, TournamentNew, TournamentRef
from bot.adapters.kinds import Days, Number, Unreadable
from bot.adapters.typed import named_values
from bot.core.i18n import N_, fill, gettext
from bot.limits import MAX_ID
from bot.messages import Reply
from bot.sessions.clock import DEFAULT_TIME_CONTROL
from bot.sessions.tournaments import MOST_PLAYERS

__all__ = [
    "MOST",
    "ROUNDS",
    "TOURNAMENT",
    "TOURNAMENT_ACTIONS",
    "TOURNAMENT_USAGE",
    "tournament_words",
]

#: What ``tournament`` can do (``standings`` when only an id, or nothing, follows).
TOURNAMENT_ACTIONS = ("new", "join", "leave", "start", "cancel", "standings")

#: The typed usage of ``tournament``.
TOURNAMENT_USAGE = (
    "tournament new <game> [option=value ...] [days=1|3|7|14] [rounds=1|2] [rated=no] [max=N]"
)

#: A tournament's number.
TOURNAMENT = Number(1, 1_000_000_000)
#: Each pairing once or twice.
ROUNDS = Number(1, 2)
#: The most players.
MOST = Number(3, MOST_PLAYERS)

_ID_USAGE = N_("Usage: tournament join|leave|start|cancel [id], e.g. tournament join 4.")
#: How the typed ``name=value`` words of ``tournament new`` are read (``max=`` is bounded by
#: the manager, which says the bounds).
_TYPED = {
    "days": Days(),
    "rounds": Number(1, 2, N_("rounds=1 or rounds=2.")),
    "max": Number(1, 1000, N_("max= takes a number of players, e.g. max=8.")),
}


def _number(text: str, high: int) -> int | None:
    try:
        value: int = Number(1, high).parse(text, lambda _: None)
    except Unreadable:
        return None
    return value


def tournament_words(
    words: list[str], named: Named
) -> Picked[TournamentNew] | Picked[TournamentRef] | Reply:
    """``tournament ...`` (see the module docstring)."""
    if not words:
        return Picked("standings", TournamentRef())
    head = words[0].lower()
    if head not in TOURNAMENT_ACTIONS:
        number = _number(words[0], MAX_ID)
        if number is None or len(words) > 1:
            return Reply.refuse(
                fill(gettext("Usage: {usage}, or tournament [id]."), {"usage": TOURNAMENT_USAGE})
            )
        return Picked("standings", TournamentRef(number))
    if head != "new":
        if len(words) > 2:
            return Reply.refuse(gettext(_ID_USAGE))
        number = _number(words[1], MAX_ID) if len(words) == 2 else None
        if len(words) == 2 and number is None:
            return Reply.refuse(gettext(_ID_USAGE))
        return Picked(head, TournamentRef(number))
    if len(words) < 2:
        return Reply.refuse(fill(gettext("Usage: {usage}"), {"usage": TOURNAMENT_USAGE}))
    read = named_values(words[2:], TOURNAMENT_USAGE, named, dict(_TYPED))
    if isinstance(read, Reply):
        return read
    options: dict[str, Any] = {k: v for k, v in read.items() if k not in (*_TYPED, "rated")}
    return Picked(
        "new",
        TournamentNew(
            game=words[1],
            options=options,
            days=read.get("days", DEFAULT_TIME_CONTROL),
            rounds=read.get("rounds", 1),
            rated=read.get("rated", "yes"),
            max_players=read.get("max"),
        ),
    )
