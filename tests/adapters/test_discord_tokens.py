"""The interaction tokens the Discord adapter keeps to edit its messages (issue 48: a process
that stays small): only each message's followup webhook, not the interaction with its payload,
and at most ``KEPT_TOKENS`` of them, the newest (an older message is edited through its
channel, as after the token's 15 minutes: tests/adapters/test_discord_reach.py)."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.adapters.discord import adapter
from tests.adapters.discord_kit import ALICE, BOB, DEADLINE, running
from tests.fakes.discord_fake import FakeDiscord

FRIENDS = 3_100


async def test_only_the_newest_tokens_are_kept(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(adapter, "KEPT_TOKENS", 2)
    async with running(fake, tmp_path / "h.db") as run:
        fake.private_channel(FRIENDS, [ALICE, BOB])
        cards = [
            await run.answer(ALICE, "challenge", {"game": game, "opponent": BOB}, channel=FRIENDS)
            for game in ("maphex", "pathagon", "fixation")
        ]
        kept = run.bot._tokens  # (remembered just after the answer is sent)
        newest = [cards[1].id, cards[2].id]
        await fake.wait_until(lambda: list(kept) == newest, timeout=DEADLINE)
        assert all(isinstance(webhook, discord.Webhook) for webhook, _ in kept.values())
