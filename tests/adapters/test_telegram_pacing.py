"""Flood control per chat on Telegram (issue 24): the adapter's rate limiter
(:class:`~bot.adapters.telegram.pacing.ChatPacer`) paces only what counts toward a chat's
limits, only in that chat, and a 429 in one group holds no other chat up.

Telegram's limits are per chat (Bots FAQ, "My bot is hitting limits, how do I avoid this?": one
message a second in a chat, 20 a minute in a group); python-telegram-bot's own
``AIORateLimiter`` "will halt *all* requests for retry_after + 0.1 seconds" after one 429
(its documentation), which is what these tests rule out.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import telegram

import engines
from bot.adapters.telegram.pacing import ChatPacer
from tests.adapters.telegram_kit import DEADLINE, Bot, running
from tests.fakes.telegram import FakeTelegram, TelegramLimits

#: The 429's ``retry_after`` (whole seconds, as Telegram sends it): long enough for a move and a
#: tap in the other group to be answered within it on a loaded machine.
RETRY_AFTER = 3
#: The pacer's pause between new messages in one chat in these tests (seconds; Telegram's, the
#: pacer's default: 1), so a test does not wait out a second per board: one message per chat
#: each :data:`CHAT_PERIOD` seconds.  The back-to-back test's fake enforces the same, and 3
#: messages and edits per group within :data:`GROUP_PERIOD` seconds (Telegram's: 20 in 60): a
#: move's round trip here is faster than either (about 0.05 s), so both bind.
CHAT_PERIOD = 0.1
GROUP_PERIOD = 3 * CHAT_PERIOD


async def _start(bot: Bot, group: telegram.Chat, one: telegram.User, two: telegram.User) -> int:
    """``one`` challenges ``two`` to Pathagon in ``group``, ``two`` accepts: the game's id."""
    fake = bot.fake
    await fake.send_text(two, group, "hello")
    hello = fake.last_message_id(group)
    card = await bot.say(one, group, "/challenge pathagon", reply_to=fake.message(group, hello))
    before = fake.last_message_id(group)
    await bot.press(two, card, bot.button(card, "Accept"))
    return bot.game_id(await bot.next_message(group, before))


class _Game:
    """A game's position as the test plays it."""

    def __init__(self) -> None:
        self.position = engines.new("pathagon")

    def next_move(self) -> str:
        """A legal move, played here."""
        move = self.position.legal_moves()[0]
        self.position = self.position.play(move)
        return move


def _index(bot: Bot, chat: telegram.Chat, *, ok: bool, after: int = -1) -> int:
    """The index in the fake's calls of the first ``sendMessage`` to ``chat`` after ``after``
    that Telegram accepted (``ok``) or refused."""
    for i, call in enumerate(bot.fake.calls):
        if i <= after or call.method != "sendMessage" or call.response is None:
            continue
        if call.data.get("chat_id") == str(chat.id) and bool(call.response.get("ok")) == ok:
            return i
    raise AssertionError(f"no such sendMessage to {chat.id}")


def _refusals(bot: Bot) -> list[object]:
    """The chats of every flood refusal (429) so far."""
    calls = bot.fake.calls
    return [c.data.get("chat_id") for c in calls if (c.response or {}).get("error_code") == 429]


