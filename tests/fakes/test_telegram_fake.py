"""The fake Telegram server against the real python-telegram-bot: handlers, polling, errors."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import io
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import telegram
from PIL import Image
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    Forbidden,
    InvalidToken,
    RetryAfter,
)
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from tests.fakes.telegram import FakeTelegram, TelegramLimits

App = Application[Any, Any, Any, Any, Any, Any]


def _png(width: int = 600, height: int = 400, colour: str = "white") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


def _gif() -> bytes:
    frames = [Image.new("P", (40, 30), i) for i in range(3)]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=1000, loop=0)
    return out.getvalue()


BOARD_PNG = _png(1600, 800)
RESIGN = InlineKeyboardMarkup([[InlineKeyboardButton("Resign", callback_data="resign")]])
REMATCH = InlineKeyboardMarkup([[InlineKeyboardButton("Rematch", callback_data="rematch")]])


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    # httpx honours proxy variables; calls to the fake must stay on 127.0.0.1.
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    # Durations as timedelta (PTB 22 warns on the int form it is phasing out).
    monkeypatch.setenv("PTB_TIMEDELTA", "1")


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[telegram.Bot]:
    async with telegram.Bot(
        fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url
    ) as client:
        yield client


@pytest.fixture
async def alice(fake: FakeTelegram) -> telegram.User:
    user = fake.user(5, "Alice", "alice")
    await fake.start_private(user, send_start=False)
    return user


class Seen:
    """What the test handlers saw, so tests can wait on it."""

    def __init__(self) -> None:
        self.update_ids: list[int] = []
        self.replies_to: list[int | None] = []


def _application(fake: FakeTelegram, seen: Seen) -> App:
    app = fake.application_builder().build()

    async def board(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        seen.update_ids.append(update.update_id)
        assert update.effective_chat is not None
        await update.effective_chat.send_photo(BOARD_PNG, caption="Your move", reply_markup=RESIGN)

    async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        seen.update_ids.append(update.update_id)
        query = update.callback_query
        assert query is not None
        await query.answer(f"You pressed {query.data}")
        await query.edit_message_caption("Game over", reply_markup=REMATCH)

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        seen.update_ids.append(update.update_id)
        message = update.effective_message
        assert message is not None and message.text is not None
        reply_to = message.reply_to_message
        seen.replies_to.append(reply_to.message_id if reply_to else None)
        await message.reply_text(message.text)

    app.add_handler(CommandHandler("board", board))
    app.add_handler(CallbackQueryHandler(pressed))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, echo))
    return app


@contextlib.asynccontextmanager
async def _running(app: App) -> AsyncIterator[App]:
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1)
        try:
            yield app
        finally:
            if app.updater.running:
                await app.updater.stop()
            await app.stop()


async def test_application_bootstraps_against_the_fake(fake: FakeTelegram) -> None:
    seen = Seen()
    async with _running(_application(fake, seen)) as app:
        assert app.bot.username == "hexhall_bot"
        me = await app.bot.get_me()
        assert me.is_bot and me.first_name == "Hexhall"
        assert me.can_read_all_group_messages is False
        assert me.supports_inline_queries is False
        await fake.wait_for(lambda c: c.method == "getUpdates")
    methods = [c.method for c in fake.calls]
    assert methods.index("getMe") < methods.index("deleteWebhook") < methods.index("getUpdates")


async def test_command_photo_keyboard_and_callback_round_trip(
    fake: FakeTelegram, alice: telegram.User
) -> None:
    seen = Seen()
    async with _running(_application(fake, seen)):
        await fake.send_text(alice, fake.private(alice), "/board")
        board = await fake.wait_for_message(alice.id, lambda m: bool(m.photo))
        assert board.caption == "Your move"
        assert board.from_user is not None and board.from_user.username == "hexhall_bot"
        assert fake.photo_bytes(board) == BOARD_PNG == fake.last_photo(alice.id)
        # Telegram keeps at most 1280 on the longest side.
        assert (board.photo[-1].width, board.photo[-1].height) == (1280, 640)
        assert [[b.callback_data for b in row] for row in fake.keyboard(board)] == [["resign"]]
        upload = fake.calls_to("sendPhoto")[0]
        assert upload.files["photo"] == BOARD_PNG
        assert upload.data["chat_id"] == str(alice.id)
        assert upload.data["reply_markup"] == RESIGN.to_dict()

        query_id = await fake.press(alice, board, "resign")
        answer = await fake.wait_for_answer(query_id)
        assert answer.text == "You pressed resign" and not answer.show_alert
        edited = await fake.wait_for_message(alice.id, lambda m: m.caption == "Game over")
        assert edited.message_id == board.message_id and edited.edit_date is not None
        assert [[b.text for b in row] for row in fake.keyboard(board)] == [["Rematch"]]
        with pytest.raises(ValueError, match="no button 'resign'"):
            await fake.press(alice, board, "resign")


async def test_privacy_mode_group_delivers_commands_replies_and_mentions_only(
    fake: FakeTelegram,
) -> None:
    seen = Seen()
    bob = fake.user(6, "Bob")
    hall = fake.group(-40, "Hex hall")
    async with _running(_application(fake, seen)):
        assert await fake.send_text(bob, hall, "/board@other_bot") is None
        assert await fake.send_text(bob, hall, "just chatting") is None
        await fake.send_text(bob, hall, "/board@hexhall_bot")
        board = await fake.wait_for_message(hall, lambda m: bool(m.photo))
        reply_id = await fake.send_text(bob, hall, "nice board", reply_to=board)
        assert reply_id is not None
        echo = await fake.wait_for_message(hall, lambda m: m.text == "nice board")
        assert seen.replies_to == [board.message_id]
        mention_id = await fake.send_text(bob, hall, "hello @hexhall_bot")
        assert mention_id is not None
        await fake.wait_for_message(hall, lambda m: m.text == "hello @hexhall_bot")
    assert len([m for m in fake.sent(hall) if m.photo]) == 1
    # Message ids increase per chat, users' and the bot's alike.
    assert board.message_id < echo.message_id


async def test_command_for_another_bot_is_ignored_by_the_library() -> None:
    seen = Seen()
    async with FakeTelegram(privacy_mode=False) as fake:
        bob = fake.user(6, "Bob")
        hall = fake.group(-40, "Hex hall")
        async with _running(_application(fake, seen)):
            other = await fake.send_text(bob, hall, "/board@other_bot")
            ours = await fake.send_text(bob, hall, "/board@hexhall_bot")
            assert other is not None and ours is not None
            await fake.wait_for_message(hall, lambda m: bool(m.photo))
            await fake.wait_confirmed(ours)
        assert seen.update_ids == [ours]
        assert len(fake.sent(hall)) == 1


async def test_no_update_is_delivered_twice_across_restarts(
    fake: FakeTelegram, alice: telegram.User
) -> None:
    seen = Seen()
    app = _application(fake, seen)
    async with _running(app):
        first = await fake.send_text(alice, alice.id, "one")
        await fake.wait_for_message(alice.id, lambda m: m.text == "one")
        assert app.updater is not None
        await app.updater.stop()
        # The updater's last getUpdates confirmed what it fetched.
        assert first is not None and fake.pending_updates() == []
        second = await fake.send_text(alice, alice.id, "two")
        await app.updater.start_polling(poll_interval=0, timeout=1)
        await fake.wait_for_message(alice.id, lambda m: m.text == "two")
    # A fresh application (a restarted bot) gets only what is new.
    async with _running(_application(fake, seen)):
        third = await fake.send_text(alice, alice.id, "three")
        await fake.wait_for_message(alice.id, lambda m: m.text == "three")
    assert seen.update_ids == [first, second, third]
    assert [m.text for m in fake.sent(alice.id)] == ["one", "two", "three"]


async def test_text_messages_edits_and_deletion(
    fake: FakeTelegram, bot: telegram.Bot, alice: telegram.User
) -> None:
    sent = await bot.send_message(
        alice.id, "<b>Alice</b> to move", parse_mode=ParseMode.HTML, reply_markup=RESIGN
    )
    assert sent.text == "Alice to move"
    assert [(e.type, e.offset, e.length) for e in sent.entities] == [("bold", 0, 5)]
    assert sent.reply_markup == RESIGN
    second = await bot.send_message(alice.id, "Waiting", reply_to_message_id=sent.message_id)
    assert second.message_id == sent.message_id + 1
    assert second.reply_to_message is not None
    assert second.reply_to_message.message_id == sent.message_id

    edited = await bot.edit_message_text(
        "Bob to move", alice.id, sent.message_id, reply_markup=RESIGN
    )
    assert isinstance(edited, telegram.Message) and edited.text == "Bob to move"
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_text("Bob to move", alice.id, sent.message_id, reply_markup=RESIGN)
    # Editing the text without reply_markup removes the keyboard, as on Telegram.
    await bot.edit_message_text("Bob to move", alice.id, sent.message_id)
    assert fake.keyboard((alice.id, sent.message_id)) == ()
    await bot.edit_message_reply_markup(alice.id, sent.message_id, reply_markup=REMATCH)
    assert fake.keyboard((alice.id, sent.message_id))[0][0].text == "Rematch"
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_reply_markup(alice.id, sent.message_id, reply_markup=REMATCH)

    assert await bot.delete_message(alice.id, sent.message_id)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_text("gone", alice.id, sent.message_id)
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await bot.delete_message(alice.id, sent.message_id)
    assert [m.message_id for m in fake.sent(alice.id)] == [second.message_id]
    assert await bot.send_chat_action(alice.id, "upload_photo")
    with pytest.raises(BadRequest, match="Can't parse entities"):
        await bot.send_message(alice.id, "<blink>no</blink>", parse_mode=ParseMode.HTML)


async def test_media_messages_edits_and_file_download(
    fake: FakeTelegram, bot: telegram.Bot, alice: telegram.User
) -> None:
    photo = await bot.send_photo(alice.id, _png(), caption="Board", reply_markup=RESIGN)
    assert photo.photo[-1].width == 600 and photo.caption == "Board"
    with pytest.raises(BadRequest, match="There is no text in the message to edit"):
        await bot.edit_message_text("text", alice.id, photo.message_id)
    captioned = await bot.edit_message_caption(alice.id, photo.message_id, caption="Move 2")
    assert isinstance(captioned, telegram.Message) and captioned.caption == "Move 2"
    assert captioned.reply_markup is None

    new_board = _png(300, 300, "black")
    replaced = await bot.edit_message_media(
        telegram.InputMediaPhoto(new_board, caption="Move 3"),
        alice.id,
        photo.message_id,
        reply_markup=REMATCH,
    )
    assert isinstance(replaced, telegram.Message) and replaced.caption == "Move 3"
    assert fake.photo_bytes(replaced) == new_board
    assert fake.keyboard(replaced)[0][0].callback_data == "rematch"
    again = await bot.send_photo(alice.id, replaced.photo[-1].file_id)
    assert fake.photo_bytes(again) == new_board

    gif = _gif()
    animation = await bot.send_animation(alice.id, gif, caption="Replay", filename="game.gif")
    assert animation.animation is not None
    assert (animation.animation.width, animation.animation.height) == (40, 30)
    assert animation.animation.duration == dtm.timedelta(seconds=3)
    assert animation.animation.mime_type == "video/mp4"

    document = await bot.send_document(alice.id, BOARD_PNG, filename="board.png")
    assert document.document is not None and document.document.file_name == "board.png"
    assert document.document.mime_type == "image/png"
    assert document.document.file_size == len(BOARD_PNG)
    file = await bot.get_file(document.document.file_id)
    assert bytes(await file.download_as_bytearray()) == BOARD_PNG
    with pytest.raises(BadRequest, match="Image_process_failed"):
        await bot.send_photo(alice.id, b"GIF89a not really")
    with pytest.raises(BadRequest, match="Wrong file identifier"):
        await bot.send_photo(alice.id, "no-such-file-id")


async def test_commands_menu(fake: FakeTelegram, bot: telegram.Bot) -> None:
    commands = [telegram.BotCommand("new", "Start a game"), telegram.BotCommand("move", "Play")]
    assert await bot.set_my_commands(commands)
    assert list(await bot.get_my_commands()) == commands
    assert fake.commands() == commands
    assert fake.commands(language_code="de") == []
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await bot.set_my_commands([telegram.BotCommand("New", "Capitalised")])
    assert await bot.delete_my_commands()
    assert list(await bot.get_my_commands()) == []


async def test_limits(fake: FakeTelegram, bot: telegram.Bot, alice: telegram.User) -> None:
    assert len((await bot.send_message(alice.id, "x" * 4096)).text or "") == 4096
    with pytest.raises(BadRequest, match="Message is too long"):
        await bot.send_message(alice.id, "x" * 4097)
    with pytest.raises(BadRequest, match="Message text is empty"):
        await bot.send_message(alice.id, "  \n ")
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await bot.send_photo(alice.id, _png(), caption="c" * 1025)

    def keyboard(**button: Any) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup([[InlineKeyboardButton(**button)]])

    await bot.send_message(alice.id, "ok", reply_markup=keyboard(text="b", callback_data="é" * 32))
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await bot.send_message(
            alice.id, "no", reply_markup=keyboard(text="b", callback_data="x" * 65)
        )
    with pytest.raises(BadRequest, match="Button_text_invalid"):
        await bot.send_message(alice.id, "no", reply_markup=keyboard(text=" ", callback_data="x"))
    with pytest.raises(BadRequest, match="text buttons are unallowed"):
        await bot.send_message(alice.id, "no", reply_markup=keyboard(text="bare"))

    def grid(*widths: int) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            [[InlineKeyboardButton(f"{r}.{c}", callback_data="x") for c in range(w)] for r, w in
             enumerate(widths)]
        )  # fmt: skip

    # 8 buttons in a row and 100 in all, no more (limits.tginfo.me: see KEYBOARD_ROW_LIMIT).
    await bot.send_message(alice.id, "ok", reply_markup=grid(*[8] * 12, 4))
    with pytest.raises(BadRequest, match="Reply_markup_too_long"):
        await bot.send_message(alice.id, "no", reply_markup=grid(4, 9, 4))
    with pytest.raises(BadRequest, match="Reply_markup_too_long"):
        await bot.send_message(alice.id, "no", reply_markup=grid(*[8] * 12, 5))

    board = await bot.send_message(alice.id, "board", reply_markup=RESIGN)
    query_id = await fake.press(alice, board, "resign")
    with pytest.raises(BadRequest, match="Message_too_long"):
        await bot.answer_callback_query(query_id, "a" * 201)
    assert await bot.answer_callback_query(query_id, "a" * 200, show_alert=True)
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query(query_id, "again")
    assert [(a.query_id, a.show_alert) for a in fake.callback_answers] == [(query_id, True)]


async def test_who_the_bot_may_write_to(fake: FakeTelegram, bot: telegram.Bot) -> None:
    carol = fake.user(7, "Carol")
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await bot.send_message(carol.id, "hi")
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await bot.send_photo(carol.id, _png())
    await fake.start_private(carol, send_start=False)
    assert (await bot.send_message(carol.id, "hi")).text == "hi"
    fake.block(carol)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_message(carol.id, "hi")
    hall = fake.group(-41, "Hall")
    fake.kick_bot(hall)
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await bot.send_message(hall.id, "hi")
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.send_message(999, "hi")


async def test_flood_control_raises_retry_after(
    fake: FakeTelegram, bot: telegram.Bot, alice: telegram.User
) -> None:
    fake.flood("sendMessage", retry_after=3, times=2)
    for _ in range(2):
        with pytest.raises(RetryAfter) as caught:
            await bot.send_message(alice.id, "too fast")
        assert caught.value.retry_after == dtm.timedelta(seconds=3)
    assert (await bot.send_message(alice.id, "later")).text == "later"
    refused = fake.calls_to("sendMessage")[0].response
    assert refused == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 3",
        "parameters": {"retry_after": 3},
    }
    assert [m.text for m in fake.sent(alice.id)] == ["later"]


async def test_unknown_method_and_wrong_token(fake: FakeTelegram, bot: telegram.Bot) -> None:
    with pytest.raises(InvalidToken):
        await bot.get_chat_menu_button()
    async with httpx.AsyncClient(trust_env=False) as client:
        response = await client.post(f"{fake.base_url}{fake.token}/sendSticker", data={})
        assert response.status_code == 404
        assert response.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
        elsewhere = await client.get(f"{fake.url}/favicon.ico")
        assert elsewhere.status_code == 404 and elsewhere.json()["description"] == "Not Found"
    wrong = telegram.Bot("7000000001:wrong", base_url=fake.base_url)
    with pytest.raises(InvalidToken):
        await wrong.get_me()
    assert fake.calls[-1].response["error_code"] == 401


async def test_json_get_and_case_insensitive_requests(
    fake: FakeTelegram, alice: telegram.User
) -> None:
    async with httpx.AsyncClient(trust_env=False, base_url=fake.base_url + fake.token) as client:
        me = (await client.get("/getme")).json()
        assert me["ok"] and me["result"]["username"] == "hexhall_bot"
        sent = await client.post(
            "/sendMessage",
            json={"chat_id": alice.id, "text": "json", "reply_markup": RESIGN.to_dict()},
        )
        body = sent.json()
        assert body["ok"] and body["result"]["reply_markup"] == RESIGN.to_dict()
        assert body["result"]["chat"]["id"] == alice.id
        broken = await client.post(
            "/sendMessage", data={"chat_id": str(alice.id), "text": "x", "reply_markup": "{"}
        )
        assert broken.status_code == 400
    assert [c.method for c in fake.calls] == ["getMe", "sendMessage", "sendMessage"]


async def test_long_poll_waits_honours_offset_and_ends_on_conflict_or_stop(
    fake: FakeTelegram, bot: telegram.Bot, alice: telegram.User
) -> None:
    async with httpx.AsyncClient(
        trust_env=False, base_url=fake.base_url + fake.token, timeout=60
    ) as client:

        async def poll(**params: Any) -> dict[str, Any]:
            response = await client.post("/getUpdates", data=params)
            return dict(response.json())

        waiting = asyncio.create_task(poll(timeout=30))
        await fake.wait_until(lambda: fake.waiting_polls == 1)
        update_id = await fake.send_text(alice, alice.id, "move e4")
        assert update_id is not None
        async with asyncio.timeout(5):
            delivered = await waiting
        assert [u["update_id"] for u in delivered["result"]] == [update_id]
        assert delivered["result"][0]["message"]["text"] == "move e4"
        # Not confirmed yet: delivered again; confirmed by offset: gone for good.
        assert (await poll(timeout=0))["result"][0]["update_id"] == update_id
        assert (await poll(offset=update_id + 1, timeout=0))["result"] == []
        assert fake.pending_updates() == []

        # A second getUpdates ends the one still waiting with 409, as Telegram does.
        older = asyncio.create_task(bot.get_updates(timeout=30))
        await fake.wait_until(lambda: fake.waiting_polls == 1)
        newer = asyncio.create_task(poll(timeout=30))
        with pytest.raises(Conflict, match="terminated by other getUpdates request"):
            async with asyncio.timeout(5):
                await older
        await fake.wait_until(lambda: fake.waiting_polls == 1)
        # Stopping the fake answers the held poll at once instead of waiting it out.
        async with asyncio.timeout(5):
            await fake.stop()
            stopped = await newer
        assert stopped == {"ok": True, "result": []}


# ---- Platform behaviours (issue 26): one test each, citing where Telegram shows it.


async def test_forum_topics_thread_ids_and_the_opening_service_message(
    fake: FakeTelegram, bot: telegram.Bot
) -> None:
    """In a forum every message of a topic carries the topic's ``message_thread_id`` and
    replies to the topic's opening ``forum_topic_created`` service message (banteg/takopi#152
    quoting core.telegram.org/api/forum; adolfousier/opencrabs#130); the General topic has no
    thread (tdlib/telegram-bot-api#356); a reply in General carries its chain's thread id,
    which is no topic: sending there is 400 "message thread not found"
    (tdlib/telegram-bot-api#447). In privacy mode chatter in a topic is not delivered."""
    alice = fake.user(5, "Alice", "alice")
    forum = fake.forum(-1_000_000_000_070, "Hex club")
    topic = await fake.topic(forum, "Pathagon games", alice)
    updates = await bot.get_updates(timeout=0)
    assert updates[-1].message is not None
    assert updates[-1].message.forum_topic_created is not None
    offset = updates[-1].update_id + 1
    assert await fake.send_text(alice, forum, "nice to be here", topic=topic) is None
    await fake.send_text(alice, forum, "/challenge pathagon", topic=topic)
    [update] = await bot.get_updates(offset=offset, timeout=0)
    message = update.message
    assert message is not None and message.message_thread_id == topic
    assert message.is_topic_message
    root = message.reply_to_message
    assert root is not None and root.message_id == topic and root.forum_topic_created is not None
    assert root.from_user is not None and root.from_user.id == alice.id
    # The bot's answer in the topic: with the thread id, or as a reply to a message there.
    card = await bot.send_message(forum.id, "card", message_thread_id=topic)
    assert card.message_thread_id == topic and card.is_topic_message
    answer = await message.reply_text("answer")
    assert answer.message_thread_id == topic
    # General: no thread; a reply there has a thread id that names no topic.
    general = await bot.send_message(forum.id, "in General")
    assert general.message_thread_id is None and not general.is_topic_message
    await fake.send_text(alice, forum, "ok", reply_to=general)
    [reply] = await bot.get_updates(offset=update.update_id + 1, timeout=0)
    assert reply.message is not None and not reply.message.is_topic_message
    assert reply.message.message_thread_id == general.message_id
    with pytest.raises(BadRequest, match="Message thread not found"):
        await bot.send_message(forum.id, "x", message_thread_id=reply.message.message_thread_id)


async def test_privacy_mode_delivers_commands_replies_to_the_bot_and_mentions(
    fake: FakeTelegram, bot: telegram.Bot
) -> None:
    """A bot in privacy mode gets, in groups, commands addressed to it, bare commands while it
    is the last bot that posted there, replies to its own messages, mentions of it and service
    messages; nothing else (core.telegram.org/bots/faq, "What messages will my bot get?", and
    core.telegram.org/bots/features#privacy-mode). A reply to someone else's message is not
    delivered, even in a topic where everything replies to the opening message."""
    alice = fake.user(5, "Alice", "alice")
    bob = fake.user(6, "Bob", "bob")
    hall = fake.group(-40, "Hall")
    said = await bot.send_message(hall.id, "board")
    assert await fake.send_text(alice, hall, "/board") is not None
    assert await fake.send_text(alice, hall, "/board@other_bot") is None
    assert await fake.send_text(alice, hall, "reply", reply_to=said) is not None
    assert await fake.send_text(alice, hall, "hi @hexhall_bot") is not None
    chatter = fake.last_message_id(hall)
    assert await fake.send_text(bob, hall, "plain chatter") is None
    assert await fake.send_text(bob, hall, "to alice", reply_to=(hall.id, chatter)) is None
    forum = fake.forum(-1_000_000_000_071, "Club")
    topic = await fake.topic(forum, "t", alice)
    assert await fake.send_text(bob, forum, "chatter in a topic", topic=topic) is None
    # A bare command goes to the bot that posted last: after another bot spoke, only the
    # addressed form reaches this one, until it posts again.
    other = telegram.User(99, "Dice", is_bot=True, username="dice_bot")
    fake.other_bot_posts(hall, other, "rolled a 6")
    assert await fake.send_text(alice, hall, "/board") is None
    assert await fake.send_text(alice, hall, "/board@hexhall_bot") is not None
    await bot.send_message(hall.id, "here")
    assert await fake.send_text(alice, hall, "/board") is not None


async def test_group_migration_to_a_supergroup(fake: FakeTelegram, bot: telegram.Bot) -> None:
    """A group that becomes a supergroup gets a new id: the bot receives the two service
    messages (``migrate_to_chat_id`` in the old chat, ``migrate_from_chat_id`` in the new:
    TelegramBots/Telegram.Bot#171), and every later call naming the old id is 400 "group chat
    was upgraded to a supergroup chat" with ``migrate_to_chat_id`` (TwiN/gatus#179), which
    python-telegram-bot raises as ``ChatMigrated``. The new chat numbers its messages anew."""
    alice = fake.user(5, "Alice", "alice")
    group = fake.group(-50, "Hall")
    for n in range(3):
        await bot.send_message(group.id, f"old {n}")
    old_board = fake.sent(group)[-1]
    supergroup = await fake.migrate(group, alice)
    updates = await bot.get_updates(timeout=0)
    to, back = (u.message for u in updates if u.message)
    assert (to.migrate_to_chat_id, back.migrate_from_chat_id) == (supergroup.id, group.id)
    with pytest.raises(ChatMigrated) as moved:
        await bot.send_message(group.id, "lost")
    assert moved.value.new_chat_id == supergroup.id
    with pytest.raises(ChatMigrated):
        await bot.edit_message_text("edited", group.id, old_board.message_id)
    first = await bot.send_message(supergroup.id, "new")
    assert first.message_id == 2  # 1 is the migrate_from service message
    assert first.message_id < old_board.message_id


async def test_edited_messages_arrive_as_edited_message_updates(
    fake: FakeTelegram, bot: telegram.Bot, alice: telegram.User
) -> None:
    """An edit reaches the bot as an ``edited_message`` update, a kind of its own that a bot
    gets only when its ``allowed_updates`` ask for it (the Bot API's getUpdates; see
    grandamenium/cortextos#468 for a bot that missed edits this way); in a group in privacy
    mode, only when the new text is something the bot would see."""
    await fake.send_text(alice, fake.private(alice), "/move 1 a1")
    sent = fake.last_message_id(alice.id)
    first = await bot.get_updates(timeout=0, allowed_updates=["message", "edited_message"])
    await fake.edit_text(alice, (alice.id, sent), "/move 1 b2")
    [update] = await bot.get_updates(offset=first[-1].update_id + 1, timeout=0)
    assert update.message is None and update.edited_message is not None
    assert update.edited_message.text == "/move 1 b2" and update.edited_message.edit_date
    # Not asked for: not delivered.
    await fake.edit_text(alice, (alice.id, sent), "/move 1 c3")
    later = update.update_id + 1
    assert not await bot.get_updates(offset=later, timeout=0, allowed_updates=["message"])
    hall = fake.group(-60, "Hall")
    await fake.send_text(alice, hall, "just talk")
    assert await fake.edit_text(alice, (hall.id, fake.last_message_id(hall)), "still talk") is None


async def test_web_app_buttons_only_in_private_chats(
    fake: FakeTelegram, bot: telegram.Bot, alice: telegram.User
) -> None:
    """``web_app`` buttons are "available only in private chats between a user and the bot"
    (Bot API, InlineKeyboardButton): elsewhere 400 ``BUTTON_TYPE_INVALID``
    (php-telegram-bot/core#1353, tbxark/mail2telegram#29)."""
    app_button = InlineKeyboardMarkup(
        [[InlineKeyboardButton("Open", web_app=telegram.WebAppInfo("https://example.org/app"))]]
    )
    sent = await bot.send_message(alice.id, "private", reply_markup=app_button)
    assert sent.reply_markup is not None
    hall = fake.group(-61, "Hall")
    with pytest.raises(BadRequest, match=r"(?i)button_type_invalid"):
        await bot.send_message(hall.id, "group", reply_markup=app_button)
    card = await bot.send_message(hall.id, "card")
    with pytest.raises(BadRequest, match=r"(?i)button_type_invalid"):
        await bot.edit_message_reply_markup(hall.id, card.message_id, reply_markup=app_button)


async def test_forbidden_once_the_bot_was_removed(fake: FakeTelegram, bot: telegram.Bot) -> None:
    """A bot removed from a group gets 403 for everything there, sends and edits alike:
    "Forbidden: bot was kicked from the group chat" (TelegramBots/Telegram.Bot#250), "… from
    the supergroup chat" (aiogram/aiogram#445)."""
    hall = fake.group(-62, "Hall")
    board = await bot.send_message(hall.id, "board")
    club = fake.group(-1_000_000_000_072, "Club", supergroup=True)
    fake.kick_bot(hall)
    fake.kick_bot(club)
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await bot.send_message(hall.id, "your turn")
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await bot.edit_message_text("edited", hall.id, board.message_id)
    with pytest.raises(Forbidden, match="bot was kicked from the supergroup chat"):
        await bot.send_photo(club.id, _png())


# -- flood limits (issue 24): each rule of TelegramLimits, cited in its docstring ---------------


@pytest.fixture
async def limited() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(limits=TelegramLimits()) as server:
        yield server


@pytest.fixture
async def limited_bot(limited: FakeTelegram) -> AsyncIterator[telegram.Bot]:
    async with telegram.Bot(
        limited.token, base_url=limited.base_url, base_file_url=limited.base_file_url
    ) as client:
        yield client


async def test_one_new_message_a_second_per_chat(
    limited: FakeTelegram, limited_bot: telegram.Bot
) -> None:
    """Bots FAQ: "avoid sending more than one message per second in a particular chat";
    another chat is not held back, and an edit is no new message."""
    alice = limited.user(5, "Alice", "alice")
    bob = limited.user(6, "Bob", "bob")
    for user in (alice, bob):
        await limited.start_private(user, send_start=False)
    first = await limited_bot.send_message(alice.id, "one")
    with pytest.raises(RetryAfter) as caught:
        await limited_bot.send_message(alice.id, "two")
    assert caught.value.retry_after == dtm.timedelta(seconds=1)
    assert (await limited_bot.send_message(bob.id, "elsewhere")).text == "elsewhere"
    await limited_bot.edit_message_text("one, edited", alice.id, first.message_id)
    assert [m.text for m in limited.sent(alice.id)] == ["one, edited"]


async def test_twenty_messages_a_minute_per_group_edits_counted() -> None:
    """Bots FAQ: "your bot will not be able to send more than 20 messages per minute to the
    same group"; edits count too (grammY's flood guide).  Another group is unaffected."""
    rules = TelegramLimits(per_chat=100)  # this test is about the group's minute only
    async with (
        FakeTelegram(limits=rules) as fake,
        telegram.Bot(fake.token, base_url=fake.base_url) as bot,
    ):
        group, other = fake.group(-100, "Club"), fake.group(-200, "Other club")
        first = await bot.send_message(group.id, "0")
        for i in range(1, 19):
            await bot.send_message(group.id, str(i))
        await bot.edit_message_text("0, edited", group.id, first.message_id)  # the 20th
        with pytest.raises(RetryAfter) as caught:
            await bot.send_message(group.id, "21st")
        assert dtm.timedelta(seconds=55) <= caught.value.retry_after <= dtm.timedelta(seconds=60)
        with pytest.raises(RetryAfter):
            await bot.edit_message_text("0, again", group.id, first.message_id)
        assert (await bot.send_message(other.id, "elsewhere")).text == "elsewhere"
        assert len(fake.sent(group.id)) == 19


async def test_flood_refusal_has_telegrams_shape(
    limited: FakeTelegram, limited_bot: telegram.Bot
) -> None:
    """A limit answers 429 "Too Many Requests: retry after N" with ``retry_after`` in
    ``parameters`` (Bot API, ResponseParameters); callback answers are never paced."""
    alice = limited.user(5, "Alice", "alice")
    await limited.start_private(alice, send_start=False)
    board = await limited_bot.send_message(alice.id, "one", reply_markup=RESIGN)
    with pytest.raises(RetryAfter):
        await limited_bot.send_photo(alice.id, BOARD_PNG)
    refused = limited.calls_to("sendPhoto")[0].response
    assert refused == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 1",
        "parameters": {"retry_after": 1},
    }
    query_id = await limited.press(alice, board, "resign")
    assert await limited_bot.answer_callback_query(query_id, "at once")


async def test_removing_the_bot_sends_my_chat_member_and_refuses_sends(
    fake: FakeTelegram, bot: telegram.Bot, alice: telegram.User
) -> None:
    """A bot removed from a group gets ``my_chat_member`` (its status ``kicked`` in a
    supergroup, ``left`` in a basic group), not hidden by privacy mode, and every send there
    is refused with 403 "bot was kicked"; added back, it gets ``member`` and may send again."""
    club = fake.group(-42, "Club", supergroup=True)
    hall = fake.group(-43, "Hall")
    await fake.remove_bot(club, alice)
    await fake.remove_bot(hall, alice)
    updates = await bot.get_updates(timeout=0)
    changes = [u.my_chat_member for u in updates if u.my_chat_member is not None]
    assert [(c.chat.id, c.new_chat_member.status) for c in changes] == [
        (club.id, "kicked"),
        (hall.id, "left"),
    ]
    assert all(c.old_chat_member.status == "member" for c in changes)
    assert all(c.new_chat_member.user.id == bot.id and c.from_user.id == alice.id for c in changes)
    with pytest.raises(Forbidden, match="bot was kicked from the supergroup chat"):
        await bot.send_message(club.id, "hi")
    await fake.add_bot(club, alice)
    updates = await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0)
    (back,) = [u.my_chat_member for u in updates if u.my_chat_member is not None]
    assert back.new_chat_member.status == "member" and back.old_chat_member.status == "kicked"
    assert (await bot.send_message(club.id, "hi")).text == "hi"


