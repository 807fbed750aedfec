"""The answer on a tapped button (``answerCallbackQuery``) is in the presser's language, while
what the chat reads stays in the chat's (issue 43), through python-telegram-bot against the fake
Bot API."""

from __future__ import annotations

from pathlib import Path

from bot.core import i18n
from bot.sessions import texts
from tests.adapters.telegram_kit import running

#: "You cannot accept your own challenge" as each presser reads it on the alert.
OWN_CHALLENGE = {
    "es": "No puedes aceptar tu propio desafío",
    "ja": "自分の挑戦は受けられません",
    "de": "Du kannst deine eigene Herausforderung nicht annehmen",
}


async def test_a_buttons_alert_is_in_the_pressers_language_in_an_english_group(
    tmp_path: Path,
) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        group = fake.group(-100, "Hex club")  # no chat language chosen: English
        carol = fake.user(13, "Carol", "carol", language_code="en")
        card = await bot.say(carol, group, "/challenge maphex first=me")
        assert card.text is not None and "challenges" in card.text  # the chat's English
        for number, (code, words) in enumerate(OWN_CHALLENGE.items()):
            person = fake.user(20 + number, f"P{number}", f"p{number}", language_code=code)
            mine = await bot.say(person, group, "/challenge maphex first=me")
            assert mine.text is not None and "challenges" in mine.text, mine.text
            _, text, alert = await bot.press(person, mine, bot.button(mine, "Accept"))
            assert alert and text is not None and words in text, (code, text)
        # An English presser in the same group reads English.
        _, text, alert = await bot.press(carol, card, bot.button(card, "Accept"))
        assert alert and text is not None and "You cannot accept your own challenge" in text


async def test_a_button_for_someone_else_says_so_in_the_pressers_language(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        group = fake.group(-100, "Hex club")
        ada = fake.user(11, "Ada", "ada", language_code="en")
        bo = fake.user(12, "Bo", "bo", language_code="fr")
        asked = await bot.say(ada, group, "/challenge")  # the games as buttons, for Ada
        game = next(b for row in fake.keyboard(asked) for b in row)
        assert isinstance(game.callback_data, str)
        _, text, alert = await bot.press(bo, asked, game.callback_data)
        with i18n.use("fr"):
            expected = i18n.gettext(
                "These buttons are for whoever asked: /challenge to get your own."
            )
        assert alert and text == expected and "/challenge" in expected and expected[:4] == "Ces "


async def test_the_move_picker_is_in_the_pressers_language_in_an_english_group(
    tmp_path: Path,
) -> None:
    """Move pressed in a group: the picker goes to the presser's private chat, so its steps
    read in the presser's language while the board in the group stays in the chat's."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        group = fake.group(-100, "Hex club")  # no chat language chosen: English
        ada = fake.user(31, "Ada", "ada", language_code="ja")
        bo = fake.user(32, "Bo", "bo", language_code="es")
        await fake.send_text(bo, group, "hi")
        card = await bot.say(ada, group, "/challenge maphex first=me", reply_to=(group.id, 1))
        before = fake.last_message_id(group)
        await bot.press(bo, card, bot.button(card, "Accept"))
        board = await bot.next_message(group, before)
        assert "Move" in bot.labels(board)  # the group's English
        game_id = bot.game_id(board)
        mover = await bot.to_move(game_id, ada, bo)
        picker = await bot.open_picker(mover, board)
        code = "ja" if mover is ada else "es"
        with i18n.use(code):
            start, cancel = texts.picker_start(game_id, 1), i18n.gettext("Cancel")
        assert picker.text == start and "choose" not in start, (code, picker.text)
        assert cancel in bot.labels(picker) and cancel != "Cancel"
