"""The Telegram bot in each language that ships (issue 43), through python-telegram-bot against
the fake Bot API: the menu and description per language code, /help in the player's language,
a group's language set by its administrators only, then a challenge, the accept, a move, the
board's caption and an illegal move, all read in that language."""

from __future__ import annotations

from pathlib import Path

import pytest
import telegram

import engines
from bot.adapters.telegram.languages import telegram_code
from bot.core import i18n
from tests.adapters.telegram_kit import DEADLINE, Bot, running
from tests.i18n_words import WORDS


def _game_id(bot: Bot, board: telegram.Message) -> int:
    """The game of a board, from its Move button's id (the label is in the chat's language)."""
    for row in bot.fake.keyboard(board):
        for button in row:
            data = button.callback_data
            if isinstance(data, str) and data.startswith("pk:"):
                return int(data.split(":")[1])
    raise AssertionError("no Move button on the board")


@pytest.mark.parametrize("code", list(WORDS))
async def test_a_game_read_in_each_language(tmp_path: Path, code: str) -> None:
    words = WORDS[code]
    said_by_app = "pt-br" if code == "pt_BR" else code  # Telegram's IETF language_code
    async with running(tmp_path / "t.db") as bot:
        fake = bot.fake
        tg = telegram_code(code)
        await fake.wait_until(lambda: tg in fake.descriptions, timeout=DEADLINE)
        # The menu and the description in the language's two-letter code.
        assert words.help in fake.descriptions[tg]
        menu = {c.command: c.description for c in fake.commands(language_code=tg)}
        english = {c.command: c.description for c in fake.commands()}
        assert set(menu) == set(english) and menu["move"] != english["move"]
        alice = fake.user(11, "Alice", "alice", language_code=said_by_app)
        bob = fake.user(12, "Bob", "bob", language_code=said_by_app)
        await fake.start_private(alice, send_start=False)
        helped = await bot.say(alice, fake.private(alice), "/help")
        assert helped.text is not None and words.help in helped.text
        # A group reads English until its administrators choose (Telegram says who they are).
        group = fake.group(-100, "Hex club")
        fake.make_admin(group, alice)
        refused = await bot.say(bob, group, f"/settings chat-language {code}")
        assert refused.text is not None and "administrators" in refused.text
        chosen = await bot.say(alice, group, f"/settings chat-language {code}")
        assert chosen.text is not None and i18n.language_name(code) in chosen.text
        await fake.send_text(bob, group, "hi all")
        hello = fake.message(group, fake.last_message_id(group))
        card = await bot.say(alice, group, "/challenge maphex first=me", reply_to=hello)
        assert card.text is not None and words.challenge in card.text, card.text
        _, _, alert = await bot.press(bob, card, bot.button(card, words.accept))
        assert not alert
        board = await fake.wait_for_message(group, lambda m: m.message_id > card.message_id)
        assert board.caption is not None and words.to_move in board.caption, board.caption
        assert words.move in bot.labels(board)
        game_id = _game_id(bot, board)
        one = await bot.to_move(game_id, alice, bob)
        two = bob if one is alice else alice
        first = engines.new("maphex").legal_moves()[4]
        after = await bot.say(one, group, f"/move {first}")
        assert after.caption is not None and first in after.caption
        assert words.played in after.caption, after.caption
        illegal = await bot.say(two, group, "z99", reply_to=after)
        assert illegal.text is not None and words.illegal in illegal.text, illegal.text


async def test_the_fake_refuses_what_telegram_refuses_in_menus(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        api = bot.adapter.application.bot
        # Bot API: "A two-letter ISO 639-1 language code"; a description of 0-512 characters.
        with pytest.raises(telegram.error.BadRequest, match="language code"):
            await api.set_my_commands([telegram.BotCommand("x", "y")], language_code="pt_BR")
        with pytest.raises(telegram.error.BadRequest, match="language code"):
            await api.set_my_description("Hola", language_code="es-ES")
        with pytest.raises(telegram.error.BadRequest, match="too long"):
            await api.set_my_description("x" * 513, language_code="es")
        assert await api.set_my_description("", language_code="es")
        assert (await api.get_my_description(language_code="es")).description == ""
