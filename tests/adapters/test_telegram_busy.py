"""A busy forum on Telegram (issue 45): two topics, each a game played by taps alone (Move,
then the picker's buttons) at full speed, through the real python-telegram-bot with the
adapter's rate limiter against the fake enforcing Telegram's flood limits (one message a
second per chat, 20 messages and edits per group within the window: the fake answers 429
past them).

Telegram's windows are scaled down together, the pacer told the same: one new message per chat
per :data:`CHAT_PERIOD` seconds and 20 per group per :data:`WINDOW` seconds (Telegram's: 1 s
and 60 s), both at the same pace so both bind, and the 40 moves run in seconds while still
holding the group at its limits: boards wait, taps must not.  Checked: every tap is answered,
each before what it changes reaches the group (a move's answer before its board), whatever
the group's pacing holds back; each move costs
the group one new message and no edit or delete (the picker lives in the presser's private
chat, the Start link bringing it to a player who never opened the bot); no 429 at all.  The
boards are text (no pictures): what is paced is the same, a request per board, and drawing 40
pictures would only add processor time (pictures in groups: test_telegram_process.py,
test_telegram_topics.py).
Speed is measured in ``benchmarks/chat_load.py``, never asserted here.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from pathlib import Path

import telegram

import engines
from bot.adapters.telegram.pacing import ChatPacer
from bot.sessions.picker import part_label
from tests.adapters.telegram_kit import DEADLINE, Bot, running
from tests.fakes.base import Call
from tests.fakes.telegram import FakeTelegram, TelegramLimits

#: The per-chat window in this test (seconds; Telegram's, the pacer's default, is 1): the pause
#: between two new messages in a chat.
CHAT_PERIOD = 0.1
#: The group's window in this test (seconds; Telegram's is 60), at the same pace as the
#: per-chat limit (20 a window, one per :data:`CHAT_PERIOD`): both limits bind.
WINDOW = 20 * CHAT_PERIOD
#: Moves per game.
MOVES = 20
SENDS = frozenset({"sendMessage", "sendPhoto", "sendAnimation", "sendDocument"})
EDITS = frozenset(
    {"editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup"}
)


@dataclass
class Table:
    """One topic's game and what its taps did."""

    topic: int
    players: tuple[telegram.User, telegram.User]
    game_id: int = 0
    position: engines.Position = field(default_factory=lambda: engines.new("pathagon"))
    #: (query id, the call index of the board it made, or None when it made none in the group)
    taps: list[tuple[str, int | None]] = field(default_factory=list)


def _is_board(message: telegram.Message) -> bool:
    """Whether a bot message is a game's board (its buttons start with Move)."""
    markup = message.reply_markup
    return markup is not None and any(
        b.text == "Move" for row in markup.inline_keyboard for b in row
    )


def _call_index(fake: FakeTelegram, method: str, key: str, value: str) -> int:
    for i, call in enumerate(fake.calls):
        if call.method == method and str(call.data.get(key)) == value:
            return i
    raise AssertionError(f"no {method} with {key}={value}")


def _board_index(fake: FakeTelegram, forum: telegram.Chat, message_id: int) -> int:
    """The index of the accepted send that made ``message_id`` in ``forum``."""
    for i, call in enumerate(fake.calls):
        response = call.response or {}
        result = response.get("result") if isinstance(response, dict) else None
        if (
            call.method in SENDS
            and str(call.data.get("chat_id")) == str(forum.id)
            and isinstance(result, dict)
            and result.get("message_id") == message_id
        ):
            return i
    raise AssertionError(f"no send made message {message_id}")


async def _tap(bot: Bot, table: Table, user: telegram.User, message: telegram.Message, data: str,
               forum: telegram.Chat) -> telegram.Message | None:  # fmt: skip
    """``user`` taps; the board it made in ``forum`` (``None``: none). Its answer is kept."""
    fake = bot.fake
    before = fake.last_message_id(forum)
    query = await fake.press(user, message, data)
    answer = await fake.wait_for_answer(query, timeout=DEADLINE * 4)
    assert not answer.show_alert, answer.text
    if answer.url is not None:  # the client opens our chat; Start sends the parameter
        await fake.start_private(user, send_start=False)
        await fake.send_text(user, fake.private(user), "/start " + answer.url.split("=", 1)[1])
    if not data.startswith("mv:"):
        table.taps.append((query, None))
        return None
    board = await fake.wait_for_message(
        forum,
        lambda m: m.message_id > before and m.message_thread_id == table.topic and _is_board(m),
        timeout=DEADLINE * 6,
    )
    table.taps.append((query, _board_index(fake, forum, board.message_id)))
    return board


