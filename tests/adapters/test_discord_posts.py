"""The bot's own messages on Discord, remembered in the store (bot.sessions.posts): only the
latest board of a game keeps live buttons and an expired challenge's cards are edited in
place, both across a restart (a new client, a new manager, the same database); and a
notification for a private channel the bot is not in reaches its recipient directly."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.adapters.discord.format import PLATFORM
from bot.sessions.clock import FakeClock
from bot.storage import PostKind
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DEADLINE,
    Run,
    button,
    labels,
    running,
)
from tests.fakes.discord_fake import FakeDiscord, ResponseKind, StoredMessage

EDIT_IN_CHANNEL = "PATCH /channels/{channel_id}/messages/{message_id}"


async def test_only_the_latest_board_keeps_buttons_across_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "hexhall.db"
    async with running(fake, db) as first:
        card = await first.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
        await first.click(BOB, card, "Accept")
        gid = int(button(card, "Board").split(":")[1])
        mover = await first.to_move(gid)
        one = await first.answer(mover, "move", {"game": str(gid), "move": "a1"})
        assert "Resign" in labels(one)
        # The card became the first board; it lost its buttons to the newer one.
        await fake.wait_until(lambda: card.components == [], timeout=DEADLINE)
        live = await first.manager.posts.posts_for(PLATFORM, game_id=gid, live=True)
        assert [p.message_id for p in live] == [str(one.id)]
    await fake.wait_until(lambda: not fake.gateway_sessions, timeout=DEADLINE)
    edits_before = len(fake.calls_to(EDIT_IN_CHANNEL))
    # A new process: nothing in memory, the same database.
    async with running(fake, db, sync=False) as second:
        other = await second.to_move(gid)
        two = await second.answer(other, "move", {"game": str(gid), "move": "g1"})
        assert "Resign" in labels(two)
        await fake.wait_until(lambda: one.components == [], timeout=DEADLINE)
        # The old board's interaction token belonged to the old process: edited through
        # the channel.
        assert len(fake.calls_to(EDIT_IN_CHANNEL)) == edits_before + 1
        boards = await second.manager.posts.posts_for(PLATFORM, game_id=gid, kind=PostKind.BOARD)
        assert [(p.message_id, p.live) for p in boards] == [
            (str(card.id), False),
            (str(one.id), False),
            (str(two.id), True),
        ]
        assert labels(two) == ["Move", "Board", "History", "Resign", "Offer draw"]


async def test_an_expired_challenge_edits_its_cards_after_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "hexhall.db"
    clock = FakeClock()
    async with running(fake, db, outbox=True, clock=clock) as first:
        await first.answer(BOB, "settings", {"setting": "dm", "value": "on"})
        card = await first.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB})
        # Bob asked for direct messages: the challenge reaches him there too, with its own
        # Accept / Decline.
        dm = await fake.wait_message(
            lambda m: m.channel_id == fake.dm_channel(BOB).id, timeout=DEADLINE
        )
        assert labels(dm) == ["Accept", "Decline"]
    await fake.wait_until(lambda: not fake.gateway_sessions, timeout=DEADLINE)
    posted = len(fake.calls_to("POST /channels/{channel_id}/messages"))
    async with running(fake, db, outbox=True, clock=clock, sync=False) as second:
        clock.advance(hours=25)
        [expired] = await second.manager.challenges.expire_challenges()
        await fake.wait_until(
            lambda: "expired" in card.content and "expired" in dm.content, timeout=DEADLINE
        )
        assert card.components == [] and dm.components == []
        assert card.content.startswith(f"<@{ALICE}>'s challenge #{expired.id} (Maphex) expired")
        # Edited, not posted again: no new message anywhere.
        assert len(fake.calls_to("POST /channels/{channel_id}/messages")) == posted
        cards = await second.manager.posts.posts_for(PLATFORM, challenge_id=expired.id)
        assert len(cards) == 2 and not any(c.live for c in cards)


async def _cards(run: Run, game: str = "pathagon") -> tuple[StoredMessage, StoredMessage]:
    """Alice challenges Bob in #games; Bob asked for direct messages: the channel's card and
    Bob's private copy (each with Accept / Decline)."""
    await run.answer(BOB, "settings", {"setting": "dm", "value": "on"})
    card = await run.answer(ALICE, "challenge", {"game": game, "opponent": BOB})
    dm = await run.fake.wait_message(
        lambda m: m.channel_id == run.fake.dm_channel(BOB).id, timeout=DEADLINE
    )
    assert labels(card) == labels(dm) == ["Accept", "Decline"]
    return card, dm


