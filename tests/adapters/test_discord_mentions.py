"""Every message the Discord bot sends pings exactly whom it means to, each once: Discord refuses
an id listed twice in ``allowed_mentions`` (400, 50035 ``SET_TYPE_ALREADY_CONTAINS_VALUE``;
discord/discord-api-docs#5484), which made a rated challenge to a named player fail on real
Discord (issue 25). The fake refuses it too, so these scenarios would fail if it came back."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
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
    running,
)
from tests.fakes.base import Call, WaitTimeout
from tests.fakes.discord_fake import FakeDiscord, StoredMessage

_MENTION = re.compile(r"<@!?(\d+)>")


def _bodies(fake: FakeDiscord) -> Iterator[tuple[Call, dict[str, Any]]]:
    """Every message body the bot sent: posts, edits, interaction responses and followups."""
    for call in fake.calls:
        body = call.data.get("body") if isinstance(call.data, dict) else None
        if not isinstance(body, dict):
            continue
        if call.method.endswith("/callback"):
            data = body.get("data")
            if isinstance(data, dict):
                yield call, data
        elif call.method.startswith(("POST", "PATCH")) and "/commands" not in call.method:
            yield call, body


def check_every_message(fake: FakeDiscord) -> int:
    """Assert that every message body the bot sent was accepted, lists each allowed user once,
    and allows no @everyone, role or blanket user pings. Returns how many bodies allowed
    someone a ping."""
    checked = 0
    for call, body in _bodies(fake):
        status = call.response["status"] if call.response else 0
        assert status < 400, f"{call.method} refused: {call.response}"
        allowed = body.get("allowed_mentions")
        if allowed is None:
            continue
        users = [str(u) for u in allowed.get("users", [])]
        checked += bool(users)
        assert len(users) == len(set(users)), f"{call.method}: duplicate ids {users}"
        assert allowed.get("parse", []) == [], f"{call.method}: parse {allowed.get('parse')}"
        assert not allowed.get("roles"), f"{call.method}: roles {allowed.get('roles')}"
    return checked


def pinged_in_text(message: StoredMessage) -> set[int]:
    """The users a message's text names with a mention (a ping needs both the name and the
    allowance)."""
    return {int(u) for u in _MENTION.findall(message.content)}


def notes(fake: FakeDiscord) -> list[StoredMessage]:
    """The outbox's messages (not interaction answers), anywhere."""
    return [m for m in fake.messages.values() if m.interaction_id is None and not m.deleted]


def _server_without_bot(fake: FakeDiscord) -> int:
    """A server the app is not installed to, where Alice and Bob use their user installs."""
    elsewhere = fake.guild(5_000, "Elsewhere", with_bot=False)
    lounge = fake.channel(elsewhere, 5_001, "lounge")
    for uid, name in ((ALICE, "alice"), (BOB, "bob")):
        fake.member(elsewhere, uid, name)
    return lounge.id


@pytest.mark.parametrize("where", ["server", "bot_dm", "group_dm", "server_without_bot"])
async def test_a_rated_challenge_to_a_named_player_goes_through(
    fake: FakeDiscord, tmp_path: Path, where: str
) -> None:
    """The rated card names its opponent twice: it goes through, pinging the opponent once,
    in a server channel, the bot's DM, a group DM between friends and a server without the
    bot (user installs); the accepted board pings only the player to move; the outbox's
    notices ping their recipient."""
    channel: Any = {
        "server": lambda: CHANNEL,
        "bot_dm": lambda: fake.dm_channel(ALICE),
        "group_dm": lambda: fake.private_channel(3_000, [ALICE, BOB], name="friends"),
        "server_without_bot": lambda: _server_without_bot(fake),
    }[where]()
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        options = {"game": "pathagon", "opponent": BOB, "rated": True}
        card = await run.answer(ALICE, "challenge", options, channel=channel)
        assert not card.ephemeral and "Accept" in str(card.components)
        assert card.pinged_users == {BOB}
        await run.click(BOB, card, "Accept")
        await fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)
        gid = int(button(card, "Board").split(":")[1])
        first = await run.to_move(gid)
        board = await run.answer(first, "move", {"game": str(gid), "move": "a1"}, channel=channel)
        second = await run.to_move(gid)
        assert second != first and board.pinged_users == {second}
        await _drain(run)
        for note in notes(fake):
            # A notice pings its one recipient, and only where it names them.
            assert len(note.pinged_users) <= 1, note.content
            assert note.pinged_users <= pinged_in_text(note)
        assert check_every_message(fake) >= 2


async def test_game_over_and_the_rematch_card_ping_each_player_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A rated game resigned, then a rematch: every message on the way names its players once
    in ``allowed_mentions``, whatever the text repeats."""
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        card = await run.answer(
            ALICE, "challenge", {"game": "maphex", "opponent": BOB, "rated": True}
        )
        await run.click(BOB, card, "Accept")
        await fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)
        gid = int(button(card, "Board").split(":")[1])
        asked = await run.answer(ALICE, "resign", {"game": str(gid)})
        done = await run.click(ALICE, asked, "Yes, resign")
        over = await fake.original(done, timeout=DEADLINE)
        assert "resign" in over.content and over.pinged_users <= {BOB}
        rematch = await run.click(BOB, over, "Rematch")
        again = await fake.original(rematch, timeout=DEADLINE)
        assert again.pinged_users <= {ALICE}
        await _drain(run)
        assert check_every_message(fake) >= 3


async def _drain(run: Run) -> None:
    """Wait until the outbox has delivered everything due now."""
    store = run.manager.store
    for _ in range(100):
        if not await store.due_notifications("discord", run.manager.clock.now()):
            return
        with contextlib.suppress(WaitTimeout):  # the outbox polls: wait for its next call
            await run.fake.wait_for(lambda c: True, after=len(run.fake.calls), timeout=0.5)
    left = await store.due_notifications("discord", run.manager.clock.now())
    raise AssertionError(f"the outbox did not drain: {left}")
