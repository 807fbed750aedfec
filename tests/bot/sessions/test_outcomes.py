"""Session operations answer with a typed outcome (bot.outcomes) besides their words: a
surface learns what happened from ``reply.outcome``, never from the text or the buttons (the
move path; every ending; a challenge that can no longer be answered; a tournament's sign-up
card; a question for the asker alone)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core import i18n
from bot.messages import TurnRefusal
from bot.outcomes import (
    AlreadyPlayed,
    Answered,
    Asks,
    ChallengeRefusal,
    Ended,
    Moved,
    NeedsConfirm,
    Offered,
    Question,
    Refused,
    Request,
    SignUp,
    Started,
    asks,
)
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from engines import IllegalMoveCode, Termination, pathagon
from tests.bot.session_kit import ALICE, BOB, CAROL, ROOM, migrated
from tests.web.kit import losing_game

#: Light joins its two edges with d7.
WINNING = "d1 a1 d2 a2 d3 a3 d4 a4 d5 a5 d6 b6".split()


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[SessionManager]:
    store = await SqliteStore.open(migrated(tmp_path / "h.db"))
    try:
        yield SessionManager(store, FakeClock(), pictures=False, rng=random.Random(1))
    finally:
        await store.close()


async def _game(m: SessionManager, game: str = "pathagon", **options: object) -> int:
    made = await m.challenges.challenge(ALICE, ROOM, game, BOB, dict(options), "me", 3)
    assert made.ok, made.text
    accepted = await m.challenges.accept(BOB, ROOM, made.challenge_id)
    assert accepted.ok and accepted.game_id is not None, accepted.text
    assert accepted.outcome == Started(accepted.game_id)
    return accepted.game_id


async def test_a_move_played_is_moved_and_the_last_one_ended(manager: SessionManager) -> None:
    gid = await _game(manager)
    first = await manager.games.move(ALICE, ROOM, "D1", gid, 0)
    assert first.ok and first.outcome == Moved(gid, 1, "d1")
    for ply, move in enumerate(WINNING[1:], 1):
        answer = await manager.games.move((ALICE, BOB)[ply % 2], ROOM, move, gid, ply)
        assert answer.outcome == Moved(gid, ply + 1, move), answer.text
    won = await manager.games.move(ALICE, ROOM, "d7", gid, len(WINNING))
    assert won.ok and won.outcome == Ended(gid, len(WINNING) + 1, Termination.CONNECTION, 0)


async def test_the_same_move_again_is_already_played(manager: SessionManager) -> None:
    gid = await _game(manager)
    assert (await manager.games.move(ALICE, ROOM, "d1", gid, 0)).ok
    again = await manager.games.move(ALICE, ROOM, "d1", gid, 0)
    assert again.private and again.outcome == AlreadyPlayed(gid, 0, "d1")


async def test_refusals_carry_their_code_and_arguments(manager: SessionManager) -> None:
    gid = await _game(manager)
    assert (await manager.games.move(ALICE, ROOM, "d1", gid, 0)).ok
    taken = await manager.games.move(BOB, ROOM, "d1", gid, 1)
    assert not taken.ok and isinstance(taken.outcome, Refused)
    assert taken.outcome.code is pathagon.IllegalMoveCode.NOT_EMPTY
    assert dict(taken.outcome.arguments) == {"square": "d1"}
    empty = await manager.games.move(BOB, ROOM, " ", gid, 1)
    assert isinstance(empty.outcome, Refused) and empty.outcome.code is IllegalMoveCode.EMPTY
    not_yours = await manager.games.move(ALICE, ROOM, "a1", gid, 1)
    assert not not_yours.ok and not_yours.outcome == Refused(TurnRefusal.NOT_YOUR_TURN)


async def test_a_losing_move_needs_confirming(manager: SessionManager) -> None:
    moves, losing = losing_game()
    gid = await _game(manager, "inphexion", size=5, pie=False)
    for ply, move in enumerate(moves):
        assert (await manager.games.move((ALICE, BOB)[ply % 2], ROOM, move, gid, ply)).ok
    ply = len(moves)
    asked = await manager.games.move((ALICE, BOB)[ply % 2], ROOM, losing, gid, ply)
    assert not asked.ok and isinstance(asked.outcome, NeedsConfirm), asked.text
    assert (asked.outcome.game_id, asked.outcome.ply) == (gid, ply)
    played = await manager.games.move((ALICE, BOB)[ply % 2], ROOM, losing, gid, ply, confirm=True)
    assert played.ok and isinstance(played.outcome, Ended) and played.outcome.winner == 1 - ply % 2


async def test_resigning_asks_first_then_ends(manager: SessionManager) -> None:
    gid = await _game(manager)
    question = await manager.games.resign(ALICE, ROOM, gid, confirm=False)
    assert question.outcome == Asks(Question.RESIGN, gid) and asks(question.outcome)
    resigned = await manager.games.resign(ALICE, ROOM, gid)
    assert resigned.outcome == Ended(gid, 0, Termination.RESIGNATION, 1), resigned.text


async def test_requests_are_offered_then_answered_or_ended(manager: SessionManager) -> None:
    gid = await _game(manager)
    offered = await manager.games.draw(ALICE, ROOM, gid, "offer")
    assert offered.outcome == Offered(gid, Request.DRAW), offered.text
    declined = await manager.games.draw(BOB, ROOM, gid, "decline")
    assert declined.outcome == Answered(gid, Request.DRAW, accepted=False), declined.text
    assert (await manager.games.move(ALICE, ROOM, "d1", gid, 0)).ok
    asked = await manager.games.takeback(ALICE, ROOM, gid, "ask")
    assert asked.outcome == Offered(gid, Request.TAKEBACK), asked.text
    allowed = await manager.games.takeback(BOB, ROOM, gid, "accept")
    assert allowed.outcome == Answered(gid, Request.TAKEBACK, accepted=True), allowed.text
    assert (await manager.games.draw(BOB, ROOM, gid, "offer")).outcome == Offered(gid, Request.DRAW)
    agreed = await manager.games.draw(ALICE, ROOM, gid, "accept")
    assert agreed.outcome == Ended(gid, 0, Termination.AGREEMENT, None), agreed.text


async def _refused_challenge(manager: SessionManager, reply_of: str) -> tuple[int, Refused]:
    made = await manager.challenges.challenge(ALICE, ROOM, "pathagon", BOB, {}, "me", 3)
    cid = made.challenge_id
    assert cid is not None
    if reply_of == "declined":
        assert (await manager.challenges.decline(BOB, ROOM, cid)).ok
    elif reply_of == "cancelled":
        assert (await manager.challenges.cancel(ALICE, ROOM, cid)).ok
    elif reply_of == "accepted":
        assert (await manager.challenges.accept(BOB, ROOM, cid)).ok
    else:
        clock = manager.clock
        assert isinstance(clock, FakeClock)
        clock.advance(hours=25)
    late = await manager.challenges.accept(BOB, ROOM, cid)
    assert not late.ok and isinstance(late.outcome, Refused), late.text
    return cid, late.outcome


@pytest.mark.parametrize("end", ["declined", "cancelled", "expired"])
async def test_a_challenge_answered_for_good_is_refused_as_closed(
    manager: SessionManager, end: str
) -> None:
    cid, refused = await _refused_challenge(manager, end)
    assert refused.code is ChallengeRefusal.CLOSED
    assert refused.arguments == {"challenge_id": cid, "status": end}


async def test_a_challenge_accepted_already_is_refused_as_taken(manager: SessionManager) -> None:
    cid, refused = await _refused_challenge(manager, "accepted")
    assert refused.code is ChallengeRefusal.TAKEN
    assert refused.arguments == {"challenge_id": cid, "status": "accepted"}


async def test_a_tournament_card_is_a_sign_up_until_it_starts(manager: SessionManager) -> None:
    opened = await manager.tournaments.tournament_new(ALICE, ROOM, "pathagon", {}, 1.0, 1, True, 10)
    assert isinstance(opened.outcome, SignUp), opened.text
    tid = opened.outcome.tournament_id
    for outcome in (
        (await manager.tournaments.tournament_join(BOB, ROOM, tid)).outcome,
        (await manager.tournaments.tournament_join(CAROL, ROOM, tid)).outcome,
        (await manager.tournaments.tournament_leave(CAROL, ROOM, tid)).outcome,
    ):
        assert outcome == SignUp(tid)
    leaving = await manager.tournaments.tournament_leave_question(BOB, ROOM, tid)
    assert leaving.outcome == Asks(Question.LEAVE, tid) and asks(leaving.outcome)
    with i18n.use("ja"):  # the outcome is the same whatever language the words are in
        assert (await manager.tournaments.tournament_standings(ALICE, ROOM, tid)).outcome == SignUp(
            tid
        )