async def test_accepting_on_the_dm_card_makes_the_channel_card_the_board(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Bob accepts on his private copy: the game belongs to #games, so the card there becomes
    the game's live board (both players see it; Move opens the picker), and Bob's copy says
    the game has begun, with a Board button; neither still reads "expires"."""
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        card, dm = await _cards(run)
        await run.click(BOB, dm, "Accept")
        # The channel's card is edited first, then (the board remembered) the pressed one.
        await fake.wait_until(
            lambda: "Move" in labels(card) and "has begun" in dm.content, timeout=DEADLINE
        )
        assert "accepted" in card.content and card.embeds
        assert "expires" not in card.content
        assert "has begun" in dm.content and labels(dm) == ["Board"]
        assert not dm.embeds and not dm.attachments and "expires" not in dm.content
        gid = int(button(card, "Board").split(":")[1])
        live = await run.manager.posts.posts_for(PLATFORM, game_id=gid, live=True)
        assert [(p.chat_id, p.message_id) for p in live] == [(str(CHANNEL), str(card.id))]
        # The copy's Board answers Bob privately with the position.
        shown = await fake.original(await run.click(BOB, dm, "Board"), timeout=DEADLINE)
        assert shown.ephemeral and shown.embeds
        # The channel's card is the game's board: the player to move opens the picker on it.
        opened = await run.click(await run.to_move(gid), card, "Move")
        assert (await fake.original(opened, timeout=DEADLINE)).ephemeral
        cards = await run.manager.posts.posts_for(PLATFORM, challenge_id=1, kind=PostKind.CARD)
        assert not any(c.live for c in cards)


async def test_accepting_on_the_dm_card_of_a_card_out_of_reach_makes_it_the_board(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The challenge was made in a DM between the friends (the bot is not a member there) and
    Bob accepts on his private copy 20 minutes later: the friends' card can no longer be
    edited (its interaction token lasts 15 minutes), so the copy Bob pressed becomes the
    game's board, with Move; no request is tried in the friends' DM."""
    clock = FakeClock()
    friends = fake.private_channel(3_000, [ALICE, BOB])
    async with running(fake, tmp_path / "h.db", outbox=True, clock=clock) as run:
        await run.answer(BOB, "settings", {"setting": "dm", "value": "on"})
        card = await run.answer(
            ALICE, "challenge", {"game": "pathagon", "opponent": BOB}, channel=friends
        )
        dm = await fake.wait_message(
            lambda m: m.channel_id == fake.dm_channel(BOB).id, timeout=DEADLINE
        )
        clock.advance(minutes=20)
        await run.click(BOB, dm, "Accept")
        await fake.wait_until(lambda: "Move" in labels(dm), timeout=DEADLINE)
        assert "accepted" in dm.content and dm.embeds
        assert labels(card) == ["Accept", "Decline"]  # out of reach: left as it was
        to_friends = [c for c in fake.calls if c.data.get("params", {}).get("channel_id") == "3000"]
        assert to_friends == []
        gid = int(button(dm, "Board").split(":")[1])
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE
        while not (live := await run.manager.posts.posts_for(PLATFORM, game_id=gid, live=True)):
            assert loop.time() < deadline, "the board was never remembered"
            await asyncio.sleep(0.01)  # a condition polled (remembered after answering)
        assert [p.message_id for p in live] == [str(dm.id)]


async def test_accepting_on_the_channel_card_tells_the_dm_copy(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Bob accepts in #games: the card there becomes the board, and his private copy loses
    Accept / Decline and says the game has begun (a Board button in their place)."""
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        card, dm = await _cards(run)
        await run.click(BOB, card, "Accept")
        await fake.wait_until(lambda: "has begun" in dm.content, timeout=DEADLINE)
        assert "Resign" in labels(card) and "accepted" in card.content
        assert labels(dm) == ["Board"] and "accepted" in dm.content
        assert "expires" not in dm.content


async def test_declining_on_the_dm_card_tells_the_channel_card(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        card, dm = await _cards(run)
        await run.click(BOB, dm, "Decline")
        await fake.wait_until(lambda: "declined" in card.content, timeout=DEADLINE)
        assert labels(card) == [] and labels(dm) == [] and "declined" in dm.content
        assert "expires" not in card.content


async def test_a_private_channel_the_bot_is_not_in_is_answered_there_only(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A DM between two friends where only the user-installed app answers: the game is played
    there through the interactions' answers (the card, the boards pinging the player to move),
    and, with direct messages off (the default), the bot tries nothing else: no post to the
    channel it cannot reach, no direct message."""
    friends = fake.private_channel(3_000, [ALICE, BOB])
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        card = await run.answer(
            ALICE, "challenge", {"game": "pathagon", "opponent": BOB}, channel=friends
        )
        assert card.channel_id == friends.id and card.pinged_users == {BOB}
        await run.click(BOB, card, "Accept")
        gid = int(button(card, "Board").split(":")[1])
        if await run.to_move(gid) == BOB:
            await run.answer(BOB, "move", {"game": str(gid), "move": "a1"}, channel=friends)
        board = await run.answer(ALICE, "move", {"game": str(gid), "move": "g1"}, channel=friends)
        assert board.channel_id == friends.id and board.pinged_users == {BOB}
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE
        while await run.manager.store.due_notifications(PLATFORM, run.manager.now()):
            assert loop.time() < deadline, "notifications still undelivered"
            await asyncio.sleep(0.01)  # a condition polled, not a fixed wait
        assert fake.calls_to("POST /channels/{channel_id}/messages") == []
        assert all(m.interaction_id is not None for m in fake.messages_in(friends))
        assert fake.messages_in(fake.dm_channel(BOB)) == []


async def test_a_private_channel_and_refused_direct_messages_give_up_quietly(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    friends = fake.private_channel(3_000, [ALICE, BOB])
    fake.close_dms(BOB)
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        await run.answer(BOB, "settings", {"setting": "dm", "value": "on"})
        await run.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB}, channel=friends)

        def refusals() -> list[int]:
            return [
                c.response["body"]["code"]
                for c in fake.calls_to("POST /channels/{channel_id}/messages")
                if c.response["status"] == 403
            ]

        # The private notice is refused (closed DMs); it has no chat copy to try.
        await fake.wait_until(lambda: refusals() == [50007], timeout=DEADLINE)
        # Nothing was delivered, and the bot still answers.
        assert fake.messages_in(fake.dm_channel(BOB)) == []
        rules = await run.answer(BOB, "rules", {"game": "pathagon"})
        assert rules.ephemeral


@pytest.mark.parametrize("swept", [False, True])
async def test_a_stale_accept_closes_its_card_when_pressed(
    fake: FakeDiscord, tmp_path: Path, swept: bool
) -> None:
    """In a DM between friends (the bot not a member) the card of an expired challenge can be
    edited by nothing the bot sends (its token lasted 15 minutes): Bob's press on its Accept
    is answered by editing that very card (a component's update-message response edits the
    message it is on) to the expiry, its buttons gone, whether or not the clock sweep has
    marked the challenge expired yet.  Someone the challenge is not for, pressing a live card,
    is still answered privately and the card left as it is."""
    clock = FakeClock()
    friends = fake.private_channel(3_000, [ALICE, BOB, CAROL], name="trio")
    async with running(fake, tmp_path / "h.db", clock=clock) as run:
        card = await run.answer(
            ALICE, "challenge", {"game": "pathagon", "opponent": BOB}, channel=friends
        )
        wrong = await run.click(CAROL, card, "Accept")
        assert (await fake.original(wrong, timeout=DEADLINE)).ephemeral
        assert labels(card) == ["Accept", "Decline"]
        clock.advance(hours=25)
        if swept:
            assert len(await run.manager.challenges.expire_challenges()) == 1
        pressed = await run.click(BOB, card, "Accept")
        assert pressed.response is not None
        assert pressed.response.type == ResponseKind.UPDATE_MESSAGE
        assert labels(card) == [] and "expired" in card.content
        assert fake.calls_to(EDIT_IN_CHANNEL) == []
