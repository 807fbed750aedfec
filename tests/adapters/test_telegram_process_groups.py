"""Issue 26's "done when", through the real ``hexhall run`` process against the fake Bot API
enforcing Telegram's flood limits (:class:`TelegramLimits`: one new message a second per chat,
20 messages and edits a minute per group -- core.telegram.org/bots/faq, "My bot is hitting
limits"): a game in a forum topic from challenge to result with every message in that topic,
spectators' taps that post nothing in the group, replies that are talk left unanswered, and a
group migrated to a supergroup mid-game with both games' buttons right.

Telegram's documented behaviours relied on here: a message sent with ``message_thread_id``
goes to that topic, one without to the General topic (core.telegram.org/bots/api#sendmessage);
every message in a topic is a reply to the topic's opening service message (the fake's
``topic``); a callback query's answer with ``show_alert`` is an alert seen by the presser only
(core.telegram.org/bots/api#answercallbackquery); a migrated group's old id answers 400 with
``migrate_to_chat_id`` and the new supergroup numbers its messages afresh
(core.telegram.org/bots/api#message, ``migrate_to_chat_id`` / ``migrate_from_chat_id``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import telegram

import engines
from tests.adapters.telegram_kit import DEADLINE
from tests.adapters.test_telegram_process import PACE, Hexhall
from tests.bot.session_kit import finishing_moves
from tests.fakes.telegram import FakeTelegram, TelegramLimits

#: What the bot says to a move from the wrong player or an illegal one (never to talk).
_REFUSALS = ("not your turn", "illegal", "unexpected", "did you mean", "went wrong")
_SENDS = ("sendMessage", "sendPhoto", "sendAnimation", "sendDocument")


@contextlib.asynccontextmanager
async def limited_hexhall(tmp_path: Path) -> AsyncIterator[Hexhall]:
    """``hexhall run`` against a fake that refuses (429) what Telegram's limits refuse, both
    the fake's windows and the bot's pacer's scaled by :data:`PACE` (the same counts)."""
    limits = TelegramLimits(chat_period=PACE, group_period=60.0 * PACE)
    async with FakeTelegram(limits=limits) as fake:
        bot = Hexhall(fake, tmp_path / "hexhall.db", tmp_path / "bot.log")
        try:
            yield bot
        finally:
            if bot.running:
                await bot.kill()


def _labels(fake: FakeTelegram, message: telegram.Message) -> list[str]:
    """The labels of a message's buttons as they are now."""
    try:
        return [b.text for row in fake.keyboard(message) for b in row]
    except KeyError:  # deleted
        return []


def _button(fake: FakeTelegram, message: telegram.Message, label: str) -> str:
    found = [b.callback_data for row in fake.keyboard(message) for b in row if b.text == label]
    assert found and isinstance(found[0], str), (label, _labels(fake, message))
    return found[0]


async def _next(
    fake: FakeTelegram,
    chat: telegram.Chat,
    after: int,
    matching: Callable[[telegram.Message], bool] = lambda m: True,
) -> telegram.Message:
    """The first bot message in ``chat`` after message ``after`` that matches."""
    found: list[telegram.Message] = []

    def check() -> bool:
        found[:] = [m for m in fake.sent_after(chat, after) if matching(m)][:1]
        return bool(found)

    await fake.wait_until(check, timeout=DEADLINE * 2)
    return found[0]


def _said(message: telegram.Message) -> str:
    return message.caption or message.text or ""


async def _press(
    fake: FakeTelegram, user: telegram.User, message: telegram.Message, label: str
) -> tuple[str | None, bool]:
    """``user`` taps ``label``; the answer's text and whether it is an alert."""
    query = await fake.press(user, message, _button(fake, message, label))
    answer = await fake.wait_for_answer(query, timeout=DEADLINE * 2)
    return answer.text, answer.show_alert


def _refusals_retried(fake: FakeTelegram) -> None:
    """Every request Telegram's limits refused (429) was sent again, the same, and accepted:
    the bot's rate limiter (python-telegram-bot's ``AIORateLimiter``, which paces groups at 20
    a minute but not a chat at one message a second) honours ``retry_after``, so nothing is
    lost to flood control."""
    calls = fake.calls
    for index, call in enumerate(calls):
        if not (isinstance(call.response, dict) and call.response.get("error_code") == 429):
            continue
        later = [
            c
            for c in calls[index + 1 :]
            if c.method == call.method and c.data == call.data and c.response.get("ok")
        ]
        assert later, (call.method, call.data)
    refused = sum(
        1 for c in calls if isinstance(c.response, dict) and c.response.get("error_code") == 429
    )
    print(f"{refused} of {len(calls)} requests refused with 429, each sent again and accepted")


