"""The session manager on a real SQLite file: full lifecycles for every game, authorisation,
races, corrupt rows and button ids (issue 8)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import engines
from bot.adapters.commands import execute
from bot.core.notification import Notification
from bot.core.status import GameStatus
from bot.delivery.outbox import Outbox
from bot.messages import ACTION_ID_LIMIT, MESSAGE_LIMITS, Code, Reply, Strong
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.sessions.questions import QUESTION_TTL
from bot.storage import GameRow, SqliteStore
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

GAMES = list(engines.GAMES)


async def snapshot(manager: SessionManager, game_id: int) -> tuple[object, ...]:
    """Everything about a game that a refusal must leave unchanged."""
    row = await manager.store.get_game(game_id)
    moves = await manager.store.moves(game_id)
    return (row, tuple(moves))


# -- lifecycle ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
async def test_lifecycle_challenge_accept_moves_to_the_end(tmp_path: Path, game: str) -> None:
    moves = finishing_moves(game)
    async with session(tmp_path / "h.db") as m:
        game_id, _ = await start_game(m, game)
        for number, move in enumerate(moves):
            # A random game may hold a move that loses for its player: confirm it as they would.
            reply = await m.games.move(await mover(m, game_id), ROOM, move, confirm=True)
            assert reply.ok, f"move {number + 1} {move}: {reply.text}"
        row = await m.store.get_game(game_id)
        assert row is not None
        expected = engines.new(game)
        for move in moves:
            expected = expected.play(move)
        assert expected.outcome is not None
        assert (row.status, row.winner, row.reason) == (
            "finished",
            expected.outcome.winner,
            expected.outcome.termination,
        )
        assert row.ply == len(moves) and row.to_move is None
        assert [mv.move for mv in await m.store.moves(game_id)] == list(moves)
        assert "wins" in reply.text or "drawn" in reply.text
        late = await m.games.move(ALICE, ROOM, moves[0], game_id)
        assert not late.ok
    # A fresh process rebuilds the same finished game from the file.
    async with session(tmp_path / "h.db") as again:
        board = await again.games.board(ALICE, ROOM, game_id)
        assert board.ok and f"#{game_id}" in board.text


@pytest.mark.parametrize("game", GAMES)
async def test_lifecycle_resign(tmp_path: Path, game: str) -> None:
    async with session(tmp_path / "h.db") as m:
        game_id, _ = await start_game(m, game)
        first = finishing_moves(game)[0]
        assert (await m.games.move(await mover(m, game_id), ROOM, first)).ok
        reply = await m.games.resign(BOB, ROOM)
        assert reply.ok and "resign" in reply.text
        row = await m.store.get_game(game_id)
        assert row is not None
        alice = await m.players.player(ALICE)
        assert (row.status, row.reason) == ("finished", "resignation")
        assert row.winner is not None and row.seats[row.winner] == alice.id
        again = await m.games.resign(BOB, ROOM, game_id)
        assert not again.ok and "over" in again.text


@pytest.mark.parametrize("game", GAMES)
async def test_lifecycle_open_challenge(tmp_path: Path, game: str) -> None:
    async with session(tmp_path / "h.db") as m:
        made = await m.challenges.challenge(ALICE, ROOM, game, None, {}, "them")
        assert made.ok and "anyone" in made.text
        own = await m.challenges.accept(ALICE, ROOM, 1)
        assert not own.ok and "your own" in own.text
        taken = await m.challenges.accept(CAROL, ROOM)
        assert taken.ok and taken.game_id is not None
        row = await m.store.get_game(taken.game_id)
        carol = await m.players.player(CAROL)
        assert row is not None and row.seat0 == carol.id  # first=them: Carol takes seat 0
        late = await m.challenges.accept(BOB, ROOM, 1)
        assert not late.ok and "already accepted" in late.text


@pytest.mark.parametrize("game", GAMES)
async def test_lifecycle_expiry(tmp_path: Path, game: str) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        made = await m.challenges.challenge(ALICE, ROOM, game, BOB)
        assert made.ok
        clock.advance(hours=24, seconds=1)
        reply = await m.challenges.accept(BOB, ROOM, 1)
        assert not reply.ok and "expired" in reply.text
        assert await m.store.games_of((await m.players.player(BOB)).id, (GameStatus.ACTIVE,)) == []
        expired = await m.challenges.expire_challenges()
        assert [c.id for c in expired] == [1]
        again = await m.challenges.accept(BOB, ROOM, 1)
        assert not again.ok and "expired" in again.text


# -- notifications -----------------------------------------------------------------------------


async def test_outbox_challenge_your_turn_once_per_move_and_game_over(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        for who in (ALICE, BOB):  # told privately too (the chat sees the boards either way)
            assert (await m.players.settings(who, "dm", "on")).ok
        game_id, _ = await start_game(m, "maphex")
        bob = await m.players.player(BOB)
        alice = await m.players.player(ALICE)
        kinds = [n.kind for n in await m.store.notifications_for(bob.id)]
        assert kinds == ["challenge"]
        # Bob (Blue, seat 1) opens Maphex by choosing the sub-board; then it is Alice's turn.
        assert (await m.games.move(BOB, ROOM, "5")).ok
        assert (await m.games.move(BOB, ROOM, "5")).ok  # a duplicate: same answer, no new event
        turns = [n for n in await m.store.notifications_for(alice.id) if n.kind == "your_turn"]
        assert [(n.game_id, n.dedupe) for n in turns] == [(game_id, f"your_turn:{game_id}:1")]
        assert (await m.games.resign(ALICE, ROOM)).ok
        over = [n for n in await m.store.notifications_for(bob.id) if n.kind == "game_over"]
        assert len(over) == 1 and "you win" in str(over[0].text)
        due = await m.store.due_notifications("test", m.now())
        delivered: list[Notification] = []

        class Keep:
            async def send(self, notification: Notification) -> None:
                delivered.append(notification)

        # Alice's "your turn" lapsed when she resigned: it is dropped, not delivered.
        assert await Outbox(m.store, m.clock).deliver_due("test", Keep()) == len(due) == 3
        assert [n.kind for n in delivered] == ["challenge", "challenge_accepted", "game_over"]
        assert all(n.direct and n.chat is None for n in delivered)  # private: no chat copy
        assert await m.store.due_notifications("test", m.now()) == []


async def test_with_direct_messages_off_the_chat_gets_nothing_but_the_answers(
    tmp_path: Path,
) -> None:
    """Issue 24: the board (the answer to the move, naming the player to move) is the chat's
    notification; players who did not turn direct messages on get no other notice of a
    challenge, its acceptance, a move or the end of the game."""
    async with session(tmp_path / "h.db") as m:
        await start_game(m, "maphex")
        assert (await m.games.move(BOB, ROOM, "5")).ok
        assert (await m.games.resign(ALICE, ROOM)).ok
        kinds = {
            who.user_id: [
                n.kind for n in await m.store.notifications_for((await m.players.player(who)).id)
            ]
            for who in (ALICE, BOB)
        }
        # Only the board committed with Bob's move (naming Alice, to move), for the chat: the
        # adapter answering the move posts it (and claims it); nothing else for anyone.
        assert kinds == {ALICE.user_id: ["board"], BOB.user_id: []}, kinds
        (board,) = await m.store.notifications_for((await m.players.player(ALICE)).id)
        assert board.chat == ROOM and not board.direct and board.ply == 1


# -- refusals: each one line, nothing changed ----------------------------------------------------


def one_line_refusal(reply: Reply, *words: str) -> None:
    assert not reply.ok
    assert "\n" not in reply.text
    for word in words:
        assert word in reply.text, reply.text


async def test_refusal_strangers_move(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        game_id, _ = await start_game(m, "maphex")
        before = await snapshot(m, game_id)
        one_line_refusal(await m.games.move(CAROL, ROOM, "5", game_id), "not playing")
        assert await snapshot(m, game_id) == before


async def test_refusal_move_out_of_turn(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        game_id, _ = await start_game(m, "maphex")
        before = await snapshot(m, game_id)
        one_line_refusal(await m.games.move(ALICE, ROOM, "5"), "not your turn", "bob")
        assert await snapshot(m, game_id) == before


async def test_refusal_illegal_move_names_the_rule(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        game_id, _ = await start_game(m, "maphex")
        before = await snapshot(m, game_id)
        one_line_refusal(await m.games.move(BOB, ROOM, "e5"), "Illegal move", "sub-board")
        one_line_refusal(await m.games.move(BOB, ROOM, "x" * 500), "Illegal move")
        assert await snapshot(m, game_id) == before


async def test_refusal_unknown_game_id_and_no_game(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        one_line_refusal(await m.games.move(ALICE, ROOM, "e5", 999), "no game #999")
        one_line_refusal(await m.games.move(ALICE, ROOM, "e5", 10**30), "no game")
        one_line_refusal(await m.games.press(ALICE, ROOM, "acc:" + "9" * 40), "not one of mine")
        one_line_refusal(await m.games.press(ALICE, ROOM, "bd:-3"), "not one of mine")
        one_line_refusal(await m.games.board(ALICE, ROOM, 999), "no game #999")
        one_line_refusal(await m.games.move(ALICE, ROOM, "e5"), "no active game")
        one_line_refusal(await m.challenges.challenge(ALICE, ROOM, "chess", BOB), "no game")
        one_line_refusal(
            await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, {"size": 10}), "size"
        )
        one_line_refusal(
            await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, {"colour": 1}), "option"
        )
        one_line_refusal(await m.challenges.challenge(ALICE, ROOM, "maphex", ALICE), "yourself")
        one_line_refusal(
            await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, first="me2"), "first"
        )
        one_line_refusal(await m.games.rules("chess"), "no game")


async def test_refusal_expired_challenge(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        assert (await m.challenges.challenge(ALICE, ROOM, "maphex", BOB)).ok
        clock.advance(hours=25)
        before = await m.store.get_challenge(1)
        one_line_refusal(await m.challenges.accept(BOB, ROOM, 1), "expired")
        one_line_refusal(await m.challenges.decline(BOB, ROOM, 1), "expired")
        assert await m.store.get_challenge(1) == before


async def test_refusal_double_accept(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        game_id, _ = await start_game(m, "maphex")
        one_line_refusal(await m.challenges.accept(BOB, ROOM, 1), "already accepted")
        bob = await m.players.player(BOB)
        assert [g.id for g in await m.store.games_of(bob.id, (GameStatus.ACTIVE,))] == [game_id]


async def test_refusal_double_accept_racing(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        assert (await m.challenges.challenge(ALICE, ROOM, "maphex", None)).ok
        a, b = await asyncio.gather(
            m.challenges.accept(BOB, ROOM, 1), m.challenges.accept(CAROL, ROOM, 1)
        )
        assert sorted([a.ok, b.ok]) == [False, True]
        loser = a if not a.ok else b
        one_line_refusal(loser, "already")


async def test_double_move_same_ply_is_applied_once_and_repeats_answered_privately(
    tmp_path: Path,
) -> None:
    async with session(tmp_path / "h.db") as m:
        game_id, _ = await start_game(m, "maphex")
        first, second = await asyncio.gather(
            m.games.move(BOB, ROOM, "5"), m.games.move(BOB, ROOM, " 5 ")
        )
        assert first.ok and not first.private
        # The repeat posts nothing new: a line for Bob alone (issue 24).
        quiet = f"#{game_id} Maphex, move 1: you already played 5."
        assert second.ok and second.private and second.text == quiet
        later = await m.games.move(BOB, ROOM, "5")
        assert later == second
        button = await m.games.press(BOB, ROOM, f"mv:{game_id}:0:5")
        assert button == second
        assert [mv.move for mv in await m.store.moves(game_id)] == ["5"]


async def test_racing_different_moves_one_applies_other_told_the_game_moved_on(
    tmp_path: Path,
) -> None:
    async with session(tmp_path / "h.db") as m:
        game_id, _ = await start_game(m, "maphex")
        a, b = await asyncio.gather(
            m.games.press(BOB, ROOM, f"mv:{game_id}:0:5"),
            m.games.press(BOB, ROOM, f"mv:{game_id}:0:7"),
        )
        assert a.ok and not b.ok
        one_line_refusal(b, "moved on")
        assert [mv.move for mv in await m.store.moves(game_id)] == ["5"]


async def test_two_processes_are_serialised_by_the_store(tmp_path: Path) -> None:
    """Two managers with their own connections (as two processes) race for the same ply."""
    path = tmp_path / "h.db"
    async with session(path) as one, session(path) as two:
        game_id, _ = await start_game(one, "maphex")
        assert (await two.games.board(BOB, ROOM, game_id)).ok  # two has the position cached
        assert (await one.games.move(BOB, ROOM, "5")).ok
        stale = await two.games.press(BOB, ROOM, f"mv:{game_id}:0:7")
        one_line_refusal(stale, "moved on")
        same = await two.games.press(BOB, ROOM, f"mv:{game_id}:0:5")
        assert same.ok and "played 5" in same.text
        # Drive the optimistic check itself: a write based on a stale row is refused.
        row = await two.store.get_game(game_id)
        assert row is not None
        assert await one.store.apply_move(row, "e5", 0, {}, 1, one.now()) is not None
        assert await two.store.apply_move(row, "e4", 0, {}, 1, two.now()) is None
        assert [mv.move for mv in await two.store.moves(game_id)] == ["5", "e5"]


async def test_authorisation_decline_cancel_resign(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        assert (await m.challenges.challenge(ALICE, ROOM, "maphex", BOB)).ok
        one_line_refusal(await m.challenges.decline(CAROL, ROOM, 1), "not addressed to you")
        one_line_refusal(await m.challenges.cancel(BOB, ROOM, 1), "not yours")
        one_line_refusal(await m.challenges.accept(CAROL, ROOM, 1), "for bob")
        assert (await m.challenges.decline(BOB, ROOM, 1)).ok
        one_line_refusal(await m.challenges.accept(BOB, ROOM, 1), "declined")
        assert (await m.challenges.challenge(ALICE, ROOM, "maphex", BOB)).ok
        assert (await m.challenges.cancel(ALICE, ROOM)).ok
        one_line_refusal(await m.challenges.accept(BOB, ROOM, 2), "cancelled")
        game_id, _ = await start_game(m, "maphex")
        before = await snapshot(m, game_id)
        one_line_refusal(await m.games.resign(CAROL, ROOM, game_id), "only its players")
        assert await snapshot(m, game_id) == before


async def test_at_most_ten_pending_challenges(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        # Ten different challenges (a repeat of a pending one is refused as such).
        for first in ("me", "them"):
            for days in (None, 1, 3, 7, 14):
                assert (
                    await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, {}, first, days)
                ).ok
        one_line_refusal(await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB), "10 pending")
        assert (await m.challenges.cancel(ALICE, ROOM, 3)).ok
        assert (await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB)).ok


async def test_commands_need_no_id_with_one_game_and_ask_with_two(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        first_id, _ = await start_game(m, "maphex")
        assert (await m.games.board(ALICE, ROOM)).game_id == first_id
        second_id, _ = await start_game(m, "maphex")
        one_line_refusal(await m.games.board(ALICE, ROOM), f"#{first_id}", f"#{second_id}")
        assert (await m.games.move(BOB, ROOM, "5", second_id)).ok
        listing = (await m.games.games(ALICE)).text.splitlines()
        assert listing[0].startswith(f"#{second_id}") and "your turn" in listing[0]


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("options", "{not json"),
        ("snapshot", '{"game": "maphex"}'),
        ("moves", "zz99"),
    ],
)
async def test_corrupt_row_is_reported_and_set_aside(
    tmp_path: Path, column: str, value: str
) -> None:
    path = tmp_path / "h.db"
    async with session(path) as m:
        bad_id, _ = await start_game(m, "maphex")
        good_id, _ = await start_game(m, "maphex")
        assert (await m.games.move(BOB, ROOM, "5", bad_id)).ok
    with sqlite3.connect(path) as raw:
        if column == "moves":
            raw.execute("UPDATE moves SET move = ? WHERE game_id = ?", (value, bad_id))
        else:
            raw.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, bad_id))
    async with session(path) as m:
        moves_before = await m.store.moves(bad_id)
        reply = await m.games.move(ALICE, ROOM, "e5", bad_id)
        one_line_refusal(reply, f"#{bad_id}", "set aside")
        row = await m.store.get_game(bad_id)  # as far as it can be read
        assert row is not None and row.status == "corrupt" and row.corrupt_reason
        assert await m.store.moves(bad_id) == moves_before
        one_line_refusal(await m.games.board(ALICE, ROOM, bad_id), "set aside")
        assert "damaged" in (await m.games.games(ALICE)).text
        # The other game is untouched and playable.
        assert (await m.games.move(BOB, ROOM, "5", good_id)).ok
        assert (await m.games.move(ALICE, ROOM, "e5", good_id)).ok


# -- buttons -------------------------------------------------------------------------------------


async def test_actions_are_compact_and_resolve_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    async with session(path) as m:
        made = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, first="me")
        assert [a.id for a in made.actions] == ["acc:1", "dec:1"]
    async with session(path) as fresh:  # a new process: nothing in memory
        accepted = await fresh.games.press(BOB, ROOM, "acc:1")
        assert accepted.ok and accepted.game_id == 1
        assert all(len(a.id.encode()) <= ACTION_ID_LIMIT for a in accepted.actions)
    async with session(path) as fresh:
        moved = await fresh.games.press(BOB, ROOM, "mv:1:0:5")
        assert moved.ok
        confirm = await fresh.games.press(BOB, ROOM, "rs:1")
        # Whose question it is and until when it may be answered (Bob is player 2).
        until = int((fresh.clock.now() + QUESTION_TTL).timestamp())
        assert [a.id for a in confirm.actions] == [f"rsy:1:2:{until}"]
    async with session(path) as fresh:
        assert (await fresh.games.press(BOB, ROOM, f"rsy:1:2:{until}")).ok
        for junk in ("", "zz:1", "acc:", "acc:x", "mv:1:x:e5", "mv:1", "a" * 100):
            one_line_refusal(await fresh.games.press(BOB, ROOM, junk), "button")


async def test_rules_come_as_text_without_markdown_marks(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        reply = await m.games.rules("Maphex")
        assert reply.ok and reply.text.startswith("Maphex\n\nA game by Néstor Romeral Andrés.")
        assert "**" not in reply.text and "`" not in reply.text and "\n#" not in reply.text
        segments = reply.body.segments
        assert Strong("Sides") in segments and Strong("target sub-board") in segments
        assert Code("a1") in segments
        # Long enough to need two Discord messages; every section fits and nothing is lost.
        parts = reply.sections(MESSAGE_LIMITS["discord"])
        assert len(parts) == 2 and all(len(str(p)) <= 2000 for p in parts)
        assert "\n\n".join(str(p) for p in parts) == reply.text
        assert reply.sections(MESSAGE_LIMITS["telegram"]) == (reply.body,)


async def test_pictures_come_with_alt_text_when_render_is_there(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "h.db")
    try:
        m = SessionManager(store, FakeClock(), pictures=True)
        _, accepted = await start_game(m, "maphex")
        assert accepted.image is not None and accepted.image.startswith(b"\x89PNG")
        assert accepted.alt
    finally:
        await store.close()


@pytest.mark.parametrize(("move", "applied"), [("7", False), ("5", True)])
async def test_other_process_moving_between_read_and_write(
    store_url: str, monkeypatch: pytest.MonkeyPatch, move: str, applied: bool
) -> None:
    """The store's optimistic check: process two read the game, process one moved, then two
    writes.  A different move is told the game moved on; the same move gets its answer.  (On
    SQLite and on PostgreSQL.)"""
    async with session(store_url) as one, session(store_url) as two:
        game_id, _ = await start_game(one, "maphex")
        write = two.store.apply_move
        raced: list[Reply] = []

        async def race_then_write(row: GameRow, *args: Any, **kwargs: Any) -> GameRow | None:
            raced.append(await one.games.move(BOB, ROOM, "5", row.id))
            return await write(row, *args, **kwargs)

        monkeypatch.setattr(two.store, "apply_move", race_then_write)
        reply = await two.games.move(BOB, ROOM, move, game_id)
        assert raced[0].ok
        if applied:
            assert reply.ok and "played 5" in reply.text
        else:
            one_line_refusal(reply, "moved on: another move was stored first")
        assert [mv.move for mv in await one.store.moves(game_id)] == ["5"]


async def test_a_stale_cache_is_checked_against_the_store_not_trusted(tmp_path: Path) -> None:
    """Process two cached the game; process one moved since.  Two's next move is judged
    against the stored game, so the right player's move goes through."""
    path = tmp_path / "h.db"
    async with session(path) as one, session(path) as two:
        game_id, _ = await start_game(one, "maphex")
        assert (await two.games.move(BOB, ROOM, "5", game_id)).ok  # two caches ply 1
        e5 = await one.games.move(ALICE, ROOM, "e5", game_id)
        assert e5.ok
        again = await two.games.move(ALICE, ROOM, "e5", game_id)  # a duplicate via process two
        assert again.ok and again.private and "you already played e5" in again.text
        assert (await two.games.move(BOB, ROOM, "d4", game_id)).ok
        assert [mv.move for mv in await one.store.moves(game_id)] == ["5", "e5", "d4"]


