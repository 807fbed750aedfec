"""Where the outbox's notices go on Discord (issue 25): a game in its own thread hears of it
there; where the bot is not a member (a DM or group DM between friends, a server without the
bot) every later notice reaches the player as a direct message, after at most one refused
request per channel (Discord bans an IP for a while after 10 000 invalid requests in 10
minutes); a player who cannot be reached at all is named once in the channel at the next
interaction there.  And the sender's smaller defects: a 400 50007 when opening a DM channel
is a refusal, not a transient error; an expired challenge is delivered only when the
challenger was told; a DM card whose challenge was answered meanwhile never shows a live
Accept; the recap pings nobody."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import engines
from bot.adapters.discord import DiscordSender
from bot.adapters.discord.format import PLATFORM
from bot.adapters.discord.reach import Reach
from bot.core.notification import Kind, Notification, Recipient
from bot.delivery.outbox import DeliveryRefused, DirectRefused
from bot.messages import Action, ActionKind, Chat, Text
from bot.sessions.clock import FakeClock
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CHANNEL,
    DEADLINE,
    GUILD,
    Run,
    button,
    labels,
    running,
)
from tests.adapters.test_discord_picker import pick
from tests.fakes.discord_fake import CREATE_MESSAGE, FakeDiscord, StoredMessage

FRIENDS = 3_000


def _note(kind: Kind, uid: int, name: str, chat: int, note_id: int, **kw: Any) -> Notification:
    who = Recipient(PLATFORM, str(uid), name, None)
    return Notification(
        kind=kind,
        recipient=who,
        text=kw.pop("text", Text.of(who.mention(), ", your clock runs in #1.")),
        deliver_after=datetime.now(UTC),
        chat=Chat(PLATFORM, str(chat)),
        direct=False,
        id=note_id,
        **kw,
    )


def _posts_to(fake: FakeDiscord, channel: int) -> list[int]:
    """The statuses of the bot's REST posts to ``channel``."""
    return [
        c.response["status"]
        for c in fake.calls_to(CREATE_MESSAGE)
        if c.data["params"]["channel_id"] == str(channel)
    ]


async def test_notices_of_a_game_in_its_thread_go_to_the_thread(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A reminder and a board the outbox posts itself go into the game's thread (keyed to the
    channel in the store, the thread remembered when it was started), not the channel."""
    fake.grant_threads(GUILD)
    async with running(fake, tmp_path / "h.db") as run:
        card = await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB})
        assert "not a member" not in card.content  # the bot is a member of this server
        await run.click(BOB, card, "Accept")
        await fake.wait_until(lambda: bool(fake.threads_in(CHANNEL)), timeout=DEADLINE)
        (thread,) = fake.threads_in(CHANNEL)
        await fake.wait_until(lambda: bool(fake.messages_in(thread)), timeout=DEADLINE)
        sender = DiscordSender(run.bot, run.manager.recaps())
        mover = await run.to_move(1)
        name = "alice" if mover == ALICE else "bob"
        await sender.send(_note(Kind.REMINDER, mover, name, CHANNEL, 501, game_id=1))
        board = _note(Kind.BOARD, mover, name, CHANNEL, 502, game_id=1, ply=0)
        await sender.send(board)
        assert _posts_to(fake, thread.id) == [200] * 3 and _posts_to(fake, CHANNEL) == []
        reminder, posted = fake.messages_in(thread)[-2:]
        assert "your clock runs" in reminder.content and reminder.pinged_users == {mover}
        assert "Move" in labels(posted)
        # The board the outbox posted is the game's latest: the thread's first lost its buttons.
        assert labels(fake.messages_in(thread)[0]) == []


async def _friends_game(run: Run) -> int:
    """Alice challenges Bob in a DM between them that the bot is not part of; Bob, without the
    app, accepts (a button of a message the user-installed app posted works for anyone who
    sees it: Rapptz/discord.py#9757, discord/discord-api-docs#6723). The card says so."""
    run.fake.uninstall_app(BOB)
    run.fake.private_channel(FRIENDS, [ALICE, BOB])
    card = await run.answer(
        ALICE, "challenge", {"game": "maphex", "opponent": BOB}, channel=FRIENDS
    )
    assert "not a member of this chat" in card.content and "without installing" in card.content
    await run.click(BOB, card, "Accept")
    await run.fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)
    return int(button(card, "Board").split(":")[1])


