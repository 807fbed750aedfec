"""Ratings (issue 18): pools, the shown number, updates, rebuilds and player statistics.

Every number here comes from the real openskill model; the rebuild test keeps the incremental
ratings in a real SQLite file, as the store will, and compares them bit for bit.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engines
from bot.ratings import (
    PROVISIONAL_GAMES,
    FinishedGame,
    Origin,
    PlayerResult,
    Pool,
    Rating,
    RatingChange,
    Record,
    Result,
    Streak,
    head_to_head,
    pool_from_text,
    pool_of,
    pools_of_game,
    rate,
    rebuild,
    record,
    records_by_pool,
    streak,
    update,
)

T0 = datetime(2025, 3, 1, 12, tzinfo=UTC)

#: The pool the examples rate in unless they name another.
PATHAGON = Pool("pathagon")


def game(
    gid: int,
    a: int,
    b: int,
    result: Result | None,
    *,
    pool: Pool = PATHAGON,
    at: datetime | None = None,
    **flags: Any,
) -> FinishedGame:
    """A finished game ``gid`` between players ``a`` (seat 0) and ``b``, an hour apart per id."""
    when = at if at is not None else T0 + timedelta(hours=gid)
    return FinishedGame(gid, pool, (a, b), result, when, **flags)


# --- pools --------------------------------------------------------------------------------------


def expected_key(name: str, options: dict[str, Any]) -> str:
    """The issue's rule: Maphex and Iso-Path by size, every other game one pool."""
    if name in ("maphex", "isopath"):
        return f"{name}{options['size']}"
    return name


def every_option_set() -> list[tuple[str, dict[str, Any]]]:
    cases = []
    for name, g in engines.GAMES.items():
        names = [o.name for o in g.options]
        for values in itertools.product(*(o.values for o in g.options)):
            cases.append((name, dict(zip(names, values, strict=True))))
    return cases


@pytest.mark.parametrize(("name", "options"), every_option_set())
def test_pool_of_every_game_and_option_set(name: str, options: dict[str, Any]) -> None:
    pool = pool_of(name, options)
    assert pool.key == expected_key(name, options)
    assert pool.game == name
    # The same options written as text (as the challenge command passes them) give the same.
    as_text = {
        k: ("yes" if v is True else "no" if v is False else str(v)) for k, v in options.items()
    }
    assert pool_of(name, as_text) is pool


def test_every_pool_is_reached_and_keys_are_stable() -> None:
    reached = {pool_of(name, options) for name, options in every_option_set()}
    assert reached == set(Pool)
    # Stored in the database: these strings must never change.
    assert sorted(p.key for p in Pool) == sorted(
        ["maphex9", "maphex16", "isopath4", "isopath5", "inphexion", "pathagon", "fixation"]
    )
    assert Pool("maphex16").title == "Maphex 16×16"
    assert Pool("isopath4").title.endswith("h4") and Pool("isopath5").title.endswith("h5")
    for pool in Pool:
        assert engines.GAMES[pool.game].title.split()[0] in pool.title


