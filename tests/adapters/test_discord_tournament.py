"""A whole tournament on Discord (issue 29): opened with ``/tournament action:new``, joined by
the card's Join button, started, every game drawn by agreement with ``/draw``, the result
posted by the real outbox, and the standings as an attached picture.

Discord facts relied on: a button's ``custom_id`` "is returned in the interaction payload sent
when a user interacts with the component" and is "a string of 1 to 100 characters" (components
reference, https://github.com/discord/discord-api-docs/pull/7920), so the Join button's id
carries its whole meaning (``tj:<tournament>``); a chat command's option names are lower case,
1-32 characters (https://docs.discord.food/interactions/application-commands) and a command
has at most 25 options ("max 25", https://discord-api-types.dev, Create Global Application
Command), which the tournament command's nine options respect."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from bot.sessions import policy
from bot.storage import PlayerRow, PostKind
from bot.storage.dbapi import Conn, to_ts
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DEADLINE,
    GUILD,
    Run,
    as_user,
    fake_discord,
    labels,
    running,
)
from tests.fakes.discord_fake import FakeChannel, ResponseKind, StoredMessage

#: The answer's grace in these tests: boards committed for an answer (a move's, a result's) are
#: still held until the answer is out (milliseconds), without waiting the real 10 s.
GRACE = timedelta(seconds=1)


@pytest.fixture(autouse=True)
def short_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """The boards' grace scaled down (the order it keeps is the same)."""
    monkeypatch.setattr(policy, "ANSWER_GRACE", GRACE)


async def test_a_tournament_from_sign_up_to_standings_picture(tmp_path: Path) -> None:
    async with (
        fake_discord() as fake,
        running(fake, tmp_path / "t.db", pictures=True, outbox=True) as run,
    ):
        card = await run.answer(ALICE, "tournament new", {"game": "pathagon", "days": "1"})
        assert "Tournament 1: Pathagon" in card.content, card.content
        assert labels(card) == ["Join", "Leave"]
        for player in (BOB, CAROL):
            click = await run.click(player, card, "Join")
            # The card is edited in place: who joined, and its buttons kept.
            assert click.response is not None and click.response.type in (
                ResponseKind.UPDATE_MESSAGE,
                ResponseKind.DEFERRED_UPDATE_MESSAGE,
            )
            assert f"<@{player}> joined" in card.content and labels(card) == ["Join", "Leave"]
        names = [p.name for p in await _entrants(run)]
        assert names == ["alice", "bob", "carol"]
        started = await run.answer(ALICE, "tournament start", {})
        assert "3 games at once" in started.content, started.content
        users = {}
        for uid, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")):
            users[(await run.manager.players.player(as_user(uid, name))).id] = uid
        games = [g.game_id for g in await run.manager.store.tournament_games(1)]

        def boards() -> dict[int, list[StoredMessage]]:
            """The games' boards in the channel (a board's History button names its game)."""
            found: dict[int, list[StoredMessage]] = {}
            for m in fake.messages_in(CHANNEL):
                ids = [c.get("custom_id", "") for c in m.walk_components()]
                for gid in games:
                    if m.attachments and f"hi:{gid}" in ids:
                        found.setdefault(gid, []).append(m)
            return found

        # Each game is posted with its board by the outbox, pinging the player to move.
        await fake.wait_until(lambda: len(boards()) == 3, timeout=DEADLINE)
        for gid, posted in boards().items():
            assert len(posted) == 1, f"#{gid} posted {len(posted)} times"
            assert posted[0].pinged_users == {await run.to_move(gid)}
        pictures: list[str] = []  # the standings picture's attachment after each update
        for done, g in enumerate(await run.manager.store.tournament_games(1), start=1):
            row = await run.manager.store.get_game(g.game_id)
            assert row is not None
            offer = await run.answer(users[row.seat0], "draw", {"game": str(row.id)})
            assert "draw" in offer.content.lower(), offer.content
            agreed = await run.answer(
                users[row.seat1], "draw", {"game": str(row.id), "answer": "accept"}
            )
            assert "draw" in agreed.content.lower(), agreed.content
            if done == 3:
                break
            # A day after each of the first two results the sweep updates the standings: the
            # first update is posted, the second edits it in place.
            await _a_day_later(run, 1)
            await run.manager.sweep()
            said = f"({done} of 3 games played)"

            def updated(said: str = said) -> bool:
                day = [m for m in fake.messages_in(CHANNEL) if "day's standings" in m.content]
                return len(day) == 1 and said in day[0].content

            await fake.wait_until(updated, timeout=DEADLINE)
            (posted,) = [m for m in fake.messages_in(CHANNEL) if "day's standings" in m.content]
            assert posted.pinged_users == frozenset()  # the day's standings ping nobody
            pictures.append(str(posted.attachments[0]["id"]))
            # Remembered right after Discord answered: the next update edits it.
            await _remembered(run)
        (day,) = [m for m in fake.messages_in(CHANNEL) if "day's standings" in m.content]
        assert day.edits == 1, "the second update edited the first message"
        # The table picture came with the update and was replaced by the edit.
        assert len(day.attachments) == 1 and day.attachments[0]["filename"].endswith(".png")
        assert len(set(pictures)) == 2, pictures
        await run.manager.sweep()
        await fake.wait_until(
            lambda: any("is over" in m.content for m in fake.messages_in(CHANNEL)),
            timeout=DEADLINE,
        )
        over = next(m for m in fake.messages_in(CHANNEL) if "is over" in m.content)
        # Three draws: everyone 1 point, Sonneborn-Berger 1: a shared first place.
        assert f"<@{ALICE}>, <@{BOB}> and <@{CAROL}> win with 1 point." in over.content
        # Nothing posted twice: one start message (the answer), the day's standings one
        # message; the result a new one.
        assert sum("has started" in m.content for m in fake.messages_in(CHANNEL)) == 1
        assert sum("day's standings" in m.content for m in fake.messages_in(CHANNEL)) == 1
        standings = await run.answer(CAROL, "tournament standings", {})
        assert "Standings of tournament 1" in standings.content
        assert "1. alice 1 (won 0, drawn 2, lost 0; SB 1)" in standings.content
        assert standings.attachments, "the standings come as a picture"
        assert standings.attachments[0]["filename"].endswith(".png")