async def _eventually(bot: Hexhall, condition: Callable[[], bool]) -> None:
    """Wait until ``condition`` (on the database) holds.  The bot's commits do not wake the
    fake's waiters, so each look follows the bot's next request, or a second (not a fixed
    wait: the first look that holds returns)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while not condition():
        assert loop.time() < deadline, "not reached in time"
        calls = len(bot.fake.calls)
        with contextlib.suppress(AssertionError):
            await bot.fake.wait_until(lambda n=calls: len(bot.fake.calls) > n, timeout=1.0)


async def _move(
    bot: Hexhall,
    chat: telegram.Chat,
    game: int,
    move: str,
    people: dict[int, telegram.User],
) -> telegram.Message:
    """The player to move in ``game`` types ``/move #game move``; the new board."""
    before = bot.fake.last_message_id(chat)
    await bot.fake.send_text(people[_to_move(bot, game)], chat, f"/move #{game} {move}")
    return await _next(bot.fake, chat, before, lambda m: f"played {move}" in _said(m))


def _game_ids(bot: Hexhall) -> list[int]:
    return [int(gid) for (gid,) in bot.query("SELECT id FROM games ORDER BY id")]


def _to_move(bot: Hexhall, game_id: int) -> int:
    [(user_id,)] = bot.query(
        "SELECT p.user_id FROM games g JOIN players p "
        "ON p.id = CASE g.to_move WHEN 0 THEN g.seat0 ELSE g.seat1 END WHERE g.id = ?",
        game_id,
    )
    return int(str(user_id))


