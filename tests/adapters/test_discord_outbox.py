"""Notifications on Discord through the outbox: a message in the game's channel that pings only
its recipient, direct messages for those who want them, and the fallback to the channel when a
direct message is refused (403, code 50007)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CHANNEL,
    DEADLINE,
    Run,
    button,
    fake_discord,
    labels,
    running,
)
from tests.fakes.discord_fake import FakeDiscord, StoredMessage


@pytest.fixture
async def fake() -> Any:
    async with fake_discord() as server:
        yield server


def notes_in(fake: FakeDiscord, channel: int) -> list[StoredMessage]:
    """The bot's channel messages that are not interaction answers (the outbox's)."""
    return [m for m in fake.messages_in(channel) if m.interaction_id is None]


async def test_your_turn_in_the_channel_pings_only_the_player_to_move(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        for uid in (ALICE, BOB):
            quiet = await run.answer(uid, "settings", {"setting": "dm", "value": "off"})
            assert quiet.ephemeral
        card = await run.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
        challenge = await fake.wait_message(
            lambda m: m.interaction_id is None and "challenges you" in m.content,
            timeout=DEADLINE,
        )
        assert challenge.channel_id == CHANNEL and challenge.pinged_users == {BOB}
        assert labels(challenge) == ["Accept", "Decline"]
        await run.click(BOB, card, "Accept")
        gid = int(button(card, "Board").split(":")[1])
        first = await run.to_move(gid)
        second = BOB if first == ALICE else ALICE
        board = await run.answer(first, "move", {"game": str(gid), "move": "a1"})
        assert not board.ephemeral
        turn = await fake.wait_message(
            lambda m: (
                m.interaction_id is None and "Your turn" in m.content and "played" in m.content
            ),
            timeout=DEADLINE,
        )
        assert turn.channel_id == CHANNEL
        assert turn.pinged_users == {second} and not turn.pinged_everyone
        # Named first (the text names the mover), pinged alone.
        assert turn.content.startswith(f"<@{second}>: Your turn in #{gid}")
        assert f"<@{first}> played `a1`" in turn.content


async def test_direct_messages_and_the_fallback_when_refused(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    fake.close_dms(BOB)
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB})
        # Bob wants direct messages (the default) but refuses the bot's: the channel, once.
        fallback = await fake.wait_message(
            lambda m: m.interaction_id is None and "challenges you" in m.content,
            timeout=DEADLINE,
        )
        assert fallback.channel_id == CHANNEL and fallback.pinged_users == {BOB}
        refused = [
            c
            for c in fake.calls_to("POST /channels/{channel_id}/messages")
            if c.response["status"] == 403
        ]
        assert len(refused) == 1 and refused[0].response["body"]["code"] == 50007
        assert fake.messages_in(fake.dm_channel(BOB)) == []
        # Alice takes direct messages: Bob's decline reaches her privately.
        await _decline_latest(run)
        dm = await fake.wait_message(
            lambda m: m.channel_id == fake.dm_channel(ALICE).id, timeout=DEADLINE
        )
        # A direct message notifies by itself; the name in it pings nobody.
        assert dm.content.startswith(f"<@{BOB}> declined") and dm.pinged_users == set()
        assert len(notes_in(fake, CHANNEL)) == 1


async def _decline_latest(run: Run) -> None:
    answer = await run.answer(BOB, "games", {})
    assert answer.ephemeral
    card = next(m for m in run.fake.messages_in(CHANNEL) if "Decline" in labels(m))
    await run.click(BOB, card, "Decline")