async def _remembered(run: Run) -> None:
    """Wait until tournament 1's standings message is remembered (right after it is sent),
    re-checking every 10 ms, failing after the deadline."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while not await run.manager.posts.posts_for(
        "discord", tournament_id=1, kind=PostKind.STANDINGS
    ):
        assert loop.time() < deadline, "the standings message was not remembered"
        await asyncio.sleep(0.01)


async def _a_day_later(run: Run, tournament_id: int) -> None:
    """As if the tournament's last standings were posted two days ago (the bot runs on the
    real clock): the next sweep may post the day's update."""
    when = to_ts(run.manager.now() - timedelta(days=2))

    async def back(conn: Conn) -> None:
        await conn.execute(
            "UPDATE tournaments SET standings_at = ? WHERE id = ?", (when, tournament_id)
        )

    await run.manager.store._write(back)


async def _entrants(run: Run) -> list[PlayerRow]:
    out = []
    for e in await run.manager.store.entrants(1):
        player = await run.manager.store.get_player(e.player_id)
        assert player is not None
        out.append(player)
    return out


async def test_a_typed_join_edits_the_card_and_a_withdrawal_is_said_once(tmp_path: Path) -> None:
    """Issue 45: ``/tournament action:join`` edits the channel's sign-up card to the new list
    and answers with that one line, never a second card; leaving a running tournament is
    said once (the answer), with no notice from the outbox pinging the player who left."""
    async with (
        fake_discord() as fake,
        running(fake, tmp_path / "t.db", outbox=True) as run,
    ):
        card = await run.answer(ALICE, "tournament new", {"game": "pathagon", "days": "1"})
        for player, said in ((BOB, "2 of"), (CAROL, "3 of")):
            answer = await run.answer(player, "tournament join", {})
            assert f"<@{player}> joined" in answer.content and said in answer.content
            assert labels(answer) == [] and "Tournament 1: Pathagon" not in answer.content
            await fake.wait_until(lambda said=said: said in card.content, timeout=DEADLINE)
            assert labels(card) == ["Join", "Leave"]
            cards = [m for m in fake.messages_in(CHANNEL) if "Join" in labels(m)]
            assert cards == [card]
        started = await run.answer(ALICE, "tournament start", {})
        assert "3 games at once" in started.content
        # Asked privately first (issue 45), then said once in the channel.
        question = await run.answer(CAROL, "tournament leave", {})
        assert question.ephemeral and labels(question) == ["Yes, leave"]
        await run.click(CAROL, question, "Yes, leave")
        # The channel's own line (Carol's ephemeral question, edited to say it to her, can
        # come first: waiting for any message let the test go on before the line was posted).
        await fake.wait_until(
            lambda: any(
                "left and is withdrawn" in m.content and not m.ephemeral
                for m in fake.messages_in(CHANNEL)
            ),
            timeout=DEADLINE,
        )
        store = run.manager.store
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE
        while await store.due_notifications("discord", run.manager.clock.now()):
            assert loop.time() < deadline, "the outbox did not drain"
            await asyncio.sleep(0.05)
        # Public messages only: Carol's own (ephemeral) question now says it to her too.
        public = [m for m in fake.messages_in(CHANNEL) if not m.ephemeral]
        withdrawn = [m for m in public if "withdrawn" in m.content]
        assert len(withdrawn) == 1 and withdrawn[0].pinged_users == frozenset()


