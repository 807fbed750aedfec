"""Leaving a tournament on Discord asks first, privately (issue 45): the sign-up card's Leave
and a typed ``/tournament action:leave`` answer the presser alone with "Really leave?" and a
"Yes, leave" button; nothing public changes until that yes, which only the asker can press
while it lasts, and which has one effect.

Discord facts relied on: an ephemeral message (flag 64) is shown "only to the user that
performed the interaction" (InteractionResponseFlags.EPHEMERAL,
https://www.mintlify.com/discord/discord-interactions-js/api/interaction-response-flags), so
nobody else can press its button (the fake refuses such a press with
:class:`ImpossibleInteraction`); a component's interaction may be answered with callback type
7, UPDATE_MESSAGE: "for components, edit the message the component was attached to"
(https://pub.dev/documentation/discord_interactions/latest/discord_interactions/InteractionCallbackType.html),
which here clears the question's button; a followup without the ephemeral flag is a public
message in the channel (as the preview's Play it already relies on)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.sessions.clock import FakeClock
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DEADLINE,
    Run,
    button,
    fake_discord,
    labels,
    running,
)
from tests.fakes.discord_fake import (
    FakeDiscord,
    ImpossibleInteraction,
    ResponseKind,
    StoredMessage,
)


async def _entrants(run: Run) -> dict[str, bool]:
    """Tournament 1's entrants by name, each with whether they are withdrawn."""
    out = {}
    for e in await run.manager.store.entrants(1):
        player = await run.manager.store.get_player(e.player_id)
        assert player is not None
        out[player.name] = e.withdrawn_at is not None
    return out


async def _open_with_three(run: Run) -> StoredMessage:
    """Alice opens tournament 1 here; Bob and Carol join by the card: the card."""
    card = await run.answer(ALICE, "tournament new", {"game": "pathagon", "days": "1"})
    for player in (BOB, CAROL):
        await run.click(player, card, "Join")
    assert f"<@{CAROL}> joined" in card.content
    return card


async def _drained(run: Run) -> None:
    """Wait until the outbox has delivered every due notification."""
    store, loop = run.manager.store, asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while await store.due_notifications("discord", run.manager.clock.now()):
        assert loop.time() < deadline, "the outbox did not drain"
        await asyncio.sleep(0.05)


def _public(fake: FakeDiscord) -> list[StoredMessage]:
    return [m for m in fake.messages_in(CHANNEL) if not m.ephemeral]


async def test_leave_on_the_card_asks_privately_and_yes_edits_the_card(tmp_path: Path) -> None:
    async with fake_discord() as fake, running(fake, tmp_path / "t.db", outbox=True) as run:
        card = await _open_with_three(run)
        edits, public = card.edits, len(_public(fake))
        ask = await run.click(BOB, card, "Leave")
        question = await fake.original(ask, timeout=DEADLINE)
        assert question.ephemeral and "Really leave" in question.content
        assert labels(question) == ["Yes, leave"]
        # Nothing public changed: the card as it was, no new message, Bob still in.
        assert card.edits == edits and f"<@{BOB}>" in card.content
        assert len(_public(fake)) == public
        assert await _entrants(run) == {"alice": False, "bob": False, "carol": False}
        # Bob's question is his alone: Discord shows it to nobody else.
        with pytest.raises(ImpossibleInteraction):
            await fake.click(CAROL, question, button(question, "Yes, leave"))
        yes_id = button(question, "Yes, leave")
        yes = await run.click(BOB, question, "Yes, leave")
        response = await fake.response(yes, timeout=DEADLINE)
        assert response.type in (
            ResponseKind.UPDATE_MESSAGE,
            ResponseKind.DEFERRED_UPDATE_MESSAGE,
        )
        await fake.wait_until(lambda: labels(question) == [], timeout=DEADLINE)
        assert question.ephemeral and f"<@{BOB}> left" in question.content
        # The card shows the new list; nothing else was posted, nobody pinged.
        await fake.wait_until(lambda: "2 players now" in card.content, timeout=DEADLINE)
        assert labels(card) == ["Join", "Leave"]
        assert await _entrants(run) == {"alice": False, "carol": False}
        await _drained(run)
        assert len(_public(fake)) == public
        # The question's button is gone: a second tap finds nothing to press.
        with pytest.raises(ImpossibleInteraction):
            await fake.click(BOB, question, yes_id)


