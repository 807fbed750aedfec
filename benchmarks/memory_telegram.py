"""The Telegram process for :mod:`benchmarks.memory` (``--platform telegram``): a real
``hexhall run`` with ``TELEGRAM_TOKEN`` (python-telegram-bot polling, the adapter, its rate
limiter, the outbox; pictures on) against the fake Bot API (:mod:`tests.fakes.telegram`) in
this process, started as the process tests start it (:mod:`tests.adapters.process_kit`).

``--lanes`` groups play at once (the bot paces each group at Telegram's 20 messages a
minute, so one group alone would take an hour per 1 000 moves): in each, two new players
play one game after another (the five games in turn), Alice challenging @Bob and Bob
accepting by the card's button, then ``/move <move> !`` by the player to move with random
legal moves, each sent once the previous move's board (a photo) is in the group, until the
game ends or ``--longest`` moves were made (then the player to move resigns).  At each mark
the resident memory of the bot process (``VmRSS``) is printed.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import telegram

import engines
from tests.adapters.process_kit import DEADLINE, BotProcess, bot_env
from tests.fakes.base import WaitTimeout
from tests.fakes.telegram import FakeTelegram

__all__ = ["GAMES", "Count", "rss_mib", "telegram_run", "trace_env"]

#: A folder named here (``HEXHALL_BENCH_TRACE=DIR``) makes the bot process trace its Python
#: allocations and write a snapshot there at every mark (:mod:`benchmarks.memtrace`).
TRACE = os.environ.get("HEXHALL_BENCH_TRACE")


def trace_env() -> dict[str, str]:
    """The bot's extra environment for tracing (none unless ``HEXHALL_BENCH_TRACE`` is set)."""
    if not TRACE:
        return {}
    Path(TRACE).mkdir(parents=True, exist_ok=True)
    here = Path(__file__).resolve()
    return {
        "PYTHONPATH": f"{here.parent / 'memtrace'}{os.pathsep}{here.parent.parent}",
        "HEXHALL_TRACEMALLOC": str(Path(TRACE).resolve()),
    }


#: The games played in turn (default options), as the console run plays them.
GAMES = ("maphex", "inphexion", "pathagon", "isopath", "fixation")
#: Longest wait for one answer (a guard against a hung bot, not a measure).
ANSWER_WAIT = 240.0


@dataclass
class Count:
    """Moves made across the lanes, and what to print when."""

    moves: int
    marks: set[int]
    pid: int
    started: float = field(default_factory=time.perf_counter)
    played: int = 0
    games: int = 0
    #: games cut short: answers refused for coming too late (Discord's 3 s), or errors
    late: int = 0

    def snapshot(self) -> None:
        """With tracing on, ask the bot process for a snapshot of its allocations."""
        if TRACE:
            os.kill(self.pid, signal.SIGUSR1)


