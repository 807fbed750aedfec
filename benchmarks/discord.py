"""Discord adapter speed, through the real discord.py client against the fake Discord on
127.0.0.1 (both in this process, so the figures include the client's own event handling).

Run: ``.venv/bin/python benchmarks/discord.py`` (``--quick`` for a short run).

1. Autocompletion: the time from an autocomplete interaction's dispatch to the bot's choices,
   for ``move`` in a game of every kind at several points of a random game (Iso-Path on the
   size-5 board included), typed nothing and typed a first part; worst case and p50 per game.
   Discord cannot wait for these: they must come fast.
3. The Move picker (after the moves): a game of every kind, each move entered by the live
   board's Move button, the picker's menus and Preview / Play it; the time from each press's
   dispatch to its first response, p50 and p99, and how many presses a move took.
4. A user-install DM (after the picker): a game in a DM between two friends that the bot is
   not a member of (only the interactions reach it), played by ``/move`` for ``--dm-moves``
   moves; dispatch -> first response p50 / p99, the REST requests the bot made to that DM
   (none should be: it learns from the first interaction that it cannot post there) and the
   most followups one interaction sent (Discord allows 5 there).
2. Moves: ``--games`` games at once (the kinds in turn), every player to move answering at
   once, by ``/move`` slash commands with board pictures, until ``--moves`` moves were made;
   the time from each interaction's dispatch to its first response, p50 and p99 (Discord
   wants it within 3 s; the bot defers a slow answer first).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This script's own folder first on the path would make ``import discord`` import this very
# file: put the repository there instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import engines
from bot.adapters.discord import DiscordBot
from bot.sessions import building
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from tests.fakes.discord_fake import FakeDiscord, InteractionRecord, point_discord_py_at

GUILD, CHANNEL = 1_000, 1_001
#: The DM between two friends that the bot is not a member of.
FRIENDS = 6_000
KINDS: list[tuple[str, dict[str, Any]]] = [
    ("maphex", {"size": 9}),
    ("maphex", {"size": 16}),
    ("pathagon", {}),
    ("fixation", {}),
    ("isopath", {"size": 4}),
    ("isopath", {"size": 5}),
    ("inphexion", {"size": 7, "pie": True}),
]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def answered(fake: FakeDiscord, record: InteractionRecord) -> float:
    """Seconds from dispatch to the first response."""
    response = await fake.response(record, timeout=60)
    return response.at - record.dispatched_at


async def new_game(
    fake: FakeDiscord,
    one: int,
    two: int,
    game: str,
    options: dict[str, Any],
    channel: int = CHANNEL,
) -> tuple[int, engines.Position]:
    record = await fake.slash(
        one, channel, "challenge", {"game": game, "opponent": two, "first": "me", **options}
    )
    await fake.response(record, timeout=60)
    card = await fake.original(record, timeout=60)
    click = await fake.click(two, card, next(i for i in card.custom_ids if i.startswith("acc")))
    await fake.response(click, timeout=60)
    await fake.wait_until(lambda: any(i.startswith("bd:") for i in card.custom_ids), timeout=60)
    gid = int(next(i for i in card.custom_ids if i.startswith("bd:")).split(":")[1])
    return gid, engines.new(game, **options)


async def autocomplete_figures(fake: FakeDiscord, samples: int) -> None:
    print("autocomplete of /move (dispatch -> choices), ms:")
    rng = random.Random(3)
    for index, (game, options) in enumerate(KINDS):
        one, two = 3_000 + 2 * index, 3_001 + 2 * index
        gid, position = await new_game(fake, one, two, game, options)
        times: list[float] = []
        for _ in range(samples):
            if position.outcome is not None:
                break
            mover = (one, two)[position.to_move]
            legal = position.legal_moves()
            for typed in ("", legal[0].split(" ")[0][:2], legal[0].split(" ")[0]):
                record = await fake.autocomplete_interaction(
                    mover, CHANNEL, "move", {"game": str(gid), "move": typed}, focused="move"
                )
                times.append(await answered(fake, record))
            move = rng.choice(legal)
            record = await fake.slash(mover, CHANNEL, "move", {"game": str(gid), "move": move})
            await fake.response(record, timeout=60)
            await fake.original(record, timeout=60)
            position = position.play(move)
        label = f"{game} {' '.join(f'{k}={v}' for k, v in options.items())}".strip()
        print(
            f"  {label:<28} worst {max(times) * 1000:7.1f}  p50 "
            f"{statistics.median(times) * 1000:6.1f}  ({len(times)} answers, up to move "
            f"{position.ply}, {len(position.legal_moves()) if position.outcome is None else 0}"
            " legal moves at the end)"
        )


async def move_figures(fake: FakeDiscord, games: int, moves: int) -> None:
    pairs = [(4_000 + 2 * i, 4_001 + 2 * i) for i in range(games)]
    started = await asyncio.gather(
        *(new_game(fake, one, two, *KINDS[i % len(KINDS)]) for i, (one, two) in enumerate(pairs))
    )
    state = {gid: (pair, position) for (gid, position), pair in zip(started, pairs, strict=True)}
    rng = random.Random(11)
    times: list[float] = []
    deferred = 0
    begin = time.perf_counter()

    async def one_move(gid: int) -> None:
        nonlocal deferred
        pair, position = state[gid]
        mover = pair[position.to_move]
        move = rng.choice(position.legal_moves())
        record = await fake.slash(mover, CHANNEL, "move", {"game": str(gid), "move": move})
        times.append(await answered(fake, record))
        assert record.response is not None
        deferred += record.response.type == 5
        board = await fake.original(record, timeout=60)
        if board.ephemeral:  # a move that loses for its player: played another time
            return
        after = position.play(move)
        state[gid] = (pair, after)
        if after.outcome is not None:
            del state[gid]

    while len(times) < moves and state:
        await asyncio.gather(*(one_move(gid) for gid in list(state)))
    took = time.perf_counter() - begin
    print(
        f"moves: {len(times)} /move interactions in {games} concurrent games, {took:.1f} s "
        f"({len(times) / took:.0f}/s); dispatch -> first response p50 "
        f"{pct(times, 50) * 1000:.0f} ms, p99 {pct(times, 99) * 1000:.0f} ms, max "
        f"{max(times) * 1000:.0f} ms; deferred first: {deferred}"
    )


async def press(
    fake: FakeDiscord, user: int, message: Any, custom_id: str, values: list[str] | None = None
) -> tuple[InteractionRecord, float]:
    """A press on ``message`` (a button, or ``values`` in a select): the record and seconds to
    its first response, once whatever it changed is there."""
    edits = message.edits
    record = await fake.click(user, message, custom_id, values=values)
    took = await answered(fake, record)
    assert record.response is not None
    if record.response.type == 6:  # deferred: wait for the edit
        await fake.wait_until(lambda: message.edits > edits, timeout=60)
    return record, took


async def picker_figures(fake: FakeDiscord, manager: SessionManager, samples: int) -> None:
    times: list[float] = []
    presses: list[int] = []
    rng = random.Random(5)
    for index, (game, options) in enumerate(KINDS):
        one, two = 3_000 + 2 * index, 3_001 + 2 * index
        gid, position = await new_game(fake, one, two, game, options)
        board = next(m for m in reversed(fake.messages_in(CHANNEL)) if f"pk:{gid}" in m.custom_ids)
        for _ in range(samples):
            if position.outcome is not None:
                break
            who = await manager.games.player_to_move(gid)
            assert who is not None
            player = int(who.user_id)
            move = rng.choice(position.legal_moves())
            record, took = await press(fake, player, board, f"pk:{gid}")
            times.append(took)
            picker = await fake.original(record, timeout=60)
            count, prefix = 1, ""
            # Iso-Path is picked as two steps of cells (bot.sessions.building): its choices
            # are the selections on the way to the turn, not parts of its notation.
            path = building.choices_for(position, move) if game == "isopath" else None
            while not any(i.startswith("mv:") for i in picker.custom_ids):
                chosen = [
                    (c["custom_id"], o["value"])
                    for c in picker.walk_components()
                    if c.get("type") == 3
                    for o in c["options"]
                    if (part := o["value"].split(":", 4)[4][1:]) in (path or ())
                    or (
                        path is None
                        and move.startswith(part)
                        and len(part) > len(prefix)
                        and move[len(part) : len(part) + 1] in ("", " ", ">", "-")
                    )
                ]
                if chosen:
                    custom_id, value = chosen[-1]
                    _, took = await press(fake, player, picker, custom_id, [value])
                    prefix = value.split(":", 4)[4][1:]
                else:
                    ids = picker.custom_ids
                    target = next((i for i in ids if i.startswith("hxv:")), None)
                    if target is None or (prefix != move and path is None):
                        target = next(
                            str(c["custom_id"])
                            for c in picker.walk_components()
                            if c.get("type") == 2 and c.get("label") == "▶"
                        )
                    _, took = await press(fake, player, picker, target)
                times.append(took)
                count += 1
            play = next(i for i in picker.custom_ids if i.startswith("mv:"))
            record, took = await press(fake, player, picker, play)
            times.append(took)
            presses.append(count + 1)
            board = (await fake.followups(record, timeout=60))[0]
            if board.ephemeral:  # a move that loses for its player: not played
                break
            position = position.play(move)
    print(
        f"picker: {len(times)} presses for {len(presses)} moves in {len(KINDS)} games; dispatch "
        f"-> first response p50 {pct(times, 50) * 1000:.0f} ms, p99 {pct(times, 99) * 1000:.0f}"
        f" ms, max {max(times) * 1000:.0f} ms; presses per move p50 {pct(presses, 50)}, max "
        f"{max(presses)}"
    )


async def dm_figures(fake: FakeDiscord, moves: int) -> None:
    one, two = fake.user(5_000, "friend1").id, fake.user(5_001, "friend2").id
    friends = fake.private_channel(FRIENDS, [one, two])
    gid, position = await new_game(fake, one, two, "pathagon", {}, channel=friends.id)
    rng = random.Random(13)
    times: list[float] = []
    followups: list[int] = []
    while len(times) < moves and position.outcome is None:
        mover = (one, two)[position.to_move]
        move = rng.choice(position.legal_moves())
        record = await fake.slash(mover, friends.id, "move", {"game": str(gid), "move": move})
        times.append(await answered(fake, record))
        board = await fake.original(record, timeout=60)
        followups.append(len(record.followups))
        if not board.ephemeral:
            position = position.play(move)
    to_dm = [
        c
        for c in fake.calls
        if isinstance(c.data, dict) and c.data.get("params", {}).get("channel_id") == str(FRIENDS)
    ]
    print(
        f"user-install DM: {len(times)} /move interactions; dispatch -> first response p50 "
        f"{pct(times, 50) * 1000:.0f} ms, p99 {pct(times, 99) * 1000:.0f} ms; REST requests to "
        f"the DM: {len(to_dm)}; most followups of one interaction: {max(followups)} (of 5)"
    )


def live_boards(fake: FakeDiscord, channel: int = CHANNEL) -> collections.Counter[str]:
    """How many public messages of each game in ``channel`` still offer to resign."""
    return collections.Counter(
        custom_id
        for message in fake.messages_in(channel)
        if not message.ephemeral
        for custom_id in message.custom_ids
        if custom_id.startswith("rs:")
    )


async def settled(fake: FakeDiscord, channel: int = CHANNEL) -> None:
    """Wait until the bot has taken the buttons off every older board in ``channel`` (work it
    does after answering): closing it earlier would cut those edits off."""
    await fake.wait_until(
        lambda: all(n <= 1 for n in live_boards(fake, channel).values()), timeout=60
    )


async def main(quick: bool, games: int, moves: int, dm_moves: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord(response_deadline=30.0) as fake:
            guild = fake.guild(GUILD, "Bench")
            fake.channel(guild, CHANNEL, "games")
            for uid in range(3_000, 3_000 + 2 * len(KINDS)):
                fake.member(guild, uid, f"p{uid}")
            for uid in range(4_000, 4_000 + 2 * games):
                fake.member(guild, uid, f"p{uid}")
            with point_discord_py_at(fake):
                store = await SqliteStore.open(Path(folder) / "bench.db")
                manager = SessionManager(store, rng=random.Random(1))
                bot = DiscordBot(manager, guild_ready_timeout=0.05)
                await bot.login(fake.token)
                task = asyncio.create_task(bot.connect())
                await bot.wait_until_ready()
                try:
                    await autocomplete_figures(fake, 3 if quick else 12)
                    await move_figures(fake, games, moves)
                    await settled(fake)
                    await picker_figures(fake, manager, 3 if quick else 10)
                    await settled(fake)
                    await dm_figures(fake, dm_moves)
                    await settled(fake, FRIENDS)
                finally:
                    await bot.close()
                    await task
                    await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--games", type=int, default=50, help="concurrent games")
    parser.add_argument("--moves", type=int, default=500, help="moves to time (at least)")
    parser.add_argument("--dm-moves", type=int, default=60, help="moves in the user-install DM")
    args = parser.parse_args()
    if args.quick:
        args.games, args.moves = min(args.games, 10), min(args.moves, 60)
        args.dm_moves = min(args.dm_moves, 10)
    asyncio.run(main(args.quick, args.games, args.moves, args.dm_moves))
