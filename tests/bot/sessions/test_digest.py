"""The daily digest (issue 46) through the session manager with the injected clock, on SQLite
and on PostgreSQL: once a day at the player's local time (their UTC offset), held through
their quiet hours, listing every game where it is their turn in every chat; nothing on a day
without one; never twice for a day, also after a restart; turn notices by direct message
folded into it, the reminder before a timeout still sent."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.core.notification import Kind, Notification
from bot.messages import Chat, User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from tests.bot.session_kit import ALICE, BOB, CAROL, ROOM, session

OTHER = Chat("test", "other-room")
MONDAY = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


async def notes_of(m: SessionManager, user: User, kind: Kind) -> list[Notification]:
    player = await m.players.player(user)
    return [n for n in await m.store.notifications_for(player.id) if n.kind == kind]


async def game(m: SessionManager, a: User, b: User, chat: Chat, game: str = "pathagon") -> int:
    """``a`` challenges ``b`` in ``chat``, ``a`` moving first; ``b`` accepts."""
    made = await m.challenges.challenge(a, chat, game, b, {}, "me", 3)
    assert made.ok and made.challenge_id is not None, made.text
    accepted = await m.challenges.accept(b, chat, made.challenge_id)
    assert accepted.game_id is not None, accepted.text
    return accepted.game_id


async def test_the_digest_goes_out_once_at_the_local_time_listing_every_turn(
    store_url: str,
) -> None:
    clock = FakeClock(MONDAY)
    async with session(store_url, clock) as m:
        said = await m.players.settings(ALICE, "digest", "08:00 +01:00")
        assert said.ok and said.private and "08:00 (UTC+01:00)" in said.text, said.text
        assert "Direct messages are now on" in said.text
        assert "daily digest at 08:00 (UTC+01:00)" in (await m.players.settings(ALICE)).text
        here = await game(m, ALICE, BOB, ROOM)  # Alice to move
        there = await game(m, ALICE, CAROL, OTHER)  # Alice to move, in another chat
        theirs = await game(m, BOB, ALICE, ROOM)  # Bob to move: not in Alice's digest

        # 08:00 at UTC+01:00 is 07:00 UTC on Tuesday: nothing before.
        clock.set(datetime(2026, 1, 6, 6, 59, tzinfo=UTC))
        await m.sweep()
        assert await notes_of(m, ALICE, Kind.DIGEST) == []
        clock.set(datetime(2026, 1, 6, 7, 0, tzinfo=UTC))
        await m.sweep()
        sent = await notes_of(m, ALICE, Kind.DIGEST)
        assert len(sent) == 1
        digest = sent[0]
        assert digest.direct and digest.chat is None
        assert digest.deliver_after == clock.now()
        text = str(digest.text)
        assert "your turn in 2 games" in text
        assert f"#{here} Pathagon against bob" in text
        assert f"#{there} Pathagon against carol" in text
        assert f"#{theirs} " not in text and "left" in text
        assert sorted(a.label for a in digest.actions) == sorted([f"#{here}", f"#{there}"])

        # Later the same day, and after a restart: not again.
        clock.advance(minutes=30)
        await m.sweep()
    async with session(store_url, clock) as m:
        await m.sweep()
        assert len(await notes_of(m, ALICE, Kind.DIGEST)) == 1
        # The next day's comes the next day.
        clock.set(datetime(2026, 1, 7, 7, 0, tzinfo=UTC))
        await m.sweep()
        assert len(await notes_of(m, ALICE, Kind.DIGEST)) == 2


async def test_no_digest_on_a_day_without_a_turn_and_none_once_turned_off(
    store_url: str,
) -> None:
    clock = FakeClock(MONDAY)
    async with session(store_url, clock) as m:
        assert (await m.players.settings(BOB, "digest", "9")).ok
        await game(m, BOB, ALICE, ROOM)
        gid = await game(m, ALICE, BOB, ROOM)
        assert (await m.games.move(ALICE, ROOM, "a1", gid)).ok  # Bob to move in both
        assert (await m.games.move(BOB, ROOM, "b1", gid)).ok
        clock.set(datetime(2026, 1, 6, 9, 0, tzinfo=UTC))
        await m.sweep()
        assert len(await notes_of(m, BOB, Kind.DIGEST)) == 1  # the game where he opens
        off = await m.players.settings(BOB, "digest", "off")
        assert off.ok and "off" in off.text
        clock.set(datetime(2026, 1, 7, 9, 0, tzinfo=UTC))
        await m.sweep()
        assert len(await notes_of(m, BOB, Kind.DIGEST)) == 1
        bad = await m.players.settings(BOB, "digest", "25:00")
        assert not bad.ok and "not a digest time" in bad.text
        # Carol has no game where it is her turn: her digest day passes without a message.
        assert (await m.players.settings(CAROL, "digest", "10:00")).ok
        clock.set(datetime(2026, 1, 7, 10, 0, tzinfo=UTC))
        await m.sweep()
        assert await notes_of(m, CAROL, Kind.DIGEST) == []
        carol = await m.players.player(CAROL)
        row = await m.store.digest_of(carol.id)
        assert row is not None and row.last_day == "2026-01-07"


async def test_quiet_hours_hold_the_digest_until_they_end(store_url: str) -> None:
    clock = FakeClock(MONDAY)
    async with session(store_url, clock) as m:
        assert (await m.players.settings(ALICE, "quiet", "22:00-07:00 -05:00")).ok
        assert (await m.players.settings(ALICE, "digest", "23:00 -05:00")).ok
        await game(m, ALICE, BOB, ROOM)
        # 23:00 at UTC-05:00 is 04:00 UTC; the quiet hours end at 07:00 local, 12:00 UTC.
        clock.set(datetime(2026, 1, 6, 4, 0, tzinfo=UTC))
        await m.sweep()
        sent = await notes_of(m, ALICE, Kind.DIGEST)
        assert len(sent) == 1
        assert sent[0].deliver_after == datetime(2026, 1, 6, 12, 0, tzinfo=UTC)
        due = await m.store.due_notifications("test", datetime(2026, 1, 6, 11, 59, tzinfo=UTC))
        assert not any(n.kind == Kind.DIGEST for n in due)


async def test_turn_notices_by_dm_fold_into_the_digest_the_reminder_does_not(
    store_url: str,
) -> None:
    clock = FakeClock(MONDAY)
    async with session(store_url, clock) as m:
        for user in (ALICE, BOB):
            assert (await m.players.settings(user, "dm", "on")).ok
        assert (await m.players.settings(ALICE, "digest", "08:00")).ok
        gid = await game(m, BOB, ALICE, ROOM)
        assert (await m.games.move(BOB, ROOM, "a1", gid)).ok  # Alice's turn: folded, no DM
        assert await notes_of(m, ALICE, Kind.YOUR_TURN) == []
        assert (await m.games.move(ALICE, ROOM, "b1", gid)).ok  # Bob's turn: he has no digest
        assert len(await notes_of(m, BOB, Kind.YOUR_TURN)) == 1
        assert (await m.games.move(BOB, ROOM, "c1", gid)).ok
        assert await notes_of(m, ALICE, Kind.YOUR_TURN) == []
        # A game's first turn is folded too (Bob, without a digest, is told).
        await game(m, ALICE, CAROL, ROOM)
        bobs = await game(m, BOB, CAROL, ROOM)
        assert await notes_of(m, ALICE, Kind.YOUR_TURN) == []
        told = [n.game_id for n in await notes_of(m, BOB, Kind.YOUR_TURN)]
        assert bobs in told
        # The warning before the timeout always goes out.
        clock.advance(days=3, hours=-7)
        await m.sweep()
        assert gid in [n.game_id for n in await notes_of(m, ALICE, Kind.REMINDER)]
        assert clock.now() > MONDAY + timedelta(days=2)


async def test_games_lists_every_chat_turn_first_each_a_button_away(store_url: str) -> None:
    clock = FakeClock(MONDAY)
    async with session(store_url, clock) as m:
        theirs = await game(m, BOB, ALICE, ROOM)  # Bob to move
        mine = await game(m, ALICE, CAROL, OTHER)  # Alice to move, in another chat
        listed = await m.games.games(ALICE)  # asked in a private chat: the command takes none
        lines = listed.text.splitlines()
        assert lines[0].startswith(f"#{mine} Pathagon vs carol: your turn")
        assert lines[1].startswith(f"#{theirs} Pathagon vs bob: bob to move")
        assert [a.label for a in listed.actions] == [f"#{mine}", f"#{theirs}"]
        # Each button shows that game's board, here in the private chat.
        board = await m.games.press(ALICE, Chat("test", "alice-dm"), listed.actions[1].id)
        assert board.ok and board.game_id == theirs, board.text
