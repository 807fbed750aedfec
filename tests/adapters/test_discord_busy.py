"""A busy server on Discord (issue 45): two games (or a tournament's three), each in its own
thread, played by taps
alone (Move, the ephemeral picker's menus, Play it) at full speed, through the real
discord.py against the fake enforcing Discord's rate limits (5 messages per 5 s per channel,
50 requests a second: 429 past them) with the outbox delivering as in production.

Checked: every interaction is answered in time (the fake takes no response after Discord's
3 s, and counts none then); each move costs its thread one new public message (the board)
and at most one edit of a public message, the picker's traffic being ephemeral (seen by its
presser alone); no 429.  Speed is measured in ``benchmarks/chat_load.py``.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import engines
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DEADLINE,
    GUILD,
    Run,
    labels,
    running,
)
from tests.adapters.test_discord_picker import pick
from tests.fakes.discord_fake import DiscordLimits, FakeDiscord, StoredMessage, point_discord_py_at

DAVE = 2_004
#: Moves per game.
MOVES = 20


async def _accepted(run: Run, one: int, two: int) -> StoredMessage:
    """``one`` challenges ``two`` to Pathagon; accepted: the game's first board, in its
    thread."""
    card = await run.answer(one, "challenge", {"game": "pathagon", "opponent": two, "first": "me"})
    await run.click(two, card, "Accept")
    fake = run.fake

    def threads() -> set[int]:
        return {t.id for t in fake.threads_in(CHANNEL)}

    await fake.wait_until(lambda: card.id in threads(), timeout=DEADLINE)
    await fake.wait_until(lambda: bool(fake.messages_in(card.id)), timeout=DEADLINE)
    return fake.messages_in(card.id)[0]


async def _play(run: Run, board: StoredMessage, game_id: int, seed: int) -> int:
    """The game's players play up to :data:`MOVES` moves by taps; how many they played."""
    rng = random.Random(seed)
    position = engines.new("pathagon")
    played = 0
    while played < MOVES and position.outcome is None:
        move = position.random_move(rng)
        board = await pick(run, await run.to_move(game_id), board, move)
        assert not board.ephemeral and f"`{move}`" in board.content + str(board.embeds)
        position = position.play(move)
        played += 1
    return played


def _public(fake: FakeDiscord, channel: int) -> list[StoredMessage]:
    return [m for m in fake.messages_in(channel) if not m.ephemeral]


async def _check(
    fake: FakeDiscord, threads: list[int], played: list[int], before: dict[int, int],
    edits: dict[int, int], first: int,
) -> None:  # fmt: skip
    """One board per move in each thread and at most one public edit; every interaction
    since ``first`` answered in time; no 429."""
    for thread, moves in zip(threads, played, strict=True):
        assert moves > 0
        assert len(_public(fake, thread)) - before[thread] == moves
        assert sum(m.edits for m in _public(fake, thread)) - edits[thread] <= moves
    late = [r.id for k, r in fake.interactions.items() if k > first and r.response is None]
    assert late == []
    assert 429 not in [(c.response or {}).get("status") for c in fake.calls]


async def test_a_tournament_s_games_played_by_taps_at_full_speed(tmp_path: Path) -> None:
    """A three-player tournament: its three games at once, each in its own thread, played by
    taps side by side (each player in two of them) under Discord's rate limits."""
    async with FakeDiscord(limits=DiscordLimits()) as fake:
        guild = fake.guild(GUILD, "Hexhall")
        fake.channel(guild, CHANNEL, "games")
        for uid, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")):
            fake.member(guild, uid, name)
        fake.grant_threads(GUILD)
        with point_discord_py_at(fake):
            async with running(fake, tmp_path / "hexhall.db", outbox=True) as run:
                card = await run.answer(ALICE, "tournament new", {"game": "pathagon", "days": "1"})
                for player in (BOB, CAROL):
                    await run.click(player, card, "Join")
                await run.answer(ALICE, "tournament start", {})
                games = [g.game_id for g in await run.manager.store.tournament_games(1)]
                await fake.wait_until(lambda: len(fake.threads_in(CHANNEL)) == 3, timeout=DEADLINE)

                def board_in(thread: int) -> list[StoredMessage]:
                    return [m for m in _public(fake, thread) if "Move" in labels(m)]

                threads = [t.id for t in fake.threads_in(CHANNEL)]
                await fake.wait_until(lambda: all(board_in(t) for t in threads), timeout=DEADLINE)
                by_game = {int(t.name.split()[0][1:]): t.id for t in fake.threads_in(CHANNEL)}
                assert sorted(by_game) == sorted(games)
                order = [by_game[g] for g in games]
                first = max(fake.interactions)
                before = {t: len(_public(fake, t)) for t in order}
                edits = {t: sum(m.edits for m in _public(fake, t)) for t in order}
                played = await asyncio.gather(
                    *(_play(run, board_in(by_game[g])[-1], g, g) for g in games)
                )
                await _check(fake, order, list(played), before, edits, first)


async def test_two_threads_playing_by_taps_at_full_speed(tmp_path: Path) -> None:
    async with FakeDiscord(limits=DiscordLimits()) as fake:
        guild = fake.guild(GUILD, "Hexhall")
        fake.channel(guild, CHANNEL, "games")
        for uid, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
            fake.member(guild, uid, name)
        fake.grant_threads(GUILD)
        with point_discord_py_at(fake):
            async with running(fake, tmp_path / "hexhall.db", outbox=True) as run:
                boards = [await _accepted(run, ALICE, BOB), await _accepted(run, CAROL, DAVE)]
                threads = [b.channel_id for b in boards]
                first = max(fake.interactions)
                before = {t: len(_public(fake, t)) for t in threads}
                edits = {t: sum(m.edits for m in _public(fake, t)) for t in threads}
                played = await asyncio.gather(
                    *(_play(run, b, gid, gid) for gid, b in enumerate(boards, start=1))
                )
                await _check(fake, threads, list(played), before, edits, first)
