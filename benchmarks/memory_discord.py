"""The Discord process for :mod:`benchmarks.memory` (``--platform discord``): a real
``hexhall run`` with ``DISCORD_TOKEN`` (discord.py's gateway and REST, the adapter, the
outbox; pictures on) against the fake Discord (:mod:`tests.fakes.discord_fake`) in this
process, started as the process tests start it (:mod:`tests.adapters.process_kit`).

``--lanes`` channels of one server play at once: in each, two members play one game after
another (the five games in turn), the first challenging the second by ``/challenge`` and the
second accepting by the card's button, then ``/move`` by the player to move (read from the
board's card) with random legal moves, each once the previous move's board answered, until
the game ends or ``--longest`` moves were made (or a move would lose and the bot asks first:
then too), when the player to move resigns.  An answer later than Discord's 3 s (a loaded
machine) is refused by the fake: counted, and the lane starts a new game.  At each mark the
resident memory of the bot process (``VmRSS``) is printed.  An answer that does not come
within ``ANSWER_WAIT`` (an overloaded machine) cuts its game short too.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import engines
from benchmarks.memory_telegram import GAMES, Count, rss_mib, trace_env
from tests.adapters.discord_kit import button, labels
from tests.adapters.process_kit import DEADLINE, BotProcess, bot_env
from tests.fakes.base import WaitTimeout
from tests.fakes.discord_fake import FakeDiscord, ResponseRefused, StoredMessage

__all__ = ["discord_run"]

GUILD = 9_000
#: Longest wait for one answer (a guard against a hung bot, not a measure).
ANSWER_WAIT = 240.0


async def _answer(
    fake: FakeDiscord, user: int, channel: int, command: str, options: dict[str, Any]
) -> StoredMessage:
    record = await fake.slash(user, channel, command, options)
    await fake.response(record, timeout=ANSWER_WAIT)
    return await fake.original(record, timeout=ANSWER_WAIT)


def _to_move(board: StoredMessage) -> int:
    fields = {f["name"]: f["value"] for f in board.embeds[0]["fields"]}
    return int(fields["To move"].split(">")[0].removeprefix("<@"))


async def _lane(
    fake: FakeDiscord, lane: int, count: Count, rng: random.Random, longest: int
) -> None:
    """Games in channel number ``lane``, one after another, until ``count`` has its moves."""
    round_ = 0
    while count.played < count.moves:
        count.games += 1
        pair = _pair(lane, round_)
        round_ += 1
        try:
            await _game(fake, 50_000 + lane, pair, count, rng, longest)
        except (ResponseRefused, WaitTimeout):
            # Answered after Discord's 3 s, or not within ANSWER_WAIT on an overloaded
            # machine: the game is left, a new one begins.
            count.late += 1


#: Pairs of members in each channel: each game between a new pair (one pair's games could
#: meet a limit of the bot's, on challenges or games at once, that this run is not about).
PAIRS = 40


def _pair(lane: int, round_: int) -> tuple[int, int]:
    first = 60_000 + lane * 2 * PAIRS + 2 * (round_ % PAIRS)
    return first, first + 1


async def _game(
    fake: FakeDiscord,
    channel: int,
    pair: tuple[int, int],
    count: Count,
    rng: random.Random,
    longest: int,
) -> None:
    """One game in ``channel`` between the members ``pair``."""
    one, two = pair
    name = GAMES[count.games % len(GAMES)]
    card = await _answer(fake, one, channel, "challenge", {"game": name, "opponent": two})
    if "Accept" not in labels(card):
        print(f"challenge refused in channel {channel}: {card.content[:200]!r}", flush=True)
        count.late += 1
        return
    click = await fake.click(two, card, button(card, "Accept"))
    await fake.response(click, timeout=ANSWER_WAIT)
    # The card, edited in place, is the game's first board.
    await fake.wait_until(lambda: "Board" in labels(card), timeout=ANSWER_WAIT)
    board, gid = card, button(card, "Board").split(":")[1]
    position, made = engines.new(name), 0
    while position.outcome is None and made < longest and count.played < count.moves:
        move = rng.choice(position.legal_moves())
        answered = await _answer(
            fake, _to_move(board), channel, "move", {"game": gid, "move": move}
        )
        if answered.ephemeral:  # a losing move: the bot asks first; the game ends here
            break
        board, position, made = answered, position.play(move), made + 1
        count.played += 1
        if count.played in count.marks:
            took = time.perf_counter() - count.started
            print(
                f"after {count.played:>6} moves ({count.games} games): "
                f"{rss_mib(count.pid):.1f} MiB resident "
                f"({took / count.played * 1000:.1f} ms a move across the lanes, "
                f"{count.late} games cut short)",
                flush=True,
            )
            count.snapshot()
    if position.outcome is None:
        loser = _to_move(board)
        asked = await _answer(fake, loser, channel, "resign", {"game": gid})
        if "Yes, resign" in labels(asked):
            done = await fake.click(loser, asked, button(asked, "Yes, resign"))
            await fake.response(done, timeout=ANSWER_WAIT)


async def discord_run(moves: int, marks: set[int], longest: int, seed: int, lanes: int) -> None:
    """Play ``moves`` moves through a Discord ``hexhall run`` process in ``lanes`` channels
    at once; print its memory at ``marks``."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() as fake:
            guild = fake.guild(GUILD, "Hexhall")
            for lane in range(lanes):
                fake.channel(guild, 50_000 + lane, f"games{lane}")
                for round_ in range(PAIRS):
                    for member in _pair(lane, round_):
                        fake.member(guild, member, f"m{member}")
            env = bot_env(
                HEXHALL_DB=str(Path(folder) / "hexhall.db"),
                DISCORD_TOKEN=fake.token,
                DISCORD_API_URL=fake.api_base,
                DISCORD_GATEWAY_URL=str(fake.gateway_url),
                **trace_env(),
            )
            bot = BotProcess(env, Path(folder) / "bot.log")
            await bot.launch()
            try:
                await bot.racing(
                    fake.wait_until(
                        lambda: bool(fake.sessions) and len(fake.commands()) >= 10,
                        timeout=DEADLINE,
                    )
                )
                print(f"hexhall run (Discord against the fake, pictures on), pid {bot.pid}")
                print(f"started: {rss_mib(bot.pid):.1f} MiB resident", flush=True)
                count = Count(moves, marks, bot.pid)
                await bot.racing(
                    asyncio.gather(*(_lane(fake, n, count, rng, longest) for n in range(lanes)))
                )
            finally:
                if bot.running:
                    await bot.kill()  # measured: how it ends does not matter
