"""The standings of a round-robin: scores and tie-breaks, from the games played so far.

A win is 1 point, a draw (by agreement or on the board) ½, a loss 0; a loss on time is a loss
like any other (it only counts in the last tie-break).  Ties are broken by

1. **Sonneborn–Berger**: for each game, the opponent's score times the points taken from
   that game (all of a beaten opponent's score, half of a drawn one's);
2. **head-to-head**: the points each scored in the games between the players still tied;
3. **fewer losses on time**.

Players still equal share the place (``1, 1, 3``).  Withdrawn players keep their results and
are ranked like the others (the standings say they withdrew).

>>> games = [Played(1, 2, Outcome.FIRST_WINS), Played(3, 1, Outcome.DRAW),
...          Played(2, 3, Outcome.FIRST_WINS)]
>>> [(s.player, half_points(s.points), s.place) for s in table((1, 2, 3), games)]
[(1, '1½', 1), (2, '1', 2), (3, '½', 3)]
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "TIME_LOSSES_TO_WITHDRAW",
    "Outcome",
    "Played",
    "Standing",
    "half_points",
    "table",
    "to_withdraw",
]

#: A player who loses this many games on time in one tournament is withdrawn.
TIME_LOSSES_TO_WITHDRAW = 3

_HALF = Fraction(1, 2)


class Outcome(enum.Enum):
    """How a finished game went, by who moved first."""

    FIRST_WINS = "first wins"
    SECOND_WINS = "second wins"
    DRAW = "draw"


@dataclass(frozen=True)
class Played:
    """A finished game of the tournament: who moved first and second, how it ended, and
    whether the loser lost on time."""

    first: int
    second: int
    outcome: Outcome
    on_time: bool = False

    def points(self, player: int) -> Fraction:
        """What ``player`` took from this game (``ValueError`` if they did not play it)."""
        if player not in (self.first, self.second):
            raise ValueError(f"player {player} did not play this game")
        if self.outcome is Outcome.DRAW:
            return _HALF
        winner = self.first if self.outcome is Outcome.FIRST_WINS else self.second
        return Fraction(int(player == winner))

    def opponent(self, player: int) -> int:
        """The other player of the game."""
        return self.second if player == self.first else self.first

    @property
    def loser(self) -> int | None:
        """Who lost (``None`` for a draw)."""
        if self.outcome is Outcome.DRAW:
            return None
        return self.second if self.outcome is Outcome.FIRST_WINS else self.first


@dataclass(frozen=True)
class Standing:
    """One line of the table: the player, their ``place`` (shared when still tied), games
    played, wins, draws, losses (of them ``time_losses`` on time), ``points``, the
    Sonneborn–Berger score ``sonneborn_berger``, ``head_to_head`` (points against the players
    tied with them on points and Sonneborn–Berger; 0 when nobody is) and ``withdrawn``."""

    player: int
    place: int
    played: int
    wins: int
    draws: int
    losses: int
    time_losses: int
    points: Fraction
    sonneborn_berger: Fraction
    head_to_head: Fraction
    withdrawn: bool = False


def _score(player: int, games: Iterable[Played]) -> Fraction:
    return sum((g.points(player) for g in games if player in (g.first, g.second)), Fraction(0))


def table(
    players: Sequence[int], games: Iterable[Played], withdrawn: Collection[int] = ()
) -> tuple[Standing, ...]:
    """The standings of ``players`` after ``games`` (games of anyone else are ignored), best
    first; ``withdrawn`` are marked so."""
    members = set(players)
    played = [g for g in games if g.first in members and g.second in members]
    points = {p: _score(p, played) for p in players}
    sb = {
        p: sum(
            (g.points(p) * points[g.opponent(p)] for g in played if p in (g.first, g.second)),
            Fraction(0),
        )
        for p in players
    }
    tied: dict[tuple[Fraction, Fraction], set[int]] = {}
    for p in players:
        tied.setdefault((points[p], sb[p]), set()).add(p)
    h2h: dict[int, Fraction] = {}
    for p in players:
        rivals = tied[(points[p], sb[p])]
        among = [g for g in played if g.first in rivals and g.second in rivals]
        h2h[p] = _score(p, among) if len(rivals) > 1 else Fraction(0)
    lines: list[Standing] = []
    for p in players:
        mine = [g for g in played if p in (g.first, g.second)]
        lost = [g for g in mine if g.loser == p]
        lines.append(
            Standing(
                player=p,
                place=0,
                played=len(mine),
                wins=sum(1 for g in mine if g.outcome is not Outcome.DRAW and g.loser != p),
                draws=sum(1 for g in mine if g.outcome is Outcome.DRAW),
                losses=len(lost),
                time_losses=sum(1 for g in lost if g.on_time),
                points=points[p],
                sonneborn_berger=sb[p],
                head_to_head=h2h[p],
                withdrawn=p in withdrawn,
            )
        )
    order = {p: i for i, p in enumerate(players)}

    def key(s: Standing) -> tuple[Fraction, Fraction, Fraction, int]:
        return (-s.points, -s.sonneborn_berger, -s.head_to_head, s.time_losses)

    lines.sort(key=lambda s: (key(s), order[s.player]))
    ranked: list[Standing] = []
    for index, line in enumerate(lines):
        place = index + 1
        if ranked and key(ranked[-1]) == key(line):
            place = ranked[-1].place
        ranked.append(_with_place(line, place))
    return tuple(ranked)


def _with_place(line: Standing, place: int) -> Standing:
    return Standing(
        line.player,
        place,
        line.played,
        line.wins,
        line.draws,
        line.losses,
        line.time_losses,
        line.points,
        line.sonneborn_berger,
        line.head_to_head,
        line.withdrawn,
    )


def to_withdraw(games: Iterable[Played], withdrawn: Collection[int] = ()) -> tuple[int, ...]:
    """The players not yet withdrawn who have lost :data:`TIME_LOSSES_TO_WITHDRAW` games on
    time, in order of their ids."""
    counts: dict[int, int] = {}
    for g in games:
        if g.on_time and g.loser is not None:
            counts[g.loser] = counts.get(g.loser, 0) + 1
    return tuple(
        sorted(p for p, n in counts.items() if n >= TIME_LOSSES_TO_WITHDRAW and p not in withdrawn)
    )


def half_points(value: Fraction) -> str:
    """Points as players write them: ``2``, ``2½``, ``½``, ``0``.

    >>> half_points(Fraction(5, 2)), half_points(Fraction(1, 2)), half_points(Fraction(0))
    ('2½', '½', '0')
    >>> half_points(Fraction(15, 4))
    '3¾'
    """
    whole = value.numerator // value.denominator
    rest = value - whole
    marks = {Fraction(0): "", _HALF: "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}
    tail = marks.get(rest)
    if tail is None:
        return f"{float(value):.2f}"
    if whole == 0 and tail:
        return tail
    return f"{whole}{tail}"