def test_default_options_pick_the_default_pool() -> None:
    assert pool_of("maphex") is Pool("maphex9")
    assert pool_of("isopath", {}) is Pool("isopath4")
    assert pools_of_game("isopath") == (Pool("isopath4"), Pool("isopath5"))
    assert pools_of_game("fixation") == (Pool("fixation"),)
    assert pools_of_game("chess") == ()


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("chess", {}, "unknown game 'chess'"),
        ("maphex", {"size": 12}, "option size must be one of 9, 16"),
        ("pathagon", {"size": 7}, "Pathagon has no option 'size'"),
        (None, {}, "unknown game None"),
    ],
)
def test_pool_of_refuses_bad_games_and_options(
    name: Any, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        pool_of(name, options)


@pytest.mark.parametrize(
    ("text", "pool"),
    [
        ("maphex", Pool("maphex9")),
        ("maphex16", Pool("maphex16")),
        ("  MAPHEX   size=16 ", Pool("maphex16")),
        ("maphex 16x16", Pool("maphex16")),
        ("isopath h5", Pool("isopath5")),
        ("isopath 4", Pool("isopath4")),
        ("isopath5", Pool("isopath5")),
        ("inphexion size=5", Pool("inphexion")),
        ("inphexion", Pool("inphexion")),
        ("fixation", Pool("fixation")),
    ],
)
def test_pool_from_text(text: str, pool: Pool) -> None:
    assert pool_from_text(text) is pool


@pytest.mark.parametrize(
    "text",
    ["", "chess", "maphex 12", "maphex size=16 extra", "pathagon big", "m\x00aphex", "x" * 500],
)
def test_pool_from_text_refuses_what_is_no_pool(text: str) -> None:
    with pytest.raises(ValueError, match=r"no rating pool .* \(pools: isopath4, ") as caught:
        pool_from_text(text)
    assert len(str(caught.value)) < 200 and "\x00" not in str(caught.value)


# --- the rating and its shown number ------------------------------------------------------------


@pytest.mark.parametrize("games", [0, 1, PROVISIONAL_GAMES - 1, PROVISIONAL_GAMES, 250])
def test_provisional_until_enough_games(games: int) -> None:
    r = Rating(games=games)
    assert r.provisional is (games < PROVISIONAL_GAMES)
    assert r.format() == str(r) == ("1500?" if games < PROVISIONAL_GAMES else "1500")


@pytest.mark.parametrize(
    ("mu", "shown"), [(25.0, 1500), (26.0, 1530), (24.0, 1470), (25.02, 1501), (35.0, 1800)]
)
def test_shown_number_is_mu_scaled(mu: float, shown: int) -> None:
    assert Rating(mu=mu, games=PROVISIONAL_GAMES).value == shown
    assert Rating(mu=mu, games=PROVISIONAL_GAMES).format() == str(shown)


@pytest.mark.parametrize(
    "fields",
    [
        {"mu": float("nan")},
        {"mu": float("inf")},
        {"sigma": 0.0},
        {"sigma": -1.0},
        {"games": -1},
        {"games": True},
        {"games": 1.5},
    ],
)
def test_bad_ratings_are_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="a rating"):
        Rating(**fields)


ratings_st = st.builds(
    Rating,
    mu=st.floats(0, 50),
    sigma=st.floats(0.5, 9),
    games=st.integers(0, 1000),
)


@given(ratings_st, ratings_st)
def test_a_win_raises_the_winner_and_lowers_the_loser(a: Rating, b: Rating) -> None:
    winner, loser = update(a, b, Result.A_WINS)
    assert winner.mu > a.mu and loser.mu < b.mu
    assert winner.value >= a.value and loser.value <= b.value
    assert (winner.games, loser.games) == (a.games + 1, b.games + 1)
    # Seats do not matter: the same game seen from the other seat gives the same numbers.
    assert update(b, a, Result.B_WINS) == (loser, winner)


@given(ratings_st, ratings_st)
def test_a_draw_pulls_the_two_ratings_together(a: Rating, b: Rating) -> None:
    new_a, new_b = update(a, b, Result.DRAW)
    if a.mu > b.mu:
        assert new_a.mu <= a.mu and new_b.mu >= b.mu
    assert new_a.sigma < a.sigma + 0.1 and new_b.sigma < b.sigma + 0.1


def test_a_draw_between_equals_changes_little() -> None:
    for a in (Rating(), Rating(mu=30.0, sigma=2.0, games=40)):
        new_a, new_b = update(a, a, Result.DRAW)
        assert abs(new_a.value - a.value) <= 1 and abs(new_b.value - a.value) <= 1
        assert new_a.sigma < a.sigma  # but it was evidence: less uncertain
        win, _ = update(a, a, Result.A_WINS)
        assert win.value - a.value > 5 * abs(new_a.value - a.value)


