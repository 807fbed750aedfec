"""``hexhall ratings rebuild`` rebuilds the bot's level ratings too (issue 49): replaying every
finished game against the bot in the order they ended, from each level's measured rating, each
against the player's rating in the game's community at that moment, gives what the games gave
as they ended; the players' ratings never move for them; a game or ``bot_ratings`` row naming a
level the bot does not have stops the rebuild with one line and nothing written.  The games
end through the live path (:mod:`bot.sessions.finish`, :func:`bot.sessions.standings.settle`)
into the real store, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import engines
from bot import level_ratings
from bot.cli import main
from bot.core.notification import BOT_USER_ID
from bot.core.status import GameStatus
from bot.ratings import Pool, Rating, Result, update
from bot.sessions import finish
from bot.sessions.clock import FakeClock
from bot.sessions.context import Context
from bot.storage import BadRow, Community, GameRow, SqlStore, open_store
from engines.levels import Level
from tests.bot.session_kit import short_finishing_moves
from tests.bot.storage.games_kit import pathagon_game
from tests.bot.storage.raw import raw

START = datetime(2026, 4, 1, 9, tzinfo=UTC)
PATHAGON = Pool("pathagon")
A = Community("console", "room-a")
B = Community("console", "room-b")
#: Every table a rebuild writes, as stored.
TABLES = (
    "SELECT pool, level, mu, sigma, games, value, updated_at FROM bot_ratings ORDER BY pool, level",
    "SELECT player, platform, community, pool, mu, sigma, games, value, updated_at FROM ratings "
    "ORDER BY player, platform, community, pool",
    "SELECT * FROM rating_changes ORDER BY game_id, seat",
)


class _Games:
    """Games of the console in community ``A`` or ``B``, ended through the live path."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store
        self.ctx = Context(store, FakeClock())
        self.now = START

    async def new(
        self, seat0: int, seat1: int, where: Community, bot_seat: int | None, level: Level | None
    ) -> GameRow:
        made = pathagon_game(seat0, seat1, bot_seat, level)
        self.now += timedelta(minutes=5)
        return await self.store.create_game(
            dataclasses.replace(made, chat_id=where.id, community=where.id), self.now
        )

    async def ended(self, row: GameRow, ending: finish.Ending, winner: int | None) -> None:
        """``row`` ends without a move (a resignation, a timeout, an agreement)."""
        self.now += timedelta(minutes=5)
        done = await finish.finish(self.ctx, row, None, ending, winner, (), self.now)
        assert done is not None and done.status is ending.status

    async def won_by_a_move(self, row: GameRow) -> int:
        """``row`` played to its end by a short finishing game: the last move ends it (stored
        with its rating in the same transaction, as a move that ends a game is); the winner."""
        moves = short_finishing_moves("pathagon")
        position = engines.new("pathagon")
        for move in moves:
            after = position.play(move)
            self.now += timedelta(seconds=30)
            outcome = after.outcome
            ending, rated = None, None
            if outcome is not None:
                winner, termination = outcome.winner, outcome.termination
                over = finish.by_the_rules(termination)
                settled = await finish.settled(self.ctx, row, over, winner, (), self.now)
                ending, rated = (winner, settled.result, termination), settled.rated
            stored = await self.store.apply_move(
                row, move, position.to_move, after.to_dict(), after.to_move, self.now,
                finish=ending, rating=rated,
            )  # fmt: skip
            assert stored is not None
            row, position = stored, after
        assert row.status is GameStatus.FINISHED and row.winner is not None
        return row.winner


async def _players(store: SqlStore) -> tuple[int, int, int]:
    ada = await store.player("console", "ada", "ada", START)
    bob = await store.player("console", "bob", "bob", START)
    bot = await store.player("console", BOT_USER_ID, "Hexhall bot", START)
    return ada.id, bob.id, bot.id


async def _history(store: SqlStore) -> tuple[int, int]:
    """Bot games and player games interleaved across two communities, ended by a move, a
    resignation, a timeout and an agreement (and one aborted); Ada's and Bob's ids."""
    ada, bob, bot = await _players(store)
    games = _Games(store)
    # A: Ada beats Bob (Bob resigns).
    await games.ended(await games.new(ada, bob, A, None, None), finish.RESIGNATION, 0)
    # A: Ada resigns to the hard bot.
    await games.ended(await games.new(ada, bot, A, 1, Level.HARD), finish.RESIGNATION, 1)
    # B: Ada loses to Bob on time.
    await games.ended(await games.new(bob, ada, B, None, None), finish.TIMEOUT, 0)
    # B: Ada beats the hard bot by her move, at her rating in B.
    assert await games.won_by_a_move(await games.new(ada, bot, B, 1, Level.HARD)) == 0
    # A: Bob loses to the normal bot on time, then by the bot's move; agrees a draw with hard.
    await games.ended(await games.new(bot, bob, A, 0, Level.NORMAL), finish.TIMEOUT, 0)
    assert await games.won_by_a_move(await games.new(bot, bob, A, 0, Level.NORMAL)) == 0
    await games.ended(await games.new(bob, bot, A, 1, Level.HARD), finish.AGREEMENT, None)
    # A: Ada beats Bob by a move; then a bot game that never started rates nothing.
    assert await games.won_by_a_move(await games.new(ada, bob, A, None, None)) == 0
    await games.ended(await games.new(ada, bot, A, 1, Level.EASY), finish.NO_FIRST_MOVE, None)
    return ada, bob