def rss_mib(pid: int) -> float:
    """The resident set size of process ``pid`` in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS in /proc/{pid}/status")


def _button(fake: FakeTelegram, message: telegram.Message, label: str) -> str:
    for row in fake.keyboard(message):
        for b in row:
            if b.text == label and isinstance(b.callback_data, str):
                return b.callback_data
    raise RuntimeError(f"no button {label!r} on {message.text or message.caption!r}")


async def _photo_after(fake: FakeTelegram, chat: telegram.Chat, after: int) -> telegram.Message:
    """The first board (a photo) the bot posts in ``chat`` after message ``after``."""
    found: list[telegram.Message] = []

    def check() -> bool:
        found[:] = [m for m in fake.sent_after(chat, after) if m.photo][:1]
        return bool(found)

    try:
        await fake.wait_until(check, timeout=ANSWER_WAIT)
    except Exception:
        said = [m.text or m.caption for m in fake.sent_after(chat, after)]
        raise RuntimeError(f"no board in {chat.title} after {after}; the bot said {said}") from None
    return found[0]


async def _answered(fake: FakeTelegram, chat: telegram.Chat, after: int) -> bool:
    """Whether the bot answered a move in ``chat`` after message ``after`` with its board
    (``False``: "not your turn")."""
    found: list[telegram.Message] = []

    def check() -> bool:
        found[:] = [
            m for m in fake.sent_after(chat, after) if m.photo or "not your turn" in (m.text or "")
        ][:1]
        return bool(found)

    await fake.wait_until(check, timeout=ANSWER_WAIT)
    return bool(found[0].photo)


async def _any_after(fake: FakeTelegram, chat: telegram.Chat, after: int) -> telegram.Message:
    await fake.wait_until(lambda: bool(fake.sent_after(chat, after)), timeout=ANSWER_WAIT)
    return fake.sent_after(chat, after)[0]


async def _lane(
    fake: FakeTelegram, lane: int, count: Count, rng: random.Random, longest: int
) -> None:
    """Games in group number ``lane``, one after another, until ``count`` has its moves.  A
    game the bot could not start or go on with (an error answered, or no answer within
    ``ANSWER_WAIT`` on an overloaded machine) is counted and left; a new one begins."""
    round_ = 0
    while count.played < count.moves:
        round_ += 1
        count.games += 1
        try:
            await _game(fake, lane * 10_000 + round_, count, rng, longest)
        except (RuntimeError, WaitTimeout) as exc:
            count.late += 1
            print(f"game cut short in lane {lane}: {str(exc)[:160]}", flush=True)


async def _game(
    fake: FakeTelegram, number: int, count: Count, rng: random.Random, longest: int
) -> None:
    """One game between two new players in a new group, numbered ``number``."""
    name = GAMES[count.games % len(GAMES)]
    alice = fake.user(2 * number + 1, f"A{number}", f"a{number}")
    bob = fake.user(2 * number + 2, f"B{number}", f"b{number}")
    group = fake.group(-(1_000_000 + number), f"Room {number}")
    before = fake.last_message_id(group)
    await fake.send_text(bob, group, "/games")  # the bot now knows @b<number>
    await _any_after(fake, group, before)
    before = fake.last_message_id(group)
    await fake.send_text(alice, group, f"/challenge {name} @{bob.username} first=me")
    card = await _any_after(fake, group, before)
    before = fake.last_message_id(group)
    query = await fake.press(bob, card, _button(fake, card, "Accept"))
    await fake.wait_for_answer(query, timeout=ANSWER_WAIT)
    await _photo_after(fake, group, before)
    position, people, made = engines.new(name), [alice, bob], 0
    while position.outcome is None and made < longest and count.played < count.moves:
        move = rng.choice(position.legal_moves())
        seat = position.to_move
        position = position.play(move)
        for _ in range(2):
            before = fake.last_message_id(group)
            await fake.send_text(people[seat], group, f"/move {move} !")
            if await _answered(fake, group, before):
                break
            # The engine's seat and the bot's differ (a swap of sides): the other one.
            people.reverse()
        else:
            raise RuntimeError(f"/move {move} refused for both players in {group.title}")
        made += 1
        count.played += 1
        if count.played in count.marks:
            took = time.perf_counter() - count.started
            print(
                f"after {count.played:>6} moves ({count.games} games): "
                f"{rss_mib(count.pid):.1f} MiB resident "
                f"({took / count.played * 1000:.1f} ms a move across the lanes)",
                flush=True,
            )
            count.snapshot()
    if position.outcome is None:
        before = fake.last_message_id(group)
        await fake.send_text(people[0], group, "/resign !")  # either player may resign
        await _any_after(fake, group, before)


async def telegram_run(moves: int, marks: set[int], longest: int, seed: int, lanes: int) -> None:
    """Play ``moves`` moves through a Telegram ``hexhall run`` process in ``lanes`` groups at
    once; print its memory at ``marks``."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        async with FakeTelegram() as fake:
            env = bot_env(
                HEXHALL_DB=str(Path(folder) / "hexhall.db"),
                TELEGRAM_TOKEN=fake.token,
                TELEGRAM_API_URL=fake.base_url,
                TELEGRAM_FILE_URL=fake.base_file_url,
                **trace_env(),
            )
            bot = BotProcess(env, Path(folder) / "bot.log")
            await bot.launch()
            try:
                await bot.racing(
                    fake.wait_until(lambda: bool(fake.calls_to("getUpdates")), timeout=DEADLINE)
                )
                print(f"hexhall run (Telegram against the fake, pictures on), pid {bot.pid}")
                print(f"started: {rss_mib(bot.pid):.1f} MiB resident", flush=True)
                count = Count(moves, marks, bot.pid)
                await bot.racing(
                    asyncio.gather(*(_lane(fake, n, count, rng, longest) for n in range(lanes)))
                )
            finally:
                if bot.running:
                    await bot.kill()  # measured: how it ends does not matter