def test_an_upset_moves_ratings_more_than_an_expected_win() -> None:
    strong, weak = Rating(mu=30.0, sigma=2.0, games=50), Rating(mu=22.0, sigma=2.0, games=50)
    expected_gain = update(strong, weak, Result.A_WINS)[0].value - strong.value
    upset_gain = update(weak, strong, Result.A_WINS)[0].value - weak.value
    assert upset_gain > expected_gain > 0
    # A newcomer's rating moves more than a settled one's after the same game.
    new_gain = update(Rating(), Rating(), Result.A_WINS)[0].value - 1500
    settled = Rating(sigma=2.0, games=50)
    assert new_gain > update(settled, settled, Result.A_WINS)[0].value - 1500


def test_result_from_the_winning_seat() -> None:
    assert [Result.from_winner(w) for w in (0, 1, None)] == [
        Result.A_WINS,
        Result.B_WINS,
        Result.DRAW,
    ]
    assert [r.winner for r in Result] == [0, 1, None]
    bad_winners: list[Any] = [2, -1, True, "0"]
    for bad in bad_winners:
        with pytest.raises(ValueError, match="a winner is seat 0, seat 1 or None"):
            Result.from_winner(bad)


def test_rating_changes_read_as_the_game_over_message_says() -> None:
    ada, bob = Rating(), Rating(mu=27.0, sigma=3.0, games=30)
    up, down = rate(ada, bob, Result.A_WINS)
    assert (up.before, down.before) == (ada, bob)
    assert (up.after, down.after) == update(ada, bob, Result.A_WINS)
    assert up.delta > 0 > down.delta
    assert up.format("Ada") == f"Ada 1500? → {up.after.value}? (+{up.delta})"
    assert str(down) == f"{bob.value} → {down.after.value} (−{-down.delta})"
    same = RatingChange(bob, bob)
    assert same.delta == 0 and str(same).endswith("(+0)")
    # The delta is that of the shown (rounded) numbers, so the message adds up.
    tiny = RatingChange(Rating(mu=25.016), Rating(mu=25.034))
    assert (tiny.before.value, tiny.after.value, tiny.delta) == (1500, 1501, 1)


# --- rebuild --------------------------------------------------------------------------------


def random_games(rng: random.Random, count: int, players: int) -> list[FinishedGame]:
    """``count`` games among ``players`` players in every pool, with ties in finish times and
    every kind that must be skipped mixed in."""
    games = []
    at = T0
    for gid in range(1, count + 1):
        if rng.random() < 0.8:  # else: same finish time as the previous game (order by id)
            at += timedelta(minutes=rng.randint(1, 600))
        a, b = rng.sample(range(1, players + 1), 2)
        kind = rng.random()
        flags: dict[str, Any] = {}
        if kind < 0.05:
            flags["rated"] = False
        elif kind < 0.1:
            flags["origin"] = Origin.BOT
        elif kind < 0.15:
            flags["origin"] = Origin.IMPORTED
        elif kind < 0.18:
            b = a  # a player against themself (console hot-seat)
        result = None if rng.random() < 0.05 else rng.choice(list(Result))
        games.append(game(gid, a, b, result, pool=rng.choice(list(Pool)), at=at, **flags))
    return games


