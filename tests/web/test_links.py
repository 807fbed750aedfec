"""The board's link on every platform, with the real adapters against the fakes: Telegram's
link button (a ``web_app`` button in a private chat, a ``t.me/<bot>/<app>?startapp=g_<slug>``
Mini App link in a group), Discord's "Open board" answered privately with the presser's own
link, the console's printed link; and the personal link lets its owner move, nobody else.

Telegram documents the ``web_app`` inline button as available in private chats only
(core.telegram.org/bots/api#inlinekeyboardbutton) and direct links to a Mini App as
``https://t.me/<bot username>/<short name>?startapp=<parameter>`` (core.telegram.org/bots/
webapps, "Direct Link Mini Apps")."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.adapters.console import CHAT, Console, console_user
from bot.sessions.clock import FakeClock
from bot.sessions.thinker import Thinker
from bot.webboard import WebBoard
from bot.webboard.auth import check_link, link_key
from engines.ai import Budget
from engines.levels import Level
from tests.adapters import discord_kit, telegram_kit
from tests.web.kit import LINK_SECRET, new_game, site

PUBLIC = "https://hexhall.example"


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    # httpx honours proxy variables; calls to the fakes must stay on 127.0.0.1.
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


async def test_telegram_link_buttons(tmp_path: Path) -> None:
    async with telegram_kit.running(tmp_path / "t.db", pictures=False) as bot:
        board = WebBoard(bot.manager, PUBLIC, link_secret=LINK_SECRET)
        bot.manager.web_pages = board
        bot.adapter.web_app = "board"
        fake = bot.fake
        alice, bob = fake.user(11, "Alice", "alice"), fake.user(12, "Bob", "bob")
        group = fake.group(-100, "Hex club")
        card = await bot.say(alice, group, "/challenge pathagon @bob first=me")
        await bot.press(bob, card, bot.button(card, "Accept"))
        shown = await fake.wait_for_message(group, lambda m: m.message_id > card.message_id)
        gid = bot.game_id(shown)
        slug = (await board.link(gid)).rsplit("/", 1)[1]
        buttons = [b for row in fake.keyboard(shown) for b in row if b.text == "Open board"]
        assert len(buttons) == 1 and buttons[0].web_app is None
        me = (await bot.adapter.application.bot.get_me()).username
        assert buttons[0].url == f"https://t.me/{me}/board?startapp=g_{slug}"

        # In a private chat with the bot, the board opens as a Mini App.
        await fake.start_private(alice, send_start=False)
        private = fake.private(alice)
        started = await bot.say(alice, private, "/challenge bot pathagon first=me")
        page = [b for row in fake.keyboard(started) for b in row if b.text == "Open board"]
        assert len(page) == 1 and page[0].web_app is not None
        assert re.fullmatch(rf"{PUBLIC}/g/[A-Za-z0-9_-]{{22}}", page[0].web_app.url)


async def test_discord_open_board_answers_privately(tmp_path: Path) -> None:
    clock = FakeClock()
    async with (
        discord_kit.fake_discord() as fake,
        discord_kit.running(fake, tmp_path / "d.db", clock=clock) as run,
    ):
        board = WebBoard(run.manager, PUBLIC, link_secret=LINK_SECRET)
        run.manager.web_pages = board
        card = await run.answer(
            discord_kit.ALICE, "challenge", {"game": "pathagon", "opponent": discord_kit.BOB}
        )
        await run.click(discord_kit.BOB, card, "Accept")
        gid = int(discord_kit.button(card, "Board").split(":")[1])
        pressed = await run.click(discord_kit.ALICE, card, "Open board")
        answer = await run.fake.original(pressed)
        assert answer.ephemeral
        link = re.search(r"https://\S+#t=\S+", answer.content or "")
        assert link is not None and link.group().startswith(await board.link(gid))
        token = link.group().split("#t=")[1]
        who = check_link(link_key(LINK_SECRET), token, gid, clock.now())
        assert (who.platform, who.user_id) == ("discord", str(discord_kit.ALICE))
        # Carol, who does not play, is only given the page to watch.
        watched = await run.fake.original(await run.click(discord_kit.CAROL, card, "Open board"))
        assert watched.ephemeral and "#t=" not in (watched.content or "")
        assert await board.link(gid) in (watched.content or "")


async def test_console_prints_the_players_link(tmp_path: Path) -> None:
    async with site(str(tmp_path / "c.db")) as web:
        web.manager.web_pages = web.board
        out = io.StringIO()
        console = Console(web.manager, tmp_path / "boards", out=out, prompt=False)
        one, two = console_user(console.user.name), console_user("player2")
        gid = await new_game(web.manager, "pathagon", one, two, CHAT)
        await console.show(await web.manager.games.board(one, CHAT, gid))
        printed = out.getvalue()
        link = re.search(r"http://127\.0\.0\.1:\d+/g/[A-Za-z0-9_-]+#t=\S+", printed)
        assert link is not None, printed


@pytest.fixture(scope="module")
def thinker() -> Iterator[Thinker]:
    """One worker with tiny budgets: the bot's moves are quick, the test is about their boards."""
    tiny = {level: Budget(iterations=5, seconds=60.0) for level in Level}
    shared = Thinker(budgets=tiny, workers=1)
    yield shared
    shared.close(wait=True)


