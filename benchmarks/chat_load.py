"""What a chat sees when two people play back to back, through each platform's fake with the
platform's flood limits enforced (Telegram: 1 new message a second per chat, 20 messages and
edits a minute per group; Discord: 5 messages per 5 s per channel, 50 requests a second).

The bot runs as ``hexhall run`` runs it: the real python-telegram-bot application with the
adapter's rate limiter (per-chat pacing, :mod:`bot.adapters.telegram.pacing`), or the real
discord.py client, the session manager on a SQLite file, and the outbox delivering
notifications through the platform's sender.  Alice (who opened the bot privately on
Telegram; open DMs on Discord) challenges Bob (who never started the bot on Telegram; closed
DMs on Discord) to Pathagon in a group, Bob accepts, and they alternate moves, each as soon
as the previous board is there and at least ``--interval`` seconds after the previous move
(0: back to back), either typed (``/move``) or made by taps (issue 45: Move, then the
picker's buttons, wherever the bot shows the picker; on Telegram a deep link the tap's
answer opens is followed as a client does: Start in the bot's chat).

Printed, per move: new messages, edits and deletes in the game's chat, direct messages
delivered, 429s; the tap answers' delay (Telegram: from the press to the fake receiving
``answerCallbackQuery``; Discord: from the interaction to its first response) p50/p99; the
time from the move reaching the bot (typed) or the tap that played it to its board reaching
the chat, p50/p99; and the messages and edits accepting the challenge made.

    .venv/bin/python benchmarks/chat_load.py [--moves 12] [--interval 4 --interval 0]
        [--platform both] [--mode both]
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
from bot.sessions.picker import part_label, split_parts
from bot.storage import SqliteStore
from tests.adapters.discord_kit import button as discord_button
from tests.adapters.discord_kit import labels as discord_labels
from tests.adapters.test_discord_picker import choose, selects
from tests.adapters.test_discord_picker import press as press_discord
from tests.fakes.discord_fake import (
    DiscordLimits,
    FakeDiscord,
    InteractionRecord,
    StoredMessage,
    point_discord_py_at,
)
from tests.fakes.telegram import FakeTelegram, TelegramLimits, _Params

SENDS = ("sendMessage", "sendPhoto", "sendAnimation", "sendDocument")
EDITS = ("editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup")
#: How long the benchmark waits for anything the bot should do (seconds).
PATIENCE = 180.0


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
    mode: str = "typed"
    interval: float = 4.0
    group_deletes: int = 0
    #: Seconds from each tap to its answer (answerCallbackQuery; Discord: the interaction's
    #: first response).
    answers: list[float] = field(default_factory=list)


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
        now = time.monotonic()
        for update in result:
            self.handed.setdefault(update["update_id"], now)
        return result

    def _new_message(self, p: _Params, state: Any, content: dict[str, Any]) -> dict[str, Any]:
        message = super()._new_message(p, state, content)
        self.arrived[(state.id, message["message_id"])] = time.monotonic()
        return message


def _telegram_counts(fake: FakeTelegram, group: int, since: int) -> tuple[int, ...]:
    """Group messages, group edits, DMs delivered, DMs refused, 429s, group deletes in calls
    ``since`` on."""
    msgs = edits = dms = refused = floods = deletes = 0
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
        elif call.method == "deleteMessage" and chat is not None and int(chat) == group:
            deletes += ok
    return msgs, edits, dms, refused, floods, deletes


def _answered_at(fake: FakeTelegram, query: str) -> float:
    """When the fake received the answer to callback query ``query``."""
    for call in reversed(fake.calls):
        if call.method == "answerCallbackQuery" and call.data.get("callback_query_id") == query:
            return call.at
    raise AssertionError(f"query {query} was never answered")


def _picker_data(data: object) -> bool:
    """Whether a button's data is the move picker's (a step, a move, its Cancel)."""
    return isinstance(data, str) and data.split(":", 1)[0] in ("pp", "mv", "pc")


class TelegramTapper:
    """Plays a move as a person does with the Move button and the picker's buttons, wherever
    the bot shows the picker (under the board in the group, or in the presser's private chat,
    following a deep link the tap's answer opens as a client does), timing each answer."""

    def __init__(self, fake: TimedTelegram, figures: Figures) -> None:
        self.fake = fake
        self.figures = figures

    async def tap(self, user: Any, message: Any, data: str) -> Any:
        """Press ``data`` on ``message``; the answer (its delay noted)."""
        fake = self.fake
        pressed = time.monotonic()
        query = await fake.press(user, message, data)
        answer = await fake.wait_for_answer(query, timeout=PATIENCE)
        self.figures.answers.append(_answered_at(fake, query) - pressed)
        if answer.url and "?start=" in answer.url:  # the client opens the bot's chat: Start
            await fake.start_private(user, send_start=False)
            await fake.send_text(user, fake.private(user), "/start " + answer.url.split("=", 1)[1])
        return answer

    def _picker(self, chats: list[tuple[Any, int]], board: int) -> Any:
        for chat, after in chats:
            for message in self.fake.sent_after(chat, after):
                keys = [b.callback_data for row in self.fake.keyboard(message) for b in row]
                replied = message.reply_to_message
                under = chat.id > 0 or (replied is not None and replied.message_id == board)
                if under and any(_picker_data(k) for k in keys):
                    return message
        return None

    async def move(self, user: Any, group: Any, board: Any, move: str) -> float:
        """``user`` plays ``move`` by taps from ``board``; seconds from the tap that played it
        to the board in ``group``."""
        fake = self.fake
        private = fake.private(user)
        chats = [(group, fake.last_message_id(group)), (private, fake.last_message_id(private))]
        data = next(
            b.callback_data for row in fake.keyboard(board) for b in row if b.text == "Move"
        )
        await self.tap(user, board, str(data))
        found: list[Any] = []

        def opened() -> bool:
            found[:] = [self._picker(chats, board.message_id)]
            return found[0] is not None

        await fake.wait_until(opened, timeout=PATIENCE)
        picker = found[0]
        chat = picker.chat
        prefix = ""
        parts = split_parts(move)
        for _ in range(3 * len(parts) + 6):
            picker = fake.message(chat, picker.message_id)
            buttons = {b.text: str(b.callback_data) for row in fake.keyboard(picker) for b in row}
            wanted = next(
                (part_label(p) for p in parts[len(split_parts(prefix)) :]
                 if part_label(p) in buttons),
                None,
            )  # fmt: skip
            if f"Play {move}" in buttons:
                wanted = f"Play {move}"
            elif wanted is None and "▶" in buttons:
                wanted = "▶"
            assert wanted is not None, (move, prefix, list(buttons))
            data = buttons[wanted]
            if data.startswith("mv:"):
                before = fake.last_message_id(group)
                played = time.monotonic()
                await self.tap(user, picker, data)
                board_now = await _next_telegram(fake, group.id, before, photo=True)
                return fake.arrived[(group.id, board_now.message_id)] - played
            shown = fake.keyboard(picker)
            await self.tap(user, picker, data)
            if data.startswith("pp:"):
                prefix = data.split(":", 4)[4][1:]
            await fake.wait_until(
                lambda m=picker.message_id, k=shown: fake.keyboard(fake.message(chat, m)) != k,
                timeout=PATIENCE,
            )
        raise AssertionError(f"the picker never played {move}")


async def telegram_run(moves: list[str], interval: float, folder: Path, mode: str) -> Figures:
    """Two players on Telegram (see the module docstring), moving by ``mode``."""
    figures = Figures("telegram", mode=mode, interval=interval)
    async with contextlib.AsyncExitStack() as stack:
        fake = await stack.enter_async_context(TimedTelegram())
        store = await SqliteStore.open(folder / f"telegram-{mode}-{interval}.db")
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
        board = await _next_telegram(fake, group.id, before, photo=True)
        await _settle(lambda: sum(c.method != "getUpdates" for c in fake.calls))
        accept = _telegram_counts(fake, group.id, mark)
        figures.accept_messages, figures.accept_edits = accept[0], accept[1]

        mark = len(fake.calls)
        people = [alice, bob]
        tapper = TelegramTapper(fake, figures)
        last = 0.0
        for i, move in enumerate(moves):
            await asyncio.sleep(max(0.0, last + interval - time.perf_counter()))
            last = time.perf_counter()
            if mode == "taps":
                figures.latencies.append(await tapper.move(people[i % 2], group, board, move))
                board = next(m for m in reversed(fake.sent(group)) if m.photo)
                continue
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
            figures.group_deletes,
        ) = counts
    return figures


