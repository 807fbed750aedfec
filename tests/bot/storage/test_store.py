"""The store of issues 12 and 19, on SQLite and on PostgreSQL (the ``store`` fixture runs each
test once per backend): one explicit transaction per move, typed rows, bad rows, obsolete
notifications, paging and pruning; SQLite's own parts (migrations in place, the busy lock)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import pytest

from bot.core.notification import Kind, Notification, Recipient
from bot.core.settings import QuietHours, Settings
from bot.core.status import ChallengeStatus, GameResult, GameStatus
from bot.messages import Chat, Text
from bot.storage import (
    BadRow,
    First,
    GameRow,
    NewGame,
    PlayerRow,
    SqliteStore,
    StoreBusy,
    StoreError,
    open_store,
)
from bot.storage.schema import MIGRATIONS, SCHEMA_VERSION
from bot.storage.sql import SqlStore
from tests.bot.storage.raw import raw

NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
ROOM = Chat("test", "room")


def note(
    player: PlayerRow, kind: Kind, game: GameRow | None, ply: int | None = None, **kw: Any
) -> Notification:
    who = Recipient(player.platform, player.user_id, player.name, player.id)
    return Notification(
        kind=kind,
        recipient=who,
        text=Text.of(who.mention(), f", {kind} in #", str(game.id if game else "?"), "."),
        deliver_after=kw.pop("deliver_after", NOW),
        chat=ROOM,
        game_id=None if game is None else game.id,
        ply=ply,
        **kw,
    )


async def two_players(store: SqlStore) -> tuple[PlayerRow, PlayerRow]:
    return (
        await store.player("test", "1", "alice", NOW),
        await store.player("test", "2", "bob", NOW),
    )


async def new_game(store: SqlStore, a: PlayerRow, b: PlayerRow, **kw: Any) -> GameRow:
    return await store.create_game(
        NewGame("maphex", {"size": 5}, a.id, b.id, "test", "room", 0, {"ply": 0}, **kw), NOW
    )


async def test_schema_is_created_versioned_and_has_no_triggers(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    for _ in range(2):  # the second start-up migrates nothing
        store = await SqliteStore.open(path)
        assert await store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
        await store.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        kinds = {(r[0], r[1]) for r in raw.execute("SELECT type, name FROM sqlite_master")}
        game_columns = {r[1] for r in raw.execute("PRAGMA table_info(games)")}
    assert not [name for kind, name in kinds if kind == "trigger"]
    assert ("index", "challenges_rematch") in kinds and ("index", "games_deadline") in kinds
    assert not {"pending_notes", "last_move", "last_seat", "turn_started_at"} & game_columns


@pytest.mark.parametrize("kind", ["missing folder", "folder", "not a database", "newer schema"])
async def test_bad_database_path_is_a_clear_store_error(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "h.db"
    if kind == "missing folder":
        path = tmp_path / "nope" / "h.db"
    elif kind == "folder":
        path = tmp_path
    elif kind == "not a database":
        path.write_bytes(b"this is not sqlite" * 100)
    else:
        with sqlite3.connect(path) as raw:
            raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError) as caught:
        await SqliteStore.open(path)
    assert "database" in str(caught.value) and "\n" not in str(caught.value)


async def test_a_database_of_the_first_schema_upgrades_in_place(tmp_path: Path) -> None:
    """A database written by the issue-8 store (triggers and all) keeps its games, moves and
    notifications: old text becomes a one-segment Text, a challenge gets its buttons, a "your
    turn" its ply, and a notification already delivered stays delivered."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path, isolation_level=None) as raw:
        raw.executescript(MIGRATIONS[0].sqlite + "\nPRAGMA user_version = 1;")
        t = "2026-01-05T12:00:00.000000Z"
        raw.execute(
            "INSERT INTO players (platform, user_id, name, created_at, dm_enabled, quiet_start, "
            "quiet_end, utc_offset_min) VALUES ('test', '1', 'alice', ?, 0, 1320, 420, 60), "
            "('test', '2', 'bob', ?, 1, NULL, NULL, 0)",
            (t, t),
        )
        raw.execute(
            "INSERT INTO games (game, options, seat0, seat1, platform, chat_id, status, to_move, "
            "snapshot, created_at, updated_at, deadline_at) VALUES ('maphex', '{\"size\":5}', "
            "1, 2, 'test', 'room', 'active', 0, '{}', ?, ?, ?)",
            (t, t, "2026-01-08T12:00:00.000000Z"),
        )
        # A move the old way: one UPDATE, the triggers append the move and the notification.
        notes = json.dumps(
            [
                {
                    "platform": "test",
                    "user_id": "2",
                    "player_id": 2,
                    "kind": "your_turn",
                    "game_id": 1,
                    "challenge_id": None,
                    "chat_id": "room",
                    "text": "Your turn in #1 Maphex: alice played e5 — ça va?",
                    "created_at": t,
                    "deliver_after": t,
                    "dedupe": "your_turn:1:1",
                }
            ]
        )
        raw.execute(
            "UPDATE games SET ply = 1, version = 1, to_move = 1, last_move = 'e5', "
            "last_seat = 0, updated_at = ?, pending_notes = ? WHERE id = 1",
            (t, notes),
        )
        raw.execute(
            "INSERT INTO challenges (challenger, target, platform, chat_id, game, options, "
            "first, status, created_at, expires_at) VALUES (2, 1, 'test', 'room', 'maphex', "
            "'{}', 'them', 'pending', ?, '2026-01-06T12:00:00.000000Z')",
            (t,),
        )
        raw.execute(
            "INSERT INTO notifications (platform, user_id, player_id, kind, challenge_id, "
            "chat_id, text, created_at, deliver_after, sent_at) VALUES ('test', '1', 1, "
            "'challenge', 1, 'room', 'bob challenges you', ?, ?, ?)",
            (t, t, t),
        )
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        game = await store.get_game(1)
        assert game is not None and game.status is GameStatus.ACTIVE
        assert (game.ply, game.options, game.deadline_at) == (1, {"size": 5}, NOW + timedelta(3))
        assert [(m.move, m.seat, m.played_at) for m in await store.moves(1)] == [("e5", 0, NOW)]
        alice = await store.get_player(1)
        assert alice is not None and alice.settings.direct is False
        assert alice.settings.quiet == QuietHours(
            datetime(1, 1, 1, 22).time(), datetime(1, 1, 1, 7).time(), timedelta(hours=1)
        )
        (turn,) = await store.notifications_for(2)
        assert turn.kind is Kind.YOUR_TURN and turn.ply == 1 and turn.chat == ROOM
        assert turn.text == Text(("Your turn in #1 Maphex: alice played e5 — ça va?",))
        assert turn.recipient == Recipient("test", "2", "bob", 2) and turn.direct
        (challenge,) = await store.notifications_for(1)
        assert [a.id for a in challenge.actions] == ["acc:1", "dec:1"]
        assert not challenge.direct  # alice has direct messages off
        assert [n.id for n in await store.due_notifications("test", NOW)] == [turn.id]
        challenge_row = await store.get_challenge(1)
        assert challenge_row is not None and challenge_row.first is First.THEM
        # The upgraded database plays on: the next move is one transaction without triggers.
        bob = await store.get_player(2)
        assert bob is not None
        moved = await store.apply_move(game, "d4", 1, {"ply": 2}, 0, NOW)
        assert moved is not None and [m.move for m in await store.moves(1)] == ["e5", "d4"]
    finally:
        await store.close()


