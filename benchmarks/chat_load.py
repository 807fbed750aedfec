"""What a chat sees when two people play back to back, through each platform's fake with the
platform's flood limits enforced (Telegram: 1 new message a second per chat, 20 messages and
edits a minute per group; Discord: 5 messages per 5 s per channel, 50 requests a second).

The bot runs as ``hexhall run`` runs it: the real python-telegram-bot application with the
adapter's rate limiter (per-chat pacing, :mod:`bot.adapters.telegram.pacing`), or the real
discord.py client, the session manager on a SQLite file, and the outbox delivering
notifications through the platform's sender.  Alice (who opened the bot privately on
Telegram; open DMs on Discord) challenges Bob (who never started the bot on Telegram; closed
DMs on Discord) to Pathagon in a group, Bob accepts, and they alternate moves,
each as soon as the previous board is there and at least ``--interval`` seconds after the
previous move.  Printed, per move: new messages in the group, edits of messages there, direct
messages delivered and refused, and the time from the move reaching the bot to its board
reaching the chat (p50/p99/max).  Also the messages and edits accepting the challenge made.

    .venv/bin/python benchmarks/chat_load.py [--moves 12] [--interval 4] [--platform both]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# This script's folder first on the path would make "telegram"/"discord" these files.
sys.path[:] = [str(ROOT), *(p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks")]
os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")

import engines
from bot.adapters.discord import DiscordBot, DiscordSender
from bot.adapters.telegram import TelegramAdapter
from bot.adapters.telegram.sender import TelegramSender
from bot.delivery.outbox import Outbox
from bot.delivery.recap import Recaps
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from tests.fakes.discord_fake import DiscordLimits, FakeDiscord, point_discord_py_at
from tests.fakes.telegram import FakeTelegram, TelegramLimits, _Params

SENDS = ("sendMessage", "sendPhoto", "sendAnimation", "sendDocument")
EDITS = ("editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup")


@dataclass
class Figures:
    """What one platform's run measured."""

    platform: str
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    group_messages: int = 0
    group_edits: int = 0
    dms: int = 0
    dm_refused: int = 0
    accept_messages: int = 0
    accept_edits: int = 0
    flood_refusals: int = 0


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def moves_for(count: int) -> list[str]:
    """A reproducible Pathagon game of ``count`` moves (shorter if it ends)."""
    rng = random.Random(24)
    position, moves = engines.new("pathagon"), []
    while len(moves) < count and position.outcome is None:
        move = rng.choice(position.legal_moves())
        position = position.play(move)
        moves.append(move)
    return moves


# -- Telegram ------------------------------------------------------------------------------------


class TimedTelegram(FakeTelegram):
    """The fake with Telegram's limits, noting when each update is handed out and when each
    bot message arrives."""

    def __init__(self) -> None:
        super().__init__(limits=TelegramLimits())
        self.handed: dict[int, float] = {}
        self.arrived: dict[tuple[int, int], float] = {}
        self._handlers["getUpdates"] = self._timed_updates

    async def _timed_updates(self, p: _Params) -> Any:
        result = await self._get_updates(p)
        now = time.perf_counter()
        for update in result:
            self.handed.setdefault(update["update_id"], now)
        return result

    def _new_message(self, p: _Params, state: Any, content: dict[str, Any]) -> dict[str, Any]:
        message = super()._new_message(p, state, content)
        self.arrived[(state.id, message["message_id"])] = time.perf_counter()
        return message


def _telegram_counts(fake: FakeTelegram, group: int, since: int) -> tuple[int, int, int, int, int]:
    """Group messages, group edits, DMs delivered, DMs refused, 429s in calls ``since`` on."""
    msgs = edits = dms = refused = floods = 0
    for call in fake.calls[since:]:
        response = call.response or {}
        chat = call.data.get("chat_id") if isinstance(call.data, dict) else None
        if response.get("error_code") == 429:
            floods += 1
            continue
        ok = response.get("ok") is True
        if call.method in SENDS and chat is not None:
            if int(chat) == group:
                msgs += ok
            elif ok:
                dms += 1
            elif response.get("error_code") == 403:
                refused += 1
        elif call.method in EDITS and chat is not None and int(chat) == group:
            edits += ok
    return msgs, edits, dms, refused, floods


