"""Shared pieces of the web board's tests: a bot (manager on a real SQLite file or PostgreSQL
database) with its web board listening on 127.0.0.1, games between Telegram or Discord
players, and the credentials the platforms would give them."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlencode

from playwright.async_api import Browser, Page

import engines
from bot.core.notification import Kind, Notification
from bot.messages import Chat, User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.sessions.picker import split_parts
from bot.sessions.thinker import Thinker
from bot.storage import open_store
from bot.webboard import WebBoard, WebEndpoint, serve_web
from bot.webboard.auth import Identity, sign_init_data

#: The bot token the fake Telegram users' initData is signed with.
BOT_TOKEN = "123456:TEST-token"
LINK_SECRET = "test link secret"

ADA = User("telegram", "1001", "Ada")
BO = User("telegram", "1002", "Bo")
TG_GROUP = Chat("telegram", "-100123")
CY = User("discord", "2001", "Cy")
DI = User("discord", "2002", "Di")
DC_CHANNEL = Chat("discord", "3001", community="4001")
#: A phone's viewport, in CSS pixels.
PHONE = {"width": 390, "height": 844}


@dataclass
class Site:
    """A running bot with its web board: ``url`` is the board's base address."""

    manager: SessionManager
    board: WebBoard
    endpoint: WebEndpoint
    clock: FakeClock

    @property
    def url(self) -> str:
        """The board's base address."""
        return self.board.public_url


@asynccontextmanager
async def site(
    db: str,
    clock: FakeClock | None = None,
    poll_every: float = 0.2,
    thinker: Thinker | None = None,
    **limits: tuple[float, int],
) -> AsyncIterator[Site]:
    """A manager on ``db`` with its web board on a free port of 127.0.0.1 (``thinker``: its
    worker pool, when not the default one; ``limits``: its ``player_rate``, ``address_rate``,
    ``review_rate`` and ``download_rate``, when not the defaults)."""
    clock = clock or FakeClock()
    store = await open_store(db)
    manager = SessionManager(store, clock, pictures=False, rng=random.Random(1), thinker=thinker)
    board = WebBoard(
        manager,
        "http://127.0.0.1",
        telegram_token=BOT_TOKEN,
        link_secret=LINK_SECRET,
        poll_every=poll_every,
        **limits,
    )
    endpoint = await serve_web(board, "127.0.0.1", 0)
    board.public_url = f"http://127.0.0.1:{endpoint.port}"
    manager.web_pages = board  # as hexhall run wires it
    try:
        yield Site(manager, board, endpoint, clock)
    finally:
        await endpoint.close()
        await manager.close()
        await store.close()


async def new_game(
    manager: SessionManager,
    game: str,
    one: User,
    two: User,
    chat: Chat,
    moves: Sequence[str] = (),
    options: dict[str, object] | None = None,
) -> int:
    """A game of ``game`` between ``one`` (seat 0) and ``two`` in ``chat``, with ``moves``
    played from the chat."""
    made = await manager.challenges.challenge(one, chat, game, two, options or {}, "me", None)
    assert made.ok and made.challenge_id is not None, made.text
    started = await manager.challenges.accept(two, chat, made.challenge_id)
    assert started.ok and started.game_id is not None, started.text
    gid = started.game_id
    for ply, move in enumerate(moves):
        row = await manager.store.get_game(gid)
        assert row is not None and row.to_move is not None
        reply = await manager.games.move((one, two)[row.to_move], chat, move, gid, ply)
        assert reply.ok, reply.text
    return gid


def init_data(user: User, clock: FakeClock, age_hours: float = 0.0) -> str:
    """The Mini App initData Telegram would give ``user`` (signed ``age_hours`` ago)."""
    from datetime import timedelta

    signed = clock.now() - timedelta(hours=age_hours)
    return sign_init_data({"id": int(user.user_id), "first_name": user.name}, BOT_TOKEN, signed)


def identity(user: User) -> Identity:
    """``user`` as the web board's auth knows them."""
    return Identity(user.platform, user.user_id, user.name)


async def chat_notes(manager: SessionManager, user: User) -> list[Notification]:
    """What the outbox holds for ``user`` (the chat's announcements to them)."""
    player = await manager.store.find_player(user.platform, user.user_id)
    assert player is not None and player.id is not None
    return await manager.store.notifications_for(player.id)


def announced(notes: list[Notification], move: str) -> bool:
    """Whether the board committed with the move (the chat's notice of it) names ``move``."""
    return any(n.kind is Kind.BOARD and move in str(n.text) for n in notes)


def all_cells(position: engines.Position, move: str) -> bool:
    """Whether every part of ``move`` names a cell of the board (so it is played by tapping
    the board alone)."""
    names = set(position.board.names)
    return all(part.lstrip(" >-") in names for part in split_parts(move))


@cache
def relocation_game(size: int = 5) -> tuple[tuple[str, ...], str]:
    """inpHeXion moves (no pie) after which the player to move has a move that relocates a
    surrounded disc, and that move (found with the engine's own legal moves)."""
    for seed in range(200):
        rng = random.Random(seed)
        position = engines.new("inphexion", size=size, pie=False)
        played: list[str] = []
        for _ in range(40):
            legal = position.legal_moves()
            if not legal or position.outcome is not None:
                break
            relocating = [m for m in legal if ">" in m]
            if relocating:
                return tuple(played), relocating[0]
            move = rng.choice(legal)
            position = position.play(move)
            played.append(position.last_move or move)
    raise AssertionError("no inpHeXion relocation found")


@cache
def losing_game(size: int = 5) -> tuple[tuple[str, ...], str]:
    """inpHeXion moves (no pie) after which the player to move has a legal move that loses
    the game for them, and that move (found with the engine's own legal moves)."""
    for seed in range(300):
        rng = random.Random(seed)
        position = engines.new("inphexion", size=size, pie=False)
        played: list[str] = []
        for _ in range(80):
            if position.outcome is not None:
                break
            legal = position.legal_moves()
            for move in legal:
                outcome = position.play(move).outcome
                if outcome is not None and outcome.winner not in (None, position.to_move):
                    return tuple(played), move
            safe = [m for m in legal if position.play(m).outcome is None] or legal
            move = rng.choice(safe)
            position = position.play(move)
            played.append(position.last_move or move)
    raise AssertionError("no losing inpHeXion move found")


async def phone(browser: Browser) -> Page:
    """A new phone-sized page (touch); :func:`launched` signs a board's address in."""
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    return await context.new_page()


def launched(link: str, tma: str) -> str:
    """``link`` as Telegram opens a Mini App: the launch data ``tma`` in the address's
    fragment (``#tgWebAppData=...``, core.telegram.org/bots/webapps), and no
    ``window.Telegram.WebApp``, which only Telegram's own script would define."""
    return f"{link}#{urlencode({'tgWebAppData': tma})}"
