"""Player ratings, rating pools and game statistics: pure values and functions (no I/O, no SQL).

Ratings use the openskill library's Plackett-Luce model (a Bayesian rating: each player has a
skill estimate ``mu`` and an uncertainty ``sigma``) with the library's default parameters.
Every game and option set belongs to one rating :class:`Pool`; a player has one rating per pool
in each community (the store keeps them apart: a game counts in its own community only):

>>> pool_of("maphex", {"size": 16}), pool_of("inphexion", {"size": 5}).title
(Pool('maphex16'), 'inpHeXion')

A new player starts at 1500 and is provisional (a ``?``) until they have finished
:data:`PROVISIONAL_GAMES` rated games in that pool.  The number shown is ``mu`` scaled
(:data:`DISPLAY_BASE`, :data:`DISPLAY_SCALE`), so a win always raises it and a loss always
lowers it:

>>> ada, bob = Rating(), Rating()
>>> str(ada)
'1500?'
>>> ada2, bob2 = update(ada, bob, Result.A_WINS)
>>> ada2.value > 1500 > bob2.value, ada2.games
(True, 1)
>>> RatingChange(ada, ada2).format("Ada")
'Ada 1500? → 1579? (+79)'

Ratings can be rebuilt from the finished games in order; the numbers are exactly those the
incremental updates gave:

>>> from datetime import UTC, datetime
>>> day = datetime(2025, 3, 1, tzinfo=UTC)
>>> games = [FinishedGame(1, Pool("pathagon"), (7, 8), Result.A_WINS, day)]
>>> rebuild(games).ratings[(7, Pool("pathagon"))] == ada2
True

Statistics read a player's finished games:

>>> str(streak(games, 8))
'1 loss'
>>> str(head_to_head(games, 7, 8))
'1 win, 0 losses, 0 draws'
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce

import engines
from engines.base import RatingPool, shown

__all__ = [
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "PROVISIONAL_GAMES",
    "FinishedGame",
    "Origin",
    "PlayerId",
    "PlayerResult",
    "Pool",
    "Rating",
    "RatingChange",
    "RatingPoint",
    "Rebuild",
    "Record",
    "Result",
    "Streak",
    "bot_result",
    "head_to_head",
    "pool_from_text",
    "pool_of",
    "pools_of_game",
    "rate",
    "rate_level",
    "rebuild",
    "record",
    "records_by_pool",
    "streak",
    "update",
]

#: A player's id (the store's ``players.id``).
PlayerId = int

#: A player stays provisional (shown with ``?``) until this many rated games in the pool.
#: A count rather than a sigma threshold: players can be told "play 10 rated games", and the
#: model's sigma falls too slowly and smoothly to give a natural cut-off.
PROVISIONAL_GAMES = 10

#: The shown number is ``DISPLAY_BASE + DISPLAY_SCALE * (mu - 25)``: a new player shows 1500,
#: and 30 points per unit of mu makes 400 points roughly 10:1 odds between settled players
#: (openskill's beta is 25/6, so a mu gap d gives odds of about exp(d / (beta * sqrt 2))), as
#: in Elo.  Shown from mu, not from the conservative ``mu - 3 sigma``, because with the latter
#: a newcomer's loss could raise their number, which reads as a bug.
DISPLAY_BASE = 1500
DISPLAY_SCALE = 30.0

# One model for the whole bot: its parameters are part of what makes a rebuild give the same
# numbers, so they are fixed here (the library's defaults) and never passed per call.
_MODEL = PlackettLuce()
_MU0 = _MODEL.mu
_SIGMA0 = _MODEL.sigma


class _Pools(type):
    """Iterating :class:`Pool` lists every pool of every game, in the order the bot lists the
    games (each game's pools in its own order)."""

    def __call__(cls, key: str) -> Pool:
        # One value per key, as an enum's members: pools compare by identity too.
        made = _MADE.get(key) if isinstance(key, str) else None
        if made is None:
            made = super().__call__(key)
            _MADE[key] = made
        return made

    def __iter__(cls) -> Iterator[Pool]:
        return (Pool(p.key) for game in engines.GAMES.values() for p in game.pools)

    def __len__(cls) -> int:
        return sum(len(game.pools) for game in engines.GAMES.values())


_MADE: dict[str, Pool] = {}


def _described(key: str) -> tuple[str, RatingPool] | None:
    for game in engines.GAMES.values():
        for pool in game.pools:
            if pool.key == key:
                return game.name, pool
    return None


@dataclass(frozen=True)
class Pool(metaclass=_Pools):
    """A rating pool: the games whose results share one rating, as the game's record lists
    them (:attr:`engines.Game.pools`).

    :attr:`key` is a stable key to store (``"maphex9"``); :attr:`title` is for people.  A key
    no game lists raises ``ValueError``.
    """

    key: str

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or _described(self.key) is None:
            raise ValueError(f"{self.key!r} is not a valid Pool")

    def __repr__(self) -> str:
        return f"Pool({self.key!r})"

    def __reduce__(self) -> tuple[type[Pool], tuple[str]]:
        # Unpickled through the one value per key.
        return Pool, (self.key,)

    @property
    def _described(self) -> tuple[str, RatingPool]:
        found = _described(self.key)
        if found is None:  # the game was registered when the pool was made; not any more
            raise ValueError(f"{self.key!r} is not a valid Pool")
        return found

    @property
    def value(self) -> str:
        """The stable key (as :attr:`key`)."""
        return self.key

    @property
    def game(self) -> str:
        """The engine's game name, e.g. ``"isopath"``."""
        return self._described[0]

    @property
    def title(self) -> str:
        """The name shown to players, e.g. ``"Maphex 16×16"`` or ``"Hexagonal Iso-Path h5"``."""
        return self._described[1].title


def pool_of(game: str, options: Mapping[str, Any] | None = None) -> Pool:
    """The rating pool of a game of ``game`` played with ``options`` (missing ones take their
    defaults; text values such as ``"16"`` are accepted as the ``challenge`` command does).

    An unknown game or a bad option raises ``ValueError`` with the engine's message.

    >>> pool_of("maphex"), pool_of("isopath", {"size": "5"}), pool_of("pathagon")
    (Pool('maphex9'), Pool('isopath5'), Pool('pathagon'))
    """
    found = engines.GAMES.get(game) if isinstance(game, str) else None
    if found is None:
        raise ValueError(f"unknown game {game!r} (games: {', '.join(engines.GAMES)})")
    return Pool(found.pool_for(**dict(options or {})).key)


def pools_of_game(game: str) -> tuple[Pool, ...]:
    """Every pool of ``game``, in size order (for ``stats``, which lists them all).

    >>> [p.key for p in pools_of_game("maphex")]
    ['maphex9', 'maphex16']
    """
    return tuple(pool for pool in Pool if pool.game == game)


def pool_from_text(text: str) -> Pool:
    """The pool a player names in ``leaderboard <game>``: a pool key (``maphex16``), a game
    name alone (its default options' pool), or a game name with options (``maphex size=16``,
    ``isopath h5``).  Case and spacing are forgiven.

    Anything else raises ``ValueError`` listing the pools.

    >>> pool_from_text("Maphex size=16"), pool_from_text("isopath h5"), pool_from_text("maphex")
    (Pool('maphex16'), Pool('isopath5'), Pool('maphex9'))
    """
    words = text.lower().split() if isinstance(text, str) else []
    if len(words) == 1:
        try:
            return Pool(words[0])
        except ValueError:
            pass
    if words and words[0] in engines.GAMES and len(words) <= 2:
        options: dict[str, str] = {}
        if len(words) == 2:
            name, sep, value = words[1].partition("=")
            if not sep:
                # "h5", "16", "16x16": the size written the way players say it.
                name, value = "size", name.removeprefix("h").partition("x")[0]
            options[name] = value
        try:
            return pool_of(words[0], options)
        except ValueError:
            pass
    keys = ", ".join(pool.key for pool in Pool)
    named = shown(text) if isinstance(text, str) else type(text).__name__
    raise ValueError(f"no rating pool {named!r} (pools: {keys})")


@dataclass(frozen=True)
class Rating:
    """One player's rating in one pool: skill ``mu``, uncertainty ``sigma`` and the number of
    rated games it rests on.  ``Rating()`` is a new player's.

    >>> Rating(mu=27.5, sigma=3.0, games=12).format()
    '1575'
    """

    mu: float = _MU0
    sigma: float = _SIGMA0
    games: int = 0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(f"a rating needs a finite mu and a positive sigma, not {self!r}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 0:
            raise ValueError(f"a rating's games must be a count, not {self.games!r}")

    @property
    def provisional(self) -> bool:
        """Whether too few rated games (fewer than :data:`PROVISIONAL_GAMES`) back it."""
        return self.games < PROVISIONAL_GAMES

    @property
    def value(self) -> int:
        """The number shown to players (1500 for a new player); see :data:`DISPLAY_SCALE`."""
        return round(DISPLAY_BASE + DISPLAY_SCALE * (self.mu - _MU0))

    def format(self) -> str:
        """The shown number with ``?`` while provisional, e.g. ``"1532?"``."""
        return f"{self.value}?" if self.provisional else str(self.value)

    __str__ = format


class Result(enum.Enum):
    """A rated game's result between players ``a`` (seat 0) and ``b`` (seat 1)."""

    A_WINS = "a"
    B_WINS = "b"
    DRAW = "draw"

    @classmethod
    def from_winner(cls, winner: int | None) -> Result:
        """The result of a game whose winning seat is ``winner`` (``None``: a draw), as in
        ``engines.Outcome.winner`` and the store's ``games.winner``.

        >>> Result.from_winner(1), Result.from_winner(None)
        (<Result.B_WINS: 'b'>, <Result.DRAW: 'draw'>)
        """
        if winner is None:
            return cls.DRAW
        if winner == 0 and not isinstance(winner, bool):
            return cls.A_WINS
        if winner == 1 and not isinstance(winner, bool):
            return cls.B_WINS
        raise ValueError(f"a winner is seat 0, seat 1 or None, not {winner!r}")

    @property
    def winner(self) -> int | None:
        """The winning seat, or ``None`` for a draw."""
        return {Result.A_WINS: 0, Result.B_WINS: 1, Result.DRAW: None}[self]


def update(a: Rating, b: Rating, result: Result) -> tuple[Rating, Rating]:
    """The ratings of ``a`` and ``b`` after a rated game between them ended in ``result``.

    The winner's number rises and the loser's falls; a draw moves both towards each other.
    Each rating's game count goes up by one.
    """
    ranks = {Result.A_WINS: [1, 2], Result.B_WINS: [2, 1], Result.DRAW: [1, 1]}[result]
    [[new_a], [new_b]] = _MODEL.rate(
        [[_MODEL.rating(a.mu, a.sigma)], [_MODEL.rating(b.mu, b.sigma)]], ranks=list(ranks)
    )
    return (
        Rating(new_a.mu, new_a.sigma, a.games + 1),
        Rating(new_b.mu, new_b.sigma, b.games + 1),
    )


@dataclass(frozen=True)
class RatingChange:
    """One player's rating before and after a game, for the game-over message.

    >>> change = RatingChange(Rating(games=12), Rating(mu=24.0, games=13))
    >>> change.delta, str(change)
    (-30, '1500 → 1470 (−30)')
    """

    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        """The change of the shown number (after minus before, of the rounded numbers, so the
        message always adds up)."""
        return self.after.value - self.before.value

    def format(self, name: str | None = None) -> str:
        """``"1500? → 1522? (+22)"``, after ``name`` when given: ``"Ada 1500? → 1522? (+22)"``."""
        sign = "+" if self.delta >= 0 else "−"
        text = f"{self.before} → {self.after} ({sign}{abs(self.delta)})"
        return text if name is None else f"{name} {text}"

    __str__ = format


def rate(a: Rating, b: Rating, result: Result) -> tuple[RatingChange, RatingChange]:
    """:func:`update` with each player's before and after kept together for the message."""
    new_a, new_b = update(a, b, result)
    return RatingChange(a, new_a), RatingChange(b, new_b)


def bot_result(winner: int | None, bot_seat: int) -> Result:
    """The result of a game against the bot as its level's rating reads it (seat ``a`` is the
    bot): ``winner`` is the winning seat of the game, ``None`` for a draw.

    >>> bot_result(1, 1), bot_result(0, 1), bot_result(None, 0)
    (<Result.A_WINS: 'a'>, <Result.B_WINS: 'b'>, <Result.DRAW: 'draw'>)
    """
    if bot_seat not in (0, 1) or isinstance(bot_seat, bool):
        raise ValueError(f"the bot plays seat 0 or seat 1, not {bot_seat!r}")
    return Result.from_winner(None if winner is None else 0 if winner == bot_seat else 1)


def rate_level(level: Rating, player: Rating, result: Result) -> Rating:
    """The rating of the bot's level after a game against a player rated ``player`` ended in
    ``result`` (:func:`bot_result`: ``a`` is the bot).  The player's rating does not move for
    it (issue 49): only the level's comes out.  The game that ends and ``hexhall ratings
    rebuild`` both move it by this."""
    return update(level, player, result)[0]


class Origin(enum.Enum):
    """Where a game came from: only games between two people from a challenge are rated."""

    CHALLENGE = "challenge"
    BOT = "bot"
    IMPORTED = "imported"


@dataclass(frozen=True)
class FinishedGame:
    """What ratings and statistics need of one game that has ended (the store builds these).

    ``players`` are the player ids by seat (0, 1); ``result`` is ``None`` for an aborted game
    (no result); ``finished_at`` must be timezone-aware.  ``rated`` is the challenge's
    ``rated=`` choice.  See :attr:`counts` for which games change ratings.
    """

    id: int
    pool: Pool
    players: tuple[PlayerId, PlayerId]
    result: Result | None
    finished_at: datetime
    rated: bool = True
    origin: Origin = Origin.CHALLENGE

    def __post_init__(self) -> None:
        if self.finished_at.tzinfo is None or self.finished_at.utcoffset() is None:
            raise ValueError(f"game {self.id}: finished_at must be timezone-aware")
        if len(self.players) != 2:
            raise ValueError(f"game {self.id}: a game has two players, not {self.players!r}")

    @property
    def counts(self) -> bool:
        """Whether this game changes ratings: rated, from a challenge between two different
        people, and ended with a result (win, loss, draw, resignation or time loss; an
        aborted game has none)."""
        return (
            self.rated
            and self.origin is Origin.CHALLENGE
            and self.result is not None
            and self.players[0] != self.players[1]
        )

    @property
    def order(self) -> tuple[datetime, int]:
        """The order games are rated in: by finish time, then id."""
        return self.finished_at, self.id

    def result_for(self, player: PlayerId) -> PlayerResult | None:
        """How the game went for ``player`` (``None``: not theirs, or aborted)."""
        if self.result is None or player not in self.players:
            return None
        winner = self.result.winner
        if winner is None:
            return PlayerResult.DRAW
        return PlayerResult.WIN if self.players[winner] == player else PlayerResult.LOSS


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating in a pool right after game ``game_id`` finished at ``at``."""

    game_id: int
    at: datetime
    rating: Rating


@dataclass(frozen=True)
class Rebuild:
    """Ratings recomputed from stored games: the current rating of each ``(player, pool)``
    and, for the ``stats`` chart, its history (one point per rated game, oldest first)."""

    ratings: Mapping[tuple[PlayerId, Pool], Rating]
    history: Mapping[tuple[PlayerId, Pool], tuple[RatingPoint, ...]]


def rebuild(games: Iterable[FinishedGame]) -> Rebuild:
    """Replay every game that :attr:`~FinishedGame.counts` in order (finish time, then id)
    through :func:`update`, from new ratings; other games are skipped.

    The result equals what the incremental updates stored, to the last bit, when those were
    made in the same order.
    """
    ratings: dict[tuple[PlayerId, Pool], Rating] = {}
    history: dict[tuple[PlayerId, Pool], list[RatingPoint]] = {}
    for game in sorted((g for g in games if g.counts), key=lambda g: g.order):
        assert game.result is not None  # counts says so; narrows the type
        keys = [(player, game.pool) for player in game.players]
        after = update(ratings.get(keys[0], Rating()), ratings.get(keys[1], Rating()), game.result)
        for key, rating in zip(keys, after, strict=True):
            ratings[key] = rating
            history.setdefault(key, []).append(RatingPoint(game.id, game.finished_at, rating))
    return Rebuild(ratings, {key: tuple(points) for key, points in history.items()})


class PlayerResult(enum.Enum):
    """How one game went for one player."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


@dataclass(frozen=True)
class Record:
    """Wins, losses and draws.

    >>> str(Record(3, 1, 0)), Record(3, 1, 0).games
    ('3 wins, 1 loss, 0 draws', 4)
    """

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        """How many games the record counts."""
        return self.wins + self.losses + self.draws

    def add(self, result: PlayerResult) -> Record:
        """This record with one more game ending in ``result``."""
        return Record(
            self.wins + (result is PlayerResult.WIN),
            self.losses + (result is PlayerResult.LOSS),
            self.draws + (result is PlayerResult.DRAW),
        )

    def __str__(self) -> str:
        return ", ".join(
            _count(n, word) for n, word in zip(self, ("win", "loss", "draw"), strict=True)
        )

    def __iter__(self) -> Iterator[int]:
        return iter((self.wins, self.losses, self.draws))


@dataclass(frozen=True)
class Streak:
    """The player's current run of equal results, e.g. ``3 wins``."""

    result: PlayerResult
    length: int

    def __str__(self) -> str:
        return _count(self.length, self.result.value)


def _count(n: int, word: str) -> str:
    plural = word + ("es" if word.endswith("s") else "s")
    return f"{n} {word if n == 1 else plural}"


def _theirs(
    games: Iterable[FinishedGame], player: PlayerId, pool: Pool | None, rated_only: bool
) -> list[tuple[FinishedGame, PlayerResult]]:
    """``player``'s games with a result (in ``pool`` if given), in finish order."""
    out = []
    for game in games:
        mine = game.result_for(player)
        if mine is None or (pool is not None and game.pool is not pool):
            continue
        if rated_only and not game.counts:
            continue
        out.append((game, mine))
    out.sort(key=lambda pair: pair[0].order)
    return out


def record(
    games: Iterable[FinishedGame],
    player: PlayerId,
    *,
    pool: Pool | None = None,
    rated_only: bool = True,
) -> Record:
    """``player``'s wins, losses and draws among ``games`` (in ``pool`` if given).

    Only rated games count unless ``rated_only`` is false (then casual, bot and imported
    games with a result count too); aborted games never do.
    """
    out = Record()
    for _, mine in _theirs(games, player, pool, rated_only):
        out = out.add(mine)
    return out


def records_by_pool(
    games: Iterable[FinishedGame], player: PlayerId, *, rated_only: bool = True
) -> dict[Pool, Record]:
    """:func:`record` for every pool ``player`` has a game in, in :class:`Pool` order."""
    found: dict[Pool, Record] = {}
    for game, mine in _theirs(games, player, None, rated_only):
        found[game.pool] = found.get(game.pool, Record()).add(mine)
    return {pool: found[pool] for pool in Pool if pool in found}


def streak(
    games: Iterable[FinishedGame],
    player: PlayerId,
    *,
    pool: Pool | None = None,
    rated_only: bool = True,
) -> Streak | None:
    """``player``'s current streak: the run of equal results ending with their latest game
    (games counted as in :func:`record`); ``None`` before their first game."""
    results = [mine for _, mine in _theirs(games, player, pool, rated_only)]
    if not results:
        return None
    last = results[-1]
    length = 0
    for mine in reversed(results):
        if mine is not last:
            break
        length += 1
    return Streak(last, length)


def head_to_head(
    games: Iterable[FinishedGame],
    player: PlayerId,
    opponent: PlayerId,
    *,
    pool: Pool | None = None,
    rated_only: bool = True,
) -> Record:
    """``player``'s record against ``opponent`` (games counted as in :func:`record`)."""
    return record(
        (g for g in games if opponent in g.players and player != opponent),
        player,
        pool=pool,
        rated_only=rated_only,
    )
