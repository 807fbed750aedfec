"""``review [#game]``: the moves that changed a game most, searched in the worker pool, with a
picture of the position; refused for a rated game between people that is still going."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.adapters.commands import COMMAND, execute
from bot.messages import Reply
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.sessions.thinker import Thinker
from bot.storage import SqliteStore
from tests.bot.session_kit import ALICE, BOB, ROOM, migrated, mover, start_game

#: Light misses its win at d7 (move 13) and Dark wins there.
BLUNDER = "d1 a7 d2 b7 d3 c7 d4 e7 d5 f7 d6 g7 g1 d7".split()


@pytest.fixture(scope="module")
def thinker() -> Iterator[Thinker]:
    """One worker pool for the module's reviews."""
    shared = Thinker(workers=1)
    yield shared
    shared.close(wait=True)


@asynccontextmanager
async def pictured(path: Path, thinker: Thinker) -> AsyncIterator[SessionManager]:
    """A manager with pictures on the SQLite file ``path``."""
    store = await SqliteStore.open(migrated(path))
    manager = SessionManager(
        store, FakeClock(), pictures=True, rng=random.Random(3), thinker=thinker
    )
    try:
        yield manager
    finally:
        await manager.bot_idle()
        await store.close()


async def play(m: SessionManager, gid: int, moves: list[str]) -> Reply:
    reply = Reply.refuse("no move")
    for move in moves:
        reply = await m.games.move(await mover(m, gid), ROOM, move, gid, confirm=True)
        assert reply.ok, reply.text
    return reply


async def test_a_finished_game_is_reviewed_with_the_better_move_and_a_picture(
    tmp_path: Path, thinker: Thinker
) -> None:
    async with pictured(tmp_path / "r.db", thinker) as m:
        gid, _ = await start_game(m, "pathagon")
        last = await play(m, gid, BLUNDER)
        assert "wins" in last.text
        reply = await execute(m, BOB, ROOM, f"review #{gid}", lambda _: None)
        assert reply.ok and reply.game_id == gid
        lines = reply.text.splitlines()
        assert lines[0] == f"#{gid} Pathagon, the moves that changed the game most:"
        assert (
            "Move 13: alice (Light) played g1; consider d7 (chance of winning 100 % with it, "
            "0 % after the move played)."
        ) in lines
        assert lines[-1] == "The picture shows the position before move 13."
        assert reply.image is not None and reply.image[:8] == b"\x89PNG\r\n\x1a\n"
        # The same review from the game's own chat without an id (their most recent game).
        again = await execute(m, ALICE, ROOM, "review", lambda _: None)
        assert again.text == reply.text


async def test_a_rated_game_in_progress_is_not_reviewed(tmp_path: Path, thinker: Thinker) -> None:
    async with pictured(tmp_path / "r.db", thinker) as m:
        gid, _ = await start_game(m, "pathagon")
        await play(m, gid, BLUNDER[:4])
        refused = await m.games.review(ALICE, ROOM, gid)
        assert not refused.ok and refused.image is None
        assert refused.text == (
            f"#{gid} is still going: a review is for finished games "
            "(or games against the bot and unrated games)."
        )
        row = await m.store.get_game(gid)
        assert row is not None and row.ply == 4  # the game is unchanged


async def test_an_unrated_game_in_progress_is_reviewed(tmp_path: Path, thinker: Thinker) -> None:
    async with pictured(tmp_path / "r.db", thinker) as m:
        made = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB, {}, "me", None, "no")
        assert made.ok and made.challenge_id is not None
        gid = (await m.challenges.accept(BOB, ROOM, made.challenge_id)).game_id
        assert gid is not None
        await play(m, gid, BLUNDER[:12])
        reply = await m.games.review(ALICE, ROOM, gid)
        assert reply.ok and reply.text.startswith(f"#{gid} Pathagon")
        # Dark's g7 (move 12) leaves Light its win at d7: named with the move to consider.
        assert "Move 12: bob (Dark) played g7; consider d7" in reply.text


def test_review_is_one_command_of_the_registry() -> None:
    command = COMMAND["review"]
    assert command.usage == "review [#game]"
    assert [p.name for p in command.params] == ["game"]


async def test_a_review_of_no_such_game_is_refused_in_one_line(
    tmp_path: Path, thinker: Thinker
) -> None:
    async with pictured(tmp_path / "r.db", thinker) as m:
        refused = await m.games.review(ALICE, ROOM, 999)
        assert not refused.ok and "\n" not in refused.text and "999" in refused.text
        typed = await execute(m, ALICE, ROOM, "review #abc", lambda _: None)
        assert not typed.ok and "\n" not in typed.text