async def _next_telegram(fake: FakeTelegram, chat: int, after: int, *, photo: bool = False) -> Any:
    found: list[Any] = []

    def check() -> bool:
        found[:] = [m for m in fake.sent_after(chat, after) if m.photo or not photo][:1]
        return bool(found)

    await fake.wait_until(check, timeout=PATIENCE)
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


def _discord_counts(fake: FakeDiscord, since: int) -> tuple[int, ...]:
    """Channel messages, channel edits, DMs delivered, DMs refused, 429s, channel deletes in
    calls since (the game's thread counts as its channel)."""
    msgs = edits = dms = refused = floods = deletes = 0
    for call in fake.calls[since:]:
        status = (call.response or {}).get("status")
        if status == 429:
            floods += 1
            continue
        channel = call.data.get("params", {}).get("channel_id")
        body = call.data.get("body") or {}
        route = call.method
        if route == "POST /channels/{channel_id}/messages":
            if channel in CHANNELS:
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
            elif kind == 7 and not _ephemeral_update(fake, call):  # the clicked message
                edits += 1
        elif route.startswith("POST /webhooks/"):
            flags = body.get("flags", 0) if isinstance(body, dict) else 0
            msgs += status == 200 and not flags & 64
        elif route.startswith("PATCH /webhooks/"):
            edits += status == 200 and not _ephemeral_edit(fake, call)
        elif route.startswith("PATCH "):
            edits += status == 200
        elif route.startswith("DELETE /channels/"):
            deletes += status in (200, 204)
    return msgs, edits, dms, refused, floods, deletes


