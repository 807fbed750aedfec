"""Shared pieces of the Telegram adapter tests: the real adapter and application on a real
SQLite file, polling the fake Bot API; helpers that wait for what the bot sends."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import telegram
from telegram.ext import AIORateLimiter, BaseRateLimiter

from bot.adapters.commands import REGISTRY, Command
from bot.adapters.telegram import TelegramAdapter
from bot.adapters.telegram.adapter import tg_chat, tg_user
from bot.adapters.telegram.format import PLATFORM
from bot.adapters.telegram.sender import TelegramSender
from bot.delivery.outbox import Outbox
from bot.delivery.recap import Recaps
from bot.messages import Chat, User
from bot.sessions.context import CHALLENGE_TTL
from bot.sessions.manager import SessionManager
from bot.sessions.thinker import Thinker
from bot.storage import PostKind, SqliteStore
from tests.fakes.telegram import FakeTelegram

#: The bot's messages may take a while under load (board pictures, a recap): wait this long.
DEADLINE = 30.0


def quiet_limiter() -> AIORateLimiter:
    """The library's rate limiter without pacing (0 = no limit), still retrying flood
    control: the fake is not Telegram, but ``RetryAfter`` must be honoured."""
    return AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3)


@dataclass
class Bot:
    """A running adapter and the fake it talks to."""

    fake: FakeTelegram
    adapter: TelegramAdapter
    manager: SessionManager
    #: The real outbox delivering through the adapter's sender (``deliver=True`` only).
    outbox: Outbox | None = None

    async def say(
        self,
        user: telegram.User,
        chat: telegram.Chat,
        text: str,
        *,
        reply_to: telegram.Message | None = None,
    ) -> telegram.Message:
        """``user`` writes ``text``; the first new bot message in ``chat`` afterwards."""
        await self.fake.send_text(user, chat, text, reply_to=reply_to)
        return await self.next_message(chat, self.fake.last_message_id(chat))

    async def next_message(self, chat: telegram.Chat, after: int) -> telegram.Message:
        """The first bot message in ``chat`` newer than message id ``after``, waiting for it."""
        found: list[telegram.Message] = []

        def check() -> bool:
            found[:] = self.fake.sent_after(chat, after)[:1]
            return bool(found)

        await self.fake.wait_until(check, timeout=DEADLINE)
        return found[0]

    async def press(
        self, user: telegram.User, message: telegram.Message, data: str
    ) -> tuple[str, str | None, bool]:
        """``user`` presses a button; the callback answer's query id, text and alert flag."""
        query = await self.fake.press(user, message, data)
        answer = await self.fake.wait_for_answer(query, timeout=DEADLINE)
        return query, answer.text, answer.show_alert

    async def open_picker(self, user: telegram.User, board: telegram.Message) -> telegram.Message:
        """``user`` presses Move on ``board``; the picker message the bot opens: in a group's
        game in ``user``'s private chat with the bot (following the deep link the tap's
        answer opens, as a client does, when the bot could not write to them), in a private
        game under the board (a reply to it: other messages, a notice, may come meanwhile)."""
        fake = self.fake
        private = fake.private(user)
        before = fake.last_message_id(board.chat)
        before_private = fake.last_message_id(private)
        query, text, alert = await self.press(user, board, self.button(board, "Move"))
        assert not alert, text
        answer = next(a for a in fake.callback_answers if a.query_id == query)
        if answer.url is not None:
            assert "?start=" in answer.url, answer.url
            await fake.start_private(user, send_start=False)
            await fake.send_text(user, private, "/start " + answer.url.split("?start=", 1)[1])
        if board.chat.id < 0:
            return await fake.wait_for_message(
                private,
                lambda m: m.message_id > before_private and _is_picker(fake, m),
                timeout=DEADLINE,
            )

        def under_board(m: telegram.Message) -> bool:
            replied = m.reply_to_message
            return replied is not None and replied.message_id == board.message_id

        return await fake.wait_for_message(
            board.chat, lambda m: m.message_id > before and under_board(m), timeout=DEADLINE
        )

    async def step(
        self, user: telegram.User, picker: telegram.Message, label: str
    ) -> tuple[str | None, bool]:
        """``user`` presses ``label`` on a picker; the answer's text and alert flag, once
        what the press changes is shown (the tap is answered first: the picker's edit, a
        preview or a board follow): the picker edited or gone, or a new message in its
        chat."""
        fake = self.fake
        chat, mid = picker.chat, picker.message_id
        shown = (fake.message(chat, mid).text, fake.keyboard(picker))
        after = fake.last_message_id(chat)
        _, text, alert = await self.press(user, picker, self.button(picker, label))
        if alert:
            return text, alert

        def changed() -> bool:
            if mid not in {m.message_id for m in fake.sent(chat)}:
                return True
            now = (fake.message(chat, mid).text, fake.keyboard(picker))
            return now != shown or bool(fake.sent_after(chat, after))

        await fake.wait_until(changed, timeout=DEADLINE)
        return text, alert

    async def remembered_picker(self, game_id: int, message: telegram.Message) -> None:
        """Wait until ``message`` (a picker, a preview) is the game's live picker in the store
        (the bot remembers it right after sending it)."""
        key = (str(message.chat.id), str(message.message_id))

        async def live() -> bool:
            posts = await self.manager.posts.posts_for(
                PLATFORM, game_id=game_id, kind=PostKind.PICKER, live=True
            )
            return key in {(p.chat_id, p.message_id) for p in posts}

        await self.eventually(live)

    def button(self, message: telegram.Message, label: str) -> str:
        """The callback data of the button called ``label`` on a bot message as it is now."""
        for row in self.fake.keyboard(message):
            for b in row:
                if b.text == label and isinstance(b.callback_data, str):
                    return b.callback_data
        labels = [b.text for row in self.fake.keyboard(message) for b in row]
        raise AssertionError(f"no button {label!r} on the message (buttons: {labels})")

    def game_id(self, board: telegram.Message) -> int:
        """The game a board message is about (from its Move button)."""
        return int(self.button(board, "Move").split(":")[1])

    async def accepted(
        self, chat: telegram.Chat, alice: telegram.User, bob: telegram.User, game: str = "maphex"
    ) -> tuple[telegram.Message, int]:
        """Alice challenges @bob to ``game`` in ``chat``; Bob accepts: the first board (the
        challenge's notice may come first, through the outbox) and the game's id."""
        await self.say(bob, chat, "/games")  # the bot now knows @bob
        card = await self.say(alice, chat, f"/challenge {game} @{bob.username}")
        before = self.fake.last_message_id(chat)
        await self.press(bob, card, self.button(card, "Accept"))
        board = await self.fake.wait_for_message(
            chat, lambda m: m.message_id > before and "Move" in self.labels(m), timeout=DEADLINE
        )
        return board, self.game_id(board)

    async def to_move(self, game_id: int, *users: telegram.User) -> telegram.User:
        """Which of ``users`` is to move in the game."""
        player = await self.manager.games.player_to_move(game_id)
        assert player is not None, f"nobody is to move in #{game_id}"
        return next(u for u in users if str(u.id) == player.user_id)

    @staticmethod
    def as_user(user: telegram.User) -> User:
        """The manager's user for a Telegram user."""
        return tg_user(user)

    @staticmethod
    def as_chat(chat: telegram.Chat) -> Chat:
        """The manager's chat for a Telegram chat."""
        return tg_chat(chat.id)

    async def eventually(self, condition: Callable[[], Awaitable[bool]]) -> None:
        """Wait until the async ``condition`` holds (it reads the store, which the bot writes
        right after sending), failing after :data:`DEADLINE`; a condition wait, re-checked
        every 10 ms, never a fixed sleep."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE
        while not await condition():
            assert loop.time() < deadline, "condition not met in time"
            await asyncio.sleep(0.01)

    def labels(self, message: telegram.Message) -> list[str]:
        """The labels of a bot message's buttons as it is now."""
        return [b.text for row in self.fake.keyboard(message) for b in row]