async def test_move_and_its_notification_commit_together_and_race_safely(
    store: SqlStore,
) -> None:
    alice, bob = await two_players(store)
    game = await new_game(store, alice, bob)
    turn = note(bob, Kind.YOUR_TURN, game, 1, dedupe=f"your_turn:{game.id}:1")
    moved = await store.apply_move(game, "5", 0, {"ply": 1}, 1, NOW, [turn])
    assert moved is not None and (moved.ply, moved.version, moved.snapshot) == (1, 1, {"ply": 1})
    # The same stale row again (a second process, a double click): refused, nothing added.
    assert await store.apply_move(game, "7", 0, {"ply": 1}, 1, NOW, [turn]) is None
    assert [m.move for m in await store.moves(game.id)] == ["5"]
    (stored,) = await store.notifications_for(bob.id)
    assert stored.text == turn.text and stored.id is not None
    # A second notification with the same dedupe key is not added; the move still commits.
    again = await store.apply_move(moved, "e5", 1, {"ply": 2}, 0, NOW, [turn])
    assert again is not None and len(await store.notifications_for(bob.id)) == 1


async def test_a_malformed_notification_fails_the_whole_move(store: SqlStore) -> None:
    """ON CONFLICT (dedupe) DO NOTHING is not INSERT OR IGNORE: a notification breaking NOT
    NULL makes the move fail, instead of the move committing without it."""
    alice, bob = await two_players(store)
    game = await new_game(store, alice, bob)
    good = note(bob, Kind.YOUR_TURN, game, 1, dedupe=f"your_turn:{game.id}:1")
    bad = Notification(
        kind=cast(Kind, None), recipient=good.recipient, text=good.text, deliver_after=NOW
    )
    with pytest.raises(StoreError, match=r"(?i)not.null"):
        await store.apply_move(game, "5", 0, {"ply": 1}, 1, NOW, [good, bad])
    stored = await store.get_game(game.id)
    assert stored is not None and (stored.ply, stored.version) == (0, 0)
    assert await store.moves(game.id) == [] and await store.notifications_for(bob.id) == []
    # And the connection is usable afterwards.
    assert await store.apply_move(game, "5", 0, {"ply": 1}, 1, NOW, [good]) is not None


