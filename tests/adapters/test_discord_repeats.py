"""Repeats are quiet on Discord (issue 24): a move sent again after the store applied it, and
a board asked for by someone not playing, are answered ephemerally ("only the user receiving
the message can see it": the EPHEMERAL message flag, Discord's Receiving and Responding) and
ping no one; the channel gets nothing new."""

from __future__ import annotations

from pathlib import Path

import engines
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DEADLINE,
    button,
    labels,
    running,
)
from tests.fakes.discord_fake import FakeDiscord


def _public(fake: FakeDiscord) -> list[int]:
    return [m.id for m in fake.messages_in(CHANNEL) if not m.ephemeral]


async def test_a_repeated_move_and_a_spectators_board_are_ephemeral(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        card = await run.answer(
            ALICE, "challenge", {"game": "pathagon", "opponent": BOB, "first": "me"}
        )
        await run.click(BOB, card, "Accept")
        await fake.wait_until(lambda: "Board" in labels(card), timeout=DEADLINE)
        gid = int(button(card, "Board").split(":")[1])
        move = engines.new("pathagon").legal_moves()[0]
        board = await run.answer(ALICE, "move", {"game": str(gid), "move": move})
        assert not board.ephemeral
        public = _public(fake)

        again = await run.answer(ALICE, "move", {"game": str(gid), "move": move})
        assert again.ephemeral and again.pinged_users == set()
        assert again.content.endswith(f"#{gid} Pathagon, move 1: you already played `{move}`.")
        looked = await run.answer(CAROL, "board", {"game": str(gid)})
        assert looked.ephemeral and looked.pinged_users == set() and labels(looked) == []
        mine = await run.answer(BOB, "board", {"game": str(gid)})
        assert not mine.ephemeral
        assert _public(fake) == [*public, mine.id]