async def test_a_game_in_a_topic_with_spectators_and_talk(tmp_path: Path) -> None:
    """In a forum topic: challenge, accept, moves typed, replied and picked, talk under the
    board from both players, spectators tapping Board, History, Describe and the mover's
    picker, and a resignation; every message the bot sends to the forum is in that topic, the
    spectators' taps post nothing there, and the talk gets no answer."""
    moves = finishing_moves("inphexion")
    async with limited_hexhall(tmp_path) as bot:
        fake = bot.fake
        await bot.start()
        alice, bob = fake.user(61, "Alice", "alice"), fake.user(62, "Bob", "bob")
        carol, dave = fake.user(63, "Carol", "carol"), fake.user(64, "Dave", "dave")
        people = {u.id: u for u in (alice, bob)}
        forum = fake.forum(-1_000_000_000_600, "Hex club")
        topic = await fake.topic(forum, "inpHeXion evenings", alice)
        # Alice and Carol opened the bot; Bob and Dave never did (Bob's notices: the topic).
        await fake.start_private(alice, send_start=False)
        await fake.start_private(carol, send_start=False)
        before = fake.last_message_id(forum)
        await fake.send_text(bob, forum, "/games", topic=topic)  # the bot knows @bob now
        await _next(fake, forum, before)
        before = fake.last_message_id(forum)
        await fake.send_text(alice, forum, "/challenge inphexion @bob first=me", topic=topic)
        card = await _next(fake, forum, before, lambda m: "Accept" in _labels(fake, m))
        before = fake.last_message_id(forum)
        text, alert = await _press(fake, bob, card, "Accept")
        assert not alert, text
        board = await _next(fake, forum, before, lambda m: "Move" in _labels(fake, m))
        [game_id] = _game_ids(bot)
        talk: list[int] = []
        for ply, move in enumerate(moves[:5]):
            mover = people[_to_move(bot, game_id)]
            waiting = bob if mover is alice else alice
            # Talk under the board, from both players: no answer (checked at the end).
            await fake.send_text(waiting, forum, "nice move! 👏", reply_to=board)
            talk.append(fake.last_message_id(forum))
            await fake.send_text(mover, forum, "hmm, thinking", reply_to=board)
            talk.append(fake.last_message_id(forum))
            before = fake.last_message_id(forum)
            if ply == 1:  # a reply that reads like a move, from the player to move
                await fake.send_text(mover, forum, move, reply_to=board)
            elif ply == 2:  # the picker, opened by the mover privately; a spectator's Move
                dm = fake.private(mover)  # is refused on the button
                text, alert = await _press(fake, dave, board, "Move")
                assert alert and text, text
                mark = fake.last_message_id(dm)
                query = await fake.press(mover, board, _button(fake, board, "Move"))
                answer = await fake.wait_for_answer(query, timeout=DEADLINE * 2)
                if answer.url is not None:  # never opened the bot: the link opens our chat
                    await fake.start_private(mover, send_start=False)
                    await fake.send_text(mover, dm, "/start " + answer.url.split("=", 1)[1])
                picker = await _next(fake, dm, mark, lambda m: "Cancel" in _labels(fake, m))
                assert fake.last_message_id(forum) == before  # nothing in the group
                text, alert = await _press(fake, mover, picker, "Cancel")
                assert not alert, text
                await fake.wait_until(
                    lambda p=picker, c=dm: p.message_id not in {m.message_id for m in fake.sent(c)},
                    timeout=DEADLINE,
                )
                assert "Move" in _labels(fake, board)  # the board kept its own buttons
                await fake.send_text(mover, forum, f"/move {move}", topic=topic)
            else:
                await fake.send_text(mover, forum, f"/move {move}", topic=topic)
            board = await _next(fake, forum, before, lambda m, s=move: f"played {s}" in _said(m))
            assert "Move" in _labels(fake, board)
            if ply == 3:  # spectators look, once every notice of the move went out
                await bot.settled()
                seen = [m.message_id for m in fake.sent(forum)]
                calls = len(fake.calls)
                dm = fake.private(carol)
                for label in ("Board", "History", "Describe"):
                    mark = fake.last_message_id(dm)
                    text, alert = await _press(fake, carol, board, label)
                    assert not alert and text, (label, text)
                    await _next(fake, dm, mark)  # the look, privately
                    text, alert = await _press(fake, dave, board, label)
                    assert alert and text is not None and len(text) <= 200, (label, text)
                # Taps that would act on the game, by someone who does not play it: refused in
                # an alert to him alone, nothing posted, the game unchanged.
                plies = bot.query("SELECT ply FROM games")
                for label in ("Move", "Offer draw", "Resign"):
                    text, alert = await _press(fake, dave, board, label)
                    assert alert and text is not None and len(text) <= 200, (label, text)
                assert bot.query("SELECT ply FROM games") == plies
                assert [m.message_id for m in fake.sent(forum)] == seen
                posted = [
                    c.method
                    for c in fake.calls[calls:]
                    if c.method in _SENDS and c.data.get("chat_id") == str(forum.id)
                ]
                assert posted == [], posted
        # The player to move resigns: the result, in the topic.
        loser = people[_to_move(bot, game_id)]
        before = fake.last_message_id(forum)
        await fake.send_text(loser, forum, "/resign", topic=topic)
        asked = await _next(fake, forum, before, lambda m: bool(_labels(fake, m)))
        yes = next(b.callback_data for row in fake.keyboard(asked) for b in row)
        assert isinstance(yes, str) and yes.startswith("rsy:"), yes
        before = fake.last_message_id(forum)
        await fake.press(loser, asked, yes)
        over = await _next(fake, forum, before, lambda m: "resign" in _said(m))
        assert over.message_thread_id == topic
        assert bot.query("SELECT status, reason FROM games") == [("finished", "resignation")]
        await fake.wait_until(lambda: bool(fake.calls_to("sendAnimation")), timeout=DEADLINE * 2)
        await bot.settled()
        assert await bot.stop() == 0
        # Every message the bot sent to the forum went to the topic ...
        to_forum = [
            c
            for method in _SENDS
            for c in fake.calls_to(method)
            if c.data.get("chat_id") == str(forum.id)
        ]
        assert len(to_forum) > 10
        assert [c.data.get("message_thread_id") for c in to_forum] == [str(topic)] * len(to_forum)
        mine = fake.sent(forum)
        assert all(m.message_thread_id == topic and m.is_topic_message for m in mine)
        assert any(m.animation for m in mine)  # the recap too
        # ... none of it answers the talk, and nothing was refused.
        replied = {m.reply_to_message.message_id for m in mine if m.reply_to_message}
        assert not replied & set(talk), replied & set(talk)
        refused = [_said(m) for m in mine if any(r in _said(m).lower() for r in _REFUSALS)]
        assert refused == [], refused
        _refusals_retried(fake)
    assert fake.token not in bot.log.read_text(encoding="utf-8", errors="replace")


