"""Two real ``hexhall run`` processes on one PostgreSQL database, each running both adapters:
Telegram in webhook mode behind the fake's "load balancer" (its pushes go to the two
processes in turn) and Discord with one gateway shard each of two.  They play a Pathagon game
in a Telegram group and one in each of two Discord servers (one per shard).  Midway process 0
-- shard 0, half the Telegram pushes, the clock sweep's lease -- is killed with SIGKILL while
it answers a Telegram move it has already stored.  Play goes on where it can: Telegram through
the other process (which takes the unanswered update over and answers it), the server on
shard 1; the killed process is started again, and every game is finished, the one in the
server on shard 0 included.

Then the database and the fakes must agree: every move stored once and in order, each game
finished with the engine's winner; every notification done, and each one sent delivered exactly
once; every Telegram update acknowledged with 200 once and answered once; every Discord command
reached exactly one process and was answered once; and what the killed process held (an
update, the sweep's lease) taken over by a live process.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import telegram

import engines
from bot.adapters.discord.format import markdown
from bot.messages import Text
from tests.adapters.discord_kit import ALICE, BOB, CAROL, button, labels
from tests.adapters.process_kit import BotProcess, bot_env, free_port
from tests.fakes.discord_fake import FakeDiscord, StoredMessage, guild_on_shard
from tests.fakes.telegram import WEBHOOK_PUSH, FakeTelegram

#: What the bot does may take a while with two processes on a loaded machine: wait this long.
DEADLINE = 30.0
GAME = "pathagon"
SHARDS = 2
#: Server A is on shard 0 (process 0's), server B on shard 1 (process 1's).
GUILD_A, GUILD_B = guild_on_shard(0, SHARDS), guild_on_shard(1, SHARDS)
CHANNEL_A, CHANNEL_B = 5_001, 5_002
PATH = "/tg/hook"
SECRET = "hexhall_two-processes_0123456789"
#: The webhook's public URL, the same in both processes: nothing listens there (port 9 is
#: closed); the fake's ``webhook_targets`` stand in for the load balancer.
PUBLIC_URL = f"http://127.0.0.1:9{PATH}"
SWEEP = "clock sweep"
#: Games that end by connection: seat 0 builds a column (13 plies), or seat 1 a row (14).
COLUMN_D = tuple(f"d{i // 2 + 1}" if i % 2 == 0 else f"a{i // 2 + 1}" for i in range(13))
COLUMN_C = tuple(f"c{i // 2 + 1}" if i % 2 == 0 else f"g{i // 2 + 1}" for i in range(13))
ROW_4 = tuple(f"{'abcdefg'[i // 2]}{1 if i % 2 == 0 else 4}" for i in range(14))
#: Plies played in every game before the kill, and before process 0 is back.
KILL_AT, BACK_AT = 5, 8
#: The bots' Telegram pacer's windows scaled by this (``HEXHALL_TELEGRAM_PACE``, tests only):
#: one message a chat every quarter second, so the group's boards do not wait a second each.
PACE = 0.25


class Process(BotProcess):
    """``python -m bot run`` number ``index`` (Discord shard ``index``, webhook on ``port``)."""

    def __init__(
        self,
        index: int,
        port: int,
        env: dict[str, str],
        log: Path,
        tg: FakeTelegram,
        dc: FakeDiscord,
    ) -> None:
        super().__init__(env, log)
        self.index, self.port, self.tg, self.dc = index, port, tg, dc

    @property
    def target(self) -> str:
        """Where the load balancer sends this process its share of the webhook's updates."""
        return f"http://127.0.0.1:{self.port}{PATH}"

    async def start(self) -> None:
        """Start it; returns once it has set the webhook (so it listens) and its shard is in."""
        webhooks = len(self.tg.calls_to("setWebhook"))
        identified = self._identified()
        await self.launch()
        await self.racing(
            asyncio.gather(
                self.tg.wait_until(
                    lambda: len(self.tg.calls_to("setWebhook")) > webhooks, timeout=DEADLINE
                ),
                self.dc.wait_until(
                    lambda: (
                        self._identified() > identified and bool(self.dc.sessions_on(self.index))
                    ),
                    timeout=DEADLINE,
                ),
            )
        )

    def _identified(self) -> int:
        return sum(
            c.data.get("shard") == [self.index, SHARDS]
            for c in self.dc.calls_to("gateway IDENTIFY")
        )


