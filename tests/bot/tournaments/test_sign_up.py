"""Signing up for a tournament: bad input refused in one line with nothing stored, the sweep
starting a tournament after 48 hours or cancelling it (everyone told), and two processes on
one database starting it exactly once."""

from __future__ import annotations

import asyncio
import random

from bot.messages import Chat, User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import open_store
from bot.storage.tournament_rows import TournamentStatus
from tests.bot.session_kit import session

ROOM = Chat("test", "club")
ELSEWHERE = Chat("test", "other")
ADA, BO, CY, DI = (User("test", str(i), n) for i, n in enumerate(("ada", "bo", "cy", "di"), 1))


async def _open(m: SessionManager, *joiners: User) -> int:
    opened = await m.tournaments.tournament_new(ADA, ROOM, "maphex", {"size": "9"}, 3.0)
    assert opened.ok, opened.text
    tid = opened.actions[0].subject
    assert tid is not None
    for user in joiners:
        assert (await m.tournaments.tournament_join(user, ROOM, tid)).ok
    return tid


async def test_bad_input_is_refused_in_one_line_and_changes_nothing(store_url: str) -> None:
    async with session(store_url) as m:
        refusals = [
            await m.tournaments.tournament_new(ADA, ROOM, "chess", {}),
            await m.tournaments.tournament_new(ADA, ROOM, "maphex", {}, None),
            await m.tournaments.tournament_new(ADA, ROOM, "maphex", {}, 2.0),
            await m.tournaments.tournament_new(ADA, ROOM, "maphex", {}, 3.0, 3),
            await m.tournaments.tournament_new(ADA, ROOM, "maphex", {}, 3.0, 1, True, 2),
            await m.tournaments.tournament_new(ADA, ROOM, "maphex", {}, 3.0, 1, True, 51),
            await m.tournaments.tournament_new(ADA, ROOM, "maphex", {"size": "7"}),
            await m.tournaments.tournament_new(ADA, ROOM, "maphex", {}, 3.0, 1, "perhaps"),
            await m.tournaments.tournament_join(BO, ROOM),
            await m.tournaments.tournament_standings(BO, ROOM),
        ]
        for reply in refusals:
            assert not reply.ok and "\n" not in reply.text, reply.text
        assert await m.store.chat_tournaments("test", "club") == []
        tid = await _open(m, BO)
        before = await m.store.entrants(tid)
        for reply in (
            await m.tournaments.tournament_join(CY, ELSEWHERE, tid),  # another chat's number
            await m.tournaments.tournament_join(BO, ROOM, tid),  # twice
            await m.tournaments.tournament_start(BO, ROOM, tid),  # not the creator
            await m.tournaments.tournament_start(ADA, ROOM, tid),  # two players
            await m.tournaments.tournament_cancel(BO, ROOM, tid),  # not the creator
            await m.tournaments.tournament_leave(CY, ROOM, tid),  # not in it
            await m.games.press(CY, ROOM, "tj:99"),  # no such tournament
            await m.games.press(CY, ROOM, "tj:0"),  # not an id we made
            await m.tournaments.tournament_join(CY, ROOM, 10**30),
        ):
            assert not reply.ok and "\n" not in reply.text, reply.text
        assert await m.store.entrants(tid) == before
        second = await m.tournaments.tournament_new(CY, ROOM, "pathagon", {})
        assert second.ok
        which = await m.tournaments.tournament_join(DI, ROOM)
        assert not which.ok and "Which tournament?" in which.text
        left = await m.games.press(BO, ROOM, f"tl:{tid}")
        assert left.ok and "bo left" in left.text
        assert [e.player_id for e in await m.store.entrants(tid)] == [before[0].player_id]


async def test_the_sweep_starts_after_48_hours_or_cancels(store_url: str) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as m:
        full = await _open(m, BO, CY)
        few = (await m.tournaments.tournament_new(DI, ROOM, "pathagon", {})).actions[0].subject
        assert few is not None
        assert (await m.tournaments.tournament_join(BO, ROOM, few)).ok
        clock.advance(hours=47, minutes=59)
        await m.sweep()
        assert [t.status for t in await m.store.chat_tournaments("test", "club")] == [
            TournamentStatus.OPEN, TournamentStatus.OPEN,
        ]  # fmt: skip
        clock.advance(minutes=2)
        await m.sweep()
        started = await m.store.get_tournament(full)
        cancelled = await m.store.get_tournament(few)
        assert started is not None and started.status is TournamentStatus.RUNNING
        assert cancelled is not None and cancelled.status is TournamentStatus.CANCELLED
        assert len(await m.store.tournament_games(full)) == 3
        assert await m.store.tournament_games(few) == []
        far = m.now()
        told = [
            n for n in await m.store.due_notifications("test", far, 500)
            if n.kind == "tournament" and "cancelled" in str(n.text)
        ]  # fmt: skip
        assert sorted(n.recipient.name for n in told) == ["bo", "di"]
        assert "2 players signed up, it needs 3" in str(told[0].text)
        assert not (await m.tournaments.tournament_join(CY, ROOM, few)).ok
        await m.sweep()
        assert len(await m.store.tournament_games(full)) == 3


async def test_two_processes_start_a_tournament_once(postgres_url: str) -> None:
    clock = FakeClock()
    stores = [await open_store(postgres_url) for _ in range(2)]
    try:
        one, two = (
            SessionManager(s, clock, pictures=False, rng=random.Random(i))
            for i, s in enumerate(stores)
        )
        tid = await _open(one, BO, CY, DI)
        clock.advance(hours=49)
        for _ in range(3):
            await asyncio.gather(one.sweep(), two.sweep())
        t = await one.store.get_tournament(tid)
        assert t is not None and t.status is TournamentStatus.RUNNING
        assert len(await one.store.tournament_games(tid)) == 6
        notes = await one.store.due_notifications("test", clock.now(), 500)
        assert sum(n.kind == "tournament" and "has started" in str(n.text) for n in notes) == 1
        assert sum(n.kind == "board" for n in notes) == 6  # one board per game, once
        # Every game ends; both processes sweep: one result, one set of places.
        users = {(await one.players.player(u)).id: u for u in (ADA, BO, CY, DI)}
        for g in await one.store.tournament_games(tid):
            row = await one.store.get_game(g.game_id)
            assert row is not None
            assert (await one.games.resign(users[row.seat1], ROOM, row.id, confirm=True)).ok
        for _ in range(3):
            await asyncio.gather(one.sweep(), two.sweep())
        notes = await one.store.due_notifications("test", clock.now(), 500)
        assert sum(n.kind == "tournament" and "is over" in str(n.text) for n in notes) == 1
        t = await two.store.get_tournament(tid)
        assert t is not None and t.status is TournamentStatus.FINISHED
    finally:
        for s in stores:
            await s.close()


async def test_a_start_planned_before_a_late_sign_up_stores_nothing(store_url: str) -> None:
    async with session(store_url) as m:
        tid = await _open(m, BO, CY)
        planned = {e.player_id: (0, 1500) for e in await m.store.entrants(tid)}
        assert (
            await m.tournaments.tournament_join(DI, ROOM, tid)
        ).ok  # joins after the plan was made
        started = await m.store.start_tournament(tid, planned, [], m.now())
        assert started is None
        t = await m.store.get_tournament(tid)
        assert t is not None and t.status is TournamentStatus.OPEN
        assert all(e.group is None for e in await m.store.entrants(tid))
        assert "6 games at once" in (await m.tournaments.tournament_start(ADA, ROOM, tid)).text