async def test_a_migration_mid_game_keeps_both_games_buttons_right(tmp_path: Path) -> None:
    """Two games in a basic group, one with a draw offer open, and the group becomes a
    supergroup.  In the supergroup a question of the other game (resign? with its buttons)
    gets the offer's message id (the new chat numbers its messages afresh); the offer is then
    declined by typing: no edit in the supergroup names any message there, every
    board and the question keep their buttons (older boards keep theirs by design: see
    ``bot/adapters/telegram/boards.py``), the question's button still ends its game, and taps
    on the offer and a board left in the old group are answered, not "went wrong"."""
    async with limited_hexhall(tmp_path) as bot:
        fake = bot.fake
        await bot.start()
        hall = fake.group(-901, "Hall")
        alice, bob = fake.user(91, "Alice", "alice"), fake.user(92, "Bob", "bob")
        carol = fake.user(93, "Carol", "carol")
        people = {u.id: u for u in (alice, bob, carol)}
        for person in people.values():  # notices go privately, not between the test's ids
            await fake.start_private(person, send_start=False)
        old_boards: dict[int, telegram.Message] = {}
        for other in (bob, carol):
            before = fake.last_message_id(hall)
            await fake.send_text(other, hall, "/games")  # the bot knows them now
            await _next(fake, hall, before)
            before = fake.last_message_id(hall)
            await fake.send_text(alice, hall, f"/challenge maphex @{other.username} first=me")
            card = await _next(fake, hall, before, lambda m: "Accept" in _labels(fake, m))
            before = fake.last_message_id(hall)
            await _press(fake, other, card, "Accept")
            old_boards[_game_ids(bot)[-1]] = await _next(
                fake, hall, before, lambda m: "Move" in _labels(fake, m)
            )
        first, second = _game_ids(bot)
        # In the first game, Alice offers a draw to Bob: its message in the old group.
        before = fake.last_message_id(hall)
        await _press(fake, alice, old_boards[first], "Offer draw")
        offer = await _next(fake, hall, before, lambda m: "Decline draw" in _labels(fake, m))
        await bot.settled()
        supergroup = await fake.migrate(hall, alice)
        await _eventually(
            bot,
            lambda: bot.query("SELECT DISTINCT chat_id FROM games") == [(str(supergroup.id),)],
        )
        # A move in each game, Alice's (she opens both: her offer stands) ...
        positions = {game: engines.new("maphex") for game in (first, second)}
        boards: list[telegram.Message] = []
        for game in (first, second):
            assert _to_move(bot, game) == alice.id
            move = positions[game].legal_moves()[0]
            boards.append(await _move(bot, supergroup, game, move, people))
            positions[game] = positions[game].play(move)
        # ... then Alice asks to resign the second game: the question, with its buttons, gets
        # the offer's message id in the supergroup (the talk before it is never delivered).
        assert fake.last_message_id(supergroup) <= offer.message_id - 2
        while fake.last_message_id(supergroup) < offer.message_id - 2:
            await fake.send_text(alice, supergroup, "brb")
        before = fake.last_message_id(supergroup)
        # (Alice blocked the bot meanwhile: her question, hers alone, comes in the group.)
        fake.block(alice)
        await fake.send_text(alice, supergroup, f"/resign #{second}")
        asked = await _next(fake, supergroup, before, lambda m: bool(_labels(fake, m)))
        assert asked.message_id == offer.message_id
        # Bob declines Alice's offer by typing: its copies are closed (in the old group only),
        # and he moves.
        before = fake.last_message_id(supergroup)
        await fake.send_text(bob, supergroup, f"/draw #{first} decline")
        declined = await _next(fake, supergroup, before)
        assert "declined" in _said(declined), _said(declined)
        move = positions[first].legal_moves()[0]
        boards.append(await _move(bot, supergroup, first, move, people))
        await bot.settled()
        # Every board in the supergroup keeps its buttons (older boards keep theirs by
        # design), and so does the question at the offer's id ...
        assert [m.message_id for m in boards if "Move" not in _labels(fake, m)] == []
        labels = _labels(fake, asked)
        assert labels, asked.text
        # ... no edit in the supergroup named any message there (none was due) ...
        touched = [
            (c.method, c.data.get("message_id"))
            for c in fake.calls
            if c.method.startswith("edit") and c.data.get("chat_id") == str(supergroup.id)
        ]
        assert touched == [], touched
        # ... and the question's button still works: the second game ends by resignation.
        yes = next(b.callback_data for row in fake.keyboard(asked) for b in row)
        assert isinstance(yes, str) and yes.startswith("rsy:"), yes
        before = fake.last_message_id(supergroup)
        await fake.press(alice, asked, yes)
        await _next(fake, supergroup, before, lambda m: "resign" in _said(m))
        await _eventually(
            bot,
            lambda: bot.query("SELECT status FROM games WHERE id = ?", second) == [("finished",)],
        )
        assert bot.query("SELECT status FROM games WHERE id = ?", first) == [("active",)]
        # Taps on the offer and on a board left in the old group are answered.
        for message, label in ((offer, "Decline draw"), (old_boards[first], "Board")):
            text, _ = await _press(fake, bob, message, label)  # (the old group takes no edits)
            assert text is None or "went wrong" not in text, (label, text)
        _refusals_retried(fake)
        assert await bot.stop() == 0
    assert "Traceback" not in bot.log.read_text(encoding="utf-8", errors="replace")