async def test_where_the_bot_is_not_a_member_notices_go_by_direct_message(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """In a DM between friends the bot is never a member (only the user-installed app answers
    interactions there): a notice costs no refused request (the interactions taught the bot
    so), and reaches the player as a direct message from the bot."""
    async with running(fake, tmp_path / "h.db") as run:
        gid = await _friends_game(run)
        sender = DiscordSender(run.bot, run.manager.recaps())
        for note_id, kind in ((601, Kind.REMINDER), (602, Kind.DRAW_OFFERED), (603, Kind.BOARD)):
            await sender.send(_note(kind, BOB, "bob", FRIENDS, note_id, game_id=gid, ply=0))
        assert _posts_to(fake, FRIENDS) == []
        dms = fake.messages_in(fake.dm_channel(BOB))
        assert len(dms) == 3 and all("your clock runs" in m.content for m in dms)


async def test_a_refusing_channel_costs_one_refused_request(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A server without the bot, learnt by the refusal itself (no interaction there since this
    process started): one 403 50001, then every notice goes straight to the DMs."""
    lone = fake.guild(5_000, "Lone", with_bot=False)
    fake.channel(lone, 5_001, "play")
    async with running(fake, tmp_path / "h.db") as run:
        sender = DiscordSender(run.bot, run.manager.recaps())
        for note_id in (701, 702, 703):
            await sender.send(_note(Kind.REMINDER, BOB, "bob", 5_001, note_id))
        refused = [c for c in fake.calls_to(CREATE_MESSAGE) if c.response["status"] == 403]
        assert [c.response["body"]["code"] for c in refused] == [50001]
        assert len(fake.messages_in(fake.dm_channel(BOB))) == 3


async def test_a_player_out_of_reach_is_named_once_at_the_next_interaction(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Neither the friends' DM nor a direct message reaches Bob: the notice is given up at
    once (no retries spending refused requests), and the next answer in that DM says so,
    once.  "The next answer" may be the tail of one still in flight (Bob's Accept, whose
    handler ends by saying who was out of reach): whichever it is, it is said once."""
    async with running(fake, tmp_path / "h.db") as run:
        gid = await _friends_game(run)
        fake.refuse_dm_channel(BOB)
        sender = DiscordSender(run.bot, run.manager.recaps())
        with pytest.raises(DeliveryRefused):
            await sender.send(_note(Kind.REMINDER, BOB, "bob", FRIENDS, 801, game_id=gid))

        def told() -> list[StoredMessage]:
            return [
                m
                for r in fake.interactions.values()
                for m in r.followups
                if "could not tell" in m.content
            ]

        asked = await run.slash(ALICE, "games", {}, channel=FRIENDS)
        await fake.original(asked, timeout=DEADLINE)
        await fake.wait_until(lambda: bool(told()), timeout=DEADLINE)
        (said,) = told()
        assert f"<@{BOB}>" in said.content and said.pinged_users == set()
        again = await run.slash(ALICE, "games", {}, channel=FRIENDS)
        await fake.original(again, timeout=DEADLINE)
        assert again.followups == [] and len(told()) == 1


async def test_a_refused_dm_channel_is_a_refusal_not_a_transient_error(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Opening a DM channel answers 400, 50007 for a user who blocked the bot or shares no
    server with it: the sender raises :class:`DirectRefused` (the outbox then delivers in the
    chat, once, and remembers the refusal) instead of an error the outbox would retry."""
    fake.refuse_dm_channel(BOB)
    async with running(fake, tmp_path / "h.db") as run:
        sender = DiscordSender(run.bot, run.manager.recaps())
        note = _note(Kind.REMINDER, BOB, "bob", CHANNEL, 901)
        with pytest.raises(DirectRefused):
            await sender.send(replace(note, direct=True))
        opened = fake.calls_to("POST /users/@me/channels")
        assert [c.response["status"] for c in opened] == [400]


async def test_a_card_of_an_answered_challenge_is_never_sent(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Bob accepted from the channel's card before the outbox came to his DM card: no card
    with a live Accept reaches him."""
    async with running(fake, tmp_path / "h.db") as run:
        card = await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB})
        await run.click(BOB, card, "Accept")
        await fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)
        accept = Action.make("Accept", ActionKind.ACCEPT, 1)
        sender = DiscordSender(run.bot, run.manager.recaps())
        note = _note(Kind.CHALLENGE, BOB, "bob", CHANNEL, 1001, actions=(accept,))
        await sender.send(replace(note, direct=True, chat=None))
        assert fake.messages_in(fake.dm_channel(BOB)) == []


