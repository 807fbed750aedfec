"""A move made on the web board reaches the game's chat at once (issue 42): the real Telegram
adapter and its outbox (woken only by updates and by the manager's bell: its own poll is an
hour) against the fake Bot API, and the web board's real HTTP API on the same manager.

The web board answers the move on its page, so nothing in the chat claims the move's board:
it is due at once and the bell wakes the outbox, instead of the board waiting out the grace
kept for an adapter's answer (10 s; measured before: a Mini App move reached the group after
10.1 s).  An ordinary chat move is still answered by its board once, and never posted again by
the outbox."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import aiohttp
import telegram

from bot.core.notification import Kind
from bot.webboard import WebBoard, serve_web
from bot.webboard.auth import sign_init_data
from tests.adapters.telegram_kit import Bot, running

#: The bound on a web move's way to the chat (the issue's figure): waited on, never slept.
WITHIN = 2.0
#: The outbox's own poll in these tests: only a wake-up can deliver anything in time.
HOUR = 3600.0


@asynccontextmanager
async def _board(bot: Bot) -> AsyncIterator[tuple[WebBoard, str]]:
    """The web board on ``bot``'s manager (as ``hexhall run`` wires it), and its address."""
    web = WebBoard(bot.manager, "http://127.0.0.1", telegram_token=bot.fake.token)
    endpoint = await serve_web(web, "127.0.0.1", 0)
    web.public_url = f"http://127.0.0.1:{endpoint.port}"
    bot.manager.web_pages = web
    try:
        yield web, web.public_url
    finally:
        bot.manager.web_pages = None
        await endpoint.close()


def _names(message: telegram.Message, move: str) -> bool:
    return move in (message.text or message.caption or "")


async def _undelivered_boards(bot: Bot, game_id: int) -> int:
    """The game's committed boards no answer and no outbox has delivered yet (whenever due)."""
    far = bot.manager.now() + timedelta(days=1)
    due = await bot.manager.store.due_notifications("telegram", far, 500)
    return sum(1 for n in due if n.kind is Kind.BOARD and n.game_id == game_id)


async def _first_legal(bot: Bot, game_id: int) -> tuple[str, int]:
    view = await bot.manager.web_view(game_id)
    assert view is not None
    return view.position.legal_moves()[0], view.row.ply


async def test_a_web_move_reaches_the_group_within_two_seconds(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True, poll=HOUR) as bot:
        fake = bot.fake
        alice, bob = fake.user(31, "Alice", "alice"), fake.user(32, "Bob", "bob")
        group = fake.group(-500, "Hex club")
        _, gid = await bot.accepted(group, alice, bob, "pathagon")
        # Everything the chat caused so far is out: the outbox sleeps on its hour-long poll.
        await bot.eventually(lambda: _no_due(bot))
        mover = await bot.to_move(gid, alice, bob)
        move, ply = await _first_legal(bot, gid)
        async with _board(bot) as (web, url), aiohttp.ClientSession() as http:
            slug = (await web.link(gid)).rsplit("/", 1)[1]
            tma = sign_init_data(
                {"id": mover.id, "first_name": mover.first_name}, fake.token, bot.manager.now()
            )
            before = fake.last_message_id(group)
            async with http.post(
                f"{url}/api/games/{slug}/moves",
                json={"move": move, "ply": ply},
                headers={"Authorization": f"tma {tma}"},
            ) as answer:
                body = await answer.json()
                assert answer.status == 200, body
            posted = await fake.wait_for_message(
                group, lambda m: m.message_id > before and _names(m, move), timeout=WITHIN
            )
            assert posted.chat.id == group.id
            # Posted once: the board is delivered, and nothing else names the move.
            await bot.eventually(lambda: _none_left(bot, gid))
            again = [m for m in fake.sent_after(group, before) if _names(m, move)]
            assert len(again) == 1, [m.text for m in again]


async def test_a_chat_move_is_answered_by_its_board_once(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", pictures=False, deliver=True, poll=0.05) as bot:
        fake = bot.fake
        alice, bob = fake.user(41, "Alice", "alice"), fake.user(42, "Bob", "bob")
        group = fake.group(-600, "Hex club")
        _, gid = await bot.accepted(group, alice, bob, "pathagon")
        mover = await bot.to_move(gid, alice, bob)
        move, _ = await _first_legal(bot, gid)
        before = fake.last_message_id(group)
        answer = await bot.say(mover, group, f"/move {move}")
        assert _names(answer, move), answer.text
        # The answer claimed the committed board and marked it sent: no outbox has it to post
        # (the eager outbox here would, were it left undelivered past the grace).
        await bot.eventually(lambda: _none_left(bot, gid))
        told = [m for m in fake.sent_after(group, before) if _names(m, move)]
        assert len(told) == 1, [m.text for m in told]


async def _none_left(bot: Bot, game_id: int) -> bool:
    return await _undelivered_boards(bot, game_id) == 0


async def _no_due(bot: Bot) -> bool:
    due = await bot.manager.store.due_notifications("telegram", bot.manager.now(), 500)
    return not due