async def test_a_typed_leave_asks_privately_and_yes_withdraws_once(tmp_path: Path) -> None:
    async with fake_discord() as fake, running(fake, tmp_path / "t.db", outbox=True) as run:
        await _open_with_three(run)
        started = await run.answer(ALICE, "tournament start", {})
        assert "3 games at once" in started.content
        await _drained(run)
        public = len(_public(fake))
        question = await run.answer(CAROL, "tournament leave", {})
        assert question.ephemeral and labels(question) == ["Yes, leave"]
        assert "Really leave" in question.content and "end as losses" in question.content
        assert len(_public(fake)) == public
        assert await _entrants(run) == {"alice": False, "bob": False, "carol": False}
        # A double tap: both presses sent before the bot answers the first (if the first
        # already took the button away, Discord refuses the second: one effect either way).
        custom_id = button(question, "Yes, leave")
        first = await fake.click(CAROL, question, custom_id)
        try:
            second = await fake.click(CAROL, question, custom_id)
        except ImpossibleInteraction:
            second = None
        await fake.response(first, timeout=DEADLINE)
        if second is not None:
            await fake.response(second, timeout=DEADLINE)
        await fake.wait_until(
            lambda: any("withdrawn" in m.content for m in _public(fake)), timeout=DEADLINE
        )
        await _drained(run)
        assert await _entrants(run) == {"alice": False, "bob": False, "carol": True}
        withdrawn = [m for m in _public(fake) if "withdrawn" in m.content]
        assert len(withdrawn) == 1, [m.content for m in withdrawn]
        assert f"<@{CAROL}> left" in withdrawn[0].content
        assert withdrawn[0].pinged_users == frozenset()  # no ping for the one who left
        assert labels(question) == []
        # Every press but the one that left was refused, privately.
        presses = [first] if second is None else [first, second]
        refused = [p.original for p in presses if p.original is not question]
        assert len(refused) == len(presses) - 1
        assert all(m is not None and m.ephemeral and "not in" in m.content for m in refused)


async def test_a_lapsed_yes_is_refused_privately(tmp_path: Path) -> None:
    clock = FakeClock()
    async with (
        fake_discord() as fake,
        running(fake, tmp_path / "t.db", outbox=True, clock=clock) as run,
    ):
        card = await _open_with_three(run)
        edits, public = card.edits, len(_public(fake))
        question = await run.answer(BOB, "tournament leave", {})
        assert question.ephemeral and labels(question) == ["Yes, leave"]
        clock.advance(minutes=11)
        late = await run.click(BOB, question, "Yes, leave")
        refused = await fake.original(late, timeout=DEADLINE)
        assert refused.ephemeral and "lapsed" in refused.content
        assert len(refused.content.splitlines()) == 1
        # Nothing changed: Bob is in, the card and the channel as they were.
        assert await _entrants(run) == {"alice": False, "bob": False, "carol": False}
        assert card.edits == edits and len(_public(fake)) == public
        assert labels(question) == ["Yes, leave"]


async def test_leave_when_not_in_is_a_private_line(tmp_path: Path) -> None:
    async with fake_discord() as fake, running(fake, tmp_path / "t.db") as run:
        card = await run.answer(ALICE, "tournament new", {"game": "pathagon", "days": "1"})
        edits = card.edits
        press = await run.click(BOB, card, "Leave")
        said = await fake.original(press, timeout=DEADLINE)
        assert said.ephemeral and "not in" in said.content and labels(said) == []
        assert card.edits == edits


async def test_yes_posts_a_new_card_when_the_old_one_is_gone(tmp_path: Path) -> None:
    """The card was deleted (by a moderator): the yes posts the new list as a card of its
    own, pinging nobody, and remembers it, so the next join edits that one."""
    async with fake_discord() as fake, running(fake, tmp_path / "t.db") as run:
        card = await _open_with_three(run)
        card.deleted = True  # as Discord's DELETE of the message leaves it
        question = await run.answer(BOB, "tournament leave", {})
        await run.click(BOB, question, "Yes, leave")

        def cards() -> list[StoredMessage]:
            return [m for m in _public(fake) if not m.deleted and "Join" in labels(m)]

        await fake.wait_until(lambda: len(cards()) == 1, timeout=DEADLINE)
        (new,) = cards()
        assert f"<@{BOB}> left" in new.content and "2 players now" in new.content
        assert new.pinged_users == frozenset()
        joined = await run.answer(BOB, "tournament join", {})
        assert f"<@{BOB}> joined" in joined.content and labels(joined) == []
        await fake.wait_until(lambda: "3 of" in new.content, timeout=DEADLINE)
        assert cards() == [new]