class Database:
    """The test's own connection to the processes' database (reads what they committed)."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def to_move(self, game_id: int) -> str:
        """The platform user id of the player to move."""
        user_id = await self.conn.fetchval(
            "SELECT p.user_id FROM games g JOIN players p "
            "ON p.id = CASE g.to_move WHEN 0 THEN g.seat0 ELSE g.seat1 END WHERE g.id = $1",
            game_id,
        )
        assert user_id is not None, f"nobody is to move in #{game_id}"
        return str(user_id)

    async def moves(self, game_id: int) -> list[str]:
        """The moves stored for a game, in order."""
        rows = await self.conn.fetch(
            "SELECT move FROM moves WHERE game_id = $1 ORDER BY ply", game_id
        )
        return [r["move"] for r in rows]

    async def undone(self) -> list[asyncpg.Record]:
        """Notifications still to be delivered (or in some worker's hands)."""
        return list(
            await self.conn.fetch(
                "SELECT id, kind, lease_owner FROM notifications WHERE done_at IS NULL"
            )
        )

    async def sweep_holder(self) -> str | None:
        """The owner of the clock sweep's lease."""
        owner = await self.conn.fetchval("SELECT owner FROM leases WHERE name = $1", SWEEP)
        return None if owner is None else str(owner)

    async def eventually(self, check: Callable[[], Awaitable[bool]], what: str) -> None:
        """Wait until the async ``check`` holds, re-checked every 20 ms (a condition wait
        with a deadline, not a fixed sleep)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE
        while not await check():
            assert loop.time() < deadline, f"not in time: {what}"
            await asyncio.sleep(0.02)

    async def settled(self) -> None:
        """Wait until every notification due is delivered (or dropped)."""

        async def done() -> bool:
            return not await self.undone()

        await self.eventually(done, "every notification delivered")


def pid_of(owner: str) -> int:
    """The process id in a worker's name (``host:pid:...``)."""
    return int(owner.split(":")[1])


# ---------------------------------------------------------------------------- Telegram


@dataclass
class TelegramGame:
    """A game in a Telegram group, played by sending updates through the webhook."""

    tg: FakeTelegram
    group: telegram.Chat
    people: dict[str, telegram.User]
    game_id: int = 0
    played: list[str] = field(default_factory=list)
    #: The message ids of the players' commands in the group, in order.
    commands: list[int] = field(default_factory=list)
    queries: list[str] = field(default_factory=list)

    async def answer(self, after: int, *, photo: bool = False) -> telegram.Message:
        """The first bot message (with a photo: a board) in the group after ``after``."""

        def found() -> list[telegram.Message]:
            return [m for m in self.tg.sent_after(self.group, after) if m.photo or not photo]

        await self.tg.wait_until(lambda: bool(found()), timeout=DEADLINE)
        return found()[0]

    async def start(self, alice: telegram.User, bob: telegram.User) -> None:
        """Alice challenges Bob (replying to his message) and Bob presses Accept."""
        await self.tg.send_text(bob, self.group, "hi")  # not for the bot: privacy mode
        before = self.tg.last_message_id(self.group)
        await self.tg.send_text(
            alice, self.group, f"/challenge {GAME} first=me", reply_to=(self.group.id, before)
        )
        self.commands.append(self.tg.last_message_id(self.group))
        card = await self.answer(before)
        accept = next(
            b.callback_data for row in self.tg.keyboard(card) for b in row if b.text == "Accept"
        )
        assert isinstance(accept, str), self.tg.keyboard(card)
        before = self.tg.last_message_id(self.group)
        self.queries.append(await self.tg.press(bob, card, accept))
        board = await self.answer(before, photo=True)
        move_button = next(
            b.callback_data for row in self.tg.keyboard(board) for b in row if b.text == "Move"
        )
        assert isinstance(move_button, str)
        self.game_id = int(move_button.split(":")[1])

    async def send_move(self, db: Database, moves: tuple[str, ...]) -> tuple[int, int]:
        """The player to move sends the next move of ``moves`` with ``/move``; the update's
        id and the last message in the group before it."""
        move = moves[len(self.played)]
        mover = self.people[await db.to_move(self.game_id)]
        before = self.tg.last_message_id(self.group)
        update_id = await self.tg.send_text(mover, self.group, f"/move {move}")
        assert update_id is not None
        self.commands.append(self.tg.last_message_id(self.group))
        return update_id, before

    async def answered(self, moves: tuple[str, ...], before: int) -> None:
        """Wait for the board answering the next move of ``moves`` (sent after ``before``)."""
        move = moves[len(self.played)]
        board = await self.answer(before, photo=True)
        assert f"played {move}" in (board.caption or ""), board.caption
        self.played.append(move)

    async def move(self, db: Database, moves: tuple[str, ...]) -> None:
        """The player to move plays the next move of ``moves``, answered with a board."""
        _, before = await self.send_move(db, moves)
        await self.answered(moves, before)


# ---------------------------------------------------------------------------- Discord


@dataclass
class DiscordGame:
    """A game in one server's #games channel, played with slash commands."""

    dc: FakeDiscord
    channel: int
    #: The shard that holds the channel's server.
    shard: int
    game_id: int = 0
    played: list[str] = field(default_factory=list)

    async def answer(self, user: int, command: str, options: dict[str, Any]) -> StoredMessage:
        """``user`` runs a slash command here; its (loaded) answer."""
        record = await self.dc.slash(user, self.channel, command, options)
        assert record.shards == [self.shard], (command, self.channel, record.shards)
        await self.dc.response(record, timeout=DEADLINE)
        return await self.dc.original(record, timeout=DEADLINE)

    async def start(self, challenger: int, opponent: int) -> None:
        """A challenge, accepted on its card."""
        card = await self.answer(challenger, "challenge", {"game": GAME, "opponent": opponent})
        click = await self.dc.click(opponent, card, button(card, "Accept"))
        await self.dc.response(click, timeout=DEADLINE)
        await self.dc.wait_until(lambda: "Board" in labels(card), timeout=DEADLINE)
        self.game_id = int(button(card, "Board").split(":")[1])

    async def move(self, db: Database, moves: tuple[str, ...]) -> None:
        """The player to move plays the next move of ``moves`` with ``/move``."""
        move = moves[len(self.played)]
        mover = int(await db.to_move(self.game_id))
        board = await self.answer(mover, "move", {"game": str(self.game_id), "move": move})
        assert not board.ephemeral and f"played `{move}`" in board.content, board.content
        self.played.append(move)


# ---------------------------------------------------------------------------- the set-up


@contextlib.asynccontextmanager
async def two_processes(postgres_url: str, tmp_path: Path) -> AsyncIterator[list[Process]]:
    """The fakes, and two bot processes on the database (not started yet); both are ended
    (and waited for) on exit, however the test went."""
    ports = [free_port(), free_port()]
    while ports[1] == ports[0]:
        ports[1] = free_port()
    async with (
        FakeTelegram(
            webhook_targets=[f"http://127.0.0.1:{p}{PATH}" for p in ports],
            webhook_retry=0.05,
            webhook_timeout=DEADLINE,
        ) as tg,
        FakeDiscord(shard_count=SHARDS) as dc,
    ):
        for guild_id, channel_id, name in ((GUILD_A, CHANNEL_A, "A"), (GUILD_B, CHANNEL_B, "B")):
            guild = dc.guild(guild_id, f"Hall {name}")
            dc.channel(guild, channel_id, f"{name.lower()}-games")
            for uid, who in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")):
                dc.member(guild, uid, who)
        base = bot_env(
            HEXHALL_DB=postgres_url,
            DISCORD_TOKEN=dc.token,
            DISCORD_API_URL=dc.api_base,
            DISCORD_GATEWAY_URL=str(dc.gateway_url),
            DISCORD_SHARD_COUNT=str(SHARDS),
            TELEGRAM_TOKEN=tg.token,
            TELEGRAM_API_URL=tg.base_url,
            TELEGRAM_FILE_URL=tg.base_file_url,
            TELEGRAM_WEBHOOK_URL=PUBLIC_URL,
            TELEGRAM_WEBHOOK_SECRET=SECRET,
            HEXHALL_TELEGRAM_PACE=str(PACE),
        )
        processes = [
            Process(
                index,
                port,
                {
                    **base,
                    "DISCORD_SHARD_IDS": str(index),
                    "TELEGRAM_WEBHOOK_LISTEN": f"127.0.0.1:{port}",
                },
                tmp_path / f"bot{index}.log",
                tg,
                dc,
            )
            for index, port in enumerate(ports)
        ]
        try:
            yield processes
        finally:
            for proc in processes:
                if proc.running:
                    await proc.kill()
            for proc in processes:  # shown when the test fails
                print(f"---- process {proc.index} ({proc.pids}):\n{proc.tail()}")


# ---------------------------------------------------------------------------- the test


async def test_two_processes_play_on_through_a_sigkill(postgres_url: str, tmp_path: Path) -> None:
    async with two_processes(postgres_url, tmp_path) as (first, second):
        tg, dc = first.tg, first.dc
        conn = await asyncpg.connect(postgres_url)
        try:
            db = Database(conn)
            # Process 0 first, so it holds the clock sweep's lease.
            await first.start()
            await dc.wait_until(lambda: len(dc.commands()) >= 10, timeout=DEADLINE)

            async def first_sweeps() -> bool:
                holder = await db.sweep_holder()
                return holder is not None and pid_of(holder) == first.pid

            await db.eventually(first_sweeps, "process 0 holds the sweep")
            await second.start()
            await dc.wait_shards(0, 1, timeout=DEADLINE)

            alice, bob = tg.user(31, "Alice", "alice"), tg.user(32, "Bob", "bob")
            for person in (alice, bob):  # both started the bot: their notices come privately
                await tg.start_private(person, send_start=False)
            group = tg.group(-500, "Hex club")
            on_tg = TelegramGame(tg, group, {str(alice.id): alice, str(bob.id): bob})
            in_a, in_b = DiscordGame(dc, CHANNEL_A, 0), DiscordGame(dc, CHANNEL_B, 1)
            await on_tg.start(alice, bob)
            await in_a.start(ALICE, BOB)
            await in_b.start(BOB, CAROL)

            for _ in range(KILL_AT):
                await on_tg.move(db, COLUMN_D)
                await in_a.move(db, COLUMN_C)
                await in_b.move(db, ROW_4)
            await tg.wait_until(lambda: tg.pending_updates() == [], timeout=DEADLINE)
            await db.settled()

            # Process 0 is killed while it answers a move it has stored: the load balancer
            # hands it the next update, and flood control holds the board it answers with.
            tg.webhook_targets = [first.target]
            tg.flood("sendPhoto", retry_after=60)
            update_id, before = await on_tg.send_move(db, COLUMN_D)
            lease = f"telegram update {update_id}"

            async def stored_not_answered() -> bool:
                refused = [c for c in tg.calls_to("sendPhoto") if not c.response.get("ok")]
                return bool(refused) and len(await db.moves(on_tg.game_id)) == KILL_AT + 1

            await db.eventually(stored_not_answered, "the move stored, its board held")
            # Its board is the move's notice (issue 24): committed with the move, and claimed
            # by process 0 while it answers (the process that answers the update again takes
            # it over once process 0 is gone) ...
            [board] = await db.undone()
            assert board["kind"] == "board" and pid_of(board["lease_owner"]) == first.pid
            # ... and the update is in its hands, unanswered.
            holder = await conn.fetchval("SELECT owner FROM leases WHERE name = $1", lease)
            assert pid_of(holder) == first.pid and tg.pending_updates() == [update_id]
            killed = first.pid
            await first.kill()
            down_from = len(tg.calls_to(WEBHOOK_PUSH))
            tg.webhook_targets = [first.target, second.target]
            # Telegram sends the update again; process 1 takes it over from the dead one and
            # answers the move it finds stored with its board (no second move, no refusal).
            await on_tg.answered(COLUMN_D, before)
            await tg.wait_confirmed(update_id, timeout=DEADLINE)
            assert await conn.fetchval("SELECT owner FROM leases WHERE name = $1", lease) == (
                "handled"
            )
            await dc.wait_until(lambda: not dc.sessions_on(0), timeout=DEADLINE)
            # Server A's shard is down: its commands reach nobody (Discord does not queue
            # them); server B and the Telegram group play on through process 1.
            lost = await dc.slash(BOB, CHANNEL_A, "games", {})
            assert lost.shards == [] and lost.attempts == []
            await in_b.move(db, ROW_4)
            for _ in range(KILL_AT + 1, BACK_AT):
                await on_tg.move(db, COLUMN_D)
                await in_b.move(db, ROW_4)
            assert in_a.played == list(COLUMN_C[:KILL_AT])
            # Half the pushes went to the dead process, and were sent again to the live one.
            down_pushes = tg.calls_to(WEBHOOK_PUSH)[down_from:]
            refused = [c for c in down_pushes if c.data["url"] == first.target]
            assert refused and all(c.response is None for c in refused)
            assert all(c.response == 200 for c in down_pushes if c.data["url"] == second.target)

            await first.start()
            await dc.wait_shards(0, 1, timeout=DEADLINE)

            # The sweep's lease, held by the killed process, is taken over at once by a live
            # one (the new process 0 sees its holder gone when it starts).
            async def taken_over() -> bool:
                holder = await db.sweep_holder()
                return holder is not None and pid_of(holder) in (first.pid, second.pid)

            await db.eventually(taken_over, f"the sweep taken over from process {killed}")
            # Server A plays on where it stopped.
            while len(in_a.played) < len(COLUMN_C):
                await in_a.move(db, COLUMN_C)
            while len(on_tg.played) < len(COLUMN_D):
                await on_tg.move(db, COLUMN_D)
            while len(in_b.played) < len(ROW_4):
                await in_b.move(db, ROW_4)

            await tg.wait_until(lambda: tg.pending_updates() == [], timeout=DEADLINE)
            await db.settled()
            assert await asyncio.gather(first.stop(), second.stop()) == [0, 0]

            # ---- the games: every move once and in order, the engine's result.
            for played, moves in ((on_tg, COLUMN_D), (in_a, COLUMN_C), (in_b, ROW_4)):
                assert played.played == list(moves)
                assert await db.moves(played.game_id) == list(moves)
                position = engines.new(GAME)
                for move in moves:
                    position = position.play(move)
                assert position.outcome is not None
                row = await conn.fetchrow(
                    "SELECT status, result, reason, winner, ply, snapshot FROM games WHERE id = $1",
                    played.game_id,
                )
                assert (row["status"], row["result"], row["reason"]) == (
                    "finished",
                    "win",
                    position.outcome.termination,
                )
                assert (row["winner"], row["ply"]) == (position.outcome.winner, len(moves))
                assert json.loads(row["snapshot"]) == position.to_dict()

            # ---- notifications: all done, and each one sent went out exactly once.
            notes = await conn.fetch(
                "SELECT id, platform, user_id, chat_id, kind, text, direct, outcome, "
                "lease_owner FROM notifications ORDER BY id"
            )
            assert notes and {n["outcome"] for n in notes} <= {"sent", "obsolete"}, [
                dict(n) for n in notes if n["outcome"] not in ("sent", "obsolete")
            ]
            # A move's committed board (issue 24) is delivered as the answer to the move (whose
            # being answered once is checked below), or by an outbox when no answer went out.
            boards = [n for n in notes if n["kind"] == "board"]
            assert all(n["outcome"] in ("sent", "obsolete") for n in boards), boards
            notes = [n for n in notes if n["kind"] != "board"]
            in_notes = _delivered_once_on_telegram(
                tg, [n for n in notes if n["platform"] == "telegram"], [alice.id, bob.id]
            )
            _delivered_once_on_discord(dc, [n for n in notes if n["platform"] == "discord"])
            # Every Discord command and button reached one process, which answered it once
            # (the one sent while its shard was down reached none).
            for record in dc.interactions.values():
                if record is not lost:
                    assert len(record.shards) == 1, record.shards
                    assert [a.ok for a in record.attempts] == [True], record.attempts

            # ---- Telegram: every update acknowledged once with 200, and answered once.
            pushes = _each_update_answered_once(tg, on_tg, in_notes, [first.target, second.target])
            # The processes' shared record: each update handled (by one of them), none in hand.
            handled = await conn.fetch(
                "SELECT name, owner FROM leases WHERE name LIKE 'telegram update %'"
            )
            assert {r["name"] for r in handled} == {f"telegram update {u}" for u in pushes}
            assert {r["owner"] for r in handled} == {"handled"}
        finally:
            await conn.close()


def _delivered_once_on_telegram(
    tg: FakeTelegram, notes: list[asyncpg.Record], people: list[int]
) -> set[tuple[int, int]]:
    """Each Telegram notification sent is in its chat exactly once (one dropped as obsolete
    at most once: it may have been on its way as the next move made it obsolete), and the
    people's private chats hold nothing else; the notifications' (chat, message id)s.

    Nothing else but one answer: the update Telegram sends again after the kill is a move the
    store already applied, and when the survivor's outbox has posted that move's board first
    (it takes the dead process's claim over), the repeat is answered privately, "you already
    played" (issue 24: a retried update posts nothing new, its sender is told privately)."""
    repeat = ": you already played "

    def messages_in(chat: int) -> list[tuple[int, str]]:
        return [
            (m.message_id, m.text or m.caption or "")
            for m in tg.sent(chat)
            if chat not in people or repeat not in (m.text or "")
        ]

    return _delivered_once(
        notes,
        lambda note: int(note["user_id"]) if note["direct"] else int(note["chat_id"]),
        lambda note: str(Text.from_json(note["text"])),
        messages_in,
        people,
    )


def _delivered_once_on_discord(dc: FakeDiscord, notes: list[asyncpg.Record]) -> None:
    """The same on Discord, where everything the bot posted outside an interaction answer is
    a notification."""
    dms = [dc.dm_channel(uid).id for uid in (ALICE, BOB, CAROL)]
    used = _delivered_once(
        notes,
        lambda note: (
            dms[(ALICE, BOB, CAROL).index(int(note["user_id"]))]
            if note["direct"]
            else int(note["chat_id"])
        ),
        lambda note: markdown(Text.from_json(note["text"])),
        lambda channel: [
            (m.id, m.content) for m in dc.messages_in(channel) if m.interaction_id is None
        ],
        [*dms, CHANNEL_A, CHANNEL_B],
    )
    posted = {(m.channel_id, m.id) for m in dc.messages.values() if m.interaction_id is None}
    assert posted == used, posted - used


def _delivered_once(
    notes: list[asyncpg.Record],
    chat_of: Callable[[asyncpg.Record], int],
    text_of: Callable[[asyncpg.Record], str],
    messages_in: Callable[[int], list[tuple[int, str]]],
    private: list[int],
) -> set[tuple[int, int]]:
    used: set[tuple[int, int]] = set()
    for note in notes:
        chat, text = chat_of(note), text_of(note)
        # In a group the recipient is named first: the note's text ends the message.
        found = {(chat, m) for m, content in messages_in(chat) if content.endswith(text)}
        if note["outcome"] == "sent":
            assert len(found) == 1, (dict(note), found)
        else:
            assert len(found) <= 1, (dict(note), found)
        assert not found & used, (dict(note), found)
        used |= found
    stray = {(c, m) for c in private for m, _ in messages_in(c)} - used
    assert not stray, stray
    return used


def _each_update_answered_once(
    tg: FakeTelegram, game: TelegramGame, notes: set[tuple[int, int]], targets: list[str]
) -> dict[int, list[int | None]]:
    """Every update was acknowledged with 200 exactly once (the other attempts reached no
    process), both processes took some, and each was answered exactly once; the statuses
    of each update's pushes."""
    assert tg.pending_updates() == []
    pushes: dict[int, list[int | None]] = collections.defaultdict(list)
    for call in tg.calls_to(WEBHOOK_PUSH):
        pushes[call.data["update_id"]].append(call.response)
    assert len(pushes) == len(game.commands) + len(game.queries)
    for update_id, statuses in pushes.items():
        assert statuses.count(200) == 1 and statuses[-1] == 200, (update_id, statuses)
        assert set(statuses) <= {200, None}, (update_id, statuses)
    taken = {c.data["url"] for c in tg.calls_to(WEBHOOK_PUSH) if c.response == 200}
    assert taken == set(targets)
    # The group: a card for the challenge, a board when it is accepted, one board a move.
    answers = [m for m in tg.sent(game.group) if (game.group.id, m.message_id) not in notes]
    assert len(answers) == 2 + len(game.played)
    assert "challenges" in (answers[0].text or ""), answers[0].text
    assert "accepted challenge" in (answers[1].caption or ""), answers[1].caption
    for board, move in zip(answers[2:], game.played, strict=True):
        assert f"played {move}" in (board.caption or ""), (move, board.caption)
    # ... each after its command, before the next one.
    bounds = [*game.commands, game.commands[-1] + 1_000_000]
    per_command = [
        sum(low < m.message_id < high for m in answers) for low, high in itertools.pairwise(bounds)
    ]
    assert per_command == [2] + [1] * len(game.played)
    # Each button press answered once, none refused.
    answered = collections.Counter(a.query_id for a in tg.callback_answers)
    assert answered == collections.Counter(game.queries)
    assert all(c.response.get("ok") for c in tg.calls_to("answerCallbackQuery"))
    return pushes


async def test_a_notification_a_killed_process_was_sending_goes_out_at_once(
    postgres_url: str, tmp_path: Path
) -> None:
    """A "your turn" that Telegram's flood control refuses (429, retry after 3 s) is not held
    in sending: the outbox puts it back, due when the block ends, without counting a failed
    attempt and without holding any other chat up (issue 24).  The process that tried is
    then SIGKILLed: the other process sends it once the block is over, exactly once.  (A claim
    held by a killed worker is taken over at once: tests/bot/delivery/test_outbox.py, and
    the board of the first test here.)"""
    async with two_processes(postgres_url, tmp_path) as (first, second):
        tg = first.tg
        conn = await asyncpg.connect(postgres_url)
        try:
            db = Database(conn)
            await first.start()
            await second.start()
            alice, bob = tg.user(31, "Alice", "alice"), tg.user(32, "Bob", "bob")
            for person in (alice, bob):  # both asked for their turns privately
                await tg.start_private(person, send_start=False)
                chat = tg.private(person)
                await tg.send_text(person, chat, "/settings dm on")
                await tg.wait_for_message(
                    chat, lambda m: "direct messages on" in (m.text or ""), timeout=DEADLINE
                )
            group = tg.group(-500, "Hex club")
            game = TelegramGame(tg, group, {str(alice.id): alice, str(bob.id): bob})
            await game.start(alice, bob)
            await db.settled()
            # The "your turn" of the next move is claimed, and held (flood control) in sending.
            tg.flood("sendMessage", retry_after=3)
            await game.move(db, COLUMN_D)

            async def held() -> bool:
                return any(not c.response.get("ok") for c in tg.calls_to("sendMessage"))

            await db.eventually(held, "the notice held back")
            undone = await db.undone()
            notices = [n for n in undone if n["kind"] == "your_turn"]
            assert len(notices) == 1, [dict(n) for n in undone]
            note = notices[0]
            query = "SELECT lease_owner, attempts, last_error FROM notifications WHERE id = $1"

            async def put_back() -> bool:
                # The process writes the refusal once the 429 has reached it (a moment after
                # the fake answered): the claim released with the error kept.
                row = await conn.fetchrow(query, note["id"])
                return row["last_error"] is not None

            await db.eventually(put_back, "the refused notice put back")
            row = await conn.fetchrow(query, note["id"])
            assert (row["lease_owner"], row["attempts"]) == (None, 0)  # put back, not held
            before = len(tg.calls_to("sendMessage"))
            await first.kill()

            async def delivered() -> bool:
                return not await db.undone()

            await db.eventually(delivered, "delivered by the other process")
            (row,) = await conn.fetch(
                "SELECT outcome, lease_owner FROM notifications WHERE id = $1", note["id"]
            )
            assert row["outcome"] == "sent"
            # Sent once, by the survivor: the one message accepted since the kill, to that player.
            user_id = await conn.fetchval(
                "SELECT user_id FROM notifications WHERE id = $1", note["id"]
            )
            accepted = [
                c
                for c in tg.calls_to("sendMessage")[before:]
                if c.response.get("ok") and str(c.data.get("chat_id")) == str(user_id)
            ]
            assert len(accepted) == 1, accepted
        finally:
            await conn.close()