async def _tables(store: SqlStore) -> list[list[tuple[object, ...]]]:
    return [await raw(store, sql) for sql in TABLES]


async def test_a_rebuild_gives_the_level_ratings_the_games_gave(store: SqlStore) -> None:
    ada, bob = await _history(store)
    live = await _tables(store)
    levels = await store.bot_ratings()
    assert set(levels) == {(PATHAGON, Level.HARD), (PATHAGON, Level.NORMAL)}
    # Each level from its measured rating, one game more for each game against it.
    hard = level_ratings.start(PATHAGON, Level.HARD)
    assert levels[(PATHAGON, Level.HARD)].games == hard.games + 3
    normal = level_ratings.start(PATHAGON, Level.NORMAL)
    assert levels[(PATHAGON, Level.NORMAL)].games == normal.games + 2
    assert levels[(PATHAGON, Level.HARD)] != hard
    # The players' ratings are those of their games with each other alone.
    ada_a, bob_a = update(Rating(), Rating(), Result.A_WINS)
    bob_b, ada_b = update(Rating(), Rating(), Result.A_WINS)
    ada_a, bob_a = update(ada_a, bob_a, Result.A_WINS)
    assert await store.ratings_of(ada, A) == {PATHAGON: ada_a}
    assert await store.ratings_of(ada, B) == {PATHAGON: ada_b}
    assert await store.ratings_of(bob, A) == {PATHAGON: bob_a}
    assert await store.ratings_of(bob, B) == {PATHAGON: bob_b}

    summary = await store.rebuild_ratings()
    assert (summary.rated, summary.ratings, summary.bot_games, summary.levels) == (3, 4, 5, 2)
    assert await _tables(store) == live
    # From none (a database from before the levels' table): the same.
    await raw(store, "DELETE FROM bot_ratings")
    assert await store.rebuild_ratings() == summary
    assert await _tables(store) == live
    # Again, after a level's row was damaged: the same (the rebuild does not read them).
    await raw(store, "UPDATE bot_ratings SET games = -1 WHERE level = 'hard'")
    assert await store.rebuild_ratings() == summary
    assert await _tables(store) == live


@pytest.mark.parametrize(
    ("damage", "named"),
    [
        (
            "UPDATE games SET bot_level = 'grandmaster' WHERE bot_level = 'normal'",
            "column bot_level cannot be read (not a level of the bot: 'grandmaster')",
        ),
        (
            "INSERT INTO bot_ratings (pool, level, mu, sigma, games, value, updated_at) "
            "VALUES ('pathagon', 'grandmaster', 25, 8, 1, 1500, '2026-04-01T00:00:00+00:00')",
            "bot_ratings #('pathagon', 'grandmaster'): column pool, level cannot be read",
        ),
    ],
    ids=["game", "bot_ratings"],
)
async def test_an_unknown_level_stops_the_rebuild_before_it_writes(
    store: SqlStore, damage: str, named: str
) -> None:
    await _history(store)
    await raw(store, damage)
    before = await _tables(store)
    with pytest.raises(BadRow) as refused:
        await store.rebuild_ratings()
    assert named in str(refused.value)
    assert await _tables(store) == before


def test_the_command_says_the_rebuild_in_one_line_each(
    store_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    async def prepare(damage: str | None = None) -> None:
        store = await open_store(store_url)
        try:
            if damage is None:
                await _history(store)
            else:
                await raw(store, damage)
        finally:
            await store.close()

    asyncio.run(prepare())
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("HEXHALL_DB", store_url)
    monkeypatch.setenv("LANG", "C")
    assert main(["ratings", "rebuild"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "Ratings rebuilt from 8 finished games: 3 rated, 4 ratings.",
        "The bot's levels: 2 ratings from 5 games against the bot.",
    ]
    assert err == ""
    asyncio.run(prepare("UPDATE games SET bot_level = 'grandmaster' WHERE bot_level = 'hard'"))
    assert main(["ratings", "rebuild"]) != 0
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith("hexhall: ratings not rebuilt, nothing was changed: games #")
    assert "(not a level of the bot: 'grandmaster')" in err
    # In the environment's language.
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert main(["ratings", "rebuild"]) != 0
    _, err = capsys.readouterr()
    assert err.startswith("hexhall: Wertungen nicht neu berechnet") and len(err.splitlines()) == 1
