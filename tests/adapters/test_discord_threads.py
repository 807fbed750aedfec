"""A game in its own thread on Discord: where the bot may start threads (Create Public Threads
and Send Messages in Threads, read from the interaction's ``app_permissions``), an accepted
challenge's card stays in the channel, closed, and the game's boards and talk go into a thread
named after the game; the channel is told the result.  Without the permissions the game stays
in the channel.  Moves in the thread are entered only through the Move picker."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import engines
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CHANNEL,
    DEADLINE,
    GUILD,
    Run,
    button,
    fake_discord,
    labels,
    running,
)
from tests.adapters.test_discord_mentions import check_every_message
from tests.adapters.test_discord_picker import pick
from tests.adapters.test_discord_process import start_bot
from tests.fakes.discord_fake import ChannelKind, StoredMessage

THREAD_ROUTE = "POST /channels/{channel_id}/messages/{message_id}/threads"
MOVE_CAP = 30


@pytest.fixture
async def run(tmp_path: Path) -> Any:
    async with fake_discord() as fake, running(fake, tmp_path / "hexhall.db") as started:
        yield started


async def accepted(run: Run) -> StoredMessage:
    card = await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB, "size": 9})
    await run.click(BOB, card, "Accept")
    await run.fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)
    return card


async def test_an_accepted_game_moves_into_its_own_thread(run: Run) -> None:
    run.fake.grant_threads(GUILD)
    card = await accepted(run)
    await run.fake.wait_until(lambda: bool(run.fake.threads_in(CHANNEL)), timeout=DEADLINE)
    (thread,) = run.fake.threads_in(CHANNEL)
    assert thread.kind is ChannelKind.PUBLIC_THREAD and thread.id == card.id
    assert thread.name == "#1 Maphex: alice vs bob"
    # The card stays in the channel, closed, and says where the game went.
    assert labels(card) == [] and not card.embeds and not card.attachments
    assert "thread" in card.content
    await run.fake.wait_until(lambda: bool(run.fake.messages_in(thread)), timeout=DEADLINE)
    (board,) = run.fake.messages_in(thread)
    mover = await run.to_move(1)
    assert labels(board)[0] == "Move" and board.pinged_users == {mover}
    # Played in the thread with the picker only; the channel sees none of it.
    in_channel = len(run.fake.messages_in(CHANNEL))
    rng = random.Random(3)
    position = engines.new("maphex", size=9)
    while position.outcome is None and position.ply < MOVE_CAP:
        move = position.random_move(rng)
        board = await pick(run, await run.to_move(1), board, move)
        assert board.channel_id == thread.id and not board.ephemeral
        position = position.play(move)
    assert len([m for m in run.fake.messages_in(CHANNEL) if not m.ephemeral]) == len(
        [m for m in run.fake.messages_in(CHANNEL)[:in_channel] if not m.ephemeral]
    )
    if position.outcome is None:
        loser = await run.to_move(1)
        ask = await run.click(loser, board, "Resign")
        question = await run.fake.original(ask, timeout=DEADLINE)
        done = await run.click(loser, question, "Yes, resign")
        board = await run.fake.original(done, timeout=DEADLINE)
        assert board.channel_id == thread.id
    assert labels(board) == ["Rematch"]
    # The channel is told the result, in one line that pings nobody.
    await run.fake.wait_until(
        lambda: any("#1 Maphex" in m.content for m in run.fake.messages_in(CHANNEL)[in_channel:]),
        timeout=DEADLINE,
    )
    told = [m for m in run.fake.messages_in(CHANNEL)[in_channel:] if "#1 Maphex" in m.content]
    assert len(told) == 1 and not told[0].pinged_users and "\n" not in told[0].content
    facts = await run.manager.games.board_facts(1)
    assert facts is not None and facts.result is not None
    # Every message, edit and answer was accepted and pinged each person at most once.
    assert check_every_message(run.fake) > 0


async def test_without_thread_permissions_the_game_stays_in_the_channel(run: Run) -> None:
    card = await accepted(run)
    assert labels(card)[0] == "Move" and card.embeds
    assert run.fake.threads_in(CHANNEL) == [] and run.fake.calls_to(THREAD_ROUTE) == []


async def test_a_refused_thread_leaves_the_game_in_the_channel(run: Run) -> None:
    """Someone started a thread from the card before it was accepted: Discord refuses a
    second one from the same message (400, 160004), so the card becomes the game's board in
    the channel, as without the permissions."""
    run.fake.grant_threads(GUILD)
    card = await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB, "size": 9})
    run.fake.user_thread(card, ALICE, "chat about it")
    await run.click(BOB, card, "Accept")
    await run.fake.wait_until(lambda: bool(card.embeds), timeout=DEADLINE)
    [refused] = run.fake.calls_to(THREAD_ROUTE)
    assert refused.response["body"]["code"] == 160004
    assert labels(card)[0] == "Move" and "accepted" in card.content
    assert [m for m in run.fake.messages.values() if m.channel_id == card.id] == []
    # The board in the channel is the game's live board: the Move picker opens from it.
    opened = await run.click(await run.to_move(1), card, "Move")
    assert (await run.fake.original(opened, timeout=DEADLINE)).ephemeral


async def test_typed_commands_in_the_thread_find_the_channel_s_game(run: Run) -> None:
    """Inside its thread the game is still the channel's: ``/move`` without ``game:`` finds
    it (the player's one game there), the board goes into the thread, autocompletion offers
    its moves, and a resignation asked for there tells the channel the result."""
    run.fake.grant_threads(GUILD)
    await accepted(run)
    await run.fake.wait_until(lambda: bool(run.fake.threads_in(CHANNEL)), timeout=DEADLINE)
    (thread,) = run.fake.threads_in(CHANNEL)
    mover = await run.to_move(1)
    typed = await run.fake.autocomplete(
        mover, thread.id, "move", {"move": ""}, focused="move", timeout=DEADLINE
    )
    position = engines.new("maphex", size=9)
    legal = position.legal_moves()
    assert typed and all(any(m.startswith(c["value"]) for m in legal) for c in typed)
    move = position.legal_moves()[0]
    board = await run.answer(mover, "move", {"move": move}, channel=thread.id)
    assert board.channel_id == thread.id and not board.ephemeral
    assert f"`{position.play(move).last_move}`" in board.content
    before = len(run.fake.messages_in(CHANNEL))
    loser = await run.to_move(1)
    question = await run.answer(loser, "resign", {"game": "1"}, channel=thread.id)
    assert question.ephemeral and question.channel_id == thread.id
    await run.click(loser, question, "Yes, resign")
    await run.fake.wait_until(lambda: len(run.fake.messages_in(CHANNEL)) > before, timeout=DEADLINE)
    assert "#1 Maphex" in run.fake.messages_in(CHANNEL)[-1].content


async def test_hexhall_run_plays_a_rated_game_in_its_thread_by_the_picker(tmp_path: Path) -> None:
    """The real ``hexhall run`` process against the fake: a rated challenge to a named player
    in a server channel, accepted; the game goes into its thread and is played there with
    moves entered only through the Move picker; the channel is told the result."""
    async with fake_discord() as fake:
        fake.grant_threads(GUILD)
        bot = await start_bot(fake, tmp_path / "hexhall.db", tmp_path / "bot.log")
        try:
            await fake.wait_until(lambda: len(fake.commands()) >= 10, timeout=DEADLINE)
            record = await fake.slash(
                ALICE, CHANNEL, "challenge", {"game": "maphex", "opponent": BOB, "size": 9}
            )
            await fake.response(record, timeout=DEADLINE)
            card = await fake.original(record, timeout=DEADLINE)
            assert card.pinged_users == {BOB} and "rated" in card.content.lower()
            await fake.click(BOB, card, button(card, "Accept"))
            await fake.wait_until(lambda: bool(fake.threads_in(CHANNEL)), timeout=DEADLINE)
            (thread,) = fake.threads_in(CHANNEL)
            # Seats (who is Red) are drawn at random: the players in seat order.
            assert thread.name in ("#1 Maphex: alice vs bob", "#1 Maphex: bob vs alice")
            await fake.wait_until(lambda: bool(fake.messages_in(thread)), timeout=DEADLINE)
            board = fake.messages_in(thread)[0]
            in_channel = len(fake.messages_in(CHANNEL))
            position = engines.new("maphex", size=9)
            rng = random.Random(9)
            while position.outcome is None and position.ply < 8:
                (mover,) = board.pinged_users
                move = position.random_move(rng)
                board = await pick(fake, mover, board, move)
                assert board.channel_id == thread.id and not board.ephemeral
                position = position.play(move)
            (loser,) = board.pinged_users
            ask = await fake.click(loser, board, button(board, "Resign"))
            question = await fake.original(ask, timeout=DEADLINE)
            done = await fake.click(loser, question, button(question, "Yes, resign"))
            final = await fake.original(done, timeout=DEADLINE)
            assert final.channel_id == thread.id and labels(final) == ["Rematch"]
            await fake.wait_until(
                lambda: any(
                    "#1 Maphex" in m.content for m in fake.messages_in(CHANNEL)[in_channel:]
                ),
                timeout=DEADLINE,
            )
            assert check_every_message(fake) > 0
            # The channel holds the card and the result; every board went into the thread.
            public = [m for m in fake.messages_in(CHANNEL) if not m.ephemeral]
            assert [m.id for m in public] == [card.id, public[-1].id]
            assert "#1 Maphex" in public[-1].content and not public[-1].files
        finally:
            assert await bot.stop() == 0


async def test_no_thread_in_a_server_the_bot_is_not_in(run: Run) -> None:
    """In a server the app is not installed to (only Alice's user install answers there) the
    bot cannot start or post in a thread, whatever the server's permissions: the game stays in
    the channel, through the interactions."""
    elsewhere = run.fake.guild(5_000, "Elsewhere", with_bot=False)
    lounge = run.fake.channel(elsewhere, 5_001, "lounge")
    run.fake.member(elsewhere, ALICE, "alice")
    run.fake.member(elsewhere, BOB, "bob")
    run.fake.grant_threads(elsewhere)
    card = await run.answer(
        ALICE, "challenge", {"game": "maphex", "opponent": BOB, "size": 9}, channel=lounge.id
    )
    await run.click(BOB, card, "Accept")
    await run.fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)
    assert labels(card)[0] == "Move"
    assert run.fake.threads_in(lounge) == [] and run.fake.calls_to(THREAD_ROUTE) == []