async def _play(bot: Bot, forum: telegram.Chat, table: Table, rng: random.Random) -> None:
    """The table's players play :data:`MOVES` moves by taps, each as soon as it may."""
    fake = bot.fake
    board = [m for m in fake.sent(forum) if m.message_thread_id == table.topic and _is_board(m)][-1]
    for _ in range(MOVES):
        move = table.position.random_move(rng)
        mover = await bot.to_move(table.game_id, *table.players)
        dm = fake.private(mover)
        mark = fake.last_message_id(dm)
        await _tap(bot, table, mover, board, bot.button(board, "Move"), forum)
        picker = await fake.wait_for_message(
            dm, lambda m, a=mark: m.message_id > a and "Cancel" in bot.labels(m), timeout=DEADLINE
        )
        label = part_label(move)
        while label not in bot.labels(picker):  # a later page
            shown = fake.keyboard(picker)
            await _tap(bot, table, mover, picker, bot.button(picker, "▶"), forum)
            await fake.wait_until(lambda s=shown, p=picker: fake.keyboard(p) != s)
        made = await _tap(bot, table, mover, picker, bot.button(picker, label), forum)
        assert made is not None and f"played {move}" in (made.text or ""), made
        table.position = table.position.play(move)
        board = made


async def _accept(bot: Bot, forum: telegram.Chat, table: Table) -> None:
    fake = bot.fake
    one, two = table.players
    await fake.send_text(two, forum, "/games", topic=table.topic)  # the bot knows them now
    await bot.next_message(forum, fake.last_message_id(forum))
    await fake.send_text(one, forum, f"/challenge pathagon @{two.username}", topic=table.topic)
    card = await bot.next_message(forum, fake.last_message_id(forum))
    before = fake.last_message_id(forum)
    await bot.press(two, card, bot.button(card, "Accept"))
    board = await fake.wait_for_message(
        forum, lambda m: m.message_id > before and "Move" in bot.labels(m), timeout=DEADLINE
    )
    table.game_id = bot.game_id(board)


def _in(call: Call, chat: telegram.Chat, methods: frozenset[str]) -> bool:
    ok = bool((call.response or {}).get("ok"))
    return ok and call.method in methods and str(call.data.get("chat_id")) == str(chat.id)


async def test_two_topics_playing_by_taps_at_full_speed(tmp_path: Path) -> None:
    limits = TelegramLimits(chat_period=CHAT_PERIOD, group_period=WINDOW)
    pacer = ChatPacer(chat_period=CHAT_PERIOD, group_period=WINDOW)
    async with (
        FakeTelegram(limits=limits) as fake,
        running(
            tmp_path / "t.db", pictures=False, fake=fake, rate_limiter=pacer, deliver=True
        ) as bot,
    ):
        forum = fake.forum(-1_000_000_000_450, "Hex club")
        alice, bob = fake.user(41, "Alice", "alice"), fake.user(42, "Bob", "bob")
        carol, dave = fake.user(43, "Carol", "carol"), fake.user(44, "Dave", "dave")
        for person in (alice, bob, carol):  # Dave never opened the bot: the Start link
            await fake.start_private(person, send_start=False)
        tables = [
            Table(await fake.topic(forum, "Pathagon 1", alice), (alice, bob)),
            Table(await fake.topic(forum, "Pathagon 2", carol), (carol, dave)),
        ]
        for table in tables:
            await _accept(bot, forum, table)
        mark = len(fake.calls)
        await asyncio.gather(
            *(_play(bot, forum, t, random.Random(i)) for i, t in enumerate(tables))
        )
        moves = MOVES * len(tables)
        played = fake.calls[mark:]
        # Per move: one new message in the group (the board), no edit, no delete.
        assert sum(_in(c, forum, SENDS) for c in played) == moves
        assert sum(_in(c, forum, EDITS) for c in played) == 0
        assert sum(c.method == "deleteMessage" and _in(c, forum, frozenset({"deleteMessage"}))
                   for c in played) == 0  # fmt: skip
        # No 429 anywhere: the pacer kept every chat within Telegram's limits.
        assert [c.method for c in fake.calls if (c.response or {}).get("error_code") == 429] == []
        # Every tap answered, each before what it made reached the group.
        for table in tables:
            assert len(table.taps) >= 2 * MOVES
            for query, board in table.taps:
                answered = _call_index(fake, "answerCallbackQuery", "callback_query_id", query)
                assert board is None or answered < board
