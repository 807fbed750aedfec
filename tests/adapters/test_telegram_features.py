"""The Telegram adapter's later features through the real python-telegram-bot and the fake Bot
API: an invitation by @username the bot cannot look up, the ratings commands (leaderboard,
stats with its chart as a photo, ``rated=no``), a game against the bot, and the position
browser editing its photo in place."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path

import pytest
import telegram

import engines
from bot.sessions import texts
from bot.sessions.thinker import Thinker
from engines.ai import Budget
from engines.levels import Level
from tests.adapters.telegram_kit import Bot, running


def _board(bot: Bot, chat: telegram.Chat, after: int) -> telegram.Message | None:
    """The newest bot message after ``after`` that is a live board (has a Move button)."""
    for message in reversed(bot.fake.sent_after(chat, after)):
        if "Move" in bot.labels(message):
            return message
    return None


def _bot_board(bot: Bot, chat: telegram.Chat, after: int) -> bool:
    """Whether the newest live board after ``after`` is the bot's move telling it is the
    player's turn."""
    board = _board(bot, chat, after)
    return board is not None and "your turn" in (board.text or "").lower()


async def test_invited_by_username_accepts_and_others_are_refused(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, bob = fake.user(11, "Alice", "alice"), fake.user(12, "Bob", "Bob_T")
        carol = fake.user(13, "Carol", "carol")
        group = fake.group(-100, "Hex club")
        # The bot has never seen Bob: the challenge waits for whoever is @bob_t.
        card = await bot.say(alice, group, "/challenge pathagon @bob_t first=me")
        assert card.text is not None and "@bob_t" in card.text, card.text
        assert {"Accept", "Decline", "Cancel"} <= set(bot.labels(card))
        cid = int(bot.button(card, "Accept").split(":")[1])
        _, text, alert = await bot.press(carol, card, bot.button(card, "Accept"))
        assert alert and text and "@bob_t" in text and "not for you" in text
        _, text, alert = await bot.press(carol, card, bot.button(card, "Decline"))
        assert alert and text and "not for you" in text
        stored = await bot.manager.store.get_challenge(cid)
        assert stored is not None and stored.status == "pending" and stored.target is None
        assert set(bot.labels(card)) >= {"Accept", "Decline"}  # unchanged
        listed = await bot.say(alice, group, "/games")
        assert listed.text is not None and "@bob_t" in listed.text, listed.text
        before = fake.last_message_id(group)
        _, _, alert = await bot.press(bob, card, bot.button(card, "Accept"))
        assert not alert
        board = await bot.next_message(group, before)
        game_id = bot.game_id(board)
        # Alice moves first (first=me); then it is Bob's turn: he is bound by id.
        assert await bot.to_move(game_id, alice, bob) is alice
        move = engines.new("pathagon").legal_moves()[0]
        await bot.say(alice, group, f"/move {move}")
        assert await bot.to_move(game_id, alice, bob) is bob
        accepted = await bot.manager.store.get_challenge(cid)
        bob_row = await bot.manager.players.player(bot.as_user(bob))
        assert accepted is not None and accepted.target == bob_row.id
        # An invitation to oneself by username is refused.
        mine = await bot.say(alice, group, "/challenge maphex @ALICE")
        assert mine.text is not None and "yourself" in mine.text.lower(), mine.text


async def test_ratings_commands_leaderboard_stats_and_casual(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db") as bot:
        fake = bot.fake
        alice, bob = fake.user(31, "Alice", "alice"), fake.user(32, "Bob", "bob")
        group = fake.group(-300, "Hex club")
        await fake.send_text(bob, group, "hello")
        hello = fake.message(group, 1)
        card = await bot.say(alice, group, "/challenge pathagon first=me", reply_to=hello)
        before = fake.last_message_id(group)
        await bot.press(bob, card, bot.button(card, "Accept"))
        game_id = bot.game_id(await bot.next_message(group, before))
        await bot.say(alice, group, f"/move {engines.new('pathagon').legal_moves()[0]}")
        over = await bot.say(bob, group, "/resign !")
        assert over.caption is not None or over.text is not None
        assert await bot.manager.games.player_to_move(game_id) is None
        board = await bot.say(alice, group, "/leaderboard pathagon")
        assert board.text is not None and "Alice" in board.text and "Bob" in board.text
        everywhere = await bot.say(alice, group, "/leaderboard pathagon all")
        assert everywhere.text is not None and "Alice" in everywhere.text
        # Stats of the player replied to: the chart as a photo, the figures in its caption.
        stats = await bot.say(alice, group, "/stats", reply_to=hello)
        assert stats.photo, stats
        assert stats.caption is not None and "Bob" in stats.caption
        assert fake.photo_bytes(stats).startswith(b"\x89PNG")
        mine = await bot.say(bob, group, "/stats")
        assert mine.photo and mine.caption is not None and "Bob" in mine.caption
        unknown = await bot.say(alice, group, "/stats @nobody_here")
        assert unknown.text is not None and "@nobody_here" in unknown.text
        casual = await bot.say(alice, group, "/challenge fixation rated=no", reply_to=hello)
        cid = int(bot.button(casual, "Accept").split(":")[1])
        stored = await bot.manager.store.get_challenge(cid)
        assert stored is not None and stored.rated is False


@pytest.fixture(scope="module")
def thinker() -> Iterator[Thinker]:
    """One worker with tiny budgets: the bot's moves are quick, the test is about delivery."""
    tiny = {level: Budget(iterations=5, seconds=60.0) for level in Level}
    shared = Thinker(budgets=tiny, workers=1)
    yield shared
    shared.close(wait=True)


async def test_a_game_against_the_bot_its_moves_arrive_as_boards(
    tmp_path: Path, thinker: Thinker
) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True, thinker=thinker) as bot:
        fake = bot.fake
        alice = fake.user(41, "Alice", "alice")
        await fake.start_private(alice, send_start=False)
        chat = fake.private(alice)
        start = await bot.say(alice, chat, "/challenge pathagon bot level=easy first=me")
        game_id = bot.game_id(start)
        for _ in range(3):
            row = await bot.manager.store.get_game(game_id)
            assert row is not None and row.against_bot and row.status == "active"
            assert await bot.manager.games.player_to_move(game_id) is not None  # Alice's turn
            position = engines.new("pathagon")
            for made in await bot.manager.store.moves(game_id):
                position = position.play(made.move)
            before = fake.last_message_id(chat)
            await fake.send_text(alice, chat, position.legal_moves()[0])
            # Alice's move is answered, then the bot's reply arrives as the live board.
            await fake.wait_until(functools.partial(_bot_board, bot, chat, before), timeout=30.0)
            board = _board(bot, chat, before)
            assert board is not None and bot.game_id(board) == game_id
        await bot.manager.bot_idle()
        # Older boards keep their buttons (no edit per move: issue 24); the store knows the
        # newest one.
        live = await bot.manager.posts.posts_for("telegram", game_id=game_id, live=True)
        boards = [str(m.message_id) for m in fake.sent(chat) if "Move" in bot.labels(m)]
        assert len(boards) >= 4 and len(live) == 1 and live[0].message_id in boards[-2:]
        assert fake.calls_to("editMessageReplyMarkup") == []


async def test_the_position_browser_edits_its_photo_in_place(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db") as bot:
        fake = bot.fake
        alice, bob = fake.user(51, "Alice", "alice"), fake.user(52, "Bob", "bob")
        group = fake.group(-500, "Hex club")
        await fake.send_text(bob, group, "hello")
        card = await bot.say(
            alice, group, "/challenge pathagon first=me", reply_to=fake.message(group, 1)
        )
        before = fake.last_message_id(group)
        await bot.press(bob, card, bot.button(card, "Accept"))
        await bot.next_message(group, before)
        position = engines.new("pathagon")
        for player in (alice, bob):
            move = position.legal_moves()[0]
            position = position.play(move)
            await bot.say(player, group, f"/move {move}")
        history = await bot.say(alice, group, "/history")
        assert history.text is not None
        before = fake.last_message_id(group)
        _, _, alert = await bot.press(bob, history, bot.button(history, texts.STEP_THROUGH))
        assert not alert
        browser = await bot.next_message(group, before)
        assert browser.photo and browser.caption is not None and "start position" in browser.caption
        start_photo = fake.photo_bytes(browser)
        assert set(bot.labels(browser)) == {texts.STEP_LABELS[2], texts.STEP_LABELS[3]}
        count = len(fake.sent(group))
        await bot.press(bob, browser, bot.button(browser, texts.STEP_LABELS[2]))
        await fake.wait_until(
            lambda: "after move 1" in (fake.message(group, browser.message_id).caption or ""),
            timeout=30.0,
        )
        assert fake.photo_bytes(browser) != start_photo  # the photo itself changed
        assert set(bot.labels(browser)) == set(texts.STEP_LABELS)
        await bot.press(alice, browser, bot.button(browser, texts.STEP_LABELS[3]))
        await fake.wait_until(
            lambda: "after move 2" in (fake.message(group, browser.message_id).caption or ""),
            timeout=30.0,
        )
        assert set(bot.labels(browser)) == {texts.STEP_LABELS[0], texts.STEP_LABELS[1]}
        await bot.press(alice, browser, bot.button(browser, texts.STEP_LABELS[0]))
        await fake.wait_until(lambda: fake.photo_bytes(browser) == start_photo, timeout=30.0)
        assert len(fake.sent(group)) == count  # edited in place, nothing new posted
        # The live board still has its buttons: browsing is not a board.
        live = _board(bot, group, 0)
        assert live is not None and "Resign" in bot.labels(live)
