"""``hexhall run`` with TELEGRAM_TOKEN set, as a real process against the fake Bot API: it plays
through the URL settings, is killed with SIGKILL between two moves and while handling one,
started again each time, and the game goes on to its end with nothing lost that was answered
and nothing sent twice (the fake records every ``sendMessage`` / ``sendPhoto``).

What a kill while an update is being handled does (python-telegram-bot's updater confirms an
update's offset with its next ``getUpdates``, before the update is handled): the update is not
delivered again, so the command may be lost -- the player saw no answer and sends it again --
or its move may be stored without the answer having gone out; the database is never half
written.  The test allows exactly these two outcomes and checks the game goes on either way.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import telegram

from tests.adapters.process_kit import BotProcess, bot_env
from tests.adapters.telegram_kit import DEADLINE
from tests.bot.session_kit import finishing_moves
from tests.fakes.telegram import FakeTelegram, _ApiError, _Params

ROOT = Path(__file__).resolve().parents[2]
GAME = "inphexion"
#: The bot's pacer's windows scaled by this (``HEXHALL_TELEGRAM_PACE``): one message per chat
#: every quarter second, 20 per group every 15 s; a fake that enforces limits is told the same.
PACE = 0.25
#: Moves played (across both kills) before the player to move resigns: the bot paces its
#: messages to a chat (its rate limiter), so a longer game would mostly wait.  Moves are played
#: before, between and after the two kills.
MOVES = 8
#: The ply after which the bot is killed between two moves, and the ply it is killed handling.
KILL_BETWEEN, KILL_DURING = 3, 6


class Hexhall(BotProcess):
    """``python -m bot run`` on one database, started and killed by the test."""

    def __init__(self, fake: FakeTelegram, db: Path, log: Path) -> None:
        env = bot_env(
            HEXHALL_DB=str(db),
            TELEGRAM_TOKEN=fake.token,
            TELEGRAM_API_URL=fake.base_url,
            TELEGRAM_FILE_URL=fake.base_file_url,
            HEXHALL_TELEGRAM_PACE=str(PACE),
        )
        super().__init__(env, log)
        self.fake, self.db = fake, db

    async def start(self) -> None:
        """Start it; returns once it polls for updates."""
        polls = len(self.fake.calls_to("getUpdates"))
        await self.launch()
        await self.racing(
            self.fake.wait_until(
                lambda: len(self.fake.calls_to("getUpdates")) > polls, timeout=DEADLINE
            )
        )

    def query(self, sql: str, *args: object) -> list[tuple[object, ...]]:
        """Read the database as it is committed now (read-only, beside the bot)."""
        with contextlib.closing(sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)) as conn:
            return conn.execute(sql, args).fetchall()

    def to_move(self) -> str:
        """The user id of the player to move in the (only) game."""
        [(user_id,)] = self.query(
            "SELECT p.user_id FROM games g JOIN players p "
            "ON p.id = CASE g.to_move WHEN 0 THEN g.seat0 ELSE g.seat1 END"
        )
        return str(user_id)

    async def settled(self) -> None:
        """Wait until every due notification was delivered (or given up)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE
        while self.query("SELECT id FROM notifications WHERE done_at IS NULL"):
            assert loop.time() < deadline, "notifications still undelivered"
            # Not a fixed wait: the next look follows the next request the bot makes.
            calls = len(self.fake.calls)
            with contextlib.suppress(AssertionError):
                await self.fake.wait_until(lambda n=calls: len(self.fake.calls) > n, timeout=1.0)


@contextlib.asynccontextmanager
async def hexhall(tmp_path: Path) -> AsyncIterator[Hexhall]:
    async with FakeTelegram() as fake:
        bot = Hexhall(fake, tmp_path / "hexhall.db", tmp_path / "bot.log")
        try:
            yield bot
        finally:
            if bot.process is not None and bot.process.returncode is None:
                await bot.kill()


