"""Copying a database between the stores (issue 19, ``hexhall copy-db``): an SQLite database
made by real play — games of all five kinds in every state, challenges in every state,
settings, a vacation, sent and pending notifications, ratings, posts — goes to PostgreSQL and
from there to a second SQLite file, and every table of all three is the same row for row; the
bot then plays on in the copy with new ids above the copied ones.  A target that already
holds rows is refused and left as it was."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import engines
from bot.core.notification import Notification
from bot.delivery.outbox import Outbox
from bot.messages import Chat, User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import PostKind, StoreError, open_store
from bot.storage.copy import TABLES, Table, copy_database
from bot.storage.dbapi import Conn
from bot.storage.sql import SqlStore
from tests.bot.session_kit import ALICE, BOB, CAROL, ROOM, finishing_moves, session

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)
DAVE = User("test", "4", "dave")
EVE = User("test", "5", "eve")
PEOPLE = {user.user_id: user for user in (ALICE, BOB, CAROL, DAVE, EVE)}
KINDS = tuple(engines.GAMES)
#: How games end other than by the rules of the game.
OTHER_ENDS = {"resignation", "agreement", "timeout", "no first move"}

Rows = dict[str, list[dict[str, Any]]]


class _Keep:
    """A sender that keeps what it is given (the outbox marks it sent)."""

    def __init__(self) -> None:
        self.sent: list[Notification] = []

    async def send(self, notification: Notification) -> None:
        self.sent.append(notification)


@dataclass(frozen=True)
class Source:
    """The SQLite database the tests copy, and what goes on in it."""

    path: Path
    end: datetime
    #: an active game (between Alice and Bob) per kind, with the next move of its line
    active: dict[str, tuple[int, str]]


async def _to_move(m: SessionManager, game_id: int) -> User:
    row = await m.store.get_game(game_id)
    assert row is not None and row.to_move is not None, row
    player = await m.store.get_player(row.seats[row.to_move])
    assert player is not None
    return PEOPLE[player.user_id]


async def _play(m: SessionManager, game_id: int, moves: tuple[str, ...]) -> None:
    for move in moves:
        user = await _to_move(m, game_id)
        # A random line may hold a move that loses for its player: confirmed, as they would.
        reply = await m.games.move(user, ROOM, move, game_id, confirm=True)
        assert reply.ok, reply.text


async def _game(m: SessionManager, kind: str, time_per_move: float | None) -> int:
    made = await m.challenges.challenge(ALICE, ROOM, kind, BOB, {}, "me", time_per_move)
    assert made.ok and made.challenge_id is not None, made.text
    accepted = await m.challenges.accept(BOB, ROOM, made.challenge_id)
    assert accepted.ok and accepted.game_id is not None, accepted.text
    return accepted.game_id


async def _build(path: Path) -> Source:
    clock = FakeClock(T0)
    active: dict[str, tuple[int, str]] = {}
    async with session(path, clock) as m:
        # A challenge nobody answers: expired a day later.
        assert (await m.challenges.challenge(CAROL, ROOM, "maphex", ALICE)).ok
        finished: dict[str, int] = {}
        for kind in KINDS:
            line = finishing_moves(kind)
            gid = await _game(m, kind, 14)
            await _play(m, gid, line[:2])
            active[kind] = (gid, line[2])
            finished[kind] = await _game(m, kind, None)
            await _play(m, finished[kind], line)
            resigned = await _game(m, kind, 3)
            await _play(m, resigned, line[:1])
            assert (await m.games.resign(await _to_move(m, resigned), ROOM, resigned)).ok
            drawn = await _game(m, kind, 7)
            await _play(m, drawn, line[:1])
            assert (await m.games.draw(ALICE, ROOM, drawn)).ok
            assert (await m.games.draw(BOB, ROOM, drawn, "accept")).ok
            timed_out = await _game(m, kind, 1)
            await _play(m, timed_out, line[:1])
            await _game(m, kind, 1)  # never a first move: aborted
        # An offer left open, a rematch accepted, a game against the bot.
        assert (await m.games.draw(ALICE, ROOM, active["maphex"][0])).ok
        rematch = await m.games.rematch(ALICE, ROOM, finished["pathagon"])
        assert rematch.ok and rematch.challenge_id is not None, rematch.text
        assert (await m.challenges.accept(BOB, ROOM, rematch.challenge_id)).ok
        against_bot = await m.challenges.challenge_bot(
            DAVE, ROOM, "fixation", "easy", {}, "me", None
        )
        assert against_bot.ok, against_bot.text

        # The same two players rated in another server too (ratings are per community).
        server = Chat("test", "server-chan", community="server-x")
        elsewhere = await m.challenges.challenge(ALICE, server, "pathagon", BOB, {}, "me", None)
        assert elsewhere.challenge_id is not None, elsewhere.text
        there = await m.challenges.accept(BOB, server, elsewhere.challenge_id)
        assert there.game_id is not None, there.text
        assert (await m.games.resign(BOB, server, there.game_id)).ok

        # A tournament of three (issue 29): its players and its games.
        opened = await m.tournaments.tournament_new(ALICE, ROOM, "pathagon", {}, 3.0)
        assert opened.ok, opened.text
        for user in (BOB, CAROL):
            assert (await m.tournaments.tournament_join(user, ROOM)).ok
        assert (await m.tournaments.tournament_start(ALICE, ROOM)).ok

        clock.advance(hours=25)
        assert await m.sweep() >= 2 * len(KINDS)  # the timeouts and the aborts
        assert len(await m.challenges.expire_challenges()) == 1
        delivered = _Keep()
        assert await Outbox(m.store, m.clock).deliver_due("test", delivered) > 0

        # After the delivery round: challenges declined, cancelled and pending, settings, a
        # vacation, an imported game, the bot's posts, and notifications still to send.
        declined = await m.challenges.challenge(CAROL, ROOM, "isopath", BOB)
        assert declined.ok and (await m.challenges.decline(BOB, ROOM, declined.challenge_id)).ok
        cancelled = await m.challenges.challenge(ALICE, ROOM, "inphexion", CAROL, rated=False)
        assert cancelled.ok and (await m.challenges.cancel(ALICE, ROOM, cancelled.challenge_id)).ok
        assert (await m.challenges.challenge(DAVE, ROOM, "pathagon", BOB, {}, "them", 7)).ok
        open_one = await m.challenges.challenge(CAROL, Chat("test", "hall", "guild"), "maphex")
        assert open_one.ok and open_one.challenge_id is not None
        assert (await m.players.settings(BOB, "quiet", "22:00-07:00 +01:00")).ok
        assert (await m.players.settings(CAROL, "dm", "off")).ok
        assert (await m.players.settings(DAVE, "reminders", "off")).ok
        # A language chosen (issue 43, migration 15): a row of its own.
        assert (await m.players.settings(DAVE, "language", "ja")).ok
        assert (await m.players.away(CAROL, 3)).ok
        record = (await m.games.export(ALICE, ROOM, finished["maphex"])).text
        imported = await m.games.import_record(CAROL, Chat("test", "other"), record, DAVE)
        assert imported.ok, imported.text
        board = active["isopath"][0]
        await m.posts.remember_post("test", ROOM.chat_id, "501", PostKind.BOARD, game_id=board)
        await m.posts.remember_post("test", ROOM.chat_id, "502", PostKind.BOARD, game_id=board)
        await m.posts.remember_post(
            "test", "hall", "503", PostKind.CARD, challenge_id=open_one.challenge_id
        )
        # A tournament's standings message (migration 13): copied after its tournament.
        tid = next(a.subject for a in opened.actions if a.label == "Join")
        await m.posts.remember_post(
            "test", ROOM.chat_id, "504", PostKind.STANDINGS, tournament_id=tid
        )
        # A game with a web page (its slug), watched from one process.
        await m.store.web_slug(board, clock.now())
        await m.store.watch_count(board, "w1", 2, clock.now() + timedelta(hours=1), clock.now())
        gid, move = active["fixation"]
        await _play(m, gid, (move,))
        active["fixation"] = (gid, finishing_moves("fixation")[3])
        # A prepared line and a daily digest (issue 46).
        gid, move = active["pathagon"]
        waiting = BOB if await _to_move(m, gid) == ALICE else ALICE
        line = f"{move} => {finishing_moves('pathagon')[3]}"
        assert (await m.games.premove(waiting, ROOM, gid, line)).ok
        assert (await m.players.settings(DAVE, "digest", "08:00 +02:00")).ok
        await m.close()
    return Source(path, clock.now(), active)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Source:
    """The SQLite database made by play (made once: the tests only read it)."""
    return asyncio.run(_build(tmp_path_factory.mktemp("source") / "source.db"))


async def _dump(store: SqlStore) -> Rows:
    """Every row of every copied table, by column name, in primary-key order."""

    def rows_of(table: Table) -> Any:
        async def read(conn: Conn) -> list[dict[str, Any]]:
            rows = await conn.fetch(f"SELECT * FROM {table.name}")
            return [dict(zip(row.keys(), tuple(row), strict=True)) for row in rows]

        return read

    dump: Rows = {}
    for table in TABLES:
        rows = await store._read(rows_of(table))
        # Sorted here: PostgreSQL orders text by its collation, SQLite by bytes.
        dump[table.name] = sorted(rows, key=lambda row: tuple(row[k] for k in table.key))
    return dump


def _check_source(rows: Rows) -> None:
    """The source holds what the tests claim it does (else a pass would prove little)."""
    assert all(rows[table.name] for table in TABLES), [t.name for t in TABLES if not rows[t.name]]
    games = rows["games"]
    for kind in KINDS:
        ends = {(g["status"], g["reason"]) for g in games if g["game"] == kind}
        assert ("active", None) in ends, kind
        assert ("aborted", "no first move") in ends, kind
        for reason in ("resignation", "agreement", "timeout"):
            assert ("finished", reason) in ends, (kind, reason)
        assert any(s == "finished" and r not in OTHER_ENDS for s, r in ends), (kind, ends)
    assert {g["origin"] for g in games} >= {"challenge", "imported", "bot"}
    assert any(g["bot_seat"] is not None for g in games)
    assert any(g["rematch_of"] is not None for g in games)
    assert any(g["draw_offer_by"] is not None and g["status"] == "active" for g in games)
    places = {(r["player"], r["pool"], r["community"]) for r in rows["ratings"]}
    assert len({(p, pool) for p, pool, _ in places}) < len(places)  # two communities
    assert {r["community"] for r in rows["rating_changes"]} >= {"server-x", ROOM.chat_id}
    statuses = {c["status"] for c in rows["challenges"]}
    assert statuses == {"pending", "accepted", "declined", "cancelled", "expired"}
    assert any(c["target"] is None for c in rows["challenges"])
    players = rows["players"]
    assert any(p["quiet_start"] is not None for p in players)
    assert any(p["dm_enabled"] == 0 for p in players)
    assert any(p["reminders_enabled"] == 0 for p in players)
    assert any(p["away_until"] is not None for p in players)
    outcomes = {n["outcome"] for n in rows["notifications"]}
    assert "sent" in outcomes and None in outcomes
    assert any(isinstance(c["time_per_move"], float) for c in rows["challenges"])


async def test_copy_to_postgresql_and_back_keeps_every_row_and_play_goes_on(
    source: Source, postgres_url: str, tmp_path: Path
) -> None:
    back_path = tmp_path / "back.db"
    sqlite = await open_store(source.path)
    postgres = await open_store(postgres_url)
    back = await open_store(back_path)
    try:
        original = await _dump(sqlite)
        _check_source(original)
        counts = await copy_database(sqlite, postgres, batch=7)
        assert counts == {name: len(rows) for name, rows in original.items()}
        assert list(counts) == [t.name for t in TABLES]
        assert await copy_database(postgres, back) == counts
        in_postgres, in_back = await _dump(postgres), await _dump(back)
        for table in TABLES:
            assert in_postgres[table.name] == original[table.name], table.name
            assert in_back[table.name] == original[table.name], table.name
    finally:
        for store in (sqlite, postgres, back):
            await store.close()

    # The bot goes on in the PostgreSQL copy (and in the SQLite one made from it): a move in a
    # copied game, then new rows of every kind with ids past the copied ones.
    top = {
        table.name: max(row["id"] for row in original[table.name])
        for table in TABLES
        if table.identity
    }
    for url in (postgres_url, str(back_path)):
        store = await open_store(url)
        m = SessionManager(store, FakeClock(source.end), pictures=False, rng=random.Random(1))
        try:
            gid, move = source.active["fixation"]
            played = [mv for mv in original["moves"] if mv["game_id"] == gid]
            reply = await m.games.move(await _to_move(m, gid), ROOM, move, gid, confirm=True)
            assert reply.ok, reply.text
            assert [mv.ply for mv in await store.moves(gid)] == list(range(len(played) + 1))
            made = await m.challenges.challenge(EVE, ROOM, "maphex", CAROL)
            assert made.ok and made.challenge_id is not None, made.text
            accepted = await m.challenges.accept(CAROL, ROOM, made.challenge_id)
            assert accepted.ok and accepted.game_id is not None, accepted.text
            assert (await m.players.away(DAVE, 2)).ok
            assert (await m.players.player(EVE)).id == top["players"] + 1
            assert made.challenge_id == top["challenges"] + 1
            assert accepted.game_id == top["games"] + 1
            after = await _dump(store)
            for name in ("away_spans", "notifications"):
                assert [row["id"] for row in after[name] if row["id"] > top[name]], name
            assert len(after["moves"]) == len(original["moves"]) + 1
        finally:
            await m.close()
            await store.close()


async def test_copy_into_a_database_that_holds_rows_is_refused_and_changes_nothing(
    source: Source, postgres_url: str, tmp_path: Path
) -> None:
    sqlite = await open_store(source.path)
    postgres = await open_store(postgres_url)
    small = await open_store(tmp_path / "small.db")
    try:
        # One player is enough to refuse: a copy never merges two databases.
        for target in (postgres, small):
            await target.player("test", "9", "zoe", T0)
            before = await _dump(target)
            with pytest.raises(StoreError, match="already holds players") as refused:
                await copy_database(sqlite, target)
            assert "copy only into a new, empty database" in str(refused.value)
            assert await _dump(target) == before
        with pytest.raises(StoreError, match="onto itself"):
            await copy_database(sqlite, sqlite)
    finally:
        for store in (sqlite, postgres, small):
            await store.close()


async def test_a_copy_that_fails_half_way_leaves_the_target_empty(
    source: Source, postgres_url: str, tmp_path: Path
) -> None:
    sqlite = await open_store(source.path)
    postgres = await open_store(postgres_url)
    odd = await open_store(tmp_path / "odd.db")
    try:
        # Posts, the last table copied, cannot take two boards of one game there: the copy
        # fails after every other table went across, and all of it is rolled back.
        for target in (postgres, odd):
            await target._write(
                lambda c: c.execute("CREATE UNIQUE INDEX one_board ON posts (game_id)")
            )
            with pytest.raises(StoreError, match="cannot copy table posts: the target refused"):
                await copy_database(sqlite, target, batch=50)
            assert all(not rows for rows in (await _dump(target)).values())
        # A table whose columns differ is refused before anything is written.
        await odd._write(lambda c: c.execute("ALTER TABLE posts ADD COLUMN pinned INTEGER"))
        with pytest.raises(StoreError, match=r"table posts: its columns differ") as refused:
            await copy_database(sqlite, odd)
        assert f"only in {tmp_path / 'odd.db'}: pinned" in str(refused.value)
        assert all(not rows for rows in (await _dump(odd)).values())
    finally:
        for store in (sqlite, postgres, odd):
            await store.close()


async def test_a_damaged_row_is_named_and_nothing_is_copied(
    postgres_url: str, tmp_path: Path
) -> None:
    # SQLite keeps whatever it is given: text where PostgreSQL wants a number.  The bot reads
    # such a setting as unset; PostgreSQL cannot store it, so the copy names the row's batch.
    sqlite = await open_store(tmp_path / "damaged.db")
    postgres = await open_store(postgres_url)
    back = await open_store(tmp_path / "back.db")
    try:
        for user in (ALICE, BOB, CAROL):
            await sqlite.player(user.platform, user.user_id, user.name, T0)
        await sqlite._write(
            lambda c: c.execute("UPDATE players SET quiet_start = 'late' WHERE id = 3")
        )
        with pytest.raises(StoreError) as refused:
            await copy_database(sqlite, postgres, batch=2)
        assert str(refused.value).startswith(
            "cannot copy table players: the target refused a row of the batch from id 3 on ("
        )
        assert str(refused.value).endswith("); nothing was copied")
        assert all(not rows for rows in (await _dump(postgres)).values())
        # Another SQLite file takes it as it is.
        assert (await copy_database(sqlite, back))["players"] == 3
        assert await _dump(back) == await _dump(sqlite)
    finally:
        for store in (sqlite, postgres, back):
            await store.close()