async def test_tournament_games_get_threads_like_any_game(tmp_path: Path) -> None:
    """Issue 45: where the bot may start threads, each tournament game gets one, as an
    accepted challenge's game does: a line in the channel names it, the thread (named after
    the game, at most 100 characters) is started from that line and the board goes there;
    the game is played in it."""
    async with (
        fake_discord() as fake,
        running(fake, tmp_path / "t.db", outbox=True) as run,
    ):
        fake.grant_threads(GUILD)
        card = await run.answer(ALICE, "tournament new", {"game": "maphex", "days": "1"})
        for player in (BOB, CAROL):
            await run.click(player, card, "Join")
        started = await run.answer(ALICE, "tournament start", {})
        assert "3 games at once" in started.content
        games = [g.game_id for g in await run.manager.store.tournament_games(1)]
        await fake.wait_until(lambda: len(fake.threads_in(CHANNEL)) == 3, timeout=DEADLINE)

        def board_in(thread: FakeChannel) -> list[StoredMessage]:
            return [m for m in fake.messages_in(thread) if "Move" in labels(m)]

        await fake.wait_until(
            lambda: all(board_in(t) for t in fake.threads_in(CHANNEL)), timeout=DEADLINE
        )
        threads = {int(t.name.split()[0][1:]): t for t in fake.threads_in(CHANNEL)}
        assert sorted(threads) == sorted(games)
        for gid, thread in threads.items():
            assert thread.name.startswith(f"#{gid} Maphex: ") and len(thread.name) <= 100
            (board,) = board_in(thread)
            assert board.pinged_users == {await run.to_move(gid)}
        # No board of theirs in the channel: the channel has the lines the threads start from.
        in_channel = fake.messages_in(CHANNEL)
        assert not [m for m in in_channel if "Move" in labels(m)]
        assert sum("thread" in m.content for m in in_channel) == 3
        # Played in its thread: the player to move resigns there, the result stays there.
        gid, thread = next(iter(threads.items()))
        (board,) = board_in(thread)
        loser = await run.to_move(gid)
        ask = await run.click(loser, board, "Resign")
        question = await fake.original(ask, timeout=DEADLINE)
        done = await run.click(loser, question, "Yes, resign")
        over = await fake.original(done, timeout=DEADLINE)
        assert over.channel_id == thread.id and "resign" in over.content
