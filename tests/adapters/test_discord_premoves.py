"""Conditional moves on Discord (issue 46), through the real bot, the real outbox and the
fake Discord: ``/premove`` from the command registry, answered to its owner alone; the
opponent's move into the line answered with one board showing both moves, nothing else posted
in the channel; an illegal line refused with the rule."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.adapters.discord_kit import ALICE, BOB, CHANNEL, DEADLINE, Run, button, running
from tests.fakes.discord_fake import FakeDiscord


async def _outbox_idle(run: Run) -> None:
    """Wait until nothing due is left undelivered (condition polled, no fixed wait)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while await run.manager.store.due_notifications("discord", run.manager.now()):
        assert loop.time() < deadline, "notifications still undelivered"
        await asyncio.sleep(0.01)


async def test_premove_is_private_and_plays_itself_with_one_board(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        card = await run.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
        await run.click(BOB, card, "Accept")
        gid = int(button(card, "Board").split(":")[1])
        owner = await run.to_move(gid)
        other = BOB if owner == ALICE else ALICE
        await run.answer(owner, "move", {"game": str(gid), "move": "a1"})
        await _outbox_idle(run)

        refused = await run.answer(owner, "premove", {"game": str(gid), "line": "a1 => b1"})
        assert refused.ephemeral and "move 1 of the line" in refused.content
        said = await run.answer(owner, "premove", {"game": str(gid), "line": "b1 => c1; b2 => c2"})
        assert said.ephemeral and "Line 1 prepared" in said.content, said.content
        before = len(fake.messages_in(CHANNEL))

        board = await run.answer(other, "move", {"game": str(gid), "move": "b1"})
        assert not board.ephemeral
        assert "played `b1`" in board.content or "played b1" in board.content, board.content
        assert "replied" in board.content and "(prepared)" in board.content
        assert board.pinged_users == {other}  # the opponent is to move again
        await _outbox_idle(run)
        new = fake.messages_in(CHANNEL)[before:]
        # The answer is the one board (what else is new in the channel are the ephemerals).
        assert [m for m in new if not m.ephemeral] == [board]
        assert await run.to_move(gid) == other
        # Everything said about the line before it was played was for its owner alone.
        assert all(m.ephemeral for m in fake.messages_in(CHANNEL) if "if b" in m.content)


async def test_the_line_is_autocompleted_with_legal_moves_along_it(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running(fake, tmp_path / "h.db") as run:
        card = await run.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
        await run.click(BOB, card, "Accept")
        gid = int(button(card, "Board").split(":")[1])
        owner = await run.to_move(gid)
        other = BOB if owner == ALICE else ALICE
        await run.answer(owner, "move", {"game": str(gid), "move": "a1"})

        async def offered(user: int, typed: str) -> list[str]:
            choices = await run.autocomplete(
                user, "premove", {"game": str(gid), "line": typed}, "line"
            )
            return [str(c["value"]) for c in choices]

        # The opponent's first move: a1 is taken, so not offered.
        first = await offered(owner, "a")
        assert first and all(v.startswith("a") for v in first) and "a1" not in first
        # The reply, computed after the opponent's b1 (b1 no longer offered).
        replies = await offered(owner, "b1 => b")
        assert "b1 => b2" in replies and "b1 => b1" not in replies
        # The next pair, after both; typed moves are given back as played ("B1" -> "b1").
        assert "b1 => c1; c2" in await offered(owner, "B1 => c1; c")
        # An illegal line so far, or the player to move, gets nothing.
        assert await offered(owner, "a1 => b") == []
        assert await offered(other, "b") == []