async def test_my_chat_member_only_to_a_bot_that_asks_for_it(
    fake: FakeTelegram, bot: telegram.Bot, alice: telegram.User
) -> None:
    hall = fake.group(-44, "Hall")
    await bot.get_updates(timeout=0, allowed_updates=["message"])
    await fake.remove_bot(hall, alice)
    assert await bot.get_updates(timeout=0, allowed_updates=["message"]) == ()


async def test_a_callback_answer_opens_only_a_start_link_to_this_bot(
    fake: FakeTelegram, alice: telegram.User
) -> None:
    """answerCallbackQuery's ``url``: without a registered game, only "links like
    t.me/your_bot?start=XXXX that open your bot with a parameter" (Bot API); anything else is
    refused (URL_INVALID) and the query stays unanswered."""
    app = fake.application_builder().build()
    async with app:
        sent = await app.bot.send_message(alice.id, "board", reply_markup=RESIGN)
        for url in (
            "https://example.com/",
            "https://t.me/other_bot?start=pk12",
            "https://t.me/hexhall_bot?start=pk 12",
            "https://t.me/hexhall_bot?start=" + "x" * 65,
        ):
            query = await fake.press(alice, sent, "resign")
            with pytest.raises(telegram.error.BadRequest, match=r"(?i)url_invalid"):
                await app.bot.answer_callback_query(query, url=url)
            assert query not in {a.query_id for a in fake.callback_answers}
        query = await fake.press(alice, sent, "resign")
        assert await app.bot.answer_callback_query(
            query, text="Press Start", url="https://t.me/hexhall_bot?start=pk12"
        )
        answer = await fake.wait_for_answer(query)
        assert answer.url == "https://t.me/hexhall_bot?start=pk12"