async def test_a_held_write_lock_is_store_busy_and_nothing_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    store = await SqliteStore.open(path, busy_timeout=0.05)
    try:
        alice, bob = await two_players(store)
        game = await new_game(store, alice, bob)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # a backup or a stuck second process
        try:
            with pytest.raises(StoreBusy, match=r"^the database is busy, try again$"):
                await store.apply_move(game, "5", 0, {"ply": 1}, 1, NOW)
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert isinstance(StoreBusy(), StoreError)
        stored = await store.get_game(game.id)
        assert stored == game  # nothing half-done
        assert await store.apply_move(game, "5", 0, {"ply": 1}, 1, NOW) is not None
    finally:
        await store.close()


async def test_the_clock_query_sets_a_bad_row_aside_and_returns_the_others(
    store: SqlStore, caplog: pytest.LogCaptureFixture
) -> None:
    alice, bob = await two_players(store)
    good = await new_game(store, alice, bob, deadline_at=NOW + timedelta(hours=1))
    broken = await new_game(store, alice, bob, deadline_at=NOW + timedelta(minutes=1))
    await raw(store, "UPDATE games SET deadline_at = '2026-01-05 soon' WHERE id = ?", broken.id)
    due = await store.clock_games(NOW + timedelta(days=1))
    assert [g.id for g in due] == [good.id]
    assert f"games #{broken.id}: column deadline_at cannot be read" in caplog.text
    aside = await store.get_game(broken.id)  # what can be read of it, marked damaged
    assert aside is not None and aside.status is GameStatus.CORRUPT and aside.deadline_at is None
    error = BadRow("games", broken.id, "deadline_at", "x")
    assert aside.corrupt_reason is not None and str(error)[:30] in aside.corrupt_reason
    ((status, reason),) = await raw(
        store, "SELECT status, corrupt_reason FROM games WHERE id = ?", broken.id
    )
    assert status == "corrupt" and "deadline_at" in reason
    assert await store.clock_games(NOW + timedelta(days=1)) == due
    assert await store.next_deadline() == NOW + timedelta(hours=1)