class RatingTable:
    """Incremental ratings the way the store keeps them: REAL columns in an SQLite file."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path)
        self.db.execute(
            "CREATE TABLE ratings (player INTEGER, pool TEXT, mu REAL, sigma REAL, games INTEGER,"
            " PRIMARY KEY (player, pool))"
        )

    def get(self, player: int, pool: Pool) -> Rating:
        row = self.db.execute(
            "SELECT mu, sigma, games FROM ratings WHERE player = ? AND pool = ?",
            (player, pool.key),
        ).fetchone()
        return Rating() if row is None else Rating(*row)

    def put(self, player: int, pool: Pool, r: Rating) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?)",
            (player, pool.key, r.mu, r.sigma, r.games),
        )

    def all(self) -> dict[tuple[int, Pool], Rating]:
        rows = self.db.execute("SELECT player, pool, mu, sigma, games FROM ratings")
        return {(p, Pool(k)): Rating(mu, s, g) for p, k, mu, s, g in rows}


def test_rebuild_gives_exactly_the_incremental_ratings(tmp_path: Path) -> None:
    rng = random.Random(18)
    games = random_games(rng, 500, players=25)
    table = RatingTable(tmp_path / "ratings.db")
    # Incrementally, as each game ends (games end in finish-time order, ties by id).
    for g in games:
        if not g.counts:
            continue
        assert g.result is not None
        a, b = (table.get(p, g.pool) for p in g.players)
        new_a, new_b = update(a, b, g.result)
        table.put(g.players[0], g.pool, new_a)
        table.put(g.players[1], g.pool, new_b)
    incremental = table.all()
    assert len(incremental) > 50

    shuffled = games[:]
    rng.shuffle(shuffled)  # the store may hand them over in any order
    rebuilt = rebuild(shuffled)
    assert rebuilt.ratings == incremental  # exact floats, not approximately
    counted = [g for g in games if g.counts]
    assert sum(r.games for r in rebuilt.ratings.values()) == 2 * len(counted)
    for key, points in rebuilt.history.items():
        assert points[-1].rating == rebuilt.ratings[key]
        assert [p.rating.games for p in points] == list(range(1, len(points) + 1))
        assert [p.at for p in points] == sorted(p.at for p in points)
    # Rebuilding twice gives the same again.
    assert rebuild(iter(games)).ratings == rebuilt.ratings


@pytest.mark.parametrize(
    ("label", "flags", "result", "b"),
    [
        ("casual", {"rated": False}, Result.A_WINS, 2),
        ("against the bot", {"origin": Origin.BOT}, Result.A_WINS, 2),
        ("imported", {"origin": Origin.IMPORTED}, Result.DRAW, 2),
        ("aborted", {}, None, 2),
        ("against oneself", {}, Result.A_WINS, 1),
    ],
)
def test_games_that_are_not_rated_are_skipped(
    label: str, flags: dict[str, Any], result: Result | None, b: int
) -> None:
    skipped = game(1, 1, b, result, **flags)
    assert not skipped.counts, label
    rated = game(2, 1, 3, Result.B_WINS)
    assert rebuild([skipped]).ratings == {}
    assert rebuild([skipped, rated]).ratings == rebuild([rated]).ratings
    assert rebuild([skipped, rated]).history[(1, Pool("pathagon"))][0].game_id == 2


def test_ratings_are_kept_per_pool() -> None:
    games = [
        game(1, 1, 2, Result.A_WINS, pool=Pool("maphex9")),
        game(2, 1, 2, Result.B_WINS, pool=Pool("maphex16")),
    ]
    out = rebuild(games).ratings
    assert out[(1, Pool("maphex9"))].value > 1500 > out[(1, Pool("maphex16"))].value
    assert out[(1, Pool("maphex9"))].games == out[(1, Pool("maphex16"))].games == 1


def test_order_is_finish_time_then_id() -> None:
    later = game(1, 1, 2, Result.A_WINS, at=T0 + timedelta(days=1))
    tie_a = game(3, 1, 2, Result.B_WINS, at=T0)
    tie_b = game(2, 1, 2, Result.DRAW, at=T0)
    history = rebuild([later, tie_a, tie_b]).history[(1, Pool("pathagon"))]
    assert [p.game_id for p in history] == [2, 3, 1]
    # Another time zone for the same instant sorts the same.
    moved = dataclasses.replace(tie_a, finished_at=T0.astimezone(timezone(timedelta(hours=5))))
    assert [p.game_id for p in rebuild([later, moved, tie_b]).history[(1, Pool("pathagon"))]] == [
        2,
        3,
        1,
    ]


def test_a_finished_game_needs_an_aware_time_and_two_players() -> None:
    with pytest.raises(ValueError, match="game 4: finished_at must be timezone-aware"):
        FinishedGame(4, Pool("fixation"), (1, 2), Result.DRAW, datetime(2025, 1, 1))
    three: Any = (1, 2, 3)
    with pytest.raises(ValueError, match="game 5: a game has two players"):
        FinishedGame(5, Pool("fixation"), three, Result.DRAW, T0)


# --- statistics ---------------------------------------------------------------------------------


def sequence(player: int, outcomes: str, opponent: int = 2) -> list[FinishedGame]:
    """Games of ``player`` against ``opponent`` from letters W/L/D, alternating seats."""
    games = []
    for i, letter in enumerate(outcomes, 1):
        seats = (player, opponent) if i % 2 else (opponent, player)
        mine = seats.index(player)
        result = {
            "W": Result.from_winner(mine),
            "L": Result.from_winner(1 - mine),
            "D": Result.DRAW,
        }[letter]
        games.append(game(i, *seats, result))
    return games


@pytest.mark.parametrize(
    ("outcomes", "shown", "wins", "losses", "draws"),
    [
        ("W", "1 win", 1, 0, 0),
        ("WWLDWWW", "3 wins", 5, 1, 1),
        ("WWWL", "1 loss", 3, 1, 0),
        ("LLDD", "2 draws", 0, 2, 2),
        ("DWLL", "2 losses", 1, 2, 1),
    ],
)
def test_streak_and_record(outcomes: str, shown: str, wins: int, losses: int, draws: int) -> None:
    games = sequence(1, outcomes)
    random.Random(outcomes).shuffle(games)  # order comes from the finish times
    assert str(streak(games, 1)) == shown
    assert record(games, 1) == Record(wins, losses, draws)
    # The opponent sees the mirror image.
    assert record(games, 2) == Record(losses, wins, draws)
    assert head_to_head(games, 1, 2) == Record(wins, losses, draws)
    assert head_to_head(games, 1, 3) == Record()


def test_streak_is_none_before_the_first_game() -> None:
    assert streak([], 1) is None
    assert streak(sequence(2, "WW", opponent=3), 1) is None
    assert streak([game(1, 1, 2, None)], 1) is None  # aborted


def test_stats_count_rated_games_unless_asked() -> None:
    games = [
        *sequence(1, "WW"),
        game(10, 1, 2, Result.B_WINS, rated=False),
        game(11, 1, 9, Result.B_WINS, origin=Origin.BOT),
        game(12, 1, 2, None),
    ]
    assert str(streak(games, 1)) == "2 wins"
    assert record(games, 1) == Record(2, 0, 0)
    assert str(streak(games, 1, rated_only=False)) == "2 losses"
    assert record(games, 1, rated_only=False) == Record(2, 2, 0)
    assert head_to_head(games, 1, 2, rated_only=False) == Record(2, 1, 0)


def test_records_by_pool_and_pool_filters() -> None:
    games = [
        game(1, 1, 2, Result.A_WINS, pool=Pool("maphex16")),
        game(2, 3, 1, Result.A_WINS, pool=Pool("isopath4")),
        game(3, 1, 2, Result.DRAW, pool=Pool("maphex16")),
        game(4, 1, 3, Result.A_WINS, pool=Pool("fixation")),
    ]
    by_pool = records_by_pool(games, 1)
    assert list(by_pool) == [Pool("isopath4"), Pool("fixation"), Pool("maphex16")]  # Pool order
    assert by_pool[Pool("maphex16")] == Record(1, 0, 1)
    assert by_pool[Pool("isopath4")] == Record(0, 1, 0)
    assert str(streak(games, 1, pool=Pool("maphex16"))) == "1 draw"
    assert head_to_head(games, 1, 3, pool=Pool("isopath4")) == Record(0, 1, 0)
    assert head_to_head(games, 1, 1) == Record()


def test_record_and_streak_words() -> None:
    assert str(Record(1, 2, 1)) == "1 win, 2 losses, 1 draw"
    assert str(Record()) == "0 wins, 0 losses, 0 draws"
    assert Record(2, 1, 4).games == 7 and list(Record(2, 1, 4)) == [2, 1, 4]
    assert str(Streak(PlayerResult.LOSS, 3)) == "3 losses"
    assert game(1, 4, 5, Result.A_WINS).result_for(6) is None