async def telegram_run(moves: list[str], interval: float, folder: Path) -> Figures:
    """Two players on Telegram (see the module docstring)."""
    figures = Figures("telegram")
    async with contextlib.AsyncExitStack() as stack:
        fake = await stack.enter_async_context(TimedTelegram())
        store = await SqliteStore.open(folder / "telegram.db")
        stack.push_async_callback(store.close)
        manager = SessionManager(store, rng=random.Random(7))
        stack.push_async_callback(manager.close)
        adapter = TelegramAdapter.build(
            manager, fake.token, api_url=fake.base_url, file_url=fake.base_file_url
        )
        outbox = Outbox(store, manager.clock)
        adapter.outbox = outbox
        sender = TelegramSender(adapter.application.bot, Recaps(store), manager)
        stop = asyncio.Event()
        delivery = asyncio.create_task(outbox.run("telegram", sender, stop=stop))

        async def end() -> None:
            stop.set()
            await delivery

        stack.push_async_callback(end)
        await adapter.start(poll_timeout=1)
        stack.push_async_callback(adapter.stop)

        alice, bob = fake.user(1, "Alice", "alice"), fake.user(2, "Bob", "bob")
        await fake.start_private(alice, send_start=False)  # Bob never started the bot
        group = fake.group(-100, "Club")
        await fake.send_text(bob, group, "hi")
        before = fake.last_message_id(group)
        await fake.send_text(alice, group, "/challenge pathagon first=me", reply_to=(group.id, 1))
        card = await _next_telegram(fake, group.id, before)
        data = next(
            b.callback_data for row in fake.keyboard(card) for b in row if b.text == "Accept"
        )
        mark, before = len(fake.calls), fake.last_message_id(group)
        await fake.press(bob, card, str(data))
        await _next_telegram(fake, group.id, before)
        await _settle(lambda: sum(c.method != "getUpdates" for c in fake.calls))
        accept = _telegram_counts(fake, group.id, mark)
        figures.accept_messages, figures.accept_edits = accept[0], accept[1]

        mark = len(fake.calls)
        people = [alice, bob]
        last = 0.0
        for i, move in enumerate(moves):
            await asyncio.sleep(max(0.0, last + interval - time.perf_counter()))
            last = time.perf_counter()
            before = fake.last_message_id(group)
            update = await fake.send_text(people[i % 2], group, f"/move {move}")
            assert update is not None
            board = await _next_telegram(fake, group.id, before, photo=True)
            arrived = fake.arrived[(group.id, board.message_id)]
            figures.latencies.append(arrived - fake.handed[update])
        await _settle(lambda: sum(c.method != "getUpdates" for c in fake.calls))
        counts = _telegram_counts(fake, group.id, mark)
        figures.moves = len(moves)
        (
            figures.group_messages,
            figures.group_edits,
            figures.dms,
            figures.dm_refused,
            figures.flood_refusals,
        ) = counts
    return figures


async def _next_telegram(fake: FakeTelegram, chat: int, after: int, *, photo: bool = False) -> Any:
    found: list[Any] = []

    def check() -> bool:
        found[:] = [m for m in fake.sent_after(chat, after) if m.photo or not photo][:1]
        return bool(found)

    await fake.wait_until(check, timeout=120)
    return found[0]


async def _settle(count: Any, quiet: float = 3.0) -> None:
    """Wait until nothing new happened for ``quiet`` seconds (the outbox's late sends)."""
    seen, since = count(), time.perf_counter()
    while time.perf_counter() - since < quiet:
        await asyncio.sleep(0.2)
        if count() != seen:
            seen, since = count(), time.perf_counter()


# -- Discord -------------------------------------------------------------------------------------

GUILD, CHANNEL, ALICE, BOB = 1_000, 1_001, 2_001, 2_002


@contextlib.asynccontextmanager
async def _discord_bot(fake: FakeDiscord, path: Path) -> AsyncIterator[DiscordBot]:
    async with contextlib.AsyncExitStack() as stack:
        store = await SqliteStore.open(path)
        stack.push_async_callback(store.close)
        manager = SessionManager(store, rng=random.Random(7))
        stack.push_async_callback(manager.close)
        box = Outbox(store, manager.clock)
        bot = DiscordBot(manager, outbox=box, guild_ready_timeout=0.05)
        await bot.login(fake.token)
        task = asyncio.create_task(bot.connect())

        async def close() -> None:
            await bot.close()
            await task

        stack.push_async_callback(close)
        await asyncio.wait_for(bot.wait_until_ready(), 30)
        stop = asyncio.Event()
        delivery = asyncio.create_task(
            box.run("discord", DiscordSender(bot, Recaps(store)), stop=stop)
        )

        async def end() -> None:
            stop.set()
            await delivery

        stack.push_async_callback(end)
        yield bot


def _discord_counts(fake: FakeDiscord, since: int) -> tuple[int, int, int, int, int]:
    """Channel messages, channel edits, DMs delivered, DMs refused, 429s in calls since."""
    msgs = edits = dms = refused = floods = 0
    for call in fake.calls[since:]:
        status = (call.response or {}).get("status")
        if status == 429:
            floods += 1
            continue
        channel = call.data.get("params", {}).get("channel_id")
        body = call.data.get("body") or {}
        route = call.method
        if route == "POST /channels/{channel_id}/messages":
            if channel == str(CHANNEL):
                msgs += status == 200
            elif status == 200:
                dms += 1
            elif status == 403:
                refused += 1
        elif route == "POST /interactions/{interaction_id}/{interaction_token}/callback":
            kind = body.get("type") if isinstance(body, dict) else None
            flags = (body.get("data") or {}).get("flags", 0) if isinstance(body, dict) else 0
            if kind == 4 and not flags & 64:  # a public message answering the interaction
                msgs += 1
            elif kind == 7:  # the clicked message updated
                edits += 1
        elif route.startswith("POST /webhooks/"):
            flags = body.get("flags", 0) if isinstance(body, dict) else 0
            msgs += status == 200 and not flags & 64
        elif route.startswith("PATCH "):
            edits += status == 200
    return msgs, edits, dms, refused, floods


