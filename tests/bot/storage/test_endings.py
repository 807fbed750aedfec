"""How a game ended is a :class:`~bot.core.ending.Termination` with one spelling each, stored as
its value: rows of earlier versions keep loading (an old spelling is read into its member, a
reason typed into an imported record into the ending it amounts to, the row left as it is), and
every reason the engines give is a member."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import engines
from bot.core.ending import Termination
from bot.core.status import ChallengeStatus, GameResult, GameStatus
from bot.sessions import records
from bot.storage import NewGame, PlayerRow
from bot.storage.sql import SqlStore
from tests.bot.session_kit import ALICE, CAROL, ROOM, finishing_moves, session
from tests.bot.storage.raw import raw

NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


async def _game(store: SqlStore, **stored: Any) -> int:
    a: PlayerRow = await store.player("test", "1", "alice", NOW)
    b: PlayerRow = await store.player("test", "2", "bob", NOW)
    row = await store.create_game(
        NewGame("maphex", {"size": 5}, a.id, b.id, "test", "room", 0, {"ply": 0}), NOW
    )
    if stored:
        columns = ", ".join(f"{name} = ?" for name in stored)
        await raw(store, f"UPDATE games SET {columns} WHERE id = ?", *stored.values(), row.id)
    return row.id


async def test_an_ending_is_stored_as_its_one_spelling(store: SqlStore) -> None:
    gid = await _game(store)
    row = await store.get_game(gid)
    assert row is not None
    over = await store.finish_game(
        row, GameStatus.FINISHED, 1, GameResult.WIN, Termination.TIMEOUT, NOW
    )
    assert over is not None and over.reason is Termination.TIMEOUT
    assert await raw(store, "SELECT reason FROM games WHERE id = ?", gid) == [("timeout",)]


async def test_a_row_holding_the_old_spelling_reads_as_the_one_member(store: SqlStore) -> None:
    gid = await _game(store, status="finished", result="win", winner=0, reason="time")
    row = await store.get_game(gid)
    assert row is not None
    assert (row.status, row.reason) == (GameStatus.FINISHED, Termination.TIMEOUT)
    assert row.reason is Termination.TIMEOUT and row.outcome == engines.Outcome(
        0, Termination.TIMEOUT
    )
    # Read, not rewritten.
    assert await raw(store, "SELECT status, reason FROM games WHERE id = ?", gid) == [
        ("finished", "time")
    ]


@pytest.mark.parametrize(
    ("status", "result", "reads_as"),
    [
        ("finished", "win", Termination.WIN),
        ("finished", "draw", Termination.DRAW),
        ("aborted", "none", Termination.ABORTED),
    ],
)
async def test_a_reason_typed_into_an_old_import_reads_as_what_it_amounts_to(
    store: SqlStore, status: str, result: str, reads_as: Termination
) -> None:
    gid = await _game(store, status=status, result=result, reason="the cat walked on it")
    row = await store.get_game(gid)
    assert row is not None
    assert (row.status, row.reason) == (GameStatus(status), reads_as)
    assert await raw(store, "SELECT status, reason FROM games WHERE id = ?", gid) == [
        (status, "the cat walked on it")
    ]


async def test_statuses_read_back_as_members(store: SqlStore) -> None:
    gid = await _game(store, status="aborted", result="none", reason="no first move")
    row = await store.get_game(gid)
    assert row is not None
    assert row.status is GameStatus.ABORTED and row.result is GameResult.NONE
    assert row.reason is Termination.NO_FIRST_MOVE and row.outcome == engines.Outcome(
        None, "aborted"
    )
    assert ChallengeStatus("expired") is ChallengeStatus.EXPIRED


def test_old_spellings_and_other_cases_read_into_one_member() -> None:
    assert Termination("Time") is Termination.TIMEOUT
    assert Termination(" No  first move ") is Termination.NO_FIRST_MOVE
    with pytest.raises(ValueError):
        Termination("the cat walked on it")
    assert len({member.value for member in Termination}) == len(Termination)


def test_every_reason_the_engines_give_is_an_ending_by_the_rules() -> None:
    # The engines give a member, never a text (Outcome.termination is typed): each game lists
    # the endings its rules have, and a finished game ends by one of them.
    given = set().union(*(game.terminations for game in engines.GAMES.values()))
    assert {"connection", "one group", "home row", "no legal move"} <= given
    assert all(termination.by_the_rules for termination in given)
    for name, game in engines.GAMES.items():
        *_, last = engines.replay(name, finishing_moves(name))
        assert last.outcome is not None and last.outcome.termination in game.terminations


async def test_an_import_stating_no_known_reason_stores_the_rules_ending(tmp_path: Path) -> None:
    moves = finishing_moves("maphex")
    end = list(engines.replay("maphex", moves))[-1].outcome
    assert end is not None
    code = {0: "1-0", 1: "0-1", None: "1/2-1/2"}[end.winner]
    text = "Game: maphex\nRed: alice\nBlue: carol\nResult: {}\n\n" + "".join(
        f"{n}. {mv}\n" for n, mv in enumerate(moves, 1)
    )
    async with session(tmp_path / "h.db") as m:
        stated = await m.games.import_record(ALICE, ROOM, text.format(f"{code} (knockout)"), CAROL)
        unstated = await m.games.import_record(ALICE, ROOM, text.format(code), CAROL)
        # An abort is stated for moves that do not end the game.
        opening = "Game: maphex\nResult: aborted (the cat walked on it)\n\n1. 5\n"
        aborted = await m.games.import_record(ALICE, ROOM, opening, CAROL)
        rows = [await m.store.get_game(r.game_id or 0) for r in (stated, unstated, aborted)]
    assert [None if r is None else r.reason for r in rows] == [
        end.termination,
        Termination.WIN if end.winner is not None else Termination.DRAW,
        Termination.ABORTED,
    ]
    assert records.parse(text.format(f"{code} (time)")).result is not None
