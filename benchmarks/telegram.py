"""Telegram adapter latency against the fake Bot API on 127.0.0.1: the time from an update
being handed out (the ``getUpdates`` answer that carries it) to the bot's answer arriving at
the fake, for moves (``/move``, answered with the board) and for button presses (Move under
the board, answered with ``answerCallbackQuery`` after the picker's keyboard), in many games
played at once.  The real python-telegram-bot application, adapter, session manager and
SQLite file; the rate limiter does not pace (the fake is not Telegram: Telegram's own 20
messages a minute per group would dominate every figure).

    .venv/bin/python benchmarks/telegram.py [--games 50] [--moves 10] [--no-pictures]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# This script's folder first on the path would make "telegram" this file, not the library.
sys.path[:] = [str(ROOT), *(p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks")]
os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")

import engines
from tests.adapters.telegram_kit import running
from tests.fakes.telegram import FakeTelegram, _Params


class TimedFake(FakeTelegram):
    """The fake, noting when each update is handed out and when each answer arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.handed: dict[int, float] = {}
        self.answers: dict[str, float] = {}
        self.arrived: dict[tuple[int, int], float] = {}
        #: the update that carries each callback query
        self.query_updates: dict[str, int] = {}
        self._handlers["getUpdates"] = self._timed_updates
        self._handlers["answerCallbackQuery"] = self._timed_answer

    async def _timed_updates(self, p: _Params) -> Any:
        result = await self._get_updates(p)
        now = time.perf_counter()
        for update in result:
            self.handed.setdefault(update["update_id"], now)
        return result

    async def _timed_answer(self, p: _Params) -> Any:
        result = await self._answer_callback_query(p)
        self.answers.setdefault(p.text("callback_query_id") or "", time.perf_counter())
        return result

    async def press(self, user: Any, message: Any, data: str) -> str:
        """Press a button, noting which update carries the press."""
        query = await super().press(user, message, data)
        self.query_updates[query] = max(self.pending_updates())
        return query

    def _new_message(self, p: _Params, state: Any, content: dict[str, Any]) -> dict[str, Any]:
        message = super()._new_message(p, state, content)
        self.arrived[(state.id, message["message_id"])] = time.perf_counter()
        return message

    def sent_at(self, chat_id: int, message_id: int) -> float:
        """When the bot's message arrived."""
        return self.arrived[(chat_id, message_id)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def play(bot: Any, fake: TimedFake, n: int, moves: int, out: dict[str, list[float]]) -> None:
    alice = fake.user(1000 + 2 * n, f"A{n}", f"alice{n}")
    bob = fake.user(1001 + 2 * n, f"B{n}", f"bob{n}")
    group = fake.group(-(10_000 + n), f"Room {n}")
    await fake.send_text(bob, group, "hi")
    card = await bot.say(alice, group, "/challenge pathagon first=me", reply_to=(group.id, 1))
    before = fake.last_message_id(group)
    await bot.press(bob, card, bot.button(card, "Accept"))
    board = await bot.next_message(group, before)
    position = engines.new("pathagon")
    people = [alice, bob]
    for i in range(moves):
        mover = people[i % 2]
        # A button press: Move under the latest board opens the picker.
        query = await fake.press(mover, board, bot.button(board, "Move"))
        await fake.wait_for_answer(query, timeout=60)
        out["press"].append(fake.answers[query] - fake.handed[fake.query_updates[query]])
        # A move by command, answered with the next board.
        move = position.legal_moves()[(n * 7 + i * 3) % len(position.legal_moves())]
        position = position.play(move)
        before = fake.last_message_id(group)
        update = await fake.send_text(mover, group, f"/move {move}")
        assert update is not None
        board = await bot.next_message(group, before)
        out["move"].append(fake.sent_at(group.id, board.message_id) - fake.handed[update])


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=10, help="moves (and presses) per game")
    parser.add_argument("--no-pictures", action="store_true")
    args = parser.parse_args()
    out: dict[str, list[float]] = {"move": [], "press": []}
    with tempfile.TemporaryDirectory() as folder:
        async with (
            TimedFake() as fake,
            running(Path(folder) / "bench.db", pictures=not args.no_pictures, fake=fake) as bot,
        ):
            start = time.perf_counter()
            await asyncio.gather(*(play(bot, fake, n, args.moves, out) for n in range(args.games)))
            wall = time.perf_counter() - start
    print(
        f"{args.games} games at once, {args.moves} moves each, pictures "
        f"{'off' if args.no_pictures else 'on'}; {wall:.1f} s in all"
    )
    print(f"{'what':<14}{'count':>7}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}{'mean ms':>10}")
    for name, label in (("move", "/move"), ("press", "Move button")):
        values = [v * 1000 for v in out[name]]
        print(
            f"{label:<14}{len(values):>7}{percentile(values, 50):>10.1f}"
            f"{percentile(values, 99):>10.1f}{max(values):>10.1f}{statistics.mean(values):>10.1f}"
        )


if __name__ == "__main__":
    asyncio.run(main())