async def test_an_expired_challenge_is_told_to_the_challenger(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The challenge's card in the friends' DM can no longer be edited (its token is old, the
    bot not a member there); Bob's DM card can. Editing Bob's card alone does not tell Alice:
    the notice reaches her as a direct message."""
    async with running(fake, tmp_path / "h.db") as run:
        fake.private_channel(FRIENDS, [ALICE, BOB])
        await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB}, channel=FRIENDS)
        accept = Action.make("Accept", ActionKind.ACCEPT, 1)
        sender = DiscordSender(run.bot, run.manager.recaps())
        card = _note(Kind.CHALLENGE, BOB, "bob", CHANNEL, 1101, actions=(accept,))
        await sender.send(replace(card, direct=True, chat=None))
        run.bot._tokens.clear()  # fifteen minutes later: the token is stale
        text = Text.of("Challenge 1 expired.")
        expired = _note(
            Kind.CHALLENGE_EXPIRED, ALICE, "alice", FRIENDS, 1102, challenge_id=1, text=text
        )
        await sender.send(expired)
        (bobs,) = fake.messages_in(fake.dm_channel(BOB))
        assert "expired" in bobs.content and labels(bobs) == []
        (alices,) = fake.messages_in(fake.dm_channel(ALICE))
        assert "expired" in alices.content
        assert _posts_to(fake, FRIENDS) == []
        # No edit tried through the friends' DM either (the stale token cannot make it, and
        # the bot is not a member there): no refused request spent.
        edits = fake.calls_to("PATCH /channels/{channel_id}/messages/{message_id}")
        assert [c for c in edits if c.data["params"]["channel_id"] == str(FRIENDS)] == []


async def test_the_recap_pings_nobody(fake: FakeDiscord, tmp_path: Path) -> None:
    """Alice resigns: the recap that follows is everyone's, and pings nobody (not Alice, who
    just ended the game, nor Bob)."""
    async with running(fake, tmp_path / "h.db", outbox=True, pictures=True) as run:
        card = await run.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
        await run.click(BOB, card, "Accept")
        await fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)
        asked = await run.answer(ALICE, "resign", {"game": "1"})
        await run.click(ALICE, asked, "Yes, resign")
        recap = await fake.wait_message(
            lambda m: any(name.endswith(".gif") for name in m.files), timeout=DEADLINE
        )
        assert recap.channel_id == CHANNEL and recap.interaction_id is None
        assert recap.pinged_users == set() and not recap.pinged_everyone
        assert not recap.content.startswith(f"<@{ALICE}>")


async def test_a_deferred_answer_edits_its_placeholder(fake: FakeDiscord, tmp_path: Path) -> None:
    """Every answer deferred: the public card and the private list each replace their
    "thinking" placeholder by Edit Original Interaction Response, the documented way (a
    followup editing it is kept only for backwards compatibility, discord-api-docs#7091), so
    no followup is spent (a user install's interaction allows 5)."""
    async with running(fake, tmp_path / "h.db", defer_after=0.0) as run:
        card = await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB})
        assert not card.ephemeral and "Accept" in labels(card) and card.pinged_users == {BOB}
        mine = await run.answer(ALICE, "games", {})
        assert mine.ephemeral and mine.content
        assert fake.calls_to("POST /webhooks/{webhook_id}/{webhook_token}") == []
        edits = fake.calls_to("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
        assert [c.data["params"]["message_id"] for c in edits] == ["@original"] * 2


async def test_a_loss_on_time_reaches_both_friends_by_direct_message(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The friends' game (in a DM the bot is not part of) runs out of time four simulated
    days later: the outbox tells both players by direct message, with no refused request to
    the friends' DM."""
    clock = FakeClock()
    async with running(fake, tmp_path / "h.db", outbox=True, clock=clock) as run:
        gid = await _friends_game(run)
        first = await run.to_move(gid)
        move = engines.new("maphex").legal_moves()[0]
        board = next(m for m in fake.messages_in(FRIENDS) if "Move" in labels(m))
        played = await pick(run, first, board, move)  # by the Move picker: no app needed
        assert not played.ephemeral and played.channel_id == FRIENDS
        clock.advance(days=4)
        await run.manager.sweep()
        assert run.bot.outbox is not None
        run.bot.outbox.wake()

        def told(uid: int) -> bool:
            return any("on time" in m.content for m in fake.messages_in(fake.dm_channel(uid)))

        await fake.wait_until(lambda: told(ALICE) and told(BOB), timeout=DEADLINE)
        assert _posts_to(fake, FRIENDS) == []


async def test_a_card_answered_while_on_its_way_loses_its_accept(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob accepts from the channel's card while his DM card is on its way (the accept lands
    as the bot opens his DM channel): the DM card arrives, but without a live Accept."""
    async with running(fake, tmp_path / "h.db") as run:
        card = await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB})
        opening = run.bot.create_dm

        async def accept_meanwhile(user: Any) -> Any:
            await run.click(BOB, card, "Accept")
            await fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)
            return await opening(user)

        monkeypatch.setattr(run.bot, "create_dm", accept_meanwhile)
        accept = Action.make("Accept", ActionKind.ACCEPT, 1)
        sender = DiscordSender(run.bot, run.manager.recaps())
        note = _note(Kind.CHALLENGE, BOB, "bob", CHANNEL, 1201, actions=(accept,))
        await sender.send(replace(note, direct=True, chat=None))
        (dm,) = fake.messages_in(fake.dm_channel(BOB))
        assert labels(dm) == []


def test_the_memory_of_refusing_channels_forgets_and_is_bounded() -> None:
    """A server channel that refused the bot is tried again after ``forget_after`` (the bot
    may have been added); a DM between users never (no bot can join it); the memory holds at
    most ``limit`` channels, oldest forgotten first."""
    reach = Reach(forget_after=0.0, limit=2)
    reach.refused(1)
    reach.refused(2, for_good=True)
    assert not reach.out_of_reach(1) and reach.out_of_reach(2)
    lasting = Reach(limit=2)
    for channel in (10, 11, 12):
        lasting.refused(channel, for_good=True)
    assert [lasting.out_of_reach(c) for c in (10, 11, 12)] == [False, True, True]
