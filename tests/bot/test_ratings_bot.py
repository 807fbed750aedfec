"""Ratings in the bot (issue 18): rated games update both players in the transaction that ends
them, which games count, ratings and leaderboards per community (issue 27) and overall, stats
with the chart, and a rebuild that gives the same rows.  Real SQLite files, the real openskill
model, real Pillow."""

from __future__ import annotations

import io
import json
import random
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

import engines
from bot.adapters.commands import execute
from bot.core.notification import Kind
from bot.core.status import GameResult, GameStatus
from bot.messages import Chat, User
from bot.ratings import PROVISIONAL_GAMES, Origin, Pool, Rating, RatingChange, Result, rate
from bot.sessions import policy
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import Community, NewGame, RatedEnd, RatingsMoved, SqliteStore, StoreError
from bot.storage.sql_standings import leaderboard_query
from tests.bot.session_kit import (
    ALICE,
    BOB,
    CAROL,
    ROOM,
    finishing_moves,
    mover,
    session,
    start_game,
)
from tests.bot.storage.raw import raw

DAVE = User("test", "4", "dave")

#: The pool the examples rate in unless they name another.
PATHAGON = Pool("pathagon")


async def played(
    m: SessionManager, loser: User, winner: User, chat: Chat = ROOM, rated: bool | str = True
) -> int:
    """``loser`` challenges ``winner`` to Pathagon in ``chat``, it is accepted and ``loser``
    resigns; the game id."""
    made = await m.challenges.challenge(loser, chat, "pathagon", winner, None, "me", 3, rated)
    assert made.ok and made.challenge_id is not None, made.text
    accepted = await m.challenges.accept(winner, chat, made.challenge_id)
    assert accepted.ok and accepted.game_id is not None, accepted.text
    resigned = await m.games.resign(loser, chat, accepted.game_id)
    assert resigned.ok, resigned.text
    return accepted.game_id


async def rating_of(
    m: SessionManager, user: User, pool: Pool = PATHAGON, chat: Chat = ROOM
) -> Rating:
    """``user``'s rating in ``pool`` of ``chat``'s community."""
    player = await m.store.find_player(user.platform, user.user_id)
    assert player is not None
    return await m.store.rating(player.id, pool, Community(chat.platform, chat.community_id))


async def status_of(m: SessionManager, game_id: int) -> GameStatus:
    row = await m.store.get_game(game_id)
    assert row is not None
    return row.status