async def test_outbox_boards_carry_the_mini_app_link(tmp_path: Path, thinker: Thinker) -> None:
    """The bot's move in a group comes as a board the outbox posts (the answer to Alice's move
    is hers): its "Open board" is the same Mini App link as an answered board's, not the
    watch-only page."""
    async with telegram_kit.running(
        tmp_path / "t.db", pictures=False, deliver=True, thinker=thinker, web_app="board"
    ) as bot:
        board = WebBoard(bot.manager, PUBLIC, link_secret=LINK_SECRET)
        bot.manager.web_pages = board
        fake = bot.fake
        alice = fake.user(21, "Alice", "alice")
        group = fake.group(-200, "Hex club")
        start = await bot.say(alice, group, "/challenge pathagon bot level=easy first=me")
        gid = bot.game_id(start)
        slug = (await board.link(gid)).rsplit("/", 1)[1]
        me = (await bot.adapter.application.bot.get_me()).username
        mini_app = f"https://t.me/{me}/board?startapp=g_{slug}"
        before = fake.last_message_id(group)
        await bot.say(alice, group, "/move d4")

        def bots_board() -> list[str]:
            return [
                b.url or ""
                for m in fake.sent_after(group, before)
                if "your turn" in (m.text or m.caption or "").lower()
                for row in fake.keyboard(m)
                for b in row
                if b.text == "Open board"
            ]

        await fake.wait_until(lambda: bool(bots_board()), timeout=30.0)
        assert bots_board() == [mini_app]
        answered = [
            b.url
            for m in fake.sent_after(group, before)
            if "your turn" not in (m.text or m.caption or "").lower()
            for row in fake.keyboard(m)
            for b in row
            if b.text == "Open board"
        ]
        assert answered == [mini_app]  # the answer to Alice's own move: the same link


async def test_a_tournaments_boards_carry_the_mini_app_link(tmp_path: Path) -> None:
    """A tournament's games start with boards only the outbox posts: each carries the game's
    Mini App link."""
    async with telegram_kit.running(
        tmp_path / "t.db", pictures=False, deliver=True, web_app="board"
    ) as bot:
        board = WebBoard(bot.manager, PUBLIC, link_secret=LINK_SECRET)
        bot.manager.web_pages = board
        fake = bot.fake
        ada, bo, cy = (
            fake.user(31, "Ada", "ada"),
            fake.user(32, "Bo", "bo"),
            fake.user(33, "Cy", "cy"),
        )
        group = fake.group(-300, "Hex club")
        card = await bot.say(ada, group, "/tournament new pathagon days=1")
        for player in (bo, cy):
            await bot.press(player, card, bot.button(card, "Join"))
        await fake.send_text(ada, group, "/tournament start")
        me = (await bot.adapter.application.bot.get_me()).username

        def links() -> dict[int, str]:
            return {
                bot.game_id(m): b.url or ""
                for m in fake.sent(group)
                if "begins" in (m.text or m.caption or "")
                for row in fake.keyboard(m)
                for b in row
                if b.text == "Open board"
            }

        await fake.wait_until(lambda: len(links()) == 3, timeout=telegram_kit.DEADLINE)
        for gid, url in links().items():
            slug = (await board.link(gid)).rsplit("/", 1)[1]
            assert url == f"https://t.me/{me}/board?startapp=g_{slug}"
