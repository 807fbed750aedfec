"""The Telegram adapter in groups as people use them, through python-telegram-bot against the
fake Bot API (which delivers what a privacy-mode bot receives): forum topics, replies to a
board that are talk, edits of a refused move, typos in a private chat, a bare /challenge, and
moves typed with invisible or fullwidth characters (issue 26)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
import telegram

import engines
from tests.adapters.telegram_kit import DEADLINE, Bot, running


async def _group_game(
    bot: Bot, chat: telegram.Chat
) -> tuple[telegram.User, telegram.User, telegram.Message, int]:
    """Alice challenges @bob in ``chat``; Bob accepts: the players, the first board, the game."""
    fake = bot.fake
    alice, bob = fake.user(11, "Alice", "alice"), fake.user(12, "Bob", "bob")
    await bot.say(bob, chat, "/games")  # the bot now knows @bob
    card = await bot.say(alice, chat, "/challenge maphex @bob")
    await bot.press(bob, card, bot.button(card, "Accept"))
    board = await fake.wait_for_message(chat, lambda m: m.message_id > card.message_id)
    return alice, bob, board, bot.game_id(board)


def _fullwidth(text: str) -> str:
    """``text`` as a phone keyboard in a CJK layout types it (fullwidth letters and digits)."""
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in text)


async def test_in_a_topic_the_opening_message_is_nobody_replied_to(tmp_path: Path) -> None:
    """Every message in a forum topic replies to the topic's opening service message: an open
    /challenge typed there is open (not a challenge to whoever opened the topic), and /stats
    there shows the sender's own statistics."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, bob = fake.user(11, "Alice", "alice"), fake.user(12, "Bob", "bob")
        carol = fake.user(13, "Carol", "carol")
        club = fake.forum(-1_000_000_000_100, "Hex club")
        topic = await fake.topic(club, "Pathagon evenings", carol)
        await fake.send_text(alice, club, "/challenge pathagon", topic=topic)
        card = await bot.next_message(club, fake.last_message_id(club))
        assert card.text is not None and "Carol" not in card.text
        assert "Accept" in bot.labels(card)
        # Open: Bob (not the topic's creator) may accept it.
        _, text, alert = await bot.press(bob, card, bot.button(card, "Accept"))
        assert not alert, text
        await fake.send_text(alice, club, "/stats", topic=topic)
        stats = await bot.next_message(club, fake.last_message_id(club))
        assert stats.text is not None and "Alice" in stats.text and "Carol" not in stats.text


async def test_replies_to_a_board_are_moves_only_when_they_read_like_one(tmp_path: Path) -> None:
    """Under a board, talk ("nice move! 👏", "hmm, thinking") gets no answer, whoever writes
    it; a reply that reads like a move is played for the player to move, and gets a short
    refusal from anyone else."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        hall = fake.group(-200, "Hall")
        alice, bob, board, gid = await _group_game(bot, hall)
        mover = await bot.to_move(gid, alice, bob)
        waiting = bob if mover is alice else alice
        before = fake.last_message_id(hall)
        await fake.send_text(waiting, hall, "nice move! 👏", reply_to=board)
        await fake.send_text(mover, hall, "hmm, thinking", reply_to=board)
        move = engines.new("maphex").legal_moves()[4]
        wrong = await bot.say(waiting, hall, move, reply_to=board)
        assert wrong.text is not None and "turn" in wrong.text.lower()
        assert len(wrong.text) < 120
        played = await bot.say(mover, hall, move, reply_to=board)
        assert played.text is not None and move in played.text
        # Exactly the two answers: nothing for the talk.
        assert [m.message_id for m in fake.sent_after(hall, before)] == [
            wrong.message_id,
            played.message_id,
        ]


async def test_an_edited_refused_move_is_played_as_the_new_move(tmp_path: Path) -> None:
    """Telegram sends an edit as ``edited_message`` (the bot now asks for it): an edit of a
    /move that was refused is the new move; an edit of a move that was played changes
    nothing."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        hall = fake.group(-201, "Hall")
        alice, bob, _, gid = await _group_game(bot, hall)
        mover = await bot.to_move(gid, alice, bob)
        refused = await bot.say(mover, hall, f"/move #{gid} z99")
        assert refused.text is not None and "Illegal" in refused.text
        typed = fake.last_message_id(hall) - 1  # the user's /move, answered by ``refused``
        assert fake.message(hall, typed).text == f"/move #{gid} z99"
        move = engines.new("maphex").legal_moves()[4]
        await fake.edit_text(mover, (hall.id, typed), f"/move #{gid} {move}")
        played = await bot.next_message(hall, refused.message_id)
        assert played.text is not None and move in played.text
        assert await bot.manager.games.player_to_move(gid) != mover
        # An edit of the played move: no second move, no answer.
        other = bob if mover is alice else alice
        await fake.edit_text(mover, (hall.id, typed), f"/move #{gid} a1")
        games = await bot.say(other, hall, "/games")
        assert games.message_id == played.message_id + 2  # /games itself, then its answer