def table(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


# -- which games change ratings ------------------------------------------------------------


async def test_a_game_played_to_the_end_rates_both_players(store_url: str) -> None:
    """(On SQLite and on PostgreSQL.)"""
    moves = finishing_moves("pathagon")
    async with session(store_url) as m:
        gid, _ = await start_game(m, "pathagon")
        reply = None
        for move in moves:
            reply = await m.games.move(await mover(m, gid), ROOM, move, confirm=True)
            assert reply.ok, reply.text
        row = await m.store.get_game(gid)
        assert row is not None and row.status is GameStatus.FINISHED and row.winner is not None
        expected = rate(Rating(), Rating(), Result.from_winner(row.winner))
        seat0 = ALICE  # start_game: first=me, Alice in seat 0
        assert await rating_of(m, seat0) == expected[0].after
        assert await rating_of(m, BOB) == expected[1].after
        assert await m.store.rating_changes(gid) == expected
        # The last move's answer and the final board (the chat's notice, naming the loser, who
        # did not ask for direct messages) say how both ratings changed.
        assert reply is not None
        assert f"alice {expected[0]}" in reply.text and f"bob {expected[1]}" in reply.text
        loser = ALICE if row.winner == 1 else BOB
        player = await m.store.find_player(loser.platform, loser.user_id)
        assert player is not None
        notes = await m.store.notifications_for(player.id)
        assert not [n for n in notes if n.kind is Kind.GAME_OVER]
        board = [n for n in notes if n.kind is Kind.BOARD]
        assert len(board) == 1 and str(expected[0]) in str(board[0].text)


async def test_resignation_and_draw_count(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        await played(m, ALICE, BOB)
        won = rate(Rating(), Rating(), Result.B_WINS)
        assert await rating_of(m, ALICE) == won[0].after
        assert await rating_of(m, BOB) == won[1].after
        clock.advance(hours=1)
        gid, _ = await start_game(m, "pathagon")
        assert (await m.games.draw(ALICE, ROOM, gid)).ok
        agreed = await m.games.draw(BOB, ROOM, gid, "accept")
        assert agreed.ok, agreed.text
        drawn = rate(won[0].after, won[1].after, Result.DRAW)
        assert await rating_of(m, ALICE) == drawn[0].after
        assert await rating_of(m, BOB) == drawn[1].after
        assert drawn[0].after.value > won[0].after.value  # the lower-rated one gains
        assert "Ratings (Pathagon)" in agreed.text and str(drawn[1]) in agreed.text


async def test_time_loss_counts_and_an_aborted_game_does_not(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        aborted, _ = await start_game(m, "pathagon")  # nobody moves: aborted on time
        timed, _ = await start_game(m, "pathagon")
        assert (await m.games.move(ALICE, ROOM, finishing_moves("pathagon")[0], timed)).ok
        clock.advance(days=4)
        assert await m.sweep() == 2
        assert await status_of(m, aborted) is GameStatus.ABORTED
        row = await m.store.get_game(timed)
        assert row is not None and (row.reason, row.winner) == ("timeout", 0)
        assert await m.store.rating_changes(aborted) is None
        expected = rate(Rating(), Rating(), Result.A_WINS)
        assert await m.store.rating_changes(timed) == expected
        assert (await rating_of(m, ALICE)).games == 1 == (await rating_of(m, BOB)).games
        bob = await m.store.find_player(BOB.platform, BOB.user_id)
        assert bob is not None
        told = [str(n.text) for n in await m.store.notifications_for(bob.id)]
        assert any("time ran out" in t and str(expected[1]) in t for t in told)


async def test_a_casual_game_does_not_count_and_its_rematch_stays_casual(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        made = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB, rated=False)
        assert "Casual game (not rated)" in made.text
        gid = await played(m, ALICE, BOB, rated="no")
        assert await rating_of(m, ALICE) == Rating() == await rating_of(m, BOB)
        assert await m.store.rating_changes(gid) is None
        board = await m.games.board(ALICE, ROOM, gid)
        assert "Ratings" not in board.text
        asked = await m.games.rematch(BOB, ROOM, gid)
        assert asked.ok and asked.challenge_id is not None
        challenge = await m.store.get_challenge(asked.challenge_id)
        assert challenge is not None and challenge.rated is False
        again = await m.challenges.accept(ALICE, ROOM, asked.challenge_id)
        assert again.game_id is not None
        assert "Casual game" in (await m.games.board(ALICE, ROOM, again.game_id)).text
        bad = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB, rated="maybe")
        assert not bad.ok and "rated=maybe" in bad.text


async def test_games_against_the_bot_and_imported_games_never_count(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        alice = await m.players.player(ALICE)
        bob = await m.players.player(BOB)
        new = NewGame(
            game="pathagon",
            options={},
            seat0=alice.id,
            seat1=bob.id,
            platform="test",
            chat_id="room",
            to_move=0,
            snapshot=json.loads(json.dumps(engines.new("pathagon").to_dict())),
            bot_seat=1,
        )
        bot_game = await m.store.create_game(new, m.now())
        assert (await m.games.resign(ALICE, ROOM, bot_game.id)).ok
        marked = await m.store.create_game(replace(new, bot_seat=None, origin=Origin.BOT), m.now())
        assert (await m.games.resign(ALICE, ROOM, marked.id)).ok
        assert await rating_of(m, ALICE) == Rating() == await rating_of(m, BOB)
        # An imported record of a rated game is stored but never rated, now or on rebuild.
        gid = await played(m, ALICE, BOB)
        text = (await m.games.export(ALICE, ROOM, gid)).text
        imported = await m.games.import_record(CAROL, Chat("test", "other"), text, DAVE)
        assert imported.ok and imported.game_id is not None
        copy = await m.store.get_game(imported.game_id)
        assert copy is not None and copy.origin is Origin.IMPORTED and not copy.rated
        summary = await m.players.rebuild_ratings()
        assert summary.rated == 1
        assert await rating_of(m, CAROL) == Rating() == await rating_of(m, DAVE)
        # The store refuses to rate a game that does not count, whatever it is handed.
        row = await m.store.create_game(new, m.now())
        changes = rate(Rating(), Rating(), Result.A_WINS)
        with pytest.raises(StoreError, match="does not count"):
            await m.store.finish_game(
                row,
                GameStatus.FINISHED,
                0,
                GameResult.WIN,
                "resignation",
                m.now(),
                rating=RatedEnd(Pool("pathagon"), changes),
            )
        assert await status_of(m, row.id) is GameStatus.ACTIVE


# -- one transaction -----------------------------------------------------------------------


async def test_a_failing_end_leaves_ratings_and_game_unchanged(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        gid, _ = await start_game(m, "pathagon")
        row = await m.store.get_game(gid)
        assert row is not None
        changes = rate(Rating(), Rating(), Result.A_WINS)
        alice = await m.players.player(ALICE)
        good = policy.note(m._ctx, alice, Kind.GAME_OVER, "over", m.now(), game_id=gid)
        # A notification for a player who does not exist: the foreign key fails the
        # transaction after the ratings were written in it.
        broken = replace(good, recipient=replace(good.recipient, player_id=999_999))
        with pytest.raises(StoreError):
            await m.store.finish_game(
                row,
                GameStatus.FINISHED,
                0,
                GameResult.WIN,
                "resignation",
                m.now(),
                [broken],
                rating=RatedEnd(Pool("pathagon"), changes),
            )
        # Ratings computed from a rating that has changed since are refused as well.
        stale = (RatingChange(Rating(mu=26.0), changes[0].after), changes[1])
        with pytest.raises(RatingsMoved):
            await m.store.finish_game(
                row,
                GameStatus.FINISHED,
                0,
                GameResult.WIN,
                "resignation",
                m.now(),
                rating=RatedEnd(Pool("pathagon"), stale),
            )
        assert await status_of(m, gid) is GameStatus.ACTIVE
        assert await rating_of(m, ALICE) == Rating() == await rating_of(m, BOB)
        path = tmp_path / "h.db"
        for name in ("ratings", "rating_changes"):
            assert table(path, f"SELECT COUNT(*) FROM {name}") == [(0,)]
        # The same end with good notes goes through and writes everything.
        done = await m.store.finish_game(
            row,
            GameStatus.FINISHED,
            0,
            GameResult.WIN,
            "resignation",
            m.now(),
            [good],
            rating=RatedEnd(Pool("pathagon"), changes),
        )
        assert done is not None and await rating_of(m, ALICE) == changes[0].after


# -- leaderboards, cards, stats ---------------------------------------------------------------


async def test_each_community_has_its_own_ratings_and_leaderboard(store_url: str) -> None:
    """The same two players rated in two servers (issue 27): each game changes their ratings
    in its own server only, each server's leaderboard, ``stats`` and chart history are its
    own; ``all`` lists each player once, at their best.  (On SQLite and on PostgreSQL.)"""
    clock = FakeClock()
    server_a = Chat("test", "a-general", community="server-a")
    server_a2 = Chat("test", "a-random", community="server-a")
    server_b = Chat("test", "b-general", community="server-b")
    async with session(store_url, clock) as m:
        # Server B first: Alice beats Bob twice, Carol beats Dave.
        await played(m, BOB, ALICE, server_b)
        clock.advance(minutes=5)
        await played(m, BOB, ALICE, server_b)
        clock.advance(minutes=5)
        await played(m, DAVE, CAROL, server_b)
        clock.advance(minutes=5)
        # Then server A: Bob beats Alice, from new ratings (B's games do not count here).
        in_a = await played(m, ALICE, BOB, server_a)
        first = rate(Rating(), Rating(), Result.B_WINS)
        assert await m.store.rating_changes(in_a) == first
        assert await rating_of(m, ALICE, chat=server_a) == first[0].after
        assert await rating_of(m, BOB, chat=server_a2) == first[1].after  # the same server
        # B's ratings are the two B games only, A's game changed nothing there.
        once = rate(Rating(), Rating(), Result.B_WINS)  # seat 0 Bob loses to Alice
        twice = rate(once[0].after, once[1].after, Result.B_WINS)
        assert await rating_of(m, BOB, chat=server_b) == twice[0].after
        assert await rating_of(m, ALICE, chat=server_b) == twice[1].after
        # And a third community (this room) has none of them.
        assert await rating_of(m, ALICE) == Rating()

        here = await m.players.leaderboard(ALICE, server_a2, "pathagon")
        assert here.text.splitlines()[:3] == [
            "Pathagon leaderboard (here)",
            f"1. bob {first[1].after} (1 game)",
            f"2. alice {first[0].after} (1 game)",
        ]
        there = await m.players.leaderboard(ALICE, server_b, "pathagon")
        lines = there.text.splitlines()
        assert lines[1] == f"1. alice {twice[1].after} (2 games)"
        assert f"bob {twice[0].after} (2 games)" in there.text and "carol" in there.text
        assert "carol" not in here.text and "dave" not in here.text
        everywhere = await execute(m, ALICE, server_a, "leaderboard pathagon all", lambda n: ALICE)
        names = [line.split()[1] for line in everywhere.text.splitlines()[1:5]]
        assert sorted(names) == ["alice", "bob", "carol", "dave"]  # each player once
        assert everywhere.text.splitlines()[1] == f"1. alice {twice[1].after} (2 games)"
        empty = await m.players.leaderboard(ALICE, ROOM, "pathagon")
        assert empty.ok and empty.text == "No rated Pathagon games here yet."
        assert not (await m.players.leaderboard(ALICE, server_a, "chess")).ok

        # Challenge cards and boards show the ratings of the community the game counts in.
        card = await m.challenges.challenge(ALICE, server_b, "pathagon", BOB)
        assert f"Rated (Pathagon): alice {twice[1].after}, bob {twice[0].after}." in card.text
        card = await m.challenges.challenge(ALICE, server_a2, "pathagon", BOB)
        assert f"Rated (Pathagon): alice {first[0].after}, bob {first[1].after}." in card.text
        assert card.challenge_id is not None
        accepted = await m.challenges.accept(BOB, server_a2, card.challenge_id)
        assert accepted.game_id is not None
        board = await m.games.board(BOB, server_a2, accepted.game_id)
        assert f"Rated (Pathagon): alice {first[0].after}, bob {first[1].after}." in board.text

        # stats: the ratings of the community it is asked in, saying so.
        in_a_stats = await m.players.stats(ALICE, server_a)
        assert f"Pathagon: {first[0].after}, " in in_a_stats.text
        assert "these are this one's (also rated in 1 other community)" in in_a_stats.text
        in_b_stats = await m.players.stats(ALICE, server_b)
        assert f"Pathagon: {twice[1].after}, " in in_b_stats.text
        alone = await m.players.stats(CAROL, server_b)
        assert "other communit" not in alone.text  # rated in this community only
        alice = await m.store.find_player(ALICE.platform, ALICE.user_id)
        assert alice is not None
        a_history = await m.store.rating_history(
            alice.id, Pool("pathagon"), Community("test", "server-a")
        )
        b_history = await m.store.rating_history(
            alice.id, Pool("pathagon"), Community("test", "server-b")
        )
        assert [p.rating for p in a_history] == [first[0].after]
        assert [p.rating for p in b_history] == [once[1].after, twice[1].after]
        assert await m.store.rated_communities(alice.id) == 2


async def test_provisional_mark_goes_after_enough_games(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        for number in range(PROVISIONAL_GAMES):
            await played(m, *((ALICE, BOB) if number % 2 else (BOB, ALICE)))
            clock.advance(minutes=1)
            if number == PROVISIONAL_GAMES - 2:
                assert "?" in (await rating_of(m, ALICE)).format()
        board = await m.players.leaderboard(ALICE, ROOM, "pathagon")
        assert "?" not in board.text and "(10 games)" in board.text
        alice = await rating_of(m, ALICE)
        card = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB)
        assert f"Rated (Pathagon): alice {alice.value}, bob " in card.text


async def test_ratings_on_the_card_and_board(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        await played(m, ALICE, BOB)
        card = await m.challenges.challenge(BOB, ROOM, "pathagon", ALICE)
        bob, alice = await rating_of(m, BOB), await rating_of(m, ALICE)
        assert f"Rated (Pathagon): bob {bob}, alice {alice}." in card.text
        assert card.challenge_id is not None
        accepted = await m.challenges.accept(ALICE, ROOM, card.challenge_id)
        assert accepted.game_id is not None
        board = await m.games.board(ALICE, ROOM, accepted.game_id)
        assert f"Rated (Pathagon): bob {bob}, alice {alice}." in board.text
        open_card = await m.challenges.challenge(CAROL, ROOM, "maphex", None, {"size": "16"})
        assert "Rated (Maphex 16×16): carol 1500?." in open_card.text


async def test_stats_with_record_streak_head_to_head_and_chart(tmp_path: Path) -> None:
    clock = FakeClock()
    store = await SqliteStore.open(tmp_path / "h.db")
    try:
        m = SessionManager(store, clock, pictures=True, rng=random.Random(1))
        await played(m, ALICE, BOB)
        clock.advance(hours=1)
        await played(m, CAROL, BOB)
        clock.advance(hours=1)
        await played(m, BOB, ALICE, rated=False)  # casual: in the record, not the rating
        asked = await execute(m, ALICE, ROOM, "stats bob", lambda name: BOB)
        assert asked.ok, asked.text
        bob = await rating_of(m, BOB)
        assert asked.text.splitlines() == [
            "Stats of bob",
            f"Pathagon: {bob}, 2 wins, 1 loss, 0 draws",
            "Current streak: 1 loss",
            "Against alice: 1 win, 1 loss, 0 draws",
        ]
        assert asked.image is not None and asked.alt is not None
        with Image.open(io.BytesIO(asked.image)) as chart:
            assert chart.format == "PNG" and chart.size == (800, 400)
        assert "over 2 rated games" in asked.alt
        mine = await m.players.stats(DAVE, ROOM)
        assert mine.ok and "No finished games yet" in mine.text and mine.image is None
        nobody = await m.players.stats(ALICE, ROOM, User("test", "99", "zed"))
        assert not nobody.ok and "zed has not played" in nobody.text
    finally:
        await store.close()


# -- rebuild -----------------------------------------------------------------------------------


RATING_TABLES = (
    "SELECT * FROM ratings ORDER BY player, platform, community, pool",
    "SELECT * FROM rating_changes ORDER BY game_id, seat",
)


async def test_rebuild_gives_the_same_rows(store_url: str) -> None:
    """(On SQLite and on PostgreSQL.)"""
    clock = FakeClock()
    elsewhere = Chat("test", "elsewhere")
    async with session(store_url, clock) as m:
        gid, _ = await start_game(m, "pathagon")
        for move in finishing_moves("pathagon"):
            assert (await m.games.move(await mover(m, gid), ROOM, move, confirm=True)).ok
        pairs = [(ALICE, BOB), (BOB, CAROL), (CAROL, ALICE), (DAVE, ALICE), (BOB, DAVE)]
        for number, (loser, winner) in enumerate(pairs * 2):
            clock.advance(minutes=7)
            await played(m, loser, winner, elsewhere if number % 3 else ROOM)
        clock.advance(minutes=7)
        drawn, _ = await start_game(m, "maphex", size="16")
        await m.games.draw(ALICE, ROOM, drawn)
        assert (await m.games.draw(BOB, ROOM, drawn, "accept")).ok
        clock.advance(minutes=7)
        await played(m, ALICE, BOB, rated=False)
        before = [await raw(m.store, sql) for sql in RATING_TABLES]
        assert len(before[1]) == 2 * 12  # every rated game, both seats
        summary = await m.players.rebuild_ratings()
        # Ratings per community: four players in Pathagon here and four elsewhere, and two
        # in Maphex 16×16 here.
        assert (summary.rated, summary.ratings) == (12, 10)
        after = [await raw(m.store, sql) for sql in RATING_TABLES]
    assert after == before


# -- at scale: the leaderboard is an index lookup ------------------------------------------


@pytest.mark.parametrize("community", [True, False])
async def test_leaderboard_query_plan_uses_its_index(tmp_path: Path, community: bool) -> None:
    store = await SqliteStore.open(tmp_path / "h.db")
    await store.close()
    sql, args = leaderboard_query(
        Pool("maphex9"), "test" if community else None, "room" if community else None, 10
    )
    conn = sqlite3.connect(tmp_path / "h.db")
    try:
        plan = " | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", args))
    finally:
        conn.close()
    index = "ratings_board" if community else "ratings_pool"
    assert f"USING INDEX {index}" in plan or f"USING COVERING INDEX {index}" in plan, plan
    assert "TEMP B-TREE" not in plan and "games" not in plan, plan


async def test_a_damaged_rating_in_one_community_leaves_the_others(store_url: str) -> None:
    """Alice's rating row in server A is damaged: her game there cannot end rated (its players
    are told), while her game with the same opponent in server B ends and is rated from B's
    ratings, and B's leaderboard shows her.  (On SQLite and on PostgreSQL.)"""
    server_a = Chat("test", "a-general", community="server-a")
    server_b = Chat("test", "b-general", community="server-b")
    async with session(store_url) as m:
        await played(m, ALICE, BOB, server_a)
        await played(m, ALICE, BOB, server_b)
        damaged = await m.challenges.challenge(
            ALICE, server_a, "pathagon", BOB, None, "me", 3, True
        )
        spared = await m.challenges.challenge(ALICE, server_b, "pathagon", BOB, None, "me", 3, True)
        assert damaged.challenge_id is not None and spared.challenge_id is not None
        in_a = await m.challenges.accept(BOB, server_a, damaged.challenge_id)
        in_b = await m.challenges.accept(BOB, server_b, spared.challenge_id)
        assert in_a.game_id is not None and in_b.game_id is not None
        bad = "'NaN'" if store_url.startswith("postgres") else "'high'"
        await raw(
            m.store,
            f"UPDATE ratings SET mu = {bad} WHERE community = 'server-a' AND player = "
            "(SELECT id FROM players WHERE user_id = ?)",
            ALICE.user_id,
        )
        refused = await m.games.resign(ALICE, server_a, in_a.game_id)
        assert not refused.ok and "rating" in refused.text, refused.text
        assert await status_of(m, in_a.game_id) is GameStatus.ACTIVE
        before = (
            await rating_of(m, ALICE, chat=server_b),
            await rating_of(m, BOB, chat=server_b),
        )
        resigned = await m.games.resign(ALICE, server_b, in_b.game_id)
        assert resigned.ok, resigned.text
        assert await m.store.rating_changes(in_b.game_id) == rate(*before, Result.B_WINS)
        board = await m.players.leaderboard(BOB, server_b, "pathagon")
        assert "alice" in board.text and "bob" in board.text