async def test_the_sweep_reads_only_the_games_with_clock_work_due(store: SqlStore) -> None:
    """Each active game keeps its next alarm (the reminder's time, then the deadline), so the
    sweep's query is an index range over what is due, not every game with a clock."""
    alice, bob = await two_players(store)
    day = timedelta(days=1)

    async def timed(due: datetime) -> GameRow:
        return await new_game(store, alice, bob, time_per_move=1.0, deadline_at=due)

    late = await timed(NOW - timedelta(minutes=1))  # past its deadline
    remind = await timed(NOW + timedelta(hours=2))  # reminder 2.4 h before: due
    later = await timed(NOW + timedelta(hours=3))  # reminder not yet
    await new_game(store, alice, bob)  # no clock at all
    due = await store.clock_games(NOW)
    assert [g.id for g in due] == [late.id, remind.id]
    # The reminder sent, that game's next alarm is its deadline.
    reminded = await store.update_game(remind, NOW, reminder_sent_for_ply=remind.ply)
    assert reminded is not None
    assert [g.id for g in await store.clock_games(NOW)] == [late.id]
    assert [g.id for g in await store.clock_games(NOW + timedelta(hours=1))] == [
        late.id,
        later.id,  # its reminder at 0:36 after NOW
    ]
    # A move (or a vacation) moves the alarm with the new deadline; an ended game has none.
    moved = await store.apply_move(reminded, "5", 0, {"ply": 1}, 1, NOW, deadline_at=NOW + day)
    assert moved is not None
    assert remind.id not in [g.id for g in await store.clock_games(NOW + timedelta(hours=20))]
    assert remind.id in [g.id for g in await store.clock_games(NOW + timedelta(hours=22))]
    await store.finish_game(late, GameStatus.FINISHED, 1, GameResult.WIN, "timeout", NOW)
    assert late.id not in [g.id for g in await store.clock_games(NOW + 30 * day)]
    # A game from before alarms (schema 7) is worked out once, when the sweep first meets it.
    await raw(store, "UPDATE games SET alarm_at = '' WHERE id = ?", later.id)
    assert [g.id for g in await store.clock_games(NOW)] == []
    ((alarm,),) = await raw(store, "SELECT alarm_at FROM games WHERE id = ?", later.id)
    assert alarm == "2026-01-05T12:36:00.000000Z"


async def test_a_players_games_page_through_all_of_them(store: SqlStore) -> None:
    alice, bob = await two_players(store)
    carol = await store.player("test", "3", "carol", NOW)
    made = [await new_game(store, alice, bob) for _ in range(4)]
    made += [await new_game(store, carol, alice) for _ in range(3)]
    await new_game(store, bob, carol)  # not alice's
    for game in made[:5]:
        await store.finish_game(game, GameStatus.FINISHED, 0, GameResult.WIN, "resignation", NOW)
    done = (GameStatus.FINISHED, GameStatus.ABORTED)
    assert await store.count_games_of(alice.id, done) == 5
    pages = [await store.games_of(alice.id, done, limit=2, offset=o) for o in (0, 2, 4, 6)]
    assert [len(p) for p in pages] == [2, 2, 1, 0]
    assert sorted(g.id for p in pages for g in p) == sorted(g.id for g in made[:5])
    active = await store.games_of(alice.id, (GameStatus.ACTIVE,))
    assert {g.id for g in active} == {g.id for g in made[5:]}
    here = await store.active_games_in_chat(alice.id, "test", "room")
    assert [g.id for g in here] == sorted(g.id for g in made[5:])
    assert all(g.result is GameResult.WIN for p in pages for g in p)