async def test_corrupt_challenge_row_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    async with session(path) as m:
        assert (await m.challenges.challenge(ALICE, ROOM, "maphex", BOB)).ok
        assert (await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, first="me")).ok
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE challenges SET options = '[1, 2' WHERE id = 1")
    async with session(path) as m:
        one_line_refusal(await m.challenges.accept(BOB, ROOM, 1), "Challenge 1", "set aside")
        challenge = await m.store.get_challenge(1)
        assert challenge is not None and challenge.status == "corrupt"
        assert (await m.challenges.accept(BOB, ROOM, 2)).ok


# inpHeXion 5x5 without pie: after these moves Black (Bob) can push a White disc into the gap
# that completes White's connection, a legal move that loses (inpHeXion rules, point 8a).
SELF_LOSS = (
    "c3, c3-d2, c3-b3, d2-d3, b3-b4, d3-e2, b4-a4, b3-c2, a4-a3, c3-c4, b3-b2, e2-e3, b2-c1, "
    "e3-e4, d2-d1, d2-e1 e1>b1, e2-e1"
).split(", ")


async def test_a_move_that_loses_is_only_played_once_confirmed(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as manager:
        gid, _ = await start_game(manager, "inphexion", size="5", pie="no")
        for move in SELF_LOSS:
            reply = await manager.games.move(await mover(manager, gid), ROOM, move, gid)
            assert reply.ok, reply.text
        before = await manager.store.get_game(gid)
        assert before is not None and before.status == "active"
        warned = await manager.games.move(BOB, ROOM, "a4-a5", gid)
        assert not warned.ok
        assert "Careful: a4-a5 loses" in warned.text and "alice (White) would win" in warned.text
        assert [a.id for a in warned.actions] == [f"mvy:{gid}:{before.ply}:a4-a5"]
        after_warning = await manager.store.get_game(gid)
        assert after_warning == before  # nothing was played
        done = await manager.games.press(BOB, ROOM, warned.actions[0].id)
        assert done.ok, done.text
        over = await manager.store.get_game(gid)
        assert over is not None and over.status == "finished" and over.winner == 0
        assert over.reason == "connection"
        # A double press changes nothing and is answered for Bob alone (issue 24).
        again = await manager.games.press(BOB, ROOM, warned.actions[0].id)
        assert again.ok and again.private and "you already played a4-a5" in again.text
        assert await manager.store.get_game(gid) == over


async def test_a_losing_move_ending_in_bang_is_played_at_once(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as manager:
        gid, _ = await start_game(manager, "inphexion", size="5", pie="no")
        for move in SELF_LOSS:
            played = await manager.games.move(await mover(manager, gid), ROOM, move, gid)
            assert played.ok, played.text
        # The manager takes no typed syntax: "!" is the typed commands' way to confirm.
        refused = await manager.games.move(BOB, ROOM, "a4-a5 !", gid)
        assert not refused.ok and "Illegal move" in refused.text
        reply = await execute(manager, BOB, ROOM, "a4-a5 !", lambda name: BOB)
        assert reply.ok, reply.text
        row = await manager.store.get_game(gid)
        assert row is not None and row.status == "finished" and row.winner == 0
