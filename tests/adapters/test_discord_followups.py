"""An interaction authorised only by a user install allows 5 followup messages; Discord refuses
the 6th with 400, code 40094 "This interaction has hit the maximum number of follow up
messages" (discord/discord-api-docs#6958; the fake refuses it the same way).  The adapter never
sends it: an answer whose sections would need more followups puts the rest into the last one
allowed, as an attached text file.  Where the app is installed to the server, every section is
a message of its own, as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.args import GameRef
from bot.adapters.commands import REGISTRY, Command
from bot.adapters.discord.followups import MORE_FILE, USER_INSTALL_FOLLOWUPS
from bot.adapters.typed import game_id_only
from bot.messages import Chat, Reply, Text, User
from bot.sessions.manager import SessionManager
from tests.adapters.discord_kit import ALICE, BOB, CHANNEL, DEADLINE, running
from tests.fakes.discord_fake import FakeDiscord

FRIENDS = 3_000
FOLLOWUP = "POST /webhooks/{webhook_id}/{webhook_token}"
#: Paragraphs of the long answer, each near a whole Discord message (2 000 characters).
PARAGRAPHS = [f"Part {i}: " + "x" * 1_900 for i in range(1, 11)]


async def _long(manager: SessionManager, user: User, chat: Chat, args: GameRef) -> Reply:
    return Reply(Text.of("\n\n".join(PARAGRAPHS)))


LONG = Command("long", "A long answer", "long", (), GameRef, _long, game_id_only("long"))


def _answer(fake: FakeDiscord, record_id: int) -> list[str]:
    """Everything the interaction showed: its messages' text, then its attached files'."""
    record = fake.interactions[record_id]
    unique = {m.id: m for m in (record.original, *record.followups) if m is not None}
    texts = [m.content for m in unique.values()]
    files = [raw.decode() for m in unique.values() for raw in m.files.values()]
    return texts + files


@pytest.mark.parametrize("defer_after", [1.5, 0.0])
async def test_a_user_install_interaction_never_sends_a_sixth_followup(
    fake: FakeDiscord, tmp_path: Path, defer_after: float
) -> None:
    fake.private_channel(FRIENDS, [ALICE, BOB])
    registry = (*REGISTRY, LONG)
    async with running(fake, tmp_path / "h.db", registry=registry, defer_after=defer_after) as run:
        record = await run.slash(ALICE, "long", {}, channel=FRIENDS)
        await fake.wait_until(
            lambda: any(MORE_FILE in m.files for m in record.followups), timeout=DEADLINE
        )
        assert record.user_install_only
        assert len(record.followups) == USER_INSTALL_FOLLOWUPS
        assert all(c.response["status"] < 400 for c in fake.calls_to(FOLLOWUP))
        last = record.followups[-1]
        assert "attached file" in last.content and list(last.files) == [MORE_FILE]
        # Nothing lost: every part is shown, in a message or in the file.
        shown = "\n".join(_answer(fake, record.id))
        assert all(part in shown for part in PARAGRAPHS)


async def test_where_the_app_is_installed_every_section_is_a_message(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running(fake, tmp_path / "h.db", registry=(*REGISTRY, LONG)) as run:
        record = await run.slash(ALICE, "long", {}, channel=CHANNEL)
        await fake.wait_until(lambda: len(record.followups) == 9, timeout=DEADLINE)
        assert not record.user_install_only
        assert [m.content for m in record.followups] == PARAGRAPHS[1:]
        assert not any(m.files for m in record.followups)