async def test_the_pending_limit_holds_for_two_processes(store_url: str) -> None:
    first, second = await open_store(store_url), await open_store(store_url)
    try:
        alice, bob = await two_players(first)

        async def challenge(store: SqlStore) -> bool:
            made = await store.create_challenge(
                challenger=alice.id,
                target=bob.id,
                platform="test",
                chat_id="room",
                game="maphex",
                options={},
                first=First.RANDOM,
                time_per_move=None,
                now=NOW,
                expires_at=NOW + timedelta(days=1),
                limit=3,
            )
            return made is not None

        made = await asyncio.gather(*(challenge(s) for s in (first, second) * 4))
        assert sum(made) == 3
        pending = await second.pending_challenges(alice.id, NOW)
        assert len(pending) == 3 and all(c.status is ChallengeStatus.PENDING for c in pending)
    finally:
        await first.close()
        await second.close()


async def test_racing_moves_from_two_processes_let_exactly_one_through(store_url: str) -> None:
    """Two stores on one database (two bot processes) submit the same turn many times at once:
    the version check lets one move per ply through and the others find nothing to change."""
    first, second = await open_store(store_url), await open_store(store_url)
    try:
        alice, bob = await two_players(first)
        game = await new_game(first, alice, bob)
        for ply in range(6):
            current = await first.get_game(game.id)
            assert current is not None and current.ply == ply
            seat = ply % 2
            tries = [
                s.apply_move(current, f"m{ply}{i}", seat, {"ply": ply + 1}, 1 - seat, NOW)
                for i, s in enumerate((first, second) * 4)
            ]
            results = await asyncio.gather(*tries)
            winners = [r for r in results if r is not None]
            assert len(winners) == 1 and winners[0].ply == ply + 1
        moves = await second.moves(game.id)
        assert [m.ply for m in moves] == list(range(6))
        final = await second.get_game(game.id)
        assert final is not None and (final.ply, final.version) == (6, 6)
    finally:
        await first.close()
        await second.close()


async def test_a_lease_is_held_by_one_owner_until_it_ends_or_is_released(store: SqlStore) -> None:
    """Leases are timed by the database's clock: what a claimer says its time is changes
    nothing (one whose clock runs hours ahead still finds the lease held)."""
    hour = timedelta(hours=1)
    assert await store.claim_lease("sweep", "a", NOW, hour)
    assert not await store.claim_lease("sweep", "b", NOW + timedelta(minutes=59), hour)
    assert not await store.claim_lease("sweep", "b", NOW + timedelta(hours=5), hour)
    assert await store.claim_lease("sweep", "a", NOW, hour)  # renewed
    assert await store.claim_lease("sweep", "a", NOW, timedelta(0))  # a's ends now
    assert await store.claim_lease("sweep", "b", NOW, hour)  # ended: b takes it
    await store.release_lease("sweep", "a")  # not a's any more: nothing happens
    assert not await store.claim_lease("sweep", "a", NOW, hour)
    await store.release_lease("sweep", "b")
    assert await store.claim_lease("sweep", "a", NOW, hour)
    assert await store.claim_lease("other", "b", NOW, hour)  # leases are per chore


