"""The flow after a post (bot.adapters.afterpost), written once for every chat platform, over a
platform that records what it is asked to do to its messages: the same flow tidies Discord's
way (a new board retires the older ones at once) and Telegram's (the older boards keep their
buttons until the game is over), closes a finished game's pickers, offers and live boards,
closes lapsed offers only for games this process posted offers of, and makes every other
copy of an answered challenge's card say the answer."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.adapters import afterpost
from bot.core.lru import Lru
from bot.messages import Reply, Text
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import PostKind, SqliteStore
from tests.bot.session_kit import ALICE, BOB, ROOM

PLATFORM = "recorded"


@dataclass
class Recorded:
    """A platform that records what the flow asks of it, as (what, chat, message)."""

    retires_each_board: bool
    platform: str = PLATFORM
    done: list[tuple[str, str, str]] = field(default_factory=list)

    async def drop_buttons(self, post: afterpost.Place) -> None:
        self.done.append(("drop", post.chat_id, post.message_id))

    async def close_picker(self, post: afterpost.Place) -> None:
        self.done.append(("picker", post.chat_id, post.message_id))

    async def close_offer(self, post: afterpost.Place) -> None:
        self.done.append(("offer", post.chat_id, post.message_id))

    async def show_answer(self, post: afterpost.Place, reply: Reply) -> None:
        self.done.append((f"answer: {reply.text}", post.chat_id, post.message_id))


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[SessionManager]:
    store = await SqliteStore.open(tmp_path / "h.db")
    try:
        yield SessionManager(store, FakeClock(), pictures=False, rng=random.Random(1))
    finally:
        await store.close()


async def _game(m: SessionManager) -> int:
    made = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB, {}, "me", 3)
    accepted = await m.challenges.accept(BOB, ROOM, made.challenge_id)
    assert accepted.game_id is not None, accepted.text
    return accepted.game_id


async def _live(m: SessionManager, game_id: int) -> list[tuple[str, str]]:
    posts = await m.posts.posts_for(PLATFORM, game_id=game_id, live=True)
    return [(p.kind.value, p.message_id) for p in posts]


@pytest.mark.parametrize("each", [True, False])
async def test_a_new_board_closes_older_pickers_and_retires_boards_as_the_platform_says(
    manager: SessionManager, each: bool
) -> None:
    gid = await _game(manager)
    surface = Recorded(retires_each_board=each)
    await afterpost.board_posted(manager, surface, "c", "1", gid)
    await manager.posts.remember_post(PLATFORM, "c", "2", PostKind.PICKER, game_id=gid)
    await afterpost.board_posted(manager, surface, "c", "3", gid)
    older_board = [("drop", "c", "1")] if each else []
    assert sorted(surface.done) == [*older_board, ("picker", "c", "2")]
    # The game ends: the final board takes the buttons from every older board anyway.
    surface.done.clear()
    await afterpost.board_posted(manager, surface, "c", "4", gid, over=True)
    assert surface.done == [("drop", "c", "3")]


async def test_a_finished_game_closes_its_pickers_offers_and_live_boards(
    manager: SessionManager,
) -> None:
    gid = await _game(manager)
    surface = Recorded(retires_each_board=False)
    await afterpost.board_posted(manager, surface, "c", "1", gid)
    await manager.posts.remember_post(PLATFORM, "c", "2", PostKind.PICKER, game_id=gid)
    await manager.posts.remember_post(PLATFORM, "dm", "3", PostKind.OFFER, game_id=gid)
    await afterpost.game_over(manager, surface, gid)
    assert sorted(surface.done) == [("drop", "c", "1"), ("offer", "dm", "3"), ("picker", "c", "2")]
    assert await _live(manager, gid) == []
    surface.done.clear()
    await afterpost.game_over(manager, surface, gid)  # again: nothing left to close
    assert surface.done == []


async def test_a_lapsed_offer_is_closed_only_where_this_process_posted_one(
    manager: SessionManager,
) -> None:
    gid = await _game(manager)
    surface = Recorded(retires_each_board=False)
    await manager.posts.remember_post(PLATFORM, "dm", "5", PostKind.OFFER, game_id=gid)
    posted: Lru[int, None] = Lru(10)
    await afterpost.close_lapsed_offers(manager, surface, posted, gid)
    assert surface.done == []  # not posted here: not even looked up
    posted[gid] = None
    offered = await manager.games.draw(ALICE, ROOM, gid, "offer")
    assert offered.ok, offered.text
    await afterpost.close_lapsed_offers(manager, surface, posted, gid)
    assert surface.done == [] and gid in posted  # the offer stands
    assert (await manager.games.draw(BOB, ROOM, gid, "decline")).ok
    await afterpost.close_lapsed_offers(manager, surface, posted, gid)
    assert surface.done == [("offer", "dm", "5")] and gid not in posted


async def test_an_answered_card_says_the_answer_on_every_other_copy(
    manager: SessionManager,
) -> None:
    made = await manager.challenges.challenge(ALICE, ROOM, "pathagon", BOB, {}, "me", 3)
    cid = made.challenge_id
    assert cid is not None
    for chat, message in (("group", "10"), ("dm", "11"), ("other", "12")):
        await manager.posts.remember_post(PLATFORM, chat, message, PostKind.CARD, challenge_id=cid)
    surface = Recorded(retires_each_board=True)
    answer = Reply(Text.of("declined"), challenge_id=cid)
    await afterpost.card_answered(manager, surface, cid, answer, [("dm", "11")])
    assert sorted(surface.done) == [
        ("answer: declined", "group", "10"),
        ("answer: declined", "other", "12"),
    ]
    assert await manager.posts.posts_for(PLATFORM, challenge_id=cid, live=True) == []