def _is_picker(fake: FakeTelegram, message: telegram.Message) -> bool:
    """Whether a bot message is a move picker (its buttons are picker steps, moves, Cancel)."""
    data = [b.callback_data for row in fake.keyboard(message) for b in row]
    return any(isinstance(d, str) and d.split(":", 1)[0] in ("pp", "mv", "pc") for d in data)


@contextlib.asynccontextmanager
async def running(
    path: Path,
    *,
    pictures: bool = True,
    fake: FakeTelegram | None = None,
    deliver: bool = False,
    challenge_ttl: timedelta = CHALLENGE_TTL,
    thinker: Thinker | None = None,
    registry: Sequence[Command] = REGISTRY,
    rate_limiter: BaseRateLimiter[Any] | None = None,
    poll: float = 1.0,
    web_app: str = "",
) -> AsyncIterator[Bot]:
    """The adapter on a fresh manager over the SQLite file ``path``, polling a fake;
    ``deliver`` also runs the real outbox with the adapter's sender (as ``hexhall run``);
    ``thinker`` searches the bot's moves (tests give it tiny budgets); ``rate_limiter``
    replaces :func:`quiet_limiter`; ``poll``: how often the outbox looks for due
    notifications when nothing wakes it (the adapter after each update, the manager's bell);
    ``web_app``: the web board's Mini App short name (the adapter's and the sender's)."""
    async with contextlib.AsyncExitStack() as stack:
        server = fake if fake is not None else await stack.enter_async_context(FakeTelegram())
        store = await SqliteStore.open(path)
        stack.push_async_callback(store.close)
        manager = SessionManager(
            store,
            pictures=pictures,
            rng=random.Random(7),
            challenge_ttl=challenge_ttl,
            thinker=thinker,
        )
        stack.push_async_callback(manager.close)
        adapter = TelegramAdapter.build(
            manager,
            server.token,
            api_url=server.base_url,
            file_url=server.base_file_url,
            rate_limiter=rate_limiter or quiet_limiter(),
            registry=registry,
        )
        adapter.web_app = web_app
        outbox = None
        if deliver:
            outbox = Outbox(store, manager.clock, poll=poll, bell=manager.bell)
            adapter.outbox = outbox
            sender = TelegramSender(
                adapter.application.bot, Recaps(store), manager, web_app=web_app
            )
            stop = asyncio.Event()
            delivery = asyncio.create_task(outbox.run("telegram", sender, stop=stop))

            async def end_delivery() -> None:
                stop.set()
                await delivery

            stack.push_async_callback(end_delivery)
        await adapter.start(poll_timeout=1)
        try:
            yield Bot(server, adapter, manager, outbox)
        finally:
            await adapter.stop()