async def _answer(
    fake: FakeTelegram, chat: telegram.Chat, after: int, *, photo: bool = False
) -> telegram.Message:
    """The first bot message (with a photo: a board) in ``chat`` after message ``after``."""

    def found() -> list[telegram.Message]:
        return [m for m in fake.sent_after(chat, after) if m.photo or not photo]

    await fake.wait_until(lambda: bool(found()), timeout=DEADLINE)
    return found()[0]


async def test_sigkill_between_and_during_moves(tmp_path: Path) -> None:
    moves = finishing_moves(GAME)
    async with hexhall(tmp_path) as bot:
        fake = bot.fake
        await bot.start()
        alice, bob = fake.user(31, "Alice", "alice"), fake.user(32, "Bob", "bob")
        group = fake.group(-500, "Hex club")
        for person in (alice, bob):  # both started the bot: their notices come privately
            await fake.start_private(person, send_start=False)
        await fake.send_text(bob, group, "hi")
        before = fake.last_message_id(group)
        await fake.send_text(alice, group, f"/challenge {GAME} first=me", reply_to=(group.id, 1))
        card = await _answer(fake, group, before)
        accept = next(
            b.callback_data for row in fake.keyboard(card) for b in row if b.text == "Accept"
        )
        assert isinstance(accept, str)
        before = fake.last_message_id(group)
        await fake.press(bob, card, accept)
        await _answer(fake, group, before, photo=True)
        people = {str(alice.id): alice, str(bob.id): bob}
        ply = 0
        killed_between = killed_during = False
        outcome = ""
        while ply < MOVES:
            mover = people[bot.to_move()]
            move = moves[ply]
            before = fake.last_message_id(group)
            update = await fake.send_text(mover, group, f"/move {move}!")
            assert update is not None
            if ply == KILL_DURING and not killed_during:
                # Killed while handling the move: the update was handed out, no answer yet.
                await fake.wait_delivered(update, timeout=DEADLINE)
                await bot.kill()
                killed_during = True
                stored = bot.query("SELECT COUNT(*) FROM moves")[0][0]
                assert stored in (ply, ply + 1), stored
                outcome = "lost" if stored == ply else "stored"
                await bot.start()
                if stored == ply:
                    continue  # the player saw no answer and sends the move again
                # Stored: the new process posts its board (answering the update Telegram
                # sends again, or from the outbox, the dead process's claim taken over).
                shown = await _answer(fake, group, before, photo=True)
                assert shown.caption is not None and f"played {move}" in shown.caption
                ply += 1
                continue
            answer = await _answer(fake, group, before, photo=True)
            assert answer.caption is not None and f"played {move}" in answer.caption, (
                answer.caption or answer.text
            )
            ply += 1
            if ply == KILL_BETWEEN and not killed_between:
                # Killed between two moves, once the move and its notices went out.
                await bot.settled()
                await bot.kill()
                killed_between = True
                await bot.start()
        assert killed_between and killed_during
        # Every move is stored once, in order; the player to move resigns, which ends it.
        stored = [m for (m,) in bot.query("SELECT move FROM moves ORDER BY ply")]
        assert stored == list(moves[:MOVES])
        before = fake.last_message_id(group)
        loser = people[bot.to_move()]
        dm = fake.private(loser)
        asked_after = fake.last_message_id(dm)
        await fake.send_text(loser, group, "/resign")
        asked = await fake.wait_for_message(  # asked of the loser alone, privately
            dm,
            lambda m: m.message_id > asked_after and "Really" in (m.text or ""),
            timeout=DEADLINE,
        )
        yes = next(b.callback_data for row in fake.keyboard(asked) for b in row)
        assert isinstance(yes, str) and yes.startswith("rsy:"), yes
        before = fake.last_message_id(group)
        await fake.press(loser, asked, yes)
        over = await _answer(fake, group, before)
        assert "resign" in (over.caption or over.text or ""), over
        assert bot.query("SELECT status, reason FROM games") == [("finished", "resignation")]
        await fake.wait_until(lambda: bool(fake.calls_to("sendAnimation")), timeout=DEADLINE * 2)
        await bot.settled()
        assert await bot.stop() == 0
        # Nothing sent twice: no board of the same move twice, no notice twice.
        photos = [c.response["result"].get("caption") for c in fake.calls_to("sendPhoto")]
        photos = [c for c in photos if c]
        assert len(photos) >= MOVES
        twice = [c for c, n in collections.Counter(photos).items() if n > 1]
        assert not twice, twice
        texts = [
            c.response["result"]["text"]
            for c in fake.calls_to("sendMessage")
            if c.response.get("ok")
        ]
        twice = [t for t, n in collections.Counter(texts).items() if n > 1]
        assert not twice, twice
        assert len(fake.calls_to("sendAnimation")) == 1
        print(f"killed while handling ply {KILL_DURING}: the move was {outcome}")
    assert fake.token not in bot.log.read_text(encoding="utf-8", errors="replace")


