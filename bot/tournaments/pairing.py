"""Who plays whom in a round-robin, and who moves first.

Every pairing of a group is played at once (correspondence suits it), so there are no rounds
to schedule: :func:`round_robin` gives each pair of a group one game (two with ``rounds=2``,
the second with the seats swapped), and orients each game so that every player moves first in
half of their games, as near as possible (an odd number of games leaves one over).

The orientation: of players ``i < j`` (their places in the group), ``i`` moves first when
``i + j`` is odd, ``j`` when it is even.  Player ``i`` then moves first against every later
player of the other parity and every earlier one of the same parity, which is ``(n - 1) / 2``
games for odd ``n`` and ``n / 2 - 1`` or ``n / 2`` for even ``n``.

>>> [(p.first, p.second) for p in round_robin((10, 20, 30))]
[(10, 20), (30, 10), (20, 30)]
>>> first_counts(round_robin((1, 2, 3, 4)))
{1: 2, 2: 1, 3: 2, 4: 1}
>>> [len(g) for g in groups([Entrant(p, 1500 - p) for p in range(23)])]
[8, 8, 7]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "GROUP_SIZE",
    "MIN_PLAYERS",
    "Entrant",
    "Pairing",
    "Plan",
    "first_counts",
    "groups",
    "plan",
    "round_robin",
]

#: The most players in one group: above it the players are split into groups by rating.
GROUP_SIZE = 10
#: The fewest players a tournament starts with.
MIN_PLAYERS = 3


@dataclass(frozen=True)
class Entrant:
    """A player signed up: their id and their rating in the tournament's game (the order of
    the groups; ties keep the order of signing up)."""

    player: int
    rating: int


@dataclass(frozen=True)
class Pairing:
    """One game of the tournament: ``first`` moves first, ``group`` is the group's index
    (0 the strongest), ``leg`` 0 or 1 (the second game of a pair, seats swapped)."""

    first: int
    second: int
    group: int = 0
    leg: int = 0

    @property
    def players(self) -> frozenset[int]:
        """Both players."""
        return frozenset((self.first, self.second))


@dataclass(frozen=True)
class Plan:
    """A tournament's groups (players by rating, strongest first) and its games."""

    groups: tuple[tuple[int, ...], ...]
    pairings: tuple[Pairing, ...]

    def group_of(self, player: int) -> int:
        """The index of ``player``'s group; ``ValueError`` if they are in none."""
        for index, members in enumerate(self.groups):
            if player in members:
                return index
        raise ValueError(f"player {player} is in no group")


def round_robin(players: Sequence[int], rounds: int = 1, group: int = 0) -> tuple[Pairing, ...]:
    """Every pair of ``players`` once (``rounds=2``: twice, seats swapped), first player
    balanced (see the module docstring).  ``ValueError`` for ``rounds`` other than 1 or 2 or a
    player named twice."""
    if rounds not in (1, 2):
        raise ValueError(f"rounds must be 1 or 2, not {rounds}")
    if len(set(players)) != len(players):
        raise ValueError("a player is named twice")
    out: list[Pairing] = []
    for leg in range(rounds):
        for i, a in enumerate(players):
            for j in range(i + 1, len(players)):
                b = players[j]
                first, second = (a, b) if (i + j) % 2 else (b, a)
                if leg:
                    first, second = second, first
                out.append(Pairing(first, second, group, leg))
    return tuple(out)


def groups(entrants: Sequence[Entrant], size: int = GROUP_SIZE) -> tuple[tuple[int, ...], ...]:
    """The players in groups of at most ``size``, by rating (strongest first; equal ratings in
    the order of signing up), as few groups as that takes and as even as possible (the first
    groups take one more when they cannot all be equal)."""
    ordered = sorted(range(len(entrants)), key=lambda i: (-entrants[i].rating, i))
    ids = [entrants[i].player for i in ordered]
    if not ids:
        return ()
    count = -(-len(ids) // size)
    base, extra = divmod(len(ids), count)
    out: list[tuple[int, ...]] = []
    start = 0
    for index in range(count):
        end = start + base + (1 if index < extra else 0)
        out.append(tuple(ids[start:end]))
        start = end
    return tuple(out)


def plan(entrants: Sequence[Entrant], rounds: int = 1, size: int = GROUP_SIZE) -> Plan:
    """The groups and every game of a tournament; ``ValueError`` with fewer than
    :data:`MIN_PLAYERS` players."""
    if len(entrants) < MIN_PLAYERS:
        raise ValueError(f"a tournament needs at least {MIN_PLAYERS} players")
    made = groups(entrants, size)
    pairings = tuple(p for g, members in enumerate(made) for p in round_robin(members, rounds, g))
    return Plan(made, pairings)


def first_counts(pairings: Iterable[Pairing]) -> dict[int, int]:
    """How many games each player moves first in (every player of the pairings appears)."""
    counts: dict[int, int] = {}
    for p in pairings:
        counts[p.first] = counts.get(p.first, 0) + 1
        counts.setdefault(p.second, 0)
    return dict(sorted(counts.items()))
