"""Correspondence play through the session manager on a real SQLite file, with the injected
clock (issue 9): time per move, the reminder, loss on time, abort, the start-up sweeper,
vacation, notification settings and quiet hours, draws, takebacks, rematches and records."""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image

import engines
import render
from bot.adapters.commands import execute
from bot.cli import main
from bot.core.notification import Notification
from bot.messages import Chat, User
from bot.sessions import records
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import GameRow, SqliteStore
from engines import Outcome
from tests.bot.session_kit import ALICE, BOB, CAROL, ROOM, finishing_moves, session, start_game

DAY = timedelta(days=1)
GAMES = list(engines.GAMES)


async def game(m: SessionManager, game_id: int) -> GameRow:
    row = await m.store.get_game(game_id)
    assert row is not None
    return row


async def notes(m: SessionManager, user: User, kind: str) -> list[Notification]:
    player = await m.players.player(user)
    return [n for n in await m.store.notifications_for(player.id) if n.kind == kind]


async def maphex_after_first_move(m: SessionManager, days: int | None = 3) -> int:
    """A Maphex game, Alice Red (seat 0) and Bob Blue (seat 1, who opens); Bob has chosen the
    centre, so Alice's clock runs."""
    made = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, {}, "me", days)
    assert made.ok, made.text
    accepted = await m.challenges.accept(BOB, ROOM, made.challenge_id)
    assert accepted.game_id is not None
    assert (await m.games.move(BOB, ROOM, "5", accepted.game_id)).ok
    return accepted.game_id


# -- time per move, reminder, timeout, abort -----------------------------------------------------


@pytest.mark.parametrize("days", [None, 1, 3, 7, 14])
async def test_time_per_move_chosen_in_the_challenge_sets_the_stored_deadline(
    tmp_path: Path, days: int | None
) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid = await maphex_after_first_move(m, days)
        row = await game(m, gid)
        assert row.time_per_move == days
        expected = None if days is None else clock.now() + days * DAY
        assert (row.deadline_at) == expected


async def test_time_per_move_default_is_3_days_and_other_values_are_refused(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid, _ = await start_game(m, "maphex")
        assert ((await game(m, gid)).deadline_at) == clock.now() + 3 * DAY
        refused = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, {}, "me", 2)
        assert not refused.ok and "Days per move" in refused.text
        words = await execute(m, ALICE, ROOM, "challenge bob maphex days=5", lambda n: BOB)
        assert not words.ok and "time per move must be one of" in words.text