class HeldPhotos(FakeTelegram):
    """The fake, able to hold the bot's next photo to a chat unanswered (the request in
    flight) and then drop it, as a connection cut by the bot's death would."""

    def __init__(self) -> None:
        super().__init__()
        self.hold_chat: int | None = None
        self.held = 0
        self.release = asyncio.Event()
        self._handlers["sendPhoto"] = self._held_photo

    async def _held_photo(self, p: _Params) -> Any:
        if self.hold_chat is not None and p.text("chat_id") == str(self.hold_chat):
            self.hold_chat = None
            self.held += 1
            self.notify()
            await self.release.wait()
            raise _ApiError(400, "Bad Request: the connection was closed")  # never created
        return await self._send_photo(p)


async def test_sigkill_after_the_commit_before_the_board_posts_it_once_after_restart(
    tmp_path: Path,
) -> None:
    """Issue 24: the board is committed with the move.  Killed while its answer (the board) is
    in flight, the move is stored and the board not shown; the restarted process takes the
    dead process's claim over and posts the board, exactly once."""
    moves = finishing_moves(GAME)
    async with HeldPhotos() as fake:
        bot = Hexhall(fake, tmp_path / "hexhall.db", tmp_path / "bot.log")
        try:
            await bot.start()
            alice, bob = fake.user(31, "Alice", "alice"), fake.user(32, "Bob", "bob")
            group = fake.group(-500, "Hex club")
            await fake.send_text(bob, group, "hi")
            before = fake.last_message_id(group)
            await fake.send_text(
                alice, group, f"/challenge {GAME} first=me", reply_to=(group.id, 1)
            )
            card = await _answer(fake, group, before)
            accept = next(
                b.callback_data for row in fake.keyboard(card) for b in row if b.text == "Accept"
            )
            assert isinstance(accept, str)
            before = fake.last_message_id(group)
            await fake.press(bob, card, accept)
            await _answer(fake, group, before, photo=True)
            before = fake.last_message_id(group)
            fake.hold_chat = group.id
            await fake.send_text(alice, group, f"/move {moves[0]}!")
            await fake.wait_until(lambda: fake.held == 1, timeout=DEADLINE)
            # Committed (the move and its board, claimed by the answering process) ...
            assert bot.query("SELECT move FROM moves") == [(moves[0],)]
            [(done, owner)] = bot.query(
                "SELECT done_at, lease_owner FROM notifications WHERE kind = 'board'"
            )
            assert done is None and owner is not None
            await bot.kill()  # ... and killed with the board in flight
            fake.release.set()
            assert fake.sent_after(group, before) == []
            await bot.start()
            board = await _answer(fake, group, before, photo=True)
            assert board.caption is not None and moves[0] in board.caption, board.caption
            await bot.settled()
            assert bot.query("SELECT outcome FROM notifications WHERE kind = 'board'") == [
                ("sent",)
            ]
            photos = [m for m in fake.sent_after(group, before) if m.photo]
            assert len(photos) == 1, [m.caption for m in photos]
            # The game goes on from that board.
            before = fake.last_message_id(group)
            await fake.send_text(bob, group, f"/move {moves[1]}!")
            after = await _answer(fake, group, before, photo=True)
            assert after.caption is not None and f"played {moves[1]}" in after.caption
            assert await bot.stop() == 0
        finally:
            if bot.process is not None and bot.process.returncode is None:
                await bot.kill()