@pytest.mark.parametrize("retries", [0, 3])
async def test_a_429_in_one_group_leaves_another_group_unaffected(
    tmp_path: Path, retries: int
) -> None:
    """Telegram answers 429 (retry after :data:`RETRY_AFTER` s) to the board of a move in one
    group.  Meanwhile a move in another group gets its board and a tap there its answer, both
    before the first group's board goes out; the mover whose move was stored is never told to
    try again; that board arrives once, when the block ends, with no second 429: sent again
    by the answer itself (``retries=3``, it waits in its own chat), or by the outbox
    (``retries=0``: the answer gives up at once and its board was released to the outbox)."""
    pacer = ChatPacer(max_retries=retries, chat_period=CHAT_PERIOD)
    async with running(tmp_path / "t.db", pictures=False, deliver=True, rate_limiter=pacer) as bot:
        fake = bot.fake
        alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", "bob")
        carol, dave = fake.user(23, "Carol", "carol"), fake.user(24, "Dave", "dave")
        club, other = fake.group(-500, "Hex club"), fake.group(-600, "Other club")
        club_game = await _start(bot, club, alice, bob)
        other_game = await _start(bot, other, carol, dave)

        fake.flood("sendMessage", retry_after=RETRY_AFTER, chat_id=club.id)
        mover = await bot.to_move(club_game, alice, bob)
        move = _Game().next_move()
        await fake.send_text(mover, club, f"/move {move}")
        await fake.wait_until(lambda: club.id in [int(str(c)) for c in _refusals(bot)])
        refused = _index(bot, club, ok=False)

        # The other group: a move answered with its board, a tap answered at once.
        other_mover = await bot.to_move(other_game, carol, dave)
        board = await bot.say(other_mover, other, f"/move {_Game().next_move()}")
        assert board.text is not None and "played" in board.text
        next_mover = await bot.to_move(other_game, carol, dave)
        _, _, alert = await bot.press(next_mover, board, bot.button(board, "Move"))
        assert not alert
        answered = max(i for i, c in enumerate(fake.calls) if c.method == "answerCallbackQuery")
        other_board = _index(bot, other, ok=True, after=refused)
        assert pacer.blocked_for(club.id) > 0  # the club is still held back

        # The club's board: once, after the block, through the outbox; no "try again".
        await fake.wait_until(
            lambda: any(f"played {move}" in (m.text or "") for m in fake.sent(club)),
            timeout=DEADLINE,
        )
        club_board = _index(bot, club, ok=True, after=refused)
        assert refused < other_board < club_board and answered < club_board
        assert len([m for m in fake.sent(club) if f"played {move}" in (m.text or "")]) == 1
        assert not [m for m in fake.sent(club) if "went wrong" in (m.text or "")]
        assert _refusals(bot) == [str(club.id)]  # the one 429 asked for, no other


async def test_back_to_back_play_on_the_limits_makes_no_429(tmp_path: Path) -> None:
    """Two players move as soon as each board arrives, in a group whose limits the fake
    enforces (its windows scaled down so the test is short: :data:`CHAT_PERIOD`,
    :data:`GROUP_PERIOD`; the pacer told the same): every board arrives and Telegram never
    answers 429; the chat's messages went out at least :data:`CHAT_PERIOD` apart."""
    limits = TelegramLimits(chat_period=CHAT_PERIOD, per_group=3, group_period=GROUP_PERIOD)
    pacer = ChatPacer(chat_period=CHAT_PERIOD, per_group=3, group_period=GROUP_PERIOD)
    async with (
        FakeTelegram(limits=limits) as fake,
        running(
            tmp_path / "t.db", pictures=False, fake=fake, deliver=True, rate_limiter=pacer
        ) as bot,
    ):
        alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", "bob")
        club = fake.group(-500, "Hex club")
        game_id = await _start(bot, club, alice, bob)
        game = _Game()
        for _ in range(6):
            mover = await bot.to_move(game_id, alice, bob)
            move = game.next_move()
            board = await bot.say(mover, club, f"/move {move}")
            assert board.text is not None and f"played {move}" in board.text
        assert _refusals(bot) == []
        sent = fake.calls_to("sendMessage")
        assert all((c.response or {}).get("ok") for c in sent)
        # Paced: each of the group's messages left a pause after the one before it.
        times = [c.at for c in sent if c.data.get("chat_id") == str(club.id)]
        gaps = [b - a for a, b in itertools.pairwise(times)]
        assert len(gaps) >= 6 and min(gaps) >= CHAT_PERIOD