#: The channel ids a game's public messages count in (its channel; its thread, if any).
CHANNELS: set[str] = set()


def _record_of(fake: FakeDiscord, call: Any) -> InteractionRecord | None:
    params = call.data.get("params", {})
    token = params.get("interaction_token") or params.get("webhook_token")
    return next((r for r in fake.interactions.values() if r.token == token), None)


def _ephemeral_update(fake: FakeDiscord, call: Any) -> bool:
    """Whether an UPDATE_MESSAGE response changed an ephemeral message (seen by one person:
    the picker), not the channel's."""
    record = _record_of(fake, call)
    return record is not None and record.message is not None and record.message.ephemeral


def _ephemeral_edit(fake: FakeDiscord, call: Any) -> bool:
    """Whether a webhook edit changed an ephemeral message (a picker step, deferred)."""
    record = _record_of(fake, call)
    if record is None:
        return False
    shown = [record.original, record.message, *record.followups]
    return any(m is not None and m.ephemeral for m in shown)


async def _discord_tap_move(
    fake: FakeDiscord, user: int, board: StoredMessage, move: str
) -> tuple[StoredMessage, float]:
    """``user`` plays ``move`` with Move and the ephemeral picker (no typing); the board the
    preview's Play it posted and the seconds from that tap to it."""
    opened = await press_discord(fake, user, board, "Move")
    picker = await fake.original(opened, timeout=PATIENCE)
    for _ in range(20):
        if "Play it" in discord_labels(picker):
            break
        chosen = None
        for menu in selects(picker):
            for option in menu["options"]:
                part = option["value"].split(":", 4)[4][1:]
                if move.startswith(part) and move[len(part) : len(part) + 1] in ("", " ", ">", "-"):
                    chosen = (menu["custom_id"], option["value"])
        previews = [label for label in discord_labels(picker) if label.startswith("Preview ")]
        if chosen is not None:
            await choose(fake, user, picker, chosen[0], chosen[1])
        elif previews:
            await press_discord(fake, user, picker, previews[0])
        else:
            await press_discord(fake, user, picker, "▶")
    else:
        raise AssertionError(f"the picker never reached {move!r}")
    played = time.monotonic()
    record = await fake.click(user, picker, discord_button(picker, "Play it"))
    answer = (await fake.followups(record, timeout=PATIENCE))[0]
    return answer, time.monotonic() - played