async def test_reminder_once_and_only_once_when_10_percent_of_the_time_is_left(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid = await maphex_after_first_move(m, 3)
        deadline = clock.now() + 3 * DAY
        # 10 % of 3 days (7.2 h) is less than 24 h: the reminder goes 7.2 h before the deadline.
        clock.set(deadline - timedelta(hours=7.2, minutes=1))
        assert await m.sweep() == 0
        assert await notes(m, ALICE, "reminder") == []
        clock.advance(minutes=2)
        assert await m.sweep() == 1
        for _ in range(3):
            clock.advance(hours=1)
            assert await m.sweep() == 0
        sent = await notes(m, ALICE, "reminder")
        assert len(sent) == 1 and f"#{gid}" in str(sent[0].text)
        assert sent[0].dedupe == f"reminder:{gid}:1"
        assert await notes(m, BOB, "reminder") == []
        assert (await game(m, gid)).status == "active"


async def test_reminder_goes_24_hours_before_a_14_day_deadline(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        await maphex_after_first_move(m, 14)
        deadline = clock.now() + 14 * DAY
        clock.set(deadline - timedelta(hours=24, seconds=1))
        assert await m.sweep() == 0
        clock.advance(seconds=1)
        assert await m.sweep() == 1
        assert len(await notes(m, ALICE, "reminder")) == 1


async def test_each_move_gets_its_own_single_reminder(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid = await maphex_after_first_move(m, 1)
        clock.advance(hours=23)
        assert await m.sweep() == 1
        assert len(await notes(m, ALICE, "reminder")) == 1
        assert (await m.games.move(ALICE, ROOM, "e5", gid)).ok  # Bob's clock: a new move, a new one
        # Alice's undelivered reminder is for a move she has made: cancelled with the move.
        assert await notes(m, ALICE, "reminder") == []
        clock.advance(hours=23)
        assert await m.sweep() == 1
        assert await m.sweep() == 0
        assert len(await notes(m, BOB, "reminder")) == 1


async def test_reminders_off_sends_none_but_time_still_runs(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        assert (await m.players.settings(ALICE, "reminders", "off")).ok
        gid = await maphex_after_first_move(m, 1)
        clock.advance(hours=23)
        await m.sweep()
        assert await notes(m, ALICE, "reminder") == []
        clock.advance(hours=2)
        await m.sweep()
        assert (await game(m, gid)).reason == "timeout"


async def test_timeout_the_player_to_move_loses_on_time(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid = await maphex_after_first_move(m, 3)
        clock.advance(days=3, seconds=-1)
        await m.sweep()
        assert (await game(m, gid)).status == "active"
        clock.advance(seconds=1)
        assert await m.sweep() == 1
        row = await game(m, gid)
        assert (row.status, row.winner, row.result, row.reason) == ("finished", 1, "win", "timeout")
        assert row.deadline_at is None
        assert "your time ran out" in str((await notes(m, ALICE, "game_over"))[0].text)
        assert "You win on time" in str((await notes(m, BOB, "game_over"))[0].text)
        late = await m.games.move(ALICE, ROOM, "e5", gid)
        assert not late.ok and "timeout" in late.text


async def test_a_move_after_the_deadline_is_refused_even_before_the_sweeper_runs(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid = await maphex_after_first_move(m, 1)
        clock.advance(days=1, minutes=5)
        late = await m.games.move(ALICE, ROOM, "e5", gid)
        assert not late.ok and late.text.startswith(f"Time ran out in #{gid}")
        row = await game(m, gid)
        assert (row.status, row.winner, row.reason, row.ply) == ("finished", 1, "timeout", 1)
        assert await m.sweep() == 0  # nothing left to do, and no second game-over message
        assert len(await notes(m, BOB, "game_over")) == 1


async def test_abort_with_no_result_when_the_first_player_never_moves(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid, _ = await start_game(m, "maphex")
        clock.advance(days=3, seconds=1)
        assert await m.sweep() == 1
        row = await game(m, gid)
        assert (row.status, row.winner, row.result, row.reason) == (
            "aborted",
            None,
            "none",
            "no first move",
        )
        assert "did not make the first move" in str((await notes(m, ALICE, "game_over"))[0].text)
        board = await m.games.board(ALICE, ROOM, gid)
        assert "was aborted (no first move)" in board.text


async def test_games_without_a_clock_never_time_out(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid = await maphex_after_first_move(m, None)
        clock.advance(days=400)
        assert await m.sweep() == 0
        assert (await m.games.move(ALICE, ROOM, "e5", gid)).ok


# -- the start-up sweeper ------------------------------------------------------------------------


async def test_a_restart_with_overdue_deadlines_handles_them_paced_and_rearms_the_rest(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    path = tmp_path / "h.db"
    async with session(path, clock) as m:
        overdue = [await maphex_after_first_move(m, 1) for _ in range(6)]
        later = await maphex_after_first_move(m, 14)
        first_moves = [await maphex_after_first_move(m, 3) for _ in range(2)]
    # The bot is down for two days: six deadlines pass; two 3-day games reach their reminder.
    clock.advance(days=2, hours=20)
    async with session(path, clock) as m:
        gap = m.sweep_gap
        assert await m.sweep() == 8
        now = clock.now()
        for gid in overdue:
            assert (await game(m, gid)).reason == "timeout"
        assert (await game(m, later)).status == "active"
        assert ((await game(m, later)).deadline_at) is not None
        over = await notes(m, BOB, "game_over")
        reminders = await notes(m, ALICE, "reminder")
        assert {n.game_id for n in over} == set(overdue)
        assert {n.game_id for n in reminders} == set(first_moves)
        # Oldest first, one gap apart from now on: never a burst.
        slots = sorted((n.deliver_after) for n in [*over, *reminders])
        assert slots == [now + i * gap for i in range(8)]
        assert due_at(over, now) == 1
        # The rest were re-armed: each is handled when its own time comes.
        start = now - timedelta(days=2, hours=20)
        clock.set(start + 3 * DAY)
        assert await m.sweep() == 2
        assert {(await game(m, g)).reason for g in first_moves} == {"timeout"}
        clock.set(start + 13 * DAY)
        assert await m.sweep() == 1
        (late,) = [n for n in await notes(m, ALICE, "reminder") if n.game_id == later]
        assert (late.deliver_after) == clock.now()
        clock.set(start + 14 * DAY)
        assert await m.sweep() == 1
        assert (await game(m, later)).reason == "timeout"


def due_at(rows: list[Notification], when: datetime) -> int:
    """How many of ``rows`` may be delivered at ``when``."""
    return sum(1 for n in rows if ((n.deliver_after) or when) <= when)


async def test_the_sweeper_paces_across_calls(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        first = [await maphex_after_first_move(m, 1) for _ in range(3)]
        clock.advance(days=1, seconds=1)
        await m.sweep()
        second = await maphex_after_first_move(m, 1)
        clock.advance(days=1, seconds=1)  # the paced stretch (3 x gap) is long over by now
        await m.sweep()
        slots = {n.game_id: (n.deliver_after) for n in await notes(m, BOB, "game_over")}
        assert sorted(slots[g] for g in first) == [
            slots[first[0]] + i * m.sweep_gap for i in range(3)
        ]
        assert slots[second] == clock.now()


# -- vacation --------------------------------------------------------------------------------


async def test_vacation_pauses_clocks_tells_opponents_and_resumes(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid = await maphex_after_first_move(m, 3)
        deadline = clock.now() + 3 * DAY
        clock.advance(days=1)
        away = await m.players.away(ALICE, 5)
        assert away.ok and "9 whole days of vacation left" in away.text
        assert ((await game(m, gid)).deadline_at) == deadline + 5 * DAY
        told = await notes(m, BOB, "opponent_away")
        assert len(told) == 1 and "alice is away until" in str(told[0].text)
        clock.set(deadline + DAY)
        await m.sweep()
        assert (await game(m, gid)).status == "active"
        # Back from vacation, Alice moves in her 2 remaining days; Bob's clock then runs.
        clock.set(deadline + 4 * DAY)
        assert (await m.games.move(ALICE, ROOM, "e5", gid)).ok
        assert ((await game(m, gid)).deadline_at) == clock.now() + 3 * DAY


async def test_vacation_deadline_is_reached_after_the_time_away(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid = await maphex_after_first_move(m, 1)
        assert (await m.players.away(ALICE, 2)).ok
        clock.advance(days=3, seconds=-1)
        await m.sweep()
        assert (await game(m, gid)).status == "active"
        clock.advance(seconds=1)
        await m.sweep()
        assert (await game(m, gid)).reason == "timeout"


async def test_a_turn_given_to_a_player_away_starts_after_the_vacation(tmp_path: Path) -> None:
    clock = FakeClock()
    start = clock.now()
    async with session(tmp_path / "h.db", clock) as m:
        made = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, {}, "me", 1)
        gid = (await m.challenges.accept(BOB, ROOM, made.challenge_id)).game_id
        assert gid is not None
        assert (await m.players.away(ALICE, 4)).ok
        clock.advance(hours=23)
        assert (await m.games.move(BOB, ROOM, "5", gid)).ok  # Alice is away: her day starts later
        assert ((await game(m, gid)).deadline_at) == start + 5 * DAY


async def test_coming_back_early_restarts_the_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid = await maphex_after_first_move(m, 3)
        deadline = clock.now() + 3 * DAY
        assert (await m.players.away(ALICE, 10)).ok
        clock.advance(days=2)
        back = await m.players.back(ALICE)
        assert back.ok
        assert ((await game(m, gid)).deadline_at) == deadline + 2 * DAY
        assert "back" in str((await notes(m, BOB, "opponent_away"))[-1].text)
        # Only the two days really taken count against the year: 2 + 1 of 14.
        assert "11 whole days of vacation left" in (await m.players.away(ALICE, 1)).text
        assert not (await m.players.back(BOB)).ok


async def test_vacation_is_at_most_14_days_a_calendar_year(tmp_path: Path) -> None:
    clock = FakeClock(datetime(2026, 3, 1, tzinfo=UTC))
    async with session(tmp_path / "h.db", clock) as m:
        assert (await m.players.away(ALICE, 10)).ok
        clock.advance(days=20)
        refused = await m.players.away(ALICE, 5)
        assert not refused.ok and "4 days of vacation left this year" in refused.text
        assert not (await m.players.away(ALICE, 15)).ok
        assert not (await m.players.away(ALICE, "soon")).ok
        assert (await m.players.away(ALICE, 4)).ok
        clock.set(datetime(2027, 1, 2, tzinfo=UTC))
        assert (await m.players.away(ALICE, 14)).ok  # a new year, a new allowance


# -- notifications: settings, quiet hours, once per move -----------------------------------------


async def test_quiet_hours_delay_delivery_until_they_end(tmp_path: Path) -> None:
    clock = FakeClock(datetime(2026, 1, 5, 22, 30, tzinfo=UTC))
    async with session(tmp_path / "h.db", clock) as m:
        # 23:00-08:00 at UTC+01:00 is 22:00-07:00 UTC.
        assert (await m.players.settings(ALICE, "quiet", "23:00-08:00 +01:00")).ok
        for who in (ALICE, BOB):
            assert (await m.players.settings(who, "dm", "on")).ok
        await maphex_after_first_move(m, 3)
        (turn,) = await notes(m, ALICE, "your_turn")
        morning = datetime(2026, 1, 6, 7, 0, tzinfo=UTC)
        assert (turn.deliver_after) == morning
        assert turn.id not in {n.id for n in await m.store.due_notifications("test", clock.now())}
        assert turn.id in {n.id for n in await m.store.due_notifications("test", morning)}
        # Bob has no quiet hours: his challenge went at once.
        (challenge,) = await notes(m, BOB, "challenge")
        assert (challenge.deliver_after) == datetime(2026, 1, 5, 22, 30, tzinfo=UTC)


async def test_a_reminder_falling_in_quiet_hours_waits_for_them_to_end(tmp_path: Path) -> None:
    clock = FakeClock(datetime(2026, 1, 5, 12, 0, tzinfo=UTC))
    async with session(tmp_path / "h.db", clock) as m:
        assert (await m.players.settings(ALICE, "quiet", "9:00-13:00")).ok
        await maphex_after_first_move(m, 1)  # due 6 Jan 12:00; reminder at 09:36, quiet
        clock.set(datetime(2026, 1, 6, 9, 40, tzinfo=UTC))
        assert await m.sweep() == 1
        (reminder,) = await notes(m, ALICE, "reminder")
        assert (reminder.deliver_after) == datetime(2026, 1, 6, 13, 0, tzinfo=UTC)


async def test_settings_show_change_and_refuse_nonsense(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        shown = await m.players.settings(ALICE)
        # Direct messages are opt-in.
        assert shown.text == "Your settings: direct messages off, reminders on, quiet hours none."
        changed = await execute(m, ALICE, ROOM, "settings quiet 22-7 UTC+2", lambda n: BOB)
        assert changed.text.endswith("quiet hours 22:00-07:00 UTC+02:00.")
        assert not (await m.players.settings(ALICE, "colour", "blue")).ok
        assert not (await m.players.settings(ALICE, "dm", "maybe")).ok
        assert (await m.players.settings(ALICE, "quiet", "off")).text.endswith("quiet hours none.")


async def test_direct_messages_only_to_who_turned_them_on(tmp_path: Path) -> None:
    """With direct messages off (the default) the board in the game's chat is the turn notice:
    nothing is queued; Bob, who turned them on, gets the challenge privately (no chat copy)."""
    async with session(tmp_path / "h.db") as m:
        assert (await m.players.settings(BOB, "dm", "on")).ok
        await maphex_after_first_move(m, 3)
        assert await notes(m, ALICE, "your_turn") == []
        (challenge,) = await notes(m, BOB, "challenge")
        assert challenge.direct and challenge.chat is None


async def test_at_most_one_your_turn_per_game_per_move(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        assert (await m.players.settings(ALICE, "dm", "on")).ok
        gid = await maphex_after_first_move(m, 3)
        assert (await m.games.move(BOB, ROOM, "5", gid)).ok  # the same move again: same answer
        assert (await m.games.press(BOB, ROOM, f"mv:{gid}:0:5")).ok
        assert len(await notes(m, ALICE, "your_turn")) == 1
        assert (await m.games.move(ALICE, ROOM, "e5", gid)).ok
        assert (await m.games.move(BOB, ROOM, "d5", gid)).ok
        # The undelivered one for ply 1 was cancelled when Alice played that ply.
        assert [n.dedupe for n in await notes(m, ALICE, "your_turn")] == [f"your_turn:{gid}:3"]


# -- draws ---------------------------------------------------------------------------------


async def test_draw_offer_accept_and_refusals_for_the_wrong_player(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        for who in (ALICE, BOB):  # the offer and its answer reach them privately too
            assert (await m.players.settings(who, "dm", "on")).ok
        gid = await maphex_after_first_move(m, 3)
        assert not (await m.games.draw(ALICE, ROOM, gid, "accept")).ok  # nothing offered
        offer = await m.games.draw(ALICE, ROOM, gid)
        assert offer.ok and [a.id for a in offer.actions] == [f"dra:{gid}", f"drd:{gid}"]
        assert len(await notes(m, BOB, "draw_offered")) == 1
        before = await game(m, gid)
        for user, answer, words in [
            (ALICE, "accept", "You offered the draw"),
            (ALICE, "offer", "already offered"),
            (CAROL, "accept", "not playing"),
            (CAROL, "decline", "not playing"),
        ]:
            refused = await m.games.draw(user, ROOM, gid, answer)
            assert not refused.ok and words in refused.text, refused.text
        assert await game(m, gid) == before
        assert not (await m.games.press(CAROL, ROOM, f"dra:{gid}")).ok
        done = await m.games.press(BOB, ROOM, f"dra:{gid}")
        assert done.ok and "drawn (agreement)" in done.text
        assert [a.id for a in done.actions] == [f"rm:{gid}"]
        row = await game(m, gid)
        assert (row.status, row.result, row.winner, row.reason) == (
            "finished",
            "draw",
            None,
            "agreement",
        )
        assert "accepted your draw offer" in str((await notes(m, ALICE, "game_over"))[0].text)


async def test_draw_decline_and_offers_from_both_sides_agree(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        gid = await maphex_after_first_move(m, 3)
        assert (await m.games.draw(BOB, ROOM, gid)).ok
        assert (await execute(m, ALICE, ROOM, f"draw #{gid} decline", lambda n: BOB)).ok
        assert (await game(m, gid)).draw_offer_by is None
        assert (await m.games.draw(BOB, ROOM, gid)).ok
        agreed = await m.games.draw(ALICE, ROOM, gid)  # offering back is agreeing
        assert agreed.ok and (await game(m, gid)).result == "draw"


async def test_a_draw_offer_lapses_when_the_offerers_opponent_moves(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        gid = await maphex_after_first_move(m, 3)
        # Alice offers on her own turn, then moves: the offer stands.
        assert (await m.games.draw(ALICE, ROOM, gid)).ok
        assert (await m.games.move(ALICE, ROOM, "e5", gid)).ok
        assert (await game(m, gid)).draw_offer_by == 0
        # Bob moves instead of answering: the offer lapses.
        assert (await m.games.move(BOB, ROOM, "d5", gid)).ok
        assert (await game(m, gid)).draw_offer_by is None
        refused = await m.games.draw(BOB, ROOM, gid, "accept")
        assert not refused.ok and "no draw offer" in refused.text


# -- takebacks -----------------------------------------------------------------------------


async def test_takeback_ask_accept_and_refusals_for_the_wrong_player(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        assert (await m.players.settings(ALICE, "dm", "on")).ok  # her turn notices are kept
        gid = await maphex_after_first_move(m, 3)  # Bob played 5; Alice to move
        refused = await m.games.takeback(ALICE, ROOM, gid)
        assert not refused.ok and "your own last move" in refused.text
        asked = await m.games.takeback(BOB, ROOM, gid)
        assert asked.ok and [a.id for a in asked.actions] == [f"tba:{gid}", f"tbd:{gid}"]
        assert len(await notes(m, ALICE, "takeback_requested")) == 1
        before = await game(m, gid)
        for user, answer, words in [
            (BOB, "accept", "You asked for the takeback"),
            (BOB, "ask", "already asked"),
            (CAROL, "accept", "not playing"),
        ]:
            refused = await m.games.takeback(user, ROOM, gid, answer)
            assert not refused.ok and words in refused.text, refused.text
        assert await game(m, gid) == before
        done = await m.games.press(ALICE, ROOM, f"tba:{gid}")
        assert done.ok and "5 is taken back" in done.text
        row = await game(m, gid)
        assert (row.ply, row.to_move, row.takeback_by) == (0, 1, None)
        assert await m.store.moves(gid) == []
        # Bob chooses again: the new move is a new move, announced once.
        assert (await m.games.move(BOB, ROOM, "3", gid)).ok
        # (the one for the move taken back was cancelled with the takeback)
        assert [n.ply for n in await notes(m, ALICE, "your_turn")] == [1]
        assert (await m.games.move(ALICE, ROOM, "h2", gid)).ok


async def test_takeback_decline_and_no_takeback_after_the_opponent_moved(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        gid = await maphex_after_first_move(m, 3)
        assert (await m.games.takeback(BOB, ROOM, gid)).ok
        assert (await execute(m, ALICE, ROOM, "takeback no", lambda n: BOB)).ok
        assert (await game(m, gid)).takeback_by is None
        assert (await game(m, gid)).ply == 1
        assert (await m.games.takeback(BOB, ROOM, gid)).ok
        # Alice moves instead of answering: Bob's move is no longer the last one.
        assert (await m.games.move(ALICE, ROOM, "e5", gid)).ok
        assert (await game(m, gid)).takeback_by is None
        refused = await m.games.takeback(BOB, ROOM, gid)
        assert not refused.ok and "your own last move" in refused.text


async def test_takeback_restarts_the_clock_of_the_player_who_moves_again(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid = await maphex_after_first_move(m, 1)
        clock.advance(hours=20)
        assert (await m.games.takeback(BOB, ROOM, gid)).ok
        assert (await m.games.takeback(ALICE, ROOM, gid, "accept")).ok
        assert ((await game(m, gid)).deadline_at) == clock.now() + DAY


# -- rematches -----------------------------------------------------------------------------


async def test_rematch_same_game_and_options_seats_swapped_linked(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        assert (await m.players.settings(BOB, "dm", "on")).ok
        made = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, {"size": "16"}, "me", 7)
        old = (await m.challenges.accept(BOB, ROOM, made.challenge_id)).game_id
        assert old is not None
        early = await m.games.rematch(ALICE, ROOM, old)
        assert not early.ok and "still going" in early.text
        resigned = await m.games.resign(ALICE, ROOM, old)
        assert [a.id for a in resigned.actions] == [f"rm:{old}"]
        refused = await m.games.rematch(CAROL, ROOM, old)
        assert not refused.ok and "not playing" in refused.text
        asked = await m.games.press(ALICE, ROOM, f"rm:{old}")
        assert asked.ok and "seats swapped" in asked.text
        again = await m.games.rematch(ALICE, ROOM, old)
        assert not again.ok and "already asked" in again.text
        assert len(await notes(m, BOB, "challenge")) == 2
        accepted = await m.games.rematch(BOB, ROOM)  # Bob asks too: that accepts Alice's
        assert accepted.ok and accepted.game_id is not None
        first, second = await game(m, old), await game(m, accepted.game_id)
        assert (second.seat0, second.seat1) == (first.seat1, first.seat0)
        assert (second.game, dict(second.options), second.time_per_move) == (
            "maphex",
            {"size": 16},
            7,
        )
        assert second.rematch_of == old
        done = await m.games.rematch(ALICE, ROOM, old)
        assert not done.ok and f"already game #{second.id}" in done.text


async def test_rematch_can_be_declined_by_the_opponent_only(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        gid, _ = await start_game(m, "maphex")
        assert (await m.games.resign(BOB, ROOM, gid)).ok
        asked = await m.games.rematch(BOB, ROOM, gid)
        challenge = asked.challenge_id
        assert not (await m.challenges.accept(CAROL, ROOM, challenge)).ok
        assert not (await m.challenges.accept(BOB, ROOM, challenge)).ok
        assert (await m.challenges.decline(ALICE, ROOM, challenge)).ok
        assert (await m.games.rematch(ALICE, ROOM, gid)).ok  # declined: a new one may be asked


# -- records ---------------------------------------------------------------------------------


async def play_moves(m: SessionManager, gid: int, moves: tuple[str, ...]) -> None:
    for move in moves:
        row = await game(m, gid)
        assert row.to_move is not None
        player = await m.store.get_player(row.seats[row.to_move])
        assert player is not None
        user = ALICE if player.user_id == ALICE.user_id else BOB
        # A random game may hold a move that loses for its player: confirm it as they would.
        reply = await m.games.move(user, ROOM, move, gid, confirm=True)
        assert reply.ok, reply.text


@pytest.mark.parametrize("name", GAMES)
async def test_export_import_round_trip_for_every_game(tmp_path: Path, name: str) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid, _ = await start_game(m, name)
        await play_moves(m, gid, finishing_moves(name))
        text = (await m.games.export(ALICE, ROOM, gid)).text
        record = records.parse(text)
        original = await game(m, gid)
        assert record.moves == tuple(mv.move for mv in await m.store.moves(gid))
        assert record.players == ("alice", "bob")
        assert record.result == records.Result(original.winner, original.reason or "")
        assert record.time_per_move == 3 and record.game_id == f"#{gid}"
        imported = await m.games.import_record(ALICE, Chat("test", "other"), text, CAROL)
        assert imported.ok and imported.game_id is not None
        copy = await game(m, imported.game_id)
        assert (copy.status, copy.winner, copy.reason, copy.snapshot) == (
            original.status,
            original.winner,
            original.reason,
            original.snapshot,
        )
        again = records.parse((await m.games.export(ALICE, ROOM, copy.id)).text)
        assert again.moves == record.moves and again.result == record.result
        assert again.replay() == record.replay()


@pytest.mark.parametrize("name", GAMES)
async def test_an_unfinished_game_imports_ready_to_continue(tmp_path: Path, name: str) -> None:
    async with session(tmp_path / "h.db") as m:
        gid, _ = await start_game(m, name)
        await play_moves(m, gid, finishing_moves(name)[:3])
        text = (await m.games.export(BOB, ROOM, gid)).text
        assert "Result: *" in text
        room = Chat("test", "elsewhere")
        imported = await m.games.import_record(BOB, room, text, ALICE)
        assert imported.ok and imported.game_id is not None
        copy = await game(m, imported.game_id)
        assert copy.status == "active" and copy.ply == 3
        # Bob took the seat his name has in the record, so the game goes on as it was.
        assert (copy.seat0, copy.seat1) == ((await game(m, gid)).seat0, (await game(m, gid)).seat1)
        position = records.parse(text).replay()
        player = await m.store.get_player(copy.seats[position.to_move])
        assert player is not None
        user = ALICE if player.user_id == ALICE.user_id else BOB
        assert (await m.games.move(user, room, finishing_moves(name)[3], copy.id)).ok


async def test_import_refuses_a_bad_record_with_the_line(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        bad = await m.games.import_record(ALICE, ROOM, "Game: maphex\n\n1. 5\n2. a1\n", BOB)
        assert not bad.ok and "line 4: move 2 (a1) is illegal" in bad.text
        assert not (await m.games.import_record(ALICE, ROOM, "Game: maphex\n", ALICE)).ok


async def test_history_shows_the_players_and_the_numbered_moves(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        gid = await maphex_after_first_move(m, 7)
        assert (await m.games.move(ALICE, ROOM, "e5", gid)).ok
        text = (await m.games.history(ALICE, ROOM, gid)).text
        # A readable move list (issue 13): the record with its header is what export gives.
        assert text == f"#{gid} Maphex: alice (Red) vs bob (Blue)\n1. 5 e5"


async def test_the_game_over_reply_carries_the_animated_recap(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "h.db")
    try:
        m = SessionManager(store, FakeClock(), pictures=True, rng=random.Random(1))
        gid, _ = await start_game(m, "maphex")
        moves = finishing_moves("maphex")
        await play_moves(m, gid, moves[:-1])
        row = await game(m, gid)
        assert row.to_move is not None
        player = await m.store.get_player(row.seats[row.to_move])
        assert player is not None
        user = ALICE if player.user_id == ALICE.user_id else BOB
        last = await m.games.move(user, ROOM, moves[-1], gid)
        # The reply goes at once with the final board; the recap follows as its own delivery.
        assert last.ok and "wins" in last.text and last.animation is None
        assert last.image is not None and [a.id for a in last.actions] == [f"rm:{gid}"]
        due = await m.store.due_notifications("test", m.now())
        (recap,) = [n for n in due if n.kind == "recap"]
        assert recap.game_id == gid and not recap.direct and recap.chat == ROOM
        gif = await m.recaps().gif(gid)
        assert gif is not None and gif[:6] in (b"GIF87a", b"GIF89a")
        resigned_game, _ = await start_game(m, "maphex")
        resigned = await m.games.resign(ALICE, ROOM, resigned_game)
        assert resigned.ok and resigned.animation is None
        recaps = [n for n in await m.store.due_notifications("test", m.now()) if n.kind == "recap"]
        assert [n.game_id for n in recaps] == [gid, resigned_game]
        # The recap's last frame shows what only the store knows (the resignation) and the
        # players' names, exactly as the board of the finished game does.
        resigned_row = await game(m, resigned_game)
        final = engines.position_after(
            "maphex", [mv.move for mv in await m.store.moves(resigned_game)]
        )
        shown = await m.recaps().gif(resigned_game)
        assert shown is not None
        frames = Image.open(io.BytesIO(shown))
        frames.seek(getattr(frames, "n_frames", 1) - 1)
        expected = render.board_image(
            final, outcome=Outcome(resigned_row.winner, "resignation"), players=("alice", "bob")
        )
        assert frames.convert("RGB").tobytes() == expected.convert("RGB").tobytes()
    finally:
        await store.close()


def test_hexhall_import_reads_a_record_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HEXHALL_DB", str(tmp_path / "h.db"))
    record = records.Record("maphex", {"size": 9}, ("Ann", "Ben"), ("5", "e5", "d5"))
    (tmp_path / "game.txt").write_text(records.export(record), encoding="utf-8")
    assert main(["import", str(tmp_path / "game.txt")]) == 0
    out = capsys.readouterr().out
    assert "Imported Maphex as game #1: Ann vs Ben, 3 moves." in out
    (tmp_path / "bad.txt").write_text("Game: chess\n", encoding="utf-8")
    assert main(["import", str(tmp_path / "bad.txt")]) == 2
    assert "hexhall: cannot import: line 1: unknown game 'chess'" in capsys.readouterr().err
    assert main(["import", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