async def test_a_typo_in_a_private_chat_gets_did_you_mean(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice = fake.user(11, "Alice", "alice")
        await fake.start_private(alice, send_start=False)
        answer = await bot.say(alice, fake.private(alice), "/mvoe 5")
        assert answer.text is not None and "did you mean /move" in answer.text
        # In a group an unknown command may be another bot's: no answer there.
        hall = fake.group(-202, "Hall")
        before = fake.last_message_id(hall)
        await fake.send_text(alice, hall, "/mvoe 5")
        rules = await bot.say(alice, hall, "/rules pathagon")
        assert [m.message_id for m in fake.sent_after(hall, before)] == [rules.message_id]


async def test_a_bare_challenge_offers_the_games_as_buttons(tmp_path: Path) -> None:
    """``/challenge`` from the command menu arrives without arguments: the games come as
    buttons, for the one who asked; a tap makes the open challenge."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, bob = fake.user(11, "Alice", "alice"), fake.user(12, "Bob", "bob")
        hall = fake.group(-203, "Hall")
        question = await bot.say(alice, hall, "/challenge")
        titles = [spec.title for spec in engines.GAMES.values()]
        assert bot.labels(question) == titles
        _, text, alert = await bot.press(bob, question, bot.button(question, "Pathagon"))
        assert alert and text is not None
        await bot.press(alice, question, bot.button(question, "Pathagon"))
        card = await bot.next_message(hall, question.message_id)
        assert card.text is not None and "Pathagon" in card.text
        assert "Accept" in bot.labels(card)
        await fake.wait_until(lambda: fake.keyboard(question) == (), timeout=DEADLINE)


async def test_moves_with_invisible_and_fullwidth_characters_are_read(tmp_path: Path) -> None:
    """What phone keyboards and copy-paste add (fullwidth forms, zero-width spaces, direction
    marks) is folded away before the move is read."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        hall = fake.group(-204, "Hall")
        alice, bob, board, gid = await _group_game(bot, hall)
        mover = await bot.to_move(gid, alice, bob)
        move = engines.new("maphex").legal_moves()[4]
        typed = "\u200f" + _fullwidth(move) + "\u200b"
        played = await bot.say(mover, hall, typed, reply_to=board)
        assert played.text is not None and move in played.text, played.text


async def test_a_move_replied_to_a_challenge_card_is_not_read_as_that_number(
    tmp_path: Path,
) -> None:
    """A card's buttons name a challenge, not a game: a move written as a reply to a card
    goes to the writer's game here, not to a game numbered like the challenge."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        hall = fake.group(-205, "Hall")
        alice, bob, _, gid = await _group_game(bot, hall)
        carol = fake.user(13, "Carol", "carol")
        card = await bot.say(carol, hall, "/challenge pathagon")  # challenge 2, no game #2
        mover = await bot.to_move(gid, alice, bob)
        move = engines.new("maphex").legal_moves()[4]
        played = await bot.say(mover, hall, move, reply_to=card)
        assert played.text is not None and move in played.text, played.text
        assert f"#{gid}" in played.text


async def test_a_private_move_after_the_bot_was_removed_is_not_answered_try_again(
    tmp_path: Path,
) -> None:
    """The bot removed from the game's group: a move typed privately is stored and answered
    there with the board, never "something went wrong, try again"; the group's own board
    (committed with the move, issue 24) is refused by the group (403 "bot was kicked":
    TelegramBots/Telegram.Bot#250) and given up, not retried for ever."""
    async with running(tmp_path / "t.db", pictures=False, deliver=True) as bot:
        fake = bot.fake
        hall = fake.group(-206, "Hall")
        alice, bob, _, gid = await _group_game(bot, hall)
        mover = await bot.to_move(gid, alice, bob)
        await fake.start_private(mover, send_start=False)
        fake.kick_bot(hall)
        move = engines.new("maphex").legal_moves()[4]
        private = fake.private(mover)
        before = fake.last_message_id(private)
        await fake.send_text(mover, private, f"#{gid} {move}")
        answer = await bot.next_message(private, before)
        said = [m.text or m.caption or "" for m in fake.sent_after(private, before)]
        assert "played" in (answer.text or ""), said
        assert not any("try again" in t for t in said), said
        after = await bot.manager.games.player_to_move(gid)
        assert after is not None and after.user_id != str(mover.id)  # the move is stored
        store: Any = bot.manager.store
        (board,) = await store.notifications_for(after.id)
        assert board.kind == "board" and board.chat is not None
        assert board.chat.chat_id == str(hall.id)

        async def given_up() -> bool:  # due after its grace, refused by the group, dropped
            return await store.notifications_for(after.id) == []

        await bot.eventually(given_up)


async def test_a_tap_on_a_board_left_in_a_migrated_group_is_answered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """After the group became a supergroup (Telegram: 400 "group chat was upgraded to a
    supergroup chat" with migrate_to_chat_id for the old id, TwiN/gatus#179), a tap on a board
    left in the old group is answered without "something went wrong" and without a
    traceback in the log."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        hall = fake.group(-207, "Hall")
        alice, bob, board, gid = await _group_game(bot, hall)
        supergroup = await fake.migrate(hall, alice)
        await bot.eventually(lambda: _moved(bot, gid, supergroup.id))
        mover = await bot.to_move(gid, alice, bob)
        with caplog.at_level(logging.INFO):
            for label in ("Move", "Board", "History"):
                _, text, _ = await bot.press(mover, board, bot.button(board, label))
                assert text is None or "went wrong" not in text, text
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def _moved(bot: Bot, game_id: int, chat_id: int) -> bool:
    row = await bot.manager.store.get_game(game_id)
    return row is not None and row.chat_id == str(chat_id)