async def discord_run(moves: list[str], interval: float, folder: Path, mode: str) -> Figures:
    """Two players on Discord (see the module docstring), moving by ``mode``."""
    figures = Figures("discord", mode=mode, interval=interval)
    CHANNELS.clear()
    CHANNELS.add(str(CHANNEL))
    async with FakeDiscord(limits=DiscordLimits()) as fake:
        guild = fake.guild(GUILD, "Hexhall")
        fake.channel(guild, CHANNEL, "games")
        fake.member(guild, ALICE, "alice")
        fake.member(guild, BOB, "bob")
        fake.close_dms(BOB)
        with point_discord_py_at(fake):
            async with _discord_bot(fake, folder / f"discord-{mode}-{interval}.db"):
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
                board = _discord_board(fake, card)

                mark, first = len(fake.calls), max(fake.interactions, default=0)
                last = 0.0
                for i, move in enumerate(moves):
                    await asyncio.sleep(max(0.0, last + interval - time.perf_counter()))
                    last = start = time.perf_counter()
                    if mode == "taps":
                        board, took = await _discord_tap_move(
                            fake, (ALICE, BOB)[i % 2], board, move
                        )
                        figures.latencies.append(took)
                        continue
                    seen = {m.id for m in fake.messages_in(CHANNEL)}
                    options = {"game": str(gid), "move": move}
                    await fake.slash((ALICE, BOB)[i % 2], CHANNEL, "move", options)

                    def board_in(seen: set[int] = seen) -> bool:
                        return any(
                            m.id not in seen and m.files and not m.ephemeral
                            for m in fake.messages_in(CHANNEL)
                        )

                    await fake.wait_until(board_in, timeout=PATIENCE)
                    figures.latencies.append(time.perf_counter() - start)
                await _settle(lambda: sum(c.method != "getUpdates" for c in fake.calls))
                counts = _discord_counts(fake, mark)
                figures.answers = [
                    r.response.at - r.dispatched_at
                    for key, r in fake.interactions.items()
                    if key > first and r.response is not None
                ]
                figures.moves = len(moves)
                (
                    figures.group_messages,
                    figures.group_edits,
                    figures.dms,
                    figures.dm_refused,
                    figures.flood_refusals,
                    figures.group_deletes,
                ) = counts
    return figures


def _discord_board(fake: FakeDiscord, card: StoredMessage) -> StoredMessage:
    """The game's latest public board (a message with a Move button), the card if none."""
    boards = [
        m for m in fake.messages_in(CHANNEL) if not m.ephemeral and "Move" in discord_labels(m)
    ]
    return boards[-1] if boards else card


def report(f: Figures) -> None:
    """Print one run's figures."""
    lat = [v * 1000 for v in f.latencies]
    taps = [v * 1000 for v in f.answers] or [float("nan")]
    n = max(f.moves, 1)
    print(
        f"{f.platform:<9} {f.mode:<5} {f.interval:>4g} {f.moves:>5} {f.group_messages / n:>7.2f} "
        f"{f.group_edits / n:>7.2f} {f.group_deletes / n:>6.2f} {f.dms / n:>6.2f} "
        f"{f.flood_refusals:>5} {percentile(taps, 50):>8.0f} {percentile(taps, 99):>8.0f} "
        f"{percentile(lat, 50):>8.0f} {percentile(lat, 99):>8.0f}   "
        f"{f.accept_messages} msg + {f.accept_edits} edit"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument(
        "--interval", type=float, action="append",
        help="seconds between moves (repeat it; default: 4 and 0, back to back)",
    )  # fmt: skip
    parser.add_argument("--platform", choices=("telegram", "discord", "both"), default="both")
    parser.add_argument("--mode", choices=("typed", "taps", "both"), default="both")
    args = parser.parse_args()
    moves = moves_for(args.moves)
    intervals = args.interval or [4.0, 0.0]
    modes = ("typed", "taps") if args.mode == "both" else (args.mode,)
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for interval in intervals:
            for mode in modes:
                if args.platform in ("telegram", "both"):
                    results.append(await telegram_run(moves, interval, Path(folder), mode))
                if args.platform in ("discord", "both"):
                    results.append(await discord_run(moves, interval, Path(folder), mode))
    print(f"{len(moves)} Pathagon moves, limits enforced; per move in the game's chat")
    print(
        f"{'platform':<9} {'mode':<5} {'gap':>4} {'moves':>5} {'msgs/mv':>7} {'edit/mv':>7} "
        f"{'del/mv':>6} {'dm/mv':>6} {'429s':>5} {'tap p50':>8} {'tap p99':>8} "
        f"{'brd p50':>8} {'brd p99':>8}   accepting"
    )
    for figures in results:
        report(figures)


if __name__ == "__main__":
    asyncio.run(main())