@pytest.mark.parametrize("until", ["not a time", "2999-01-01T00:00:00.000000Z"])
async def test_a_lease_row_unreadable_or_far_ahead_is_set_aside(
    store: SqlStore, until: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A lease row whose end cannot be read, or ends implausibly far ahead (written by a clock
    far off), would hold its chore for ever: the next claimer takes it, with a log line."""
    hour = timedelta(hours=1)
    assert await store.claim_lease("sweep", "a", NOW, hour)
    await raw(store, "UPDATE leases SET until = ? WHERE name = 'sweep'", until)
    assert await store.claim_lease("sweep", "b", NOW, hour)
    assert await store.lease_holder("sweep") == "b"
    assert "lease 'sweep' held by 'a' set aside" in caplog.text
    assert not await store.claim_lease("sweep", "a", NOW, hour)  # b's now, plausibly


async def test_notifications_with_unreadable_times_are_set_aside_and_old_ones_pruned(
    store: SqlStore, caplog: pytest.LogCaptureFixture
) -> None:
    """A notification whose time cannot be read is given up with a log line (it would never
    be due, or be held for ever); pruning takes the given-up, dropped and never-delivered old
    ones as it takes the sent ones."""
    alice, bob = await two_players(store)
    game = await new_game(store, alice, bob)
    old = NOW - timedelta(days=40)
    notes = [note(bob, Kind.REMINDER, game, 0, deliver_after=old) for _ in range(3)]
    notes = [replace(n, dedupe=f"n{i}", created_at=old) for i, n in enumerate(notes)]
    await store.queue_notes(notes)
    ids = [r[0] for r in await raw(store, "SELECT id FROM notifications ORDER BY id")]
    await raw(store, "UPDATE notifications SET lease_until = 'x' WHERE id = ?", ids[0])
    await raw(store, "UPDATE notifications SET deliver_after = 'y' WHERE id = ?", ids[1])
    assert await store.prune_notifications(NOW - timedelta(days=30)) == 1  # the third
    rows = await raw(store, "SELECT id, outcome FROM notifications ORDER BY id")
    assert rows == [(ids[0], "failed"), (ids[1], "failed")]
    assert f"notification {ids[0]} set aside: its lease_until 'x'" in caplog.text
    assert f"notification {ids[1]} set aside: its deliver_after 'y'" in caplog.text


async def test_the_outbox_backlog_counts_due_notifications_per_platform(store: SqlStore) -> None:
    alice, bob = await two_players(store)
    game = await new_game(store, alice, bob)
    early = note(bob, Kind.YOUR_TURN, game, 0, deliver_after=NOW - timedelta(seconds=90))
    later = note(alice, Kind.REMINDER, game, 0, deliver_after=NOW + timedelta(hours=1))
    await store.queue_notes([early, later])
    (backlog,) = await store.outbox_backlog(NOW)
    assert (backlog.platform, backlog.due, backlog.oldest_wait) == ("test", 1, 90.0)
    (claimed,) = await store.claim_due("test", "w", NOW, timedelta(minutes=1))
    assert claimed.id is not None and await store.mark_sent(claimed.id, "w", NOW)
    assert await store.outbox_backlog(NOW) == []


async def test_a_move_cancels_what_it_makes_obsolete_in_its_transaction(
    store: SqlStore,
) -> None:
    """A quiet-hours "your turn" and reminder for ply 1 are cancelled by the move at ply 1; a
    draw offer lapses with the game; the game-over note stays."""
    alice, bob = await two_players(store)
    game = await new_game(store, alice, bob)
    morning = NOW + timedelta(hours=8)
    turn = note(bob, Kind.YOUR_TURN, game, 1, deliver_after=morning, dedupe="your_turn:1:1")
    moved = await store.apply_move(game, "5", 0, {"ply": 1}, 1, NOW, [turn])
    assert moved is not None
    reminder = note(bob, Kind.REMINDER, game, 1, deliver_after=morning)
    offer = note(alice, Kind.DRAW_OFFERED, game, deliver_after=morning)
    moved = await store.update_game(moved, NOW, [reminder, offer], draw_offer_by=1)
    assert moved is not None and len(await store.due_notifications("test", morning)) == 3
    moved = await store.apply_move(moved, "7", 1, {"ply": 2}, 0, NOW)
    assert moved is not None
    # Bob moved: his "your turn" and reminder are gone; his own draw offer still stands.
    assert [n.kind for n in await store.due_notifications("test", morning)] == [Kind.DRAW_OFFERED]
    over = note(alice, Kind.GAME_OVER, game, deliver_after=morning)
    ended = await store.finish_game(
        moved, GameStatus.FINISHED, 0, GameResult.WIN, "resignation", NOW, [over]
    )
    assert ended is not None
    assert [n.kind for n in await store.due_notifications("test", morning)] == [Kind.GAME_OVER]


async def test_a_takeback_cancels_the_undone_turn_so_it_is_announced_again(
    store: SqlStore,
) -> None:
    alice, bob = await two_players(store)
    game = await new_game(store, alice, bob)
    turn = note(bob, Kind.YOUR_TURN, game, 1, dedupe=f"your_turn:{game.id}:1")
    moved = await store.apply_move(game, "5", 0, {"ply": 1}, 1, NOW, [turn])
    assert moved is not None
    back = await store.take_back(moved, {"ply": 0}, 0, NOW, None)
    assert back is not None and back.ply == 0 and await store.moves(game.id) == []
    assert await store.due_notifications("test", NOW) == []
    again = await store.apply_move(back, "7", 0, {"ply": 1}, 1, NOW, [turn])
    assert again is not None
    assert [n.ply for n in await store.due_notifications("test", NOW)] == [1]


async def test_placeholders_get_the_new_ids(store: SqlStore) -> None:
    alice, bob = await two_players(store)
    who = Recipient("test", "2", "bob", bob.id)
    from bot.messages import Action, Strong

    challenge_note = Notification(
        kind=Kind.CHALLENGE,
        recipient=who,
        text=Text.of("challenge ", Strong("#{challenge}")),
        deliver_after=NOW,
        actions=(Action.make("Accept", "acc", "{challenge}"),),
    )
    made = await store.create_challenge(
        challenger=alice.id,
        target=bob.id,
        platform="test",
        chat_id="room",
        game="maphex",
        options={"size": 5},
        first=First.ME,
        time_per_move=3,
        now=NOW,
        expires_at=NOW + timedelta(days=1),
        limit=10,
        notes=[challenge_note],
    )
    assert made is not None and made.options == {"size": 5} and made.expires_at > NOW
    (stored,) = await store.notifications_for(bob.id)
    assert str(stored.text) == f"challenge #{made.id}" and stored.challenge_id == made.id
    assert stored.actions[0].id == f"acc:{made.id}"


async def test_sent_notifications_older_than_30_days_are_pruned(store: SqlStore) -> None:
    alice, bob = await two_players(store)
    game = await new_game(store, alice, bob)
    notes = [note(bob, Kind.OPPONENT_AWAY, game) for _ in range(3)]
    await store.update_game(game, NOW, notes, reminder_sent_for_ply=0)
    old, recent, pending = await store.claim_due("test", "w", NOW, timedelta(minutes=1))
    assert await store.mark_sent(old.id or 0, "w", NOW - timedelta(days=31))
    assert await store.mark_sent(recent.id or 0, "w", NOW - timedelta(days=29))
    assert await store.prune_notifications(NOW - timedelta(days=30)) == 1
    assert [n.id for n in await store.notifications_for(bob.id)] == [recent.id, pending.id]


async def test_settings_are_stored_typed(store: SqlStore) -> None:
    alice, _ = await two_players(store)
    settings = Settings().change("dm", "off").change("quiet", "22:00-07:00 +02:00")
    await store.set_settings(alice.id, settings)
    stored = await store.get_player(alice.id)
    assert stored is not None and stored.settings == settings and not stored.dm_enabled
    assert stored.created_at == NOW


async def test_foreign_keys_are_enforced(store: SqlStore) -> None:
    with pytest.raises(StoreError, match=r"(?i)foreign key"):
        await store.create_game(NewGame("maphex", {}, 98, 99, "test", "room", 1, {}), NOW)


async def test_a_renamed_player_keeps_their_id(store: SqlStore) -> None:
    first = await store.player("test", "1", "alice", NOW)
    again = await store.player("test", "1", "Alice B.", NOW)
    assert again.id == first.id and again.name == "Alice B."
