"""Notifications on Discord through the outbox (issue 24): the board answering a move is the
channel's turn notice, pinging only the player to move, and nothing else is posted there;
direct messages only for those who turned them on, each with its nonce; a refused one (403,
code 50007) is remembered and never repeated in the channel."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from bot.adapters.discord import DiscordSender
from bot.adapters.discord.format import PLATFORM
from bot.core.notification import Kind, Notification, Recipient
from bot.messages import Chat, Text
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CHANNEL,
    DEADLINE,
    Run,
    button,
    labels,
    running,
)
from tests.fakes.discord_fake import FakeDiscord, StoredMessage


def notes_in(fake: FakeDiscord, channel: int) -> list[StoredMessage]:
    """The bot's channel messages that are not interaction answers (the outbox's)."""
    return [m for m in fake.messages_in(channel) if m.interaction_id is None]


async def _outbox_idle(run: Run) -> None:
    """Wait until nothing due is left undelivered (condition polled, no fixed wait)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while await run.manager.store.due_notifications("discord", run.manager.now()):
        assert loop.time() < deadline, "notifications still undelivered"
        await asyncio.sleep(0.01)


async def test_the_board_is_the_turn_notice_and_pings_only_the_player_to_move(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        card = await run.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
        assert card.pinged_users == {BOB}  # the card asks Bob in the channel
        await run.click(BOB, card, "Accept")
        gid = int(button(card, "Board").split(":")[1])
        for _ in range(2):
            first = await run.to_move(gid)
            second = BOB if first == ALICE else ALICE
            move = "a1" if first == ALICE else "g7"
            board = await run.answer(first, "move", {"game": str(gid), "move": move})
            assert not board.ephemeral
            assert board.pinged_users == {second} and not board.pinged_everyone
            await _outbox_idle(run)
        # Direct messages are opt-in: nothing but the answers in the channel, no DM at all.
        assert notes_in(fake, CHANNEL) == []
        assert fake.calls_to("POST /channels/{channel_id}/messages") == []


async def test_direct_messages_opt_in_and_a_refusal_is_remembered(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    fake.close_dms(BOB)
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        for uid in (ALICE, BOB):
            on = await run.answer(uid, "settings", {"setting": "dm", "value": "on"})
            assert on.ephemeral
        await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB})
        await _outbox_idle(run)
        refused = [
            c
            for c in fake.calls_to("POST /channels/{channel_id}/messages")
            if c.response["status"] == 403
        ]
        assert len(refused) == 1 and refused[0].response["body"]["code"] == 50007
        assert refused[0].data["body"]["nonce"].startswith("hexhall-")
        assert refused[0].data["body"]["enforce_nonce"] is True
        # Not repeated in the channel: the card there already asks Bob.
        assert notes_in(fake, CHANNEL) == []
        # Alice takes direct messages: Bob's decline reaches her privately.
        await _decline_latest(run)
        dm = await fake.wait_message(
            lambda m: m.channel_id == fake.dm_channel(ALICE).id, timeout=DEADLINE
        )
        # A direct message notifies by itself; the name in it pings nobody.
        assert dm.content.startswith(f"<@{BOB}> declined") and dm.pinged_users == set()
        # Bob's refusal is remembered: a new challenge tries no direct message to him.
        await run.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
        await _outbox_idle(run)
        posts = fake.calls_to("POST /channels/{channel_id}/messages")
        assert [c.response["status"] for c in posts] == [403, 200]  # the refusal, Alice's DM
        assert notes_in(fake, CHANNEL) == []


async def _decline_latest(run: Run) -> None:
    answer = await run.answer(BOB, "games", {})
    assert answer.ephemeral
    card = next(m for m in run.fake.messages_in(CHANNEL) if "Decline" in labels(m))
    await run.click(BOB, card, "Decline")


async def test_a_notification_sent_again_makes_no_second_message(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The resend of a notification after a crash (delivered, killed before it was marked
    sent) carries the same nonce with ``enforce_nonce``: Discord returns the message already
    made and creates none (Create Message, ``enforce_nonce``)."""
    async with running(fake, tmp_path / "h.db") as run:
        sender = DiscordSender(run.bot, run.manager.recaps())
        bob = Recipient(PLATFORM, str(BOB), "bob", None)
        note = Notification(
            kind=Kind.REMINDER,
            recipient=bob,
            text=Text.of(bob.mention(), ", your clock runs in #7."),
            deliver_after=datetime.now(UTC),
            chat=Chat(PLATFORM, str(CHANNEL)),
            direct=False,
            id=4242,
        )
        await sender.send(note)
        await sender.send(note)  # the resend
        posts = fake.calls_to("POST /channels/{channel_id}/messages")
        assert [c.data["body"]["nonce"] for c in posts] == ["hexhall-4242"] * 2
        assert [c.response["status"] for c in posts] == [200, 200]
        assert posts[0].response["body"]["id"] == posts[1].response["body"]["id"]
        assert len(notes_in(fake, CHANNEL)) == 1