async def discord_run(moves: list[str], interval: float, folder: Path) -> Figures:
    """Two players on Discord (see the module docstring)."""
    figures = Figures("discord")
    async with FakeDiscord(limits=DiscordLimits()) as fake:
        guild = fake.guild(GUILD, "Hexhall")
        fake.channel(guild, CHANNEL, "games")
        fake.member(guild, ALICE, "alice")
        fake.member(guild, BOB, "bob")
        fake.close_dms(BOB)
        with point_discord_py_at(fake):
            async with _discord_bot(fake, folder / "discord.db"):
                record = await fake.slash(
                    ALICE,
                    CHANNEL,
                    "challenge",
                    {"game": "pathagon", "opponent": BOB, "first": "me"},
                )
                card = await fake.original(record, timeout=30)
                accept = next(
                    str(c["custom_id"])
                    for c in card.walk_components()
                    if c.get("type") == 2 and c.get("label") == "Accept"
                )
                mark = len(fake.calls)
                count, edits = len(fake.messages_in(CHANNEL)), card.edits
                await fake.click(BOB, card, accept)
                # The card becomes the first board (edited), or a board follows it.
                await fake.wait_until(
                    lambda: card.edits > edits or len(fake.messages_in(CHANNEL)) > count,
                    timeout=30,
                )
                await _settle(lambda: sum(c.method != "getUpdates" for c in fake.calls))
                accepted = _discord_counts(fake, mark)
                figures.accept_messages, figures.accept_edits = accepted[0], accepted[1]
                board_id = next(
                    str(c["custom_id"])
                    for c in card.walk_components()
                    if c.get("type") == 2 and c.get("label") == "Board"
                )
                gid = int(board_id.split(":")[1])

                mark = len(fake.calls)
                last = 0.0
                for i, move in enumerate(moves):
                    await asyncio.sleep(max(0.0, last + interval - time.perf_counter()))
                    last = start = time.perf_counter()
                    seen = {m.id for m in fake.messages_in(CHANNEL)}
                    options = {"game": str(gid), "move": move}
                    await fake.slash((ALICE, BOB)[i % 2], CHANNEL, "move", options)

                    def board(seen: set[int] = seen) -> bool:
                        return any(
                            m.id not in seen and m.files and not m.ephemeral
                            for m in fake.messages_in(CHANNEL)
                        )

                    await fake.wait_until(board, timeout=60)
                    figures.latencies.append(time.perf_counter() - start)
                await _settle(lambda: sum(c.method != "getUpdates" for c in fake.calls))
                counts = _discord_counts(fake, mark)
                figures.moves = len(moves)
                (
                    figures.group_messages,
                    figures.group_edits,
                    figures.dms,
                    figures.dm_refused,
                    figures.flood_refusals,
                ) = counts
    return figures


def report(f: Figures) -> None:
    """Print one platform's figures."""
    lat = [v * 1000 for v in f.latencies]
    n = max(f.moves, 1)
    print(
        f"{f.platform:<9} {f.moves:>5} {f.group_messages / n:>9.2f} {f.group_edits / n:>7.2f} "
        f"{f.dms / n:>6.2f} {f.dm_refused / n:>9.2f} {f.flood_refusals:>6} "
        f"{percentile(lat, 50):>8.0f} {percentile(lat, 99):>8.0f} {max(lat):>8.0f}   "
        f"{f.accept_messages} msg + {f.accept_edits} edit"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--interval", type=float, default=4.0, help="seconds between moves")
    parser.add_argument("--platform", choices=("telegram", "discord", "both"), default="both")
    args = parser.parse_args()
    moves = moves_for(args.moves)
    results = []
    with tempfile.TemporaryDirectory() as folder:
        if args.platform in ("telegram", "both"):
            results.append(await telegram_run(moves, args.interval, Path(folder)))
        if args.platform in ("discord", "both"):
            results.append(await discord_run(moves, args.interval, Path(folder)))
    print(f"{len(moves)} Pathagon moves, one every >= {args.interval:g} s, limits enforced")
    print(
        f"{'platform':<9} {'moves':>5} {'msgs/mv':>9} {'edit/mv':>7} {'dm/mv':>6} "
        f"{'dm-ref/mv':>9} {'429s':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}   accepting"
    )
    for figures in results:
        report(figures)


if __name__ == "__main__":
    asyncio.run(main())
